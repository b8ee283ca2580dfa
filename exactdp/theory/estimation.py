r"""Private estimation and testing bounds of [A] §IV–VII and [G] Example 3, with provenance.

Every function returns a :class:`RiskBound`: the value (``fmpq`` when rational, an exact sympy expression
when logs/roots/exps appear, a certified ``flint.arb`` ball when an integral is involved), the formula
(LaTeX), its :class:`~exactdp.sources.Source` and whether the statement is **reconstructed**.

Reconstructed statements (docs/claims.md §0, F-A12): the full text of [A] is not stored.  Except for
φ(ε,δ) = 1 − e^{−ε}(1−δ) and φⁿ(ε,δ) = 1 − e^{−nε}(1−δ)ⁿ (D-13, in the summary), every formula of [A]
used here — Le Cam (A-10), mean-estimation rates (A-11), Fano (A-12), Thm 2 (A-14), the private
Xu–Raginsky bound (A-15), the Bernoulli example (A-16/A-17), the testing bound (A-18), the MI bound
(A-19) — is the catalogue's reconstruction, and [G] Example 3's minimax chain (G-28) is too.  The search
for the papers' full text (public pages) returned only abstracts, so none was confirmed; in particular
the ε at which [A] quotes 0.08 / 0.03 is unknown (F-A10).

Privacy is parametrized by t = e^ε ≥ 1 (``t_value(eps=...)`` of :mod:`exactdp.parameters` for an ε) and δ ∈ [0,1].
Natural logs; KL in nats; TV = ½‖·‖₁.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import sympy
from flint import arb, ctx, fmpq, fmpz

from exactdp.distributions import as_distribution, as_pair
from exactdp.errors import ParameterError
from exactdp.formulas import phi_n
from exactdp.parameters import check_count, check_delta, t_value
from exactdp.kernels import Kernel, as_kernel
from exactdp.measures.divergences import kl
from exactdp.measures.privacy_loss import PairLoss, product_loss
from exactdp.measures.tensor import hockey_stick_product
from exactdp.numbers.qq import to_qq
from exactdp.numbers.rich import RichDisplay
from exactdp.numbers.sr import as_sympy, exact_result, to_exact
from exactdp.sources import Source
from exactdp import bounds as _bounds
from exactdp.numbers.rb import DEFAULT_PREC, arb_eval
from exactdp.theory.bernoulli import bernoulli_e_gamma_information, bernoulli_mutual_information
from exactdp.numbers.reader import as_expr

__all__ = [
    "SPECS",
    "BernoulliBayesPoint",
    "BoundSpec",
    "RiskBound",
    "bayes_e_gamma",
    "bernoulli_bayes_curve",
    "bernoulli_bayes_point",
    "chernoff_stein_bound",
    "effective_sample_size_crossovers",
    "entropy",
    "fano",
    "grosse_example3_minimax",
    "grosse_hellinger_bound",
    "grosse_kl_bound",
    "le_cam_kl",
    "le_cam_tv",
    "mean_estimation_as_reported",
    "mean_estimation_tv_route",
    "mi_upper_bound",
    "mutual_information",
    "neyman_pearson_beta",
    "product_tv",
    "reveal_mechanism",
    "reveal_mechanism_risk",
    "reveal_mechanism_risk_bound",
    "sample_mean_risk",
    "xu_raginsky",
    "zamanlooy_asoodeh_kl_coefficient",
]

LOG2 = sympy.log(2)


@dataclass(frozen=True)
class BoundSpec:
    """A bound's identity and provenance (compatible with a bounds registry: id, latex, source)."""

    id: str
    title: str
    latex: str
    source: Source
    catalogue: tuple[str, ...]
    reconstructed: bool = True
    registry: str | None = None  # the same formula's name in exactdp.bounds.REGISTRY, if any


@dataclass(frozen=True)
class RiskBound(RichDisplay):
    """The value of a bound at given parameters; ``kind`` is "exact", "symbolic" or "certified"."""

    spec: BoundSpec
    value: Any  # fmpq, an exact sympy expression or an arb ball (``kind``)
    kind: str
    params: dict = field(default_factory=dict)

    def ball(self, prec: int = DEFAULT_PREC) -> arb:
        """A certified ball containing the value."""
        return arb_eval(self.value, prec)

    def __str__(self) -> str:
        tag = " [reconstructed]" if self.spec.reconstructed else ""
        return f"{self.spec.title} = {self.value} ({self.kind}; {self.spec.source}){tag}"


