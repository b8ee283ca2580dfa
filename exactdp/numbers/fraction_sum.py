r"""Exact sums of many fractions a_x / d_x with different denominators, on a balanced product tree.

Σ_x a_x / d_x = T / P with P = Π_x d_x is formed pairwise, (a/b) + (c/e) = (a·e + c·b) / (b·e), along a
balanced binary tree over x: the two products of one level have about equal sizes (2^k · bits(d) at level k),
so the whole sum costs a few multiplications of the final size.  The alternatives cost more on N random
denominators of B bits each: a running lcm makes N multiplications and N gcds of a number growing to N·B
bits, and N fmpq additions a gcd each.  No gcd is taken here: T/P is not reduced, the caller reduces once
(``fmpq(T, P)``).  Callers that have equal denominators group them first (one entry per distinct
denominator), so P is the product of the distinct denominators.

The levels of the tree (the products of the denominators) depend on the denominators only: they are built
once (:func:`product_tree`, cached per kernel by its callers) and shared by every sum over the same
denominators (:func:`tree_sum`, one numerator vector or many columns at once).  The lowest levels stay int64
numpy arrays while every product of the level provably fits (the largest denominator product squared, and for
the numerators 2·max|numerator|·max denominator product, below 2^63: checked on the level's maxima before each
step, so nothing wraps around); then Python integers in numpy object arrays (numpy's C loop calls the integer
operations); from the level whose numbers can exceed :data:`FLINT_BITS` bits on, flint ``fmpz`` (GMP's
subquadratic products).

A caller with one numerator vector and no tree to share calls :func:`fraction_sum`: the same balanced pairs (the
same unreduced T and P), formed level by level without a kept level: int64 numpy levels while every product
provably fits (as above), then one list comprehension per level over Python integers (fmpz from
:data:`FLINT_BITS` bits on).  On the few hundred fractions of a first call that is the cheaper form: a numpy call
on a short level costs more than the level's few products, and a comprehension makes each merge
(a/b) + (c/e) = (ae + cb)/(be) without a Python-level loop step (docs/speed.md, bench_core).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from flint import fmpz

#: size (bits) from which a level's products are taken in flint fmpz rather than Python integers
FLINT_BITS = 1024

_to_fmpz = np.frompyfunc(fmpz, 1, 1)

_INT64_LIMIT = 2**63
#: ⌈√(2^63)⌉: a level whose largest number is below it multiplies in int64
_INT64_SQRT = 3037000500


def _first_flint_level(den_bits: int) -> int:
    """The first level whose numbers can exceed :data:`FLINT_BITS` bits: a level-k number is a product of at
    most 2^k denominators of ``den_bits`` bits (a numerator of :func:`tree_sum` has one bit more per level)."""
    k = 0
    while (den_bits + 1) << k <= FLINT_BITS:
        k += 1
    return k


def _den_bits(level: np.ndarray) -> int:
    return max(int(level.max()).bit_length(), 1) if len(level) else 1


def product_tree(d: ArrayLike) -> list[np.ndarray]:
    """The levels of the product tree of the positive integers ``d``: ``levels[0]`` = d, ``levels[k + 1][i]``
    = ``levels[k][2i] · levels[k][2i + 1]``, each level of odd length padded with a 1 before pairing (stored
    padded); the last level holds the one product Π d.  Object arrays (Python ints, then fmpz)."""
    level = np.asarray(d)
    flint_at = _first_flint_level(_den_bits(level))
    levels = []
    k = 0
    if level.dtype == np.int64:  # int64 products while they fit: max² < 2^63
        while len(level) > 1 and int(level.max()) < _INT64_SQRT:
            if len(level) % 2:
                level = np.append(level, 1)
            levels.append(level)
            level = level[0::2] * level[1::2]
            k += 1
    level = level.astype(object)
    while len(level) > 1:
        if len(level) % 2:
            level = np.append(level, 1)
        if k == flint_at:
            level = _to_fmpz(level)
        levels.append(level)
        level = level[0::2] * level[1::2]
        k += 1
    levels.append(level)
    return levels


def tree_sum(levels: list[np.ndarray], n: ArrayLike) -> tuple[Any, Any]:
    """``(T, P)`` with Σ_x n[x] / d[x] = T / P exactly, P = Π d, for the tree ``levels`` of d
    (:func:`product_tree`) and integer numerators ``n`` of shape (len(d),) — or (len(d), m) for m sums at once:
    T is then an object array of the m numerators over the common P.  Unreduced (no gcd)."""
    num = np.asarray(n)
    if num.dtype != np.int64:
        num = num.astype(object)
    for level in levels[:-1]:
        if len(num) < len(level):  # the odd entry's partner: 0 / 1
            num = np.concatenate([num, np.zeros((1, *num.shape[1:]), dtype=num.dtype)])
        if num.dtype == np.int64 and (level.dtype != np.int64 or
                                      2 * int(np.abs(num).max(initial=0)) * int(level.max()) >= _INT64_LIMIT):
            num = num.astype(object)  # the step could leave int64: Python integers from here on
        if type(level[0]) is fmpz and (not num.size or type(num.flat[0]) is not fmpz):
            num = _to_fmpz(num)
        a, b = level[0::2], level[1::2]
        if num.ndim == 2:
            a, b = a[:, None], b[:, None]
        num = num[0::2] * b + num[1::2] * a
    T, P = num[0], levels[-1][0]
    if num.dtype == np.int64:  # every level fitted int64: Python integers out
        T = T.astype(object) if num.ndim == 2 else int(T)
    return T, (int(P) if isinstance(P, np.integer) else P)


def fraction_sum(n: ArrayLike, d: ArrayLike) -> tuple[Any, Any]:
    """``(T, P)`` with Σ_x n[x] / d[x] = T / P exactly, P = Π d, for one vector of integer numerators ``n`` and
    positive denominators ``d`` (one length ≥ 1; numpy arrays, lists or other sequences of integers), unreduced
    (no gcd): for a caller with no tree to share (a first call on a kernel).

    The balanced pairs of :func:`product_tree` / :func:`tree_sum` — level k + 1 merges entries 2i and 2i + 1 of
    level k, an odd level padded with 0 / 1 — so (T, P) equals :func:`tree_sum`'s: P is the product of every d and
    T = P · Σ n/d.  int64 numpy levels while the level's largest denominator product squared and 2·max|n|·max
    product stay below 2^63 (checked before each step: nothing wraps around), then Python integers, one list
    comprehension per level, fmpz from the level whose numbers can exceed :data:`FLINT_BITS` bits on."""
    num, den = _int64_levels(n, d)
    ts, ps = _ints(num), _ints(den)
    bits = max(ps).bit_length() + 1  # a level-k sum has at most 2^k · bits bits above the int64 levels
    flint_at = 0
    while bits << flint_at <= FLINT_BITS:
        flint_at += 1
    level = 0
    while len(ts) > 1:
        if len(ts) % 2:
            ts.append(0)
            ps.append(1)
        if level == flint_at:
            ts, ps = [fmpz(t) for t in ts], [fmpz(p) for p in ps]
        t0, t1, p0, p1 = ts[0::2], ts[1::2], ps[0::2], ps[1::2]
        ts = [a * q + c * p for a, c, p, q in zip(t0, t1, p0, p1)]
        ps = [p * q for p, q in zip(p0, p1)]
        level += 1
    return ts[0], ps[0]


def _int64_levels(n: ArrayLike, d: ArrayLike) -> tuple[Any, Any]:
    """The lowest levels of :func:`fraction_sum` in int64 numpy while they provably fit (its docstring); other
    inputs (lists, object arrays) unchanged."""
    if not (isinstance(n, np.ndarray) and isinstance(d, np.ndarray) and n.dtype == d.dtype == np.int64):
        return n, d
    num: np.ndarray = n
    den: np.ndarray = d
    while len(den) > 1:
        dmax = int(den.max())
        if dmax >= _INT64_SQRT or 2 * int(np.abs(num).max()) * dmax >= _INT64_LIMIT:
            break
        if len(den) % 2:
            num, den = np.append(num, 0), np.append(den, 1)
        num, den = num[0::2] * den[1::2] + num[1::2] * den[0::2], den[0::2] * den[1::2]
    return num, den


def _ints(v: Any) -> list[Any]:
    """The entries of ``v`` as a new list of Python integers (or the fmpz it holds)."""
    if isinstance(v, np.ndarray):
        out: list[Any] = v.tolist()
        return out
    return [x if type(x) is fmpz else int(x) for x in v]
