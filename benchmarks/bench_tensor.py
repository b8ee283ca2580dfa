"""Speed of the exact n-fold products (issue 7): binary randomized response, n = 10 … 10000.

For each n: time of the exact η_TV(K^{⊗n}) and δ_n(γ) at one γ (type classes, exactdp), against
  * the explicit tensor power K^{⊗n} + the two-point formula, where it fits (n ≤ 10),
  * float64 of the same binomial formula (numpy, log-space), the speed-of-light baseline,
with ratios printed from the same run; then the accountants on the same δ_n and ε(10⁻⁶) (see below), then the
pair-type search on an asymmetric 2×2 kernel.

Large n (issue 15 item 3): binary RR δ_n(2), δ_n(γ_n) and η_TV at n = 10³, 10⁴, 10⁵ by the binomial fast
path (binary splitting), against the type-class polynomial power it replaced (``product_loss``), run in the
same process where that is predicted to finish within ``--old-limit`` seconds (default 60; predicted from
its fitted growth exponent, at least 2.5, and refused when its n + 1 coefficients of ≈ 2n bits would need
more than 1 GB); the fitted growth exponents of both.

Issue 15 items 1–2 (``--stream-only``): the pair of a 2×3 kernel, δ_n(γ) = E_γ(p^{⊗n} ‖ q^{⊗n}) (three
ratio classes, D = 2) by the streamed slices against the PLD accountant (one direction, intervals 1e-4 and
1e-3, pessimistic and optimistic: its bracket and its relative width), and ε for a given δ over all input
sequences of the asymmetric 2×2 against one δ evaluation (the inversion's cost in searches).

Certified enclosures (``--enclosure-only``, also run with ``--stream-only``): the same 2×3 pair at n = 10³ … 10⁵ by
arb balls of relative width ≤ 10⁻⁶ (``hockey_stick_product_enclosure``, forced with ``try_exact=False``) against
the exact streamed slices and the PLD accountant, checking exact ∈ enclosure and that the enclosure meets the
PLD bracket (1e-4 is skipped at n = 10⁵ unless ``--pld-large``: minutes and gigabytes).

All input sequences (``--all-sequences``): δ_n(γ) of the 2×3 kernel over every composition k × (x, x'),
n − k × (x', x) at n = 10 … 10⁴ (certified filter with the lattice bounds of the mixed compositions, then the
exact candidates; and the certified enclosure with ``try_exact=False``) against the PLD accountant at 1e-4 and
1e-3 (both directions of the pair), with the peak resident memory.

Asymmetric 2×2 over all input sequences (``--asymmetric``, also at the end of the default run): δ_n(γ_n) and
η_TV at n = 10 … 10 000 by the certified composition filter against the unfiltered exact search, and ε for a
given δ at n = 1000 against one δ evaluation (issue 15 acceptance: < 10 s at n = 10 000, ≤ 5×).

Issue 24 acceptance (``--sweep``): the 2×3 pair (1/2, 1/3, 1/6)/(1/4, 1/4, 1/2) at n = 1000 over all input
sequences, ten γ = 3^380 … 3^434 with ``enclosure=True`` and ε for δ = 10⁻⁶, against the accountants (below)
composing the pair in both directions and answering the same eleven queries (CPU seconds, same run).

Issue 24 items 1–2 and issue 25 item 3 (``--tails-products-3x3``): δ_n((3/2)ⁿ) of the asymmetric 2×2 at n = 10⁴
(≈ 10⁻⁵¹⁶, below the float range), ε for δ = 10⁻⁶ of a 3×3 kernel at n = 1000 and of RR^{⊗50} ⊗ K23^{⊗50}, each
against the accountants (below) on the same workload (their brackets and CPU times, same run).

Issue 24 acceptance for random pairs (``--random-pairs``): 8 seeded random 2×3 row pairs (denominators 6–20) at
n = 1000, ten γ = 2^k spread over δ_n ≈ 1/2 … 10⁻¹⁰ plus ε for δ = 10⁻⁶, each pair against the accountants (below;
both directions, the same eleven queries), CPU seconds, same run; the ten γ in one ``delta_tensor_power_batch`` call
(the certified filter's passes over the compositions shared by the γ they serve), then ``epsilon_tensor_power``.  Near-symmetric pairs (``--near-symmetric``):
the same row for (3/10, 3/10, 2/5) / (2/5, 3/10, 3/10) and two pairs of a row and a perturbed permutation of it.
ε for any δ ≥ 10⁻¹² (``--eps-deltas``): the same random pairs, ε for δ = 10⁻¹², 10⁻¹⁰, …, 10⁻² and 10⁻¹ each (exact
γ*), against the accountants answering the same seven queries.  Issue 25 (``--product``): ε for δ = 10⁻⁶ of
RR^{⊗500} ⊗ K23^{⊗500} (the command ``exactdp tensor rr.json:500 k23.json:500 --delta 1e-6``) against the accountants;
``--mixtures``: the same at n = 10⁴ for RR ⊗ K23, RR ⊗ 3-RR, RR ⊗ UE and 3-RR ⊗ UE (5000 coordinates each), and of
three kernels: RR ⊗ 3-RR ⊗ UE at 3000 each, RR ⊗ 3-RR ⊗ 5-RR at 3000 (refused: three incommensurable groups), 800 and 300.

Issue 24, 3×3 kernels (``--random-3x3``): seeded random 3×3 kernels whose row pairs leave four or more pair classes,
ε for δ = 10⁻⁶ at n = 1000 against the accountants (below) composing the six ordered row pairs (a refusal printed
with its limit, its CPU time counted).  ``--random-3x3-deltas``: the same kernels, ten γ = 2^k spread over
δ_n ≈ 1/2 … 10⁻¹⁰ each alone (``enclosure=True``) plus ε for δ = 10⁻⁶, counted exact / enclosure / refused, each
γ's outcome and CPU time printed, against the accountants answering the same eleven queries (``--seed S``: only
seed S; ``--near-equal``: also the kernel of near-equal rows (1/2, 3/10, 1/5) / (2/5, 2/5, 1/5) / (8/21, 8/21, 5/21);
``--no-accountants``: exactdp alone, for a same-run comparison with another checkout).

The accountants (issue 24 item 5; ``pip install -e ".[bench]"``): every accountant table — binary RR
(``--rr-accountants``, also in the default run), ``--sweep``, ``--random-pairs``, ``--near-symmetric``,
``--random-3x3``, ``--tails-products-3x3`` and ``--product`` — prints under each workload one line per accountant
setting: Google's dp_accounting PLD at 1e-3 and at 1e-4 (pessimistic run timed; the optimistic run, which gives the
lower ends, added in parentheses) and the PRV accountant of Gopi–Lee–Wutschitz (``prv-accountant``: the pair's
privacy-loss random variable, benchmarks/_accountants.py, composed as its ``PRVAccountant`` composes), each composing
the same directions (both directions of a pair, the ordered row pairs of a kernel, RR with each direction of K23)
and answering the workload's queries: its CPU seconds, the ratio to exactdp's CPU seconds, a bracket
([optimistic, pessimistic]; PRV [lower, upper]) and ``inside`` / ``OUTSIDE`` / ``n/a (reason)`` — whether exactdp's
exact value or certified enclosure lies in every bracket, decided by arb comparisons.  A query an accountant cannot
answer prints n/a with the reason (e^ε beyond float64, mass at +∞, ε beyond its float64 e^−loss near 745 nats, δ at
its 10⁻¹⁵ truncation floor, a grid above ``--pld-max-points`` / ``--prv-max-points``); without a package its lines
say ``not installed``.  ``--prv-eps-error``, ``--prv-delta-error`` (defaults 0.1 and 10⁻⁹), ``--prv-max-points``
(default 2·10⁷) and ``--pld-max-points`` (default 10⁷, estimated) set them.  ``--accountants`` runs all seven
tables in one run, between two lines of date, commit and load.

Both sides are timed as CPU of this one process, so BLAS runs single-threaded (``OPENBLAS_NUM_THREADS``,
``OMP_NUM_THREADS`` and ``MKL_NUM_THREADS`` default to 1 here unless set): idle OpenBLAS worker threads started
by an accountant's import spin after its calls, and that spin was counted in whatever ran next (exactdp's
system time on seed 3 of ``--random-pairs``: 0.96–3.37 s with threads, 0.39–0.41 s without).  Set them before
running to measure a threaded accountant.

Run:  python benchmarks/bench_tensor.py [--quick] [--large-only] [--stream-only] [--enclosure-only] [--pld-large]
      [--all-sequences] [--asymmetric] [--sweep] [--tails-products-3x3] [--random-pairs [--seeds N]]
      [--near-symmetric] [--eps-deltas [--seeds N]] [--product] [--mixtures] [--random-3x3] [--random-3x3-deltas [--seed S] [--near-equal] [--no-accountants]]
      [--rr-accountants] [--accountants] [--old-limit SECONDS]
      [--prv-eps-error E] [--prv-delta-error D] [--prv-max-points N] [--pld-max-points N]
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # before numpy: see the docstring
    os.environ.setdefault(_threads, "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
from flint import arb, ctx, fmpq

from exactdp import Kernel, eta_hockey_stick, eta_tv
from exactdp.measures.privacy_loss import product_loss
from exactdp.measures.tensor import (
    delta_tensor_power,
    delta_tensor_power_batch,
    eta_tv_tensor_power,
    pair_classes,
    tensor_search_cost,
)
from exactdp.mechanisms import randomized_response

from _accountants import (
    accountants,
    both_directions,
    delta_enclosure,
    epsilon_enclosure,
    pld_module,
    print_accountants,
    rr_with_both_directions,
    settings_text,
    summary,
    verdict,
)

T0 = fmpq(3)  # e^{ε0} of the mechanism: rows (3/4, 1/4), (1/4, 3/4) = dp_accounting RR with p = 1/2


def gamma_n(n: int) -> int:
    """γ_n = 3^{⌊n/2⌋+⌊√n⌋}: about one standard deviation above the mean privacy loss, so δ_n ∈ (0, 1)."""
    return 3 ** (n // 2 + math.isqrt(n))


def timed(fn, *args, repeat: int = 1):
    """(best wall time over ``repeat`` runs, result) of ``fn(*args)``."""
    best = math.inf
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn(*args)
        best = min(best, time.perf_counter() - t)
    return best, out


def float_delta(n: int, t: float, log_g: float) -> float:
    """float64 of Σ_k C(n,k) (a^k b^{n-k} − γ b^k a^{n-k})_+, a = t/(t+1), b = 1/(t+1), in log space."""
    k = np.arange(n + 1, dtype=np.float64)
    logc = np.array([math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) for i in range(n + 1)])
    la, lb = math.log(t / (t + 1)), math.log(1 / (t + 1))
    with np.errstate(over="ignore"):  # γ q overflows to +inf exactly where the term is 0
        p = np.exp(logc + k * la + (n - k) * lb)
        gq = np.exp(logc + k * lb + (n - k) * la + log_g)
        return float(np.clip(p - gq, 0, None).sum())


def explicit_route(K, n, g):
    """Build K^{⊗n} (2^n × 2^n) and apply the two-point formulas."""
    Kn = K.tensor_power(n)
    return eta_tv(Kn), eta_hockey_stick(Kn, g)


def main(quick: bool = False) -> None:
    K = randomized_response(2, T0)
    sizes = (10, 100, 1000) if quick else (10, 100, 1000, 10000)
    print(f"binary randomized response, e^eps0 = {T0}; delta_n at gamma_n = 3^(n//2 + isqrt(n))")
    print(f"{'n':>6} {'eta_TV exact':>13} {'delta_n exact':>14} {'float64':>10} {'exact/f64':>10} "
          f"{'explicit':>10} {'expl/exact':>10}  delta_n ~")
    for n in sizes:
        reps = 3 if n <= 1000 else 1
        g, log_g = gamma_n(n), (n // 2 + math.isqrt(n)) * math.log(3.0)
        t_eta, eta = timed(eta_tv_tensor_power, K, n, repeat=reps)
        t_delta, delta = timed(delta_tensor_power, K, n, g, repeat=reps)
        t_float, fdelta = timed(float_delta, n, 3.0, log_g, repeat=3)
        explicit = "-"
        ratio_explicit = "-"
        if n <= 10:
            t_exp, (e1, d1) = timed(explicit_route, K, n, g)
            assert (e1, d1) == (eta, delta), "explicit and type-class routes disagree"
            explicit, ratio_explicit = f"{t_exp:.3f}s", f"{t_exp / (t_eta + t_delta):.0f}x"
        print(f"{n:>6} {t_eta:>12.4f}s {t_delta:>13.4f}s {t_float:>9.4f}s {t_delta / t_float:>9.1f}x "
              f"{explicit:>10} {ratio_explicit:>10}  {float(delta):.6g} (f64 {fdelta:.6g})")
    rr_vs_accountants(quick)
    asymmetric_filtered(quick)


def rr_vs_accountants(quick: bool = False) -> None:
    """Binary RR (e^ε₀ = 3) at n = 10 … 10⁴ (``--rr-accountants``, also in the default run and ``--accountants``):
    δ_n(γ_n) and ε for δ = 10⁻⁶, exact, against dp_accounting's PLD at 1e-3 and 1e-4 and the PRV accountant on
    the same two queries (one direction: RR is symmetric), CPU seconds of this process, same run."""
    from exactdp.measures.profile_inversion import epsilon_tensor_power

    K = randomized_response(2, T0)
    rows = (("3/4", "1/4"), ("1/4", "3/4"))  # K's rows
    d_star = fmpq(1, 10**6)
    print(f"\nbinary RR e^eps0 = {T0}: delta_n(gamma_n) and eps(1e-6), exact, against the accountants (CPU seconds, "
          "same run; bracket shown: delta_n(gamma_n))")
    print(settings_text())
    for n in ((10, 100, 1000) if quick else (10, 100, 1000, 10000)):
        g = gamma_n(n)
        t_d, delta = _cpu(delta_tensor_power, K, n, g)
        t_e, inv = _cpu(epsilon_tensor_power, K, n, d_star)
        print(f"n = {n}: exactdp {t_d + t_e:.4f}s, delta_n(3^{n // 2 + math.isqrt(n)}) = {float(delta):.10g}, "
              f"eps(1e-6) = {float(epsilon_enclosure(inv)[0].mid()):.10f}", flush=True)
        print_accountants([[(rows, n)]], [(n // 2 + math.isqrt(n)) * math.log(3.0)], [float(d_star)], t_d + t_e,
                          [delta_enclosure(delta)], [epsilon_enclosure(inv)], bracket="delta")


def gamma_asym(n: int) -> fmpq:
    """γ = 2^{⌊n/5⌋+⌊√n⌋} for the asymmetric 2×2: its pair classes lose ≈ 0.19–0.21 bits per coordinate on
    average, so γ sits about one standard deviation above the mean and δ_n ∈ (0, 1) (δ_10000 ≈ 0.37)."""
    return fmpq(2) ** (n // 5 + math.isqrt(n))


def asymmetric_filtered(quick: bool = False) -> None:
    """Issue 15: δ_n(γ) over all input sequences and η_TV of the asymmetric K = ((1/2,1/2),(1/4,3/4)) (two pair
    classes, n + 1 compositions) by the certified filter (measures/composition_filter.py: float enclosures of
    every composition, exact evaluation of the few candidates) against the unfiltered exact search of the
    same run where it fits the default cost guard (it is refused at n = 10 000); then ε for δ = 10⁻³ at
    n = 1000 against one δ evaluation."""
    from exactdp.measures import composition_filter
    from exactdp.measures.profile_inversion import epsilon_tensor_power
    from exactdp.measures.tensor import TensorSearch

    A = Kernel([["1/2", "1/2"], ["1/4", "3/4"]])
    print("\nasymmetric K = ((1/2,1/2),(1/4,3/4)), all input sequences: certified filter vs unfiltered exact search "
          "(gamma_n = 2^(n//5 + isqrt(n)))")
    print(f"{'n':>6} {'quantity':>12} {'filtered':>10} {'exact evals':>11} {'discarded':>9} {'unfiltered':>11} "
          f"{'speed-up':>9}  value")

    def run(n, gamma, filtered):
        composition_filter._all_states.cache_clear()  # no stream vectors from an earlier row
        return TensorSearch([(A, n)], filtered=filtered).witness(gamma)

    for n in ((10, 100, 1000) if quick else (10, 100, 1000, 10_000)):
        for label, gamma in (("eta_TV", fmpq(1)), ("delta_n(g_n)", gamma_asym(n))):
            t_new, w = timed(run, n, gamma, True)
            old, ratio = "refused", "-"
            if n <= 1000:
                t_old, w_old = timed(run, n, gamma, False)
                assert (w_old.value, w_old.counts) == (w.value, w.counts), "filtered and unfiltered disagree"
                old, ratio = f"{t_old:.3f}s", f"{t_old / t_new:.1f}x"
            value = f"1 - {float(1 - w.value):.6g}" if w.value > fmpq(9, 10) else f"{float(w.value):.6g}"
            print(f"{n:>6} {label:>12} {t_new:>9.3f}s {w.evaluations:>11} {w.discarded:>9} {old:>11} {ratio:>9}  "
                  f"{value} at {w.counts}")
    n = 100 if quick else 1000
    composition_filter._all_states.cache_clear()
    t_inv, r = timed(epsilon_tensor_power, A, n, fmpq(1, 1000))
    t_one, _ = timed(run, n, r.t, True)
    print(f"  eps for delta = 1e-3 at n = {n}: {t_inv:.3f}s ({r.evaluations} searches), one delta_n evaluation at "
          f"gamma* {t_one:.3f}s, ratio {t_inv / t_one:.1f}x; eps = {float(r.epsilon):.6f}")


def fitted_exponent(points) -> float | None:
    """Least-squares slope of log t against log n (None with fewer than two points)."""
    pts = [(math.log(n), math.log(t)) for n, t in points if t > 0]
    if len(pts) < 2:
        return None
    mx, my = sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)


def old_route(loss, n, g):
    """The evaluation before issue 15: all n + 1 type classes as a polynomial power (3z + 1)^n."""
    return product_loss([(loss, n)]).hockey_stick(fmpq(g))


def large_n(quick: bool = False, old_limit: float = 60.0) -> None:
    K = randomized_response(2, T0)
    loss = pair_classes(K)[0].loss
    sizes = (1000, 10000) if quick else (1000, 10000, 100000)
    print(f"\nlarge n, binary RR e^eps0 = {T0}: binomial fast path vs the type-class power it replaced "
          f"(old path run where predicted <= {old_limit:.0f} s)")
    print("  (old not run: '~T s' = predicted time above the limit, 'X GB' = memory of its coefficients > 1 GB;"
          " issue 15 measured 114 s / > 120 s at n = 10^5)")
    print(f"{'n':>7} {'quantity':>14} {'fast':>9} {'old':>9} {'old/fast':>9} {'work units':>11} {'ns/unit':>8}")
    fast_pts: dict = {}
    old_pts: dict = {}
    for n in sizes:
        for label, fn, g in (("eta_TV", lambda n: eta_tv_tensor_power(K, n), 1),
                             ("delta_n(2)", lambda n: delta_tensor_power(K, n, 2), 2),
                             ("delta_n(g_n)", lambda n: delta_tensor_power(K, n, gamma_n(n)), gamma_n(n))):
            t_fast, v = timed(fn, n, repeat=3 if n <= 10000 else 1)
            work = tensor_search_cost([(K, n)], g).work
            fast_pts.setdefault(label, []).append((n, t_fast))
            prev = old_pts.get(label, [])
            exponent = max(fitted_exponent(prev) or 2.5, 2.5)
            predicted = prev[-1][1] * (n / prev[-1][0]) ** exponent if prev else 0.0
            old_memory = 2 * (n + 1) * (2 * n // 8 + 100)  # P and Q: n + 1 coefficients of up to 2n bits each
            old, ratio = "-", "-"
            if predicted <= old_limit and old_memory <= 2**30:
                t_old, v_old = timed(old_route, loss, n, g)
                assert v_old == v, "fast and type-class routes disagree"
                old_pts.setdefault(label, []).append((n, t_old))
                old, ratio = f"{t_old:.3f}s", f"{t_old / t_fast:.0f}x"
            else:  # not run: predicted time, or the memory its coefficients would take
                old = f"~{predicted:.0f}s" if predicted > old_limit else f"{old_memory / 2**30:.0f}GB"
            print(f"{n:>7} {label:>14} {t_fast:>8.4f}s {old:>9} {ratio:>9} {work:>11.3g} "
                  f"{t_fast / work * 1e9:>8.1f}")
    for label, pts in fast_pts.items():
        e_fast, e_old = fitted_exponent(pts), fitted_exponent(old_pts.get(label, []))
        print(f"  growth exponent {label:>12}: fast {e_fast:.2f}"
              + (f", old {e_old:.2f} (n <= {old_pts[label][-1][0]})" if e_old is not None else ""))


#: the 2×3 pair of the stream, enclosure and all-sequence tables, and KL(p‖q) for their γ = 3^k
P23, Q23 = ["1/2", "1/4", "1/4"], ["1/8", "3/8", "1/2"]
KL23 = 0.5 * math.log(4) + 0.25 * math.log(2 / 3) + 0.25 * math.log(0.5)


def _k23(n: int) -> int:
    """The exponent k of γ = 3^k nearest e^{n·KL + √n} (δ_n of the 2×3 pair neither 0 nor 1)."""
    return round((KL23 * n + math.sqrt(n)) / math.log(3))


def stream_vs_pld(quick: bool = False) -> None:
    from exactdp import hockey_stick_product
    from exactdp.measures.profile_inversion import epsilon_tensor_power

    pld = pld_module()
    p, q = P23, Q23
    print("\n2x3 pair p = (1/2,1/4,1/4), q = (1/8,3/8,1/2): delta_n(gamma) = E_gamma(p^n || q^n), "
          "gamma = 3^k near n*KL + sqrt(n); exact = streamed slices")
    print(f"{'n':>6} {'exact':>9} {'PLD 1e-4':>9} {'PLD/ex':>7} {'PLD 1e-3':>9} {'PLD/ex':>7} "
          f"{'width 1e-4':>10} {'width 1e-3':>10}  delta_n, inside both brackets")
    for n in ((10, 100, 1000) if quick else (10, 100, 1000, 10000)):
        k = _k23(n)
        t_ex, d = timed(hockey_stick_product, [(p, q, n)], fmpq(3) ** k, repeat=3 if n <= 1000 else 1)
        cols, widths, inside = [], [], True
        for interval in (1e-4, 1e-3):
            if pld is None:
                cols += ["-", "-"]
                widths.append("-")
                continue
            est = {}
            t_p = None
            for pess in (True, False):
                t, v = timed(_pld_pair, pld, n, k * math.log(3), interval, pess)
                est[pess] = v
                t_p = t if pess else t_p
            cols += [f"{t_p:.3f}s", f"{t_p / t_ex:.1f}x"]
            widths.append(f"{(est[True] - est[False]) / float(d):.2g}")
            inside = inside and est[False] <= float(d) * (1 + 1e-12) and float(d) <= est[True] * (1 + 1e-12)
        print(f"{n:>6} {t_ex:>8.4f}s {cols[0]:>9} {cols[1]:>7} {cols[2]:>9} {cols[3]:>7} {widths[0]:>10} "
              f"{widths[1]:>10}  {float(d):.6g}, {inside}")
    A = Kernel([["1/2", "1/2"], ["1/4", "3/4"]])
    print("\nepsilon for delta = 1e-3 over all input sequences, asymmetric K = ((1/2,1/2),(1/4,3/4))")
    for n in ((10, 100) if quick else (10, 100, 1000)):
        t_inv, r = timed(epsilon_tensor_power, A, n, fmpq(1, 1000))
        t_one, _ = timed(delta_tensor_power, A, n, r.t)
        print(f"  n = {n:>5}: inversion {t_inv:8.3f}s ({r.evaluations} searches), one delta_n evaluation at "
              f"gamma* {t_one:8.3f}s, ratio {t_inv / t_one:.1f}x; eps = {float(r.epsilon):.6f}")


def _pld_pair(pld, n: int, eps: float, interval: float, pessimistic: bool) -> float:
    """dp_accounting's δ of the 2×3 pair composed n times at ε (one direction)."""
    return (pld.from_two_probability_mass_functions(
        {0: math.log(1 / 8), 1: math.log(3 / 8), 2: math.log(1 / 2)},
        {0: math.log(1 / 2), 1: math.log(1 / 4), 2: math.log(1 / 4)}, pessimistic_estimate=pessimistic,
        value_discretization_interval=interval, symmetric=False).self_compose(n).get_delta_for_epsilon(eps))


