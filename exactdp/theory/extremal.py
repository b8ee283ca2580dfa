r"""Extremal mechanisms: exact suprema over privacy classes, by exact linear programming.

**Classes** (N inputs, M outputs, t = e^ε ≥ 1, all data rational):

* (ε,c)-PML, c ∈ [0, 1/N] ([G] Def. 2, closed form D-9): for every output y and inputs x, x₀,
  K(y|x) ≤ t·(c·S_y + (1−Nc)·K(y|x₀)), S_y = Σ_x K(y|x).  At c = 0 this is ε-LDP.
* (ε,δ)-LDP ([A] D-6): K(A|x) ≤ t·K(A|x') + δ for every proper non-empty A ⊆ [M] and x ≠ x'.

Both are polytopes in the entries of K, invariant under permuting inputs and permuting outputs.

**Suprema of contraction coefficients.**  η_{E_γ}(K) = max_{x,x'} max_A [K_x(A) − γK_{x'}(A)] (B-2;
γ = 1 is Dobrushin's η_TV).  So sup_K η_{E_γ}(K) = max over (x, x', A) of an LP with linear objective
K_x(A) − γK_{x'}(A).  Symmetry prunes the finitely many LPs: by input symmetry (x, x') = (0, 1); by
output symmetry only |A| = k matters, A = {0, …, k−1}, k = 1 … M−1; for γ = 1 swapping rows 0 and 1
maps k to M−k, so k ≤ ⌊M/2⌋.  Each LP carries a dual certificate, hence the value is proved:
every kernel in the class has η ≤ max_k (dual objective), and the returned kernel attains it.
The last output column is eliminated (K(M−1|x) = 1 − Σ_{y<M−1} K(y|x)), so the constant kernel is the
origin and no phase 1 is needed.  Optional ``reduce_rows``: the LP is convex and its objective invariant
under permuting inputs 2 … N−1, so averaging an optimum over those permutations gives an optimum whose
rows 2 … N−1 coincide; one shared row then stands for all of them (3(M−1) variables whatever N).

**Extreme output likelihood ratios** ([G] §IV, Lemma 4, D-12 [RECON]):
Γ_max(ε,c) = sup_{K∈M(ε,c)} sup_{P,Q∈Q_X(c)} max_y (K∘P)(y)/(K∘Q)(y).  For fixed K the inner sup is at
vertices P = c𝟙 + (1−Nc)e_x of Q_X(c); by input and output symmetry x = 0, x' = 1, y = 0:
Γ_max = sup_K (c S_0 + (1−Nc) K(0|0)) / (c S_0 + (1−Nc) K(0|1)), a linear-fractional program.  The
Charnes–Cooper substitution u = τ·K, τ = 1/denominator turns it into the LP
max c Σu₀ + (1−Nc) u₀₀ s.t. c Σu₀ + (1−Nc) u₁₀ = 1, homogenized class constraints, τ ≥ 0 (τ > 0 at
any feasible point because u is bounded by τ).  Γ_min is the same with min.  Merging outputs is
post-processing and keeps (ε,c)-PML, so M = 2 suffices (the ``M`` argument lets tests confirm it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy
from flint import fmpq

from exactdp.errors import ParameterError
from exactdp.parameters import check_c, check_delta, t_value
from exactdp.kernels import Kernel, as_kernel
from exactdp.measures.contraction import eta_hockey_stick, eta_tv_witness
from exactdp.measures.privacy import ldp_ratio, pml_ratio
from exactdp.numbers.infinity import is_infinite
from exactdp.numbers.qq import ONE, ZERO, qq_to_sympy, to_qq
from exactdp import bounds as _bounds
from exactdp.algebra.lp import (
    LinearProgram,
    LPSolution,
    certificate_failures,
    dual_objective,
    solve,
)
from exactdp.numbers.reader import as_expr
from exactdp.numbers.rich import RichDisplay
from exactdp.theory import parametric
from exactdp.theory.lp_programs import (Entries, affine_sum, class_rows, dense, gamma_program, integer_size,
                                        require_size)

# -- parameters ----------------------------------------------------------------------------------------

def _symbolic(*values) -> bool:
    """Whether a parameter is a sympy Symbol: the parametric (closed-form) path of :mod:`.parametric`."""
    return any(isinstance(v, sympy.Symbol) for v in values)


def _class_params(N, M, t, c, delta):
    N, M = integer_size(N, "N"), integer_size(M, "M")
    t = to_qq(t_value(t), "t")
    if t < 1:
        raise ParameterError(f"t: must be >= 1 (t = e^eps, eps >= 0), got {t}")
    d = check_delta(delta)
    if c is not None:
        c = check_c(c, N)
        if d != 0:
            raise ParameterError(f"delta: the (eps,c)-PML class has no delta; got c = {c} and delta = {d}")
    return N, M, t, c, d


def _kernel_from(E: Entries, v) -> Kernel:
    rows = []
    for x in range(E.N):
        b = E.block_of[x]
        head = [v[E.var(b, y)] for y in range(E.M - 1)]
        rows.append(head + [1 - sum(head, ZERO)])
    return Kernel.from_exact_rows(rows, False)


def _optimal(lp: LinearProgram) -> LPSolution:
    """Solve an LP that is feasible and bounded by construction (the constant kernel is feasible and
    every entry lies in [0, 1]); anything else is a bug, reported with the certificate's status."""
    sol = solve(lp)
    if sol.status != "optimal" or sol.value is None:  # pragma: no cover - impossible for the class polytopes
        raise RuntimeError(f"internal error: a class LP is {sol.status}, which its construction rules out")
    return sol


