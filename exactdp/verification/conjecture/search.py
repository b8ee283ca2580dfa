r"""The counterexample search, cut into deterministic chunks of work.

The budget counts **kernels** (work units), never seconds, so a run is a pure function of
(inequality, classes, sizes, seed, budget): chunk k does the same work on one process, a local pool or a
Dask cluster, and the merge (:mod:`.runner`) reads the chunks in index order.

Chunk plan (``chunk_size`` kernels each):

1. **seeds** — the catalogue (:mod:`exactdp.mechanisms`: randomized response, the optimal (ε,δ) binary
   kernel, [G]'s PML mechanisms and examples, the disjoint-rows witness) at grid parameters, and, when
   :mod:`exactdp.theory.extremal` is available, the exact LP-optimal kernels ``sup_eta_tv``;
2. then alternately a slice of the **grid** stream (every kernel with entries k/den, den = 2, 3, ..., for
   every size in range) and a **random + climb** chunk: half the chunk samples seeded random exact
   kernels (:func:`exactdp.verification.instances.random_kernel`), the other half climbs from the best
   one by moving rational mass 1/D between entries (and between input masses), keeping improvements.

Every kernel is tested at its class's tight parameters (see :mod:`.classes`).  A chunk stops at its first
certified violation.  Slack = rhs − lhs (lhs − rhs for >, >=); a violation is slack < 0 (≤ 0 if strict),
decided exactly or by certified balls; an undecided sign is counted, never taken as a violation.
"""

from __future__ import annotations

import itertools
import random
import threading
from typing import Any
from dataclasses import dataclass

import sympy
from flint import fmpq

from exactdp.kernels import Kernel
from exactdp.numbers import loglin as V
from exactdp.verification.conjecture.classes import (
    GAMMA_GRID,
    make_instances,
    perturb_kernel,
)
from exactdp.verification.conjecture.core_values import core_values
from exactdp.verification.conjecture.kernel_terms import uses_second
from exactdp.verification.conjecture.parser import Conjecture, parse_conjecture
from exactdp.verification.conjecture.quantities import Instance, evaluate_side
from exactdp.verification.instances import grid_kernels, random_kernel

#: python-flint's working precision is process-global: chunks in threads of one process run one at a time
_FLINT_LOCK = threading.Lock()


