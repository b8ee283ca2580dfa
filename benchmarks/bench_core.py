"""Speed of the exact core against float64 numpy and a plain sympy Matrix, measured in the same run.

    python benchmarks/bench_core.py [--sizes 64 256 512] [--pairs 96] [--repeat 3]
    python benchmarks/bench_core.py --cold [--sizes 512 1024 2048]
    python benchmarks/bench_core.py --analyze [--sizes 64 128] [--analyze-rows zeros positive] [--repeat 5]
    python benchmarks/bench_core.py --measures [--quick] [--sizes 512] [--kinds den3 den12] [--only pml_ratio]
        [--types fmpq] [--repeat 7]
    python benchmarks/bench_core.py --leakage-pieces [--sizes 512] [--kinds den12] [--cold-runs 41]

``--measures``: ``ldp_ratio``, ``pml_ratio`` (c = 1/(2N)), ``max_leakage_ratio``, ``eta_tv`` and
``eta_hockey_stick`` (γ = 3/2) with each parameter given as a ``Fraction``, a ``str``, an int ratio
(``sympy.Rational``) and an ``fmpq``, on rows with random 3-, 6-, 9- and 12-digit denominators (``denD``) and
with 3-digit weights (``wt3``): cold calls on ``--cold-runs`` (default 7) new kernels, reported as their median
(``cold``) and least (``coldmin``) wall time, then best and median of ≥ 7 warm calls after one warm-up, against the
float64 closed forms of ``benchmarks/_float64.py`` (best and median of as many runs) in the same process; the
ratios are median/median, best/best, cold/median and coldmin/median, and ``coldCPU``: the median CPU time of the
cold calls over the float64 closed form's median CPU time (``time.process_time``: the time this process waits
for other jobs is not counted).  What a cold call includes: everything the measure does on a kernel the
first time — the argument's reading and check, the number domain's choice, the float image or integer keys, the
candidates, the exact extremes and sums and the final reduction.  What it excludes: parsing.  Each new kernel
(:func:`_fresh`) holds only the integer form that ``Kernel(rows)`` of "a/b" strings leaves after parsing (a new
copy of the numerators and denominators, no cached view); the garbage collector runs before it is made, so its
arrays are as a just-parsed kernel's (just written), and the collector's own sweep is not timed.  Every value is checked equal across argument types and
against float64 (relative 1e-9).  ``--types`` keeps some argument types (γ of ``eta_hockey_stick`` costs a
whole O(N²M) call per type); a markdown summary (median ratio, best ratio, cold CPU ratio; ranges over the
argument types) ends the output.

``--leakage-pieces``: a first ``max_leakage_ratio`` call split as :func:`leakage_pieces` says (CPU medians over the
float64 closed form's, with and without the collector before each new kernel).

``--cold`` (issue 15 item 5): the cold path of a user — read a JSON kernel file of "a/b" strings and compute
η_TV — against a float64 pipeline that parses the same file (json + a/b → double) and runs the same
formula, and against the general reader (one ``fmpq`` per entry, the path before this change, run in the
same process); plus the time of ``import exactdp`` and of the first ``from exactdp import Kernel, eta_tv``
in fresh interpreters.

``--analyze`` (issue 15 item 5, issue 24 item 3): ``exactdp analyze FILE --t 3/2 --c 1/(2N) --format json`` and
``--format text`` (η_TV, η_{E_γ} and the LDP decision at γ = 3/2, the LDP ratio, maximal leakage, the PML ratio,
the privacy profile) against ``benchmarks/_float64.py``, a numpy float64 script that reads the same file and
computes the same quantities with the same profile sweep; both in fresh interpreters, least wall and least CPU
time of ``--repeat`` interleaved runs; aim ≤ 2× in CPU time at 64×64 and 128×128 (``--analyze-rows``: kernels
with zero entries, whose infinite LDP ratio is the project's exact ``INF`` (no sympy import), and with positive
entries only).

For random exact kernels (per-row denominators up to 1000, ``exactdp.verification.instances.random_kernel``)
it times ``eta_tv``, ``eta_hockey_stick`` (γ = 3/2) and ``pml_ratio`` (c = 1/(2N)):

* **exact**: the library.  "cold" is the first call on a fresh ``Kernel`` object made from ``fmpq`` rows,
  so it includes building the kernel's integer form (numerators over per-row denominators; a
  ``Kernel(...)`` built from user input gets it during validation, ``random_kernel`` from its draw);
  "warm" is the best of ``--repeat`` calls on a kernel that has it (and its other caches).
* **float64**: numpy doing the same formula (same loop over rows, same vectorization), no exactness.
* **sympy**: a ``sympy.Matrix`` of ``Rational``s with the same formula in plain Python loops; beyond
  ``--pairs`` row pairs (or columns) only that many are timed and the total is extrapolated linearly.

It prints the ratios exact/float64 (the speed limit; aim ≤ 3) and sympy/exact (aim ≥ 1000 at 512×512),
and checks that the exact values agree with sympy wherever sympy ran in full.
"""