def enclosure_vs_pld(quick: bool = False) -> None:
    from exactdp import hockey_stick_product
    from exactdp.limits import limits
    from exactdp.measures.tensor_enclosure import hockey_stick_product_enclosure

    pld = pld_module()
    p, q = P23, Q23
    print("\n2x3 pair, certified enclosure (relative width <= 1e-6, arb balls) vs exact slices vs PLD "
          "(pessimistic; ratios PLD / enclosure)")
    print(f"{'n':>7} {'enclosure':>10} {'exact':>9} {'ex/enc':>7} {'PLD 1e-4':>9} {'ratio':>7} {'PLD 1e-3':>9} "
          f"{'ratio':>7} {'enc width':>9}  delta_n, exact inside, meets PLD brackets")
    for n in ((1000, 10000) if quick else (1000, 10000, 100000)):
        k = _k23(n)
        g = fmpq(3) ** k
        with limits(max_work=10**12):
            t_enc, r = timed(lambda: hockey_stick_product_enclosure([(p, q, n)], g, try_exact=False),
                             repeat=3 if n <= 10000 else 1)
            t_ex, d = timed(hockey_stick_product, [(p, q, n)], g)
        cols, meets = [], True
        for interval in (1e-4, 1e-3):
            if pld is None or (interval == 1e-4 and n >= 100000 and "--pld-large" not in sys.argv):
                cols += ["-", "-"]
                continue
            t_p, hi = timed(_pld_pair, pld, n, k * math.log(3), interval, True)
            lo = _pld_pair(pld, n, k * math.log(3), interval, False)
            cols += [f"{t_p:.3f}s", f"{t_p / t_enc:.1f}x"]
            meets = meets and lo <= float(r.upper) * (1 + 1e-12) and float(r.lower) <= hi * (1 + 1e-12)
        print(f"{n:>7} {t_enc:>9.4f}s {t_ex:>8.3f}s {t_ex / t_enc:>6.1f}x {cols[0]:>9} {cols[1]:>7} {cols[2]:>9} "
              f"{cols[3]:>7} {float(r.relative_width):>9.1e}  {float(r.lower):.6g}, {d in r}, {meets}")


