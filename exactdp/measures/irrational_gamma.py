r"""Certified E_γ contraction and (ε,δ)-LDP for an irrational γ = e^ε ([A] Thm 1, B-2, D-6).

η_{E_γ}(K) = max_{x≠x'} Σ_y (K_x(y) − γ K_{x'}(y))₊ (the two-point formula, [A] appendix Thm 3).
For a rational kernel and an irrational γ (e.g. e^{1/2}) every decision reduces to comparing γ with
an exact rational:

* the positive set of a pair is {y : K_x(y) > γ K_{x'}(y)} = {y : K_{x'}(y) = 0 < K_x(y)} ∪
  {y : K_x(y)/K_{x'}(y) > γ}; γ is located once among the distinct likelihood ratios r of the kernel
  (binary search, each step a certified ``sign(γ − r)`` whose tie is decided exactly: e^ε = r iff
  ε = log r, by Lindemann–Weierstrass in :mod:`exactdp.numbers.exact_zero`);
* a pair's value is A − γB with exact rationals A, B, and (A₁ − γB₁) − (A₂ − γB₂) has the sign of
  −ΔB·(γ − ΔA/ΔB): again γ against a rational;
* K is (ε,δ)-LDP iff η ≤ δ iff A − δ ≤ γB for the maximizing pair: once more γ against (A − δ)/B.

So with a rational kernel every answer is TRUE/FALSE unless γ is within 2^{-cap} of one of finitely
many rationals without being equal to it.  Kernels with irrational constant entries go through the
general certified sign of each term.  An undecided sign raises :class:`~exactdp.errors.UndecidedError`
(η) or gives Truth.UNKNOWN after a ball-enclosure fallback (is_ldp).
"""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

import numpy as np
from flint import arb, ctx, fmpq

from exactdp.errors import ParameterError, UndecidedError
from exactdp.kernels import Kernel, KernelInput, as_kernel
from exactdp.measures.two_point import eta_in
from exactdp.numbers.qq import qq_to_sympy, to_qq
from exactdp.numbers.rb import RB, START_PREC, arb_of_expr, ball_endpoints, precisions
from exactdp.numbers.domain import RB as RBDomain
from exactdp.numbers.truth import Sign, Truth
from exactdp.numbers.reader import as_expr
from exactdp.parameters import check_delta

if TYPE_CHECKING:
    import sympy
else:
    from exactdp.numbers.deferred import sympy  # deferred: start-up


class _Gamma:
    """γ as a certified real: a rational window lo ≤ γ ≤ hi from one 64-bit ball decides most
    comparisons by exact rational arithmetic; the rest are certified and cached."""

    def __init__(self, gamma: Any, max_prec: Any) -> None:
        self.rb = RB(gamma, "gamma")
        self.max_prec = max_prec
        self._cache: dict[Any, Any] = {}
        ends = ball_endpoints(self.rb.ball(START_PREC))
        self.window = ends if ends is not None and ends[0] >= 0 else None
        s = self.sign_minus(fmpq(0))
        if s is Sign.NEGATIVE:
            raise ParameterError(f"gamma: must be >= 0, got {gamma}")

    def sign_minus(self, r: fmpq) -> Sign:
        """sign(γ − r), certified; raises UndecidedError when the cap is reached without a decision."""
        if self.window is not None:
            lo, hi = self.window
            if r < lo:
                return Sign.POSITIVE
            if r > hi:
                return Sign.NEGATIVE
        key = (int(r.p), int(r.q))  # fmpq hashes through fractions: slow
        s = self._cache.get(key)
        if s is None:
            s = self.rb.compare_rational(r, max_prec=self.max_prec)
            if s is None:
                raise UndecidedError(
                    f"gamma: cannot decide the sign of gamma - {r} (gamma = {self.rb.exact}) within the precision cap"
                )
            self._cache[key] = s
        return s


# -- magnitudes: a γ beyond every likelihood ratio of the kernel ---------------------------------------


def ratio_bits(K: Kernel) -> int:
    """B with every finite likelihood ratio K_x(y)/K_{x'}(y) (K_{x'}(y) > 0) below 2^B, so log r < B.

    With integer rows a/d: r = a_i d_j / (a_j d_i) ≤ max_num · max_den.  Constant time after ``int_rows``.
    """
    R = K.int_rows()
    return (max(R.max_num, 1) * max(R.max_den, 1)).bit_length()


