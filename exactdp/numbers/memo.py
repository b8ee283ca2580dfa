"""A bounded memo of a pure function's results, by a hashable key of its inputs.

The certificate pipeline asks the same exact questions many times over: the same certificate string is read
under the same symbols (its data check, its binding, the carrying attempts of ``exactdp verify``), the same
relation is decided on the same region, and the same certificate is bound to the same statement.  Each answer
depends on its inputs alone, so it is kept here and handed out again.  A :class:`Memo` decides nothing: a miss is
an ordinary computation, and the caller chooses the key (everything the answer depends on, the resource
limits in force included where they can change it: :func:`limits_in_force`) and what is worth keeping (an
exception is never kept).  The memo is emptied when it is full, so it stays bounded in a long session.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

from exactdp.limits import LIMITS, limit

_V = TypeVar("_V")

#: the most results a memo keeps by default (a run of ``exactdp verify`` asks a few thousand questions)
SIZE = 8192


class Memo(Generic[_V]):
    """Results by key; :meth:`get` gives None for an unknown key, :meth:`put` remembers one."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._entries: dict[Hashable, _V] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable) -> _V | None:
        """The remembered result for ``key``, or None."""
        return self._entries.get(key)

    def put(self, key: Hashable, value: _V) -> None:
        """Remember ``value`` for ``key`` (the memo is emptied first when it is full)."""
        if len(self._entries) >= self.size:
            self._entries.clear()
        self._entries[key] = value

    def clear(self) -> None:
        self._entries.clear()


def limits_in_force() -> tuple[int, ...]:
    """The value of every resource limit in force (:mod:`exactdp.limits`), in a fixed order: the part of a memo's
    key for an answer that a limit could change (a text read under a larger ``max_degree``, a decision reached
    under a larger ``max_work``)."""
    return tuple(limit(name) for name in LIMITS)


__all__ = ["Memo", "SIZE", "limits_in_force"]
