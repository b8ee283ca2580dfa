r"""An independent second checker: every certificate's obligations decided by two SMT solvers, z3 and cvc5.

``exactdp verify --certificates DIR`` exports the certificates behind the verdicts; :mod:`exactdp.recheck`
re-checks them with sympy.  This package checks the same files a third way: each certificate's
identity-and-sign obligations are written as SMT-LIB 2 problems (:mod:`.obligations`, terms by
:mod:`.smtlib`) from the data the safe reader returns, and each problem is given to **z3** and to **cvc5**
(:mod:`.solvers`), which share no code with each other, with sympy or with exactdp's prover.

Per obligation: **confirmed** when both solvers give the expected answer (``unsat`` for "holds on the
region", ``sat`` for "the region is not empty"); **refuted** when a solver gives the opposite answer —
with its model as the counterexample (a model that relies on ``exp`` / ``log`` read as arbitrary functions
is not a counterexample, and such an answer counts as unknown); **unknown** otherwise (time limit,
incompleteness of nonlinear integer arithmetic, a solver error).  A certificate is CONFIRMED when every
obligation is, REFUTED when one is refuted or its data are malformed, UNKNOWN otherwise: unknown is not a pass.

:func:`oracle` offers the same solvers for one relation on a region (for instance where the prover answers
UNKNOWN in four parameters); its answer is evidence only — a verdict of proved still needs a certificate.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path

from exactdp.errors import ParameterError
from exactdp.limits import ResourceLimitError, require
from exactdp.numbers.reader import ReadError
from exactdp.smt.obligations import SAT, UNSAT, Obligation, obligations
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
                "reasons": {a.solver: a.reason for a in self.answers if a.reason},
                "counterexample": self.counterexample}

    def line(self) -> str:
        said = ", ".join(f"{a.solver} {a.result}" + (f" ({a.reason[:60]})" if a.reason else "") for a in self.answers)
        out = f"{self.status.lower()}: {self.label[:100]} [expected {self.expect}; {said}]"
        if self.counterexample:
            out += " counterexample: " + ", ".join(f"{k} = {v}" for k, v in self.counterexample.items())
        return out


def _judge(ob: Obligation, answers: list[Answer]) -> ObligationResult:
    opposite = SAT if ob.expect == UNSAT else UNSAT
    status, model = CONFIRMED, {}  # type: str, dict
    for a in answers:
        if a.result == opposite and not (a.result == SAT and ob.abstracted):
            status = REFUTED
            model = model or dict(a.model)
        elif a.result != ob.expect and status == CONFIRMED:
            if a.result == SAT and ob.abstracted:
                a.reason = a.reason or "sat only with exp/log read as arbitrary functions: not a counterexample"
            status = UNKNOWN
    if ob.expect == SAT and status == REFUTED:
        model = {}  # an empty region has no model
    return ObligationResult(ob.label, ob.expect, answers, status, model)


def decide_obligation(ob: Obligation, timeout: float, solvers=SOLVERS) -> list[ObligationResult]:
    """The obligation's result; a conjunction that is not confirmed is split into its parts.  With integer
    parameters the real relaxation is asked first (its unsat is the integers' unsat)."""
    if ob.relaxed is not None:
        res = _judge(ob.relaxed, ask(ob.relaxed.text, ob.relaxed.shown, int(timeout * 1000), solvers))
        if res.status == CONFIRMED:
            res.label += " (integer parameters read as reals)"
            return [res]
    res = _judge(ob, ask(ob.text, ob.shown, int(timeout * 1000), solvers))
    if res.status == CONFIRMED or not ob.parts:
        return [res]
    return [r for part in ob.parts for r in decide_obligation(part, timeout, solvers)]


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


def smt_check_certificate(d, source: str = "", timeout: float = DEFAULT_TIMEOUT, solvers=SOLVERS) -> SmtCheck:
    """Decide every obligation of one certificate (its JSON dict) with z3 and cvc5; never raises on bad data."""
    require_solvers()
    name = str(d.get("name", "?")) if isinstance(d, dict) else "?"
    kind = str(d.get("kind", "?")) if isinstance(d, dict) else "?"
    out = SmtCheck(name, kind, source)
    try:
        obs = obligations(d)
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
        for r in decide_obligation(ob, timeout, solvers):
            out.add(r)
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
    """Every certificate file under ``directory`` (as :func:`exactdp.recheck.certificate_files` finds them)."""
    from exactdp.recheck import certificate_files

    require_solvers()
    timeout = _timeout_ok(timeout)
    out: list[SmtCheck] = []
    seen: dict[str, SmtCheck] = {}
    for f in certificate_files(directory):
        require("max_file_bytes", f.stat().st_size, f"reading the certificate file {f.name}")
        try:
            doc = json.loads(Path(f).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            bad = SmtCheck(f.name, "?", str(f), REFUTED, reasons=[f"unreadable JSON: {str(exc)[:200]}"])
            out.append(bad)
            continue
        cert = doc.get("certificate", doc) if isinstance(doc, dict) else doc
        label = str(doc.get("claim", "")) if isinstance(doc, dict) else ""
        key = json.dumps(cert, sort_keys=True)  # a certificate filed under several claims is decided once
        if key not in seen:
            seen[key] = smt_check_certificate(cert, label or f.name, timeout)
        out.append(dataclasses.replace(seen[key], source=label or f.name))
        if progress is not None:
            progress(out[-1])
    return out


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
    from exactdp.smt.obligations import Builder

    require_solvers()
    timeout = _timeout_ok(timeout)
    syms = set(relation.free_symbols).union(*[set(c.free_symbols) for c in conditions])
    ints = {s for s in syms if s in set(integers) or s.is_integer}
    b = Builder(ints)
    ob = b.holds("oracle", list(conditions), relation)
    r = _judge(ob, ask(ob.text, ob.shown, int(timeout * 1000)))
    return OracleEvidence(r.status, tuple(r.answers), r.counterexample)
