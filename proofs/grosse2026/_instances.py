"""Instance families shared by the [G] extremal checks (Thm 1, Thm 3, Lemma 3, Lemma 4): exact grids.

No claims are declared here.  Every value is an exact rational; the grids are deterministic.
"""

from __future__ import annotations

from flint import fmpq

#: docs/claims.md §7, "[G] Thm 1 by exact LP": (N, E = e^eps, c, eta_TV(eps, c)) — all 20 rows
THM1_TABLE = (
    (2, "3", "1/4", "4/5"), (2, "2", "1/3", "3/5"), (3, "2", "1/4", "2/3"), (3, "5/2", "1/4", "12/13"),
    (3, "21/8", "1/4", "52/53"), (3, "66/25", "1/4", "82/83"), (3, "8/3", "1/4", "1"), (3, "3", "1/4", "1"),
    (3, "33/10", "1/5", "115/116"), (3, "10/3", "1/5", "1"), (4, "3/2", "1/8", "2/7"), (4, "3", "1/8", "4/5"),
    (4, "5", "1/8", "1"), (4, "3", "1/1000", "500/997"), (5, "2", "1/10", "1/2"), (5, "19/5", "1/10", "28/29"),
    (5, "99/25", "1/10", "148/149"), (5, "4", "1/10", "1"), (4, "6/5", "1/4", "1/5"), (3, "11/10", "1/3", "1/10"),
)

#: docs/claims.md §7, "Exact Gamma_max": (N, E, c, exact Gamma_max, Lemma 4 bound)
GAMMA_TABLE = (
    (2, "3", "1/4", "7/3", "5/2"), (3, "2", "1/10", "15/8", "12/5"), (4, "3/2", "1/8", "7/5", "7/4"),
    (4, "3", "1/8", "5/2", "5/2"), (5, "13/10", "1/20", "41/32", "79/40"),
)


def pml_grid(quick: bool):
    """(N, t, c) for N = 2..5, c ∈ {1/(4N), 1/(2N), 1/(N+1), 1/N} (quick: the last three), and t on both
    sides of the regime switch 2/(Nc): 1 + (s−1)/3, 1 + 9(s−1)/10, s, s + 1/3 with s = 2/(Nc)."""
    for N in range(2, 6):
        cs = [fmpq(1, 2 * N), fmpq(1, N + 1), fmpq(1, N)] + ([] if quick else [fmpq(1, 4 * N)])
        for c in cs:
            s = 2 / (N * c)
            for t in (1 + (s - 1) / 3, 1 + 9 * (s - 1) / 10, s, s + fmpq(1, 3)):
                yield N, t, c


def gamma_grid(quick: bool):
    """(N, t, c) with t ∈ [1, 1/c] on both sides of Lemma 4's tightness threshold 1/((N−1)c)."""
    for N in range(2, 6):
        for c in ([fmpq(1, 2 * N), fmpq(1, N)] if quick else [fmpq(1, 4 * N), fmpq(1, 2 * N), fmpq(1, N + 1), fmpq(1, N)]):
            thr = 1 / ((N - 1) * c)
            ts = {fmpq(1), 1 + (thr - 1) / 2, thr, (thr + 1 / c) / 2, 1 / c}
            for t in sorted(t for t in ts if 1 <= t <= 1 / c):
                yield N, t, c
