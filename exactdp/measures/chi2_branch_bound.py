r"""η_χ²(K) = sup_P η_χ²(P, K) for three and four inputs: a certified branch and bound over the priors.

**Homogeneous priors.**  η_χ²(P, K) (module :mod:`exactdp.measures.chi2_contraction`) is unchanged when P is
multiplied by s > 0, so it is a function of the ray of P.  Every ray of the simplex meets one of the N faces
{p_j = 1, 0 ≤ p_a ≤ 1 (a ≠ j)} of the unit cube (the face of its largest coordinate), so the supremum over the
simplex is the maximum over j of the supremum over that face.  On it we write p_a = w_a² with w ∈ [0, 1]^{N−1}:
a box of w is a box of priors, and no clipping to the simplex or normalisation is needed.

**Positive kernels.**  If every column of K that is not identically zero is positive, every output mass
s_y = (PK)_y ≥ K(y|j) > 0 on the face j: all quantities below are polynomials or rational functions without
poles on the closed box, and the supremum is a maximum.  (A used column with a zero entry allows a supremum
that is a discontinuous limit at a point mass — the Z-channel of the module above; :func:`check_kernel`
refuses such kernels and :func:`~exactdp.measures.chi2_contraction.eta_chi2` keeps its loose enclosure.)

**The test "η_χ²(P, K) < u" as a positive-definiteness test.**  By the variational form (maximal correlation,
docs/references.md), η_χ²(P, K) = sup_g Var_P(Kg) / Var_{PK}(g) over non-constant g on the outputs
(E[g(Y) | X = x] = (Kg)_x), and also = sup_f Var(E[f(X) | Y]) / Var_P(f) over non-constant f on the inputs.
Both ratios are unchanged by adding a constant, so g may be fixed to 0 at one output (f at the input j); the
denominators are then positive definite (P and PK are positive on the used coordinates away from the box's
boundary, and see below for w_a = 0).  Hence η_χ²(P, K) < u if and only if the matrix

* (outputs, size M − 1)  H_out = u (|p| D_s − s sᵀ) − (|p| Kᵀ D_p K − s sᵀ), the rows and columns of the
  outputs other than the last (|p| times u Var_{PK} − Var_P(K·), a polynomial in w), or
* (inputs, size N − 1)  H_in[a, b] = u δ_ab − w_a w_b (u / |p| + Σ_y d_ay d_by / s_y), a, b ≠ j, with
  d_ay = K(y|a) − s_y / |p| (the form u Var_P(f) − Var(E[f | Y]) divided by √(p_a p_b), which keeps it
  well-defined where w_a = 0: there the row a is u e_a, the coefficient of the prior without input a)

is positive definite, which by Sylvester's criterion holds if and only if all its leading principal minors
are positive.  The search uses the smaller of the two matrices.

**Lower bounds of a minor T on a box** (arb balls throughout, never floats).  Two; a minor is positive on the
box if either is: the natural interval extension (every operation on balls that contain the box), and the
second-order Taylor form T(w) ∈ T(c) + ∇T(c)·δ + ½ δᵀ ∇²T(box) δ with c the box's centre, δ ∈ [−r, r] its
half-widths and the Hessian ball from second-order forward differentiation on balls (:class:`_Jet`).  A box on
which every minor is positive holds no prior with η_χ²(P, K) ≥ u.

**The search.**  The lower end L is an exact value: the best prior on two inputs (the caller's exact two-input
maximum) or the exact η_χ²(P, K) (:func:`~exactdp.measures.chi2_contraction.eta_chi2_prior`, a real algebraic
number, rounded down) at a rational prior that a floating-point search (numpy's SVD: it only chooses where to
look) finds promising.  Boxes are examined best first and bisected along their longest side until each passes
the test at u = L + width (L only grows, so a box that passed earlier stays below the final u); the enclosure is
[L, L + width].  With a fixed u (:func:`below`) the same search decides η_χ²(K) < u (every box passes) or
η_χ²(K) > u (an exact prior exceeds u: the witness), or stops undecided at the box budget.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from flint import arb, ctx, fmpq

from exactdp.algebra.algebraic import RealAlgebraic
from exactdp.errors import InputError
from exactdp.kernels import Kernel
from exactdp.limits import ResourceLimitError, require
from exactdp.numbers.truth import Truth

#: boxes one search may examine before it stops (``below``: UNKNOWN) or refuses (``enclose``)
MAX_BOXES = 40_000
#: the inputs this search handles (the boxes have N − 1 coordinates)
SIZES = (3, 4)
#: the exact η_χ²(P, K) at a normalised rational prior
PriorValue = Callable[[Sequence[fmpq]], RealAlgebraic]

class _Jet:
    """A ball value with the balls of its gradient and Hessian: second-order forward-mode differentiation on
    arb balls (every operation on balls containing the exact values, so the results contain them too)."""

    __slots__ = ("v", "g", "h")

    def __init__(self, v: arb, g: list[arb], h: list[list[arb]]) -> None:
        self.v, self.g, self.h = v, g, h

    def __add__(self, o: Any) -> _Jet:
        if isinstance(o, _Jet):
            return _Jet(self.v + o.v, [a + b for a, b in zip(self.g, o.g)],
                        [[a + b for a, b in zip(r, s)] for r, s in zip(self.h, o.h)])
        return _Jet(self.v + o, self.g, self.h)

    __radd__ = __add__

    def __neg__(self) -> _Jet:
        return _Jet(-self.v, [-a for a in self.g], [[-a for a in r] for r in self.h])

    def __sub__(self, o: Any) -> _Jet:
        return self.__add__(-o)

    def __rsub__(self, o: Any) -> _Jet:
        return (-self).__add__(o)

    def __mul__(self, o: Any) -> _Jet:
        if isinstance(o, _Jet):
            a, b, ga, gb = self.v, o.v, self.g, o.g
            d = len(ga)
            return _Jet(a * b, [a * y + b * x for x, y in zip(ga, gb)],
                        [[a * o.h[i][k] + b * self.h[i][k] + ga[i] * gb[k] + gb[i] * ga[k] for k in range(d)]
                         for i in range(d)])
        return _Jet(self.v * o, [a * o for a in self.g], [[a * o for a in r] for r in self.h])

    __rmul__ = __mul__

    def reciprocal(self) -> _Jet:
        inv = 1 / self.v
        inv2 = inv * inv
        d = len(self.g)
        return _Jet(inv, [-a * inv2 for a in self.g],
                    [[(2 * inv * self.g[i] * self.g[k] - self.h[i][k]) * inv2 for k in range(d)] for i in range(d)])

    def __truediv__(self, o: Any) -> _Jet:
        if isinstance(o, _Jet):
            return self * o.reciprocal()
        return self * (1 / arb(o) if not isinstance(o, arb) else 1 / o)

    def __rtruediv__(self, o: Any) -> _Jet:
        return self.reciprocal().__mul__(o)


def _det(m: list[list[Any]]) -> Any:
    """Determinant of a k × k matrix (k ≤ 4) by cofactor expansion along the first row."""
    k = len(m)
    if k == 1:
        return m[0][0]
    if k == 2:
        return m[0][0] * m[1][1] - m[0][1] * m[1][0]
    total: Any = 0
    for c in range(k):
        minor = [row[:c] + row[c + 1:] for row in m[1:]]
        term = m[0][c] * _det(minor)
        total = total + term if c % 2 == 0 else total - term
    return total


def _prior_sums(w: Sequence[Any], j: int,
                cols: Sequence[Sequence[arb]]) -> tuple[int, Any, list[Any], Any, list[Any]]:
    """(N, the zero of w's type, the prior p_j = 1, p_a = w_a² (a ≠ j), its mass |p|, the output masses
    s_y = Σ_x p_x K(y|x)): the quantities both minor forms are built from."""
    N = len(w) + 1
    zero = arb(0) * w[0]
    sq = [v * v for v in w]
    p = list(sq[:j]) + [zero + 1] + list(sq[j:])
    total = sum(p, zero)
    return N, zero, p, total, [sum((p[x] * col[x] for x in range(N)), zero) for col in cols]


def minors(w: Sequence[Any], j: int, cols: Sequence[Sequence[arb]], u: arb) -> list[Any]:
    """The leading principal minors of H(w) (module docstring) for the prior p_j = 1, p_a = w_a² (a ≠ j);
    ``w`` holds balls or duals, ``cols[y][x]`` = K(y|x) over the used outputs."""
    N, zero, p, total, s = _prior_sums(w, j, cols)
    others = [a for a in range(N) if a != j]
    dev = [[col[a] - s[y] / total for a in others] for y, col in enumerate(cols)]
    inv = [1 / v for v in s]
    d = N - 1
    H = [[zero] * d for _ in range(d)]
    for a in range(d):
        for b in range(a, d):
            cov = sum((dev[y][a] * dev[y][b] * inv[y] for y in range(len(cols))), zero)
            h = (u if a == b else zero) - w[a] * w[b] * (u / total + cov)
            H[a][b] = H[b][a] = h
    return [_det([row[:k] for row in H[:k]]) for k in range(1, d + 1)]


def minors_out(w: Sequence[Any], j: int, cols: Sequence[Sequence[arb]], u: arb) -> list[Any]:
    """Leading principal minors of u (|p| D_s − s sᵀ) − (|p| Kᵀ D_p K − s sᵀ) on outputs y ≠ the last."""
    N, zero, p, total, s = _prior_sums(w, j, cols)
    d = len(cols) - 1
    H = [[zero] * d for _ in range(d)]
    for a in range(d):
        for b in range(a, d):
            kk = sum((p[x] * (cols[a][x] * cols[b][x]) for x in range(N)), zero)
            ss = s[a] * s[b]
            h = (u - 1) * (zero - ss) + total * ((u * s[a] if a == b else zero) - kk)
            H[a][b] = H[b][a] = h
    return [_det([row[:k] for row in H[:k]]) for k in range(1, d + 1)]


def _prior(j: int, z: Sequence[Any], one: Any) -> list[Any]:
    return list(z[:j]) + [one] + list(z[j:])


def _variables(centre: Sequence[fmpq], rad: Sequence[fmpq] | None) -> list[_Jet]:
    d = len(centre)
    zero = [[arb(0)] * d for _ in range(d)]
    return [_Jet(arb(m) if rad is None else arb(m, rad[k]), [arb(1) if i == k else arb(0) for i in range(d)], zero)
            for k, m in enumerate(centre)]


def box_below(cols: Sequence[Sequence[arb]], j: int, lo: Sequence[fmpq], hi: Sequence[fmpq], u: arb) -> bool:
    """True only if η_χ²(P, K) < u for every prior p_j = 1, p_a = w_a², lo ≤ w ≤ hi (module docstring)."""
    mid = [(a + b) / 2 for a, b in zip(lo, hi)]
    rad = [(b - a) / 2 for a, b in zip(lo, hi)]
    d = len(mid)
    f = minors_out if len(cols) <= len(lo) + 1 else minors  # the smaller matrix: M − 1 or N − 1 rows
    box = f(_variables(mid, rad), j, cols, u)
    centre = f(_variables(mid, None), j, cols, u)
    dev = [arb(0, r) for r in rad]
    sq = [arb(r * r / 2, r * r / 2) for r in rad]  # (z_i − c_i)² ∈ [0, r_i²]
    for t_box, t_c in zip(box, centre):
        if t_box.v > 0:
            continue
        # Taylor: T(z) = T(c) + ∇T(c)·δ + ½ δᵀ ∇²T(ξ) δ with ξ in the box
        quad = sum((t_box.h[i][i] * sq[i] for i in range(d)), arb(0))
        quad += sum((2 * t_box.h[i][k] * dev[i] * dev[k] for i in range(d) for k in range(i + 1, d)), arb(0))
        t2 = t_c.v + sum((g * e for g, e in zip(t_c.g, dev)), arb(0)) + quad / 2
        if not t2 > 0:
            return False
    return True


@dataclass(frozen=True)
class BranchAndBound:
    """The outcome of a search: ``lower`` ≤ η_χ²(K) ≤ ``upper`` (exact rationals; ``upper`` is None when the
    search stopped undecided), ``witness`` the rational prior whose exact η_χ²(P, K) gave ``lower`` (None: the
    best two-input prior), ``boxes`` the boxes examined, ``truth`` (:func:`below` only) the decision."""

    lower: fmpq
    upper: fmpq | None
    witness: tuple[fmpq, ...] | None
    boxes: int
    truth: Truth = Truth.UNKNOWN


def check_kernel(K: Kernel, what: str) -> list[int]:
    """The used outputs of K (columns not identically zero); refuses other sizes and zero entries in them."""
    if K.N not in SIZES:
        raise InputError(f"{what}: the branch and bound handles N in {SIZES} inputs, got N = {K.N}")
    used = [y for y in range(K.M) if any(K.rows[x][y] != 0 for x in range(K.N))]
    for y in used:
        if any(K.rows[x][y] == 0 for x in range(K.N)):
            raise InputError(f"{what}: needs every used column of K positive (output {y} has a zero entry and "
                             "a nonzero one; the supremum can then be a discontinuous limit at a point mass)")
    return used


def _float_eta(rows: Any, p: Any) -> float:
    import numpy as np  # deferred: start-up

    s = p @ rows
    B = np.sqrt(p)[:, None] * rows / np.sqrt(s)[None, :]
    sv = np.linalg.svd(B, compute_uv=False)
    return float(sv[1] ** 2)


class _Search:
    def __init__(self, K: Kernel, exact: PriorValue, start: fmpq, width: fmpq | None, bound: fmpq | None,
                 max_boxes: int | None) -> None:
        import numpy as np  # deferred: start-up

        used = check_kernel(K, "eta_chi2 branch and bound")
        self.K, self.N, self.exact = K, K.N, exact
        w = width if width is not None else fmpq(1, 10**6)
        bits = max(128, int(w.q).bit_length() - int(w.p).bit_length() + 64)
        self.prec = bits
        self.cols = [[arb(K.rows[x][y]) for x in range(K.N)] for y in used]
        self.rows = np.array([[float(K.rows[x][y]) for y in used] for x in range(K.N)])
        self.lower: fmpq = start
        self.witness: tuple[fmpq, ...] | None = None
        self.width, self.bound = width, bound
        self.boxes = 0
        self.max_boxes = MAX_BOXES if max_boxes is None else max_boxes

    def target(self) -> fmpq:
        if self.bound is not None:
            return self.bound
        assert self.width is not None
        return self.lower + self.width

    def certify(self, prior: Sequence[fmpq]) -> None:
        """Exact η_χ²(P, K) at a rational prior; raises ``lower`` (and records the witness) if it is larger."""
        total = sum(prior, fmpq(0))
        P = [x / total for x in prior]
        v = self.exact(P)
        step = (self.width or fmpq(1, 10**12)) / 64
        while v.hi - v.lo > step:
            v.refine(8)
        if v.lo > self.lower:
            self.lower, self.witness = v.lo, tuple(P)

    def steer(self) -> None:
        """A floating-point compass search from a grid's best points; its best rational prior is certified."""
        import numpy as np  # deferred: start-up

        N = self.N
        grid = 8
        starts = []
        for c in itertools.product(range(grid + 1), repeat=N):
            if sum(c) == grid and all(v > 0 for v in c):
                p = np.array(c, dtype=float) / grid
                starts.append((_float_eta(self.rows, p), c))
        starts.sort(reverse=True)
        for _, c in starts[:3]:
            p = np.array(c, dtype=float) / grid
            f = _float_eta(self.rows, p)
            step = 1.0 / grid
            while step > 1e-9:
                moved = False
                for i in range(N):
                    for sgn in (1, -1):
                        q = p.copy()
                        q[i] = max(q[i] + sgn * step, 0.0)
                        q /= q.sum()
                        fq = _float_eta(self.rows, q)
                        if fq > f:
                            p, f, moved = q, fq, True
                if not moved:
                    step /= 2
            self.certify([fmpq(round(x * 2**40), 2**40) for x in p])

    def run(self, mode_below: bool) -> BranchAndBound:
        import numpy as np  # deferred: start-up

        N, d = self.N, self.N - 1
        ops = N ** 3 * len(self.cols) * (d + 1) * 8
        counter = itertools.count()
        heap: list[tuple[float, int, int, list[fmpq], list[fmpq]]] = []
        for j in range(N):
            heapq.heappush(heap, (0.0, next(counter), j, [fmpq(0)] * d, [fmpq(1)] * d))
        old = ctx.prec
        ctx.prec = self.prec
        try:
            while heap:
                if mode_below and self.bound is not None and self.lower > self.bound:
                    return BranchAndBound(self.lower, None, self.witness, self.boxes, Truth.FALSE)
                _, _, j, lo, hi = heapq.heappop(heap)
                self.boxes += 1
                if self.boxes > self.max_boxes:
                    if mode_below:
                        return BranchAndBound(self.lower, None, self.witness, self.boxes, Truth.UNKNOWN)
                    raise ResourceLimitError(
                        f"eta_chi2 branch and bound: the width {self.width} needs more than {self.max_boxes} boxes "
                        "(the limit MAX_BOXES; raise exactdp.measures.chi2_branch_bound.MAX_BOXES or ask for a "
                        "wider enclosure)")
                require("max_work", self.boxes * ops, "eta_chi2 branch and bound")
                if box_below(self.cols, j, lo, hi, arb(self.target())):
                    continue
                k = max(range(d), key=lambda i: hi[i] - lo[i])
                m = (lo[k] + hi[k]) / 2
                for a, b in ((lo[k], m), (m, hi[k])):
                    clo, chi = list(lo), list(hi)
                    clo[k], chi[k] = a, b
                    centre = [(x + y) / 2 for x, y in zip(clo, chi)]
                    prior = _prior(j, [c * c for c in centre], fmpq(1))
                    f = _float_eta(self.rows, np.array([float(x) for x in prior]))
                    if f > float(self.target()) - float(self.width or 0) / 2:
                        self.certify(prior)
                    heapq.heappush(heap, (-f, next(counter), j, clo, chi))
        finally:
            ctx.prec = old
        t = self.target()
        return BranchAndBound(self.lower, t, self.witness, self.boxes, Truth.TRUE)


