r"""χ² and KL contraction coefficients of a rational kernel, exactly (docs/references.md).

**Input-dependent.**  For a prior P on the inputs and PK its output law,

    η_χ²(P, K) = sup_Q χ²(QK‖PK) / χ²(Q‖P) = ρ_m(P, K)²,

the squared maximal correlation of X ~ P and Y ~ K_X: the second largest eigenvalue of the rational matrix
A = K D_{PK}⁻¹ Kᵀ D_P (similar to BBᵀ with B = D_P^{1/2} K D_{PK}^{-1/2}, whose top singular value is 1).
It is the largest real root of charpoly(A) / (x − 1): exact, as a real algebraic number.

**Input-free.**  η_χ²(K) = sup_P η_χ²(P, K), and η_KL(K) = η_{H²}(K) = η_χ²(K) (equality of the
input-free coefficients of operator-convex f: Choi–Ruskai–Seneta, Raginsky, Makur–Zheng; the maximal
correlation form: Rényi, Witsenhausen; all in docs/references.md).  For two inputs, P = (α, 1 − α), the only non-constant function of X gives

    η_χ²(P, K) = α(1 − α) Σ_y (K_0(y) − K_1(y))² / m_y(α) = 1 − Σ_y K_0(y)K_1(y) / m_y(α),
    m_y(α) = αK_0(y) + (1 − α)K_1(y),

a concave function of α (each −K_0K_1/m_y is concave: 1/m is convex for m linear and positive).  Its
maximum is at the unique root in (0, 1) of the decreasing derivative Σ_y K_0K_1(K_0 − K_1)/m_y², or at an
end.  Outputs with the same likelihood ratio K_0(y)/K_1(y) merge exactly (their terms add), so the
derivative's numerator has degree 2(L − 1) for L ratio classes.  The maximiser α* and the value are real
algebraic numbers; the value's polynomial is the resultant of α*'s polynomial with v·W(α) − (W − U)(α).
Two outputs give the closed form 1 − (√(ab) + √((1 − a)(1 − b)))² for rows (a, 1 − a), (b, 1 − b)
when α* is interior; the binary symmetric channel gives (1 − 2p)², the erasure channel 1 − ε.

For N = 3 and 4 inputs and a kernel whose used columns are positive, :func:`eta_chi2` returns a certified
enclosure [L, L + width] (default width 10⁻⁶) from the branch and bound over the priors of
:mod:`exactdp.measures.chi2_branch_bound`, L an exact value at a rational prior.  For other kernels with
N ≥ 3 inputs it returns the loose enclosure: below, the best prior supported on two inputs (exact, as above);
above, η_TV(K) (η_χ² ≤ η_TV, docs/claims.md B-3).
"""

from __future__ import annotations

from typing import Any

from dataclasses import dataclass, field
import sympy
from flint import fmpq, fmpq_mat, fmpq_mpoly_ctx, fmpq_poly

from exactdp.algebra.algebraic import RealAlgebraic, count_roots, real_roots, sturm_sequence
from exactdp.distributions import as_distribution
from exactdp.errors import InputError
from exactdp.kernels import Kernel, KernelInput, as_kernel
from exactdp.measures import chi2_branch_bound
from exactdp.measures.contraction import eta_tv
from exactdp.numbers.qq import to_qq

#: inputs × outputs above which the characteristic polynomial of η_χ²(P, K) is refused
MAX_CHARPOLY_SIZE = 64


