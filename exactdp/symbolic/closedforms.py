r"""Closed forms of the measures of parametric kernels, derived exactly on the parameter region.

The same definitions as for rational kernels (D-4, D-5, D-9, B-2), with every case split decided by
the exact prover (:mod:`exactdp.algebra.prover`) on the kernel's region (:mod:`.region`):

* (a)₊ = a where a ≥ 0 is proved, 0 where a ≤ 0 is proved, else ``Piecewise((a, a > 0), (0, True))``;
* max{e₁,…,e_m}: candidates proved ≤ another candidate on the whole region are dropped; if one
  candidate remains it is the closed form (and its index is the witness), else a ``Piecewise`` whose
  conditions say which candidate is largest (conditions proved on the region are dropped);
* E_γ(K_x‖K_x') = Σ_y (K_x(y) − γK_x'(y))₊,  η_{E_γ}(K) = max_{x≠x'} E_γ(K_x‖K_x')  (B-2; [A] Thm 3);
* e^{LDP(K)} = max_y max_x K(y|x)/min_x K(y|x)  (D-5; ``oo`` where a column's minimum vanishes);
* e^{C(K,Q_X(c))} = max_y max_x K(y|x)/(c S_y + (1−Nc) min_x K(y|x))  (D-9).

Every derivation step is recorded (:class:`Derivation`) for the LaTeX output.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import sympy

from exactdp.errors import UndecidedError
from exactdp.numbers.domain import SR
from exactdp.numbers.sr import as_sympy, exact_result
from exactdp.numbers.truth import Truth
from exactdp.symbolic.region import kernel_region
from exactdp.algebra.prover import Region, sign_on
from exactdp.numbers.reader import as_expr
from exactdp.numbers.display import normal_form  # noqa: F401  (the papers' normal form; re-exported)


class Step(NamedTuple):
    """One derivation step: ``text`` is prose (no formulas), ``math`` the LaTeX of the quantity the step
    computes (without ``$``; "" when none), ``expr`` its value (sympy, or None); typeset as
    ``math = expr`` with ``text`` as the explanation."""

    text: str
    expr: object = None
    math: str = ""


@dataclass
class Derivation:
    """The steps from the kernel to a closed form (:class:`Step`); ``quantity`` names it in plain text,
    ``title`` in prose and ``math`` its definition in LaTeX (for the LaTeX output)."""

    quantity: str
    steps: list = field(default_factory=list)
    result: object = None
    title: str = ""
    math: str = ""

    def add(self, text: str, expr=None, math: str = "") -> None:
        self.steps.append(Step(text, expr, math))


def _simplify(e):
    e = as_expr(e)
    if e.has(sympy.Piecewise):
        return sympy.piecewise_fold(e)
    return normal_form(e) if e.free_symbols else e


_TRUTH_CACHE: dict = {}


def _truth(expr, region: Region, strict: bool) -> Truth:
    """Truth of expr > 0 (strict) / ≥ 0 on the region, memoized (kernels repeat the same differences)."""
    key = (expr, region, strict)
    hit = _TRUTH_CACHE.get(key)
    if hit is None:
        one = _one_parameter(region)
        try:
            if one and as_expr(expr).has(sympy.Piecewise):  # breakpoints may be irrational: 1-D path
                from exactdp.symbolic.univariate import sign_1d

                hit = Truth.of(sign_1d(expr, one[0], one[1], strict))
            else:
                hit = sign_on(expr, region, strict=strict)
        except (UndecidedError, ValueError):  # the prover's _Undecided, or an UNKNOWN used as a bool
            hit = Truth.UNKNOWN
        if len(_TRUTH_CACHE) > 20000:
            _TRUTH_CACHE.clear()
        _TRUTH_CACHE[key] = hit
    return hit


def positive_part(a, region: Region) -> sympy.Expr:
    """(a)₊ resolved on the region.

    >>> t = sympy.Symbol("t", positive=True)
    >>> positive_part(t - 2, Region.of(t >= 1))
    Piecewise((t - 2, t > 2), (0, True))
    >>> positive_part(t - 1, Region.of(t >= 1))
    t - 1"""
    key = (as_expr(a), region)
    hit = _POS_CACHE.get(key)
    if hit is None:
        hit = _positive_part(key[0], region)
        if len(_POS_CACHE) > 20000:
            _POS_CACHE.clear()
        _POS_CACHE[key] = hit
    return hit


_POS_CACHE: dict = {}


def _positive_part(a, region: Region) -> sympy.Expr:
    """(a)₊ in the SR domain of the region (its weak sign; a Piecewise where the sign changes)."""
    return sr_domain(region).positive_part(sympy.cancel(a))


def _positive_condition(a, region: Region):
    """The condition a > 0, with a denominator of proved sign removed and a linear numerator solved."""
    num, den = sympy.fraction(sympy.cancel(sympy.together(a)))
    if den.free_symbols:
        if _truth(den, region, True) is Truth.TRUE:
            den = sympy.Integer(1)
        elif _truth(-den, region, True) is Truth.TRUE:
            num, den = -num, sympy.Integer(1)
    if den == 1:
        for x in sorted(num.free_symbols, key=str):
            P = sympy.Poly(num, x)
            if P.degree() == 1:
                a1, a0 = P.all_coeffs()
                if _truth(a1, region, True) is Truth.TRUE:
                    return x > normal_form(-a0 / a1)
                if _truth(-a1, region, True) is Truth.TRUE:
                    return x < normal_form(-a0 / a1)
        return num > 0
    return a > 0


def _one_parameter(region: Region):
    """``(v, box)`` when the region is a box in a single parameter (the exact cell-decomposition path)."""
    if len(region.variables) == 1 and not region.constraints:
        return region.variables[0], region.box[0]
    return None


def symbolic_max(exprs, region: Region, *, minimum: bool = False):
    """``(value, index)``: the max (or min) of the expressions on the region; index None if it varies."""
    one = _one_parameter(region)
    exprs = [as_expr(e) for e in exprs]
    if one and not any(e.has(sympy.Piecewise) for e in exprs) and len(exprs) > 1:
        from exactdp.symbolic import univariate as uv

        v, box = one
        res = uv.maximum([uv.constant(e, v, box) for e in exprs], minimum=minimum)
        return uv.to_sympy(res, _simplify), uv.single_tag(res)
    sign = -1 if minimum else 1
    cands: list = []
    for i, e in enumerate(exprs):
        e = _simplify(e)
        if any(sympy.cancel(e - c) == 0 for c, _ in cands):
            continue
        cands.append((e, i))
    alive = list(cands)
    for e, i in cands:
        if (e, i) not in alive:
            continue
        for f, j in alive:
            if j != i and _truth(sign * (f - e), region, False) is Truth.TRUE:
                alive.remove((e, i))
                break
    if len(alive) == 1:
        return alive[0][0], alive[0][1]
    pieces = []
    for e, i in alive:
        conds = [sign * (e - f) >= 0 for f, j in alive if j != i and _truth(sign * (e - f), region, False)
                 is not Truth.TRUE]
        pieces.append((e, sympy.And(*conds)))
    pieces[-1] = (pieces[-1][0], True)
    return sympy.Piecewise(*pieces), None


def hockey_stick_rows(p, q, gamma, region: Region) -> sympy.Expr:
    """E_γ(p‖q) = Σ_y (p(y) − γ q(y))₊ as a closed form on the region."""
    g = as_expr(gamma)
    total = sympy.Add(*[positive_part(as_sympy(a) - g * as_sympy(b), region) for a, b in zip(p, q)])
    return prune_piecewise(_simplify(total), region)


def prune_piecewise(expr, region: Region):
    """Drop the branches of a Piecewise whose condition is empty on the region (decided exactly), merge
    equal neighbours, and simplify the pieces."""
    if not isinstance(expr, sympy.Piecewise):
        return expr
    kept = []
    for e, cond in expr.args:
        if cond is not sympy.true and _empty(region, cond):
            continue
        e = normal_form(e) if e.free_symbols and not e.has(sympy.Piecewise) else e
        kept.append((e, cond))
        if cond is sympy.true:
            break
    if not kept:
        return sympy.Integer(0)
    if len(kept) == 1 or all(sympy.cancel(e - kept[0][0]) == 0 for e, _ in kept):
        return kept[0][0]
    if kept[-1][1] is not sympy.true:
        kept[-1] = (kept[-1][0], sympy.true)  # the conditions cover the region: the last one is "otherwise"
    return sympy.Piecewise(*kept)


def _empty(region: Region, cond) -> bool:
    conj = cond.args if isinstance(cond, sympy.And) else (cond,)
    if not all(isinstance(r, (sympy.StrictLessThan, sympy.LessThan, sympy.StrictGreaterThan, sympy.GreaterThan))
               for r in conj):
        return False
    try:
        sub = region.with_conditions(*conj)
    except ValueError:
        return False
    return _truth(sympy.Integer(-1), sub, False) is Truth.TRUE


@dataclass(frozen=True)
class RegionHypotheses:
    """A region as the hypotheses of the SR number domain (:class:`exactdp.numbers.domain.SR`): signs
    decided by the exact prover on it, (a)₊ and max as closed forms on it (:func:`positive_part`,
    :func:`symbolic_max`), results pruned and put in normal form."""

    region: Region

    def holds(self, expr, strict: bool) -> Truth:
        return _truth(as_expr(expr), self.region, strict)

    def piecewise_positive(self, expr):
        return sympy.Piecewise((expr, _positive_condition(expr, self.region)), (0, True))

    def maximum(self, exprs):
        return symbolic_max(exprs, self.region)

    def result(self, expr):
        return _exact(prune_piecewise(_simplify(expr), self.region))


def sr_domain(region: Region) -> SR:
    """The symbolic number domain on ``region``."""
    return SR(RegionHypotheses(region))


def scoped_region(values, gamma=None) -> Region:
    """The region of the symbols of ``values`` under the scoped conditions (:func:`assuming`) and the
    symbols' assumptions; a symbol only ``gamma`` carries is taken ≥ 0."""
    from exactdp.symbolic.region import scoped_conditions

    syms = set().union(*(as_expr(as_sympy(v)).free_symbols for v in values))
    if gamma is not None:
        syms |= as_expr(as_sympy(gamma)).free_symbols
    region = Region.of(*scoped_conditions(), variables=sorted(syms, key=str))
    return region if gamma is None else gamma_region(region, as_sympy(gamma))