#: the estimation bounds, a view of the registry (exactdp.bounds): every entry registered with a
#: presentation, keyed by its estimation id (names), in presentation order
SPECS: dict[str, BoundSpec] = {
    p.id: BoundSpec(p.id, p.title, p.latex, p.source, p.catalogue, p.reconstructed, name)
    for name, p in _bounds.PRESENTATIONS.items()
}
#: SPECS id -> the name of the same formula in the bounds registry
REGISTRY_NAMES = {spec.id: spec.registry for spec in SPECS.values()}


# -- parameters -----------------------------------------------------------------------------------

def exact_t(t):
    """t = e^ε ≥ 1 (the one rule: :func:`exactdp.parameters.t_value`), as sympy."""
    return as_sympy(t_value(t))


def _delta(delta):
    """δ ∈ [0, 1] (the one rule: :func:`exactdp.parameters.check_delta`), as sympy."""
    return as_sympy(check_delta(delta))


def _pos_int(n, name="n") -> int:
    return check_count(n, name)


def _nonneg(x, name):
    v, _ = to_exact(x, name)
    v = as_sympy(v)
    if v.is_negative:
        raise ParameterError(f"{name}: must be >= 0, got {v}")
    return v


def _tv_value(x, name="tv_in"):
    v = _nonneg(x, name)
    if (v - 1).is_positive:
        raise ParameterError(f"{name}: a total-variation distance lies in [0, 1], got {v}")
    return v


def _at(name: str, **values) -> sympy.Expr:
    """Registry entry ``name`` (exactdp.bounds, the one definition) at validated exact values."""
    return as_sympy(_bounds.get(name).at(**values))


def _pml(t, c, N) -> dict:
    """t, c, N validated once, on the registry's domain of Ξ (c ∈ (0, 1/N], N ≥ 2, t ≥ 1)."""
    return {s.name: v for s, v in _bounds.get("xi").substitutions({"t": exact_t(t), "c": to_qq(c, "c"),
                                                                    "N": _pos_int(N, "N")}, complete=True).items()}


def exact_or_symbolic(expr):
    expr = as_expr(expr)
    if expr.is_Rational:
        return exact_result(expr), "exact"
    return expr, "symbolic"




# -- minimax: Le Cam, Fano, mean estimation (A-10, A-11, A-12) -------------------------------------

def le_cam_tv(loss_at_t, tv_in, n: int, t, delta, *, interactive: bool = True) -> RiskBound:
    r"""(Φ(t)/2)(1 − min{1, nφ·TV(P₁,P₂)}) [RECON A-10 (i)]; non-interactive: TV ≤ 1 − (1 − φ·TV)ⁿ."""
    n = _pos_int(n)
    L, T, ph = _nonneg(loss_at_t, "loss_at_t"), _tv_value(tv_in), as_sympy(phi_n(t, delta))
    if interactive:  # the registry's lecam_private_tv
        v, kind = exact_or_symbolic(_at("lecam_private_tv", Phi=L, n=n, TV=T, t=exact_t(t), delta=_delta(delta)))
    else:  # the non-interactive chain: TV(P_1^n, P_2^n) after K <= 1 - (1 - phi TV)^n
        v, kind = exact_or_symbolic(L / 2 * (1 - (1 - (1 - ph * T) ** n)))
    return RiskBound(SPECS["le_cam_tv"], v, kind, {"n": n, "interactive": interactive})


def le_cam_kl(loss_at_t, kl_in, n: int, t, delta) -> RiskBound:
    r"""(Φ(t)/2)(1 − √(nφ·D(P₁‖P₂)/2))₊ [RECON A-10 (ii)]: chain rule, η_KL ≤ φ, Pinsker."""
    n = _pos_int(n)
    L, D = _nonneg(loss_at_t, "loss_at_t"), _nonneg(kl_in, "kl_in")
    v, kind = exact_or_symbolic(sympy.Max(0, _at("lecam_private_kl", Phi=L, n=n, I=D, t=exact_t(t), delta=_delta(delta))))
    return RiskBound(SPECS["le_cam_kl"], v, kind, {"n": n})


