"""How the exact LP suprema scale with N and M (issue 6).  Run: ``python benchmarks/bench_extremal.py [--quick]``.

For each (N, M) it times ``sup_eta_tv`` (best of a few runs) for the (ε,c)-PML class just below the
regime switch (c = 1/(2N), t = 1 + 9/10·(2/(Nc) − 1)) and for (ε,δ)-LDP (t = 3, δ = 1/10), with the full LP
(N(M−1) variables) and with ``reduce_rows`` (3(M−1) variables).  Ratios are against the N = 2, M = 2 PML
run measured in the same process, and against a float64 LP (scipy HiGHS, if installed) solving the same
LPs — the float solver only times the same work; no float result is used anywhere.
"""

from __future__ import annotations

import sys
import time

from flint import fmpq

from exactdp.theory.extremal import sup_eta_tv


def _best(fn, repeat):
    best = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t0
        best = dt if best is None or dt < best else best
    return best, out


def _float_time(res, repeat):
    try:
        from scipy.optimize import linprog
    except ImportError:
        return None

    def run():
        for cl in res.lps:
            lp = cl.lp
            c = [-float(v) for v in lp.c]  # float64 copies, for timing only
            A = [[float(v) for v in row] for row in lp.A_ub]
            b = [float(v) for v in lp.b_ub]
            linprog(c, A_ub=A, b_ub=b, bounds=(0, None), method="highs")

    return _best(run, repeat)[0]


def main(quick: bool) -> None:
    repeat = 2 if quick else 3
    Ns = (2, 3, 4, 5) if quick else (2, 3, 4, 5, 6, 8)
    Ms = (2, 3, 4) if quick else (2, 3, 4, 5)
    rows, base = [], None
    for cls in ("pml", "ldp"):
        for N in Ns:
            for M in Ms:
                if cls == "ldp" and N > 5:
                    continue
                for reduce_rows in (False, True):
                    if reduce_rows and N <= 3:
                        continue
                    if cls == "pml":
                        c = fmpq(1, 2 * N)
                        t = 1 + fmpq(9, 10) * (2 / (N * c) - 1)
                        kw = {"t": t, "c": c}
                    else:
                        kw = {"t": fmpq(3), "delta": fmpq(1, 10)}
                    sec, res = _best(lambda N=N, M=M, r=reduce_rows, kw=kw: sup_eta_tv(N, M, reduce_rows=r, **kw), repeat)
                    if base is None:
                        base = sec
                    fl = _float_time(res, repeat)
                    n, m, _ = res.lps[0].lp.shape
                    rows.append((cls, N, M, "rows" if reduce_rows else "full", len(res.lps), n, m, res.pivots,
                                 sec, sec / base, (sec / fl) if fl else None, str(res.value)))
    head = ("class", "N", "M", "LP", "#LPs", "vars", "rows", "pivots", "ms", "x base", "x float64", "value")
    print(" ".join(f"{h:>9}" for h in head))
    for r in rows:
        cells = list(r)
        cells[8] = f"{1000 * r[8]:.1f}"
        cells[9] = f"{r[9]:.1f}"
        cells[10] = "-" if r[10] is None else f"{r[10]:.1f}"
        print(" ".join(f"{x!s:>9}" for x in cells))


if __name__ == "__main__":
    main("--quick" in sys.argv)