from __future__ import annotations

import argparse
import gc
import platform
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import sympy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from flint import fmpq

from _float64 import float_eta_hockey_stick, float_eta_tv, float_pml_ratio, float_read
from _timing import best_median, best_time
from exactdp import Kernel, eta_hockey_stick, eta_tv, pml_ratio
from exactdp.verification.instances import random_kernel

GAMMA = fmpq(3, 2)


# (float64: the same formulas, benchmarks/_float64.py)

# -- sympy Matrix of Rationals: the same formulas in plain loops --------------------------------

def sympy_pairs(S: sympy.Matrix, pairs, term) -> object:
    M = S.shape[1]
    best = sympy.Integer(0)
    for i, j in pairs:
        v = sympy.Add(*[term(S[i, k], S[j, k]) for k in range(M)])
        best = max(best, v)
    return best


def sympy_tv_term(a, b):
    return abs(a - b) / 2


SYMPY_GAMMA = sympy.Rational(3, 2)


def sympy_hs_term(a, b):
    t = a - SYMPY_GAMMA * b
    return t if t > 0 else sympy.Integer(0)


def sympy_pml_columns(S: sympy.Matrix, c, cols) -> object:
    n = S.shape[0]
    best = None
    for y in cols:
        col = [S[x, y] for x in range(n)]
        hi = max(col)
        if hi == 0:
            continue
        r = hi / (c * sympy.Add(*col) + (1 - n * c) * min(col))
        best = r if best is None or r > best else best
    return best


def timed_sympy(total: int, limit: int, run) -> tuple[float, object, bool]:
    """Time ``run(k)`` on the first k = min(total, limit) items (all when limit = 0); extrapolate."""
    k = min(total, limit) if limit else total
    t0 = time.perf_counter()
    value = run(k)
    dt = time.perf_counter() - t0
    return dt * total / k, value, k == total