# -- results ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CertifiedLP:
    """One LP of a family and its exact solution; the quantity is ``sense``·(LP objective) + ``offset``.

    ``sense`` = +1 for a supremum, −1 for an infimum solved as max of the negated objective.
    """

    label: str
    lp: LinearProgram
    solution: LPSolution
    offset: fmpq = ZERO
    sense: int = 1

    @property
    def value(self) -> fmpq:
        value = self.solution.value
        assert value is not None  # an optimal solution (_optimal)
        return self.sense * value + self.offset

    @property
    def bound(self) -> fmpq:
        """The dual objective mapped like the value: a certified upper bound on the quantity over the class
        (sense +1) or lower bound (sense −1)."""
        return self.sense * dual_objective(self.lp, self.solution) + self.offset

    def failures(self) -> list[str]:
        return [f"{self.label}: {f}" for f in certificate_failures(self.lp, self.solution)]


@dataclass(frozen=True)
class ExtremalResult(RichDisplay):
    """An exact supremum over a class of mechanisms, with the optimal kernel and the LP certificates.

    ``value`` = max over ``lps`` of their optima = max of their dual bounds (min for an infimum), checked by
    :meth:`failures` together with the certificates and the kernel.
    """

    quantity: str
    value: fmpq
    kernel: Kernel
    lps: tuple[CertifiedLP, ...]
    params: dict = field(default_factory=dict)
    inputs: tuple = ()  # optimal (P, Q) for the Γ programs

    def failures(self) -> list[str]:
        """Everything that fails to re-check exactly: certificates, value = max bound, kernel facts."""
        bad = [f for cl in self.lps for f in cl.failures()]
        extreme = max if self.lps[0].sense > 0 else min
        if extreme(cl.bound for cl in self.lps) != self.value:
            bad.append(f"value {self.value} != {extreme.__name__} of the dual bounds "
                       f"{extreme(cl.bound for cl in self.lps)}")
        bad.extend(_kernel_failures(self))
        return bad

    def certified(self) -> bool:
        return not self.failures()

    @property
    def certificate(self) -> tuple[CertifiedLP, ...]:
        """The LPs with their exact primal/dual solutions (alias of ``lps``)."""
        return self.lps

    @property
    def pivots(self) -> int:
        return sum(cl.solution.pivots for cl in self.lps)


def privacy_level_failures(K: Kernel, t, c=None, delta=ZERO) -> list[str]:
    """Why K is not in the class (empty if it is), decided with the core functions pml_ratio / ldp_ratio /
    eta_hockey_stick."""
    if c is not None and c > 0:
        r = pml_ratio(K, c)
        return [] if r <= t else [f"pml_ratio(K, {c}) = {r} > t = {t}"]
    if c is not None or delta == 0:
        r = ldp_ratio(K)
        return [] if not is_infinite(r) and r <= t else [f"ldp_ratio(K) = {r} > t = {t}"]
    d = eta_hockey_stick(K, t)
    return [] if d <= delta else [f"eta_hockey_stick(K, {t}) = {d} > delta = {delta}"]