def gamma_region(region: Region, gamma) -> Region:
    g = as_expr(gamma)
    return region.with_conditions(*[s >= 0 for s in g.free_symbols if s not in region.variables])


def _gamma_tex(gamma) -> str:
    return r"\gamma" if isinstance(gamma, sympy.Symbol) else sympy.latex(gamma)


def _pair_tex(i: int, j: int, gamma) -> str:
    """LaTeX of E_γ(K_i‖K_j) = Σ_y (K_i(y) − γ K_j(y))₊ (TV when γ = 1), for a derivation step."""
    if gamma == 1:
        return rf"\mathrm{{TV}}(K_{{{i}}}, K_{{{j}}}) = \sum_y \left(K_{{{i}}}(y) - K_{{{j}}}(y)\right)_+"
    g = _gamma_tex(gamma)
    return (rf"E_{{{g}}}(K_{{{i}}} \,\|\, K_{{{j}}}) = \sum_y \left(K_{{{i}}}(y) - {g} K_{{{j}}}(y)\right)_+")


def _max_pair_tex(gamma) -> str:
    if gamma == 1:
        return r"\eta_{\mathrm{TV}}(K) = \max_{x \neq x'} \mathrm{TV}(K_x, K_{x'})"
    g = _gamma_tex(gamma)
    return rf"\eta_{{E_{{{g}}}}}(K) = \max_{{x \neq x'}} E_{{{g}}}(K_x \,\|\, K_{{x'}})"


