"""Rich display in Jupyter for exactdp's objects, whatever their layer.

``class Kernel(RichDisplay)`` gets ``_repr_latex_`` / ``_repr_html_`` / ``_repr_markdown_``.  What they show
is not decided here: the bottom layer knows nothing of the objects above it.  The methods ask the presenter
function registered in the entry-point group :data:`ENTRY_POINT_GROUP` (exactdp registers
``exactdp.output.presenters:present``, a registry keyed by type), loaded on the first display — so defining
a class loads no sympy, and no import runs up the layers.  Without a registered presenter (the package used
without its installed metadata) the methods return None and Jupyter shows the plain ``repr``.
"""

from __future__ import annotations

from typing import Callable

#: the entry-point group naming the function ``present(obj, fmt) -> str | None`` that renders the objects
ENTRY_POINT_GROUP = "exactdp.presenters"

_PRESENTER: list[Callable[[object, str], str | None]] = []


def presenter() -> Callable[[object, str], str | None] | None:
    """The registered presenter function (the first entry point of the group, by name), loaded once."""
    if not _PRESENTER:
        from importlib.metadata import entry_points

        found = sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: ep.name)
        if not found:
            return None
        _PRESENTER.append(found[0].load())
    return _PRESENTER[0]


class RichDisplay:
    """Mixin: the three ``_repr_*_`` methods Jupyter looks for, rendered by the registered presenter."""

    def _render(self, fmt: str) -> str | None:
        present = presenter()
        return present(self, fmt) if present is not None else None

    def _repr_latex_(self) -> str | None:
        return self._render("latex")

    def _repr_html_(self) -> str | None:
        return self._render("html")

    def _repr_markdown_(self) -> str | None:
        return self._render("markdown")