def bench(n: int, pairs_limit: int, repeat: int, seed: int = 2026, full_upto: int = 64) -> list[dict]:
    K = random_kernel(seed, n, n, max_den=1000)
    if n <= full_upto:
        pairs_limit = 0  # sympy runs in full: its values are compared with the exact ones
    F = np.array([[float(v) for v in row] for row in K.rows])  # conversion not timed: the float user's input
    S = sympy.Matrix(n, n, lambda i, j: sympy.Rational(int(K[i, j].p), int(K[i, j].q)))
    c = fmpq(1, 2 * n)
    rows = []

    # eta_tv
    cold, _ = best_time(lambda: eta_tv(Kernel.from_exact_rows(K.rows)), repeat)
    warm, v = best_time(lambda: eta_tv(K), repeat)
    tf, vf = best_time(lambda: float_eta_tv(F), repeat)
    upper = [(i, j) for i in range(n) for j in range(i + 1, n)]
    ts, vs, full = timed_sympy(len(upper), pairs_limit, lambda k: sympy_pairs(S, upper[:k], sympy_tv_term))
    rows.append(dict(q="eta_tv", n=n, cold=cold, warm=warm, flt=tf, sym=ts, full=full,
                     ok=(str(v) == str(vs)) if full else None, err=abs(float(v) - vf)))

    # eta_hockey_stick, gamma = 3/2
    cold, _ = best_time(lambda: eta_hockey_stick(Kernel.from_exact_rows(K.rows), GAMMA), repeat)
    warm, v = best_time(lambda: eta_hockey_stick(K, GAMMA), repeat)
    tf, vf = best_time(lambda: float_eta_hockey_stick(F, 1.5), repeat)
    ordered = [(i, j) for i in range(n) for j in range(n) if i != j]
    ts, vs, full = timed_sympy(len(ordered), pairs_limit, lambda k: sympy_pairs(S, ordered[:k], sympy_hs_term))
    rows.append(dict(q="eta_hockey_stick", n=n, cold=cold, warm=warm, flt=tf, sym=ts, full=full,
                     ok=(str(v) == str(vs)) if full else None, err=abs(float(v) - vf)))

    # pml_ratio, c = 1/(2N)
    cold, _ = best_time(lambda: pml_ratio(Kernel.from_exact_rows(K.rows), c), repeat)
    warm, v = best_time(lambda: pml_ratio(K, c), repeat)
    tf, vf = best_time(lambda: float_pml_ratio(F, 1 / (2 * n)), repeat)
    cs = sympy.Rational(1, 2 * n)
    ts, vs, full = timed_sympy(n, pairs_limit // 2 if pairs_limit else 0, lambda k: sympy_pml_columns(S, cs, range(k)))
    rows.append(dict(q="pml_ratio", n=n, cold=cold, warm=warm, flt=tf, sym=ts, full=full,
                     ok=(str(v) == str(vs)) if full else None, err=abs(float(v) - vf) / float(v)))
    return rows


def _write_kernel_file(n: int, path: Path, seed: int = 2026) -> None:
    import json
    import random

    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        d = rng.randint(n, 1000 + 4 * n)
        cuts = sorted(rng.randint(0, d) for _ in range(n - 1))
        rows.append([f"{b - a}/{d}" for a, b in zip([0] + cuts, cuts + [d])])
    path.write_text(json.dumps({"rows": rows}))


def import_times(repeat: int = 3) -> tuple[float, float]:
    """Best wall time of ``import exactdp`` and of ``from exactdp import Kernel, eta_tv`` in fresh processes."""
    import subprocess

    def run(stmt: str) -> float:
        code = f"import time; t = time.perf_counter(); {stmt}; print(time.perf_counter() - t)"
        return min(float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                        check=True).stdout) for _ in range(repeat))

    return run("import exactdp"), run("from exactdp import Kernel, eta_tv")


def cold(sizes, repeat: int) -> None:
    import tempfile

    import exactdp.kernels as kernels
    from exactdp.io import read_kernel

    t_imp, t_first = import_times(repeat)
    print(f"import exactdp: {t_imp * 1000:.1f} ms; from exactdp import Kernel, eta_tv: {t_first * 1000:.0f} ms")
    print(f"{'N=M':>5}{'read exact':>12}{'read f64':>10}{'ratio':>7}{'general':>10}{'gen/new':>8}"
          f"{'+eta_tv exact':>15}{'+eta_tv f64':>13}{'ratio':>7}")
    from exactdp.limits import limits

    fast = kernels._plain_int_rows
    big = max(sizes) ** 2
    with tempfile.TemporaryDirectory() as tmp, limits(max_entries=max(big, 2**20), max_file_bytes=2**31):
        for n in sizes:
            path = Path(tmp) / f"k{n}.json"
            _write_kernel_file(n, path)
            t_exact, K = best_time(lambda: read_kernel(path), repeat)
            t_float, F = best_time(lambda: float_read(path), repeat)
            kernels._plain_int_rows = lambda seq, what: None  # the general reader, for comparison
            try:
                t_gen, K_gen = best_time(lambda: read_kernel(path), 1)
            finally:
                kernels._plain_int_rows = fast
            assert K_gen == K
            t_e, v = best_time(lambda: eta_tv(read_kernel(path)), repeat)
            t_f, fv = best_time(lambda: float_eta_tv(float_read(path)), repeat)
            assert abs(float(v) - fv) < 1e-9
            print(f"{n:>5}{t_exact:>11.3f}s{t_float:>9.3f}s{t_exact / t_float:>6.2f}x{t_gen:>9.2f}s"
                  f"{t_gen / t_exact:>7.1f}x{t_e:>14.3f}s{t_f:>12.3f}s{t_e / t_f:>6.2f}x")


