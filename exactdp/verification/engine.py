r"""Run registered claims: selection, deterministic seeding, timing and a progress bar.

``run_claims(claims, CheckContext(seed, quick))`` runs every check of every claim in id order and
returns :class:`ClaimResult`\ s.  A check that raises is recorded as UNDECIDED with the exception as
the reason (so it shows up as "differs from expected", never as passing).  Timings are measured here
but reports include them only on request, so the same seed gives byte-identical reports.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import TextIO

from exactdp.errors import ParameterError
from exactdp.limits import limit, limits
from exactdp.numbers.rich import RichDisplay
from exactdp.verification.claims import (
    Check,
    CheckContext,
    Claim,
    Outcome,
    Verdict,
    claim_verdict,
    load_all,
    rests_on_of,
    scope_of,
)

#: selectors naming a whole paper / group of claims (the id prefix before the first dot)
GROUPS = ("asoodeh2021", "grosse2026", "background", "findings")


@dataclass(frozen=True)
class CheckResult:
    check: Check
    outcome: Outcome
    seconds: float


@dataclass(frozen=True)
class ClaimResult(RichDisplay):
    claim: Claim
    checks: tuple[CheckResult, ...]
    verdict: Verdict
    seconds: float

    @property
    def instances(self) -> int:
        return sum(c.outcome.instances for c in self.checks)

    @property
    def matches(self) -> bool:
        return self.verdict is self.claim.expected

    @property
    def outcomes(self) -> list[Outcome]:
        return [c.outcome for c in self.checks]

    @property
    def scope(self) -> str:
        """What the verdict covers: the proved checks' scopes ("all N, M", "N = 2..8"), else "instances"; a
        verified claim part of which is proved (B-8 for two inputs) says so: "proved for <scopes>; instances beyond"."""
        if self.verdict in (Verdict.PROVED, Verdict.PROVED_MODULO):
            return scope_of(self.outcomes)
        if self.verdict is not Verdict.VERIFIED:
            return ""
        if any(o.verdict in (Verdict.PROVED, Verdict.PROVED_MODULO) for o in self.outcomes):
            return f"proved for {scope_of(self.outcomes)}; instances beyond"
        return "instances"

    @property
    def scope_step(self):
        """The :attr:`scope` with prose and formulas apart, each formula read once by the safe reader
        (:func:`exactdp.numbers.formula_text.scope_step`): what every output prints it from."""
        from exactdp.numbers.formula_text import scope_step

        return scope_step(self.scope)

    @property
    def certificates(self) -> tuple:
        """Every certificate of the claim's checks (each was re-checked when its outcome was built)."""
        return tuple(c for r in self.checks for c in r.outcome.certificates)

    @property
    def rests_on(self) -> tuple[str, ...]:
        """The cited results the claim's proof rests on (non-empty for proved-modulo)."""
        return rests_on_of(self.outcomes)


#: the work budget (``max_work``) of a claim's check: the instances are the project's own, of sizes chosen
#: so that the full run takes about a minute, so the per-computation limit that guards *user* sizes
#: (default 10^9) is raised for them; ``exactdp --max-seconds`` still bounds the whole run
CHECK_WORK = 10**12


