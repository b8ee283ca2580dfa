r"""The mechanism catalogue: exact kernels from the literature and from the two papers.

Privacy is parametrized by t = e^ε (docs/design.md principle 5), so every kernel here is rational when t
and the other parameters are.  Each constructor validates its parameters and names them in errors.
"""

from __future__ import annotations

import itertools
import math
from typing import Callable

import sympy
from flint import fmpq

from exactdp.errors import ParameterError
from exactdp.kernels import Kernel
from exactdp.limits import ESTIMATE_CAP, fmt_estimate, require
from exactdp.numbers.qq import ONE, ZERO, to_qq
from exactdp.numbers.sr import to_exact
from exactdp.numbers.reader import as_expr
from exactdp.parameters import check_count, check_delta, t_value


def _t(t, eps):
    """t = e^ε ≥ 1 from exactly one of ``t`` / ``eps`` (:func:`exactdp.parameters.t_value`): an ``fmpq``, or a
    sympy expression (an irrational constant, or a parametric kernel's parameter)."""
    return t_value(t, eps)


def _rational_t(t, eps) -> fmpq:
    """t = e^ε ≥ 1 as an exact rational (the constructions whose feasibility is decided on t)."""
    return to_qq(t_value(t, eps), "eps" if eps is not None else "t")


def _given(value, name: str):
    if value is None:
        raise ParameterError(f"{name}: missing (a required parameter)")
    return value


def _symbolic_param(value, name: str):
    """``(x, symbolic)``: an fmpq, or a sympy expression with free symbols (parametric kernels)."""
    x, symbolic = to_exact(value, name)
    return x, symbolic and bool(getattr(x, "free_symbols", None))


def _declare(K: Kernel, *conditions) -> Kernel:
    """Attach the constructor's parameter domain to a parametric kernel (as exactdp.symbolic.declare_region)."""
    if K.symbolic:  # the region is part of the kernel's value (Kernel.with_region)
        return K.with_region(K.region + tuple(c for c in conditions if c is not sympy.true))
    return K


#: cost units (``max_work``) of one Python-level exact operation (an fmpq product) while building entries
_PY_OP = 100
_CAP = ESTIMATE_CAP  # exactdp.limits


def _require_kernel(N: int, M: int, name: str, symbolic: bool = False, ops_per_entry: int = 1) -> None:
    """Refuse before any row is built: N x M entries against ``max_entries`` (rational) or
    ``max_symbolic_entries`` (parametric: sympy work on every entry and quadratic work downstream), and
    the operations building them against ``max_work``."""
    entries = min(N * M, _CAP)
    what = f"{name}: a {N}x{fmt_estimate(M)} kernel"
    if symbolic:
        require("max_symbolic_entries", entries, f"{what} with symbolic entries")
    require("max_entries", entries, what)
    require("max_work", min(entries * ops_per_entry * _PY_OP, _CAP), what)


def _is_sym(*values) -> bool:
    return any(isinstance(v, sympy.Basic) for v in values)


def randomized_response(k: int, t=None, *, eps=None) -> Kernel:
    r"""k-ary randomized response: K[x][y] = t/(t+k−1) if y = x, else 1/(t+k−1)  (Warner; Kairouz et al.).

    ε-LDP with e^ε = t; η_TV = (t−1)/(t+k−1).

    >>> randomized_response(2, 3).rows
    ((3/4, 1/4), (1/4, 3/4))
    """
    k = check_count(k, "k", 2)
    g = _t(t, eps)
    _require_kernel(k, k, f"randomized_response(k={k})", _is_sym(g))
    hi, lo = g / (g + k - 1), 1 / (g + k - 1)
    if isinstance(g, sympy.Basic):
        hi, lo = sympy.simplify(hi), sympy.simplify(lo)
    K = Kernel([[hi if y == x else lo for y in range(k)] for x in range(k)], name=f"RR_{k}")
    return _declare(K, *([g >= 1] if isinstance(g, sympy.Basic) else []))