def analyze_pipelines(sizes, repeat: int, formats=("json", "text"), kind: str = "zeros") -> None:
    """``exactdp analyze FILE --t 3/2 --c 1/(2N) --format json|text`` against the float64 pipeline
    (``benchmarks/_float64.py``: json, a/b → double, the same quantities and the same profile sweep), each a
    fresh interpreter with its bytecode cached as in an installed package (one untimed run each first), runs
    interleaved (the same load for both): the least wall time and the least CPU time
    (user + system of the child, ``resource.getrusage(RUSAGE_CHILDREN)``: whole process, start-up included;
    issue 24 item 3 asks ≤ 2× in CPU time) of ``repeat`` runs each, plus the float values' agreement with the
    exact ones.  ``kind``: ``zeros`` — the rows of :func:`_write_kernel_file` (random compositions with zero
    entries: an infinite LDP ratio, :data:`exactdp.numbers.infinity.INF`, no sympy import either); ``positive`` —
    ``wt3`` rows of :func:`measure_kernel_rows` (every entry positive: finite levels, no sympy import)."""
    import json
    import resource
    import subprocess
    import tempfile

    import os

    here = Path(__file__).resolve().parent
    # both pipelines as installed code runs: bytecode compiled once and cached (PYTHONDONTWRITEBYTECODE would make
    # every process compile exactdp's sources again), in a temporary cache written by one untimed run of each
    cache = tempfile.TemporaryDirectory()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache.name

    def run(cmd):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=here.parent, env=env).stdout
        wall = time.perf_counter() - t0
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime), out

    print(f"{'N=M':>5} {'rows':<9}{'format':<7}{'exact wall':>11}{'f64 wall':>10}{'ratio':>7}{'exact CPU':>11}"
          f"{'f64 CPU':>9}{'ratio':>7}  float64 agrees (rel. 1e-9)")
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = Path(tmp) / f"k{n}.json"
            if kind == "zeros":
                _write_kernel_file(n, path)
            else:
                path.write_text(json.dumps({"rows": measure_kernel_rows(n, "wt3")}))
            c = f"1/{2 * n}"
            float_cmd = [sys.executable, str(here / "_float64.py"), str(path), "1.5", c]
            for fmt in formats:
                exact_cmd = [sys.executable, "-m", "exactdp", "analyze", str(path), "--t", "3/2", "--c", c,
                             "--format", fmt, "--no-progress"]
                run(exact_cmd), run(float_cmd)  # untimed: writes the bytecode caches
                runs = [(run(exact_cmd), run(float_cmd)) for _ in range(repeat)]  # interleaved: same load
                ew, fw = min(r[0][0] for r in runs), min(r[1][0] for r in runs)
                ec, fc = min(r[0][1] for r in runs), min(r[1][1] for r in runs)
                agrees = "-"
                if fmt == "json":
                    e, f = json.loads(runs[0][0][2])["result"], json.loads(runs[0][1][2])
                    pairs = [(e["eta_tv"]["value"], f["eta_tv"]),
                             (e["eta_hockey_stick"]["value"], f["eta_hockey_stick"]),
                             (e["ldp"]["ratio"], f["ldp_ratio"]), (e["max_leakage"]["ratio"], f["max_leakage_ratio"]),
                             (e["pml"]["ratio"], f["pml_ratio"])]
                    ok = all(abs(float(Fraction(x)) - y) <= 1e-9 * abs(y) for x, y in pairs if x != "inf")
                    ok = ok and (e["is_ldp"]["verdict"] == "true") == f["is_ldp"]
                    agrees = (f"{'yes' if ok else 'NO'} (profile: {len(e['privacy_profile']['pieces'])} exact pieces, "
                              f"{len(f['profile'])} float)")
                print(f"{n:>5} {kind:<9}{fmt:<7}{ew:>10.2f}s{fw:>9.2f}s{ew / fw:>6.2f}x{ec:>10.2f}s{fc:>8.2f}s"
                      f"{ec / fc:>6.2f}x  {agrees}", flush=True)