def eta_at_infinity(K: Kernel) -> tuple[fmpq, int, int]:
    r"""``(η_∞, x, x')``: η_{E_γ}(K) for every γ ≥ the largest finite likelihood ratio r_f of K.

    For such γ each term with K_{x'}(y) > 0 has K_x(y) − γK_{x'}(y) ≤ (r_f − γ)K_{x'}(y) ≤ 0, so
    η_{E_γ}(K) = max_{x≠x'} Σ_{y: K_{x'}(y)=0} K_x(y), exactly, whatever the size of γ.
    """
    R = K.int_rows()
    A, d = R.A, R.d
    best, arg = fmpq(0), (0, 1 if K.N > 1 else 0)
    zero = A == 0
    for i in range(K.N):
        # S[j] = Σ_y A[i, y] [A[j, y] = 0]   (j = i gives 0)
        S = np.where(zero, A[i][None, :], 0).sum(axis=1)
        for j in range(K.N):
            if j != i and S[j]:
                v = fmpq(int(S[j]), int(d[i]))
                if v > best:
                    best, arg = v, (i, j)
    return best, *arg


def gamma_beyond_ratios(K: Kernel, gamma: Any=None, eps: Any=None) -> bool:
    """Is γ (or e^ε) certainly ≥ every finite likelihood ratio of the rational kernel K?

    Decided from magnitudes only (log r < B = :func:`ratio_bits`): ε ≥ B, or γ ≥ 2^B, checked by exact
    rational comparison or a 64-bit ball — never by forming e^ε.  False means "not shown", not "no".
    """
    B = ratio_bits(K)
    if gamma is not None:
        if isinstance(gamma, sympy.exp):  # γ = e^u: decide on u
            return gamma_beyond_ratios(K, eps=gamma.args[0])
        if isinstance(gamma, fmpq):
            return gamma >= (1 << B)
        x, limit_ = gamma, arb(2) ** B
    else:
        if isinstance(eps, fmpq):
            return eps >= B
        x, limit_ = eps, arb(B)
    if isinstance(x, sympy.Basic) and x.is_Rational:
        q = to_qq(x)
        return q >= (1 << B) if gamma is not None else q >= B
    try:
        with ctx.workprec(START_PREC):
            ball = RB(x).ball(START_PREC)
            return bool(ball.is_finite() and ball >= limit_)
    except (ParameterError, ValueError, ZeroDivisionError):
        return False


def decide_beyond_ratios_sr(K: Kernel, d: fmpq, gamma: Any=None, eps: Any=None) -> Truth | None:
    """For a kernel with irrational constant entries (no free symbols): decide η_{E_γ}(K) ≤ δ when γ is
    certainly beyond every likelihood ratio of K (then η = η_∞, as for rational kernels); None when
    that is not shown (the caller goes on with its general route).  Only 64-bit balls are used."""
    zero = [[v == 0 for v in row] for row in K.rows]
    hi, lo = None, None
    with ctx.workprec(START_PREC):
        for row, zrow in zip(K.rows, zero):
            for v, z in zip(row, zrow):
                if z:
                    continue
                b = RB(as_expr(v)).ball(START_PREC)
                if not (b.is_finite() and b > 0):
                    return None  # a zero test would be needed: not a magnitude question
                hi = b if hi is None else hi.max(b)
                lo = b if lo is None else lo.min(b)
        if hi is None or lo is None:
            return None
        bound = (hi / lo).upper()  # every likelihood ratio with a positive denominator is ≤ bound
        if not bound.is_finite():
            return None
        if gamma is not None and isinstance(gamma, sympy.exp):
            gamma, eps = None, gamma.args[0]
        try:
            if gamma is not None:
                x, target = RB(gamma if not isinstance(gamma, fmpq) else qq_to_sympy(gamma)), bound
            else:
                x, target = RB(eps if not isinstance(eps, fmpq) else qq_to_sympy(eps)), bound.log().upper()
            xb = x.ball(START_PREC)
        except (ParameterError, ValueError, ZeroDivisionError):
            return None
        if not (xb.is_finite() and xb > target):
            return None
    out = Truth.TRUE
    for i in range(K.N):
        for j in range(K.N):
            if i == j:
                continue
            total = sympy.Add(*[as_expr(K.rows[i][y]) for y in range(K.M) if zero[j][y]])
            s = RB(total - qq_to_sympy(d)).sign().sign
            if s is None:
                out = Truth.UNKNOWN
            elif s is Sign.POSITIVE:
                return Truth.FALSE
    return out


