"""Rich display in Jupyter for exactdp's objects, whatever their layer.

``class Kernel(RichDisplay, rich="kernel")`` gets ``_repr_latex_`` / ``_repr_html_`` / ``_repr_markdown_``
from the renderers ``kernel_repr_latex`` / ``kernel_repr_html`` / ``kernel_repr_markdown`` of
:mod:`exactdp.numbers.display` (imported on first display, so defining a class loads no sympy).
"""

from __future__ import annotations

from typing import Any, cast


class RichDisplay:
    """Mixin: the three ``_repr_*_`` methods Jupyter looks for, rendered by :mod:`exactdp.numbers.display`."""

    _rich = ""

    def __init_subclass__(cls, rich: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if rich:
            cls._rich = rich

    def _render(self, kind: str) -> str:
        from exactdp.numbers import display  # deferred: start-up

        return cast(str, getattr(display, f"{self._rich}_repr_{kind}")(self))

    def _repr_latex_(self) -> str:
        return self._render("latex")

    def _repr_html_(self) -> str:
        return self._render("html")

    def _repr_markdown_(self) -> str:
        return self._render("markdown")