# -- single-kernel measures: argument types and denominator sizes (--measures) --------------------

MEASURE_KINDS = ("den3", "den6", "den9", "den12", "wt3")


def measure_kernel_rows(n: int, kind: str, seed: int = 2026) -> list[list[str]]:
    """n×n rows of "a/d" strings: ``denD`` — each row its own random D-digit denominator d, the numerators a
    random composition of d (zero entries where d is small against n); ``wtD`` — random D-digit weights over
    their row sum (every entry positive, the row denominator ≈ D + log10 n digits)."""
    import random

    rng = random.Random(f"{seed}-{n}-{kind}")
    digits = int(kind[3:] if kind.startswith("den") else kind[2:])
    rows = []
    for _ in range(n):
        if kind.startswith("den"):
            d = rng.randrange(10 ** (digits - 1), 10**digits)
            cuts = sorted(rng.randrange(0, d + 1) for _ in range(n - 1))
            rows.append([f"{b - a}/{d}" for a, b in zip([0, *cuts], [*cuts, d])])
        else:
            w = [rng.randrange(10 ** (digits - 1), 10**digits) for _ in range(n)]
            t = sum(w)
            rows.append([f"{x}/{t}" for x in w])
    return rows


def _fresh(K: Kernel) -> Kernel:
    """The same kernel as a new object holding only its integer form: what ``Kernel(rows)`` of more than 64 plain
    "a/b" strings gives after parsing (newly written numerator and denominator arrays), without its caches (so a
    call on it is cold, parsing excluded)."""
    from exactdp.kernels import _init
    from exactdp.numbers.linalg import IntRows

    R = K.int_rows()
    obj = object.__new__(Kernel)
    _init(obj, None, False, None, (), IntRows(R.A.copy(), R.d.copy()))
    return obj


def _cpu_time(fn) -> float:
    """CPU seconds of this process during one call ``fn()`` (time spent waiting for other jobs excluded)."""
    c0 = time.process_time()
    fn()
    return time.process_time() - c0


def argument_types(p: int, q: int) -> dict:
    """One exact rational p/q in each type a user passes: Fraction, str, int ratio (sympy.Rational), fmpq."""
    return {"Fraction": Fraction(p, q), "str": f"{p}/{q}", "int ratio": sympy.Rational(p, q), "fmpq": fmpq(p, q)}


MEASURES = ("ldp_ratio", "max_leakage", "eta_tv", "pml_ratio", "eta_hockey_stick")


ARGUMENT_TYPES = ("Fraction", "str", "int ratio", "fmpq")