def eta_hockey_stick_witness_symbolic(K, gamma, derivation: Derivation | None = None):
    """``(η_{E_γ}(K), x, x')`` for a parametric kernel (and/or symbolic γ); ``(value, None, None)`` when
    the maximizing pair changes over the region."""
    region = gamma_region(kernel_region(K), gamma)
    one = _one_parameter(region)
    if one and K.N > 1:
        return _eta_one_parameter(K, as_sympy(gamma), one, derivation)
    pairs, values = [], []
    for i in range(K.N):
        for j in range(K.N):
            if i != j:
                v = hockey_stick_rows(K.rows[i], K.rows[j], gamma, region)
                pairs.append((i, j))
                values.append(v)
                if derivation is not None and (len(values) == 1 or all(sympy.cancel(v - w) != 0
                                                                       for w in values[:-1])):
                    derivation.add(f"divergence of rows {i} and {j}", v, _pair_tex(i, j, gamma))
    if not values:
        return sympy.Integer(0), 0, 0
    value, idx = symbolic_max(values, region)
    value = _exact(value)
    if derivation is not None:
        derivation.add("maximum over pairs of inputs (two-point formula, B-2)", value, _max_pair_tex(gamma))
        derivation.result = value
    if idx is None:
        return value, None, None
    return value, pairs[idx][0], pairs[idx][1]