def filed_under(claim: Claim, outcome: Outcome, carried: set | None = None) -> Outcome:
    """``outcome`` with each certificate of a proved / proved-modulo verdict filed under ``claim``.

    A certificate the proof module bound to a statement must carry that claim's (or a step's of it, or a structural
    lemma's; else ValueError).  One it did not bind is bound to the first part of the claim's written statement
    (:attr:`Claim.written`) that its conclusion implies — decided by the prover (:func:`carrying`) —, else it is a
    step of the proof: bound to its own relations under ``"step of <claim>"`` on the claim's stated domain
    (:meth:`exactdp.algebra.certificates.Certificate.states`).  A claim without a written statement files them all
    as steps (nothing then proves the claim's statement: a proved claim needs one, tests/proofs/test_statements.py,
    and ``recheck`` rejects a proved claim none of whose certificates carries it); with no domain either, they stay
    unbound and ``recheck`` reports them "statement not bound".  ``carried``: the parts certificates of
    the claim's other checks already carry (updated), tried last.  The outcome is built again, so the one place
    that issues "proved" re-checks the bindings."""
    from exactdp.claim_statement import files_under, step_of  # deferred: start-up

    if outcome.verdict not in (Verdict.PROVED, Verdict.PROVED_MODULO):
        return outcome
    carried = set() if carried is None else carried
    certs: list = []
    for cert in outcome.certificates:
        if cert.statement is None and claim.written:  # a part no certificate carries yet is tried first
            parts = sorted(claim.written, key=lambda p: p in carried)
            bound = carrying(cert, parts)
            chain = instantiating(cert, parts, claim.id) if bound is None else None
            if chain is not None:  # the statement in u (v) is a step; its instance at u = N*c carries the part
                bound, inst = chain
                carried.add(inst.statement)
            cert = bound or cert.states(step_of(claim.id), *(claim.domain or ()))
            carried.add(cert.statement)
            if chain is not None:
                certs += [cert, inst]
                continue
        elif cert.statement is None and claim.domain is not None:  # no written statement: its proof has steps only
            cert = cert.states(step_of(claim.id), *claim.domain)
        elif cert.statement is not None and not files_under(cert.statement.claim, claim.id):
            raise ValueError(f"certificate {cert.name!r} carries the statement of claim {cert.statement.claim}, but "
                             f"it is filed under {claim.id}")
        certs.append(cert)
    return replace(outcome, certificates=tuple(certs))


def carrying(cert, parts):
    """``cert`` bound to the first of ``parts`` (written statement parts) that it proves — the binding decided by
    the engine's check (:func:`exactdp.algebra.certificates.check`: its conclusion implies the part on a region
    containing the part's non-empty domain) —, or None when it proves none of them.  Only parts quantifying the
    certificate's own variables are tried (a part's reduction names the variables its certificate combines)."""
    from exactdp.algebra.certificates import check, statement_binding
    from exactdp.numbers.truth import Truth

    quantified = set(getattr(cert, "variables", ()))
    for part in parts:
        if set(part.variables) != quantified:  # a part quantifies the variables of the certificate that proves it
            continue
        bound = cert.bound_to(part)
        try:  # the reduction check(bound) decides (remembered: reduced once)
            structural = statement_binding(bound)
        except Exception:  # noqa: BLE001 - an unreadable pairing is no candidate; check() would say FALSE
            continue
        if structural.failures or structural.unbound:
            continue
        if check(bound).truth is Truth.TRUE:
            return bound
    return None


def instantiating(cert, parts, claim: str, table=None):
    """(``cert`` filed as a step of ``claim`` on its own region, the checked ``instantiation`` of that step's
    statement at the papers' quantities — u ↦ N·c, v ↦ N − l, α ↦ c·q: the declared ``table`` of (name, image,
    whether a variable is replaced too), default :data:`exactdp.theory.class_certificates.SUBSTITUTIONS` — bound to
    the first of ``parts`` it carries), or None.

    The class certificates are written in u = N·c (v = N − l) so that each sign condition has two parameters; the
    claims state them in N ([G] Thm 1: η_TV ≤ (e^ε − 1)/(e^ε(1 − Nc) + 1) for every N ≥ 2 and 0 < c ≤ 1/N).  The
    instantiation (:mod:`exactdp.algebra.certificates.instantiation`) makes the step from one to the other a checked
    certificate: every condition of the step's domain at u = N·c holds on the part's domain, and the step's
    hypotheses and conclusions at u = N·c are the part's, term by term (:func:`exactdp.claim_statement.binding`), so
    ``recheck`` sees whether an edited region still covers the claim.  A variable of the certificate may be
    substituted too (G-20's α ↦ c·q, a change of variable under the quantifier): its hypotheses substituted must be
    stated by the part.  The substitution is the table's entries for the certificate's parameters (and variables);
    only parts that quantify the certificate's kept names and the images' (the kept variables and the names a
    substituted variable's image adds are the part's variables), never a substituted name, are tried.  The step's
    statement is written without the certificate's abbreviations (:meth:`~exactdp.algebra.certificates.Certificate.
    written_out`: a linear combination's m, M, z substituted), so that the instance can copy and substitute it."""
    from exactdp.algebra.certificates import check
    from exactdp.claim_statement import names_in, step_of
    from exactdp.numbers.truth import Truth
    from exactdp.theory.class_certificates import SUBSTITUTIONS  # deferred: start-up

    params, variables = tuple(getattr(cert, "parameters", ())), tuple(getattr(cert, "variables", ()))
    sigma = tuple((x, v) for x, v, also_variable in (SUBSTITUTIONS if table is None else table)
                  if x in params or (also_variable and x in variables))
    if not sigma or not parts:
        return None
    replaced = {x for x, _ in sigma}
    kept, kept_vars = set(params) - replaced, set(variables) - replaced
    images = {n for x, v in sigma for n in names_in(v)}
    added = {n for x, v in sigma if x in variables for n in names_in(v)}  # a variable's image adds its names
    step = None
    for part in parts:
        names = set(part.parameters) | set(part.variables)
        if (set(part.variables) != kept_vars | (added - set(part.parameters)) or not kept <= set(part.parameters)
                or not images <= names or replaced & names):
            continue
        step = step or cert.states(step_of(claim)).written_out()
        inst = instance(step, part, sigma, tuple(v for v in variables if v in kept_vars) + tuple(
            v for v in part.variables if v not in kept_vars))
        if check(inst).truth is Truth.TRUE:
            return step, inst
    return None


