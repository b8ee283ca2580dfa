r"""Grosse et al. 2026, Lemma 1 — zero entries of (ε,c)-PML kernels.

Statement (G-12): K ∈ M(ε,c) and ε < −log((N−l)c) for some l ∈ [N−1] ⟹ every column of K has at most
l−1 zeros.  Equivalently: a non-zero column with z ≥ 1 zeros forces e^ε ≥ 1/((N−z)c).

Proved (``proof``, all N ≥ 2, M ≥ 2, every real t ≥ 1, c ∈ (0, 1/N], l ∈ [N−1]):
* forced — the Farkas certificate :func:`exactdp.theory.class_certificates.zero_entries`: in a non-zero
  column y with a zero at x₀, maximum m > 0 and w = N − z non-zero entries, the PML constraint at x₀ gives
  m ≤ t c S_y, and S_y ≤ w m; with z ≥ l (w ≤ N − l) the combination is m(t c (N−l) − 1) ≥ 0, so
  t ≥ 1/((N−l)c).  Hence on the whole open interval t < 1/((N−l)c) every column has at most l − 1 zeros;
* exact — :func:`~exactdp.theory.class_certificates.zero_column_witness_level`: ``zero_column_witness(N, z)``
  has a column with z zeros and level exactly 1/((N−z)c), so at t = 1/((N−l)c) a column with l zeros
  exists (z = l): the threshold cannot be raised.
Supporting:
* ``random`` — random exact kernels with zeros (N = 2..6, M = 2..4): for every non-zero column with z
  zeros, pml_ratio(K, c) ≥ 1/((N−z)c), for several c.
* ``optimal_kernels`` — the same on every optimal kernel the Thm 1 LPs return on the [G] grid.
* ``lp_threshold`` — by exact LP (with dual certificates): just below t = 1/((N−z)c) the largest mass a
  kernel of M(ε,c) can put on a column with z prescribed zeros is 0 (no feasible kernel violates the
  lemma, by input/output symmetry); at the threshold it is positive, and the explicit kernel
  ``zero_column_witness(N, z)`` has pml_ratio exactly 1/((N−z)c): the bound is attained.

Not shown: — (the supporting LP probes t = thr − 1/100 and t = thr; the certificates cover every t).
"""

from __future__ import annotations

from flint import fmpq

from exactdp.measures.privacy import pml_ratio
from exactdp.mechanisms import zero_column_witness
from exactdp.sources import GROSSE2026, Source
from exactdp.theory.extremal import max_mass_with_zeros, sup_eta_tv
from exactdp.theory import class_certificates
from exactdp.verification.claims import Check, CheckContext, Claim, Outcome, Verdict, proved, register
from exactdp.verification.instances import random_kernel
from exactdp.numbers.formula_text import written_step as step

from ._instances import pml_grid
from .._statements import zeros_per_column


def _violation(K, c):
    """A column contradicting Lemma 1 at the kernel's own level, or None."""
    t = pml_ratio(K, c)
    for y in range(K.M):
        col = K.column(y)
        z = sum(1 for v in col if v == 0)
        if 0 < z < K.N and t < 1 / ((K.N - z) * c):
            return {"kernel": K.as_strings(), "c": str(c), "column": y, "zeros": z, "pml_ratio": str(t),
                    "lemma1_minimum": str(1 / ((K.N - z) * c))}
    return None


def check_random(ctx: CheckContext) -> Outcome:
    rng = ctx.rng("lem1-random")
    count = ctx.size(300, 3000)
    for _ in range(count):
        N, M = rng.randint(2, 6), rng.randint(2, 4)
        K = random_kernel(rng, N, M, 10)
        for c in (fmpq(1, N), fmpq(1, 2 * N), fmpq(1, 7 * N)):
            bad = _violation(K, c)
            if bad:
                return Outcome(Verdict.REFUTED, "a kernel has more zeros than Lemma 1 allows", counterexample=bad)
    return Outcome(Verdict.VERIFIED, f"{count} random exact kernels (with zeros) x 3 values of c: no violation",
                   instances=count, families=(("random kernels N 2-6, M 2-4", count),))


def check_optimal_kernels(ctx: CheckContext) -> Outcome:
    n = 0
    for N, t, c in pml_grid(ctx.quick):
        K = sup_eta_tv(N, 2, t=t, c=c).kernel
        bad = _violation(K, c)
        if bad:
            return Outcome(Verdict.REFUTED, "an LP-optimal kernel violates Lemma 1", counterexample=bad)
        n += 1
    return Outcome(Verdict.VERIFIED, f"{n} LP-optimal kernels: no violation", instances=n,
                   families=(("Thm 1 optimal kernels on the [G] grid", n),))


