"""The verdict texts of a verification run, shared by every report format (text, JSON, Markdown, LaTeX, HTML).

:func:`verdict_text` is a claim's verdict with its qualifiers (a reconstructed statement, checks that were
not checkable), so no table overstates what was established; :func:`summary_line` counts the verdicts.
"""

from __future__ import annotations

from exactdp.verification.claims import Verdict
from exactdp.verification.engine import ClaimResult, summarize

RECON_NOTE = "reconstructed statement"
PARTIAL_NOTE = "partly not checkable"


def verdict_text(res: ClaimResult) -> str:
    """``verified``, ``refuted (reconstructed statement)``, ``verified (partly not checkable)``...

    A proved/verified claim some of whose checks are NOT_CHECKABLE says so, so the table never
    overstates what was established.
    """
    text = res.verdict.value
    notes = []
    if res.claim.reconstructed:
        notes.append(RECON_NOTE)
    if res.verdict in (Verdict.PROVED, Verdict.VERIFIED) and any(
            o.verdict is Verdict.NOT_CHECKABLE for o in res.outcomes):
        notes.append(PARTIAL_NOTE)
    if notes:
        text += " (" + "; ".join(notes) + ")"
    return text


def summary_line(results: list[ClaimResult]) -> str:
    """``12 claims: 9 proved, 3 verified; 0 differ from expected`` (counts by verdict, then the mismatches)."""
    s = summarize(results)
    counts = ", ".join(f"{n} {v}" for v, n in s.counts.items())
    diff = f"{len(s.mismatches)} differ from expected" + (f" ({', '.join(s.mismatches)})" if s.mismatches else "")
    return f"{s.total} claims: {counts}; {diff}"