def instance(step, part, substitution, variables=None):
    """The ``instantiation`` of ``step``'s statement (a certificate filed as a step of a proof) at ``substitution``
    ((name, expression) pairs: the step's parameters that are not ``part``'s, and some of its variables), on
    ``part``'s domain and its ``variables`` (default: ``part``'s), bound to ``part`` (a written statement part);
    checked by :func:`check` like any certificate (:mod:`exactdp.algebra.certificates.instantiation`)."""
    from exactdp.algebra.certificates.instantiation import Instantiation

    return Instantiation(parameters=part.parameters, assumptions=(), region=part.domain, sizes=step.sizes,
                         variables=part.variables if variables is None else variables, source=step.name,
                         source_statement=step.statement, substitution=tuple(substitution)).bound_to(part)


def uncarried(claim: Claim, outcomes) -> list:
    """The parts of ``claim``'s written statement that no certificate of its proved checks carries (each must be
    implied by one: else the claim's statement is not what was proved)."""
    carried = {c.statement for o in outcomes if o.verdict in (Verdict.PROVED, Verdict.PROVED_MODULO)
               for c in o.certificates}
    return [p for p in claim.written if p not in carried]


def run_check(check: Check, ctx: CheckContext, claim: Claim | None = None, carried: set | None = None) -> CheckResult:
    start = time.perf_counter()
    try:
        with limits(max_work=max(limit("max_work"), CHECK_WORK)):
            outcome = check.run(ctx)
        if not isinstance(outcome, Outcome):
            raise TypeError(f"check {check.name!r} returned {type(outcome).__name__}, not an Outcome")
        if claim is not None:
            outcome = filed_under(claim, outcome, carried)
    except Exception as exc:  # noqa: BLE001 - any failure of a check is reported, never passed
        outcome = Outcome(Verdict.UNDECIDED, f"check raised {type(exc).__name__}",
                          reason=f"{type(exc).__name__}: {exc}")
    return CheckResult(check, outcome, time.perf_counter() - start)


def run_claim(claim: Claim, ctx: CheckContext) -> ClaimResult:
    start = time.perf_counter()
    carried: set = set()  # the written statement's parts the certificates of earlier checks carry
    results = tuple(run_check(chk, ctx, claim, carried) for chk in claim.checks)
    verdict = claim_verdict(claim.checks, [r.outcome for r in results])
    missing = uncarried(claim, [r.outcome for r in results]) if verdict in (
        Verdict.PROVED, Verdict.PROVED_MODULO) else []
    if missing:  # the proof does not reach the written statement: its proving checks are undecided
        why = (f"no certificate implies the written statement part {missing[0].text()[:300]!r}"
               + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""))
        results = tuple(replace(r, outcome=Outcome(Verdict.UNDECIDED, "the written statement is not proved",
                                                   reason=why))
                        if r.outcome.verdict in (Verdict.PROVED, Verdict.PROVED_MODULO) else r for r in results)
        verdict = claim_verdict(claim.checks, [r.outcome for r in results])
    return ClaimResult(claim, results, verdict, time.perf_counter() - start)


