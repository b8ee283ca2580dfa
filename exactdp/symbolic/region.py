r"""Parameter regions of parametric kernels: declared, scoped and derived (validity) regions.

A parametric kernel's entries are sympy expressions in parameters declared as ``sympy.Symbol``\ s with
assumptions (``positive=True`` ⇒ x > 0, ``nonnegative=True`` ⇒ x ≥ 0).  Further hypotheses
(t ≥ 1, 0 < c ≤ 1/N, t·c ≤ 1) come from

* :func:`declare_region` — attached to one kernel (the catalogue constructors declare their natural
  parameter domain when called with symbols), or
* :func:`assuming` — a scoped context manager (never global state that outlives the ``with``).

:func:`validity_region` derives where the matrix is a valid kernel: every entry in [0, 1] (rows sum
to 1 identically is checked when the :class:`~exactdp.kernels.Kernel` is built).  Conditions the exact
prover already establishes on the declared region are dropped; the rest are reported.
"""

from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass

import sympy

from exactdp.numbers.truth import Truth
from exactdp.errors import UndecidedError
from exactdp.algebra.prover import Region, sign_on
from exactdp.numbers.reader import as_expr

_SCOPED: contextvars.ContextVar[tuple] = contextvars.ContextVar("exactdp_symbolic_assumptions", default=())


def declare_region(K, *conditions):
    """A new kernel: K (same rows and name) carrying, in addition to K's, hypotheses on its parameters.

    The region is part of the kernel's value (:attr:`~exactdp.kernels.Kernel.region`): kernels with the
    same entries declared on different regions are unequal, with different hashes, so no cache keyed by
    kernels mixes them up; K itself is unchanged.  The catalogue constructors return kernels declared with
    their natural parameter domain.

    >>> from exactdp.kernels import Kernel
    >>> t = sympy.Symbol("t", positive=True)
    >>> K = Kernel([[t / (t + 1), 1 / (t + 1)], [1 / (t + 1), t / (t + 1)]])
    >>> declare_region(K, t >= 1) == declare_region(K, t <= 1)
    False
    """
    for c in conditions:
        if not isinstance(c, (sympy.core.relational.Relational, sympy.And)):
            raise TypeError(f"declare_region: expected sympy inequalities, got {c!r}")
    return K.with_region(declared_conditions(K) + tuple(conditions))


def declared_conditions(K) -> tuple:
    """The hypotheses declared on K (its :attr:`~exactdp.kernels.Kernel.region`)."""
    return getattr(K, "region", ())


@contextlib.contextmanager
def assuming(*conditions):
    """Scoped hypotheses for every symbolic computation inside the ``with`` block.

    >>> t = sympy.Symbol("t", positive=True)
    >>> with assuming(t >= 1):
    ...     pass
    """
    token = _SCOPED.set(_SCOPED.get() + tuple(conditions))
    try:
        yield
    finally:
        _SCOPED.reset(token)


def scoped_conditions() -> tuple:
    return _SCOPED.get()


@dataclass(frozen=True)
class Validity:
    """Where a parametric matrix is a kernel: ``condition`` (sympy Boolean) on top of ``assumed``."""

    assumed: Region
    conditions: tuple  # the entry conditions not implied by the assumptions (sympy relations)
    undecided: tuple  # conditions the prover could not settle either way (kept in ``conditions``)

    @property
    def condition(self) -> sympy.Basic:
        return sympy.And(*self.conditions)

    @property
    def region(self) -> Region:
        """The assumed region intersected with the entry conditions."""
        return self.assumed.with_conditions(*self.conditions)

    def __str__(self) -> str:
        extra = " and ".join(str(c) for c in self.conditions) or "nothing more"
        return f"valid for {self.assumed} and {extra}"


def base_region(K, assumptions=()) -> Region:
    """Symbol assumptions ∧ declared ∧ scoped ∧ explicit ``assumptions`` of a parametric kernel."""
    conds = tuple(declared_conditions(K)) + scoped_conditions() + tuple(assumptions)
    return Region.of(*conds, variables=sorted(K.free_symbols, key=str))


def validity_region(K, assumptions=()) -> Validity:
    r"""The region where every entry of the parametric kernel K lies in [0, 1].

    Args:
        K: a symbolic :class:`~exactdp.kernels.Kernel`.
        assumptions: extra sympy inequalities (e.g. ``(t >= 1, c <= Rational(1, 4))``).
    Returns:
        :class:`Validity`: the conditions 0 ≤ K[x][y] ≤ 1 that the assumptions do not already imply
        (each decided exactly by :mod:`exactdp.algebra.prover`; undecidable ones are kept and listed).

    >>> from exactdp.mechanisms import grosse_binary_mechanism
    >>> t, c = sympy.symbols("t c", positive=True)
    >>> validity_region(grosse_binary_mechanism(t, c)).conditions  # implied by the declared domain
    ()
    """
    region = base_region(K, assumptions)
    conds, undecided = [], []
    seen = set()
    for row in K.rows:
        for e in row:
            e = as_expr(e)
            for g in (e, 1 - e):
                g = sympy.factor(sympy.cancel(g))
                if g in seen or not g.free_symbols:
                    continue
                seen.add(g)
                try:
                    truth = sign_on(g, region, strict=False)
                except UndecidedError:  # the prover cannot decide it: kept, and listed as undecided
                    truth = Truth.UNKNOWN
                if truth is Truth.TRUE:
                    continue
                conds.append(sympy.GreaterThan(g, 0))
                if truth is Truth.UNKNOWN:
                    undecided.append(sympy.GreaterThan(g, 0))
    return Validity(region, tuple(conds), tuple(undecided))


def kernel_region(K, assumptions=()) -> Region:
    """The region the closed forms of K are derived on: assumptions ∧ validity (cached per kernel)."""
    # keyed by the kernel's value (rows, domain, declared region; the rows hash fast as sympy expressions)
    key = (K.rows, K.domain, frozenset(declared_conditions(K)), scoped_conditions(), tuple(assumptions))
    hit = _REGION_CACHE.get(key)
    if hit is None:
        hit = validity_region(K, assumptions).region
        if len(_REGION_CACHE) > 4096:  # a memo of pure facts; bounded
            _REGION_CACHE.clear()
        _REGION_CACHE[key] = hit
    return hit


_REGION_CACHE: dict = {}
