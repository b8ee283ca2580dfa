"""Exact probability distributions on a finite alphabet {0, ..., n-1}.

A :class:`Distribution` is a value, like a :class:`~exactdp.kernels.Kernel`: immutable (setting an attribute
raises :class:`dataclasses.FrozenInstanceError`), equal to and hashed like another exactly when the entries
and the domain (QQ or SR) agree.  (A distribution carries no declared parameter region: its parameters'
hypotheses come from the kernel it is used with, or the scoped ``assuming``.)
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any

from flint import fmpq

from exactdp._vectors import as_sequence, exact_vector
from exactdp.errors import InvalidDistributionError, ParameterError, ShapeError
from exactdp.numbers.qq import ZERO, from_float, to_qq
from exactdp.numbers.simplex_rounding import grid_denominator, round_to_simplex
from exactdp.parameters import check_count


class Distribution:
    """An immutable probability vector P = (P(0), ..., P(n-1)), validated once.

    Entries are exact: ``fmpq`` (domain QQ) or sympy expressions (domain SR).

    Raises:
        InvalidDistributionError: empty, an entry outside [0, 1], or a sum different from 1.
        CoercionError: a float or an unreadable entry.

    >>> Distribution(["1/2", "1/4", "1/4"]).probs
    (1/2, 1/4, 1/4)
    """

    __slots__ = ("_p", "_symbolic", "_hash")
    _p: tuple[Any, ...]  # fmpq (QQ) or sympy.Expr (SR) entries
    _symbolic: bool
    _hash: int | None

    def __init__(self, probs, *, name: str = "P"):
        if isinstance(probs, Distribution):
            p, symbolic = probs._p, probs._symbolic
        else:
            p, symbolic = exact_vector(probs, name, InvalidDistributionError)
        _set(self, "_p", p)
        _set(self, "_symbolic", symbolic)
        _set(self, "_hash", None)

    def __setattr__(self, key, value):
        raise FrozenInstanceError(f"Distribution is immutable: cannot set {key!r}")

    def __delattr__(self, key):
        raise FrozenInstanceError(f"Distribution is immutable: cannot delete {key!r}")

    def __reduce__(self):
        return Distribution.from_exact_probs, (self._p, self._symbolic)

    def __copy__(self) -> "Distribution":
        return self

    def __deepcopy__(self, memo) -> "Distribution":
        return self

    @classmethod
    def from_exact_probs(cls, probs, symbolic: bool = False) -> "Distribution":
        """A distribution from entries that are already exact and already sum to 1: **nothing is re-validated**.

        For code computing distributions from validated objects: ``probs`` must be ``fmpq`` entries (exact
        sympy expressions with ``symbolic=True``) in [0, 1] summing to exactly 1.  Anything else goes
        through ``Distribution(probs)``, which checks it.

        >>> from flint import fmpq
        >>> Distribution.from_exact_probs([fmpq(1, 4), fmpq(3, 4)]) == Distribution(["1/4", "3/4"])
        True
        """
        obj = _new(Distribution)
        _set(obj, "_p", tuple(probs))
        _set(obj, "_symbolic", symbolic)
        _set(obj, "_hash", None)
        return obj

    #: private alias of :meth:`from_exact_probs`
    _trusted = from_exact_probs

    @classmethod
    def from_floats(cls, probs, *, denominator: int | None = None, digits: int | None = None) -> "Distribution":
        """Each double converted to its exact binary value (see :func:`exactdp.from_float`); with
        ``denominator=D`` / ``digits=d`` renormalised and rounded to multiples of ``1/D`` summing to 1, each
        entry within ``1/D`` of the renormalised value (as :meth:`exactdp.Kernel.from_floats`)."""
        D = grid_denominator(denominator, digits)
        exact = [from_float(v, f"P[{k}]")
                 for k, v in enumerate(as_sequence(probs, "P", InvalidDistributionError, allow_float=True))]
        return cls(exact if D is None else round_to_simplex(exact, D, "P"))

    @classmethod
    def uniform(cls, n: int) -> "Distribution":
        check_count(n, "n")
        return cls._trusted((fmpq(1, n),) * n, False)

    @classmethod
    def point(cls, n: int, x: int) -> "Distribution":
        """The point mass at x on {0, ..., n-1}."""
        if not isinstance(n, int) or n < 1 or not isinstance(x, int) or not 0 <= x < n:
            raise ParameterError(f"point: need 0 <= x < n, got x={x!r}, n={n!r}")
        return cls._trusted(tuple(fmpq(1) if k == x else ZERO for k in range(n)), False)

    @property
    def probs(self) -> tuple:
        return self._p

    @property
    def symbolic(self) -> bool:
        return self._symbolic

    @property
    def support(self) -> tuple[int, ...]:
        return tuple(k for k, v in enumerate(self._p) if v != 0)

    def min_mass(self) -> fmpq | None:
        return min(self._p) if not self._symbolic else None

    def __len__(self) -> int:
        return len(self._p)

    def __getitem__(self, k):
        return self._p[k]

    def __iter__(self):
        return iter(self._p)

    def __eq__(self, other) -> bool:
        """Same entries in the same domain (QQ/SR)."""
        if self is other:
            return True
        return isinstance(other, Distribution) and self._symbolic == other._symbolic and self._p == other._p

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash((self._symbolic, tuple(str(v) for v in self._p)))
            _set(self, "_hash", h)  # a cache, not part of the value
        return h

    def __repr__(self) -> str:
        return "Distribution([" + ", ".join(f"'{v}'" for v in self._p) + "])"

    def as_strings(self) -> list[str]:
        return [str(v) for v in self._p]


_new = object.__new__
_set = object.__setattr__


def as_distribution(P, name: str = "P") -> Distribution:
    """Accept a Distribution or anything its constructor accepts."""
    return P if isinstance(P, Distribution) else Distribution(P, name=name)


def as_pair(P, Q, names: tuple[str, str] = ("P", "Q"), *, rational: str = "") -> tuple[Distribution, Distribution]:
    """Two distributions on the same alphabet (a length mismatch names the second); with ``rational`` (the
    reason, shown in the error) both must be rational."""
    a, b = names
    P, Q = as_distribution(P, a), as_distribution(Q, b)
    if len(P) != len(Q):
        raise ShapeError(f"{b}: has {len(Q)} entries but {a} has {len(P)}")
    if rational and (P.symbolic or Q.symbolic):
        raise ParameterError(f"{a}, {b}: {rational}")
    return P, Q


def check_prior_mass(P: Distribution, c, name: str = "P") -> None:
    """Raise unless min_x P(x) >= c (membership in Q_X(c), [G] §III)."""
    c = to_qq(c, "c")
    low = min(P.probs)
    if low < c:
        raise ParameterError(f"{name}: must have min mass >= c = {c}, got min mass {low}")
