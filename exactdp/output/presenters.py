"""The presenters of exactdp's objects, in a registry keyed by type: what ``_repr_latex_``, ``_repr_html_``
and ``_repr_markdown_`` (Jupyter) and :func:`exactdp.latex` show for an object.

The objects live in every layer — :class:`~exactdp.numbers.truth.Truth` in the bottom one, a
:class:`~exactdp.verification.engine.ClaimResult` near the top — but their presentation lives here, in
``output/``: a lower layer knows nothing of how it is shown.  Their common base
:class:`exactdp.numbers.rich.RichDisplay` asks :func:`present`, which it finds through the entry-point
group ``exactdp.presenters`` (a registration, like the claims' ``exactdp.claims``, not an import that would
run up the layers).

A type is registered by its dotted name (``"exactdp.kernels.Kernel"``), so the registry imports none of the
objects' modules; :func:`presenter_for` walks the object's class and its bases (the first registered one
wins).  A new type is one :func:`register` call with its renderers (functions of the object returning a
string); a format it lacks falls back to the object's plain ``repr`` in Jupyter.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from exactdp.output import display as D

#: the formats of Jupyter's rich display
FORMATS = ("latex", "html", "markdown")

Renderer = Callable[[Any], str]


@dataclass(frozen=True)
class Presenter:
    """The renderers of one type, by format (None: the format is not offered)."""

    latex: Renderer | None = None
    html: Renderer | None = None
    markdown: Renderer | None = None


#: dotted type name → its presenter
REGISTRY: dict[str, Presenter] = {}


def type_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def register(name: str, *, latex: Renderer | None = None, html: Renderer | None = None,
             markdown: Renderer | None = None) -> Presenter:
    """Register the renderers of the type with dotted name ``name`` (replacing an earlier registration)."""
    presenter = Presenter(latex, html, markdown)
    REGISTRY[name] = presenter
    return presenter


def presenter_for(obj: object) -> Presenter | None:
    """The presenter of ``obj``'s class or of its nearest registered base class, or None."""
    for cls in type(obj).__mro__:
        found = REGISTRY.get(type_name(cls))
        if found is not None:
            return found
    return None


def present(obj: object, fmt: str) -> str | None:
    """``obj`` rendered in ``fmt`` (one of :data:`FORMATS`), or None when its type offers no such form."""
    if fmt not in FORMATS:
        raise ValueError(f"present: format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    presenter = presenter_for(obj)
    render = getattr(presenter, fmt) if presenter is not None else None
    return render(obj) if render is not None else None


register("exactdp.numbers.truth.Truth", latex=D.truth_repr_latex, html=D.truth_repr_html,
         markdown=D.truth_repr_markdown)
register("exactdp.kernels.Kernel", latex=D.kernel_repr_latex, html=D.kernel_repr_html,
         markdown=D.kernel_repr_markdown)
register("exactdp.bounds.Bound", latex=D.bound_repr_latex, html=D.bound_repr_html, markdown=D.bound_repr_markdown)
register("exactdp.measures.privacy.PrivacyProfile", latex=D.profile_repr_latex, html=D.profile_repr_html,
         markdown=D.profile_repr_markdown)
register("exactdp.theory.estimation.RiskBound", latex=D.risk_bound_repr_latex, html=D.risk_bound_repr_html,
         markdown=D.risk_bound_repr_markdown)
register("exactdp.theory.extremal.ExtremalResult", latex=D.extremal_repr_latex, html=D.extremal_repr_html,
         markdown=D.extremal_repr_markdown)
register("exactdp.verification.claims.Outcome", latex=D.outcome_repr_latex, html=D.outcome_repr_html,
         markdown=D.outcome_repr_markdown)
register("exactdp.verification.engine.ClaimResult", latex=D.claim_result_repr_latex, html=D.claim_result_repr_html,
         markdown=D.claim_result_repr_markdown)
register("exactdp.verification.conjecture.api.CheckResult", latex=D.check_result_repr_latex,
         html=D.check_result_repr_html, markdown=D.check_result_repr_markdown)
