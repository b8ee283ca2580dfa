"""The privacy profile and the O(NM) privacy ratios against numpy float64, measured in the same run (issue 15).

    python benchmarks/bench_profile.py [--sizes 128 256 512] [--ratio-sizes 64 256 512 1024] [--repeat 3]
                                       [--old-limit 60]

For random exact kernels (per-row denominators up to 1000, ``exactdp.verification.instances.random_kernel``):

* **privacy_profile**: the exact hull sweep (``exactdp.measures.profile_front.profile_front``) against the previous
  implementation (per-row exact Pareto fronts of every pair's points, kept as ``exactdp.testing.reference_profile_front``;
  skipped at a size once it took longer than ``--old-limit`` seconds at the size before, scaled by the
  N³ growth) and against float64 numpy doing the same sweep (same sort, same prefix sums, same hull
  filter, no exactness).  The exact profiles are compared for equality with the old ones.
* **ldp_ratio / pml_ratio (c = 1/(2N)) / max_leakage_ratio**, warm (best of ``--repeat`` calls on a kernel
  that has its integer form and caches) against float64 numpy doing the same formula
  (max_y max_x / min_x; max_y hi/(cS + (1−Nc)lo); Σ_y max_x).  Aim: ≤ 3× float64 at 512.
"""

from __future__ import annotations

import argparse
import platform
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from flint import fmpq

from _float64 import float_ldp, float_leakage, float_pml_ratio, float_profile
from _timing import best_time
from exactdp.measures.privacy import (
    ldp_ratio,
    max_leakage_ratio,
    pml_ratio,
    privacy_profile,
    profile_from_lines,
)
from exactdp.testing import reference_profile_front
from exactdp.verification.instances import random_kernel


# -- the previous exact implementation (per-row Pareto fronts) ------------------------------------------

def old_front(R):
    """The previous exact implementation, timed: exactdp.testing.reference_profile_front + the same hull."""
    return profile_from_lines((fmpq(pa, dp), fmpq(qa, dq)) for qa, dq, pa, dp in reference_profile_front(R))


# (float64: the same sweep and the ratios, benchmarks/_float64.py)

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[128, 256, 512])
    ap.add_argument("--ratio-sizes", type=int, nargs="+", default=[64, 256, 512, 1024])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--old-limit", type=float, default=60.0, help="skip the old profile beyond this (s)")
    args = ap.parse_args(argv)
    import flint

    print(f"# exactdp profile / ratio benchmark — {platform.processor() or platform.machine()}, "
          f"python {platform.python_version()}, numpy {np.__version__}, python-flint {flint.__version__}")
    head = f"{'privacy_profile':<16}{'N=M':>5}{'exact':>10}{'old exact':>11}{'float64':>10}{'old/new':>9}" \
           f"{'new/f64':>9}{'pieces':>8}  check"
    print(head)
    print("-" * len(head))
    old_prev = None
    for n in args.sizes:
        K = random_kernel(2026, n, n, max_den=1000)
        F = np.array([[float(v) for v in row] for row in K.rows])
        t_new, prof = best_time(lambda: privacy_profile(K), args.repeat if n < 512 else 1)
        t_f, _ = best_time(lambda: float_profile(F), args.repeat if n < 512 else 1)
        if old_prev is not None and old_prev[1] * (n / old_prev[0]) ** 3 > args.old_limit:
            t_old, check = None, f"old skipped (est. {old_prev[1] * (n / old_prev[0]) ** 3:.0f} s)"
        else:
            t_old, old = best_time(lambda: old_front(K.int_rows()), 1)
            check = "= old" if old == prof else "MISMATCH"
            old_prev = (n, t_old)
        old_s = f"{t_old:>10.2f}s" if t_old is not None else f"{'—':>11}"
        ratio = f"{t_old / t_new:>8.1f}x" if t_old is not None else f"{'—':>9}"
        print(f"{'':<16}{n:>5}{t_new:>9.2f}s{old_s}{t_f:>9.2f}s{ratio}{t_new / t_f:>8.2f}x"
              f"{len(prof.pieces):>8}  {check}")
        if check == "MISMATCH":
            return 1
    print()
    head = f"{'ratio (warm)':<18}{'N=M':>5}{'exact':>11}{'float64':>11}{'exact/f64':>11}"
    print(head)
    print("-" * len(head))
    for n in args.ratio_sizes:
        K = random_kernel(2026, n, n, max_den=max(1000, 4 * n), full_support=True)  # d_x ∈ [n, max_den]
        F = np.array([[float(v) for v in row] for row in K.rows])
        c = fmpq(1, 2 * n)
        rep = max(args.repeat, 20)
        for name, exact, flt in [("ldp_ratio", lambda: ldp_ratio(K), lambda: float_ldp(F)),
                                 ("pml_ratio", lambda: pml_ratio(K, c), lambda: float_pml_ratio(F, 1 / (2 * n))),
                                 ("max_leakage_ratio", lambda: max_leakage_ratio(K), lambda: float_leakage(F))]:
            exact()  # warm: the kernel's integer form and order keys are built once
            te, ve = best_time(exact, rep)
            tf, vf = best_time(flt, rep)
            assert abs(float(ve) - vf) <= 1e-9 * abs(vf), (name, n, ve, vf)
            print(f"{name:<18}{n:>5}{te * 1e3:>9.3f}ms{tf * 1e3:>9.3f}ms{te / tf:>10.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