def _peak_rss_mb() -> float:
    """Peak resident memory of this process so far (MB; Linux reports kilobytes)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def all_sequences_vs_pld(quick: bool = False) -> None:
    """δ_n(γ) over all input sequences of the 2×3 kernel (issue 15 item 1): the pair-type search over the
    compositions k × (x, x'), n − k × (x', x), through the certified filter (lattice bounds of the mixed
    compositions, measures/lattice_interval.py), against the PLD accountant for the pair (both directions,
    the homogeneous sequences only) in the same run.  Columns: ``exact`` = the search's exact value and
    maximizer (n = 10⁴ with max_work raised: the guard charges the filter and the streamed candidate together,
    ≈ 1.7·10⁹ units); ``enclosure=True`` = delta_tensor_power(..., enclosure=True) at the default limits (exact
    when the candidates are cheap: the filter, then each candidate charged on its own); ``try_exact=False`` =
    the certified enclosure (candidates by lattice bounds, ≤ 10⁻⁶).  exactdp runs first for every n, so the peak
    RSS column is exactdp's alone (cumulative over the rows, the PLD not yet run)."""
    from exactdp.limits import limits
    from exactdp.measures.tensor import eta_hockey_stick_tensor_product_witness
    from exactdp.measures.tensor_enclosure import delta_tensor_power_enclosure

    pld = pld_module()
    K = Kernel([P23, Q23])
    sizes = (10, 100, 1000) if quick else (10, 100, 1000, 10000)
    print("\n2x3 kernel ((1/2,1/4,1/4),(1/8,3/8,1/2)), delta_n(gamma) over ALL input sequences (n + 1 "
          "compositions), gamma = 3^k near n*KL + sqrt(n)")
    rows = []
    for n in sizes:
        k = _k23(n)
        g = fmpq(3) ** k
        reps = 3 if n <= 1000 else 1
        with limits(max_work=10**10):
            t_ex, w = timed(eta_hockey_stick_tensor_product_witness, [(K, n)], g, repeat=reps)
        t_def, d = timed(delta_tensor_power_enclosure, K, n, g, repeat=reps)
        t_enc, r = timed(lambda n=n, g=g: delta_tensor_power_enclosure(K, n, g, try_exact=False), repeat=reps)
        assert d.exact and d.value == w.value and w.value in r, "exact, enclosure=True and the enclosure disagree"
        rows.append((n, k, t_ex, w, t_def, t_enc, r, _peak_rss_mb()))
    print(f"{'n':>6} {'exact':>8} {'encl=True':>9} {'try_ex=F':>9} {'width':>8} {'PLD 1e-4':>9} {'PLD/ex':>7} "
          f"{'PLD 1e-3':>9} {'PLD/ex':>7} {'w 1e-4':>7} {'w 1e-3':>7} {'peak RSS':>8}  delta_n, maximizer, discarded")
    for n, k, t_ex, w, t_def, t_enc, r, rss in rows:
        cols, widths = [], []
        for interval in (1e-4, 1e-3):
            if pld is None:
                cols += ["-", "-"]
                widths.append("-")
                continue
            t_p, hi = timed(_pld_pair, pld, n, k * math.log(3), interval, True)
            lo = _pld_pair(pld, n, k * math.log(3), interval, False)
            cols += [f"{t_p:.3f}s", f"{t_p / t_ex:.1f}x"]
            widths.append(f"{(hi - lo) / float(w.value):.2g}")
        comp = "+".join(f"{c}x({x},{xp})" for _, x, xp, c in w.composition)
        width = "exact" if r.exact else f"{float(r.relative_width):.1e}"
        print(f"{n:>6} {t_ex:>7.3f}s {t_def:>8.3f}s {t_enc:>8.3f}s {width:>8} {cols[0]:>9} {cols[1]:>7} "
              f"{cols[2]:>9} {cols[3]:>7} {widths[0]:>7} {widths[1]:>7} {rss:>6.0f}MB  {float(w.value):.6g}, "
              f"{comp}, {w.discarded}")