def measure_rows(n: int, kind: str, warm_runs: int, only=MEASURES, types=ARGUMENT_TYPES,
                 cold_runs: int = 7) -> list[dict]:
    """Best and median of ``warm_runs`` warm calls (after one warm-up) and the median and least of ``cold_runs``
    cold calls (each the first call on a new kernel, :func:`_fresh`), per measure and argument type, against
    the float64 closed form (best and median of as many runs) in the same process."""
    from _float64 import float_leakage, float_ldp

    from exactdp import ldp_ratio, max_leakage_ratio

    K = Kernel(measure_kernel_rows(n, kind))
    F = K.int_rows().A / K.int_rows().d[:, None]  # the float user's input (not timed)
    c, g = (1, 2 * n), (3, 2)
    cf, gf = c[0] / c[1], g[0] / g[1]
    cases = [("ldp_ratio", None, ldp_ratio, lambda: float_ldp(F)),
             ("max_leakage", None, max_leakage_ratio, lambda: float_leakage(F)),
             ("eta_tv", None, eta_tv, lambda: float_eta_tv(F))]
    cases += [("pml_ratio", t, lambda K, v=v: pml_ratio(K, v), lambda: float_pml_ratio(F, cf))
              for t, v in argument_types(*c).items() if t in types]
    cases += [("eta_hockey_stick", t, lambda K, v=v: eta_hockey_stick(K, v), lambda: float_eta_hockey_stick(F, gf))
              for t, v in argument_types(*g).items() if t in types]
    out, seen = [], {}
    for name, typ, fn, flt in (case for case in cases if case[0] in only):
        gc.collect()  # the garbage of earlier cases is not this call's cost
        fb, fm, fv = best_median(flt, warm_runs)
        fcpu = statistics.median(_cpu_time(flt) for _ in range(warm_runs))
        colds, cpus = [], []
        for _ in range(cold_runs):  # the first call on each of cold_runs new kernels
            gc.collect()  # before the new kernel: its arrays are then as parsing leaves them (just written)
            Kc = _fresh(K)
            t0, c0 = time.perf_counter(), time.process_time()
            cold_value = fn(Kc)
            cpus.append(time.process_time() - c0)
            colds.append(time.perf_counter() - t0)
        cold, cold_best, cold_cpu = statistics.median(colds), min(colds), statistics.median(cpus) / fcpu
        fn(K)  # warm-up
        eb, em, v = best_median(lambda: fn(K), warm_runs)
        assert v == cold_value and seen.setdefault(name, v) == v, f"{name}: the argument types disagree"
        ok = v == sympy.oo and fv == float("inf") or abs(float(v) - fv) <= 1e-9 * abs(fv)
        out.append(dict(q=name, typ=typ or "-", n=n, kind=kind, cold=cold, cold_best=cold_best, cold_cpu=cold_cpu,
                        best=eb, med=em, fbest=fb, fmed=fm, ok=ok))
    return out


def measures(sizes, kinds, warm_runs: int, only=MEASURES, types=ARGUMENT_TYPES, cold_runs: int = 7) -> int:
    print(f"{'measure':<17}{'arg type':<11}{'N=M':>5} {'rows':<6}{'cold':>10}{'best':>10}{'median':>10}"
          f"{'f64 best':>10}{'f64 med':>10}{'med/f64':>9}{'best/f64':>9}{'cold/f64':>9}{'coldmin/f64':>12}{'coldCPU':>9}"
          "  float agrees")
    bad, table = 0, []
    for n in sizes:
        for kind in kinds:
            for r in measure_rows(n, kind, warm_runs, only, types, cold_runs):
                ms = {k: r[k] * 1e3 for k in ("cold", "best", "med", "fbest", "fmed")}
                print(f"{r['q']:<17}{r['typ']:<11}{n:>5} {kind:<6}{ms['cold']:>8.3f}ms{ms['best']:>8.3f}ms"
                      f"{ms['med']:>8.3f}ms{ms['fbest']:>8.3f}ms{ms['fmed']:>8.3f}ms{r['med'] / r['fmed']:>8.2f}x"
                      f"{r['best'] / r['fbest']:>8.2f}x{r['cold'] / r['fmed']:>8.2f}x{r['cold_best'] / r['fmed']:>11.2f}x"
                      f"{r['cold_cpu']:>8.2f}x"
                      f"  {'yes' if r['ok'] else 'NO'}",
                      flush=True)
                bad += not r["ok"]
                table.append(r)
    summary(table)
    return 1 if bad else 0


