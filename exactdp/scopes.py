r"""The scope text of a certificate, derived from its checked data (never free text).

A certificate says what it covers in two parts: the *sizes* its structural argument ranges over (``"all N, M"``,
``"N = 3, M = 2"``, ``"all n >= 1"``; a small grammar, :data:`SIZES`) and the parameter region on which its
identities and signs are decided — its ``region`` inequalities and its parameters' sign assumptions, or, for a
certificate at one point, that point.  :func:`scope_text` renders both; the engine
(:class:`exactdp.algebra.certificates.Certificate`) and the independent re-check (:mod:`exactdp.recheck`) both
compare a certificate's ``scope`` with it, so an edited scope is rejected and a region made empty or moved is
visible in the text that the reports show.
"""

from __future__ import annotations

import re

_NAME = r"[A-Za-z][A-Za-z0-9_]*'*"
#: the sizes part: "all N, M[, M']", "all n >= 1", "N = 3[, M = 2]"
SIZES = re.compile(rf"all {_NAME}(, {_NAME})*|all {_NAME} >= \d+|{_NAME} = \d+(, {_NAME} = \d+)*")

_SIGNS = {"positive": "> 0", "nonnegative": ">= 0", "negative": "< 0", "nonpositive": "<= 0", "nonzero": "!= 0",
          "integer": "integer"}


def sizes_of(text: str) -> str:
    """The sizes part at the head of a scope text (before its first ``;``), or ``""`` if it is not one."""
    head = str(text).split(";", 1)[0].strip()
    return head if SIZES.fullmatch(head) and head != "all parameters" else ""


def size_names(sizes: str) -> set[str]:
    """The names a sizes text quantifies over (``"all N, M"`` → {N, M}; ``"N = 3"`` → {N})."""
    return set(re.findall(_NAME, sizes.replace("all ", " ", 1))) if sizes else set()


def with_sizes(sizes: str, names) -> str:
    """``sizes`` extended by ``names`` (an ``"all …"`` text; ``"all n >= 1"`` and ``"N = 3"`` forms are kept)."""
    missing = sorted(set(names) - size_names(sizes))
    if not missing or (sizes and not re.fullmatch(rf"all {_NAME}(, {_NAME})*", sizes)):
        return sizes
    have = [n.strip() for n in sizes[4:].split(",")] if sizes else []
    return "all " + ", ".join(have + missing)


def valid_sizes(sizes: str) -> bool:
    return sizes == "" or SIZES.fullmatch(sizes) is not None


def scope_text(sizes: str, assumptions, region, point=()) -> str:
    """``"<sizes>; <region>"``: the sizes (if any), then the point (``"the point t = 2, c = 1/4"``) or the region's
    inequalities and the parameters' sign assumptions, or ``"all parameters"`` when nothing restricts them."""
    if point:
        where = "the point " + ", ".join(f"{k} = {v}" for k, v in point)
    else:
        conds = [str(r) for r in region]
        for name, assumed in assumptions:  # the strongest sign assumption of each parameter, and integer
            given = {s.strip() for s in str(assumed).split(",")}
            sign = next((a for a in ("positive", "negative", "nonnegative", "nonpositive", "nonzero") if a in given),
                        None)
            conds += [f"{name} {_SIGNS[a]}" for a in (sign, "integer") if a in given]
        where = ", ".join(conds) or "all parameters"
    return "; ".join(p for p in (sizes, where) if p)


__all__ = ["SIZES", "scope_text", "size_names", "sizes_of", "valid_sizes", "with_sizes"]