def _kernel_failures(res: ExtremalResult) -> list[str]:
    p = res.params
    bad = privacy_level_failures(res.kernel, p["t"], p.get("c"), p.get("delta", ZERO))
    if res.quantity == "eta":
        got = eta_hockey_stick(res.kernel, p["gamma"])
        if got != res.value:
            bad.append(f"eta_hockey_stick(kernel, {p['gamma']}) = {got} != value {res.value}")
    elif res.quantity == "mass_with_zeros":
        z, K = p["zeros"], res.kernel
        mass = sum((K[x, 0] for x in range(z, K.N)), ZERO)
        if any(K[x, 0] != 0 for x in range(z)) or mass != res.value:
            bad.append(f"kernel column 0 has mass {mass} and entries {K.column(0)}, not {z} zeros and {res.value}")
    else:
        P, Q = res.inputs
        out_p, out_q = res.kernel.apply(P)[0], res.kernel.apply(Q)[0]
        if out_q == 0 or out_p / out_q != res.value:
            bad.append(f"output ratio of the optimal kernel and inputs is {out_p}/{out_q}, not {res.value}")
    return bad


# -- suprema of contraction coefficients -----------------------------------------------------------------

def sup_eta_hockey_stick(N: int, M: int = 2, *, gamma=1, t=None, c=None, delta=0, eps=None,
                         reduce_rows: bool = False) -> ExtremalResult:
    r"""sup η_{E_γ}(K) over N-input, M-output kernels in the class, exactly, with an optimal kernel.

    The class is (ε,c)-PML when ``c`` is given (c ∈ [0, 1/N]; c = 0 is ε-LDP), else (ε,δ)-LDP.

    Args:
        N, M: inputs and outputs (≥ 2).  gamma: γ ≥ 1 of E_γ (1 gives η_TV).  t: e^ε ≥ 1, or
        eps: ε (e^ε must be rational: ``eps="log(3)"``).  c: PML prior floor.  delta: LDP slack (only without ``c``).  reduce_rows: share rows 2…N−1.
    Returns:
        :class:`ExtremalResult` (``value``, ``kernel``, ``lps`` with dual certificates).
    Raises:
        ParameterError, CoercionError (floats).

    >>> sup_eta_hockey_stick(2, gamma=2, t=3).value     # (t − γ)/(t + 1): Zamanlooy–Asoodeh, B-7
    1/4

    With sympy Symbols for any of t, c, δ, γ the result is the closed form on the whole parameter domain
    (:func:`exactdp.theory.parametric.sup_eta_hockey_stick`, a :class:`~exactdp.theory.parametric.ParametricExtremal`).
    """
    if eps is not None or t is None:
        t = t_value(t, eps)
    if _symbolic(t, c, delta, gamma):
        return parametric.sup_eta_hockey_stick(N, M, gamma=gamma, t=t, c=c, delta=delta)  # type: ignore[return-value]
    N, M, t, c, d = _class_params(N, M, t, c, delta)
    g = to_qq(gamma, "gamma")
    if g < 1:
        raise ParameterError(f"gamma: must be >= 1, got {g}")
    ks = range(1, M // 2 + 1) if g == 1 else range(1, M)
    require_size(N, M, c, len(ks), reduce_rows=reduce_rows)
    E = Entries(N, M, reduce_rows)
    A_ub, b_ub = dense(class_rows(E, t, c, d), E.nvars)
    best, lps = None, []
    for k in ks:
        obj = affine_sum(*[(ONE, E.entry_block(0, y)) for y in range(k)], *[(-g, E.entry_block(1, y)) for y in range(k)])
        cvec = [obj[0].get(j, ZERO) for j in range(E.nvars)]
        lp = LinearProgram(cvec, A_ub, b_ub)
        sol = _optimal(lp)
        cl = CertifiedLP(f"A = {{0..{k - 1}}}", lp, sol, obj[1])
        lps.append(cl)
        if best is None or cl.value > best.value:
            best = cl
    assert best is not None  # ks is not empty (M >= 2)
    K = _kernel_from(E, best.solution.x)
    params = {"N": N, "M": M, "t": t, "c": c, "delta": d, "gamma": g}
    return ExtremalResult("eta", best.value, K, tuple(lps), params)


def sup_eta_tv(N: int, M: int = 2, *, t=None, c=None, delta=0, eps=None,
               reduce_rows: bool = False) -> ExtremalResult:
    r"""η_TV(ε,c) = sup_{K ∈ M(ε,c)} η_TV(K) ([G] Def. 3 with eq. (8); Thm 1), or the (ε,δ)-LDP analogue.

    Exact LP supremum over N×M kernels; see :func:`sup_eta_hockey_stick` (γ = 1).

    >>> sup_eta_tv(3, t="5/2", c="1/4").value     # docs/claims.md §7: the odd-N gap point
    12/13
    >>> sup_eta_tv(2, t=3, delta="1/10").value    # B-4: (t − 1 + 2δ)/(t + 1)
    11/20

    With sympy Symbols (t, c or δ) it is the closed form on the parameter domain, region by region with
    certificates (:mod:`exactdp.theory.parametric`):

    >>> t, c = sympy.symbols("t c", positive=True)
    >>> sup_eta_tv(2, t=t, c=c).value
    Piecewise(((1 - t)/(2*c*t - t - 1), c*t <= 1), (1, True))
    """
    return sup_eta_hockey_stick(N, M, gamma=1, t=t, c=c, delta=delta, eps=eps, reduce_rows=reduce_rows)


# -- Γ_max / Γ_min (Charnes–Cooper) ---------------------------------------------------------------------

def _gamma_extreme(N, t, c, M, sense: int) -> ExtremalResult:
    N, M, t, c, _ = _class_params(N, M, t, c, 0)
    if c is None:
        raise ParameterError("c: Gamma_max/Gamma_min need the prior floor c (c = 0 gives eps-LDP)")
    require_size(N, M, c, 1, extra_vars=1, extra_rows=1)
    E = Entries(N, M, False)
    tau = E.nvars
    rest = 1 - N * c
    lp = LinearProgram(*gamma_program(E, t, c, sense))
    sol = _optimal(lp)
    scale = 1 / sol.x[tau]
    K = _kernel_from(E, [v * scale for v in sol.x[:tau]])
    P = tuple(c + (rest if x == 0 else ZERO) for x in range(N))
    Q = tuple(c + (rest if x == 1 else ZERO) for x in range(N))
    cl = CertifiedLP("Charnes-Cooper " + ("(max)" if sense > 0 else "(min, as max of -ratio)"), lp, sol,
                     sense=sense)
    value = cl.value
    params = {"N": N, "M": M, "t": t, "c": c, "delta": ZERO}
    return ExtremalResult("gamma_max" if sense > 0 else "gamma_min", value, K, (cl,), params, (P, Q))


def gamma_max(N: int, t=None, c=None, *, M: int = 2, eps=None) -> ExtremalResult:
    r"""Γ_max(ε,c) = sup_{K∈M(ε,c)} sup_{P,Q∈Q_X(c)} max_y (K∘P)(y)/(K∘Q)(y), exactly (Charnes–Cooper LP).

    ``.kernel`` and ``.inputs = (P, Q)`` attain it.  Compare :func:`gamma_max_closed_form` (G-23) and
    :func:`lemma4_bound` ([G] Lemma 4).

    >>> gamma_max(2, 3, "1/4").value     # docs/claims.md §7: 7/3, while Lemma 4 gives 5/2
    7/3

    With sympy Symbols for t and/or c: the closed form on the domain (:func:`exactdp.theory.parametric.gamma_max`).
    ``eps=`` instead of t: e^ε must be rational (``eps="log(3)"``).
    """
    if eps is not None or t is None:
        t = t_value(t, eps)
    if _symbolic(t, c):
        return parametric.gamma_max(N, t, c, M=M)  # type: ignore[return-value]
    return _gamma_extreme(N, t, c, M, +1)


def gamma_min(N: int, t=None, c=None, *, M: int = 2, eps=None) -> ExtremalResult:
    r"""Γ_min(ε,c) = inf of the same ratio (an independent LP; equals 1/Γ_max by the P ↔ Q symmetry)."""
    return _gamma_extreme(N, t_value(t, eps), c, M, -1)


# -- closed forms they are compared with (G-15, G-23, Lemma 4) -------------------------------------------

def _qq_params(N, t, c) -> dict:
    N = integer_size(N, "N")
    t = to_qq(t_value(t), "t")  # rational t >= 1, c in [0, 1/N]: the one rule each
    return {"N": N, "t": t, "c": check_c(c, N)}


def lemma4_bound(N: int, t, c) -> fmpq:
    r"""[G] Lemma 4's bound Γ_max ≤ (1−Nc)t + 1, the registry's ``gamma_max_lemma4``."""
    return _bounds.get("gamma_max_lemma4").at(**_qq_params(N, t, c))


def gamma_max_closed_form(N: int, t, c) -> fmpq:
    r"""docs/claims.md G-23 [DERIVED], the registry's ``gamma_max_exact`` (two branches, for t ≤ 1/c); beyond
    t = 1/c every kernel qualifies and Γ_max is its value at t = 1/c, (1−(N−1)c)/c; at c = 0 it is t."""
    p = _qq_params(N, t, c)
    if p["c"] and p["t"] * p["c"] > 1:
        p["t"] = 1 / p["c"]
    return _bounds.get("gamma_max_exact").at(**p)


# -- KL and H² corollaries with the exact Γ (G-25, G-26, B-7) ----------------------------------------------

def kl_coefficient(Xi, Gamma) -> sympy.Expr:
    r"""[G] Cor. 1's coefficient Ξ·log Γ (Binette with f = u log u and m = 1/Γ gives log Γ)."""
    return _sym(Xi) * sympy.log(_sym(Gamma))


def h2_coefficient(Xi, Gamma) -> sympy.Expr:
    r"""[G] Cor. 2's coefficient Ξ·(2 − 4/(√Γ + 1)) (H² = Σ(√p − √q)², no ½: F-G6)."""
    return _sym(Xi) * (2 - 4 / (sympy.sqrt(_sym(Gamma)) + 1))


def _sym(v):
    return qq_to_sympy(v) if isinstance(v, fmpq) else as_expr(v)


def corollary_coefficients(N: int, t, c) -> dict:
    r"""KL and H² coefficients of [G] Cor. 1–2 with Lemma 4's Γ and with the exact Γ_max (LP), exact sympy.

    Keys: ``xi``, ``gamma_lemma4``, ``gamma_exact``, ``kl_lemma4``, ``kl_exact``, ``h2_lemma4``, ``h2_exact``.
    """
    X = _bounds.get("xi").at(**_qq_params(N, t, c))  # Ξ(ε,c) ([G] §IV, D-11)
    g4 = lemma4_bound(N, t, c)
    ge = gamma_max(N, t, c).value
    return {"xi": X, "gamma_lemma4": g4, "gamma_exact": ge,
            "kl_lemma4": kl_coefficient(X, g4), "kl_exact": kl_coefficient(X, ge),
            "h2_lemma4": h2_coefficient(X, g4), "h2_exact": h2_coefficient(X, ge)}


def corollary_limits_c0() -> dict:
    r"""Symbolic c → 0 limits (t = e^ε > 1 a symbol), against Zamanlooy–Asoodeh (B-7).

    With the exact Γ (first branch of G-23, → t) the KL coefficient tends to (t−1)/(t+1)·log t = ε·tanh(ε/2)
    and the H² one to 2(√t−1)²/(t+1): exactly B-7's f-forms.  With Lemma 4's Γ (→ t+1) they tend to
    (t−1)/(t+1)·log(t+1) and (t−1)/(t+1)·(2 − 4/(√(t+1)+1)), strictly larger.
    Returns a dict of sympy expressions, including ``*_minus_za`` differences (simplified), and under
    ``"before_limit"`` the expressions whose limits were taken (Ξ₁, both Γ) and the symbol c.
    """
    t = sympy.Symbol("t", positive=True)
    c = sympy.Symbol("c", nonnegative=True)
    N = sympy.Symbol("N", positive=True, integer=True)
    own = {_bounds.t: t, _bounds.c: c, _bounds.N: N}  # the registry's formulas, c >= 0 for the limit
    Xi, g_exact, g_l4 = (e.xreplace(own) for e in (_bounds.xi_raw, _bounds.gamma_max_first, _bounds.gamma_max_l4))
    out = {}
    for name, G in (("exact", g_exact), ("lemma4", g_l4)):
        out[f"gamma_{name}"] = sympy.limit(G, c, 0)
        out[f"kl_{name}"] = sympy.simplify(sympy.limit(Xi * sympy.log(G), c, 0))
        out[f"h2_{name}"] = sympy.simplify(sympy.limit(Xi * (2 - 4 / (sympy.sqrt(G) + 1)), c, 0))
    out["kl_za"] = (t - 1) / (t + 1) * sympy.log(t)  # (f(t) + t f(1/t))/(t+1) with f = u log u
    out["h2_za"] = 2 * (sympy.sqrt(t) - 1) ** 2 / (t + 1)
    out["kl_exact_minus_za"] = sympy.simplify(out["kl_exact"] - out["kl_za"])
    out["h2_exact_minus_za"] = sympy.simplify(out["h2_exact"] - out["h2_za"])
    out["t"] = t
    out["before_limit"] = {"xi": Xi, "gamma_exact": g_exact, "gamma_lemma4": g_l4, "c": c}  # for recorded limits
    return out


# -- Lemma 1 and Lemma 3 helpers ---------------------------------------------------------------------------

def max_mass_with_zeros(N: int, zeros: int, *, t=None, c=None, M: int = 2, eps=None) -> ExtremalResult:
    r"""max Σ_{x ≥ z} K(0|x) over K ∈ M(ε,c) with K(0|x) = 0 for x < z ([G] Lemma 1, G-12).

    By input and output symmetry, the value is 0 iff no kernel of the class has a non-zero column with
    ≥ z zeros.  Lemma 1: this holds when t < 1/((N−z)c); at t ≥ 1/((N−z)c) the value is positive.
    """
    N, M, t, c, _ = _class_params(N, M, t, c, 0)
    z = integer_size(zeros, "zeros", 1)
    if z >= N:
        raise ParameterError(f"zeros: must lie in [1, N-1] = [1, {N - 1}], got {z}")
    if c is None:
        raise ParameterError("c: required (c = 0 gives eps-LDP)")
    require_size(N, M, c, 1, extra_rows=z)
    E = Entries(N, M, False)
    A_ub, b_ub = dense(class_rows(E, t, c, ZERO), E.nvars)
    A_eq = [[ONE if j == E.var(x, 0) else ZERO for j in range(E.nvars)] for x in range(z)]
    cvec = [ONE if any(j == E.var(x, 0) for x in range(z, N)) else ZERO for j in range(E.nvars)]
    lp = LinearProgram(cvec, A_ub, b_ub, A_eq, [ZERO] * z)
    sol = _optimal(lp)
    K = _kernel_from(E, sol.x)
    params = {"N": N, "M": M, "t": t, "c": c, "delta": ZERO, "zeros": z}
    cl = CertifiedLP(f"{z} zeros", lp, sol)
    return ExtremalResult("mass_with_zeros", cl.value, K, (cl,), params)


def merge_to_binary(K) -> tuple[Kernel, tuple[int, ...]]:
    r"""Merge the outputs of K into {A, Aᶜ}, A = {y : K_x(y) > K_{x'}(y)} for a Dobrushin-optimal pair
    (x, x'): post-processing, so the privacy level does not increase, and η_TV is kept ([G] Lemma 3, G-17).

    Returns ``(binary kernel, A)``.
    """
    K = as_kernel(K)
    _, x, x2 = eta_tv_witness(K)
    A = tuple(y for y in range(K.M) if K[x, y] > K[x2, y])
    W = Kernel.from_exact_rows([[ONE, ZERO] if y in A else [ZERO, ONE] for y in range(K.M)], False)
    return K @ W, A
