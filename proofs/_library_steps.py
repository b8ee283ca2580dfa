"""A library computation as a derivation step: a value the library computes on a kernel, compared by exact
cancellation with its closed form (not a certificate: the claim's certificates carry what is proved)."""

from __future__ import annotations

from exactdp.numbers.formula_text import DerivationStep, math_text, written_step


def library_step(label: str, value, formula) -> DerivationStep:
    """``library computation, LABEL: the library gives VALUE, the closed form FORMULA`` with the two sympy
    expressions stored as the reader's text (``label`` may mark its own formulas with backticks)."""
    return written_step(f"library computation, {label}: the library gives `{math_text(value)}`, the closed form "
                        f"`{math_text(formula)}`")


def plain_label(label: str) -> str:
    """A library computation's label as plain text (its formula marks removed), for a refutation's message."""
    return label.replace("`", "")
