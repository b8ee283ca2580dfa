r"""Derivations of the closed forms of a parametric kernel (what ``exactdp derive`` prints).

:func:`derive` runs the one measure of each quantity — :func:`exactdp.measures.two_point.eta_in` for
η_TV / η_{E_γ} (B-1, B-2), :func:`exactdp.measures.privacy.ldp_ratio_in` (D-5) and
:func:`exactdp.measures.privacy.pml_ratio_in` (D-9) — in the SR domain of the kernel's region and records
the steps the measure reports to its observer (the divergence of each pair of rows, the ratio of each
output, the maximum) as a :class:`~exactdp.symbolic.closedforms.Derivation` of :class:`Step`: prose
``text``, the LaTeX ``math`` of the quantity computed, its value ``expr``.
:func:`exactdp.output.latex.derivation_document` typesets them, each step as an equation ``math = expr``.
"""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

import sympy

from exactdp.errors import ParameterError
from exactdp.measures import registry
from exactdp.measures.input_domain import input_domain, region_domain
from exactdp.measures.two_point import eta_in
from exactdp.measures.privacy import ldp_ratio_in, pml_domain, pml_ratio_in
from exactdp.symbolic.closedforms import Derivation, Step, cell_form
from exactdp.symbolic.region import assuming, validity_region

if TYPE_CHECKING:
    from exactdp.kernels import Kernel, KernelInput

QUANTITIES = ("validity", "eta_tv", "eta_hockey_stick", "ldp_ratio", "pml_ratio")

#: per quantity: (prose title, LaTeX of its definition) — the headings of :func:`derive`'s derivations
QUANTITY_HEADINGS = {
    "validity": ("Validity region (every entry in [0, 1], rows summing to 1)", ""),
    "eta_tv": ("Contraction coefficient for total variation (D-4)",
               r"\eta_{\mathrm{TV}}(K) = \max_{x, x'} \mathrm{TV}(K_x, K_{x'})"),
    "eta_hockey_stick": ("Contraction coefficient for the hockey-stick divergence (B-2, [A] Theorem 1)",
                         r"\eta_{E_{\gamma}}(K) = \max_{x, x'} E_{\gamma}(K_x \,\|\, K_{x'})"),
    "ldp_ratio": ("Local differential privacy level (D-5, [G] eq. (1))",
                  r"e^{\mathrm{LDP}(K)} = \max_y \frac{\max_x K(y \mid x)}{\min_x K(y \mid x)}"),
    "pml_ratio": ("Pointwise maximal leakage at the least favourable prior of the class (D-9)",
                  r"e^{C(K, \mathcal{Q}_X(c))} = \max_y \frac{\max_x K(y \mid x)}"
                  r"{c S_y + (1 - N c) \min_x K(y \mid x)}, \quad S_y = \sum_x K(y \mid x)"),
}


def derive(K: Kernel, quantities: Any=QUANTITIES, *, c: Any=None, gamma: Any=None) -> list[Any]:
    """The derivations of the requested closed forms of a parametric kernel (list of Derivation), each
    with its prose ``title`` and LaTeX ``math`` definition (:data:`QUANTITY_HEADINGS`)."""
    out = []
    for q in quantities:
        if q not in QUANTITY_HEADINGS:
            out.append(_registered(K, q))
            continue
        title, math = QUANTITY_HEADINGS[q]
        d = Derivation(q, title=title, math=math)
        if q == "validity":
            v = validity_region(K)
            d.add("declared region", v.assumed.as_sympy())
            for cond in v.conditions:
                d.add("entry condition not implied by the declared region", cond)
            d.result = sympy.And(v.assumed.as_sympy(), v.condition)
        elif q == "eta_tv":
            d.quantity = "eta_TV(K) = max_{x,x'} TV(K_x, K_x')"
            D = region_domain(K, 1)
            d.result = eta_in(D, K, 1, _pair_steps(d, 1, D))[0]
        elif q == "eta_hockey_stick":
            g = gamma if gamma is not None else sympy.Symbol("gamma", positive=True)
            d.quantity = f"eta_E_gamma(K) at gamma = {g}"
            if not isinstance(g, sympy.Symbol):
                d.math = d.math.replace(r"\gamma", "{" + sympy.latex(g) + "}")
            with assuming(*([g >= 1] if isinstance(g, sympy.Symbol) else [])):
                D = region_domain(K, g)
                d.result = eta_in(D, K, g, _pair_steps(d, g, D))[0]
        elif q == "ldp_ratio":
            d.quantity = "e^LDP(K) = max_y max_x K(y|x) / min_x K(y|x)"
            d.result = ldp_ratio_in(input_domain("ldp_ratio", kernel=K), K, _column_steps(d, "{lo}"))[0]
        else:
            cc = c if c is not None else sympy.Symbol("c", positive=True)
            d.quantity = "e^C(K, Q_X(c)) = max_y max_x K(y|x) / (c S_y + (1 - N c) min_x K(y|x))"
            D, C = pml_domain(K, cc)
            d.result = pml_ratio_in(D, K, C, _column_steps(d, "c S_{{{y}}} + (1 - N c) {lo}"))[0]
        out.append(d)
    return out