SWEEP_P, SWEEP_Q = ("1/2", "1/3", "1/6"), ("1/4", "1/4", "1/2")


def _cpu(fn, *args):
    """(CPU seconds of this process, result) of ``fn(*args)``: the machine is shared, CPU time is the fair clock."""
    t = time.process_time()
    out = fn(*args)
    return time.process_time() - t, out


def sweep_vs_pld(quick: bool = False) -> None:
    """Issue 24 acceptance workload: the 2×3 pair (1/2, 1/3, 1/6)/(1/4, 1/4, 1/2) at n = 1000 over all input
    sequences — ten γ = 3^380 … 3^434 (``enclosure=True``: exact, or a certified enclosure of relative width
    ≤ 10⁻⁶) plus ε for δ = 10⁻⁶ (exact γ*) — against dp_accounting composing the pair (both directions) at
    1e-3 and 1e-4 (pessimistic: the timed run; optimistic: the bracket's lower end) and the PRV accountant, each
    answering the same eleven queries, CPU time of this process, same run."""
    from exactdp.measures.profile_inversion import epsilon_tensor_power

    K = Kernel([list(SWEEP_P), list(SWEEP_Q)])
    n = 1000
    ks = list(range(380, 435, 6))[: 4 if quick else 10]
    d_star = fmpq(1, 10**6)
    print(f"\n2x3 pair {SWEEP_P}/{SWEEP_Q}, n = {n}, all input sequences: {len(ks)} gammas 3^k plus eps for "
          f"delta = 1e-6 (CPU seconds, same run)")
    print(settings_text())
    t_all, rows = 0.0, []
    for k in ks:
        t, r = _cpu(lambda k=k: delta_tensor_power(K, n, fmpq(3) ** k, enclosure=True))
        t_all += t
        rows.append((k, t, r))
    t_eps, inv = _cpu(epsilon_tensor_power, K, n, d_star)
    t_all += t_eps
    _sweep_table(rows, t_eps, inv, t_all, both_directions(SWEEP_P, SWEEP_Q, n), [k * math.log(3) for k in ks],
                 float(d_star))


def _sweep_table(rows, t_eps, inv, t_all, alternatives, epsilons, d_star) -> None:
    """The sweep's rows: per γ = 3^k exactdp's time and value beside each accountant's bracket (PLD 1e-3, PLD 1e-4,
    PRV: [optimistic, pessimistic] / [lower, upper]) and whether the exact value lies inside; then ε(δ*) and one
    line per accountant (CPU seconds of the eleven queries, ratio to exactdp's, verdict over all of them)."""
    results = accountants(alternatives, epsilons, [d_star])
    exact_d = [delta_enclosure(r) for _, _, r in rows]
    exact_e = [epsilon_enclosure(inv)]
    print(f"{'k':>4} {'exactdp':>8}  {'delta_n (exact or certified enclosure)':<48} "
          + " ".join(f"{b.name + ' bracket':<22}" for b in results) + "  inside (" + ", ".join(b.name for b in results)
          + ")")
    for i, (k, t, r) in enumerate(rows):
        text = str(r) if not r.exact else f"{float(r.value):.12g} (exact)"
        verdicts = ", ".join(verdict(b.delta_query(i), [exact_d[i]]) for b in results)
        print(f"{k:>4} {t:>7.2f}s  {text:<48} " + " ".join(f"{b.delta_text(i):<22}" for b in results) + "  "
              + verdicts)
    eps = float(exact_e[0][0].mid()) if exact_e[0] is not None else math.inf
    print(f"eps(1e-6): exactdp {t_eps:.2f}s, eps = {eps:.10f} ({'exact' if inv.exact else 'enclosure'}, "
          f"{inv.evaluations} steps); " + "; ".join(f"{b.name} {b.epsilon_text(0)}" for b in results))
    print(f"total: exactdp {t_all:.2f}s CPU for {len(rows)} gammas + eps; accountants on the same {len(rows) + 1} "
          "queries (compose both directions):")
    for b in results:
        print(summary(b, t_all, exact_d, exact_e))


def _ordered_pairs(rows) -> list:
    """The alternatives of a kernel composed n times as the accountants see it: its ordered row pairs (set ``n``)."""
    return [(rows[i], rows[j]) for i in range(len(rows)) for j in range(len(rows)) if i != j]