@dataclass(frozen=True)
class ChiSquareContraction:
    """η_χ²(K) (= η_KL(K)) of a kernel: exact when ``lower == upper``, else a certified enclosure.

    ``value`` is the exact real algebraic number when known; ``alpha`` the best two-input prior's mass α*
    on the first of ``inputs`` (the prior (α*, 1 − α*) on those two inputs), a real algebraic number;
    ``prior`` the rational prior whose exact η_χ²(P, K) is ``lower`` when the branch and bound found a better
    one than every two-input prior; ``boxes`` the boxes it examined (0: not run).
    """

    value: RealAlgebraic | None
    lower: fmpq
    upper: fmpq
    alpha: RealAlgebraic | None
    inputs: tuple[int, int] | None
    prior: tuple[fmpq, ...] | None = None
    boxes: int = 0
    kernel: Kernel | None = field(default=None, repr=False, compare=False)

    @property
    def exact(self) -> bool:
        return self.value is not None

    def as_sympy(self) -> sympy.Expr:
        """The exact value (Rational, radicals for degree 2, else ``CRootOf``); refuses an enclosure."""
        if self.value is None:
            raise InputError(f"eta_chi2: only the enclosure [{self.lower}, {self.upper}] is known for "
                             "N >= 3 inputs; use .lower / .upper")
        return self.value.as_sympy()

    def enclosure(self, width: Any = None) -> tuple[fmpq, fmpq]:
        """Exact rationals lo ≤ η_χ²(K) ≤ hi: for an exact value its isolating interval, bisected (by Sturm
        counts) until hi − lo ≤ ``width`` when one is given; for N = 3, 4 (positive used columns) the branch
        and bound run again when ``width`` is below the enclosure's; otherwise [lower, upper] as it is.

        >>> lo, hi = eta_chi2([["1/2", "1/2"], ["1/4", "3/4"]]).enclosure("1/10^30")
        >>> hi - lo <= fmpq(1, 10**30)
        True
        """
        if self.value is None:
            if width is not None and self.kernel is not None and self.boxes:
                w = to_qq(width, "width")
                if 0 < w < self.upper - self.lower:
                    r = eta_chi2(self.kernel, w)
                    return r.lower, r.upper
            return self.lower, self.upper
        v = self.value
        if width is not None:
            w = to_qq(width, "width")
            if w <= 0:
                raise InputError(f"eta_chi2 enclosure: width must be > 0, got {w}")
            while v.hi - v.lo > w:
                v.refine(8)
        return v.lo, v.hi

    def __str__(self) -> str:
        if self.value is not None:
            return str(self.as_sympy())
        return f"[{self.lower}, {self.upper}]"


def _rational_kernel(K: KernelInput, what: str) -> Kernel:
    kernel = as_kernel(K)
    if kernel.symbolic:
        raise InputError(f"{what}: K must have rational entries (domain QQ), got a {kernel.domain} kernel")
    return kernel


def eta_chi2_prior(P: Any, K: KernelInput) -> RealAlgebraic:
    """η_χ²(P, K): the second largest eigenvalue of K D_{PK}⁻¹ Kᵀ D_P, exactly (see the module docstring).

    >>> str(eta_chi2_prior(["1/2", "1/2"], [["3/4", "1/4"], ["1/4", "3/4"]]))
    '1/4'
    """
    K = _rational_kernel(K, "eta_chi2_prior")
    P = as_distribution(P, "P")
    if len(P.probs) != K.N:
        raise InputError(f"eta_chi2_prior: P has {len(P.probs)} entries, K has N = {K.N} inputs")
    if K.N * K.M > MAX_CHARPOLY_SIZE ** 2:
        raise InputError(f"eta_chi2_prior: K has {K.N}x{K.M} entries, above the limit "
                         f"{MAX_CHARPOLY_SIZE}^2 (raise exactdp.measures.chi2_contraction.MAX_CHARPOLY_SIZE)")
    xs = [x for x, p in enumerate(P.probs) if p != 0]
    out = [sum((P.probs[x] * K.rows[x][y] for x in xs), fmpq(0)) for y in range(K.M)]
    ys = [y for y in range(K.M) if out[y] != 0]
    if len(xs) == 1:
        return RealAlgebraic(fmpq_poly([0, 1]).numer(), fmpq(0), fmpq(0))
    A = fmpq_mat(len(xs), len(xs), [
        sum((K.rows[x][y] * K.rows[x2][y] / out[y] for y in ys), fmpq(0)) * P.probs[x2]
        for x in xs for x2 in xs])
    chi = A.charpoly()
    q, r = divmod(chi, fmpq_poly([-1, 1]))
    if not r.is_zero():  # pragma: no cover - 1 is always an eigenvalue (the constant function)
        raise AssertionError("eta_chi2_prior: 1 is not an eigenvalue")
    roots = real_roots(q, fmpq(-1), fmpq(2), lo_open=True, hi_open=True)
    return roots[-1]


def _ratio_classes(p: Any, q: Any) -> list[tuple[fmpq, fmpq]]:
    """(Σ p_y, Σ q_y) over outputs with p_y q_y > 0, merged by likelihood ratio p_y / q_y."""
    classes: dict[fmpq, list[fmpq]] = {}
    for a, b in zip(p, q):
        if a != 0 and b != 0:
            c = classes.setdefault(a / b, [fmpq(0), fmpq(0)])
            c[0] += a
            c[1] += b
    return [(a, b) for a, b in classes.values()]


