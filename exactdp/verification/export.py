r"""Export every certificate of a verification run as JSON (``exactdp verify --certificates DIR``).

Layout of ``DIR``:

* ``<claim id>/<check>-<k>.json`` — one file per certificate: ``{"claim", "check", "verdict" (of the
  check), "scope", "rests_on", "certificate": Certificate.to_json()}``.  Every expression in it is a string in
  the safe reader's grammar and every number an exact string (``"3/7"``), so the file is data; it is
  re-checked independently by ``exactdp recheck DIR`` (:mod:`exactdp.recheck`).
* ``index.json`` — per claim its verdict, scope, rests_on, certificate files, its checks (name, verdict, whether
  supporting, certificate files) and, for a refuted claim, the exact counterexamples (data; ``exactdp analyze``
  re-checks a counterexample kernel); ``"sha256"`` maps every certificate file (relative path) to the SHA-256 of
  its bytes.  ``exactdp recheck DIR`` fails on a listed file that is missing or differs, on a file not listed,
  on a certificate whose claim or check is not the one it is filed under, and on a proved claim whose proving
  checks lack certificates.

The output is a pure function of the results (sorted, no timings), so the same seed gives the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from exactdp.atomic_io import replace_folder, replaceable_folder
from exactdp.errors import ExactDPError
from exactdp.recheck import INDEX, certificate_file_name
from exactdp.regular_files import read_text



def document_bytes(doc: dict) -> bytes:
    """The bytes written for a JSON document (certificate file or index)."""
    return (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


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
                 "counterexamples": [], "checks": []}
        for cr in r.checks:
            o = cr.outcome
            if o.counterexample:
                entry["counterexamples"].append({"check": cr.check.name, "counterexample": json_strings(o.counterexample)})
            listed = []
            for k, cert in enumerate(o.certificates):
                rel = f"{r.claim.id}/{certificate_file_name(cr.check.name, k)}"
                doc = {"claim": r.claim.id, "check": cr.check.name, "verdict": o.verdict.value, "scope": o.scope,
                       "rests_on": list(o.rests_on), "certificate": cert.to_json()}
                files.append((rel, doc))
                listed.append(rel)
            entry["certificates"] += listed
            entry["checks"].append({"name": cr.check.name, "verdict": o.verdict.value,
                                    "supporting": bool(cr.check.supporting), "certificates": listed})
        index["claims"][r.claim.id] = entry
    index["certificates"] = len(files)
    index["sha256"] = {rel: hashlib.sha256(document_bytes(doc)).hexdigest() for rel, doc in files}
    return files, index


#: the claim folder of an ``exactdp check --certificates DIR`` export (a user's conjecture, not a catalogue claim)
CHECK_CLAIM = "check"


#: the stated domain of a conjecture over each class of ``exactdp check`` (t = e^eps; [A] D-6, [G] Def. 2): the
#: certificates of a proof are bound to the conjecture's statement on it, as a catalogue claim's are to its
#: ``Claim.domain`` (:func:`exactdp.verification.engine.filed_under`)
CLASS_DOMAINS = {"ldp": ("t >= 1",), "approx-ldp": ("t >= 1", "delta >= 0", "delta <= 1"),
                 "pml": ("t >= 1", "c > 0", "N*c <= 1")}


#: the certificate kinds :func:`check_results` files under the conjecture by restating their own relations; a
#: synthesised proof's parametric-LP certificate already carries the conjecture on the class domain
#: (:func:`exactdp.verification.conjecture.synthesis.synthesise`), a region's combination is bound on the domain
#: and its region
BINDABLE = ("linear-combination", "symbolic-statements")


def check_results(result) -> list:
    """A proved ``exactdp check`` result (:class:`~exactdp.verification.conjecture.api.CheckResult`) as the one
    claim :data:`CHECK_CLAIM` with one check, ``exactdp check``, in the shape :func:`write_certificates` exports:
    ``exactdp recheck DIR`` then re-checks the proof's certificates as it does the catalogue's."""
    from dataclasses import replace
    from types import SimpleNamespace

    outcome = result.as_outcome()
    domain = tuple(dict.fromkeys(c for cls in result.classes for c in CLASS_DOMAINS.get(str(cls), ())))
    certs = tuple(c.states(CHECK_CLAIM, *dict.fromkeys((*domain, *c.region)))
                  if c.statement is None and c.kind in BINDABLE else c for c in outcome.certificates)
    outcome = replace(outcome, certificates=certs)
    claim = SimpleNamespace(id=CHECK_CLAIM, expected=outcome.verdict, reconstructed=False)
    check = SimpleNamespace(check=SimpleNamespace(name="exactdp check", supporting=False), outcome=outcome)
    return [SimpleNamespace(claim=claim, verdict=outcome.verdict, scope=outcome.scope, rests_on=outcome.rests_on,
                            checks=(check,))]


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
    docs = [(rel, document_bytes(doc)) for rel, doc in files] + [(INDEX, document_bytes(index))]
    keep: list[str] = []
    if root.is_dir():
        drop = _previous_export(root) | {INDEX}
        keep = [rel for rel in _entries(root) if rel not in drop]
    replace_folder(root, docs, "--certificates", keep=keep)
    return [Path(directory) / rel for rel, _ in docs]


def audit(results, directory) -> list[str]:
    """The engine's side of the binding: what differs between the folder ``directory`` and the export of
    ``results`` (engine :class:`ClaimResult`\\ s of the claims it holds, re-run with the same seed): a file that is
    missing, changed (its bytes are not those the engine derives — an edited name, scope or statement, a
    certificate moved in from another claim), or not the engine's; index.json's hashes and checks likewise.
    Empty when the folder is exactly what the engine writes."""
    root = Path(directory)
    files, index = records(results)
    out = []
    expected = {rel: document_bytes(doc) for rel, doc in files}
    for rel, data in expected.items():
        path = root / rel
        if not path.is_file():
            out.append(f"{rel}: missing")
        elif path.read_bytes() != data:
            out.append(f"{rel}: not the certificate the engine derives for claim {rel.split('/', 1)[0]}")
    claims = {r.claim.id for r in results}
    for path in sorted(root.rglob("*.json")):
        rel = path.relative_to(root).as_posix()
        if rel != INDEX and rel not in expected and rel.split("/", 1)[0] in claims:
            out.append(f"{rel}: a file the engine does not derive for claim {rel.split('/', 1)[0]}")
    try:
        old = json.loads((root / INDEX).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return out + [f"{INDEX}: unreadable ({exc})"]
    for cid in sorted(claims):
        if not isinstance(old.get("claims"), dict) or old["claims"].get(cid) != index["claims"][cid]:
            out.append(f"{INDEX}: the entry of claim {cid} is not the engine's")
    for rel in sorted(expected):
        if not isinstance(old.get("sha256"), dict) or old["sha256"].get(rel) != index["sha256"][rel]:
            out.append(f"{INDEX}: the SHA-256 of {rel} is not the engine's")
    return out