def leakage_pieces(sizes, kinds, runs: int) -> None:
    """``--leakage-pieces``: where a first ``max_leakage_ratio`` call goes, in CPU time (medians of ``runs`` new
    kernels, :func:`_fresh`) over the float64 closed form's median CPU time in the same process: the whole first
    call with the collector run before the new kernel is made (as ``--measures``) and without it, and its two
    halves after the collector — the column maxima (``column_extreme``) and the exact sum of the maxima
    (``weighted_row_sum``: grouping, product tree, the one reduction) — and the first call after the collector
    on a new kernel whose column maxima are already known.  One markdown table per size."""
    from _float64 import float_leakage

    from exactdp import max_leakage_ratio
    from exactdp.numbers.linalg import column_extreme, weighted_row_sum

    names = ("first call, collector", "first call, no collector", "column maxima (`column_extreme`)",
             "exact sum (`weighted_row_sum`)", "first call, maxima given")
    for n in sizes:
        cells: dict[str, list[str]] = {name: [] for name in ("float64 closed form", *names)}
        for kind in kinds:
            K = Kernel(measure_kernel_rows(n, kind))
            F = K.int_rows().A / K.int_rows().d[:, None]
            gc.collect()
            fcpu = statistics.median(_cpu_time(lambda: float_leakage(F)) for _ in range(15))
            got: dict[str, list[float]] = {name: [] for name in names}
            for _ in range(runs):
                gc.collect()
                Kc = _fresh(K)
                got[names[0]].append(_cpu_time(lambda: max_leakage_ratio(Kc)))
                Kc = _fresh(K)
                got[names[1]].append(_cpu_time(lambda: max_leakage_ratio(Kc)))
                gc.collect()
                R = _fresh(K).int_rows()
                c0 = time.process_time()
                rows = column_extreme(R, "max")
                c1 = time.process_time()
                value = weighted_row_sum(R, rows, np.arange(n))
                got[names[2]].append(c1 - c0)
                got[names[3]].append(time.process_time() - c1)
                assert value == max_leakage_ratio(Kc)
                Kc = _fresh(K)
                column_extreme(Kc.int_rows(), "max")  # kept with the kernel's integer form
                gc.collect()
                got[names[4]].append(_cpu_time(lambda: max_leakage_ratio(Kc)))
            cells["float64 closed form"].append(f"{fcpu * 1e3:.3f}")
            for name in names:
                t = statistics.median(got[name])
                cells[name].append(f"{t * 1e3:.2f} ({t / fcpu:.1f}×)")
        print(f"\n{n}×{n}, ms (× float64), medians of {runs} new kernels\n\n| | "
              + " | ".join(f"`{k}`" for k in kinds) + " |\n|---|" + "---|" * len(kinds))
        for name, row in cells.items():
            print(f"| {name} | " + " | ".join(row) + " |")


def _span(values) -> str:
    """``lo–hi×`` (one figure when they round alike)."""
    lo, hi = f"{min(values):.1f}", f"{max(values):.1f}"
    return f"{lo}×" if lo == hi else f"{lo}–{hi}×"