def binary_randomized_response(t=None, *, eps=None) -> Kernel:
    """Warner's binary randomized response, rows (t, 1)/(t+1) and (1, t)/(t+1)."""
    return randomized_response(2, t, eps=eps)


def unary_encoding(k: int, p, q, *, name: str = "UE") -> Kernel:
    r"""Unary encoding: input x ↦ bit vector b ∈ {0,1}^k with independent bits,
    P(b_j = 1) = p if j = x else q.  Outputs are ordered as ``itertools.product((0, 1), repeat=k)``.

    Its LDP ratio is p(1−q)/((1−p)q) for p > q.
    """
    k = check_count(k, "k", 2)
    (p, sp), (q, sq) = _symbolic_param(p, "p"), _symbolic_param(q, "q")
    for nm, v, sym in (("p", p, sp), ("q", q, sq)):
        if not sym and (v < 0 or v > 1):
            raise ParameterError(f"{nm}: must lie in [0, 1], got {v}")
    _require_kernel(k, 1 << k if k < 1000 else _CAP, f"{name}(k={k})", sp or sq, ops_per_entry=k)
    outputs = list(itertools.product((0, 1), repeat=k))
    rows = []
    for x in range(k):
        row = []
        for b in outputs:
            prob = ONE
            for j, bit in enumerate(b):
                pj = p if j == x else q
                prob *= pj if bit else 1 - pj
            row.append(sympy.expand(prob) if isinstance(prob, sympy.Basic) else prob)
        rows.append(row)
    return _declare(Kernel(rows, name=name), *[cond for v, sym in ((p, sp), (q, sq)) if sym
                                               for cond in (v >= 0, v <= 1)])


def symmetric_unary_encoding(k: int, t=None, *, eps=None) -> Kernel:
    r"""Symmetric unary encoding (basic RAPPOR): p = s/(s+1), q = 1/(s+1) with s = √t; ε-LDP with t = e^ε.

    With 1 − p = q the probability of a bit vector b given x is s^{a}/(s+1)^k, a the number of positions
    where b agrees with the one-hot vector e_x.  η_TV = p − q = (s−1)/(s+1) and the LDP ratio is s² = t.
    The entries are rational when t is the square of a rational, exact irrationals (√t) otherwise — the
    measures then work in the certified domain (e^ε = 3: s = √3).  A symbolic t is refused (√t is not a
    rational function): use :func:`unary_encoding` with p = s/(s+1), q = 1/(s+1) in a symbol s.

    >>> symmetric_unary_encoding(2, 4).rows[0]
    (2/9, 1/9, 4/9, 2/9)
    """
    k = check_count(k, "k", 2)
    g = _t(t, eps)
    if isinstance(g, sympy.Basic) and g.free_symbols:
        raise ParameterError(f"t: symmetric unary encoding needs a number (sqrt(t) enters the entries), "
                             f"got {g}; use unary_encoding(k, s/(s+1), 1/(s+1)) with a symbol s")
    r = sympy.sqrt(as_expr(g) if isinstance(g, sympy.Basic) else sympy.Rational(int(g.p), int(g.q)))
    s = to_qq(r) if r.is_Rational else r
    _require_kernel(k, 1 << k if k < 1000 else _CAP, f"SUE(k={k})", isinstance(s, sympy.Basic), ops_per_entry=k)
    powers = [s ** a / (s + 1) ** k for a in range(k + 1)]
    if isinstance(s, sympy.Basic):
        powers = [sympy.radsimp(sympy.cancel(v)) for v in powers]
    rows = [[powers[sum(1 for j, bit in enumerate(b) if bit == (j == x))]
             for b in itertools.product((0, 1), repeat=k)] for x in range(k)]
    return Kernel(rows, name=f"SUE_{k}")


def optimized_unary_encoding(k: int, t=None, *, eps=None) -> Kernel:
    r"""Optimized unary encoding (Wang et al. 2017): p = 1/2, q = 1/(t+1); ε-LDP with t = e^ε."""
    g = _t(t, eps)
    K = unary_encoding(k, fmpq(1, 2), 1 / (g + 1), name=f"OUE_{k}")
    return _declare(K, *([g >= 1] if isinstance(g, sympy.Basic) else []))