def fano(loss_at_t, mi_in, size: int, n: int, t, delta) -> RiskBound:
    r"""Φ(t)(1 − (nφ·I(V;X) + log 2)/log|𝒱|)₊ [RECON A-12], non-interactive, 2t-separated family."""
    n, size = _pos_int(n), _pos_int(size, "size")
    if size < 2:
        raise ParameterError(f"size: the packing needs |V| >= 2, got {size}")
    L, I = _nonneg(loss_at_t, "loss_at_t"), _nonneg(mi_in, "mi_in")
    v, kind = exact_or_symbolic(sympy.Max(0, _at("fano_private", Phi=L, n=n, I=I, V=size, t=exact_t(t), delta=_delta(delta))))
    return RiskBound(SPECS["fano"], v, kind, {"n": n, "size": size})


def _rate(base, k) -> sympy.Expr:
    expo = sympy.Integer(1) if k is sympy.oo or k == "oo" else (as_sympy(to_qq(k, "k")) - 1) / as_sympy(to_qq(k, "k"))
    return sympy.Min(1, base ** (-expo))


def _k(k):
    if k is sympy.oo or k == "oo":
        return sympy.oo
    kk = to_qq(k, "k")
    if kk <= 1:
        raise ParameterError(f"k: the moment order must be > 1, got {kk}")
    return kk


def mean_estimation_as_reported(n: int, t, delta, k, c_l=1) -> RiskBound:
    r"""c_ℓ·min{1, (nφ²)^{−(k−1)/k}} — [A] §IV-A as the summary reports it [RECON]; F-A4 refutes it."""
    n, k = _pos_int(n), _k(k)
    ph = as_sympy(phi_n(t, delta))
    v, kind = exact_or_symbolic(as_sympy(to_qq(c_l, "c_l")) * _rate(n * ph**2, k))
    return RiskBound(SPECS["mean_as_reported"], v, kind, {"n": n, "k": str(k)})


def mean_estimation_tv_route(n: int, t, delta, k, c_l=1) -> RiskBound:
    r"""c_ℓ·min{1, (nφ)^{−2(k−1)/k}} — what the TV route with Duchi's mixture gives (A-11, [DERIVED])."""
    n, k = _pos_int(n), _k(k)
    ph = as_sympy(phi_n(t, delta))
    v, kind = exact_or_symbolic(as_sympy(to_qq(c_l, "c_l")) * _rate((n * ph) ** 2, k))
    return RiskBound(SPECS["mean_tv_route"], v, kind, {"n": n, "k": str(k)})


def reveal_mechanism(delta, values) -> Kernel:
    r"""The (0,δ)-LDP "reveal with probability δ, else ⊥" kernel on a finite data alphabet (F-A4).

    Rows: K(x|x) = δ, K(⊥|x) = 1 − δ (⊥ is the last output).  TV between rows is δ, so it is (0,δ)-LDP.
    """
    d = check_delta(delta)
    m = len(values)
    rows = [[d if j == i else fmpq(0) for j in range(m)] + [1 - d] for i in range(m)]
    return Kernel(rows, name=f"reveal(delta={d})")


def reveal_mechanism_risk(n: int, delta) -> fmpq:
    r"""E[1/R; R ≥ 1] + (1−δ)ⁿ, R ~ Bin(n,δ): an exact upper bound on the worst-case MSE of averaging the
    revealed samples (estimate 0 if none) over {E X² ≤ 1} — the (0,δ)-LDP witness of F-A4.

    >>> reveal_mechanism_risk(1, "1/2")
    1
    >>> reveal_mechanism_risk(2, "1/2")
    7/8
    """
    n, d = _pos_int(n), check_delta(delta)
    total = (1 - d) ** n
    for r in range(1, n + 1):
        total += fmpq(int(fmpz.bin_uiui(n, r)), r) * d**r * (1 - d) ** (n - r)
    return total


def reveal_mechanism_risk_bound(n: int, delta) -> fmpq:
    r"""2(1 − (1−δ)^{n+1})/((n+1)δ) + (1−δ)ⁿ ≥ :func:`reveal_mechanism_risk`, in closed form (0 < δ ≤ 1).

    Uses 1/r ≤ 2/(r+1) for r ≥ 1 and E[1/(R+1)] = (1 − (1−δ)^{n+1})/((n+1)δ) for R ~ Bin(n,δ); cheap for
    large n (an achievable-risk certificate for the F-A4 witnesses).

    >>> reveal_mechanism_risk_bound(2, "1/2") >= reveal_mechanism_risk(2, "1/2")
    True
    """
    n, d = _pos_int(n), to_qq(delta, "delta")
    if d <= 0 or d > 1:
        raise ParameterError(f"delta: must lie in (0, 1], got {d}")
    return 2 * (1 - (1 - d) ** (n + 1)) / ((n + 1) * d) + (1 - d) ** n