def summary(rows) -> None:
    """One markdown line per measure and size: per row kind, the median ratio, the best ratio and (in brackets)
    cold CPU over the float64 median CPU, each a range over the argument types."""
    kinds = list(dict.fromkeys(r["kind"] for r in rows))
    print(f"\n| N=M | median ratio, best ratio (cold CPU) | {' | '.join(f'`{k}`' for k in kinds)} |")
    print("|---|---|" + "---|" * len(kinds))
    for n in dict.fromkeys(r["n"] for r in rows):
        for q in dict.fromkeys(r["q"] for r in rows):
            cells = []
            for k in kinds:
                sel = [r for r in rows if r["n"] == n and r["q"] == q and r["kind"] == k]
                cells.append(", ".join((_span([r["med"] / r["fmed"] for r in sel]),
                                        _span([r["best"] / r["fbest"] for r in sel])))
                             + f" ({_span([r['cold_cpu'] for r in sel])})" if sel else "—")
            print(f"| {n} | `{q}` | {' | '.join(cells)} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=None)
    ap.add_argument("--cold", action="store_true", help="the cold path: read a kernel file, import time")
    ap.add_argument("--analyze", action="store_true",
                    help="exactdp analyze --format json against the float64 pipeline, fresh processes")
    ap.add_argument("--analyze-rows", nargs="+", choices=("zeros", "positive"), default=["zeros", "positive"],
                    help="with --analyze: the kernel files (zeros: an infinite LDP ratio; positive: finite levels)")
    ap.add_argument("--pairs", type=int, default=96, help="row pairs (columns: half) timed for sympy")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--measures", action="store_true",
                    help="ldp_ratio, pml_ratio, max_leakage, eta_tv, eta_hockey_stick per argument type and "
                         "denominator size: cold, best and median warm, against float64 in the same run")
    ap.add_argument("--kinds", nargs="+", default=list(MEASURE_KINDS),
                    help="row kinds for --measures: denD (random D-digit row denominators), wtD (D-digit weights)")
    ap.add_argument("--quick", action="store_true", help="with --measures: sizes 128 and 512 only")
    ap.add_argument("--only", nargs="+", choices=MEASURES, default=list(MEASURES), help="with --measures: these measures")
    ap.add_argument("--types", nargs="+", choices=ARGUMENT_TYPES, default=list(ARGUMENT_TYPES),
                    help="with --measures: these argument types of c and γ")
    ap.add_argument("--leakage-pieces", action="store_true",
                    help="a first max_leakage_ratio call with and without the collector, and its two halves")
    ap.add_argument("--cold-runs", type=int, default=7,
                    help="with --measures: new kernels per measure and type, each timed on its first call (median)")
    args = ap.parse_args(argv)
    if args.leakage_pieces:
        leakage_pieces(args.sizes or [512], args.kinds, max(1, args.cold_runs))
        return 0
    if args.measures:
        sizes = args.sizes or ([128, 512] if args.quick else [128, 256, 512, 1024])
        return measures(sizes, args.kinds, max(7, args.repeat), args.only, args.types, max(1, args.cold_runs))
    if args.cold:
        cold(args.sizes or [512, 1024, 2048], args.repeat)
        return 0
    if args.analyze:
        for kind in args.analyze_rows:
            analyze_pipelines(args.sizes or [64, 128, 256], args.repeat, kind=kind)
        return 0
    args.sizes = args.sizes or [64, 256, 512]
    import flint

    print(f"# exactdp core benchmark — {platform.processor() or platform.machine()}, "
          f"python {platform.python_version()}, numpy {np.__version__}, sympy {sympy.__version__}, "
          f"python-flint {flint.__version__}")
    head = (f"{'quantity':<17}{'N=M':>5}{'exact cold':>12}{'exact warm':>12}{'float64':>10}"
            f"{'sympy':>12}{'cold/f64':>10}{'warm/f64':>10}{'sympy/cold':>12}{'sympy/warm':>12}  check")
    print(head)
    print("-" * len(head))
    for n in args.sizes:
        for r in bench(n, args.pairs, args.repeat):
            sym = f"{r['sym']:.2f}s" + ("" if r["full"] else "*")
            check = ("= sympy" if r["ok"] else "MISMATCH") if r["ok"] is not None else "(sympy extrapolated)"
            print(f"{r['q']:<17}{r['n']:>5}{r['cold']:>11.4f}s{r['warm']:>11.4f}s{r['flt']:>9.4f}s{sym:>12}"
                  f"{r['cold'] / r['flt']:>9.2f}x{r['warm'] / r['flt']:>9.2f}x{r['sym'] / r['cold']:>11.0f}x"
                  f"{r['sym'] / r['warm']:>11.0f}x  {check}")
            if r["ok"] is False:
                return 1
    print("* sympy time extrapolated linearly from a fixed number of row pairs (or columns)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
