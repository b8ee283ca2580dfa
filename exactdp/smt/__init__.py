r"""An independent second checker: every certificate's obligations decided by two SMT solvers, z3 and cvc5.

``exactdp verify --certificates DIR`` exports the certificates behind the verdicts; :mod:`exactdp.recheck`
re-checks them with sympy.  This package checks the same files a third way: each certificate's
identity-and-sign obligations are written as SMT-LIB 2 problems (:mod:`.obligations`, terms by
:mod:`.smtlib`) from the data the safe reader returns, and each problem is given to **z3** and to **cvc5**
(:mod:`.solvers`), which share no code with each other, with sympy or with exactdp's prover.

Each solver is asked an obligation in up to four encodings, until one answer is conclusive: with integer
parameters first read as reals (an ``unsat`` there holds for the integers too), then as integers; each first
with denominators cleared (:mod:`.cleared`), then as written.  Answers are cached per problem text for the
run, so regions and statements shared by several certificates are decided once.

Per obligation: **confirmed** when both solvers give the expected answer (``unsat`` for "holds on the
region", ``sat`` for "the region is not empty"); **refuted** when a solver gives the opposite answer —
with its model as the counterexample (a model that relies on ``exp`` / ``log`` read as arbitrary functions
or on an integer parameter read as a real is not a counterexample, and such an answer counts as unknown);
**unknown** otherwise (time limit, incompleteness of nonlinear integer arithmetic, a solver error).  A
certificate is CONFIRMED when every obligation is, REFUTED when one is refuted or its data are malformed or
not bound to it (``recheck``'s rules: the scope text its data give, integer parameters among the sizes, no
name both a parameter and a variable; and no statement whose two sides are the same text), UNKNOWN otherwise:
unknown is not a pass.

:func:`oracle` offers the same solvers for one relation on a region (for instance where the prover answers
UNKNOWN in four parameters); its answer is evidence only — a verdict of proved still needs a certificate.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from exactdp.claim_statement import NOT_BOUND
from exactdp.errors import ParameterError
from exactdp.limits import ResourceLimitError, require
from exactdp.numbers.reader import ReadError
from exactdp.smt.obligations import SAT, UNSAT, Obligation, not_bound, obligations
from exactdp.smt.smtlib import Unsupported
from exactdp.smt.solvers import SOLVERS, Answer, SolversMissing, ask, require_solvers

CONFIRMED, REFUTED, UNKNOWN = "CONFIRMED", "REFUTED", "UNKNOWN"

#: the default time limit of one solver on one obligation, in seconds
DEFAULT_TIMEOUT = 10

__all__ = ["CONFIRMED", "REFUTED", "UNKNOWN", "DEFAULT_TIMEOUT", "SmtCheck", "ObligationResult", "SolversMissing",
           "smt_check_certificate", "smt_check_directory", "smt_summary", "oracle", "OracleEvidence", "require_solvers"]


@dataclass
class ObligationResult:
    """One obligation: its label, the expected answer, each solver's answer and the resulting status."""

    label: str
    expect: str
    answers: list
    status: str
    counterexample: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"label": self.label, "expect": self.expect, "status": self.status,
                "answers": {a.solver: a.result for a in self.answers},
                "encodings": {a.solver: a.encoding for a in self.answers if a.encoding},
                "seconds": {a.solver: a.seconds for a in self.answers},
                "reasons": {a.solver: a.reason for a in self.answers if a.reason},
                "counterexample": self.counterexample}

    def line(self) -> str:
        said = ", ".join(f"{a.solver} {a.result}" + (f" ({a.reason[:60]})" if a.reason else "") for a in self.answers)
        out = f"{self.status.lower()}: {self.label[:100]} [expected {self.expect}; {said}]"
        if self.counterexample:
            out += " counterexample: " + ", ".join(f"{k} = {v}" for k, v in self.counterexample.items())
        return out


def _encodings(ob: Obligation) -> list[tuple[str, Obligation]]:
    """The problems that stand for ``ob``, in the order they are asked: for an expected-unsat obligation with
    integer parameters first its real relaxation, then the problem itself; each first with its denominators
    cleared (:mod:`exactdp.smt.cleared`: polynomials, which both solvers decide without the fresh unknowns
    that quotients cost them), then as written."""
    out = []
    for where, o in ((" (N real)", ob.relaxed), ("", ob)):
        if o is not None:
            out += ([(f"cleared{where}", o.cleared)] if o.cleared is not None else []) + [(f"direct{where}", o)]
    return out


