"""The PRV accountant (Gopi, Lee, Wutschitz, "Numerical composition of differential privacy", NeurIPS 2021;
``pip install prv-accountant``) on an arbitrary discrete pair, for the benchmarks' accountant columns.

A pair of rows (P, Q) on a finite output set has the discrete privacy loss L(y) = log(P(y)/Q(y)) under
y ~ P: atoms at the finite losses with the masses P(y), and the mass at +∞ of the outputs with
Q(y) = 0 < P(y).  This is the privacy random variable (PRV) of the pair; its n-fold composition is the law of
the sum of n independent copies, and δ_n(e^ε) = E[(1 − e^{ε − L_n})_+], which the accountant evaluates on a
discretised composition.

The accountant is a float baseline: floats only, its own error model (ε within ``eps_error`` and δ within
``delta_error`` of the truth, arXiv:2106.02848 Theorem 5.5, floating point rounding aside).  Nothing here feeds
an exact computation; the benchmarks print its brackets beside the exact values and check that they contain
them.

One change to the package's pipeline (``PRVAccountant.__init__``, reproduced in :func:`_compose` with the same
safe domain, mesh, cell-centred discretisation and heterogeneous Fourier composer): the truncated PRV's mean,
which the discretiser uses to re-centre the grid, is the exact mean of the atoms it keeps
(:class:`_Truncated`), not the package's quadrature of the cdf — quadrature of a step function misses the
jumps by more than the half mesh the discretiser accepts ("Discrete mean differs from continuous mean
significantly" for binary randomized response at n = 1000).

A workload the accountant cannot answer (a grid too large, a δ below its floating point floor, an ε it cannot
invert, an e^ε beyond float64, a pair with mass at +∞) gives ``n/a (reason)``, never an exception.  Mass at +∞
is refused: the package conditions the PRV on a finite loss, and its safe domain (from the Rényi divergences)
bounds the upper tail only; the lower tail of a true PRV is below e^{−t} (P(L ≤ −t) = E_Q[e^L; L ≤ −t]), but
conditioned on a finite loss it is not, and the composed finite part can leave the domain and wrap around the
circular convolution (the pair (1/2, 1/4, 1/4) / (0, 1/2, 1/2) at n = 5: the finite loss 5·log(1/2) lands at
+2.78, and the bracket [0.9965, 0.9971] misses the exact δ_5 = 1 − 2⁻⁵).
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field

import numpy as np
from flint import fmpq

try:  # optional: the benchmark columns say "not installed" without it
    from prv_accountant.accountant import compute_safe_domain_size
    from prv_accountant.composers import Heterogeneous
    from prv_accountant.discretisers import CellCentred
    from prv_accountant.domain import Domain
    from prv_accountant.privacy_random_variables import PrivacyRandomVariable, PrivacyRandomVariableTruncated
except ImportError:  # pragma: no cover - depends on the environment
    PrivacyRandomVariable = PrivacyRandomVariableTruncated = None

#: the package's suggested accuracy: ε within 0.1, and δ within 10⁻³ of the δ = 10⁻⁶ the benchmarks ask ε for
EPS_ERROR, DELTA_ERROR = 0.1, 1e-9
#: the package's δ(ε) multiplies by np.exp(ε) in float64: beyond this ε it overflows (nan, printed n/a)
_EXP_MAX = math.log(np.finfo(np.float64).max)
#: largest discretisation grid built (points of the domain [−L, L] at the mesh of Theorem 5.5); ``--prv-max-points``.
#: Its long-double grids take about 170 bytes a point (binary RR at n = 10⁴: 4.2·10⁷ points, 7 GB resident)
MAX_POINTS = 2 * 10**7


def installed() -> bool:
    """Whether ``prv_accountant`` can be imported."""
    return PrivacyRandomVariable is not None


def settings() -> tuple[float, float, int]:
    """(eps_error, delta_error, max grid points) from ``--prv-eps-error``, ``--prv-delta-error`` and
    ``--prv-max-points`` on the command line, else the defaults above."""
    def arg(flag, default, kind):
        return kind(sys.argv[sys.argv.index(flag) + 1]) if flag in sys.argv else default

    return (arg("--prv-eps-error", EPS_ERROR, float), arg("--prv-delta-error", DELTA_ERROR, float),
            arg("--prv-max-points", MAX_POINTS, lambda s: int(float(s))))


def pair_loss(p, q) -> tuple[np.ndarray, np.ndarray, float]:
    """(sorted finite losses log(P(y)/Q(y)), their masses under P conditioned on a finite loss, P(L = +∞)) of the
    pair of rows ``p``, ``q`` (rational strings or numbers): outputs with equal loss are merged, outputs with
    P(y) = 0 carry no mass."""
    atoms: dict[float, float] = {}
    at_inf = fmpq(0)
    for a, b in zip(p, q):
        a, b = fmpq(a), fmpq(b)
        if a == 0:
            continue
        if b == 0:
            at_inf += a
            continue
        atoms[a / b] = atoms.get(a / b, fmpq(0)) + a  # keyed by the exact ratio: equal losses merge
    ratios = sorted(atoms)
    losses = np.array([math.log(int(r.p)) - math.log(int(r.q)) for r in ratios])
    finite = sum(atoms.values())
    return losses, np.array([float(atoms[r] / finite) for r in ratios]), float(at_inf)


if PrivacyRandomVariable is not None:

    class PairPRV(PrivacyRandomVariable):
        """The PRV of a discrete pair (P, Q): a step cdf through the finite loss atoms (conditioned on a finite
        loss, as the package's PRVs are) and the mass at +∞ where Q(y) = 0 < P(y)."""

        def __init__(self, p, q) -> None:
            self.losses, self.masses, self._pm_inf = pair_loss(p, q)
            self._cum = np.concatenate(([0.0], np.cumsum(self.masses)))

        def cdf(self, t):
            return np.minimum(self._cum[np.searchsorted(self.losses, t, side="right")], 1.0)

        def mean(self) -> float:
            return float(self.losses @ self.masses)

        def rdp(self, alpha: float) -> float:
            """Rényi divergence of order α of the finite part, (1/(α−1)) log E[e^{(α−1)L} | L < ∞]: the
            package's safe domain size bounds the upper tail of the composition with it (paper Remark 5.6)."""
            x = np.log(self.masses) + (alpha - 1) * self.losses
            m = float(x.max())
            return (m + math.log(float(np.exp(x - m).sum()))) / (alpha - 1)

        @property
        def pm_inf(self) -> float:
            return self._pm_inf

    class _Truncated(PrivacyRandomVariableTruncated):
        """The package's truncation to [t_min, t_max] with the exact mean of what its cell-centred discretiser keeps:
        the atoms in (t_min, t_max], renormalised by ``remaining_mass`` = F(t_max) − F(t_min)."""

        def mean(self) -> float:
            prv = self.prv
            kept = (prv.losses > self.t_min) & (prv.losses <= self.t_max)
            return float(prv.losses[kept] @ prv.masses[kept]) / float(self.remaining_mass)


def _compose(factors, eps_error: float, delta_error: float, max_points: int):
    """The discretised composition of ``factors`` ([(PairPRV, count)]) as ``PRVAccountant`` builds it (safe domain,
    mesh ε_error / √(N/2 · log(12/δ_error)) of Theorem 5.5, cell-centred discretisation, Fourier self-composition
    then convolution) or ``None`` and the reason it is not built (grid above ``max_points``), and the grid's size."""
    prvs, counts = [f for f, _ in factors], [c for _, c in factors]
    L = compute_safe_domain_size(prvs, counts, eps_error=eps_error, delta_error=delta_error)
    mesh = eps_error / math.sqrt(sum(counts) / 2 * math.log(12 / delta_error))
    points = 2 * L / mesh
    if points > max_points:
        return None, f"grid of {points:.2g} points > --prv-max-points {max_points:.2g}", points
    domain = Domain.create_aligned(-L, L, mesh)
    dprvs = [CellCentred().discretise(_Truncated(p, domain.t_min(), domain.t_max()), domain) for p in prvs]
    return Heterogeneous(dprvs).compute_composition(counts), None, points


@dataclass
class Brackets:
    """The accountant's answers for one workload: CPU seconds (composition and queries), a (lower, upper) bracket
    per δ(ε) and per ε(δ) query (``None`` where that query is ``n/a``), why a query or the whole workload is
    ``n/a``, and the largest discretisation grid (points)."""

    seconds: float = 0.0
    deltas: list = field(default_factory=list)
    epsilons: list = field(default_factory=list)
    na: str | None = None
    points: int = 0

    def delta_text(self, i: int) -> str:
        return self._text(self.deltas, i, "{:.4g}")

    def epsilon_text(self, i: int = 0) -> str:
        return self._text(self.epsilons, i, "{:.6f}")

    @staticmethod
    def _get(values, i):
        return values[i] if i < len(values) else None

    def _text(self, values, i, fmt) -> str:
        if not installed():
            return "not installed"
        b = self._get(values, i)
        if b is None:
            return f"n/a ({self.na})"
        return "[" + fmt.format(b[0]) + ", " + fmt.format(b[1]) + "]"

    def delta_inside(self, i: int, lower: float, upper: float) -> bool | None:
        """Whether the exact δ (or its certified enclosure [lower, upper]) meets bracket i (``None``: n/a); the
        relative slack 10⁻⁹ is the float rounding of the accountant's own output."""
        b = self._get(self.deltas, i)
        return None if b is None else b[0] <= upper * (1 + 1e-9) + 1e-300 and lower <= b[1] * (1 + 1e-9)

    def epsilon_inside(self, eps: float, i: int = 0) -> bool | None:
        """Whether the exact ε (a float of its certified digits) lies in ε bracket i (``None``: n/a)."""
        b = self._get(self.epsilons, i)
        return None if b is None else b[0] - 1e-9 <= eps <= b[1] + 1e-9


def prv_brackets(alternatives, epsilons=(), deltas=()) -> Brackets:
    """The PRV accountant's brackets of δ at each ε of ``epsilons`` and of ε at each δ of ``deltas`` for the worst of
    ``alternatives``: each a composition [((p, q), count), …] of pairs of rows (the two directions of a pair, the
    ordered row pairs of a kernel, RR composed with each direction of a pair); the bracket taken is the
    largest lower and the largest upper bound over them, as the PLD rows take the worst direction.  One
    composition per alternative answers every query (the package's ``compute_delta`` recomposes per call; its
    three lines are applied to the kept composition here).  CPU seconds of this process."""
    eps_error, delta_error, max_points = settings()
    out = Brackets()
    if not installed():
        return out
    t0 = time.process_time()
    if not deltas and min(epsilons, default=math.inf) + eps_error > _EXP_MAX:  # nothing it can answer
        out.na = "its e^eps overflows float64"
        return out
    try:
        per_alt = []
        for factors in alternatives:
            prvs = [(PairPRV(p, q), c) for (p, q), c in factors]
            if any(x.pm_inf > 0 for x, _ in prvs):
                out.na = "mass at +inf: its domain misses the finite part's lower tail"
                return out
            f_n, why, points = _compose(prvs, eps_error, delta_error, max_points)
            out.points = max(out.points, int(points))
            if f_n is None:
                out.na = why
                return out
            d = []
            for e in epsilons:
                if e + eps_error > _EXP_MAX:  # its δ(ε) multiplies by np.exp(ε + eps_error): inf · 0 = nan
                    d.append(None)
                    out.na = out.na or "its e^eps overflows float64"
                    continue
                lo = f_n.compute_delta_estimate(e + eps_error) - delta_error
                hi = f_n.compute_delta_estimate(e - eps_error) + delta_error
                d.append((max(float(lo), 0.0), min(float(hi), 1.0)) if np.isfinite(lo) and np.isfinite(hi) else None)
                out.na = out.na or (None if d[-1] else "not finite")
            eps = []
            for delta in deltas:
                try:
                    lo, _, hi = f_n.compute_epsilon(delta, delta_error, eps_error)
                except (ValueError, RuntimeError) as exc:  # below its float floor, or not invertible
                    lo = hi = math.nan
                    out.na = out.na or str(exc).split(".")[0]
                eps.append((float(lo), float(hi)) if np.isfinite(lo) and np.isfinite(hi) else None)
                out.na = out.na or (None if eps[-1] else "eps infinite")
            per_alt.append((d, eps))
        out.deltas = [_worst(col) for col in zip(*(d for d, _ in per_alt))]
        out.epsilons = [_worst(col) for col in zip(*(e for _, e in per_alt))]
    except (ValueError, RuntimeError, ZeroDivisionError, FloatingPointError, MemoryError) as exc:
        out.na = f"{type(exc).__name__}: {str(exc)[:60]}"
    finally:
        out.seconds = time.process_time() - t0
    return out


def _worst(brackets):
    """The worst case over alternatives: (max of the lower bounds, max of the upper bounds), None if any is n/a."""
    if any(b is None for b in brackets):
        return None
    return max(b[0] for b in brackets), max(b[1] for b in brackets)


def both_directions(p, q, n: int):
    """The alternatives of a row pair composed n times: (p, q)^n and (q, p)^n."""
    return [[((p, q), n)], [((q, p), n)]]


def rr_with_both_directions(rr, pair, n: int):
    """The alternatives of RR^{⊗n} ⊗ K^{⊗n} as the PLD rows compose them: the pair of RR's rows ``rr`` (either
    direction: RR is symmetric) n times with each direction of the pair of rows ``pair`` n times."""
    return [[(tuple(rr), n)] + alt for alt in both_directions(*pair, n)]


def inside_text(**verdicts) -> str:
    """The ``inside`` column: ``PLD True, PRV True`` — whether the exact value lies in each accountant's bracket
    (``None``: that accountant answered n/a or is not installed, printed ``-``)."""
    return ", ".join(f"{name} {'-' if v is None else v}" for name, v in verdicts.items())


def prv_total(b: Brackets, t_exact: float) -> str:
    """The accountant's CPU seconds on a workload beside exactdp's ``t_exact`` (same run), and its grid."""
    if not installed():
        return "PRV not installed"
    text = f"PRV {b.seconds:.1f}s" + (f" = {b.seconds / t_exact:.2f}x exactdp" if t_exact > 0 else "")
    text += f" (grid {b.points:.2g} points)" if b.points else ""
    return text if b.na is None else text + f", n/a: {b.na}"


def settings_text() -> str:
    """One line naming the accountant's settings (printed under each table's title)."""
    if not installed():
        return "  PRV accountant: not installed (pip install prv-accountant)"
    eps_error, delta_error, max_points = settings()
    return (f"  PRV accountant: eps_error {eps_error:g}, delta_error {delta_error:g} (bracket = estimate at eps -/+ "
            f"eps_error, -/+ delta_error), grids up to {max_points:.2g} points")


def all_inside(verdicts) -> bool | str | None:
    """The verdict over several queries: None if none could be compared (n/a), else whether every compared one lies
    inside, with how many were compared when some were not (an accountant's or exactdp's n/a)."""
    verdicts = list(verdicts)
    compared = [v for v in verdicts if v is not None]
    if not compared:
        return None
    return all(compared) if len(compared) == len(verdicts) else f"{all(compared)} ({len(compared)} of {len(verdicts)})"