def check_proof(ctx: CheckContext) -> Outcome:
    """Lemma 1 for every t below the threshold (Farkas certificate) and its tightness (witness level)."""
    certs = (class_certificates.zero_entries(), class_certificates.zero_column_witness_level())
    return proved("every kernel of M(eps,c) with t < 1/((N-l)c) has at most l-1 zeros per column, for every t in "
                  "that open interval; the witness with l zeros has level exactly 1/((N-l)c)", certs,
                  class_certificates.ALL_N_M, derivation=(
                      step("[[G] Lemma 1 zero entries] a non-zero column y with `z >= l` zeros and maximum `m > 0`: "
                           "`(t*c*S_y - m) + t*c*(w*m - S_y) + t*c*(v - w)*m = m*(t*c*v - 1)` with `v = N - l`, "
                           "each term non-negative, so `t >= 1/((N-l)*c)`; contrapositive: `t < 1/((N-l)*c)` "
                           "leaves at most l - 1 zeros"),
                      step("[[G] Lemma 1 witness level] zero_column_witness(N, z): column 0 has z zeros and PML "
                           "ratio `1/((N-z)*c)` (its entry 1/N over c times the column sum `(N-z)/N`); column 1's ratio is at most that; so with "
                           "`z = l` the threshold is attained and the open interval is exact")))


def check_lp_threshold(ctx: CheckContext) -> Outcome:
    n, rows = 0, []
    for N in range(2, 6):
        for c in (fmpq(1, N), fmpq(1, 2 * N)):
            for z in range(1, N):
                thr = 1 / ((N - z) * c)
                below = max_mass_with_zeros(N, z, t=thr - fmpq(1, 100), c=c)
                at = max_mass_with_zeros(N, z, t=thr, c=c)
                W = zero_column_witness(N, z)
                problems = below.failures() + at.failures()
                if below.value != 0 or not at.value > 0 or pml_ratio(W, c) != thr or problems:
                    return Outcome(Verdict.REFUTED, "Lemma 1 threshold not as stated", counterexample={
                        "N": str(N), "z": str(z), "c": str(c), "threshold": str(thr),
                        "mass_below": str(below.value), "kernel_below": below.kernel.as_strings(),
                        "mass_at": str(at.value), "witness_ratio": str(pml_ratio(W, c)), "problems": problems})
                rows.append(f"N={N} c={c} z={z}: at t = {thr - fmpq(1, 100)} the LP mass on the column is 0; "
                            f"at t = {thr} it is {at.value}")
                n += 1
    return Outcome(Verdict.VERIFIED, f"{n} (N, c, z): exact LP shows the zero threshold 1/((N-z)c) is exact",
                   instances=n, families=(("N 2-5, c in {1/N, 1/(2N)}, z 1..N-1", n),), details={"rows": rows})


CLAIM = register(Claim(
    written=(zeros_per_column("grosse2026.lem1"),),
    id="grosse2026.lem1",
    domain=("t >= 1", "c > 0", "u >= 2*c", "u <= 1", "N >= 2", "N*c <= 1"),
    catalogue=("G-12",),
    source=Source(GROSSE2026, "Lemma 1", section="III"),
    title="Zero entries: eps < -log((N-l)c) allows at most l-1 zeros per column",
    statement=r"K\in\mathcal M(\varepsilon,c),\ \varepsilon<-\log((N-l)c)\Rightarrow"
              r"\text{each column has at most } l-1 \text{ zeros}",
    hypotheses=("`N >= 2`, `0 < c <= 1/N`, `1 <= l <= N - 1`; columns not identically 0 (an unused output "
                "has `N` zeros)"),
    checks=(Check("proof", check_proof, "Farkas certificate for every t below the threshold; witness level"),
            Check("random", check_random, "random exact kernels", supporting=True),
            Check("optimal_kernels", check_optimal_kernels, "LP-optimal kernels", supporting=True),
            Check("lp_threshold", check_lp_threshold, "exact LP just below and at the threshold; witness",
                  supporting=True)),
    expected=Verdict.PROVED,
    formulas=("eps < -log((N - l)*c) ⟹ zeros_per_column(K) <= l - 1",),
))