def sample_mean_risk(n: int) -> fmpq:
    """sup over {E X² ≤ 1} of the sample mean's MSE, Var(X)/n ≤ 1/n (attained by X = ±1): the φ = 1 witness."""
    return fmpq(1, _pos_int(n))


# -- Bayes risk (A-14, A-15, A-16, A-17) -----------------------------------------------------------

def psi_coefficient(t, delta, n):
    return as_sympy(to_qq(delta, "delta")) if n == 1 else as_sympy(phi_n(t, delta, n))


def bayes_e_gamma(I_gamma, t, delta, n: int, slope=2, prec: int = DEFAULT_PREC) -> RiskBound:
    r"""[A] Thm 2 [RECON A-14] for a linear small-ball function L(ζ) = κζ (κ = ``slope``):

    sup_ζ ζ[1 − tκζ − ψ_n I_t] = (1 − ψ_n I_t)₊² / (4κt),  ψ₁ = δ, ψ_n = φⁿ(ε,δ) (n > 1), I_t = I_{e^ε}(θ;Xⁿ).
    ``I_gamma`` is exact (→ exact/symbolic value) or an arb ball (→ certified value).
    """
    n = _pos_int(n)
    T, kappa, psi = exact_t(t), as_sympy(to_qq(slope, "slope")), psi_coefficient(t, delta, n)
    if isinstance(I_gamma, arb):
        with ctx.workprec(prec):
            A = 1 - arb_eval(psi, prec) * I_gamma
            A = A.nonnegative_part() if A.lower() < 0 else A
            v = A * A / (4 * arb_eval(kappa * T, prec))
        return RiskBound(SPECS["thm2_bayes"], v, "certified", {"n": n})
    A = sympy.Max(0, 1 - psi * _nonneg(I_gamma, "I_gamma"))
    v, kind = exact_or_symbolic(A**2 / (4 * kappa * T))
    return RiskBound(SPECS["thm2_bayes"], v, kind, {"n": n})


def xu_raginsky(I, t, delta, n: int, slope=2) -> RiskBound:
    r"""Private Xu–Raginsky [RECON A-15] for L(ζ) = κζ, optimised over ζ in closed form:

    with a = φⁿ·I(θ;Xⁿ) + log 2 and ζ = e^{−u}/κ, the bound e^{−u}(1 − a/u)/κ is maximal at
    u* = (a + √(a² + 4a))/2, giving e^{−u*}(1 − a/u*)/κ.
    """
    n = _pos_int(n)
    kappa = as_sympy(to_qq(slope, "slope"))
    phi_I = as_sympy(phi_n(t, delta, n)) * _nonneg(I, "I")
    if phi_I.has(sympy.log) and not phi_I.has(sympy.exp):
        # a rational phi^n (e.g. eps = 0) times I = ... + log(K)/21: sympy would rewrite exp(-u) as the power
        # K^(-r) with a rational r of 80-digit terms and search for its exact root (it never finishes); the
        # product stays one unevaluated term (the value is the same; arb_eval reads through it)
        phi_I = sympy.UnevaluatedExpr(phi_I)
    a = phi_I + LOG2
    u = (a + sympy.sqrt(a**2 + 4 * a)) / 2
    return RiskBound(SPECS["xu_raginsky"], sympy.exp(-u, evaluate=False) * (1 - a / u) / kappa, "symbolic", {"n": n})


@dataclass(frozen=True)
class BernoulliBayesPoint:
    """One point of [A] Fig. 1: both lower bounds (certified balls) at (ε, δ, n) [RECON A-16/A-17]."""

    eps: fmpq
    delta: fmpq
    n: int
    phi_n: arb
    e_gamma_information: arb
    thm2: arb
    xu_raginsky: arb


