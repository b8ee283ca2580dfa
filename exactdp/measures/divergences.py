r"""f-divergences between exact distributions (D-2; [A] §II-A, [G] §II-A).

Conventions (docs/claims.md, "Conventions"): natural logs, KL in nats;
TV(P,Q) = ½‖P−Q‖₁; E_γ(P‖Q) = Σ_y (P(y) − γQ(y))₊ for γ ≥ 0; χ²(P‖Q) = Σ (P−Q)²/Q;
H²(P,Q) = Σ (√P − √Q)² ∈ [0, 2] **without** the ½ (the convention [G] Cor. 2 needs, F-G6).
Zero masses: 0·f(0/0) = 0 and, for Q(y) = 0 < P(y), the term is P(y)·f′(∞) with
f′(∞) = lim_{t→∞} f(t)/t (which may be +∞).

Rational results are ``fmpq``; infinite ones ``sympy.oo``; transcendental ones (KL, H²) exact sympy
expressions — evaluate them with guaranteed digits through :mod:`exactdp.numbers`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flint import fmpq

from exactdp.distributions import Distribution, as_pair
from exactdp.errors import ParameterError
from exactdp.measures.input_domain import input_domain, region_domain
from exactdp.numbers.domain import QQ, RB, Domain
from exactdp.numbers.qq import to_qq
from exactdp.numbers.truth import Truth
from exactdp.numbers.sr import exact_result, as_sympy, to_exact

if TYPE_CHECKING:
    from exactdp.kernels import Kernel, KernelInput
    import sympy
else:
    from exactdp.numbers.deferred import sympy  # deferred: start-up

_GENERATORS: dict[Any, Any] = {}


def generators() -> dict[Any, Any]:
    """The likelihood-ratio symbol ``t`` (positive) and the generators f of the named divergences as functions
    of t = P/Q: ``F_TV`` = |t − 1|/2, ``F_KL`` = t log t, ``F_CHI2`` = (t − 1)², ``F_H2`` = (√t − 1)².  Built at
    the first use (sympy is not imported for rational work) and readable as module attributes
    (``from exactdp.measures.divergences import t, F_KL``)."""
    if not _GENERATORS:
        t = sympy.Symbol("t", positive=True)
        _GENERATORS.update(t=t, F_TV=sympy.Abs(t - 1) / 2, F_KL=t * sympy.log(t), F_CHI2=(t - 1) ** 2,
                           F_H2=(sympy.sqrt(t) - 1) ** 2)
    return _GENERATORS


def __getattr__(name: str) -> Any:
    if name in ("t", "F_TV", "F_KL", "F_CHI2", "F_H2"):
        return generators()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _t() -> sympy.Symbol:
    return generators()["t"]


def f_hockey_stick(gamma: Any) -> sympy.Expr:
    """f_γ(t) = (t − γ)₊, the generator of E_γ."""
    return sympy.Max(_t() - as_sympy(gamma), 0)


def _pair(P: Any, Q: Any) -> tuple[Distribution, Distribution]:
    return as_pair(P, Q)


def gamma_order(gamma: Any) -> Any:
    """``(γ, symbolic)``: the order γ ≥ 0 of E_γ as an exact value, refusing a negative one."""
    g: Any
    g, symbolic = to_exact(gamma, "gamma")
    if not symbolic and g < 0:
        raise ParameterError(f"gamma: must be >= 0, got {g}")
    if symbolic and g.is_negative:
        raise ParameterError(f"gamma: must be >= 0, got {g}")
    return g, symbolic


def hockey_stick(P: Any, Q: Any, gamma: Any) -> Any:
    r"""E_γ(P‖Q) = Σ_y (P(y) − γ Q(y))₊ for γ ≥ 0 (D-2; [A] §II-A).

    Equals sup_A [P(A) − γ Q(A)] (attained at A = {P > γQ}); E₁ = TV.  Written once over the number
    domain of the inputs (:mod:`exactdp.numbers.domain`): exact (fmpq) for rational γ and P, Q; an exact
    expression with certified signs for irrational numbers (γ = e^{1/2}); a closed form on the scoped
    region (:func:`exactdp.symbolic.assuming`) for parameters.

    >>> hockey_stick(["3/4", "1/4"], ["1/4", "3/4"], 2)
    1/4
    """
    P, Q = _pair(P, Q)
    g, _ = gamma_order(gamma)
    D = _domain((*P.probs, *Q.probs, g), "hockey_stick", gamma=g)
    return D.result(hockey_stick_in(D, P.probs, Q.probs, g))


def hockey_stick_in(D: Domain[Any], p: Any, q: Any, gamma: Any) -> Any:
    """Σ_y (p(y) − γ q(y))₊ in the number domain ``D`` (the one E_γ sum; p, q sequences of D's inputs)."""
    g = D.convert(gamma, "gamma")
    return D.total([D.positive_part(D.convert(a) - g * D.convert(b)) for a, b in zip(p, q)])


def _domain(values: Any, what: str, gamma: Any=None) -> Domain[Any]:
    """The one domain choice (:func:`exactdp.measures.input_domain.input_domain`) of the values: QQ, RB or —
    for values with parameters — SR on the scoped region (γ's own symbols taken ≥ 0)."""

    def scoped() -> Any:
        from exactdp.symbolic.closedforms import scoped_region, sr_domain  # deferred: start-up

        return sr_domain(scoped_region(values, gamma))

    return input_domain(what, values, sr=scoped)


def row_divergence(K: Kernel, x: int, x2: int, kind: str = "tv", gamma: Any=1) -> Any:
    """A divergence between rows x and x2 of a kernel: "tv", "hockey_stick" (E_γ; of a parametric kernel as
    a closed form on the kernel's region, :func:`exactdp.symbolic.kernel_region`), "chi2", "kl",
    "hellinger2" (the functions of this module on the two rows)."""
    if kind in ("tv", "hockey_stick"):
        g, _ = gamma_order(1 if kind == "tv" else gamma)
        D = input_domain(kind, (*K.rows[x], *K.rows[x2], g), sr=lambda: region_domain(K, g))
        return D.result(hockey_stick_in(D, K.rows[x], K.rows[x2], g))
    fn = {"chi2": chi2, "kl": kl, "hellinger2": hellinger2}.get(kind)
    if fn is None:
        raise ParameterError(f"kind: must be one of tv, hockey_stick, chi2, kl, hellinger2, got {kind!r}")
    return fn(K.row(x), K.row(x2))


def tv(P: Any, Q: Any) -> Any:
    r"""TV(P, Q) = ½ Σ_y |P(y) − Q(y)| = E₁(P‖Q) (D-2).

    >>> tv(["1/2", "1/2"], ["1/4", "3/4"])
    1/4
    """
    return hockey_stick(P, Q, 1)


def chi2(P: Any, Q: Any) -> Any:
    r"""χ²(P‖Q) = Σ_y (P(y) − Q(y))² / Q(y); +∞ if Q(y) = 0 < P(y) (D-2).

    Written once over the number domain of the entries (:func:`chi2_in`).

    >>> chi2(["1/2", "1/2"], ["1/4", "3/4"])
    1/3
    """
    P, Q = _pair(P, Q)
    D = _domain((*P.probs, *Q.probs), "chi2")
    value = chi2_in(D, P.probs, Q.probs)
    if isinstance(D, RB) and value is not sympy.oo:  # irrational numbers: the simplified exact value
        value = sympy.simplify(value)
    return D.result(value)


def chi2_in(D: Domain[Any], p: Any, q: Any) -> Any:
    """Σ_y (p(y) − q(y))²/q(y) in the number domain ``D``; ``sympy.oo`` when some q(y) = 0 < p(y).

    A term is skipped when q(y) = p(y) = 0 and infinite when q(y) = 0 ≠ p(y), each decided by ``D``; an
    entry q(y) that ``D`` cannot show to be 0 or not (a parameter that vanishes somewhere on the region)
    keeps its term, so the closed form holds where q(y) ≠ 0.
    """
    terms = []
    for a, b in zip(p, q):
        a, b = D.convert(a), D.convert(b)
        if D.compare(b, "==", D.zero) is Truth.TRUE:
            if D.compare(a, "==", D.zero) is not Truth.TRUE:
                return sympy.oo
            continue
        terms.append((a - b) ** 2 / b)
    return D.total(terms)


def kl(P: Any, Q: Any) -> Any:
    r"""KL(P‖Q) = Σ_y P(y) log(P(y)/Q(y)) in nats; +∞ if Q(y) = 0 < P(y) (D-2).

    Returns an exact sympy expression (a sum of rational multiples of logs of rationals); written once
    over the number domain of the entries (:func:`kl_in`).

    >>> kl(["1", "0"], ["1/2", "1/2"]), kl(["1/2", "1/2"], ["1", "0"])
    (log(2), oo)
    """
    P, Q = _pair(P, Q)
    return kl_in(_domain((*P.probs, *Q.probs), "kl"), P.probs, Q.probs)


def kl_in(D: Domain[Any], p: Any, q: Any) -> Any:
    """Σ_y p(y) log(p(y)/q(y)) with the zero masses decided by ``D``: a term with p(y) = 0 is 0, a term with
    q(y) = 0 < p(y) makes the sum +∞; an entry ``D`` cannot show to be 0 or not keeps its term (the closed
    form holds where it does not vanish)."""
    terms = []
    for a, b in zip(p, q):
        a, b = D.convert(a), D.convert(b)
        if D.compare(a, "==", D.zero) is Truth.TRUE:
            continue
        if D.compare(b, "==", D.zero) is Truth.TRUE:
            return sympy.oo
        sa, sb = as_sympy(a), as_sympy(b)
        terms.append(sa * sympy.log(sa / sb))
    return exact_result(sympy.Add(*terms))


def hellinger2(P: Any, Q: Any) -> Any:
    r"""H²(P, Q) = Σ_y (√P(y) − √Q(y))² ∈ [0, 2], without the ½ (F-G6).

    Returns an exact sympy expression (rational numbers and square roots).

    >>> hellinger2(["1", "0"], ["0", "1"]), hellinger2(["1/2", "1/2"], ["1", "0"])
    (2, 2 - sqrt(2))
    """
    P, Q = _pair(P, Q)
    return hellinger2_in(_domain((*P.probs, *Q.probs), "hellinger2"), P.probs, Q.probs)


def hellinger2_in(D: Domain[Any], p: Any, q: Any) -> Any:
    """Σ_y (√p(y) − √q(y))² = Σ_y (p(y) + q(y)) − 2 Σ_y √p(y)·√q(y), written over the number domain ``D``.

    The algebraic part Σ (p + q) is summed in ``D`` (an ``fmpq`` in QQ); the square roots leave every domain
    (√2 is not rational), so the cross terms √p·√q are exact sympy square roots, as :func:`kl_in` takes
    its logs; over QQ as one root √(pq) (p, q ≥ 0: the same canonical value, one factorisation instead of two),
    elsewhere as the product, whose factors the certified comparisons decide separately.  No zero test is needed (√0 = 0).  Returns the expanded exact value (``fmpq`` when rational): over QQ the sum as built is
    already expanded (sympy's √(p/q) is a rational times the root of an integer, and a number times a sum is
    distributed), so no expansion pass is run there.
    """
    mass = D.total([D.convert(a) + D.convert(b) for a, b in zip(p, q)])
    if D is QQ:  # a rational plus rational multiples of integer square roots: already expanded (no expand pass)
        cross = sympy.Add(*[sympy.sqrt(as_sympy(D.convert(a) * D.convert(b))) for a, b in zip(p, q)])
        return exact_result(as_sympy(mass) - 2 * cross)
    else:
        cross = sympy.Add(*[sympy.sqrt(as_sympy(D.convert(a))) * sympy.sqrt(as_sympy(D.convert(b)))
                            for a, b in zip(p, q)])
    return exact_result(sympy.expand(as_sympy(mass) - 2 * cross))


def renyi(P: Any, Q: Any, alpha: Any) -> Any:
    r"""Rényi divergence D_α(P‖Q) = 1/(α−1) · log Σ_y P(y)^α Q(y)^{1−α} in nats, α ≥ 0 rational or ``oo``.

    * α = 1: KL(P‖Q) (the limit);  α = ``sympy.oo``: log max_y P(y)/Q(y) (D_∞);
      α = 0: −log Q(supp P).
    * Zero masses: P(y) = Q(y) = 0 and P(y) = 0 < Q(y) contribute nothing (α > 0); Q(y) = 0 < P(y)
      gives +∞ for α ≥ 1 and contributes nothing for α < 1; an empty sum (α < 1, disjoint supports)
      gives +∞.

    Returns an exact sympy expression (logs of algebraic numbers), an fmpq when rational, or
    ``sympy.oo``; evaluate it with guaranteed digits by :func:`exactdp.evalf`.

    >>> renyi(["1/2", "1/2"], ["1/4", "3/4"], 2)
    log(4/3)
    """
    P, Q = _pair(P, Q)
    if alpha is sympy.oo:
        if any(q == 0 and p != 0 for p, q in zip(P, Q)):
            return sympy.oo
        ratios = [as_sympy(p) / as_sympy(q) for p, q in zip(P, Q) if p != 0]
        return exact_result(sympy.log(sympy.Max(*ratios)))
    a = to_qq(alpha, "alpha")
    if a < 0:
        raise ParameterError(f"alpha: must be >= 0 or oo, got {a}")
    if a == 1:
        return kl(P, Q)
    A = as_sympy(a)
    if a > 1 and any(q == 0 and p != 0 for p, q in zip(P, Q)):
        return sympy.oo
    if a == 0:
        mass = sympy.Add(*[as_sympy(q) for p, q in zip(P, Q) if p != 0])
        return sympy.oo if mass == 0 else exact_result(-sympy.log(mass))
    _require_power_size([(p, q) for p, q in zip(P, Q) if p != 0 and q != 0], a)
    total = sympy.Add(*[as_sympy(p) ** A * as_sympy(q) ** (1 - A) for p, q in zip(P, Q) if p != 0 and q != 0])
    if total == 0:
        return sympy.oo
    return exact_result(sympy.log(total) / (A - 1))


def _require_power_size(pairs: Any, a: Any) -> None:
    """Refuse the Rényi sum Σ P(y)^α Q(y)^{1−α} before sympy builds it when its exact powers would exceed
    10 × ``max_integer_digits`` (the library's own exact results, as :func:`exactdp.bounds.exact_at`): each
    term has about |α|·(bits of P(y)) + |1−α|·(bits of Q(y)) bits (α = 10^9 on halves is a 10^9-bit
    rational)."""
    from exactdp.limits import ESTIMATE_CAP, limit, limits, require

    def bits(x: Any) -> int:
        if isinstance(x, fmpq) or getattr(x, "is_Rational", False):
            return int(x.p).bit_length() + int(x.q).bit_length()
        return 64  # an irrational entry (sqrt(2) - 1): sympy keeps its power unexpanded, no huge integer

    scale = min(abs(a.p), ESTIMATE_CAP) // int(a.q) + 1  # |alpha| rounded up, never a huge product
    total = sum(scale * (bits(p) + bits(q)) for p, q in pairs)
    with limits(max_integer_digits=10 * limit("max_integer_digits")):
        require("max_integer_digits", min(total, ESTIMATE_CAP) * 30103 // 100000,
                f"alpha: the exact Renyi sum at order {a if len(str(a)) < 40 else 'alpha'}")


def _as_generator(f: Any) -> sympy.Expr:
    """A sympy expression in the module's symbol ``t`` from an expression/Lambda in one symbol."""
    t = _t()
    if isinstance(f, sympy.Lambda):
        if len(f.variables) != 1:
            raise ParameterError(f"f: must be a function of one variable, got {f}")
        return f.expr.xreplace({f.variables[0]: t})
    if isinstance(f, sympy.Basic):
        free = f.free_symbols
        if len(free) > 1:
            raise ParameterError(f"f: must have exactly one free symbol (the ratio t), got {sorted(map(str, free))}")
        if len(free) == 1:
            (s,) = free
            return f.xreplace({s: t})
        return f
    raise ParameterError(f"f: must be a sympy expression or Lambda in one variable, got {type(f).__name__}")


def _eventual_branch(expr: sympy.Expr, point: Any) -> sympy.Expr:
    """``expr`` with every Max/Min/Piecewise replaced by the branch in force as t → point.

    sympy's ``limit`` cannot expand Max (e.g. ``limit(Max(t - 2, 0)/t, t, oo)`` raises); for a
    piecewise-defined generator the branch that eventually dominates is chosen by the limit of the
    difference of two branches (ties have the same limit), a Piecewise by its condition at the point.
    """
    t = _t()

    def pick(e: Any) -> Any:
        if isinstance(e, (sympy.Max, sympy.Min)):
            args = [pick(a) for a in e.args]
            best = args[0]
            for a in args[1:]:
                diff = sympy.limit(a - best, t, point, "+" if point == 0 else "-")
                if diff.is_extended_real is not True:
                    raise ParameterError(f"f: cannot decide which branch of {e} holds as t -> {point}")
                if (diff > 0) if isinstance(e, sympy.Max) else (diff < 0):
                    best = a
            return best
        if isinstance(e, sympy.Piecewise):
            probe = sympy.oo if point is sympy.oo else sympy.Rational(1, 10**30)
            for value, cond in e.args:
                if cond is sympy.true or cond == True or cond.subs(t, probe) == True:
                    return pick(value)
            raise ParameterError(f"f: no branch of {e} holds as t -> {point}")
        if e.args:
            return e.func(*[pick(a) for a in e.args])
        return e

    return pick(expr)


def _limit(expr: sympy.Expr, point: Any) -> sympy.Expr:
    """lim_{t→point} expr (point = 0⁺ or +∞), robust to Max/Min/Piecewise generators."""
    direction, t = ("+" if point == 0 else "-"), _t()
    try:
        return sympy.limit(expr, t, point, direction)
    except (TypeError, NotImplementedError, ValueError):
        return sympy.limit(_eventual_branch(expr, point), t, point, direction)


def slope_at_infinity(f: Any) -> sympy.Expr:
    """f′(∞) = lim_{t→∞} f(t)/t (possibly +∞).

    >>> from exactdp.measures.divergences import t
    >>> slope_at_infinity(sympy.Max(t - 2, 0)), slope_at_infinity(t * sympy.log(t))
    (1, oo)
    """
    return _limit(_as_generator(f) / _t(), sympy.oo)


def f_divergence(P: Any, Q: Any, f: Any) -> Any:
    r"""D_f(P‖Q) = Σ_{Q(y)>0} Q(y) f(P(y)/Q(y)) + Σ_{Q(y)=0<P(y)} P(y) f′(∞) (D-2).

    Args:
        P, Q: distributions on the same alphabet.
        f: a sympy expression in one symbol (or a ``Lambda``), convex on (0, ∞), with f(1) = 0.
           f(1) = 0 is checked exactly; convexity is the caller's hypothesis.

    Terms with P(y) = Q(y) = 0 are skipped (0·f(0/0) = 0); terms with P(y) = 0 < Q(y) use
    f(0) = lim_{t→0⁺} f(t).

    >>> from exactdp.measures.divergences import t
    >>> f_divergence(["1/2", "1/2"], ["1/4", "3/4"], (t - 1) ** 2)
    1/3
    """
    P, Q = _pair(P, Q)
    g, t = _as_generator(f), _t()
    if sympy.simplify(g.subs(t, 1)) != 0:
        raise ParameterError(f"f: must satisfy f(1) = 0, got f(1) = {sympy.simplify(g.subs(t, 1))}")
    total = sympy.Integer(0)
    f0 = slope = None
    for p, q in zip(P, Q):
        sp, sq = as_sympy(p), as_sympy(q)
        if sq == 0:
            if sp == 0:
                continue
            if slope is None:
                slope = slope_at_infinity(g)
            total += sp * slope
        elif sp == 0:
            if f0 is None:
                f0 = _limit(g, 0)
            total += sq * f0
        else:
            total += sq * g.subs(t, sp / sq)
    if total.has(sympy.oo):
        return sympy.oo
    return exact_result(sympy.simplify(total))