def optimal_binary_approx_ldp(t=None, delta=0, *, eps=None) -> Kernel:
    r"""The binary (ε,δ)-LDP kernel of largest η_TV (B-4): rows (a, 1−a), (b, 1−b) with
    a = (t+δ)/(t+1), b = (1−δ)/(t+1); η_TV = (t−1+2δ)/(t+1)."""
    g = _t(t, eps)
    d, sd = _symbolic_param(delta, "delta")
    d = d if sd else check_delta(d)
    a, b = (g + d) / (g + 1), (1 - d) / (g + 1)
    if isinstance(a, sympy.Basic):
        a, b = sympy.cancel(a), sympy.cancel(b)
    K = Kernel([[a, 1 - a], [b, 1 - b]], name="OptBin(eps,delta)")
    conds = ([g >= 1] if isinstance(g, sympy.Basic) else []) + ([d >= 0, d <= 1] if sd else [])
    return _declare(K, *conds)


def truncated_geometric(k: int, t=None, *, eps=None) -> Kernel:
    r"""The truncated geometric mechanism (discrete Laplace on {0, …, k−1}, Ghosh–Roughgarden–Sundararajan):
    the two-sided geometric noise α^{|z|}(1−α)/(1+α), α = 1/t, added to x, its tails folded onto 0 and k−1:

        K[x][y] = α^{|x−y|}(1−α)/(1+α) for 0 < y < k−1,  K[x][0] = α^x/(1+α),  K[x][k−1] = α^{k−1−x}/(1+α).

    Neighbouring inputs (|x − x′| = 1) are ε-indistinguishable with e^ε = t; as an LDP mechanism on the whole
    range its ratio is t^{k−1} (output 0, inputs k−1 and 0), and η_TV = 1 − (α^{⌊k/2⌋} + α^{⌈k/2⌉})/(1+α)
    (rows 0 and k−1, mirror images of each other).

    >>> truncated_geometric(3, 2).rows[0]
    (2/3, 1/6, 1/6)
    """
    k = check_count(k, "k", 2)
    g = _t(t, eps)
    _require_kernel(k, k, f"truncated_geometric(k={k})", _is_sym(g), ops_per_entry=2)
    a = 1 / g
    inner = (1 - a) / (1 + a)
    pw = [a ** j for j in range(k)]
    rows = [[pw[x] / (1 + a) if y == 0 else pw[k - 1 - x] / (1 + a) if y == k - 1 else pw[abs(x - y)] * inner
             for y in range(k)] for x in range(k)]
    if isinstance(g, sympy.Basic):
        rows = [[sympy.cancel(v) for v in r] for r in rows]
    K = Kernel(rows, name=f"Geom_{k}")
    return _declare(K, *([g >= 1] if isinstance(g, sympy.Basic) else []))


def _staircase_tail(m: int, g, a, sensitivity: int, r: int):
    """T(m) = P(Z ≥ m), m ≥ 0, of the staircase noise of :func:`staircase` (a = its mass at 0)."""
    D = sensitivity
    if m < r:
        return a * ((r - m) + D / (g - 1))
    j, u = (m - r) // D + 1, (m - r) % D
    return a * ((D - u) + D / (g - 1)) / g ** j


