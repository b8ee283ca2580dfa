r"""Mechanism classes a conjecture quantifies over, and how their parameters are sampled.

A conjecture ``lhs <= rhs`` over a class claims: for every kernel K with N inputs and M outputs, every
admissible parameter value and (if P or Q appear) every admissible input pair, the inequality holds.

* ``ldp`` — K ranges over ε-LDP kernels: LDP(K) ≤ ε, i.e. ``ldp_ratio(K) <= gamma`` with γ = e^ε.
  Parameters: ε = log γ (γ ≥ 1 rational), δ = 0.  c is undefined.
* ``approx-ldp`` — K ranges over (ε,δ)-LDP kernels: η_{E_γ}(K) ≤ δ ([A] Thm 1).  ε = log γ, δ ∈ [0, 1].
* ``pml`` — K ranges over (ε,c)-PML kernels: ``pml_ratio(K, c) <= gamma``, c ∈ (0, 1/N] ([G] Def. 2);
  P and Q are restricted to Q_X(c) = {P : min_x P(x) ≥ c} (the hypothesis of [G] Thm 4).  δ is undefined.

γ is never sampled blindly: for each kernel the search uses the kernel's *own* tight level (γ = its LDP
ratio; δ = its privacy profile at a grid γ; γ = its PML ratio at a grid c), where the kernel sits on the
boundary of the class and a conjecture is hardest, plus grid values above it.  So ε = log γ with γ rational
and every ``exp(eps)`` is exact.
"""

from __future__ import annotations

import random

from flint import fmpq

from exactdp.distributions import Distribution
from exactdp.kernels import Kernel
from exactdp.measures.contraction import eta_hockey_stick, eta_tv_witness
from exactdp.measures.privacy import is_ldp, ldp_ratio, pml_ratio
from exactdp.numbers.truth import Truth
from exactdp.verification.conjecture.parser import ConjectureSyntaxError
from exactdp.verification.conjecture.quantities import MAX_TENSOR_SIZE, Instance

CLASSES = ("ldp", "approx-ldp", "pml")
#: parameters each class defines (N, M, n are always defined)
DEFINED = {
    "ldp": {"eps", "t", "gamma", "delta"},
    "approx-ldp": {"eps", "t", "gamma", "delta"},
    "pml": {"eps", "t", "gamma", "c"},
}
GAMMA_GRID = tuple(fmpq(*v) for v in ((1, 1), (11, 10), (5, 4), (3, 2), (2, 1), (5, 2), (3, 1), (4, 1),
                                      (6, 1), (10, 1), (20, 1)))
C_FRACTIONS = tuple(fmpq(1, k) for k in (1, 2, 3, 4, 10, 100))  # c = fraction / N


def classes_for(name: str, parameters) -> tuple[str, ...]:
    """The classes ``--class name`` denotes, keeping for ``all`` those defining every used parameter."""
    if name == "all":
        out = tuple(c for c in CLASSES if set(parameters) <= DEFINED[c] | {"N", "M", "n"})
        if not out:
            raise ConjectureSyntaxError(
                f"--class all: no class defines every parameter of the inequality ({', '.join(sorted(parameters))})")
        return out
    if name not in CLASSES:
        raise ConjectureSyntaxError(f"--class: must be one of ldp, approx-ldp, pml, all; got {name!r}")
    missing = set(parameters) - DEFINED[name] - {"N", "M", "n"}
    if missing:
        raise ConjectureSyntaxError(
            f"INEQUALITY: parameter {', '.join(sorted(missing))} is not defined for class {name} "
            f"(ldp, approx-ldp define eps, gamma, delta; pml defines eps, gamma, c)")
    return (name,)


def member_kernel(cls: str, K: Kernel, gamma, delta=None, c=None) -> Truth:
    """Exact membership of one kernel in the class at the parameters (core functions only)."""
    if cls == "ldp":
        return is_ldp(K, t=gamma, delta=0)
    if cls == "approx-ldp":
        return is_ldp(K, t=gamma, delta=delta)
    return Truth.of(c * K.N <= 1 and pml_ratio(K, c) <= gamma)


def member(inst: Instance) -> Truth:
    """Exact membership of the instance's kernel (and of its second kernel K2, when drawn) in its class at its
    parameters (core functions only)."""
    ok = member_kernel(inst.cls, inst.K, inst.gamma, inst.delta, inst.c)
    if inst.K2 is not None:
        ok = ok & member_kernel(inst.cls, inst.K2, inst.gamma, inst.delta, inst.c)
    if inst.cls != "pml":
        return ok
    if inst.P is not None and inst.Q is not None:
        ok = ok & Truth.of(min(inst.P.probs) >= inst.c and min(inst.Q.probs) >= inst.c)
    return ok