def _registered(K: KernelInput, name: str) -> Derivation:
    """The closed form of a registered quantity without arguments (:mod:`exactdp.measures.registry`) by its
    ``symbolic`` evaluator: one result, no steps (the evaluator reports none)."""
    q = registry.quantity(name)
    if q is None or q.arity or q.symbolic is None:
        derivable = [r.name for r in registry.quantities()
                     if r.name not in QUANTITY_HEADINGS and not r.arity and r.symbolic is not None]
        raise ParameterError(f"quantity: unknown {name!r}; choose from {', '.join(QUANTITIES + tuple(derivable))}")
    d = Derivation(name, title=q.meaning, math=q.latex)
    d.quantity = f"{q.text} = {q.meaning}"
    d.result = q.symbolic(K)
    return d


def _pair_steps(d: Derivation, gamma: Any, D: Any) -> Any:
    """The observer of :func:`eta_in`: one step per distinct divergence of a pair of rows (on a one-parameter
    box written as its cells, like the maximum), then the maximum."""
    seen: list[Any] = []

    def observe(kind: Any, value: Any, where: Any) -> Any:
        if kind == "pair":
            value = cell_form(value, D.hypotheses.region)
            if all(sympy.cancel(value - w) != 0 for w in seen):
                seen.append(value)
                d.add(f"divergence of rows {where[0]} and {where[1]}", value, _pair_tex(where[0], where[1], gamma))
        else:
            d.add("maximum over pairs of inputs (two-point formula, B-2)", value, _max_pair_tex(gamma))

    return observe


def _column_steps(d: Derivation, den_tex: str) -> Any:
    """The observer of :func:`exactdp.measures.privacy.column_ratio_in`: one step per output, then the maximum
    (``den_tex`` the LaTeX of the denominator with ``{y}`` and ``{lo}`` for the output and its minimum)."""

    def observe(kind: Any, value: Any, y: Any) -> Any:
        if kind == "column":
            den = den_tex.format(y=y, lo=rf"\min_x K({y} \mid x)")
            d.add(f"output {y}: largest entry of the column over its denominator", value,
                  rf"\frac{{\max_x K({y} \mid x)}}{{{den}}}")
        else:
            den = den_tex.format(y="y", lo=r"\min_x K(y \mid x)")
            d.add("maximum over outputs", value, rf"\max_y \frac{{\max_x K(y \mid x)}}{{{den}}}")

    return observe


def _gamma_tex(gamma: Any) -> str:
    return r"\gamma" if isinstance(gamma, sympy.Symbol) else sympy.latex(gamma)


def _pair_tex(i: int, j: int, gamma: Any) -> str:
    """LaTeX of E_γ(K_i‖K_j) = Σ_y (K_i(y) − γ K_j(y))₊ (TV when γ = 1), for a derivation step."""
    if gamma == 1:
        return rf"\mathrm{{TV}}(K_{{{i}}}, K_{{{j}}}) = \sum_y \left(K_{{{i}}}(y) - K_{{{j}}}(y)\right)_+"
    g = _gamma_tex(gamma)
    return (rf"E_{{{g}}}(K_{{{i}}} \,\|\, K_{{{j}}}) = \sum_y \left(K_{{{i}}}(y) - {g} K_{{{j}}}(y)\right)_+")


def _max_pair_tex(gamma: Any) -> str:
    if gamma == 1:
        return r"\eta_{\mathrm{TV}}(K) = \max_{x \neq x'} \mathrm{TV}(K_x, K_{x'})"
    g = _gamma_tex(gamma)
    return rf"\eta_{{E_{{{g}}}}}(K) = \max_{{x \neq x'}} E_{{{g}}}(K_x \,\|\, K_{{x'}})"


__all__ = ["QUANTITIES", "QUANTITY_HEADINGS", "Derivation", "Step", "derive"]