@dataclass(frozen=True)
class SearchSpec:
    """Everything a chunk depends on (picklable; equal specs give equal results)."""

    text: str
    classes: tuple
    N: tuple  # (low, high) inclusive
    M: tuple
    seed: int
    budget: int
    chunk_size: int = 40
    max_den: int = 12
    gamma: tuple | None = None  # ("lo", "hi") exact strings: only e^eps in [lo, hi]

    def gamma_range(self):
        from exactdp.numbers.qq import to_qq

        return None if self.gamma is None else (to_qq(self.gamma[0]), to_qq(self.gamma[1]))

    @property
    def n_chunks(self) -> int:
        return -(-self.budget // self.chunk_size)

    def sizes(self):
        return [(n, m) for n in range(self.N[0], self.N[1] + 1) for m in range(self.M[0], self.M[1] + 1)]


# -- evaluation of one instance ---------------------------------------------------------------------------

@dataclass
class Evaluation:
    status: str  # "ok", "violation", "undecided", "undefined"
    score: object = None  # exact rational near the slack (ranking only)
    reason: str = ""


def evaluate(conj: Conjecture, inst: Instance) -> Evaluation:
    """Decide the conjecture at one instance: certified, three-valued, with a ranking score.

    The score is (relative slack, −small side) as exact rationals near the values (:func:`relative_slack`):
    the smallest relative slack first and, among equal ones, the instance whose small side is largest (so the
    closest approach is not a trivial 0 ≤ 0).  Relative, not absolute: a violation of a bound whose two sides
    both scale with the inputs (a divergence ratio, e.g. χ²(KP‖KQ) ≤ Ξ² χ²(P‖Q)) is approached through
    instances where both sides are large, while an absolute slack favours P ≈ Q, where both vanish."""
    expr = conj.slack_expr()
    small: list = []
    try:
        s, value = V.certified_sign(lambda: _slack(conj, expr, inst, small))
    except V.Undefined as exc:
        return Evaluation("undefined", reason=str(exc))
    except (OverflowError, ZeroDivisionError) as exc:  # a magnitude beyond exact arithmetic: no value here
        return Evaluation("undefined", reason=f"{type(exc).__name__}: {exc}")
    if s is None and _exactly_zero(conj, inst):
        s = 0
    score = None if value is None else (relative_slack(value, small[-2:]), _neg_score(small[-2]) if small else fmpq(0))
    if s is None:
        return Evaluation("undecided", score, reason="the sign of the slack is not certified at 1024 bits")
    bad = s < 0 or (s == 0 and conj.strict)
    return Evaluation("violation" if bad else "ok", score)


def relative_slack(slack, sides) -> fmpq | V.Inf:
    """slack / (|small side| + |large side|), exact rationals near the values (ranking only, never a decision);
    the absolute slack when a side is infinite or both are 0."""
    sc = V.score_of(slack)
    if len(sides) != 2 or isinstance(sc, V.Inf):
        return sc
    try:
        lo, hi = (V.score_of(x) for x in sides)
    except V.Undefined:
        return sc
    if isinstance(lo, V.Inf) or isinstance(hi, V.Inf) or lo == 0 == hi:
        return sc
    return sc / (abs(lo) + abs(hi))


def _neg_score(v):
    try:
        sc = V.score_of(v)
    except V.Undefined:
        return fmpq(0)
    return V.Inf(-sc.sign) if isinstance(sc, V.Inf) else -sc


def _exactly_zero(conj: Conjecture, inst: Instance) -> bool:
    """Is the slack exactly 0?  Decided by the certified layer's exact zero test
    (:func:`exactdp.numbers.exact_zero.is_zero`: linear forms in logs, Lindemann–Weierstrass, sympy
    identities) on the slack rebuilt from the core's exact sympy values; only called when balls cannot
    separate the slack from 0."""
    from exactdp.numbers.exact_zero import is_zero
    from exactdp.numbers.truth import Truth

    try:
        vals = core_values(conj, inst)
    except V.Undefined:
        return False
    small, large = (side.xreplace(vals) for side in conj.sides())
    slack = large - small
    if slack.has(sympy.oo, sympy.nan, sympy.zoo):
        return False
    return is_zero(slack)[0] is Truth.TRUE


def _slack(conj: Conjecture, expr, inst: Instance, small: list):
    lo, hi = conj.sides()
    a, b = evaluate_side(lo, inst), evaluate_side(hi, inst)
    small += [a, b]
    if isinstance(a, V.Inf) and isinstance(b, V.Inf) and a.sign == b.sign:
        return fmpq(0)  # oo <= oo holds, oo < oo does not
    return V.sub(b, a)


def _less(a, b) -> int:
    """-1, 0, 1 comparing two exact scores (fmpq or Inf)."""
    ka = (a.sign, fmpq(0)) if isinstance(a, V.Inf) else (0, a)
    kb = (b.sign, fmpq(0)) if isinstance(b, V.Inf) else (0, b)
    return (ka > kb) - (ka < kb)


def better(a, b) -> bool:
    """Is the ranking key a (a tuple of exact scores) strictly smaller than b (None = no key)."""
    if a is None:
        return False
    if b is None:
        return True
    for x, y in zip(a, b):
        c = _less(x, y)
        if c:
            return c < 0
    return False


def key_str(key) -> str:
    return "|".join(str(x) for x in key)


def key_from_str(s: str | None):
    if s is None:
        return None
    out: list = []
    for part in s.split("|"):
        if part in ("oo", "-oo"):
            out.append(V.Inf(1 if part == "oo" else -1))
        else:
            p, _, q = part.partition("/")
            out.append(fmpq(int(p), int(q or 1)))
    return tuple(out)


# -- chunk results ---------------------------------------------------------------------------------------------

@dataclass
class ChunkResult:
    """Plain data (exact strings) so it crosses process and network boundaries unchanged."""

    index: int
    kernels: dict  # "ldp 2x3" -> count (a kernel is tested in every class of the run)
    tried: int = 0  # distinct kernels (the budget's unit)
    instances: int = 0
    undecided: int = 0
    undefined: int = 0
    outside: int = 0  # kernels in no member of the class (e.g. zeros for ldp)
    best: dict | None = None  # instance record with the smallest slack score
    best_score: str | None = None
    counterexample: dict | None = None
    undecided_example: dict | None = None
    undefined_reason: str | None = None  # why the first undefined instance has no value


class _Chunk:
    def __init__(self, spec: SearchSpec, conj: Conjecture, index: int):
        self.spec, self.conj, self.index = spec, conj, index
        self.res = ChunkResult(index, {})
        self.best_score = None
        self.best_inst: Instance | None = None
        self.uses_n = "n" in conj.parameters or "eta_tv_tensor" in conj.quantities
        self.gamma_range = spec.gamma_range()
        # a conjecture naming K2 (:mod:`.kernel_terms`) draws it among the kernels this chunk tried before
        self.uses_second = uses_second(conj.lhs) or uses_second(conj.rhs)
        self.partners: list[Kernel] = []

    def try_kernel(self, K: Kernel, rng: random.Random, hint: Instance | None = None):
        """Test one kernel in every class; return (violating instance or None, best instance, best score)."""
        sizes_ok = (self.spec.N[0] <= K.N <= self.spec.N[1]) and (self.spec.M[0] <= K.M <= self.spec.M[1])
        if not sizes_ok:
            return None, None, None
        best, best_score = None, None
        self.res.tried += 1
        for cls in self.spec.classes:
            key = f"{cls} {K.N}x{K.M}"
            self.res.kernels[key] = self.res.kernels.get(key, 0) + 1
            insts = make_instances(cls, K, rng, uses_inputs=self.conj.uses_inputs, uses_n=self.uses_n,
                                   hint=hint if hint is not None and hint.cls == cls else None,
                                   gamma_range=self.gamma_range, uses_second=self.uses_second,
                                   partners=self.partners)
            if not insts:
                self.res.outside += 1
            for inst in insts:
                self.res.instances += 1
                ev = evaluate(self.conj, inst)
                if ev.status == "undefined":
                    self.res.undefined += 1
                    if self.res.undefined_reason is None:
                        self.res.undefined_reason = ev.reason[:200]
                    continue
                if ev.status == "undecided":
                    self.res.undecided += 1
                    if self.res.undecided_example is None:
                        self.res.undecided_example = inst.record()
                    continue
                if ev.status == "violation":
                    return inst, inst, ev.score
                if better(ev.score, best_score):
                    best, best_score = inst, ev.score
        if self.uses_second and K not in self.partners:
            self.partners = (self.partners + [K])[-16:]
        return None, best, best_score

    def note_best(self, inst, score):
        if inst is not None and better(score, self.best_score):
            self.best_inst, self.best_score = inst, score

    def finish(self, violation: Instance | None) -> ChunkResult:
        if violation is not None:
            self.res.counterexample = violation.record()
        if self.best_inst is not None:
            self.res.best, self.res.best_score = self.best_inst.record(), key_str(self.best_score)
        return self.res


# -- the kernel streams ---------------------------------------------------------------------------------------

_SEEDS: dict = {}


def seed_kernels(spec: SearchSpec) -> list[Kernel]:
    """Catalogue mechanisms (and LP-extremal ones when available) of the sizes in range, in a fixed order."""
    key = (spec.N, spec.M)
    if key not in _SEEDS:
        _SEEDS[key] = _seed_kernels(spec)
    return _SEEDS[key]


def _seed_kernels(spec: SearchSpec) -> list[Kernel]:
    from exactdp import mechanisms as mech

    out: list[Kernel] = []
    Ns = range(spec.N[0], spec.N[1] + 1)
    grid = [g for g in GAMMA_GRID if g > 1][:8]
    for g in grid:
        out.append(mech.binary_randomized_response(g))
        for k in Ns:
            out.append(mech.randomized_response(k, g))
        for d in (fmpq(1, 10), fmpq(1, 4), fmpq(1, 2)):
            out.append(mech.optimal_binary_approx_ldp(g, d))
    for N in Ns:
        for frac in (fmpq(1), fmpq(1, 2), fmpq(1, 4), fmpq(1, 10)):
            c = frac / N
            for g in grid:
                if N == 2 and g * c <= 1:
                    out.append(mech.grosse_binary_mechanism(g, c))
                for q in range(1, N):
                    if g * c * q <= 1 and g * c * (N - q) <= 1:
                        out.append(mech.grosse_pml_mechanism(N, g, c, q))
        out.append(mech.disjoint_rows_witness(N))
        if N % 2 == 0:
            out.append(mech.grosse_example2_K1(N))
    if 4 in Ns:
        out += [mech.grosse_intro_K1(), mech.grosse_intro_K2()]
    for N in Ns:
        out.append(Kernel.identity(N))
    out += _extremal_kernels(spec)
    keep, seen = [], set()
    for K in out:
        if spec.N[0] <= K.N <= spec.N[1] and spec.M[0] <= K.M <= spec.M[1] and K not in seen:
            seen.add(K)
            keep.append(K)
    return keep


def _extremal_kernels(spec: SearchSpec) -> list[Kernel]:
    """The exact LP optima of :func:`exactdp.theory.extremal.sup_eta_tv` (if that module is installed)."""
    try:
        from exactdp.theory.extremal import sup_eta_tv
    except ImportError:
        return []
    out = []
    for N in range(spec.N[0], min(spec.N[1], 4) + 1):
        for t in (fmpq(3, 2), fmpq(2), fmpq(3)):
            classes: tuple[dict[str, Any], ...] = ({"c": fmpq(1, 2 * N)}, {"c": fmpq(1, N)}, {"delta": fmpq(1, 10)}, {})
            for kw in classes:
                try:
                    out.append(sup_eta_tv(N, 2, t=t, **kw).kernel)
                except Exception:  # noqa: BLE001 - an optional seed source: skip what it cannot do
                    continue
    return out


def grid_stream(spec: SearchSpec):
    """Every kernel with entries in {0, 1/den, ..., 1}, den = 2, 3, ..., sizes in range (fixed order)."""
    for den in itertools.count(2):
        for N, M in spec.sizes():
            if den > 6 and N * M > 9:
                continue
            yield from grid_kernels(N, M, den)
        if den > 40:
            return


def _seed_chunk_count(spec: SearchSpec, n_seeds: int) -> int:
    return -(-n_seeds // spec.chunk_size)


def chunk_work(spec: SearchSpec, index: int) -> int:
    return min(spec.chunk_size, spec.budget - index * spec.chunk_size)


def run_chunk(spec: SearchSpec, index: int) -> ChunkResult:
    """Do chunk ``index`` of the plan; a pure function of (spec, index)."""
    with _FLINT_LOCK:
        return _run_chunk(spec, index)


def _run_chunk(spec: SearchSpec, index: int) -> ChunkResult:
    conj = parse_conjecture(spec.text)
    ch = _Chunk(spec, conj, index)
    work = chunk_work(spec, index)
    rng = random.Random(f"{spec.seed}:{index}")
    seeds = seed_kernels(spec)
    n_seed_chunks = _seed_chunk_count(spec, len(seeds))
    items: list = []
    if index < n_seed_chunks:
        items = seeds[index * spec.chunk_size:(index + 1) * spec.chunk_size]
    elif (index - n_seed_chunks) % 2 == 0:
        start = ((index - n_seed_chunks) // 2) * spec.chunk_size
        items = list(itertools.islice(grid_stream(spec), start, start + work))
    bad = _run_stream(ch, items[:work], rng)
    if bad is None and len(items) < work:  # a short seed or grid slice: fill the chunk's budget
        bad = _random_and_climb(ch, work - len(items), rng)
    return ch.finish(bad)


def _run_stream(ch: _Chunk, kernels, rng) -> Instance | None:
    for K in kernels:
        bad, best, score = ch.try_kernel(K, rng)
        if bad is not None:
            return bad
        ch.note_best(best, score)
    return None


def _random_and_climb(ch: _Chunk, work: int, rng: random.Random) -> Instance | None:
    spec = ch.spec
    sizes = spec.sizes()
    explore = max(1, work // 2)
    start, start_score = None, None
    for _ in range(explore):
        N, M = rng.choice(sizes)
        den = rng.randint(max(M, 2), max(spec.max_den, M, 2))
        K = random_kernel(rng, N, M, den, full_support=rng.random() < 0.5)
        bad, best, score = ch.try_kernel(K, rng)
        if bad is not None:
            return bad
        ch.note_best(best, score)
        if better(score, start_score):
            start, start_score = best, score
    cur, cur_score = start, start_score
    for _ in range(work - explore):
        if cur is None:
            break
        K2 = perturb_kernel(cur.K, rng)
        bad, best, score = ch.try_kernel(K2, rng, hint=cur)
        if bad is not None:
            return bad
        ch.note_best(best, score)
        if better(score, cur_score):
            cur, cur_score = best, score
    return None