def enclose(K: Kernel, exact: PriorValue, start: fmpq, width: fmpq, max_boxes: int | None = None) -> BranchAndBound:
    """[lower, lower + width] ∋ η_χ²(K) for N = 3, 4 with positive used columns; ``exact(P)`` the exact
    η_χ²(P, K) at a rational prior (:func:`~exactdp.measures.chi2_contraction.eta_chi2_prior`), ``start`` an
    exact lower bound (the best two-input prior).  Refuses (ResourceLimitError) beyond ``max_boxes`` (default :data:`MAX_BOXES`)
    boxes."""
    if width <= 0:
        raise InputError(f"eta_chi2: width must be > 0, got {width}")
    s = _Search(K, exact, start, width, None, max_boxes)
    s.steer()
    return s.run(False)


def below(K: Kernel, exact: PriorValue, start: fmpq, bound: fmpq, max_boxes: int | None = None) -> BranchAndBound:
    """Decide η_χ²(K) < ``bound``: TRUE when every box passes the test at u = bound, FALSE with an exact prior
    whose η_χ²(P, K) exceeds it (``witness``, or the two-input ``start``), UNKNOWN (undecided) beyond the budget."""
    s = _Search(K, exact, start, None, bound, max_boxes)
    if start > bound:
        return BranchAndBound(start, None, None, 0, Truth.FALSE)
    s.steer()
    return s.run(True)