def _workload(name: str, t: float, exact_text: str) -> None:
    """The exactdp line of a workload in the tails / products / 3×3 tables (its accountant lines follow)."""
    print(f"{name:<44} exactdp {t:>7.2f}s  {exact_text}", flush=True)


def tails_products_3x3_vs_pld(quick: bool = False) -> None:
    """Issue 24 items 1–2 and issue 25 item 3, the workloads the certified filter did not cover before: δ below the
    float range (the asymmetric 2×2 at γ = (3/2)^n), a 3×3 kernel's ε for δ = 10⁻⁶ at n = 1000 (every ordered row
    pair), and a product RR^{⊗n} ⊗ K23^{⊗n} of different kernels — each against dp_accounting's PLD at 1e-3 and 1e-4
    (pessimistic timed, optimistic for the bracket's lower end) and the PRV accountant on the same workload, CPU
    time of this process, same run."""
    from exactdp.measures.profile_inversion import epsilon_tensor_power, epsilon_tensor_product

    d = fmpq(1, 10**6)
    print("\ntails, a 3x3 kernel, a product of different kernels (CPU seconds, same run)")
    print(settings_text())

    # (a) δ_n((3/2)^n) of the asymmetric 2×2, all input sequences
    K = Kernel([["1/2", "1/2"], ["1/4", "3/4"]])
    rows = [("1/2", "1/2"), ("1/4", "3/4")]
    n = 2000 if quick else 10_000
    t, v = _cpu(delta_tensor_power, K, n, fmpq(3, 2) ** n)
    with ctx.workprec(64):
        log10 = float((arb(v).log() / arb(10).log()).mid())
    _workload(f"2x2 delta_n((3/2)^n), n = {n}", t, f"10^{log10:.3f} (exact)")
    print_accountants(both_directions(*rows, n), [n * math.log(1.5)], [], t, [(v, v)], [], bracket="delta")

    # (c) a 3×3 kernel, ε for δ = 10⁻⁶ at n = 1000 over all input sequences (six ordered row pairs)
    rows3 = [("1/2", "1/3", "1/6"), ("1/4", "1/4", "1/2"), ("1/3", "1/2", "1/6")]
    n = 300 if quick else 1000
    t, r = _cpu(epsilon_tensor_power, Kernel([list(x) for x in rows3]), n, d)
    _workload(f"3x3 eps(delta = 1e-6), n = {n}", t, f"{float(r.epsilon.evalf(20)):.10f} (exact t*)")
    print_accountants([[(pair, n)] for pair in _ordered_pairs(rows3)], [], [float(d)], t, [], [epsilon_enclosure(r)])

    # (b) RR^(x n) (x) K23^(x n), ε for δ = 10⁻⁶ over all input sequences of the product
    rr, k23 = (("3/4", "1/4"), ("1/4", "3/4")), (SWEEP_P, SWEEP_Q)
    n = 20 if quick else 50
    factors = [(Kernel([list(x) for x in rr]), n), (Kernel([list(x) for x in k23]), n)]
    t, r = _cpu(epsilon_tensor_product, factors, d)
    _workload(f"RR^(x{n}) x K23^(x{n}) eps(delta = 1e-6)", t, f"{float(r.epsilon.evalf(20)):.10f} (exact t*)")
    print_accountants(rr_with_both_directions(rr, k23, n), [], [float(d)], t, [], [epsilon_enclosure(r)])


def _random_pair(rng) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A random 2×3 row pair with denominators 6–20 (every entry positive)."""
    rows = []
    for _ in range(2):
        den = rng.randint(6, 20)
        a = rng.randint(1, den - 2)
        b = rng.randint(1, den - a - 1)
        rows.append(tuple(str(fmpq(x, den)) for x in (a, b, den - a - b)))
    return rows[0], rows[1]


def _ten_gammas(p, q, n: int) -> list[fmpq]:
    """Ten γ = 2^k spread over ε from n·KL to n·KL + 6.5·σ√n (δ_n from about 1/2 to below 10⁻⁹; the worse direction):
    floats only choose the query points."""
    return _ten_gammas_of([(p, q), (q, p)], n)


def _ten_gammas_of(pairs, n: int) -> list[fmpq]:
    """:func:`_ten_gammas` over the ordered row pairs ``pairs``: the one of largest KL sets the spread (a kernel's
    homogeneous worst direction; floats only choose the query points)."""
    best = None
    for a, b in pairs:
        fa, fb = [float(fmpq(x)) for x in a], [float(fmpq(x)) for x in b]
        kl = sum(x * math.log(x / y) for x, y in zip(fa, fb))
        var = sum(x * math.log(x / y) ** 2 for x, y in zip(fa, fb)) - kl * kl
        if best is None or kl > best[0]:
            best = (kl, var)
    kl, var = best
    lo, hi = n * kl, n * kl + 6.5 * math.sqrt(n * var)
    return [fmpq(2) ** round((lo + (hi - lo) * i / 9) / math.log(2)) for i in range(10)]


def random_pairs_vs_pld(quick: bool = False, seeds: int = 8) -> None:
    """Issue 24 acceptance, random pairs: for 8 seeded random 2×3 row pairs at n = 1000 over all input sequences,
    ten γ (``enclosure=True``: exact or a certified enclosure of relative width ≤ 10⁻⁶) plus ε for δ = 10⁻⁶ (exact
    γ*), against dp_accounting composing the pair in both directions at 1e-4 (pessimistic, timed; optimistic for
    the bracket) and answering the same eleven queries — CPU seconds of this process, same run, one row per seed
    (``--from-seed S`` starts at seed S, ``--seeds N`` stops before seed N).  ``inside`` compares with the
    accountant's bracket of the two homogeneous directions, which is not a bracket of δ_n over all input sequences when a mixed composition is the maximizer."""
    _pairs_table("2x3", _random_pair, quick, seeds)


def _pairs_table(shape: str, make_pair, quick: bool, seeds: int) -> None:
    """The table of :func:`random_pairs_vs_pld` for the seeded pairs ``make_pair(random.Random(seed))``."""
    import random

    n = 200 if quick else 1000
    d_star = fmpq(1, 10**6)
    print(f"\nrandom {shape} pairs, n = {n}, all input sequences: ten gamma = 2^k + eps(1e-6) per pair "
          "(CPU seconds, same run)")
    print(settings_text())
    print(_pair_header("seed"))
    totals: dict = {}
    first = int(sys.argv[sys.argv.index("--from-seed") + 1]) if "--from-seed" in sys.argv else 0
    seeds = int(sys.argv[sys.argv.index("--seeds") + 1]) if "--seeds" in sys.argv else seeds
    for seed in range(first, seeds):
        _pair_row(str(seed), *make_pair(random.Random(seed)), n, d_star, totals)
    _pair_totals(totals)