def select_claims(selectors: Iterable[str] = (), registry: dict[str, Claim] | None = None,
                  packages: tuple[str, ...] | None = None) -> list[Claim]:
    """Claims named by ``selectors`` (ids, group prefixes like ``grosse2026``, or catalogue items like
    ``G-15``), in id order; all claims when no selector is given.  Without a ``registry`` the claims of
    ``packages`` (module paths; default: those registered in the ``exactdp.claims`` entry-point group)
    are loaded.

    Raises:
        ParameterError: a selector that names no claim.
    """
    registry = load_all(packages) if registry is None else registry
    selectors = list(selectors)
    if not selectors:
        return [registry[k] for k in sorted(registry)]
    chosen: dict[str, Claim] = {}
    for sel in selectors:
        hits = [c for c in registry.values()
                if c.id == sel or c.id.split(".")[0] == sel or sel.upper() in (i.upper() for i in c.catalogue)]
        if not hits:
            raise ParameterError(f"claim: unknown claim id, group or catalogue item {sel!r} "
                                 f"(see 'exactdp verify --list')")
        for c in hits:
            chosen[c.id] = c
    return [chosen[k] for k in sorted(chosen)]


class Progress:
    """A one-line progress bar on a terminal stream; silent when the stream is not a TTY."""

    def __init__(self, total: int, stream: TextIO | None = None, width: int = 30, enabled: bool | None = None):
        self.total, self.done, self.width = total, 0, width
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled

    def start(self, label: str) -> None:
        if self.enabled:
            filled = int(self.width * self.done / max(self.total, 1))
            bar = "#" * filled + "." * (self.width - filled)
            self.stream.write(f"\r[{bar}] {self.done}/{self.total} {label[:40]:<40}")
            self.stream.flush()

    def advance(self) -> None:
        self.done += 1

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * (self.width + 60) + "\r")
            self.stream.flush()


def run_claims(claims: Iterable[Claim], ctx: CheckContext,
               on_start: Callable[[Claim], None] | None = None,
               on_done: Callable[[ClaimResult], None] | None = None) -> list[ClaimResult]:
    """Run the claims in the order given; callbacks drive progress display."""
    out = []
    for claim in claims:
        if on_start:
            on_start(claim)
        res = run_claim(claim, ctx)
        out.append(res)
        if on_done:
            on_done(res)
    return out


def default_jobs(cap: int) -> int:
    """The worker processes of ``exactdp verify`` when ``--jobs`` is not given: the CPUs this process may
    run on (``os.process_cpu_count()`` on Python 3.13+, else the scheduler affinity mask, else
    ``os.cpu_count()``), at least 1 and at most ``cap``."""
    import os

    count = getattr(os, "process_cpu_count", None)
    n = count() if count is not None else None
    if n is None and hasattr(os, "sched_getaffinity"):
        n = len(os.sched_getaffinity(0))
    return max(1, min(cap, n or os.cpu_count() or 1))


