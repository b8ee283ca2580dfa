"""float64 numpy versions of the exact quantities, the baselines of the benchmarks (numpy only: no exactdp,
no sympy, so a fresh interpreter running this pipeline pays only numpy's import).

    python benchmarks/_float64.py FILE GAMMA C      # what `exactdp analyze FILE --t GAMMA --c C --format json` computes

The formulas follow the exact code's loops (same blocks over partner rows, same sort and prefix sums for the
privacy profile's sweep), without exactness.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np


# -- pairwise coefficients and the O(NM) ratios ------------------------------------------------------

def _block(n: int, m: int, block_elems: int = 1 << 16) -> int:
    return max(1, min(n, block_elems // max(n * m, 1)))


def float_eta_tv(F: np.ndarray) -> float:
    """max_{i<j} ½Σ|F_i − F_j|, rows in blocks over partners j > i0 (the exact code's loop)."""
    n, m = F.shape
    b = _block(n, m)
    buf = np.empty((b, n, m))
    best = 0.0
    for i0 in range(0, n - 1, b):
        i1 = min(n, i0 + b)
        diff = buf[: i1 - i0, : n - i0 - 1]
        np.subtract(F[None, i0 + 1:, :], F[i0:i1, None, :], out=diff)
        np.abs(diff, out=diff)
        s = diff.sum(axis=2)
        s[np.arange(i0 + 1, n)[None, :] <= np.arange(i0, i1)[:, None]] = 0
        best = max(best, float(s.max()))
    return best / 2


def float_eta_hockey_stick(F: np.ndarray, g: float) -> float:
    """max_{i≠j} Σ(F_i − gF_j)₊, rows in blocks over all partners (the exact code's loop)."""
    n, m = F.shape
    b = _block(n, m)
    buf = np.empty((b, n, m))
    gF = g * F
    best = 0.0
    for i0 in range(0, n, b):
        i1 = min(n, i0 + b)
        diff = buf[: i1 - i0]
        np.subtract(F[i0:i1, None, :], gF[None, :, :], out=diff)
        np.maximum(diff, 0, out=diff)
        s = diff.sum(axis=2)
        s[np.arange(n)[None, :] == np.arange(i0, i1)[:, None]] = 0
        best = max(best, float(s.max()))
    return best


def float_pml_ratio(F: np.ndarray, c: float) -> float:
    n = F.shape[0]
    hi, lo, S = F.max(axis=0), F.min(axis=0), F.sum(axis=0)
    keep = hi > 0
    return float((hi[keep] / (c * S[keep] + (1 - n * c) * lo[keep])).max())


def float_ldp(F):
    hi, lo = F.max(axis=0), F.min(axis=0)
    keep = hi > 0
    with np.errstate(divide="ignore"):
        return float((hi[keep] / lo[keep]).max())


def float_leakage(F):
    return float(F.max(axis=0).sum())


# -- the privacy profile: the same sweep -----------------------------------------------------------

def float_hull(points):
    pts = sorted(points)
    hull: list = []
    for q, p in pts:
        while len(hull) >= 2 and (hull[-1][0] - hull[-2][0]) * (p - hull[-2][1]) - \
                (hull[-1][1] - hull[-2][1]) * (q - hull[-2][0]) >= 0:
            hull.pop()
        hull.append((q, p))
    top = max(range(len(hull)), key=lambda t: (hull[t][1], -hull[t][0]))
    return hull[: top + 1]


def float_profile(F: np.ndarray):
    """Per row: likelihood-ratio sort of every partner, prefix sums, drop points under the hull so far."""
    n = F.shape[0]
    hull = [(0.0, 0.0)]
    for i in range(n):
        js = np.concatenate([np.arange(i), np.arange(i + 1, n)])
        Fj = F[js]
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.where(Fj > 0, F[i] / Fj, np.inf)
        order = np.argsort(-r, axis=1)
        Pc = np.cumsum(F[i][order], axis=1)
        Qc = np.cumsum(np.take_along_axis(Fj, order, axis=1), axis=1)
        hq, hp = np.array([h[0] for h in hull]), np.array([h[1] for h in hull])
        keep = Pc > np.interp(Qc, hq, hp)
        if keep.any():
            hull = float_hull(hull + list(zip(Qc[keep].tolist(), Pc[keep].tolist())))
    return hull


# -- the file and the analyze pipeline ------------------------------------------------------------

def float_read(path: Path) -> np.ndarray:
    """The float64 pipeline: json, then each "a/b" as int(a)/int(b)."""
    import json

    rows = json.loads(path.read_text())["rows"]
    out = np.empty((len(rows), len(rows[0])))
    for i, r in enumerate(rows):
        out[i] = [int(a) / int(b) if b else float(a) for a, _, b in (e.partition("/") for e in r)]
    return out


def profile_pieces(hull) -> list[tuple[float, float]]:
    """The pieces (P, Q) of δ(γ) = max_A K_x(A) − γ K_x'(A): the hull's vertices after (0, 0)."""
    return [(p, q) for q, p in hull[1:]]


def analyze(path: Path, gamma: float, c: float) -> dict:
    """What ``exactdp analyze --format json`` reports, in float64: η_TV, η_{E_γ} and the (ε,δ=0)-LDP decision
    at γ, the LDP ratio, the maximal-leakage ratio, the (ε,c)-PML ratio and the privacy profile's pieces."""
    text = path.read_text()
    F = float_read(path)
    hs = float_eta_hockey_stick(F, gamma)
    pieces = profile_pieces(float_profile(F))
    return {"rows": json.loads(text)["rows"], "eta_tv": float_eta_tv(F), "eta_hockey_stick": hs,
            "is_ldp": hs <= 0, "ldp_ratio": float_ldp(F), "max_leakage_ratio": float_leakage(F),
            "pml_ratio": float_pml_ratio(F, c), "profile": [{"P": p, "Q": q} for p, q in pieces]}


if __name__ == "__main__":
    file, g, cc = sys.argv[1:4]
    a, _, b = cc.partition("/")
    print(json.dumps(analyze(Path(file), float(g), int(a) / int(b) if b else float(a)), indent=2))