def _grid_above(g, rng: random.Random, k: int = 1):
    above = [v for v in GAMMA_GRID if v > g]
    return above[:1] + (rng.sample(above[1:], min(k, len(above) - 1)) if len(above) > 1 else [])


def in_gamma_range(cls: str, K: Kernel, params: dict, gamma_range) -> dict | None:
    """The parameters moved into lo <= gamma <= hi: a tight gamma below lo is raised to lo (K stays in the
    class, which only grows with gamma; for approx-ldp delta is recomputed at lo); above hi: None."""
    if gamma_range is None:
        return params
    lo, hi = gamma_range
    g = params["gamma"]
    if g > hi:
        return None
    if g < lo:
        params = dict(params, gamma=lo)
        if cls == "approx-ldp":
            params["delta"] = eta_hockey_stick(K, lo)
    return params


def assignments(cls: str, K: Kernel, rng: random.Random, hint: dict | None = None,
                gamma_range=None) -> list[dict]:
    """Parameter dicts (gamma, delta, c) at which K is tested: tight levels first, then looser ones.

    ``hint`` (the parameters of a parent instance during climbing) adds the same grid coordinate;
    ``gamma_range`` = (lo, hi) keeps gamma = e^eps in [lo, hi] (and tries both ends)."""
    out = _assignments(cls, K, rng, hint)
    if gamma_range is None:
        return out
    ends = []
    if out:
        first = out[0]
        for g in gamma_range:
            if cls == "approx-ldp":
                ends.append({"gamma": g, "delta": eta_hockey_stick(K, g)})
            elif g >= first["gamma"]:
                ends.append(dict(first, gamma=g))
    kept, seen = [], set()
    for p in out + ends:
        q = in_gamma_range(cls, K, p, gamma_range)
        key = None if q is None else (q["gamma"], q.get("delta"), q.get("c"))
        if q is not None and key not in seen:
            seen.add(key)
            kept.append(q)
    return kept


def _assignments(cls: str, K: Kernel, rng: random.Random, hint: dict | None) -> list[dict]:
    out: list[dict] = []
    if cls == "ldp":
        r = ldp_ratio(K)
        if str(r) == "oo":  # a column mixes 0 and > 0: K is in no eps-LDP class with eps finite
            return []
        out.append({"gamma": r, "delta": fmpq(0)})
        out += [{"gamma": g, "delta": fmpq(0)} for g in _grid_above(r, rng)]
    elif cls == "approx-ldp":
        gs = [GAMMA_GRID[0]] + rng.sample(GAMMA_GRID[1:8], 2)
        if hint is not None and hint["gamma"] not in gs:
            gs.insert(0, hint["gamma"])
        r = ldp_ratio(K)
        if str(r) != "oo" and r not in gs:
            gs.append(r)
        for g in gs:
            out.append({"gamma": g, "delta": eta_hockey_stick(K, g)})
    else:
        fracs = [C_FRACTIONS[0]] + rng.sample(C_FRACTIONS[1:], 2)
        cs = [f / K.N for f in fracs]
        if hint is not None and hint.get("c") is not None and hint["c"] <= fmpq(1, K.N) and hint["c"] not in cs:
            cs.insert(0, hint["c"])
        for c in cs:
            g = pml_ratio(K, c)
            out.append({"gamma": g, "c": c})
        out += [{"gamma": g, "c": cs[0]} for g in _grid_above(out[0]["gamma"], rng, 0)]
    return out


def tensor_ns(K: Kernel) -> list[int]:
    return [n for n in (1, 2, 3) if K.N ** n <= MAX_TENSOR_SIZE and K.M ** n <= MAX_TENSOR_SIZE]


def _random_dist(rng: random.Random, N: int, den: int) -> list[fmpq]:
    cuts = sorted(rng.randint(0, den) for _ in range(N - 1))
    b = [0, *cuts, den]
    return [fmpq(b[k + 1] - b[k], den) for k in range(N)]


def _into_class(p: list[fmpq], c) -> Distribution:
    """Map p into Q_X(c): c·1 + (1 − Nc)·p (identity when c is None)."""
    if c is None:
        return Distribution.from_exact_probs(tuple(p), False)
    N = len(p)
    return Distribution.from_exact_probs(tuple(c + (1 - N * c) * v for v in p), False)