def _g(classes: Any, alpha: fmpq) -> fmpq:
    """η_χ²((α, 1 − α), K) = 1 − Σ a b / (α a + (1 − α) b) over the ratio classes."""
    return 1 - sum((a * b / (alpha * a + (1 - alpha) * b) for a, b in classes), fmpq(0))


def _g_prime(classes: Any, alpha: fmpq) -> fmpq:
    return sum((a * b * (a - b) / (alpha * a + (1 - alpha) * b) ** 2 for a, b in classes), fmpq(0))


def _polys(classes: Any) -> Any:
    """Numerator of g'(α) and (U, W) with Σ ab/m = U/W, W = Π m, as polynomials in α."""
    ms = [fmpq_poly([b, a - b]) for a, b in classes]
    W = fmpq_poly([1])
    for m in ms:
        W *= m
    U, dnum = fmpq_poly([0]), fmpq_poly([0])
    for i, (a, b) in enumerate(classes):
        rest, rest2 = fmpq_poly([a * b]), fmpq_poly([a * b * (a - b)])
        for j, m in enumerate(ms):
            if j != i:
                rest *= m
                rest2 *= m * m
        U += rest
        dnum += rest2
    return dnum, U, W


def _value_of(classes: Any, alpha: RealAlgebraic) -> RealAlgebraic:
    """g(α*) as a real algebraic number: resultant, factor, and isolation inside a concavity bracket."""
    if alpha.is_rational:
        return _rational(_g(classes, alpha.lo))
    _, U, W = _polys(classes)
    ctx = fmpq_mpoly_ctx.get(("a", "v"))
    a, v = ctx.gens()

    def lift(p: fmpq_poly) -> Any:
        return sum((c * a**k for k, c in enumerate(p.coeffs())), ctx.from_dict({}))

    f = sum((int(c) * a**k for k, c in enumerate(alpha.poly.coeffs())), ctx.from_dict({}))
    res = f.resultant(v * lift(W) - lift(W - U), "a")  # a polynomial in v alone
    _, facs = res.factor()
    cands = [fmpq_poly([_coeff_v(fac, k) for k in range(fac.degrees()[1] + 1)])
             for fac, _ in facs if fac.degrees()[1] > 0]
    while True:
        # g concave, maximal at α* ∈ (lo, hi]: max(g(lo), g(hi)) ≤ g(α*) ≤ both tangent lines' values
        lo_v = max(_g(classes, alpha.lo), _g(classes, alpha.hi))
        w = alpha.hi - alpha.lo
        hi_v = min(_g(classes, alpha.lo) + _g_prime(classes, alpha.lo) * w,
                   _g(classes, alpha.hi) - _g_prime(classes, alpha.hi) * w)
        hits = []
        for c in cands:
            for r in real_roots(c, lo_v, hi_v, lo_open=False, hi_open=False):
                hits.append(r)
        if len(hits) == 1:
            r = hits[0]
            if not r.is_rational and count_roots(sturm_sequence(fmpq_poly(list(r.poly.coeffs()))),
                                                 r.lo, r.hi) != 1:  # pragma: no cover
                raise AssertionError("eta_chi2: lost the value's root")
            return r
        alpha.refine(16)


def _coeff_v(poly: Any, k: int) -> fmpq:
    """The coefficient of v^k in a polynomial of the context (a, v) that does not involve a."""
    return fmpq(poly.to_dict().get((0, k), 0))


def _binary(p: Any, q: Any) -> tuple[RealAlgebraic, RealAlgebraic]:
    """(sup_α η_χ²((α, 1 − α), K), α*) for the two rows p, q (see the module docstring).

    g is finite on all of [0, 1] (a class has both masses positive).  A maximum at an end α ∈ {0, 1}
    is a supremum approached by priors near the point mass (a point mass itself has η_χ² = 0); a
    constant g (one ratio class or none) reports α* = 1/2.
    """
    classes = _ratio_classes(p, q)
    d0, d1 = _g_prime(classes, fmpq(0)), _g_prime(classes, fmpq(1))
    if d0 == 0 and d1 == 0:
        return _rational(_g(classes, fmpq(1, 2))), _rational(fmpq(1, 2))
    if d0 <= 0:
        return _rational(_g(classes, fmpq(0))), _rational(fmpq(0))
    if d1 >= 0:
        return _rational(_g(classes, fmpq(1))), _rational(fmpq(1))
    dnum, _, _ = _polys(classes)
    roots = real_roots(dnum, fmpq(0), fmpq(1))
    if len(roots) != 1:  # pragma: no cover - g' is strictly decreasing on (0, 1)
        raise AssertionError(f"eta_chi2: {len(roots)} critical points in (0, 1)")
    alpha = roots[0]
    return _value_of(classes, alpha), alpha


