r"""``exactdp.check``: search for an exact counterexample to a conjectured inequality, and report.

Verdicts:

* ``refuted`` — a kernel (and parameters, inputs) at which the inequality fails, decided exactly or by
  certified balls, shrunk to small denominators, **re-checked with the core functions** (η_TV, KL, ... as
  exact sympy values; class membership with ``is_ldp`` / ``pml_ratio``) and printed as a kernel file that
  ``exactdp analyze`` reads;
* ``proved`` — only when the symbolic layer proves it from certificates checked in the same call
  (:mod:`.prove`: a class bound; or :mod:`.synthesis`, after a search without counterexample: Farkas
  multipliers of the two-point LP lifted to the parameters);
* ``proved-modulo`` — proved, except that one step is a claim of the registry (named in ``rests_on``, with
  its registered verdict), not re-proved here: never called "proved";
* ``no-counterexample`` — the budget was spent without a violation: the report gives the kernels tried per
  class and size, the closest approach (the smallest slack, exactly) and the undecided instances.
  This is never called "proved".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import sympy
from flint import fmpq

from exactdp.errors import InternalError, ParameterError
from exactdp.numbers.rich import RichDisplay
from exactdp.io import kernel_to_json
from exactdp.kernels import Kernel
from exactdp.limits import quote
from exactdp.measures import registry
from exactdp.measures.contraction import eta_hockey_stick
from exactdp.measures.privacy import ldp_ratio, pml_ratio
from exactdp.numbers.truth import Truth
from exactdp.numbers import loglin as V
from exactdp.verification.conjecture.core_values import core_values, exact_sympy
from exactdp.verification.conjecture.classes import classes_for, in_gamma_range, member
from exactdp.verification.conjecture.parser import Conjecture, parse_conjecture
from exactdp.verification.conjecture.prove import prove
from exactdp.verification.conjecture import kernel_terms
from exactdp.verification.conjecture.quantities import MAX_TENSOR_SIZE, Instance
from exactdp.verification.conjecture.runner import progress_bar, run_search
from exactdp.verification.conjecture.search import SearchSpec, evaluate

DEFAULT_BUDGET = 400
#: the defaults when the classes include (ε,c)-PML: inputs up to 4 and a larger budget, because the
#: witnesses of χ²-type bounds under PML have a zero entry and N ≥ 3 (the exact 3 x 2 witness of
#: χ²(KP‖KQ) ≤ Ξ(ε,c)² χ²(P‖Q) in docs/conjectures.md) and each PML kernel is tried at three values of c
PML_DEFAULT_N = (2, 4)
PML_DEFAULT_BUDGET = 1000
DEFAULT_N = (2, 3)


def search_defaults(classes) -> tuple[tuple[int, int], int]:
    """(input sizes, budget) of a search over ``classes`` when the caller gives none."""
    return (PML_DEFAULT_N, PML_DEFAULT_BUDGET) if "pml" in classes else (DEFAULT_N, DEFAULT_BUDGET)

#: estimated elementary operations per kernel entry of one searched kernel (its class test, the quantities
#: and the grid's instances): an N x M kernel costs KERNEL_WORK * N * M against the max_work limit, so the
#: default limit admits 10^5 kernels of 2 x 2 and 2 x 10^4 of 5 x 5 (calibrated on ``eta_tv <= 1``)
KERNEL_WORK = 2000


@dataclass
class CheckResult(RichDisplay):
    """The outcome of :func:`check` (``to_dict()`` is the ``result`` of the ``--format json`` document)."""

    verdict: str  # "refuted" | "proved" | "proved-modulo" | "no-counterexample"
    conjecture: str
    parsed: str
    classes: tuple
    counterexample: dict | None
    closest: dict | None
    stats: dict
    proof: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    strict: bool = False
    #: the claims (ids) a proof uses without re-proving them; non-empty exactly when verdict is proved-modulo
    rests_on: list = field(default_factory=list)
    #: the certificates a proof checked (Certificate objects; ``to_dict`` gives their names)
    certificates: list = field(default_factory=list)
    scope: str = ""

    def to_dict(self) -> dict:
        return {"verdict": self.verdict, "conjecture": self.conjecture, "parsed": self.parsed,
                "classes": list(self.classes), "counterexample": self.counterexample, "closest": self.closest,
                "stats": self.stats, "proof": self.proof, "rests_on": list(self.rests_on),
                "certificates": [c.name for c in self.certificates], "scope": self.scope, "notes": self.notes}

    def __str__(self) -> str:
        return format_result(self)

    def as_outcome(self):
        """The result as a :class:`exactdp.verification.claims.Outcome` (for ``exactdp verify`` and reports):
        REFUTED with the counterexample, PROVED / PROVED_MODULO from the certificates checked by the proof (and
        ``rests_on``), VERIFIED with the kernels searched."""
        from exactdp.verification.claims import Outcome, Verdict, proved

        fams = tuple(sorted(self.stats["kernels_per_class_and_size"].items()))
        if self.verdict == "refuted":
            ce = {k: v for k, v in self.counterexample.items() if k != "check"}
            return Outcome(Verdict.REFUTED, f"counterexample to {self.conjecture}", self.stats["instances"],
                           fams, counterexample=ce)
        if self.verdict in ("proved", "proved-modulo"):
            return proved(f"{self.verdict}: {self.conjecture}", self.certificates, self.scope,
                          derivation=tuple(self.proof), rests_on=tuple(self.rests_on),
                          instances=self.stats["instances"], families=fams)
        return Outcome(Verdict.VERIFIED, f"no counterexample to {self.conjecture} in {self.stats['kernels']} "
                       f"kernels (not a proof)", self.stats["instances"], fams,
                       details={"closest": {k: v for k, v in (self.closest or {}).items() if k != "check"}})


# -- the exact re-check through the core functions -------------------------------------------------------------

def recheck(conj: Conjecture, inst: Instance) -> dict:
    """Re-decide the instance from scratch with the core functions; return exact sides and the slack.

    Raises :class:`~exactdp.errors.InternalError` (a RuntimeError) if the re-check disagrees with a reported
    violation."""
    small0, large0 = conj.sides()
    # Z <= bound with Z alone on the small side: a lower bound of Z that exceeds the bound certifies the violation
    alone = {small0.name} if isinstance(small0, sympy.Symbol) and not large0.has(small0) else set()
    used: set = set()
    vals = core_values(conj, inst, lower=frozenset(alone), used=used)
    small, large = (side.xreplace(vals) for side in conj.sides())
    lhs, rhs = conj.lhs.xreplace(vals), conj.rhs.xreplace(vals)
    if small.has(sympy.oo) and large.has(sympy.oo) and small == large:
        slack = sympy.Integer(0)
    else:
        slack = large - small
    if slack.has(sympy.nan, sympy.zoo):
        return {"lhs": str(lhs), "rhs": str(rhs), "slack": "undefined", "sign": None, "member": str(member(inst))}
    s, value = V.certified_sign(lambda: V.compile_expr(slack)(_NO_ENV))
    independent = _certified_layer_sign(slack)
    if s is not None and independent is not None and s != independent:
        raise InternalError(f"the sign of {slack} is {s} here but {independent} by exactdp.certified")
    if s is None:
        s = independent
    shown = sympy.Integer(0) if s == 0 else _simplified(slack)
    if s is None and shown == 0:
        s = 0
    below = f" (a lower bound of {', '.join(sorted(used))}: its enclosure's lower end)" if used else ""
    return {"lhs": str(_simplified(lhs)) + below, "rhs": str(_simplified(rhs)), "slack": str(shown),
            "slack_enclosure": "0" if shown == 0 else (V.enclosure(value) if value is not None else "?"),
            "lhs_enclosure": _encl(lhs), "rhs_enclosure": _encl(rhs), "sign": s, "member": str(member(inst))}


def _certified_layer_sign(expr) -> int | None:
    """The sign of an exact sympy number by the project's certified layer (RB balls + exact zero test),
    a second implementation independent of :mod:`.values`; None when undecided or unsupported."""
    try:
        from exactdp.certified import certified_sign
    except ImportError:  # pragma: no cover - the certified layer is part of the package
        return None
    try:
        r = certified_sign(expr)
    except Exception:  # noqa: BLE001 - an expression form the certified layer does not evaluate
        return None
    return None if r.sign is None else int(r.sign)


def _simplified(expr):
    """The expression, or 0 when it cancels exactly after expanding logs (sympy, small expressions only)."""
    try:
        if sympy.count_ops(expr) < 200 and sympy.expand(sympy.expand_log(expr, force=True)) == 0:
            return sympy.Integer(0)
    except (TypeError, ValueError):  # pragma: no cover - sympy corner cases: keep the expression
        pass
    return expr


def _encl(expr) -> str:
    try:
        _, v = V.certified_sign(lambda: V.compile_expr(expr)(_NO_ENV))
        return V.enclosure(v) if v is not None else "undefined"  # no value at any precision
    except V.Undefined:
        return "undefined"


class _Env(V.Env):
    def param(self, name):
        raise V.Undefined(name)

    def quantity(self, name, args):
        raise V.Undefined(name)


_NO_ENV = _Env()


def _violates(check: dict, strict: bool) -> bool:
    s = check["sign"]
    return s is not None and (s < 0 or (s == 0 and strict))


# -- shrinking ------------------------------------------------------------------------------------------------------

def _round_vector(v, D: int) -> list[fmpq]:
    """Nearest vector with entries k/D summing to 1 (largest remainders, ties by index)."""
    scaled = [x * D for x in v]
    base = [int(s.floor()) for s in scaled]
    rest = D - sum(base)
    order = sorted(range(len(v)), key=lambda k: (-(scaled[k] - base[k]), k))
    for k in order[:rest]:
        base[k] += 1
    return [fmpq(b, D) for b in base]


def _complexity(inst: Instance) -> int:
    vals = [v for r in inst.K.rows for v in r] + [inst.gamma]
    vals += [v for r in inst.K2.rows for v in r] if inst.K2 is not None else []
    vals += [v for v in (inst.delta, inst.c) if v is not None]
    for d in (inst.P, inst.Q):
        if d is not None:
            vals += list(d.probs)
    return max(int(v.q) for v in vals)


def _tight_variants(inst: Instance, K: Kernel, P, Q) -> list[Instance]:
    same = Instance(inst.cls, K, inst.gamma, inst.delta, inst.c, inst.n, P, Q, inst.K2)
    out = [same]
    if inst.cls == "ldp":
        r = ldp_ratio(K)
        if str(r) != "oo":
            out.append(Instance("ldp", K, r, fmpq(0), None, inst.n, P, Q, inst.K2))
    elif inst.cls == "approx-ldp":
        out.append(Instance(inst.cls, K, inst.gamma, eta_hockey_stick(K, inst.gamma), None, inst.n, P, Q, inst.K2))
    else:
        out.append(Instance("pml", K, pml_ratio(K, inst.c), None, inst.c, inst.n, P, Q, inst.K2))
    return out


def shrink(conj: Conjecture, inst: Instance, max_den: int = 40, gamma_range=None) -> Instance:
    """A violating instance with the smallest denominators found by rounding K (and P, Q) to k/D.

    Rounding that collapses the kernel to a constant one is skipped (unless it was constant already)."""
    base = _complexity(inst)
    from exactdp.distributions import Distribution

    informative = len(set(inst.K.rows)) > 1
    for D in range(2, max_den + 1):
        if D >= base:
            break
        K = Kernel.from_exact_rows([_round_vector(r, D) for r in inst.K.rows], False)
        if informative and len(set(K.rows)) == 1:
            continue  # do not shrink a real counterexample to a constant kernel (eta_TV = 0, eps = 0)
        P = Q = None
        if inst.P is not None and inst.Q is not None:
            P = Distribution.from_exact_probs(tuple(_round_vector(inst.P.probs, D)), False)
            Q = Distribution.from_exact_probs(tuple(_round_vector(inst.Q.probs, D)), False)
        for cand in _tight_variants(inst, K, P, Q):
            params = in_gamma_range(cand.cls, K, {"gamma": cand.gamma, "delta": cand.delta, "c": cand.c},
                                    gamma_range)
            if params is None:
                continue
            cand.gamma, cand.delta = params["gamma"], params["delta"]
            if _complexity(cand) >= base or member(cand) is not Truth.TRUE:
                continue
            if evaluate(conj, cand).status == "violation":
                return cand
    return inst


# -- the public entry point -------------------------------------------------------------------------------------------

def _size_range(value, name: str) -> tuple[int, int]:
    if isinstance(value, int) and not isinstance(value, bool):
        lo = hi = value
    elif isinstance(value, (tuple, list)) and len(value) == 2:
        lo, hi = value
    elif isinstance(value, str):
        a, sep, b = value.partition("..")
        try:
            lo, hi = (int(a), int(b)) if sep else (int(a), int(a))
        except ValueError:
            raise ParameterError(f"--{name}: expected an integer or a range like 2..4, got {value!r}") from None
    else:
        raise ParameterError(f"{name}: expected an integer, a pair or 'lo..hi', got {value!r}")
    if not (isinstance(lo, int) and isinstance(hi, int)) or not 2 <= lo <= hi <= 5:
        raise ParameterError(f"{name}: sizes must satisfy 2 <= low <= high <= 5, got {lo}..{hi}")
    return lo, hi


def _ends(value, name: str) -> tuple:
    """The two ends of a range given as ``"lo..hi"`` (or one value), or a pair."""
    if isinstance(value, str):
        lo, sep, hi = value.partition("..")
        return (lo.strip(), hi.strip()) if sep else (value.strip(), value.strip())
    if isinstance(value, (tuple, list)) and len(value) == 2:
        return tuple(value)
    raise ParameterError(f"{name}: expected 'lo..hi' or a pair of exact numbers, got {value!r}")


def t_range(t=None, eps=None):
    """("lo", "hi") exact strings for the privacy level t = e^eps in [lo, hi], 1 <= lo <= hi, from a range
    of ``t`` or of ``eps`` (each e^eps rational: ``"log(2)..log(3)"``); None for no restriction."""
    from exactdp.numbers.qq import to_qq
    from exactdp.parameters import t_value

    if t is not None and eps is not None:
        raise ParameterError("t, eps: give at most one range, of t = e^eps or of eps")
    if eps is not None:
        ends = []
        for e in _ends(eps, "eps"):
            v = t_value(eps=e, name="eps")
            if not isinstance(v, fmpq):
                raise ParameterError(f"eps: e^eps must be rational at both ends (e.g. 'log(2)..log(3)'), got "
                                     f"{quote(str(e))}; or give a range of t = e^eps")
            ends.append(v)
        lo, hi = ends
    elif t is not None:
        lo, hi = (to_qq(v, "t") for v in _ends(t, "t"))
    else:
        return None
    if not 1 <= lo <= hi:
        raise ParameterError(f"t: need 1 <= lo <= hi (t = e^eps), got {lo}..{hi}")
    return str(lo), str(hi)


def _space(node) -> str:
    """"inputs" for P, Q; "outputs" for K(.) and row(i)."""
    if isinstance(node, sympy.Symbol):
        return "inputs"
    return "outputs"


def _applied(conj: Conjecture):
    for side in (conj.lhs, conj.rhs):
        for a in sympy.preorder_traversal(side):
            if isinstance(a, sympy.core.function.AppliedUndef):
                yield a


def _numbers(node) -> tuple:
    """The number arguments of a quantity: after its kernel term, when it has one (:mod:`.kernel_terms`)."""
    return node.args[1:] if node.args and kernel_terms.is_term(node.args[0]) else node.args


def static_checks(conj: Conjecture, N: tuple, M: tuple) -> None:
    """Refuse, before searching, a conjecture no instance can evaluate: a side that is not real
    (``log(-1)``, ``sqrt(-1)``), a divergence between distributions on different spaces (``kl(K(P), Q)``),
    a row that no sampled kernel has, ``eta_tv_tensor(n)`` with a constant n < 1 or too large,
    ``delta(eps)`` with a constant eps < 0 or beyond the limit ``max_exp_argument``."""
    from exactdp.limits import quote, require

    for which, side in (("left-hand", conj.lhs), ("right-hand", conj.rhs)):
        if side.has(sympy.zoo, sympy.nan):
            raise ParameterError(f"the {which} side {quote(side)} is undefined (a division by zero?)")
        if side.has(sympy.I) or side.is_extended_real is False:
            raise ParameterError(f"the {which} side {quote(side)} is not real (a log or square root of a "
                                 f"negative number?); both sides must be real")
    for node in _applied(conj):
        name = node.func.__name__
        if name in registry.divergences():
            a, b = node.args[0], node.args[1]
            sa, sb = _space(a), _space(b)
            if sa != sb:
                size = {"inputs": "N", "outputs": "M"}
                raise ParameterError(
                    f"{quote(node)}: {a} is a distribution on the {sa} (size {size[sa]}) but {b} on the {sb} "
                    f"(size {size[sb]}); compare P with Q, or K(P) / row(i) with K(Q) / row(j)")
        elif name == "row":
            i = node.args[0]
            if i.is_Integer and (i < 0 or i >= N[1]):
                if i < 0:
                    raise ParameterError(f"row({i}): rows are numbered 0..N-1")
                raise ParameterError(f"row({i}): every sampled kernel has fewer than {int(i) + 1} rows "
                                     f"(N in {N[0]}..{N[1]}; rows are numbered 0..N-1); raise --N")
        elif name == "eta_tv_tensor":
            n = _numbers(node)[0]
            if n.is_number:
                if not n.is_Integer or n < 1:
                    raise ParameterError(f"eta_tv_tensor(n) needs an integer n >= 1, got {quote(n)}")
                if min(N[0], M[0]) ** min(int(n), 64) > MAX_TENSOR_SIZE:
                    raise ParameterError(f"eta_tv_tensor({n}): every sampled kernel has N^n or M^n above "
                                         f"{MAX_TENSOR_SIZE} (the largest tensor power evaluated); use a smaller n")
        elif name == "delta_K":
            e = _numbers(node)[0]
            if e.is_number:
                if e.is_extended_real is False or e.is_negative:
                    raise ParameterError(f"delta(eps) needs a real eps >= 0, got {quote(e)}")
                try:
                    big = int(sympy.floor(abs(e))) if e.is_Rational else int(sympy.floor(sympy.N(abs(e), 30)))
                except (TypeError, ValueError, OverflowError):  # pragma: no cover - an exotic constant
                    big = 0
                require("max_exp_argument", big, f"delta(eps) at eps = {quote(e, 40)}")


def check(inequality: str, cls: str = "ldp", *, N=None, M=(2, 3), budget: int | None = None, seed: int = 0,
          scheduler=None, workers: int = 1, progress: bool = False, max_seconds: float | None = None,
          chunk_size: int = 40, max_den: int = 12, t=None, eps=None, synthesise_proof: bool = True) -> CheckResult:
    r"""Search for an exact counterexample to ``inequality`` over a class of mechanisms.

    Args:
        inequality: ``"lhs <= rhs"`` in sympy syntax over the quantities and parameters of
            :mod:`exactdp.verification.conjecture.parser` (e.g. ``"eta_tv <= (exp(eps)-1)/(exp(eps)+1)"``).
        cls: ``"ldp"`` (ε-LDP kernels), ``"approx-ldp"`` ((ε,δ)-LDP), ``"pml"`` ((ε,c)-PML, P, Q ∈ Q_X(c))
            or ``"all"``.
        N, M: input / output sizes, an int, a pair or ``"2..4"`` (2 to 5); N defaults to 2..3, or 2..4 when
            the classes include pml (:func:`search_defaults`).
        budget: number of kernels to try (work units: the result does not depend on speed or executor);
            default 400, or 1000 when the classes include pml.
        seed: the seed of the random part of the search.
        scheduler: a dask.distributed scheduler address, Client or LocalCluster (optional).
        workers: local processes when no scheduler is given (1 = in this process).
        progress: draw a progress bar on stderr (or a callable, called as ``progress(merged, spec)`` after each
            merged chunk: the command line's rich bar).  max_seconds: an extra wall-clock cap (results may then
            differ between runs; the report says so).
        chunk_size: kernels per chunk (part of the plan: change it and the random part changes).
        max_den: largest row denominator of the random kernels (the grid phase raises den by itself).
        t, eps: restrict the privacy level to an interval (at most one of them): ``t="5/2..3"`` or a pair
            for t = e^ε (exact rationals ≥ 1; ε near 1), or ``eps="log(2)..log(3)"`` (each e^ε rational).
        synthesise_proof: when no counterexample is found and no class bound applies, search a certificate
            (:mod:`.synthesis`: Farkas multipliers of the two-point LP lifted to the parameters, checked); a
            conjecture below the LP's optimum somewhere gets a note naming the point and the LP value.
    Returns:
        a :class:`CheckResult`.
    Raises:
        ExactDPError: malformed inequality, unknown name, a parameter the class does not define, bad sizes.

    >>> r = check("eta_tv < (exp(eps)-1)/(exp(eps)+1)", "ldp", N=2, M=2, budget=40)
    >>> r.verdict, r.counterexample["rows"]
    ('refuted', [['2/3', '1/3'], ['1/3', '2/3']])
    """
    conj = parse_conjecture(inequality)
    classes = classes_for(cls, conj.parameters)
    default_N, default_budget = search_defaults(classes)
    N = default_N if N is None else N
    budget = default_budget if budget is None else budget
    if not isinstance(budget, int) or isinstance(budget, bool) or budget < 1:
        raise ParameterError(f"budget: must be a positive integer number of kernels, got {budget!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ParameterError(f"seed: must be an integer, got {seed!r}")
    for name, v, low in (("chunk_size", chunk_size, 1), ("max_den", max_den, 2), ("workers", workers, 1)):
        if not isinstance(v, int) or isinstance(v, bool) or v < low:
            raise ParameterError(f"{name}: must be an integer >= {low}, got {v!r}")
    if max_seconds is not None and (isinstance(max_seconds, bool) or not isinstance(max_seconds, (int, float))
                                    or not max_seconds >= 0 or max_seconds == float("inf")):
        raise ParameterError(f"max_seconds: must be a finite number of seconds >= 0, got {max_seconds!r}")
    sizes_N, sizes_M = _size_range(N, "N"), _size_range(M, "M")
    if max_seconds is None:  # a run without a clock cap: the budget times the cost of one kernel
        from exactdp.limits import require

        require("max_work", budget * KERNEL_WORK * sizes_N[1] * sizes_M[1],
                f"check with budget = {budget} kernels of up to {sizes_N[1]} x {sizes_M[1]} and no --max-seconds")
    spec = SearchSpec(inequality, classes, sizes_N, sizes_M, seed, budget, chunk_size, max_den, t_range(t, eps))
    static_checks(conj, spec.N, spec.M)
    proof = _try_prove(conj, classes, spec)
    merged, info = run_search(spec, scheduler=scheduler, workers=workers,
                              progress=progress if callable(progress) else progress_bar() if progress else None,
                              max_seconds=max_seconds)
    stats = {"kernels": merged.tried, "kernels_per_class_and_size": dict(sorted(merged.kernels.items())),
             "instances": merged.instances, "undecided": merged.undecided, "undefined": merged.undefined,
             "kernels_outside_class": merged.outside, "chunks": merged.chunks, "budget": budget, "seed": seed,
             "chunk_size": chunk_size, "max_den": max_den,
             "t_range": None if spec.gamma is None else "..".join(spec.gamma), **info}
    notes = []
    if info["time_capped"]:
        notes.append(f"stopped by the {max_seconds} s time cap: the result may differ between runs and machines")
    if merged.undecided:
        notes.append(f"{merged.undecided} instance(s) could not be certified either way (UNKNOWN); "
                     f"they are counted neither as violations nor as satisfied; example: {merged.undecided_example}")
    if merged.counterexample is None and not info["time_capped"]:
        _refuse_if_nothing_tested(inequality, merged)
    closest = None
    if merged.best is not None:
        try:
            closest = _report(conj, Instance.from_record(merged.best))
        except (V.Undefined, OverflowError) as exc:  # the closest approach is a report, not a verdict
            notes.append(f"the closest approach could not be re-checked with the core functions ({str(exc)[:200]})")
    if merged.counterexample is not None:
        found = Instance.from_record(merged.counterexample)
        small = shrink(conj, found, gamma_range=spec.gamma_range())
        ce = _report(conj, small)
        if not _violates(ce["check"], conj.strict) or ce["member"] != "true":
            raise InternalError(f"the counterexample did not survive the core re-check: {ce}")
        if small is not found:
            ce["found_before_shrinking"] = found.record()
        return CheckResult("refuted", inequality, str(conj), classes, ce, closest, stats, [], notes, conj.strict)
    if proof is None and synthesise_proof:
        synth = _try_synthesis(conj, classes, spec)
        if synth is not None and synth.proof is not None:
            proof = synth.proof
        elif synth is not None:
            refuted = _gap_witness(conj, synth.gap, classes, spec) if synth.gap is not None else None
            if refuted is not None:
                notes.append(f"found by certificate synthesis: {synth.gap.text()}; its LP optimum is this kernel")
                return CheckResult("refuted", inequality, str(conj), classes, refuted, closest, stats, [], notes,
                                   conj.strict)
            notes.append(synth.gap.text() if synth.gap is not None else f"certificate synthesis: {synth.why}")
    if proof is not None:
        return CheckResult(proof.verdict, inequality, str(conj), classes, None, closest, stats, list(proof.steps),
                           notes, conj.strict, list(proof.rests_on), list(proof.certificates), proof.scope)
    notes.insert(0, "no counterexample found within the budget; this is not a proof")
    return CheckResult("no-counterexample", inequality, str(conj), classes, None, closest, stats, [], notes,
                       conj.strict)


def _try_synthesis(conj: Conjecture, classes, spec):
    """The :class:`~.synthesis.Synthesis` for the conjecture (a checked proof, the gap that rules the
    certificate shape out, or why not), or None when sympy or the prover could not handle it."""
    from exactdp.errors import ExactDPError, UndecidedError
    from exactdp.verification.conjecture.synthesis import synthesise  # deferred: start-up

    from exactdp.limits import ResourceLimitError, work_meter

    try:
        with work_meter("certificate synthesis"):
            return synthesise(conj, classes, spec)
    except ResourceLimitError as exc:  # the synthesis stopped: no proof; the search's answer stands
        from exactdp.verification.conjecture.synthesis import Synthesis  # deferred: start-up

        return Synthesis(why=f"stopped: {str(exc)[:300]}")
    except UndecidedError as exc:
        from exactdp.verification.conjecture.synthesis import Synthesis  # deferred: start-up

        return Synthesis(why=f"undecided ({str(exc)[:200]})")
    except ExactDPError:
        raise
    except (TypeError, ValueError, ArithmeticError, NotImplementedError):  # sympy could not handle it: no proof
        return None


def _gap_witness(conj: Conjecture, gap, classes, spec) -> dict | None:
    """The counterexample report of a synthesis gap's witness kernel (:meth:`~.synthesis.Gap.witness`) when the
    core functions re-check it as a member of the class violating the conjecture, with N and t in the searched
    ranges; None otherwise (the gap stays a note)."""
    inst = gap.witness()
    if inst is None or gap.cls not in classes or not spec.N[0] <= inst.K.N <= spec.N[1]:
        return None
    t_range = spec.gamma_range()
    if t_range is not None and not t_range[0] <= inst.gamma <= t_range[1]:
        return None
    ce = _report(conj, inst)
    return ce if _violates(ce["check"], conj.strict) and ce["member"] == "true" else None


def _refuse_if_nothing_tested(inequality: str, merged) -> None:
    """A search in which no instance had a value answers nothing: an error naming the reason, not a
    'no counterexample' verdict."""
    from exactdp.limits import quote

    if merged.instances == 0:
        raise ParameterError(f"{quote(inequality)}: no instance could be tested ({merged.tried} kernels, none in "
                             f"the class with the requested sizes and t range); widen --N, --M or --t")
    if merged.undefined == merged.instances:
        reason = getattr(merged, "undefined_reason", None) or "undefined"
        raise ParameterError(f"{quote(inequality)}: every one of the {merged.instances} instances tested is "
                             f"undefined ({reason}); the inequality cannot be checked as written")


def _report(conj: Conjecture, inst: Instance) -> dict:
    chk = recheck(conj, inst)
    rec = inst.record()
    params = {"eps": str(sympy.log(exact_sympy(inst.gamma))), **{k: rec[k] for k in ("t", "delta", "c", "n") if k in rec}}
    out = {"class": inst.cls, "N": inst.K.N, "M": inst.K.M, "rows": rec["rows"], "params": params,
           "lhs": chk["lhs"], "rhs": chk["rhs"], "slack": chk["slack"],
           "lhs_enclosure": chk.get("lhs_enclosure"), "rhs_enclosure": chk.get("rhs_enclosure"),
           "slack_enclosure": chk.get("slack_enclosure"), "member": chk["member"], "check": chk,
           "kernel_json": json.dumps(json.loads(kernel_to_json(Kernel.from_exact_rows(inst.K.rows, False),
                                                               name="counterexample")))}
    if inst.P is not None:
        out["P"], out["Q"] = rec["P"], rec["Q"]
    if inst.K2 is not None:
        out["rows2"] = rec["rows2"]
    return out


def _try_prove(conj: Conjecture, classes, spec):
    """The :class:`~.prove.Proof` of the conjecture (the class bounds of :mod:`.prove`, or F-G11 for a product over
    product priors, :mod:`.composition_proof`), or None."""
    from exactdp.errors import ExactDPError
    from exactdp.verification.conjecture.composition_proof import product_prior_proof  # deferred: start-up

    try:
        return product_prior_proof(conj) or prove(conj, classes, spec)
    except ExactDPError:
        raise
    except (TypeError, ValueError, ArithmeticError, NotImplementedError):  # sympy could not handle it: no proof
        return None


def format_result(r: CheckResult) -> str:
    """The human-readable report."""
    verdict = r.verdict.upper() if r.verdict != "proved-modulo" else "PROVED MODULO " + ", ".join(r.rests_on)
    lines = [f"conjecture: {r.conjecture}", f"classes:    {', '.join(r.classes)}", f"verdict:    {verdict}"]
    if r.counterexample:
        ce = r.counterexample
        lines.append(f"counterexample ({ce['class']}, {ce['N']}x{ce['M']} kernel):")
        w = max(len(c) for row in ce["rows"] for c in row)
        lines += ["  " + "  ".join(c.rjust(w) for c in row) for row in ce["rows"]]
        if "rows2" in ce:
            lines.append(f"  K2 (the second kernel of the class, {len(ce['rows2'])}x{len(ce['rows2'][0])}):")
            w2 = max(len(c) for row in ce["rows2"] for c in row)
            lines += ["  " + "  ".join(c.rjust(w2) for c in row) for row in ce["rows2"]]
        lines.append("  parameters: " + ", ".join(f"{k} = {_with_decimal(v)}" for k, v in ce["params"].items()))
        if "P" in ce:
            lines.append(f"  P = ({', '.join(ce['P'])}),  Q = ({', '.join(ce['Q'])})")
        lines.append(f"  lhs = {ce['lhs']}  = {ce['lhs_enclosure']}")
        lines.append(f"  rhs = {ce['rhs']}  = {ce['rhs_enclosure']}")
        lines.append(f"  slack (must be {'>' if r.strict else '>='} 0) = {ce['slack']}"
                     f"  = {ce['slack_enclosure']}")
        lines.append(f"  re-checked with the core functions; class membership: {ce['member']}")
        lines.append("  kernel file (exactdp analyze accepts it):")
        lines += ["    " + s for s in ce["kernel_json"].splitlines()]
    if r.proof:
        lines.append(f"proof ({r.scope}):" if r.scope else "proof:")
        lines += ["  " + s for s in r.proof]
    s = r.stats
    lines.append(f"searched {s['kernels']} kernels ({s['instances']} instances) in {s['seconds']} s, "
                 f"{s['executor']}, seed {s['seed']}, budget {s['budget']}")
    lines.append("  per class and size: " + ", ".join(f"{k}: {v}" for k, v in s["kernels_per_class_and_size"].items()))
    if s["undecided"] or s["undefined"]:
        lines.append(f"  undecided: {s['undecided']}, undefined (e.g. oo - oo): {s['undefined']}")
    if r.closest and not r.counterexample:
        c = r.closest
        lines.append(f"closest approach ({c['class']}, {c['N']}x{c['M']}, "
                     f"{', '.join(f'{k}={_with_decimal(v)}' for k, v in c['params'].items())}):")
        rows = "(" + "; ".join(", ".join(map(str, row)) for row in c["rows"]) + ")"  # as in the table of docs/conjectures.md

        def seq(v):
            return "(" + ", ".join(map(str, v)) + ")"

        lines.append(f"  rows {rows}" + (f", P = {seq(c['P'])}, Q = {seq(c['Q'])}" if "P" in c else ""))
        if "rows2" in c:
            lines.append("  K2 rows (" + "; ".join(", ".join(map(str, row)) for row in c["rows2"]) + ")")
        lines.append(f"  slack = {c['slack']}  = {c['slack_enclosure']}")
    lines += [f"note: {n}" for n in r.notes]
    return "\n".join(lines)


def _with_decimal(text) -> str:
    """A parameter's exact text with its certified decimal when it is not rational (``log(15) ≈ 2.70805020110``),
    as every exact transcendental value prints in text; rationals (and anything not a number) unchanged."""
    import re

    from exactdp.errors import ExactDPError
    from exactdp.numbers.digits import evalf
    from exactdp.numbers.reader import read_expression

    text = str(text)
    if re.fullmatch(r"-?[0-9]+(/[0-9]+)?", text):
        return text
    try:
        return f"{text} ≈ {evalf(read_expression(text, name='parameter'), 12)}"
    except (ExactDPError, ValueError, TypeError):
        return text