def input_pairs(K: Kernel, params: dict, rng: random.Random, count: int = 3) -> list[tuple]:
    """(P, Q) pairs: the η_TV-optimal point masses, then seeded random exact distributions (in Q_X(c) for pml).

    For pml also the centre of Q_X(c) (the uniform P) against the two η_TV-optimal vertices c + (1 − Nc)e_x of
    Q_X(c): the divergence ratios that break χ²-type bounds under (ε,c)-PML are attained there (the
    witness of χ²(KP‖KQ) ≤ Ξ(ε,c)² χ²(P‖Q) in docs/conjectures.md, rows (20/27, 7/27), (20/27, 7/27), (2/27, 25/27)
    at c = 1/6 before shrinking, has P uniform and Q the vertex of the third row), and a random pair lands near
    them rarely."""
    N, c = K.N, params.get("c")
    _, x, x2 = eta_tv_witness(K)
    e = lambda k: [fmpq(1) if j == k else fmpq(0) for j in range(N)]
    pairs = [(_into_class(e(x), c), _into_class(e(x2), c))]
    if c is not None:
        centre = _into_class([fmpq(1, N)] * N, c)
        pairs += [(centre, _into_class(e(k), c)) for k in (x, x2)]
        count += 2
    while len(pairs) < count:
        den = rng.choice((4, 6, 10, 16, 30))
        p, q = _random_dist(rng, N, den), _random_dist(rng, N, den)
        if p != q:
            pairs.append((_into_class(p, c), _into_class(q, c)))
    return pairs


def perturb_dist(P: Distribution, rng: random.Random, c=None) -> Distribution:
    """Move a little mass between two coordinates (keeping min mass >= c when c is given)."""
    N = len(P)
    i, j = rng.sample(range(N), 2)
    step = fmpq(1, rng.choice((8, 16, 32, 64, 128)))
    floor = c if c is not None else fmpq(0)
    room = P[i] - floor
    if room <= 0:
        return P
    h = min(step, room)
    probs = list(P.probs)
    probs[i] -= h
    probs[j] += h
    return Distribution.from_exact_probs(tuple(probs), False)


def perturb_kernel(K: Kernel, rng: random.Random) -> Kernel:
    """Move mass 1/D between two outputs of one row (a rational direction)."""
    rows = [list(r) for r in K.rows]
    x = rng.randrange(K.N)
    y1, y2 = rng.sample(range(K.M), 2)
    step = fmpq(1, rng.choice((4, 8, 16, 32, 64, 128)))
    h = min(step, rows[x][y1])
    if h == 0:
        y1, y2 = y2, y1
        h = min(step, rows[x][y1])
    rows[x][y1] -= h
    rows[x][y2] += h
    return Kernel.from_exact_rows(rows, False)


def second_kernels(cls: str, K: Kernel, params: dict, rng: random.Random, partners=(),
                   hint: Kernel | None = None, count: int = 3) -> list[Kernel]:
    """Candidates for K2 (:mod:`.kernel_terms`) at the parameters: K itself, the parent instance's K2 while
    climbing, binary randomized response at γ for the LDP classes (a member at every δ), then kernels tried
    before (``partners``, seeded choice) that are members of the class at the same parameters."""
    from exactdp.mechanisms import randomized_response

    out = [K]
    if hint is not None:
        out.append(hint)
    if cls != "pml":
        out.append(randomized_response(2, params["gamma"]))
    pool = [L for L in partners if L is not K]
    rng.shuffle(pool)
    for L in pool:
        if len(out) >= count + (hint is not None):
            break
        if L not in out:
            out.append(L)
    return [L for L in out if member_kernel(cls, L, params["gamma"], params.get("delta"), params.get("c"))
            is Truth.TRUE]


def make_instances(cls: str, K: Kernel, rng: random.Random, *, uses_inputs: bool, uses_n: bool,
                   hint: Instance | None = None, gamma_range=None, uses_second: bool = False,
                   partners=()) -> list[Instance]:
    """Every instance tested for one kernel in one class (with K2 drawn by :func:`second_kernels` when the
    conjecture names it)."""
    hint_params = None if hint is None else {"gamma": hint.gamma, "c": hint.c}
    out = []
    for params in assignments(cls, K, rng, hint_params, gamma_range):
        ns = tensor_ns(K) if uses_n else [None]
        pairs: list[tuple] = [(None, None)]
        if uses_inputs:
            pairs = input_pairs(K, params, rng)
            if hint is not None and hint.P is not None and hint.Q is not None and len(hint.P) == K.N:
                c = params.get("c")
                P2, Q2 = perturb_dist(hint.P, rng, c), perturb_dist(hint.Q, rng, c)
                if c is None or (min(P2.probs) >= c and min(Q2.probs) >= c):
                    pairs.insert(0, (P2, Q2))
        seconds: list = [None]
        if uses_second:
            seconds = second_kernels(cls, K, params, rng, partners, None if hint is None else hint.K2)
        for n in ns:
            for P, Q in pairs:
                for K2 in seconds:
                    out.append(Instance(cls, K, params["gamma"], params.get("delta"), params.get("c"), n, P, Q,
                                        K2))
    return out
