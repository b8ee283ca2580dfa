"""The memo of certificate checks, keyed by a certificate's canonical content.

A check re-derives a certificate's truth from its data alone; the ``name`` only labels its steps and
messages.  So the key is the content: the kind and every field but ``name``, as the strings (and tuples of
strings) the JSON form holds — equal data under two names, as two claims state the same bound, is
checked once.  A remembered result goes to a certificate of another name only when no step or failure of it
mentions the name it was computed under (a failing check's messages do), so a result never carries a
foreign name.  Nothing here decides anything: a miss is an ordinary check.  The store is the project's one
bounded memo (:class:`exactdp.numbers.memo.Memo`), which the reader, the binding and the prover use as well.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from exactdp.numbers.memo import Memo

#: the most results kept; the memo is emptied when it is full (a run of ``exactdp verify`` checks a few hundred)
SIZE = 4096


def content_key(cert: Any) -> tuple[Any, ...]:
    """The kind and every field of ``cert`` but its name: what a check's truth depends on."""
    return (type(cert).kind,) + tuple((f.name, getattr(cert, f.name)) for f in fields(cert) if f.name != "name")


class CheckMemo:
    """Check results by :func:`content_key`, each with the name it was computed under."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._entries: Memo[tuple[str, Any]] = Memo(size)

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, cert: Any) -> Any:
        """The remembered result for ``cert``'s content, or None (also when it names another certificate)."""
        entry = self._entries.get(content_key(cert))
        if entry is None:
            return None
        name, result = entry
        if name != cert.name and any(name in str(text) for text in (*result.steps, *result.failures)):
            return None
        return result

    def put(self, cert: Any, result: Any) -> None:
        self._entries.put(content_key(cert), (cert.name, result))