def _rational(x: fmpq) -> RealAlgebraic:
    return RealAlgebraic(fmpq_poly([-x, 1]).numer(), x, x)


def compare(r: RealAlgebraic, s: RealAlgebraic) -> int:
    """sign(r − s) for two real algebraic numbers, exactly."""
    if r.is_rational and s.is_rational:
        return (r.lo > s.lo) - (r.lo < s.lo)
    if r.is_rational:
        return -s.compare_rational(r.lo)
    if s.is_rational:
        return r.compare_rational(s.lo)
    if r.poly == s.poly:  # one irreducible polynomial: equal iff the union of the intervals has one root
        seq = sturm_sequence(fmpq_poly(list(r.poly.coeffs())))
        if count_roots(seq, min(r.lo, s.lo), max(r.hi, s.hi)) == 1:
            return 0
    return -1 if r.less_than(s) else 1


def eta_chi2(K: KernelInput, width: Any = None, max_boxes: int | None = None) -> ChiSquareContraction:
    """η_χ²(K) = sup_P η_χ²(P, K) = η_KL(K): exact for two inputs, a certified enclosure for more.

    For N = 3, 4 inputs with positive used columns the enclosure has width ``width`` (default 10⁻⁶) by the
    branch and bound of :mod:`exactdp.measures.chi2_branch_bound` (ResourceLimitError beyond ``max_boxes``
    boxes, default ``chi2_branch_bound.MAX_BOXES``); otherwise [best two-input prior, η_TV(K)].

    >>> str(eta_chi2([["3/4", "1/4"], ["1/4", "3/4"]]))      # BSC(1/4): (1 - 2p)^2
    '1/4'
    >>> str(eta_chi2([["2/3", "0", "1/3"], ["0", "2/3", "1/3"]]))   # BEC(1/3): 1 - 1/3
    '2/3'
    """
    K = _rational_kernel(K, "eta_chi2")
    if K.N == 1:
        return ChiSquareContraction(_rational(fmpq(0)), fmpq(0), fmpq(0), None, None)
    v, a = _binary(K.rows[0], K.rows[1])
    pair = (0, 1)
    for x in range(K.N):
        for x2 in range(x + 1, K.N):
            if (x, x2) != (0, 1):
                v2, a2 = _binary(K.rows[x], K.rows[x2])
                if compare(v2, v) > 0:
                    v, a, pair = v2, a2, (x, x2)
    if K.N == 2:
        return ChiSquareContraction(v, v.lo, v.hi, a, pair)
    upper = eta_tv(K)
    if v.is_rational and v.lo == upper:
        return ChiSquareContraction(v, upper, upper, a, pair)
    if width is not None:
        w = to_qq(width, "width")
        if w <= 0:
            raise InputError(f"eta_chi2: width must be > 0, got {w}")
    else:
        w = fmpq(1, 10**6)
    try:
        chi2_branch_bound.check_kernel(K, "eta_chi2")
    except InputError:
        return ChiSquareContraction(None, v.lo, upper, a, pair)
    while v.hi - v.lo > w / 64:
        v.refine(8)
    if upper - v.lo <= w:
        return ChiSquareContraction(None, v.lo, upper, a, pair)

    def exact(P: Any) -> RealAlgebraic:
        return eta_chi2_prior([str(x) for x in P], K)

    r = chi2_branch_bound.enclose(K, exact, v.lo, w, max_boxes)
    assert r.upper is not None
    return ChiSquareContraction(None, r.lower, min(r.upper, upper), a, pair, r.witness, r.boxes, K)


def eta_kl(K: KernelInput) -> ChiSquareContraction:
    """η_KL(K), computed as η_χ²(K): the input-free coefficients of every non-linear operator-convex f are
    equal (Choi–Ruskai–Seneta; Raginsky; Makur–Zheng: docs/references.md), so the value is exact modulo
    that theorem.  See :func:`eta_chi2`."""
    return eta_chi2(K)


def eta_hellinger2(K: KernelInput) -> ChiSquareContraction:
    """η_{H²}(K), computed as η_χ²(K) (f(t) = (1 − √t)² is operator convex; the theorem cited by
    :func:`eta_kl`)."""
    return eta_chi2(K)