def _random_2x4(rng) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A random 2×4 row pair of weights 1–9 (every entry positive; generically four distinct likelihood ratios whose
    logarithms span a lattice of rank three: the conditioned slices of exactdp.measures.quadrinomial)."""
    rows = []
    for _ in range(2):
        w = [rng.randint(1, 9) for _ in range(4)]
        rows.append(tuple(str(fmpq(x, sum(w))) for x in w))
    return rows[0], rows[1]


def random_2x4_vs_pld(quick: bool = False, seeds: int = 5) -> None:
    """Issue 24, four or more outputs: the seeded random 2×4 pairs of :func:`_random_2x4` (seeds 0..4; ``--seeds N``)
    at n = 1000 over all input sequences, ten γ plus ε(10⁻⁶) as ``--random-pairs`` — the corner filter
    (exactdp.measures.corner_filter) with the exact corners of exactdp.measures.quadrinomial — against the
    accountants composing the pair in both directions (CPU seconds, same run)."""
    _pairs_table("2x4", _random_2x4, quick, seeds)


def _pair_header(label: str) -> str:
    """The column line of the pair tables (each row followed by its accountant lines, :func:`_pair_accountants`)."""
    return (f"{label:>4} {'pair':<34} {'exactdp':>8} {'exact':>5} {'encl':>4} {'refused':>7} {'eps exact':>14}\n"
            f"    {'setting':<8} {'CPU':>8} {'ratio to':>9} exactdp  eps bracket  inside (d1-d10: ten delta_n, e1: eps)")


def _pair_row(label: str, p, q, n: int, d_star: fmpq, totals: dict) -> None:
    """One row of the pair tables: ten γ (one ``delta_tensor_power_batch`` call: each exact or a certified enclosure of
    relative width ≤ 10⁻⁶, as ``enclosure=True``) plus ε(δ*) of the kernel (p, q) at n over all input sequences, then each accountant answering the same eleven queries (CPU seconds, same run); ``totals``
    accumulates the CPU seconds per column (exactdp and each accountant)."""
    from exactdp.measures.profile_inversion import epsilon_tensor_power

    K = Kernel([list(p), list(q)])
    gammas = _ten_gammas(p, q, n)
    t_ex, exact, encl, refused, values = 0.0, 0, 0, 0, []
    t0 = time.process_time()  # a refusal's CPU time counts too
    try:  # the ten gammas in one batch call (the filter's passes over the compositions shared)
        t, values = _cpu(delta_tensor_power_batch, K, n, gammas)
    except Exception as e:  # the batch refused (cost guard): each gamma alone, a refusal counted, not fatal
        print(f"     batch refused: {str(e)[:100]}")
        values = []
        for g in gammas:
            try:
                values.append(delta_tensor_power(K, n, g, enclosure=True))
            except Exception as e1:
                values.append(None)
                refused += 1
                print(f"     refused at gamma = 2^{int(g.p).bit_length() - 1}: {str(e1)[:100]}")
        t = time.process_time() - t0
    t_ex += t
    for r in values:
        if r is not None:
            exact += r.exact
            encl += not r.exact
    t0, inv = time.process_time(), None
    try:
        t, inv = _cpu(epsilon_tensor_power, K, n, d_star)
        e = float(inv.epsilon.evalf(20)) if inv.t is not None else math.inf
    except Exception as exc:  # a refusal (cost guard) is counted, not fatal
        t, e = time.process_time() - t0, math.nan
        refused += 1
        print(f"     eps(1e-6) refused: {str(exc)[:100]}")
    t_ex += t
    totals["exactdp"] = totals.get("exactdp", 0.0) + t_ex
    pair = " / ".join(",".join(x) for x in (p, q))
    print(f"{label:>4} {pair:<34} {t_ex:>7.2f}s {exact:>5} {encl:>4} {refused:>7} {e:>14.8f}", flush=True)
    _pair_accountants(p, q, n, gammas, d_star, t_ex, values, inv, totals)


def _pair_accountants(p, q, n: int, gammas, d_star: fmpq, t_ex: float, values, inv, totals: dict) -> None:
    """The accountant lines of one pair row: each setting composing the pair in both directions and answering the
    same ten δ(γ) and ε(δ*) (CPU seconds, ratio to exactdp's ``t_ex``, its ε bracket, whether exactdp's values lie
    inside); ``totals`` accumulates the CPU seconds per accountant."""
    exact_d = [delta_enclosure(r) for r in values]
    results = print_accountants(both_directions(p, q, n), [float(arb(g).log().mid()) for g in gammas],
                                [float(d_star)], t_ex, exact_d, [epsilon_enclosure(inv)])
    for b in results:
        totals[b.name] = totals.get(b.name, 0.0) + b.seconds
    _homogeneous_check(results, p, q, n, gammas, exact_d)


def _homogeneous_check(results, p, q, n: int, gammas, exact_d) -> None:
    """For each δ query some accountant's bracket misses: the exact δ of the two homogeneous input sequences alone
    (p, q)^n and (q, p)^n — what the accountants compose — and whether it lies in each bracket (then the maximizer
    over all input sequences is a mixed composition, which no accountant composes)."""
    from exactdp import hockey_stick_product

    for i, g in enumerate(gammas):
        if exact_d[i] is None or all(verdict(b.delta_query(i), [exact_d[i]]) != "OUTSIDE (1 of 1: d1)" for b in results):
            continue
        h = max(hockey_stick_product([(list(a), list(b), n)], g) for a, b in ((p, q), (q, p)))
        print(f"      d{i + 1} (gamma = 2^{int(g.p).bit_length() - 1}): over all input sequences "
              f"{float(exact_d[i][0]):.6g}, the two homogeneous sequences alone {float(h):.6g} (exact): "
              + ", ".join(f"{b.name} {verdict(b.delta_query(i), [(h, h)])}" for b in results))


def _pair_totals(totals: dict) -> None:
    """The total line of the pair tables: exactdp's CPU seconds and each accountant's, with the ratio."""
    t_ex = totals.pop("exactdp", 0.0)
    print(f"total: exactdp {t_ex:.1f}s" + "".join(f", {name} {t:.1f}s = {t / t_ex:.2f}x exactdp"
                                                  for name, t in totals.items() if t_ex > 0))


#: the δ of the ε-for-δ workload (issue 24 acceptance: "ε for any δ ≥ 10⁻¹² answered exactly")
EPS_DELTAS = tuple(fmpq(1, 10**k) for k in (12, 10, 8, 6, 4, 2, 1))


def eps_deltas_vs_pld(quick: bool = False, seeds: int = 8) -> None:
    """Issue 24 acceptance, ε for any δ ≥ 10⁻¹²: for the seeded random 2×3 row pairs of :func:`random_pairs_vs_pld`
    (seeds 0..7; ``--seeds N``) at n = 1000 over all input sequences, ε(δ) for each δ of :data:`EPS_DELTAS`
    (``epsilon_tensor_power``: γ* exact, or (t_lower, t] where exactdp cannot; counted), against the accountants
    composing the pair in both directions and answering the same seven queries — CPU seconds of this process, same
    run, one row per seed with exactdp's seven ε, then each accountant's line (``inside``: exactdp's ε in its bracket;
    the accountants compose the two homogeneous directions only, so a mixed maximizer may lie outside)."""
    import random

    from exactdp.measures.profile_inversion import epsilon_tensor_power

    n = 200 if quick else 1000
    seeds = int(sys.argv[sys.argv.index("--seeds") + 1]) if "--seeds" in sys.argv else seeds
    print(f"\nrandom 2x3 pairs, n = {n}, all input sequences: eps for delta = "
          + ", ".join(f"{float(d):.0e}" for d in EPS_DELTAS) + " per pair (CPU seconds, same run)")
    print(settings_text())
    print(f"{'seed':>4} {'pair':<34} {'exactdp':>8} {'exact':>5} {'refused':>7}  eps (e1..e{len(EPS_DELTAS)})")
    totals: dict = {}
    for seed in range(seeds):
        p, q = _random_pair(random.Random(seed))
        K = Kernel([list(p), list(q)])
        t_ex, invs, refused = 0.0, [], 0
        for d in EPS_DELTAS:
            t0 = time.process_time()  # a refusal's CPU time counts too
            try:
                invs.append(epsilon_tensor_power(K, n, d))
            except Exception as exc:  # a refusal (cost guard) is counted, not fatal
                invs.append(None)
                refused += 1
                print(f"     eps({float(d):.0e}) refused: {str(exc)[:100]}")
            t_ex += time.process_time() - t0
        totals["exactdp"] = totals.get("exactdp", 0.0) + t_ex
        exact = sum(1 for r in invs if r is not None and r.exact)
        shown = " ".join("-" if r is None or r.t is None else f"{float(r.epsilon.evalf(15)):.6f}" for r in invs)
        pair = " / ".join(",".join(x) for x in (p, q))
        print(f"{seed:>4} {pair:<34} {t_ex:>7.2f}s {exact:>5} {refused:>7}  {shown}", flush=True)
        mixed = [f"e{i + 1} {r.composition[0][3]}+{r.composition[1][3]}" for i, r in enumerate(invs)
                 if r is not None and len(r.composition) > 1]
        if mixed:  # what no accountant composes: its bracket may then miss exactdp's ε (OUTSIDE)
            print("      maximizer a mixed input sequence at " + ", ".join(mixed))
        results = print_accountants(both_directions(p, q, n), [], [float(d) for d in EPS_DELTAS], t_ex, [],
                                    [epsilon_enclosure(r) for r in invs])
        for b in results:
            totals[b.name] = totals.get(b.name, 0.0) + b.seconds
    _pair_totals(totals)


#: near-symmetric row pairs (KL(p‖q) ≈ KL(q‖p): E_γ almost flat in the composition), issue 24
NEAR_SYMMETRIC = ((("3/10", "3/10", "2/5"), ("2/5", "3/10", "3/10")),
                  # a row and a permutation of it, perturbed (KL 0.1114 / 0.1108 and 0.0630 / 0.0619: E_γ flat in the
                  # composition, as seed 3 of --random-pairs; tests/measures/test_lattice_shared_levels.py)
                  (("5/9", "1/3", "1/9"), ("1/3", "11/20", "7/60")),
                  (("1/2", "1/3", "1/6"), ("1/3", "29/60", "11/60")))


def near_symmetric_vs_pld(quick: bool = False) -> None:
    """Issue 24 acceptance, near-symmetric pairs: the pairs of :data:`NEAR_SYMMETRIC` ((3/10, 3/10, 2/5) / (2/5, 3/10,
    3/10), whose two directions have one loss class, and two pairs of a row and a perturbed permutation of it) at
    n = 1000 over all input sequences, ten γ plus ε for δ = 10⁻⁶ (as ``--random-pairs``), against the PLD (1e-3,
    1e-4) and PRV accountants."""
    n = 200 if quick else 1000
    print(f"\nnear-symmetric 2x3 pairs, n = {n}, all input sequences: ten gamma = 2^k + eps(1e-6) per pair "
          "(CPU seconds, same run)")
    print(settings_text())
    print(_pair_header(""))
    totals: dict = {}
    for p, q in NEAR_SYMMETRIC:
        _pair_row("", p, q, n, fmpq(1, 10**6), totals)
    _pair_totals(totals)


def product_vs_pld(quick: bool = False) -> None:
    """Issue 25 acceptance: ``exactdp tensor rr.json:500 k23.json:500 --delta 1e-6`` through the API — RR (e^ε = 3 and
    e^ε = 2) ⊗ K23, 500 coordinates each, ε for δ = 10⁻⁶ over all input sequences (exact t*), against the PLD
    accountant at 1e-3 and 1e-4 and the PRV accountant composing RR with each direction of K23 (their brackets), CPU
    seconds, same run."""
    from exactdp.measures.profile_inversion import epsilon_tensor_product

    n = 100 if quick else 500
    d = fmpq(1, 10**6)
    print(f"\nRR^(x{n}) x K23^(x{n}), eps for delta = 1e-6 over all input sequences (CPU seconds, same run)")
    print(settings_text())
    for rr in ((("3/4", "1/4"), ("1/4", "3/4")), (("2/3", "1/3"), ("1/3", "2/3"))):
        factors = [(Kernel([list(x) for x in rr]), n), (Kernel([list(SWEEP_P), list(SWEEP_Q)]), n)]
        t, r = _cpu(epsilon_tensor_product, factors, d)
        _workload(f"RR {rr[0]}", t, f"eps = {float(r.epsilon.evalf(20)):.10f} "
                  f"({'exact t*' if r.exact else 'enclosure'})")
        print_accountants(rr_with_both_directions(rr, (SWEEP_P, SWEEP_Q), n), [], [float(d)], t, [],
                          [epsilon_enclosure(r)])


def mixtures_vs_pld(quick: bool = False) -> None:
    """Issue 25 item 3 (``--mixtures``): ε for δ = 10⁻⁶ over all input sequences of mixtures of RR (3/4, 1/4), K23,
    3-RR (1/2, 1/4, 1/4) and optimized unary encoding (3 inputs, e^ε = 3), n/2 coordinates each (n = 10⁴; 10³ with
    ``--quick``), against dp_accounting's PLD at 1e-3 and 1e-4 and the PRV accountant composing the same row pairs
    (every alternative: both directions of K23; one for RR, k-RR and UE, whose ordered pairs are one loss class), CPU
    seconds of this process, same run; a refusal is printed with its limit and its CPU time counted.  Then products of
    three kernels (3000 coordinates each; 300 with ``--quick``): RR ⊗ 3-RR ⊗ UE and RR ⊗ 3-RR ⊗ 5-RR (also at 800 and
    300 each; 200 and 100 with ``--quick``), the accountants composing the three row pairs."""
    from exactdp.measures.profile_inversion import epsilon_tensor_product
    from exactdp.mechanisms import optimized_unary_encoding

    half = 500 if quick else 5000
    d = fmpq(1, 10**6)

    def pair(K):  # the kernel and its first ordered row pair, as text (what the accountants compose)
        return K, (tuple(str(v) for v in K[0]), tuple(str(v) for v in K[1]))

    rr, krr, ue = (pair(randomized_response(2, 3)), pair(randomized_response(3, 2)),
                   pair(optimized_unary_encoding(3, 3)))
    k23 = pair(Kernel([list(SWEEP_P), list(SWEEP_Q)]))
    print(f"\nmixtures, {half} + {half} coordinates: eps for delta = 1e-6 over all input sequences "
          f"(CPU seconds, same run)\n{settings_text()}")
    for name, (Ka, a), (Kb, b), both in (("RR x K23", rr, k23, True), ("RR x 3-RR", rr, krr, False),
                                         ("RR x UE", rr, ue, False), ("3-RR x UE", krr, ue, False)):
        t0, r, note = time.process_time(), None, ""
        try:
            r = epsilon_tensor_product([(Ka, half), (Kb, half)], d)
        except Exception as exc:  # a refusal (cost guard) is printed with its limit, not fatal
            note = str(exc)
        t = time.process_time() - t0
        _workload(name, t, f"eps = {float(r.epsilon.evalf(20)):.10f} ({'exact t*' if r.exact else 'enclosure'})"
                  if r is not None else "refused")
        if note:
            print(f"     refused: {note[:200]}")
        alternatives = rr_with_both_directions(a, b, half) if both else [[(a, half), (b, half)]]
        print_accountants(alternatives, [], [float(d)], t, [], [epsilon_enclosure(r)])
    # three kernels: RR (ρ = 9) and UE (ρ = 3) are one block on 3, 3-RR (ρ = 2) the other; RR, 3-RR and 5-RR
    # (ρ = 9, 2, 5) are three incommensurable groups, a loop over one block's classes and a band of runs of the next
    # (refused at 3000 each: about 7.8·10⁶ lookups)
    krr5 = pair(randomized_response(3, 5))
    third, middle, small = (300, 200, 100) if quick else (3000, 800, 300)
    print(f"\nmixtures of three kernels: eps for delta = 1e-6 over all input sequences (CPU seconds, same run)")
    for name, kernels, k in (("RR x 3-RR x UE", (rr, krr, ue), third), ("RR x 3-RR x 5-RR", (rr, krr, krr5), third),
                             ("RR x 3-RR x 5-RR", (rr, krr, krr5), middle), ("RR x 3-RR x 5-RR", (rr, krr, krr5), small)):
        t0, r, note = time.process_time(), None, ""
        try:
            r = epsilon_tensor_product([(K, k) for K, _ in kernels], d)
        except Exception as exc:  # a refusal (cost guard) is printed with its limit, not fatal
            note = str(exc)
        t = time.process_time() - t0
        _workload(f"{name}, {k} each", t, f"eps = {float(r.epsilon.evalf(20)):.10f} "
                  f"({'exact t*' if r.exact else 'enclosure'})" if r is not None else "refused")
        if note:
            print(f"     refused: {note[:240]}")
        print_accountants([[(rows, k) for _, rows in kernels]], [], [float(d)], t, [], [epsilon_enclosure(r)])


def run_header() -> None:
    """Date, commit and load average of this run (docs/speed.md quotes them with the tables)."""
    import os
    import subprocess

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=Path(__file__).resolve().parents[1]).stdout.strip() or "?"
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, commit {commit}, load average "
          + ", ".join(f"{x:.1f}" for x in os.getloadavg()), flush=True)


def _random_3x3(rng) -> list[tuple[str, ...]]:
    """A random 3×3 kernel: the rows of two random pairs (denominators 6–20, every entry positive), the first three."""
    return [*_random_pair(rng), _random_pair(rng)[0]]


def random_3x3_vs_pld(quick: bool = False, kernels: int = 3) -> None:
    """Issue 24 acceptance, 3×3 kernels (``--random-3x3``): the first ``kernels`` seeded random 3×3 kernels (seeds 1000,
    1001, …; denominators 6–20) whose row pairs leave four or more pair classes (the simplex filter), ε for
    δ = 10⁻⁶ at n = 1000 over all input sequences, against dp_accounting's PLD at 1e-3 and 1e-4 (pessimistic timed,
    optimistic for the bracket's lower end) and the PRV accountant, each composing its six ordered row pairs, CPU
    seconds of this process, same run; a refusal is printed with its limit and its CPU time counted (its ratios are
    then to the refusal's time and its verdict n/a)."""
    import random

    from exactdp.measures.profile_inversion import epsilon_tensor_power
    from exactdp.measures.tensor_search import classify, normalize_factors

    n, d = (100 if quick else 1000), fmpq(1, 10**6)
    columns = f"{'seed':>4} {'kernel':<44} {'classes':>7} {'exactdp':>8} {'eps exact':>14}"
    print(f"\nrandom 3x3 kernels with >= 4 pair classes, n = {n}: eps for delta = 1e-6 over all input sequences "
          f"(CPU seconds, same run)\n{settings_text()}\n{columns}")
    seed, shown = 1000, 0
    while shown < kernels:
        rows = _random_3x3(random.Random(seed))
        K = Kernel([list(r) for r in rows])
        classes = classify(normalize_factors([(K, n)]))[0]
        if len(classes) >= 4:
            t0, r = time.process_time(), None
            try:
                r = epsilon_tensor_power(K, n, d)
                e, note = float(r.epsilon.evalf(20)), ""
            except Exception as exc:  # a refusal (cost guard) is printed with its limit, not fatal
                e, note = math.nan, str(exc)
            t = time.process_time() - t0
            print(f"{seed:>4} {' / '.join(','.join(x) for x in rows):<44} {len(classes):>7} {t:>7.2f}s {e:>14.8f}",
                  flush=True)
            if note:
                print(f"     refused: {note[:160]}")
            print_accountants([[(pair, n)] for pair in _ordered_pairs(rows)], [], [float(d)], t, [],
                              [epsilon_enclosure(r)])
            shown += 1
        seed += 1


#: rows nearly equal: E_γ as flat off the best face as on it (docs/tensorization.md, "the corner filter")
NEAR_EQUAL_3X3 = (("1/2", "3/10", "1/5"), ("2/5", "2/5", "1/5"), ("8/21", "8/21", "5/21"))


def random_3x3_deltas_vs_pld(quick: bool = False, kernels: int = 3) -> None:
    """Issue 24, 3×3 kernels, every δ query (``--random-3x3-deltas``): for the seeded 3×3 kernels of ``--random-3x3``
    (seeds 1000, 1001, … with four or more pair classes; ``--seed S`` runs only seed S; ``--near-equal`` adds the
    kernel :data:`NEAR_EQUAL_3X3`), ten γ = 2^k spread over δ_n ≈ 1/2 … 10⁻¹⁰ (:func:`_ten_gammas_of` over the six
    ordered row pairs: floats only choose the query points), each ``delta_tensor_power(K, n, γ, enclosure=True)``
    alone (exact, a certified enclosure of relative width ≤ 10⁻⁶, or refused: counted, its CPU time included, its
    message and time printed), plus ε for δ = 10⁻⁶; then the accountants composing the six ordered row pairs and
    answering the same eleven queries (CPU seconds of this process, same run)."""
    import random

    from exactdp.measures.tensor_search import classify, normalize_factors

    n = 100 if quick else 1000
    print(f"\nrandom 3x3 kernels, n = {n}, all input sequences: ten gamma = 2^k + eps(1e-6) per kernel "
          f"(CPU seconds, same run)\n{settings_text()}\n{_pair_header('seed')}")
    only = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else None
    seed, shown, totals = 1000, 0, {}
    while shown < kernels and (only is None or seed <= only):
        rows = _random_3x3(random.Random(seed))
        K = Kernel([list(r) for r in rows])
        if len(classify(normalize_factors([(K, n)]))[0]) < 4 or (only is not None and seed != only):
            seed += 1
            continue
        _kernel_deltas(str(seed), rows, n, totals)
        shown += 1
        seed += 1
    if "--near-equal" in sys.argv:
        _kernel_deltas("near", NEAR_EQUAL_3X3, n, totals)
    _pair_totals(totals)


def _kernel_deltas(label: str, rows: Sequence[Sequence[str]], n: int, totals: dict[str, float]) -> None:
    """One kernel's row of :func:`random_3x3_deltas_vs_pld`: ten δ queries and ε(10⁻⁶), then the accountants."""
    from exactdp.measures.profile_inversion import epsilon_tensor_power

    d_star = fmpq(1, 10**6)
    K = Kernel([list(r) for r in rows])
    pairs = _ordered_pairs(rows)
    gammas = _ten_gammas_of(pairs, n)
    t_ex, exact, encl, refused, values = 0.0, 0, 0, 0, []
    for g in gammas:
        t0 = time.process_time()
        try:
            r = delta_tensor_power(K, n, g, enclosure=True)
            kind = "exact" if r.exact else "enclosure"
            exact, encl = exact + r.exact, encl + (not r.exact)
            values.append(r)
            text = f"{float(r.lower):.4g}"
        except Exception as exc:  # a refusal (cost guard) is counted, not fatal
            values.append(None)
            refused += 1
            bracket = str(exc).partition("certified by then: ")[2].partition(";")[0]  # what the filter had
            kind, text = "REFUSED", (f"(certified by then: {bracket}) " if bracket else "") + str(exc)[:150]
        t = time.process_time() - t0
        t_ex += t
        print(f"     gamma = 2^{int(g.p).bit_length() - 1}: {kind} {t:.2f}s {text}", flush=True)
    t0, inv = time.process_time(), None
    try:
        inv = epsilon_tensor_power(K, n, d_star)
        e = float(inv.epsilon.evalf(20)) if inv.t is not None else math.inf
    except Exception as exc:  # a refusal (cost guard) is counted, not fatal
        e = math.nan
        refused += 1
        print(f"     eps(1e-6) refused: {str(exc)[:150]}")
    t_ex += time.process_time() - t0
    totals["exactdp"] = totals.get("exactdp", 0.0) + t_ex
    kernel = " / ".join(",".join(x) for x in rows)
    print(f"{label:>4} {kernel:<34} {t_ex:>7.2f}s {exact:>5} {encl:>4} {refused:>7} {e:>14.8f}", flush=True)
    if "--no-accountants" not in sys.argv:
        results = print_accountants([[(pair, n)] for pair in pairs], [float(arb(g).log().mid()) for g in gammas],
                                    [float(d_star)], t_ex, [delta_enclosure(r) for r in values],
                                    [epsilon_enclosure(inv)])
        for b in results:
            totals[b.name] = totals.get(b.name, 0.0) + b.seconds


#: (seed, rows, outputs, n) of ``--random-wide``: the kernels of weights 1–9 that the corner filter answers since the
#: ranges split on the coarser grid where a finer one is over max_work (3×4 seeds 5 and 7, 4×4 seed 4: four ratio
#: classes, n = 1000) and the conditioned slices recurse (five and six outputs: five and six ratio classes)
WIDE_KERNELS = ((5, 3, 4, 1000), (7, 3, 4, 1000), (4, 4, 4, 1000), (0, 2, 5, 100), (1, 3, 5, 100), (0, 2, 6, 60))


def _weights_kernel(seed: int, rows: int, outputs: int) -> list[tuple[str, ...]]:
    """The seeded rows×outputs kernel of weights 1–9 (tests/measures/test_corner_filter_four_ratios.py; its first two
    rows are the pair of :func:`_random_2x4` of the same seed for four outputs)."""
    import random

    rng = random.Random(seed)
    out = []
    for _ in range(rows):
        w = [rng.randint(1, 9) for _ in range(outputs)]
        out.append(tuple(str(fmpq(x, sum(w))) for x in w))
    return out


def random_wide_vs_pld(quick: bool = False) -> None:
    """Issue 24, kernels of four to six outputs (``--random-wide``): each kernel of :data:`WIDE_KERNELS` as
    ``--random-3x3-deltas`` — ten γ = 2^k and ε(10⁻⁶) over all input sequences, then the accountants composing its
    ordered row pairs and answering the same eleven queries (CPU seconds of this process, same run; ``--quick``: n
    a fifth)."""
    print(f"\nkernels of four to six outputs, all input sequences: ten gamma = 2^k + eps(1e-6) per kernel "
          f"(CPU seconds, same run)\n{settings_text()}\n{_pair_header('seed')}")
    totals: dict[str, float] = {}
    for seed, rows, outputs, n in WIDE_KERNELS:
        size = n // 5 if quick else n
        print(f"  {rows}x{outputs}, seed {seed}, n = {size}")
        _kernel_deltas(str(seed), _weights_kernel(seed, rows, outputs), size, totals)
    _pair_totals(totals)


if __name__ == "__main__":
    quick_run = "--quick" in sys.argv
    if "--random-3x3-deltas" in sys.argv:  # (its own line, as --random-3x3)
        random_3x3_deltas_vs_pld(quick=quick_run)
        sys.exit(0)
    if "--random-3x3" in sys.argv:  # (its own line: the modes below are edited by other branches too)
        random_3x3_vs_pld(quick=quick_run)
        sys.exit(0)
    modes = {"--random-pairs": (random_pairs_vs_pld,), "--near-symmetric": (near_symmetric_vs_pld,),
             "--eps-deltas": (eps_deltas_vs_pld,), "--random-2x4": (random_2x4_vs_pld,),
             "--product": (product_vs_pld,), "--mixtures": (run_header, mixtures_vs_pld, run_header),
             "--tails-products-3x3": (tails_products_3x3_vs_pld,), "--sweep": (sweep_vs_pld,),
             "--all-sequences": (all_sequences_vs_pld,), "--enclosure-only": (enclosure_vs_pld,),
             "--asymmetric": (asymmetric_filtered,), "--stream-only": (stream_vs_pld, enclosure_vs_pld),
             "--rr-accountants": (rr_vs_accountants,), "--random-wide": (random_wide_vs_pld,),
             # every accountant workload of the issue 24 acceptance list in one run (PLD and PRV beside exactdp)
             "--accountants": (run_header, rr_vs_accountants, sweep_vs_pld, random_pairs_vs_pld,
                               near_symmetric_vs_pld, random_3x3_vs_pld, tails_products_3x3_vs_pld, product_vs_pld,
                               run_header)}
    for flag, runs in modes.items():
        if flag in sys.argv:
            for run in runs:
                run(quick=quick_run) if run is not run_header else run()
            sys.exit(0)
    limit = float(sys.argv[sys.argv.index("--old-limit") + 1]) if "--old-limit" in sys.argv else 60.0
    if "--large-only" not in sys.argv:
        main(quick="--quick" in sys.argv)
    large_n(quick="--quick" in sys.argv, old_limit=limit)
