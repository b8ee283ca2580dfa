r"""Export every certificate of a verification run as JSON (``exactdp verify --certificates DIR``, issue 12).

Layout of ``DIR``:

* ``<claim id>/<check>-<k>.json`` — one file per certificate: ``{"claim", "check", "verdict" (of the
  check), "scope", "rests_on", "certificate": Certificate.to_json()}``.  Every expression in it is a string in
  the safe reader's grammar and every number an exact string (``"3/7"``), so the file is data; it is
  re-checked independently by ``exactdp recheck DIR`` (:mod:`exactdp.recheck`).
* ``index.json`` — per claim its verdict, scope, rests_on, certificate files and, for a refuted claim, the
  exact counterexamples (data; ``exactdp analyze`` re-checks a counterexample kernel).

The output is a pure function of the results (sorted, no timings), so the same seed gives the same bytes.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from exactdp.atomic_io import replace_folder, replaceable_folder
from exactdp.errors import ExactDPError
from exactdp.regular_files import read_text

#: the index file written next to the certificate folders
INDEX = "index.json"


def _slug(text: str) -> str:
    s = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-")
    return (s or "check")[:60]


def json_strings(v):
    """``v`` made JSON-ready: dicts and sequences kept, strings, bools, ints and None as they are, every other
    value (an exact number, a sympy expression) as its string (shared with :mod:`exactdp.output.report`)."""
    if isinstance(v, dict):
        return {str(k): json_strings(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [json_strings(x) for x in v]
    if isinstance(v, (str, bool, int)) or v is None:
        return v
    return str(v)


def records(results) -> tuple[list[tuple[str, dict]], dict]:
    """(files, index): the certificate files as (relative path, document) and the index document."""
    files: list[tuple[str, dict]] = []
    index: dict = {"claims": {}}
    for r in results:
        entry = {"verdict": r.verdict.value, "expected": r.claim.expected.value, "scope": r.scope,
                 "rests_on": list(r.rests_on), "reconstructed": r.claim.reconstructed, "certificates": [],
                 "counterexamples": []}
        for cr in r.checks:
            o = cr.outcome
            if o.counterexample:
                entry["counterexamples"].append({"check": cr.check.name, "counterexample": json_strings(o.counterexample)})
            for k, cert in enumerate(o.certificates):
                rel = f"{r.claim.id}/{_slug(cr.check.name)}-{k}.json"
                doc = {"claim": r.claim.id, "check": cr.check.name, "verdict": o.verdict.value, "scope": o.scope,
                       "rests_on": list(o.rests_on), "certificate": cert.to_json()}
                files.append((rel, doc))
                entry["certificates"].append(rel)
        index["claims"][r.claim.id] = entry
    index["certificates"] = len(files)
    return files, index


def _previous_export(root: Path) -> set[str]:
    """The certificate files (``*.json``) a previous export listed in ``root/index.json``, relative to
    ``root``: a re-export drops them, so that ``exactdp recheck`` never finds a stale certificate."""
    try:
        old = json.loads(read_text(root / INDEX, "--certificates"))
        listed = [rel for entry in old["claims"].values() for rel in entry["certificates"]]
    except (ExactDPError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return set()
    return {os.path.normpath(str(rel)) for rel in listed if str(rel).endswith(".json")}


def _entries(root: Path) -> list[str]:
    """Every file and symbolic link under ``root`` (links not followed), relative to ``root``."""
    out = []
    for folder, dirs, names in os.walk(root):
        rel = os.path.relpath(folder, root)
        links = [d for d in dirs if os.path.islink(os.path.join(folder, d))]
        out += [os.path.normpath(os.path.join(rel, n)) for n in (*names, *links)]
    return out


def write_certificates(results, directory) -> list[Path]:
    """Write the certificates of ``results`` (engine :class:`ClaimResult`\\ s) under ``directory``; return the
    files written (the index last).  The folder is created when missing.

    The whole export is written into a sibling temporary folder and swapped in
    (:func:`exactdp.atomic_io.replace_folder`), so an interrupted or failed run leaves the previous export
    intact.  Files of a previous export that its index lists are dropped; any other entry of the folder is
    kept."""
    root = replaceable_folder(directory, "--certificates")
    files, index = records(results)
    docs = [(rel, _dump(doc)) for rel, doc in files] + [(INDEX, _dump(index))]
    keep: list[str] = []
    if root.is_dir():
        drop = _previous_export(root) | {INDEX}
        keep = [rel for rel in _entries(root) if rel not in drop]
    replace_folder(root, docs, "--certificates", keep=keep)
    return [Path(directory) / rel for rel, _ in docs]


def _dump(doc) -> bytes:
    return (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