def bernoulli_bayes_point(eps, delta="1e-4", n: int = 20, *, bits: int = 100,
                          prec: int = DEFAULT_PREC) -> BernoulliBayesPoint:
    r"""[A] §V Bernoulli example at one ε: θ ~ U[0,1], absolute loss, L(ζ) = 2ζ (ζ ≤ ½), certified.

    Thm 2 uses I_{e^ε}(θ;Xⁿ) (certified integral, :mod:`exactdp.theory.bernoulli`); bound (15) uses
    the exact I(θ;Xⁿ).  docs/claims.md A-17: at ε = 0.01, n = 20, δ = 10⁻⁴ these are 0.0967 and 0.0444.
    """
    n = _pos_int(n)
    t = t_value(eps=eps)
    Ig = bernoulli_e_gamma_information(n, t, bits=bits, prec=prec)
    thm2 = bayes_e_gamma(Ig, t, delta, n, 2, prec).value
    xr = arb_eval(xu_raginsky(bernoulli_mutual_information(n), t, delta, n, 2).value, prec)
    return BernoulliBayesPoint(to_qq(eps, "eps"), to_qq(delta, "delta"), n,
                               arb_eval(phi_n(t, delta, n), prec), Ig, thm2, xr)


def bernoulli_bayes_curve(eps_values, delta="1e-4", n: int = 20, *, bits: int = 40) -> list[BernoulliBayesPoint]:
    """[A] Fig. 1's two curves at the given rational ε values (certified balls; ``bits`` sets their width)."""
    return [bernoulli_bayes_point(e, delta, n, bits=bits) for e in eps_values]


# -- testing (A-18) --------------------------------------------------------------------------------


def _pair(P0, P1):
    return as_pair(P0, P1, ("P0", "P1"), rational="exact testing needs rational distributions")


def neyman_pearson_beta(P0, P1, n: int, alpha) -> fmpq:
    r"""β_n(α) = min P₁ⁿ(accept H₀) over (randomised) tests with P₀ⁿ(reject) ≤ α, exactly.

    Neyman–Pearson over the likelihood-ratio classes of Yⁿ: reject the classes of largest P₁/P₀ first
    (P₀ = 0 first), randomising on the boundary class.

    >>> neyman_pearson_beta(["1/2", "1/2"], ["1/4", "3/4"], 1, "1/2")
    1/4
    """
    n = _pos_int(n)
    a = to_qq(alpha, "alpha")
    if a < 0 or a > 1:
        raise ParameterError(f"alpha: must lie in [0, 1], got {a}")
    P0, P1 = _pair(P0, P1)
    # ROC vertices (P₁ⁿ(A), P₀ⁿ(A)) over the upper sets A of the ratio P₁/P₀, from the exact privacy-loss
    # distribution of the product (type classes, exactdp.measures.privacy_loss); randomise on the segment
    lines = product_loss([(PairLoss.of(P1.probs, P0.probs), n)]).lines()
    power = fmpq(0)
    for (x0, y0), (x1, y1) in itertools.pairwise(lines):
        if y1 <= a:
            power = x1
        elif y0 <= a:
            power = x0 + (x1 - x0) * (a - y0) / (y1 - y0)
            break
        else:
            break
    return 1 - power


def chernoff_stein_bound(alpha, n: int, t, delta, kl_in) -> RiskBound:
    r"""(nφ·D(P₀‖P₁) + log 2)/(1−α), an upper bound on −log β_n^{ε,δ}(α) [RECON A-18]."""
    n = _pos_int(n)
    a = as_sympy(to_qq(alpha, "alpha"))
    if not (0 <= a < 1):
        raise ParameterError(f"alpha: must lie in [0, 1), got {a}")
    v, kind = exact_or_symbolic(_at("chernoff_stein_private", alpha=a, n=n, I=_nonneg(kl_in, "kl_in"), t=exact_t(t),
                          delta=_delta(delta)))
    return RiskBound(SPECS["testing"], v, kind, {"n": n})


def product_tv(P0, P1, n: int) -> fmpq:
    r"""TV(P₀ⁿ, P₁ⁿ) exactly (type classes: :func:`exactdp.measures.tensor.hockey_stick_product` at γ = 1);
    (1 − TV)/2 is the least Bayes testing error."""
    P0, P1 = _pair(P0, P1)
    return hockey_stick_product([(P0, P1, _pos_int(n))], 1)


# -- mutual information (A-19) ---------------------------------------------------------------------

def entropy(P) -> sympy.Expr:
    """H(P) = −Σ P log P in nats, exact."""
    P = as_distribution(P)
    return exact_result(-sympy.Add(*[as_sympy(p) * sympy.log(as_sympy(p)) for p in P if p != 0]))


def mutual_information(P, K) -> sympy.Expr:
    """I(X;Z) = Σ_x P(x) D(K_x ‖ K∘P) in nats, exact, for X ~ P and Z | X ~ K."""
    P, K = as_distribution(P), as_kernel(K)
    out = K.apply(P)
    return exact_result(sympy.Add(*[as_sympy(P[x]) * as_sympy(kl(K.row(x), out)) for x in range(K.N) if P[x] != 0]))