def _conclusive(ob: Obligation, encoding: str, o: Obligation, result: str) -> bool:
    """Whether ``result`` (sat / unsat) on the encoding ``o`` of ``ob`` decides ``ob``.  ``unsat`` always does:
    the relaxation to real N and the functions read as arbitrary ones only add points.  ``sat`` does only on a
    problem without either: a model that needs N non-integer or exp / log to be other functions is no point."""
    if result == UNSAT:
        return True
    return result == SAT and "N real" not in encoding and not o.abstracted


def _ask(ob: Obligation, solver: str, timeout: float, cache: dict) -> Answer:
    """One solver's answer to ``ob``: the first conclusive answer over its encodings, or unknown with the
    reasons of each encoding.  ``cache`` maps (solver, time limit, problem text) to an earlier answer."""
    reasons, seconds, satisfied = [], 0.0, set()
    for encoding, o in _encodings(ob):
        variant = "N real" in encoding
        if variant in satisfied:  # the two encodings of one problem are equisatisfiable: no other answer
            continue
        key = (solver, timeout, hashlib.sha256(o.text.encode()).hexdigest())
        if key not in cache:
            cache[key] = ask(o.text, o.shown, int(timeout * 1000), (solver,))[0]
            seconds += cache[key].seconds
        a = cache[key]
        if a.result in (SAT, UNSAT) and _conclusive(ob, encoding, o, a.result):
            return dataclasses.replace(a, encoding=encoding, seconds=round(seconds, 3))
        if a.result == SAT:
            satisfied.add(variant)
            read = ["the integer parameters read as reals"] * variant + [
                "exp / log / t**n read as arbitrary functions"] * o.abstracted
            why = f"sat with {' and '.join(read)}: not a counterexample"
        else:
            why = a.reason or a.result
        reasons.append(f"{encoding}: {why}")
    return Answer(solver, "unknown", reason="; ".join(reasons), seconds=round(seconds, 3))


def _judge(ob: Obligation, answers: list[Answer]) -> ObligationResult:
    opposite = SAT if ob.expect == UNSAT else UNSAT
    if any(a.result == opposite for a in answers):
        status = REFUTED
    elif all(a.result == ob.expect for a in answers):
        status = CONFIRMED
    else:
        status = UNKNOWN
    model = next((dict(a.model) for a in answers if a.result == SAT), {}) if status == REFUTED else {}
    label = ob.label
    if status == CONFIRMED and any("N real" in a.encoding for a in answers):
        label += " (integer parameters read as reals)"
    return ObligationResult(label, ob.expect, answers, status, model)


def decide_obligation(ob: Obligation, timeout: float, solvers=SOLVERS, cache: dict | None = None
                      ) -> list[ObligationResult]:
    """The obligation's result, each solver asked every encoding (:func:`_encodings`) until one answer is
    conclusive; a conjunction that is not confirmed is split into its parts."""
    cache = {} if cache is None else cache
    res = _judge(ob, [_ask(ob, name, timeout, cache) for name in solvers])
    if res.status == CONFIRMED or not ob.parts:
        return [res]
    return [r for part in ob.parts for r in decide_obligation(part, timeout, solvers, cache)]


@dataclass
class SmtCheck:
    """The SMT check of one certificate: CONFIRMED / REFUTED / UNKNOWN, per-obligation results, reasons."""

    name: str
    kind: str
    source: str = ""
    status: str = CONFIRMED
    results: list = field(default_factory=list)
    reasons: list = field(default_factory=list)

    def add(self, r: ObligationResult) -> None:
        self.results.append(r)
        if r.status == REFUTED:
            self.status = REFUTED
        elif r.status == UNKNOWN and self.status == CONFIRMED:
            self.status = UNKNOWN

    def counts(self) -> dict:
        return {s: sum(r.status == s for r in self.results) for s in (CONFIRMED, REFUTED, UNKNOWN)}

    def line(self) -> str:
        n = self.counts()
        head = (f"{self.status:9} {self.kind:20} {self.name}" + (f"  [{self.source}]" if self.source else "")
                + f"\n          {n[CONFIRMED]} of {len(self.results)} obligations confirmed by z3 and cvc5")
        for why in self.reasons[:3]:
            head += f"\n          {'rejected' if self.status == REFUTED else 'not checked'}: {why}"
        bad = [r for r in self.results if r.status != CONFIRMED]
        for r in bad[:3]:
            head += "\n          " + r.line()
        if len(bad) > 3:
            head += f"\n          and {len(bad) - 3} more"
        return head

    def to_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind, "source": self.source, "status": self.status,
                "reasons": self.reasons, "obligations": [r.to_dict() for r in self.results]}