def claim_groups(claims: list[Claim]) -> list[list[Claim]]:
    """The claims split into the groups one worker runs together, in id order of their first member.

    Two claims are grouped when their checks use a common module of the proof packages (anything outside
    ``exactdp``): the module a check is defined in, or the module of a function it imports.  Such a module's
    caches, and the library memos its computations fill, then serve both claims as in the in-process run
    instead of being rebuilt per worker: grosse2026.lem3 reuses grosse2026.thm1's lru-cached parametric-LP
    certificates (``_parametric.eta_certificates``), and grosse2026.lem4_gamma_max_closed_form, whose LPs
    come from the same module, reuses them too.  Outcomes do not depend on the grouping (every check is
    seeded by its own salt); only the wall time does (``benchmarks/bench_proofs.py`` measures it).
    """
    import types

    parent = {c.id: c.id for c in claims}

    def root(x: str) -> str:
        while parent[x] != x:
            x = parent[x]
        return x

    first_user: dict[str, str] = {}  # proof-package module -> the first claim using it
    for c in claims:
        for m in {chk.run.__module__ for chk in c.checks}:
            module = sys.modules.get(m)
            used = {m} | ({v.__module__ for v in vars(module).values() if isinstance(v, types.FunctionType)}
                          if module is not None else set())
            for u in used:  # the written statements' module builds data and holds no cache: it groups nothing
                if u and u.split(".")[0] != "exactdp" and u.rsplit(".", 1)[-1] != "_statements":
                    parent[root(c.id)] = root(first_user.setdefault(u, c.id))
    groups: dict[str, list[Claim]] = {}
    for c in claims:
        groups.setdefault(root(c.id), []).append(c)
    return list(groups.values())


#: the expected verdicts of the claims submitted first: proofs run the prover, exact LPs and certificate
#: checks and hold the long claims (grosse2026.lem3 is the longest of a full run)
_LONG_FIRST = (Verdict.PROVED, Verdict.PROVED_MODULO)


def submission_order(groups: list[list[Claim]]) -> list[list[Claim]]:
    """The groups in the order they are handed to the workers: those with a claim expected proved or
    proved-modulo first, then the rest, each part in id order.  Starting the long claims first keeps one
    from starting last and running alone (the busier of two processes finishes earlier in this order than
    in id order).  Results are still reported in id order."""
    return sorted(groups, key=lambda g: not any(c.expected in _LONG_FIRST for c in g))


def _worker_run(claim_ids: tuple[str, ...], seed: int, quick: bool, packages: tuple[str, ...] | None = None):
    """Run a group of claims in one worker process, in order; return picklable pieces (id, outcomes and
    timings) per claim."""
    registry = load_all(packages)
    out = []
    for claim_id in claim_ids:
        res = run_claim(registry[claim_id], CheckContext(seed=seed, quick=quick))
        out.append((claim_id, [(r.outcome, r.seconds) for r in res.checks], res.seconds))
    return out


def run_claims_parallel(claims: list[Claim], ctx: CheckContext, jobs: int,
                        on_done: Callable[[ClaimResult], None] | None = None,
                        packages: tuple[str, ...] | None = None, scheduler=None) -> list[ClaimResult]:
    """Run claims in ``jobs`` worker processes, or on a ``dask.distributed`` cluster when ``scheduler`` is
    given (an address ``tcp://host:8786``, a ``distributed.Client`` or a ``LocalCluster``); results come
    back in the input order.

    The executor is the conjecture search's (:func:`~exactdp.verification.conjecture.runner.open_executor`).
    One task runs one group of :func:`claim_groups` (claims sharing a proof module's caches), in
    :func:`submission_order` (expected proofs first).  Each check
    is seeded by (seed, its own salt), so the outcomes depend neither on ``jobs``, nor on the grouping,
    nor on the executor: the same seed gives the same verdicts and byte-identical reports.
    """
    from exactdp.verification.conjecture.runner import as_completed, open_executor, submit  # deferred: start-up

    by_id = {c.id: c for c in claims}
    done: dict[str, ClaimResult] = {}
    ex, close = open_executor(scheduler, max(jobs, 2))  # without a scheduler: always a process pool
    finished = False
    try:
        futures = [submit(ex, _worker_run, tuple(c.id for c in g), ctx.seed, ctx.quick, packages)
                   for g in submission_order(claim_groups(claims))]
        for fut in as_completed(ex, futures):
            for cid, pieces, seconds in fut.result():
                claim = by_id[cid]
                checks = tuple(CheckResult(chk, out, sec) for chk, (out, sec) in zip(claim.checks, pieces))
                res = ClaimResult(claim, checks, claim_verdict(claim.checks, [c.outcome for c in checks]), seconds)
                done[cid] = res
                if on_done:
                    on_done(res)
        finished = True
    finally:
        close(abort=not finished)  # an exception (Ctrl-C, SIGTERM, an error): the workers are stopped
    return [done[c.id] for c in claims]