def mi_upper_bound(t, delta, P) -> RiskBound:
    r"""φ(ε,δ)·H(X) ≥ sup_{K ∈ Q_{ε,δ}} I(X;Z) [RECON A-19] (mutual-information SDPI with U = X)."""
    v, kind = exact_or_symbolic(_at("mutual_information_ldp", t=exact_t(t), delta=_delta(delta), I=entropy(P)))
    return RiskBound(SPECS["mutual_information"], v, kind)


# -- [G] Example 3 (G-28) --------------------------------------------------------------------------

def grosse_kl_bound(t, c, tv_in, N: int = 4) -> RiskBound:
    r"""Ξ(ε,c)·log((1−Nc)t + 1)·δ ≥ D(K∘P_{θ₀}‖K∘P_{θ₁}) for K ∈ M(ε,c), P_{θᵢ} ∈ Q_X(c), TV ≤ δ ([G] Cor 1)."""
    v, kind = exact_or_symbolic(_at("grosse_cor1_kl", **_pml(t, c, N)) * _tv_value(tv_in))
    return RiskBound(SPECS["grosse_ex3_kl"], v, kind, {"N": N})


def grosse_hellinger_bound(t, c, tv_in, N: int = 4) -> RiskBound:
    r"""Ξ(ε,c)·(2 − 4/(√((1−Nc)t+1) + 1))·δ ≥ H²(K∘P‖K∘Q), H² without ½ ([G] Cor 2, G-26; used by Fig. 1)."""
    v, kind = exact_or_symbolic(_at("grosse_cor2_h2", **_pml(t, c, N)) * _tv_value(tv_in))
    return RiskBound(SPECS["grosse_cor2_h2"], v, kind, {"N": N})


def zamanlooy_asoodeh_kl_coefficient(t):
    r"""ε(t−1)/(t+1), t = e^ε: the LDP-tight KL/TV coefficient of an ε-LDP kernel (B-7, [RECON]); the
    c-free comparison line in [G] Fig. 1."""
    return exact_or_symbolic(_at("zamanlooy_asoodeh_kl", t=exact_t(t)))[0]


def grosse_example3_minimax(loss_sep, n: int, t, c, tv_in, N: int = 4) -> RiskBound:
    r"""(ℓ(θ₀,θ₁)/2)·¼·exp(−n·Ξ·log((1−Nc)t+1)·δ) [RECON G-28]: Le Cam + Bretagnolle–Huber, KL tensorised."""
    n = _pos_int(n)
    v = _at("grosse_example3_minimax", Phi=_nonneg(loss_sep, "loss_sep"), n=n, TV=_tv_value(tv_in), **_pml(t, c, N))
    return RiskBound(SPECS["grosse_ex3_minimax"], v, "symbolic", {"n": n, "N": N})


# -- effective sample size (A-10, F-A3) ------------------------------------------------------------

def effective_sample_size_crossovers(prec: int = DEFAULT_PREC) -> dict:
    r"""Where φ(ε,0)·n = (1 − e^{−ε})n crosses Duchi's 4ε²n and 4(e^ε−1)²n (F-A3).

    * φ(ε,0) = 4(e^ε−1)²  ⇔  4t(t−1) = 1  ⇔  ε = log((1+√2)/2) ≈ 0.18823 (exact);
    * φ(ε,0) = 4ε² has its positive root in (1/10, 1/2) ≈ 0.22398 (certified ball, by bisection on the
      concave f(ε) = 1 − e^{−ε} − 4ε², f > 0 before the root, f < 0 after).
    Below either crossover φn is the *larger* effective sample size, i.e. the *weaker* lower bound.
    """
    exact = sympy.log((1 + sympy.sqrt(2)) / 2)
    from exactdp.certified.roots import certified_bracket

    phi = _bounds.get("phi")  # f(eps) = phi(eps, 0) - 4 eps^2, bisected by the one certified bracket
    b = certified_bracket(lambda e: phi.at(t=sympy.exp(e), delta=0) - 4 * e**2, fmpq(1, 10), fmpq(1, 2),
                          width=fmpq(2, 5) / 2 ** (prec - 8))
    with ctx.workprec(prec):
        ball = arb(b.lo).union(arb(b.hi))
    return {"phi_vs_4(e^eps-1)^2": exact, "phi_vs_4eps^2": ball}