def smt_check_certificate(d, source: str = "", timeout: float = DEFAULT_TIMEOUT, solvers=SOLVERS,
                          cache: dict | None = None, claim: str | None = None) -> SmtCheck:
    """Decide every obligation of one certificate (its JSON dict) with z3 and cvc5; never raises on bad data.
    ``cache``: answers already given in this run (by problem text), shared between certificates; ``claim``: the
    claim it is filed under (its statement must be that claim's).  A statement not in machine form leaves the
    certificate UNKNOWN ("statement not bound")."""
    require_solvers()
    name = str(d.get("name", "?")) if isinstance(d, dict) else "?"
    kind = str(d.get("kind", "?")) if isinstance(d, dict) else "?"
    out = SmtCheck(name, kind, source)
    try:
        obs = obligations(d, claim)
    except (ParameterError, ReadError) as exc:
        out.status = REFUTED
        out.reasons.append(f"malformed or unreadable data: {str(exc)[:300]}")
        return out
    except Unsupported as exc:
        out.status = UNKNOWN
        out.reasons.append(f"not written to SMT-LIB: {str(exc)[:300]}")
        return out
    except ResourceLimitError as exc:
        out.status = UNKNOWN
        out.reasons.append(f"not checked: {exc}")
        return out
    except (TypeError, ValueError, AttributeError, KeyError) as exc:
        out.status = REFUTED
        out.reasons.append(f"malformed certificate ({type(exc).__name__}: {str(exc)[:200]})")
        return out
    for ob in obs:
        for r in decide_obligation(ob, timeout, solvers, cache):
            out.add(r)
    unbound = not_bound(d)
    if unbound:
        out.reasons.append(f"{NOT_BOUND}: {unbound}")
        if out.status == CONFIRMED:
            out.status = UNKNOWN
    return out


def smt_summary(checks: list[SmtCheck]) -> str:
    """One line: how many certificates and obligations both solvers confirmed."""
    n = {s: sum(c.status == s for c in checks) for s in (CONFIRMED, REFUTED, UNKNOWN)}
    obs = sum(len(c.results) for c in checks)
    ok = sum(r.status == CONFIRMED for c in checks for r in c.results)
    return (f"SMT: {len(checks)} certificates: {n[CONFIRMED]} CONFIRMED, {n[REFUTED]} REFUTED, {n[UNKNOWN]} UNKNOWN; "
            f"{ok} of {obs} obligations confirmed by z3 and cvc5")


def _timeout_ok(timeout) -> float:
    try:
        t = float(timeout)
    except (TypeError, ValueError):
        raise ParameterError(f"--smt-timeout: expected a number of seconds, got {str(timeout)[:40]!r}") from None
    if not 0 < t <= 3600:
        raise ParameterError(f"--smt-timeout: the time limit per obligation must lie in (0, 3600] seconds, "
                             f"got {timeout}")
    return t