def _eta_one_parameter(K, g, one, derivation: Derivation | None):
    """η_{E_γ} of a one-parameter kernel by exact cell decomposition (:mod:`.univariate`)."""
    from exactdp.symbolic import univariate as uv

    v, box = one
    pairs, parts = [], []
    for i in range(K.N):
        for j in range(K.N):
            if i != j:
                terms = [uv.positive_part_pieces(sympy.cancel(as_sympy(a) - g * as_sympy(b)), v, box)
                         for a, b in zip(K.rows[i], K.rows[j])]
                pairs.append((i, j))
                parts.append(uv.add(terms))
                if derivation is not None:
                    derivation.add(f"divergence of rows {i} and {j}", uv.to_sympy(parts[-1], _simplify),
                                   _pair_tex(i, j, g))
    res = uv.maximum(parts, tags=pairs)
    value = _exact(uv.to_sympy(res, _simplify))
    tag = uv.single_tag(res)
    if derivation is not None:
        derivation.add("maximum over pairs of inputs (two-point formula, B-2)", value, _max_pair_tex(g))
        derivation.result = value
    return (value, tag[0], tag[1]) if tag else (value, None, None)


def _exact(v):
    v = as_expr(v)
    if not v.has(sympy.Piecewise) and v.free_symbols:
        v = normal_form(v)
    return exact_result(v)


def _column_extremes(K, y, region):
    col = [as_sympy(r[y]) for r in K.rows]
    hi, _ = symbolic_max(col, region)
    lo, _ = symbolic_max(col, region, minimum=True)
    return col, hi, lo


def _ratio_max_1d(K, one, denominator, derivation: Derivation | None, den_tex: str = "{lo}"):
    """One parameter: max over (y, x, x') of K(y|x)/denominator(col_y, K(y|x')) — equal to the maximum of
    max_x K(y|x)/denominator(col_y, min_x K(y|x)) because the denominator increases with its last
    argument — by exact cell decomposition; ``oo`` at the exact points where a denominator vanishes."""
    from exactdp.symbolic import univariate as uv

    v, box = one
    cands, zeros = [], []
    for y in range(K.M):
        col = [as_sympy(r[y]) for r in K.rows]
        if all(sympy.cancel(e) == 0 for e in col):
            continue  # an all-zero column is ignored
        for lo in dict.fromkeys(col):
            den = sympy.cancel(denominator(col, lo))
            if den == 0:
                return sympy.oo
            dnum = sympy.numer(sympy.together(den))
            roots = uv.real_roots(uv.to_fmpq_poly(sympy.Poly(dnum, v).all_coeffs()), box.lo, box.hi,
                                  lo_open=box.lo_open, hi_open=box.hi_open) if dnum.has(v) else []
            for r in roots:  # the denominator vanishes at r: infinite ratio unless the column is all zero there
                if any(r.sign_of(uv.to_fmpq_poly(sympy.Poly(sympy.numer(sympy.together(e)), v).all_coeffs()))
                       != 0 for e in col):
                    zeros.append(sympy.Eq(v, r.as_sympy(v)))
            for hi in dict.fromkeys(col):
                cands.append(sympy.cancel(hi / den))
    if not cands:
        return sympy.Integer(1)
    cands = list(dict.fromkeys(cands))
    value, _ = symbolic_max(cands, Region((v,), (box,))) if len(cands) > 1 else (_simplify(cands[0]), 0)
    value = _exact(value)
    if zeros:
        value = sympy.Piecewise((sympy.oo, sympy.Or(*dict.fromkeys(zeros))), (value, True))
    if derivation is not None:
        den = den_tex.format(y="y", lo=r"K(y \mid x')")
        derivation.add("maximum over outputs and pairs of inputs", value,
                       rf"\max_{{y}} \max_{{x, x'}} \frac{{K(y \mid x)}}{{{den}}}")
        derivation.result = value
    return value


