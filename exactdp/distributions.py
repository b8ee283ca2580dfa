"""Exact probability distributions on a finite alphabet {0, ..., n-1}."""

from __future__ import annotations

from flint import fmpq

from exactdp._vectors import as_sequence, exact_vector
from exactdp.errors import InvalidDistributionError, ParameterError
from exactdp.numbers.qq import ZERO, from_float, to_qq


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

    def __init__(self, probs, *, name: str = "P"):
        if isinstance(probs, Distribution):
            self._p, self._symbolic = probs._p, probs._symbolic
        else:
            self._p, self._symbolic = exact_vector(probs, name, InvalidDistributionError)
        self._hash = None

    @classmethod
    def _trusted(cls, probs: tuple, symbolic: bool) -> "Distribution":
        obj = cls.__new__(cls)
        obj._p, obj._symbolic, obj._hash = tuple(probs), symbolic, None
        return obj

    @classmethod
    def from_floats(cls, probs) -> "Distribution":
        """Each double converted to its exact binary value (see :func:`exactdp.from_float`)."""
        return cls([from_float(v, f"P[{k}]")
                    for k, v in enumerate(as_sequence(probs, "P", InvalidDistributionError, allow_float=True))])

    @classmethod
    def uniform(cls, n: int) -> "Distribution":
        if not isinstance(n, int) or n < 1:
            raise ParameterError(f"n: must be a positive integer, got {n!r}")
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

    def min_mass(self):
        return min(self._p) if not self._symbolic else None

    def __len__(self) -> int:
        return len(self._p)

    def __getitem__(self, k):
        return self._p[k]

    def __iter__(self):
        return iter(self._p)

    def __eq__(self, other) -> bool:
        return isinstance(other, Distribution) and self._p == other._p

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(str(v) for v in self._p))
        return self._hash

    def __repr__(self) -> str:
        return "Distribution([" + ", ".join(f"'{v}'" for v in self._p) + "])"

    def as_strings(self) -> list[str]:
        return [str(v) for v in self._p]


def as_distribution(P, name: str = "P") -> Distribution:
    """Accept a Distribution or anything its constructor accepts."""
    return P if isinstance(P, Distribution) else Distribution(P, name=name)


def check_prior_mass(P: Distribution, c, name: str = "P") -> None:
    """Raise unless min_x P(x) >= c (membership in Q_X(c), [G] §III)."""
    c = to_qq(c, "c")
    low = min(P.probs)
    if low < c:
        raise ParameterError(f"{name}: must have min mass >= c = {c}, got min mass {low}")