def smt_check_directory(directory, timeout: float = DEFAULT_TIMEOUT, progress=None) -> list[SmtCheck]:
    """Every certificate of an exported folder, read against its ``index.json`` as ``recheck`` reads it
    (:func:`exactdp.recheck.filed_certificates`): a listed file missing or changed, a file the index does not list,
    a certificate filed under another claim or check, a proved claim without certificates is REFUTED; each
    certificate filed where the index says is decided with its claim's statement (a certificate of a proved
    claim without one is UNKNOWN: "statement not bound")."""
    from exactdp.recheck import filed_certificates  # deferred: start-up

    require_solvers()
    timeout = _timeout_ok(timeout)
    failures, filed = filed_certificates(directory)
    out: list[SmtCheck] = [SmtCheck(f.name, f.kind, f.source, REFUTED, reasons=list(f.reasons)) for f in failures]
    seen: dict[str, SmtCheck] = {}
    by_claim: dict[str, list] = {}  # (certificate, its check) per claim: the citations are checked per claim
    cache: dict = {}  # one problem text asked once per solver (regions and statements repeat across certificates)
    for f in filed:
        cert, label = f.certificate, f.claim
        if isinstance(cert, Path):  # no index: every file, filed under no claim
            require("max_file_bytes", cert.stat().st_size, f"reading the certificate file {cert.name}")
            try:
                doc = json.loads(cert.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
                out.append(SmtCheck(cert.name, "?", str(cert), REFUTED, reasons=[f"unreadable JSON: {str(exc)[:200]}"]))
                continue
            cert = doc.get("certificate", doc) if isinstance(doc, dict) else doc
            label = str(doc.get("claim", "")) if isinstance(doc, dict) else ""
        # a certificate filed twice is decided once (per claim when it carries a statement, which names its claim)
        bound_to = f.claim or None if isinstance(cert, dict) and cert.get("statement") is not None else None
        key = json.dumps([cert, bound_to], sort_keys=True)
        if key not in seen:
            seen[key] = smt_check_certificate(cert, label or f.rel, timeout, cache=cache, claim=f.claim or None)
            if f.proved and isinstance(cert, dict) and cert.get("statement") is None:
                seen[key].reasons.append(f"{NOT_BOUND}: the certificate of a {f.claim} proof carries no statement "
                                         f"of the claim")
                if seen[key].status == CONFIRMED:
                    seen[key].status = UNKNOWN
        out.append(dataclasses.replace(seen[key], source=label or f.rel))
        if not isinstance(f.certificate, Path):
            by_claim.setdefault(f.claim, []).append((cert, out[-1]))
    for checks in by_claim.values():
        _citations_met(checks)
    for c in out:
        if progress is not None:
            progress(c)
    return out


def _citations_met(checks: list[tuple]) -> None:
    """The citations of one claim's certificates (an ``instantiation``'s source, a ``cases``' parts), checked as
    ``recheck`` checks them (:func:`exactdp.recheck.unmet_citations`, structural, no solver): a cited certificate
    not among the claim's, or none of that name with the copied statement, REFUTED; one there but not CONFIRMED,
    UNKNOWN.  ``checks``: (certificate JSON, its SmtCheck), the checks possibly shared by a certificate filed twice,
    so their lists are replaced, never appended to."""
    from exactdp.claim_statement import ClaimStatement, cites_of
    from exactdp.recheck import unmet_citations

    def statement(cert):
        try:
            return ClaimStatement.from_json(cert["statement"]).to_json()
        except (ParameterError, TypeError, KeyError):
            return None

    stated = [(c.name, statement(cert), c.status == CONFIRMED) for cert, c in checks]
    for i, (cert, c) in enumerate(checks):
        try:
            cites = cites_of(cert)
        except (ParameterError, TypeError):
            continue  # a copied statement of another shape: the certificate is refuted as malformed already
        others = stated[:i] + stated[i + 1:]
        for rejected, why in unmet_citations(cites, others, "confirmed"):
            c.reasons = [*c.reasons, why]
            if rejected:
                c.status = REFUTED
            elif c.status == CONFIRMED:
                c.status = UNKNOWN


@dataclass(frozen=True)
class OracleEvidence:
    """What z3 and cvc5 say about one relation on a region: evidence, never a proof.

    ``status``: CONFIRMED (both found the negation unsat), REFUTED (a solver found a point of the region where the
    relation fails or is undefined: ``counterexample``), UNKNOWN otherwise."""

    status: str
    answers: tuple
    counterexample: dict

    def __str__(self) -> str:
        said = ", ".join(f"{a.solver}: {a.result}" for a in self.answers)
        tail = f"; counterexample {self.counterexample}" if self.counterexample else ""
        return f"SMT evidence (not a proof): {self.status.lower()} ({said}){tail}"


def oracle(relation, conditions=(), *, integers=(), timeout: float = DEFAULT_TIMEOUT) -> OracleEvidence:
    """Ask z3 and cvc5 whether the sympy ``relation`` holds (and is defined) at every real point satisfying the
    sympy ``conditions``; ``integers`` are symbols ranging over the integers.

    For a question the prover leaves UNKNOWN (four or more parameters, say): the answer is reported as
    evidence beside the verdict and never turns it into proved — that still needs a re-checkable certificate.
    """
    from exactdp.smt.obligations import Builder  # deferred: start-up

    require_solvers()
    timeout = _timeout_ok(timeout)
    syms = set(relation.free_symbols).union(*[set(c.free_symbols) for c in conditions])
    ints = {s for s in syms if s in set(integers) or s.is_integer}
    b = Builder(ints)
    ob = b.holds("oracle", list(conditions), relation)
    (r,) = decide_obligation(ob, timeout)
    return OracleEvidence(r.status, tuple(r.answers), r.counterexample)