def _check_kernel(K: Kernel) -> Kernel:
    if K.symbolic and K.free_symbols:
        raise ParameterError(
            f"K: has free symbols {sorted(map(str, K.free_symbols))}; certified arithmetic needs numbers "
            f"(substitute values with K.subs(...) or use exactdp.symbolic)"
        )
    return K


def _window_ints(R: Any, g: _Gamma) -> Any:
    """(dtype, ((lp, lq), (hp, hq)) or None): an integer window lp/lq ≤ γ ≤ hp/hq for cross-multiplication.

    int64 when a dyadic window with ≥ 16 bits fits the proven bound |num·q|, |den·p| < 2^61 (num, den are
    products of an entry numerator and a row denominator, both < 2^31); otherwise Python ints with the
    64-bit ball's exact window.
    """
    if g.window is None:
        return object, None
    lo, hi = g.window
    if R.A.dtype != object:
        base = max(R.max_num, 1) * max(R.max_den, 1)
        top = int(hi.ceil()) + 1
        k = 61 - base.bit_length() - top.bit_length()
        if k >= 16:
            h = 1 << k
            return np.int64, ((int((lo * h).floor()), h), (int((hi * h).ceil()), h))
    return object, ((int(lo.p), int(lo.q)), (int(hi.p), int(hi.q)))


def _eta_qq_parts(K: Kernel, g: _Gamma, dtype: Any=None) -> tuple[fmpq, fmpq, int, int]:
    """(A, B, x, x') with η_{E_γ}(K) = A − γB attained at (x, x').

    Vectorized over partner rows j with integer rows a = A_i/d_i, b = A_j/d_j: the likelihood ratio
    a/b = num/den with num = A_iy d_j, den = A_jy d_i is compared with a rational window [lo, hi] ∋ γ
    by cross-multiplication (int64 under a proven bound, else Python ints); only ratios inside the
    window get a certified comparison with γ.  ``dtype=object`` forces the Python-int path (tests).
    """
    N = K.N
    R = K.int_rows()
    auto, window = _window_ints(R, g)
    if dtype is None or window is None:
        dtype = auto
    elif dtype is object and auto is not object:
        window = tuple((int(w.p), int(w.q)) for w in g.window or ())
    A, d = R.as_dtype(dtype)
    best = None
    for i in range(N):
        num = A[i][None, :] * d[:, None]  # a_iy · d_j   (row j of the result is the pair (i, j))
        den = A * d[i]  # a_jy · d_i
        pos = num > 0
        if window is not None:
            (lp, lq), (hp, hq) = window
            above = num * hq > den * hp  # ratio > hi ≥ γ (includes b = 0 < a)
            below = num * lq <= den * lp  # ratio ≤ lo ≤ γ
        else:
            above = den == 0
            below = np.zeros_like(pos)
        mask = pos & above
        for j, y in zip(*np.nonzero(pos & ~above & ~below)):
            if g.sign_minus(fmpq(int(num[j, y]), int(den[j, y]))) is Sign.NEGATIVE:  # ratio > γ
                mask[j, y] = True
        A_num = np.where(mask, A[i][None, :], 0).sum(axis=1)
        B_num = np.where(mask, A, 0).sum(axis=1)
        for j in range(N):
            if j == i:
                continue
            Aij, Bij = fmpq(int(A_num[j]), int(d[i])), fmpq(int(B_num[j]), int(d[j]))
            if best is None or _greater(Aij, Bij, best[0], best[1], g):
                best = (Aij, Bij, i, j)
    if best is None:  # a single input (callers answer N = 1 before): no pair, η = 0
        return fmpq(0), fmpq(0), 0, 0
    return best


def _greater(A: Any, B: Any, A0: Any, B0: Any, g: _Gamma) -> bool:
    """Is A − γB > A0 − γB0 (certified)?  The difference is −ΔB·(γ − ΔA/ΔB)."""
    dA, dB = A - A0, B - B0
    if dB == 0:
        return bool(dA > 0)
    s = g.sign_minus(dA / dB)
    return -(1 if dB > 0 else -1) * int(s) > 0


def _eta_sr(K: Kernel, g: _Gamma, max_prec: Any) -> tuple[object, int | None, int | None]:
    """η over the ball domain for a kernel with irrational constant entries: the one two-point maximum
    (:func:`exactdp.measures.two_point.eta_in`), every sign certified."""
    return eta_in(RBDomain("eta_hockey_stick", max_prec=max_prec), K, g.rb.exact)