def verify(selectors: Iterable[str] = (), *, seed: int = 0, quick: bool = False,
           progress: Progress | None = None, jobs: int = 1,
           packages: tuple[str, ...] | None = None, scheduler=None) -> list[ClaimResult]:
    """Select and run claims (the library form of ``exactdp verify``); ``jobs > 1`` uses processes (at
    most one per group of :func:`claim_groups`; ``exactdp verify`` passes :func:`default_jobs`),
    ``scheduler`` (a dask.distributed address, Client or LocalCluster) a cluster; the verdicts and reports
    are the same on every executor.
    ``packages``: the module paths of the claim packages (default: the registered ones)."""
    claims = select_claims(selectors, packages=packages)
    ctx = CheckContext(seed=seed, quick=quick)
    if jobs > 1 and scheduler is None:  # no more processes than groups: one group runs in this process
        jobs = min(jobs, len(claim_groups(claims)))
    if jobs > 1 or scheduler is not None:
        if progress is not None:
            progress.total = len(claims)

        def done(r):
            if progress is not None:
                progress.advance()
                progress.start(r.claim.id)

        try:
            return run_claims_parallel(claims, ctx, jobs, on_done=done, packages=packages, scheduler=scheduler)
        finally:
            if progress is not None:
                progress.close()
    if progress is None:
        return run_claims(claims, ctx)
    progress.total = len(claims)
    try:
        return run_claims(claims, ctx, on_start=lambda c: progress.start(c.id),
                          on_done=lambda r: progress.advance())
    finally:
        progress.close()


@dataclass
class Summary:
    counts: dict = field(default_factory=dict)
    mismatches: list = field(default_factory=list)
    total: int = 0
    #: the papers' numbered statements ("asoodeh2021 Theorem 1", ...) -> "proved", "proved-modulo" or "not"
    #: (proved for its whole range, modulo cited results, or neither): :func:`numbered_statements`
    numbered: dict = field(default_factory=dict)


#: a numbered statement of a paper, as a claim's source label names it exactly ("Theorem 1", "Lemma 3")
NUMBERED = re.compile(r"(Theorem|Lemma|Corollary|Proposition) \d+")
#: the claim kinds that state a paper's result (a finding about a numbered statement is not that statement)
STATEMENT_KINDS = ("theorem", "lemma", "corollary", "proposition")
#: a scope that fixes a size ("N = 2..8", "N = 3, M = 2"): not the statement's whole range
FINITE_SCOPE = re.compile(r"\b[A-Za-z][A-Za-z0-9_]*'* = \d|\.\.")


def numbered_statements(results: list[ClaimResult]) -> dict:
    """Each numbered statement of the papers (a theorem, lemma, corollary or proposition claim whose source
    label is exactly "Theorem k", "Lemma k", "Corollary k" or "Proposition k") -> "proved" when every claim
    filed under it is proved with a scope that fixes no size (its whole range), "proved-modulo" when they are
    proved or proved modulo cited results so, "not" otherwise.  Several claims under one label (Lemma 4 and
    its closed form) count as one statement."""
    out: dict = {}
    rank = {"proved": 2, "proved-modulo": 1, "not": 0}
    for r in results:
        src = r.claim.source
        if r.claim.kind not in STATEMENT_KINDS or not NUMBERED.fullmatch(str(src.label)):
            continue
        whole = not FINITE_SCOPE.search(str(r.scope or ""))
        v = r.verdict.value if whole and r.verdict in (Verdict.PROVED, Verdict.PROVED_MODULO) else "not"
        key = f"{src.paper.key} {src.label}"
        out[key] = min(out.get(key, v), v, key=rank.__getitem__)
    return dict(sorted(out.items()))


def summarize(results: list[ClaimResult]) -> Summary:
    s = Summary(counts={v.value: 0 for v in Verdict})
    for r in results:
        s.counts[r.verdict.value] += 1
        s.total += 1
        if not r.matches:
            s.mismatches.append(r.claim.id)
    s.numbered = numbered_statements(results)
    return s