def _ratio_max(K, region, denominator, derivation: Derivation | None, den_tex: str = "{lo}"):
    """max_y hi_y / denominator(y, col, lo_y) with ``oo`` where the denominator's factor lo_y may vanish."""
    one = _one_parameter(region)
    if one:
        return _ratio_max_1d(K, one, denominator, derivation, den_tex)
    ratios, zero_conditions, nonzero = [], [], []
    for y in range(K.M):
        col, hi, lo = _column_extremes(K, y, region)
        if sympy.cancel(hi) == 0:
            continue
        den = denominator(col, lo)
        if sympy.cancel(den) == 0:
            return sympy.oo
        if _truth(den, region, True) is not Truth.TRUE:
            dnum = sympy.numer(sympy.together(den))
            zero_conditions.append(sympy.Eq(dnum, 0))
            nonzero.append(den > 0)
        r = _simplify(hi / den)
        ratios.append(r)
        if derivation is not None:
            den_y = den_tex.format(y=y, lo=rf"\min_x K({y} \mid x)")
            derivation.add(f"output {y}: largest entry of the column over its denominator", r,
                           rf"\frac{{\max_x K({y} \mid x)}}{{{den_y}}}")
    if not ratios:
        return sympy.Integer(1)
    value, _ = symbolic_max(ratios, region.with_conditions(*nonzero) if nonzero else region)
    value = _exact(value)
    if zero_conditions:
        value = sympy.Piecewise((sympy.oo, sympy.Or(*zero_conditions)), (value, True))
    if derivation is not None:
        den = den_tex.format(y="y", lo=r"\min_x K(y \mid x)")
        derivation.add("maximum over outputs", value, rf"\max_y \frac{{\max_x K(y \mid x)}}{{{den}}}")
        derivation.result = value
    return value


def ldp_ratio_symbolic(K, derivation: Derivation | None = None):
    """e^{LDP(K)} = max_y max_x K(y|x) / min_x K(y|x) as a closed form (D-5, [G] eq. (1))."""
    region = kernel_region(K)
    return _ratio_max(K, region, lambda col, lo: lo, derivation)


def pml_ratio_symbolic(K, c, derivation: Derivation | None = None):
    r"""e^{C(K,Q_X(c))} = max_y max_x K(y|x) / (c S_y + (1−Nc) min_x K(y|x)) as a closed form (D-9)."""
    c = as_expr(c)
    region = kernel_region(K)
    extra = []
    for s in c.free_symbols - set(region.variables):
        extra.append(s > 0)
    if c.free_symbols:
        extra.append(c <= sympy.Rational(1, K.N))
        extra.append(c > 0)
    region = region.with_conditions(*extra) if extra else region
    N = K.N
    return _ratio_max(K, region, lambda col, lo: c * sympy.Add(*col) + (1 - N * c) * lo, derivation,
                      "c S_{{{y}}} + (1 - N c) {lo}")


@dataclass(frozen=True)
class SymbolicPrivacyProfile:
    """δ(γ) = η_{E_γ}(K) of a parametric kernel as a closed form in γ (a ``Piecewise``)."""

    expr: object
    gamma: sympy.Symbol

    def __call__(self, gamma):
        from exactdp.numbers.sr import to_sr

        return _exact(sympy.piecewise_fold(as_expr(self.expr).subs(self.gamma, to_sr(gamma, "gamma"))))

    def to_sympy(self, gamma: sympy.Symbol | None = None):
        return self.expr if gamma is None else self.expr.subs(self.gamma, gamma)