def staircase(k: int, gamma, sensitivity: int = 1, r: int = 1) -> Kernel:
    r"""The discrete staircase mechanism (Geng–Viswanath) on {0, …, k−1}, its tails folded onto 0 and k−1.

    The noise Z on ℤ has P(Z = z) = a·γ^{−s(|z|)} with the staircase s(m) = 0 for m < r and
    s(m) = ⌊(m − r)/Δ⌋ + 1 for m ≥ r (Δ = ``sensitivity`` ≥ 1, 1 ≤ r ≤ Δ): r − 1 values on each side of 0 at
    the top level, then steps of Δ values, each γ times lower.  Normalised: a = (γ−1)/((2r−1)(γ−1) + 2Δ).
    The kernel outputs x + Z clipped to the range: K[x][y] = P(Z = y − x) inside, K[x][0] = T(x),
    K[x][k−1] = T(k−1−x) with the tail T(m) = P(Z ≥ m) = a((r − m) + Δ/(γ−1)) for m < r and
    a((Δ − u) + Δ/(γ−1))·γ^{−j} for m = r + (j−1)Δ + u, 0 ≤ u < Δ.

    Inputs at distance ≤ Δ are γ-indistinguishable (P(Z = z) ≤ γ P(Z = z') for |z − z'| ≤ Δ, and clipping is
    post-processing).  On the whole range the LDP ratio is max(T(0)/T(k−1), γ^{s(k−2)}) (an end output with
    inputs 0 and k−1, T decreasing; an inner output y at distance 0 and k−2 from two inputs; the second term
    only for k ≥ 3) and η_TV = 1 − T(⌊k/2⌋) − T(⌈k/2⌉) (rows 0 and k−1, mirror images; the set {y < ⌊k/2⌋}).
    Δ = r = 1 is :func:`truncated_geometric`.  γ > 1.

    >>> staircase(3, 2, 2, 1).rows[0]
    (3/5, 1/10, 3/10)
    """
    k = check_count(k, "k", 2)
    D = check_count(sensitivity, "sensitivity", 1)
    r = check_count(r, "r", 1)
    if r > D:
        raise ParameterError(f"r: must lie in [1, sensitivity] = [1, {D}], got {r}")
    g = t_value(gamma, name="gamma")
    if not isinstance(g, sympy.Basic) and g == 1:
        raise ParameterError("gamma: must be > 1 for the staircase (at gamma = 1 the noise is not normalisable)")
    _require_kernel(k, k, f"staircase(k={k})", _is_sym(g), ops_per_entry=4)
    a = (g - 1) / ((2 * r - 1) * (g - 1) + 2 * D)

    def mass(z: int):
        m = abs(z)
        return a if m < r else a / g ** ((m - r) // D + 1)

    rows = [[_staircase_tail(x, g, a, D, r) if y == 0 else _staircase_tail(k - 1 - x, g, a, D, r) if y == k - 1
             else mass(y - x) for y in range(k)] for x in range(k)]
    if isinstance(g, sympy.Basic):
        rows = [[sympy.cancel(v) for v in row] for row in rows]
    K = Kernel(rows, name=f"Staircase_{k}(sensitivity={D},r={r})")
    return _declare(K, *([g > 1] if isinstance(g, sympy.Basic) else []))


def discretized_gaussian(k: int, q) -> Kernel:
    r"""A discretised Gaussian on {0, …, k−1} with exact rational weights: K[x][y] = q^{(x−y)²} / Z_x with
    Z_x = Σ_y q^{(x−y)²} and 0 < q < 1 rational (q = e^{−1/(2σ²)} rounded to a rational is the Gaussian of
    variance σ²; the kernel is exact for the q given).  Rows are renormalised on the range (truncation, not
    folding), so row x's normaliser depends on x.

    >>> discretized_gaussian(2, "1/2").rows
    ((2/3, 1/3), (1/3, 2/3))
    """
    k = check_count(k, "k", 2)
    q = to_qq(q, "q")
    if not 0 < q < 1:
        raise ParameterError(f"q: must lie in (0, 1) (q = exp(-1/(2 sigma^2))), got {q}")
    _require_kernel(k, k, f"discretized_gaussian(k={k})", ops_per_entry=k)
    require("max_work", min(k * k * q.q.bit_length() * _PY_OP, _CAP),
            f"discretized_gaussian(k={k}): weights q^(j^2) up to j = {k - 1}")
    w = [q ** (j * j) for j in range(k)]
    rows = []
    for x in range(k):
        raw = [w[abs(x - y)] for y in range(k)]
        z = sum(raw, ZERO)
        rows.append([v / z for v in raw])
    return Kernel(rows, name=f"DGauss_{k}")


def k_subset(k: int, d: int, t=None, *, eps=None) -> Kernel:
    r"""The d-subset mechanism (Ye–Barg; Wang et al.): outputs are the d-element subsets S of {0, …, k−1}
    (in ``itertools.combinations`` order), K[x][S] = t/Z if x ∈ S else 1/Z with Z = C(k−1, d−1)t + C(k−1, d).

    ε-LDP with e^ε = t (1 ≤ d ≤ k−1), and η_TV = C(k−2, d−1)(t−1)/Z (the subsets with x but not x′).
    d = 1 is k-ary randomized response.

    >>> k_subset(3, 2, 2).rows[0]
    (2/5, 2/5, 1/5)
    """
    k = check_count(k, "k", 2)
    d = check_count(d, "d", 1)
    if d >= k:
        raise ParameterError(f"d: must lie in [1, k-1] = [1, {k - 1}], got {d}")
    g = _t(t, eps)
    outputs = math.comb(k, d)
    _require_kernel(k, min(outputs, _CAP), f"k_subset(k={k}, d={d})", _is_sym(g))
    z = math.comb(k - 1, d - 1) * g + math.comb(k - 1, d)
    hi, lo = g / z, 1 / z
    if isinstance(g, sympy.Basic):
        hi, lo = sympy.cancel(hi), sympy.cancel(lo)
    rows = [[hi if x in S else lo for S in itertools.combinations(range(k), d)] for x in range(k)]
    K = Kernel(rows, name=f"Subset_{k},{d}")
    return _declare(K, *([g >= 1] if isinstance(g, sympy.Basic) else []))


def hadamard_response(k: int, t=None, *, eps=None) -> Kernel:
    r"""Hadamard response (Acharya–Sun–Zhang): with B the least power of 2 above k and H the B×B Sylvester
    matrix (H[i][j] = (−1)^{popcount(i ∧ j)}), input x has the set C_x = {y : H[x+1][y] = +1} of B/2
    outputs and K[x][y] = 2t/(B(t+1)) for y ∈ C_x, 2/(B(t+1)) otherwise.

    ε-LDP with e^ε = t; any two sets C_x, C_x′ (x ≠ x′) share B/4 outputs, so η_TV = (t−1)/(2(t+1)).

    >>> hadamard_response(2, 3).rows[0]
    (3/8, 1/8, 3/8, 1/8)
    """
    k = check_count(k, "k", 2)
    g = _t(t, eps)
    B = 1 << k.bit_length()  # the least power of 2 above k (B ≥ k + 1)
    _require_kernel(k, B, f"hadamard_response(k={k})", _is_sym(g))
    hi, lo = 2 * g / (B * (g + 1)), 2 / (B * (g + 1))
    if isinstance(g, sympy.Basic):
        hi, lo = sympy.cancel(hi), sympy.cancel(lo)
    rows = [[hi if (bin((x + 1) & y).count("1") % 2 == 0) else lo for y in range(B)] for x in range(k)]
    K = Kernel(rows, name=f"HR_{k}")
    return _declare(K, *([g >= 1] if isinstance(g, sympy.Basic) else []))


# -- Grosse, Saeidian, Oechtering, Skoglund (arXiv 2601.09498) ------------------------------------

def _check_c(c, N: int):
    c, sym = _symbolic_param(_given(c, "c"), "c")
    if sym:
        return c
    if c <= 0 or c > fmpq(1, N):
        raise ParameterError(f"c: must lie in (0, 1/N] = (0, 1/{N}], got {c}")
    return c


def grosse_binary_mechanism(t=None, c=None, *, eps=None) -> Kernel:
    r"""[G] Example 1: the optimal binary (ε,c)-PML kernel for N = 2,

    K = 1/(t(1−2c)+1) · [[t(1−c), 1−tc], [1−tc, t(1−c)]],  valid for 1 ≤ t ≤ 1/c.
    Its PML ratio is t and η_TV = (t−1)/(t(1−2c)+1).
    """
    g = _t(t, eps)
    c = _check_c(c, 2)
    symbolic = isinstance(g, sympy.Basic) or isinstance(c, sympy.Basic)
    if not symbolic and (g < 1 or g * c > 1):
        raise ParameterError(f"t: must lie in [1, 1/c] = [1, {1 / c}], got {g}")
    z = g * (1 - 2 * c) + 1
    a, b = g * (1 - c) / z, (1 - g * c) / z
    if symbolic:
        a, b = sympy.cancel(a), sympy.cancel(b)
    K = Kernel([[a, b], [b, a]], name="Grosse-Ex1")
    return _declare(K, *(_symbolic_domain(g, c, 2, 1) if symbolic else ()))


def grosse_pml_mechanism(N: int, t=None, c=None, q: int | None = None, *, eps=None) -> Kernel:
    r"""[G] §III (end of Thm 3's proof): the binary-output mechanism attaining η_TV(ε,c).

    q inputs have K(0|x) = M and N−q have K(0|x) = m, where
    m = (1 − tcq)/(1 + t(1−Nc)),  M = t(1 − cq)/(1 + t(1−Nc));  M − m = Ξ(ε,c).
    Feasible iff tcq ≤ 1 and tc(N−q) ≤ 1.  Default q = ⌊N/2⌋ (F-G3: for odd N integer q covers
    only t ≤ 2/((N+1)c); :func:`grosse_middle_row_mechanism` takes a real weight q and covers the whole
    regime; :mod:`exactdp.theory.extremal` computes the LP-optimal kernel).
    """
    N = check_count(N, "N", 2)
    g = _t(t, eps)
    c = _check_c(c, N)
    q = N // 2 if q is None else check_count(q, "q", 1)
    if q >= N:
        raise ParameterError(f"q: must lie in [1, N-1] = [1, {N - 1}], got {q}")
    _require_kernel(N, 2, f"grosse_pml_mechanism(N={N})", _is_sym(g, c))
    if isinstance(g, sympy.Basic) or isinstance(c, sympy.Basic):
        z = 1 + g * (1 - N * c)
        m, Mx = sympy.cancel((1 - g * c * q) / z), sympy.cancel(g * (1 - c * q) / z)
        K = Kernel([[Mx, 1 - Mx]] * q + [[m, 1 - m]] * (N - q), name=f"Grosse-PML(N={N},q={q})")
        return _declare(K, *_symbolic_domain(g, c, N, max(q, N - q)))
    return grosse_middle_row_mechanism(N, g, c, q)  # an integer weight q: no middle row


def _symbolic_domain(g, c, N: int, q: int) -> tuple:
    """The parameter domain of the [G] constructions: t ≥ 1, 0 < c ≤ 1/N, t c q ≤ 1."""
    conds = []
    if isinstance(g, sympy.Basic):
        conds.append(g >= 1)
    if isinstance(c, sympy.Basic):
        conds += [c > 0, c <= sympy.Rational(1, N)]
    conds.append(g * c * q <= 1)
    return tuple(as_expr(x) for x in conds)


def grosse_intro_K1() -> Kernel:
    """[G] §I: the 4×4 kernel with one zero per column and entries 1/3 (LDP = ∞, e^{C(K,Q(c))} = 1/(3c))."""
    t = fmpq(1, 3)
    rows = [[t, t, t, ZERO], [ZERO, t, t, t], [t, ZERO, t, t], [t, t, ZERO, t]]
    return Kernel(rows, name="Grosse-intro-K1")


def grosse_intro_K2() -> Kernel:
    """[G] §I: the identity on 4 symbols (LDP = ∞, e^{C(K,Q(c))} = 1/c)."""
    return Kernel.identity(4).with_name("Grosse-intro-K2")


def grosse_example2_K1(N: int = 4) -> Kernel:
    """[G] Example 2: N/2 inputs with rows (15/16, 1/16), the rest (1/16, 15/16); N even.

    LDP = log 15, e^{C(K,Q(c))} = 15/(1+7Nc), η_TV = 7/8 (G-27).
    """
    N = check_count(N, "N", 2)
    if N % 2:
        raise ParameterError(f"N: must be even for [G] Example 2's K1, got {N}")
    _require_kernel(N, 2, f"grosse_example2_K1(N={N})")
    a, b = fmpq(15, 16), fmpq(1, 16)
    return Kernel([[a, b]] * (N // 2) + [[b, a]] * (N // 2), name=f"Grosse-Ex2-K1(N={N})")


def disjoint_rows_witness(N: int) -> Kernel:
    """[G] Thm 2's witness: rows (1,0), (0,1), every other row (1/2,1/2); (log(2/(Nc)), c)-PML."""
    N = check_count(N, "N", 2)
    _require_kernel(N, 2, f"disjoint_rows_witness(N={N})")
    h = fmpq(1, 2)
    return Kernel([[ONE, ZERO], [ZERO, ONE]] + [[h, h]] * (N - 2), name=f"Grosse-Thm2-witness(N={N})")


def grosse_middle_row_mechanism(N: int, t=None, c=None, q=None, *, eps=None) -> Kernel:
    r"""[G] G-20 with a real weight q (F-G3): the binary-output mechanism with S_0 = qM + (N−q)m.

    With z = 1 + t(1−Nc):  m = (1 − tcq)/z,  M = t(1 − cq)/z;  M − m = Ξ(ε,c) and both PML constraints
    hold with equality.  ⌊q⌋ rows have K(0|x) = M, N−⌊q⌋−1 have m and, when q is not an integer, one
    "middle" row has (q−⌊q⌋)M + (1−q+⌊q⌋)m, which keeps max, min and S_0.  Feasible iff tcq ≤ 1 and
    tc(N−q) ≤ 1; q = N/2 (the default) works in the whole contraction regime t ≤ 2/(Nc), where for odd N
    no integer q does beyond t = 2/((N+1)c).  For an integer q this is :func:`grosse_pml_mechanism`.

    >>> grosse_middle_row_mechanism(3, "5/2", "1/4").rows
    ((25/26, 1/26), (1/2, 1/2), (1/26, 25/26))
    """
    N = check_count(N, "N", 2)
    _require_kernel(N, 2, f"grosse_middle_row_mechanism(N={N})")
    g = _rational_t(t, eps)
    c = _check_c(c, N)
    q = fmpq(N, 2) if q is None else to_qq(q, "q")
    if q < 1 or q > N - 1:
        raise ParameterError(f"q: must lie in [1, N-1] = [1, {N - 1}], got {q}")
    if g * c * q > 1 or g * c * (N - q) > 1:
        raise ParameterError(
            f"t: the construction needs t*c*q <= 1 and t*c*(N-q) <= 1 (N={N}, q={q}, c={c}), got {g}"
        )
    z = 1 + g * (1 - N * c)
    m, Mx = (1 - g * c * q) / z, g * (1 - c * q) / z
    whole = int(q.p // q.q)
    frac = q - whole
    w = frac * Mx + (1 - frac) * m
    middle = [[w, 1 - w]] if frac != 0 else []
    rows = [[Mx, 1 - Mx]] * whole + middle + [[m, 1 - m]] * (N - whole - len(middle))
    return Kernel(rows, name=f"Grosse-PML(N={N},q={q})")


def grosse_integer_q(N: int, t=None, c=None, *, eps=None) -> tuple[int, ...]:
    """The integers q ∈ [1, N−1] for which :func:`grosse_pml_mechanism` is feasible (tcq ≤ 1, tc(N−q) ≤ 1).

    Empty for odd N when 2/((N+1)c) < t (F-G3).
    """
    lo, hi = _integer_q_range(N, _rational_t(t, eps), c)
    require("max_work", max(hi - lo + 1, 0) * _PY_OP, f"grosse_integer_q(N={N}): the feasible q")
    return tuple(range(lo, hi + 1))


def _integer_q_range(N, t, c) -> tuple[int, int]:
    """The feasible integers q of :func:`grosse_integer_q` form the interval [lo, hi] (empty if lo > hi):
    tcq ≤ 1 ⟺ q ≤ ⌊1/(tc)⌋ and tc(N−q) ≤ 1 ⟺ q ≥ ⌈N − 1/(tc)⌉, intersected with [1, N−1]."""
    N = check_count(N, "N", 2)
    g, c = to_qq(t, "t"), _check_c(c, N)
    if g * c == 0:
        return 1, N - 1
    r = 1 / (g * c)
    lo = max(1, -int((r - N).p // (r - N).q))  # ⌈N − r⌉
    hi = min(N - 1, int(r.p // r.q))  # ⌊r⌋
    return lo, hi


def grosse_optimal_mechanism(N: int, t=None, c=None, *, eps=None) -> Kernel:
    r"""A kernel attaining Ξ(ε,c) = η_TV(ε,c) for every t ≥ 1 ([G] Thm 1, G-20, F-G3, G-16).

    t ≥ 2/(Nc): Thm 2's disjoint-rows witness (η_TV = 1).  Otherwise the G-20 construction with an
    integer q closest to N/2 when one is feasible (:func:`grosse_pml_mechanism`), else q = N/2 with the
    middle row (:func:`grosse_middle_row_mechanism`).
    """
    N = check_count(N, "N", 2)
    g, c = _rational_t(t, eps), _check_c(c, N)
    _require_kernel(N, 2, f"grosse_optimal_mechanism(N={N})")
    if g * N * c >= 2:
        return disjoint_rows_witness(N)
    lo, hi = _integer_q_range(N, g, c)
    if lo > hi:
        return grosse_middle_row_mechanism(N, g, c, fmpq(N, 2))
    q = min(max(N // 2, lo), hi)  # the feasible integer closest to N/2 (the smaller one on a tie)
    return grosse_pml_mechanism(N, g, c, q)


def zero_column_witness(N: int, zeros: int) -> Kernel:
    r"""[G] Lemma 1 tightness (G-12): rows x < z are (0, 1), the others (1/N, 1 − 1/N).

    Column 0 has exactly z zeros and its PML ratio is 1/((N−z)c); column 1's is smaller for every
    c ∈ (0, 1/N], so e^{C(K,Q_X(c))} = 1/((N−z)c), the least level Lemma 1 allows for z zeros.
    """
    N = check_count(N, "N", 2)
    _require_kernel(N, 2, f"zero_column_witness(N={N})")
    z = check_count(zeros, "zeros", 1)
    if z >= N:
        raise ParameterError(f"zeros: must lie in [1, N-1] = [1, {N - 1}], got {z}")
    s = fmpq(1, N)
    return Kernel([[ZERO, ONE]] * z + [[s, 1 - s]] * (N - z), name=f"Lemma1-witness(N={N},z={z})")


CATALOGUE: dict[str, Callable[..., Kernel]] = {
    "randomized_response": randomized_response,
    "binary_randomized_response": binary_randomized_response,
    "symmetric_unary_encoding": symmetric_unary_encoding,
    "optimized_unary_encoding": optimized_unary_encoding,
    "optimal_binary_approx_ldp": optimal_binary_approx_ldp,
    "grosse_binary_mechanism": grosse_binary_mechanism,
    "grosse_pml_mechanism": grosse_pml_mechanism,
    "grosse_intro_K1": grosse_intro_K1,
    "grosse_intro_K2": grosse_intro_K2,
    "grosse_example2_K1": grosse_example2_K1,
    "disjoint_rows_witness": disjoint_rows_witness,
    "zero_column_witness": zero_column_witness,
    "grosse_middle_row_mechanism": grosse_middle_row_mechanism,
    "grosse_optimal_mechanism": grosse_optimal_mechanism,
}