def eta_hockey_stick_certified(K: KernelInput, gamma: Any, *, max_prec: int | None = None) -> Any:
    r"""``(η_{E_γ}(K), x, x')`` for an irrational γ (or a kernel with irrational constant entries).

    η_{E_γ}(K) = max_{x≠x'} Σ_y (K_x(y) − γK_{x'}(y))₊, returned as an exact sympy expression
    A − γB over the certified positive set of the maximizing pair (an fmpq when B = 0).

    Raises:
        UndecidedError: a sign could not be certified within the precision cap (message says which).
        ParameterError: free symbols, or γ < 0.

    >>> import sympy
    >>> from exactdp.mechanisms import randomized_response
    >>> eta_hockey_stick_certified(randomized_response(2, 3), sympy.exp(sympy.Rational(1, 2)))
    (3/4 - exp(1/2)/4, 0, 1)
    """
    K = _check_kernel(as_kernel(K))
    if not K.symbolic and gamma_beyond_ratios(K, gamma=gamma):  # constant time in the size of γ
        return eta_at_infinity(K)
    g = _Gamma(gamma, max_prec)
    if K.N == 1:
        return fmpq(0), 0, 0
    if K.symbolic:
        value, i, j = _eta_sr(K, g, max_prec)
        value = as_expr(value)
        return (to_qq(value) if value.is_Rational else value), i, j
    A, B, i, j = _eta_qq_parts(K, g)
    if B == 0:
        return A, i, j
    return qq_to_sympy(A) - g.rb.exact * qq_to_sympy(B), i, j


def is_ldp_certified(K: KernelInput, gamma: Any, delta: Any, *, max_prec: int | None = None) -> Truth:
    r"""Decide (ε,δ)-LDP, η_{E_γ}(K) ≤ δ with γ = e^ε ([A] Thm 1), for an irrational γ: TRUE/FALSE/UNKNOWN.

    Exact rational kernels: decided with certainty unless γ is within 2^{-cap} of (but not equal to)
    one of finitely many rationals.  When the exact route is undecided, the η ball (max over pairs of
    Σ max(0, a − γb)) is compared with δ at doubling precision; if that does not separate either, the
    answer is UNKNOWN.
    """
    K = _check_kernel(as_kernel(K))
    d = check_delta(delta)
    if not K.symbolic and gamma_beyond_ratios(K, gamma=gamma):  # constant time in the size of γ
        return Truth.of(eta_at_infinity(K)[0] <= d)
    if K.symbolic:
        fast = decide_beyond_ratios_sr(K, d, gamma=gamma)
        if fast is not None:
            return fast
    g = _Gamma(gamma, max_prec)
    if K.N == 1:
        return Truth.TRUE
    try:
        if not K.symbolic:
            A, B, _, _ = _eta_qq_parts(K, g)
            if B == 0:
                return Truth.of(A <= d)
            return Truth.of(g.sign_minus((A - d) / B) is not Sign.NEGATIVE)  # A − γB ≤ d ⟺ γ ≥ (A − d)/B
        value, _, _ = _eta_sr(K, g, max_prec)
        s = RB(as_expr(value) - qq_to_sympy(d)).sign(max_prec=max_prec)
        if s.sign is not None:
            return Truth.of(s.sign is not Sign.POSITIVE)
    except UndecidedError:
        pass
    return _is_ldp_balls(K, g, d, max_prec)


def _is_ldp_balls(K: Kernel, g: _Gamma, d: fmpq, max_prec: Any) -> Truth:
    exprs = [[as_expr(qq_to_sympy(v) if isinstance(v, fmpq) else v) for v in r] for r in K.rows]
    for prec in precisions(max_prec):
        G = g.rb.ball(prec)
        with ctx.workprec(prec):
            rows = [[arb_of_expr(v) for v in r] for r in exprs]
            eta = arb(0)
            for i in range(K.N):
                for j in range(K.N):
                    if i != j:
                        s = arb(0)
                        for a, b in zip(rows[i], rows[j]):
                            s += (a - G * b).nonnegative_part()
                        eta = eta.max(s)
            D = arb(d)
            if eta <= D:
                return Truth.TRUE
            if eta > D:
                return Truth.FALSE
    return Truth.UNKNOWN
