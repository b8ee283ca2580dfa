"""The benchmarks' accountant lines (issue 24 item 5): Google's dp_accounting PLD at 1e-3 and 1e-4 (pessimistic and
optimistic: :func:`pld_brackets`) and the PRV accountant (Gopi, Lee, Wutschitz, "Numerical composition of
differential privacy", NeurIPS 2021; ``pip install prv-accountant``: :func:`prv_brackets`) on one workload of
discrete pairs, and whether exactdp's exact value lies inside each bracket (:func:`verdict`, :func:`summary`).

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
from dataclasses import dataclass, field, replace

import numpy as np
from flint import arb, fmpq

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
    """An accountant's answers for one workload: CPU seconds (composition and queries; for the PLD its pessimistic
    run, the one a user of the accountant runs, and ``seconds_both`` with the optimistic run that gives the lower
    ends), a (lower, upper) bracket per δ(ε) and per ε(δ) query (or the reason that query is ``n/a``: a string, or
    ``None`` with the reason in ``na``), why a query or the whole workload is ``n/a``, the largest discretisation grid
    (points), the accountant's name and why it is missing (not installed)."""

    seconds: float = 0.0
    deltas: list = field(default_factory=list)
    epsilons: list = field(default_factory=list)
    na: str | None = None
    points: int = 0
    name: str = "PRV"
    missing: str | None = None
    seconds_both: float = 0.0

    def delta_text(self, i: int) -> str:
        return self._text(self.deltas, i, "{:.4g}")

    def epsilon_text(self, i: int = 0) -> str:
        return self._text(self.epsilons, i, "{:.6f}")

    @staticmethod
    def _get(values, i):
        b = values[i] if i < len(values) else None
        return b if isinstance(b, tuple) else None

    def reason(self, values, i) -> str:
        """Why query i of ``values`` is n/a: its own reason, else the workload's."""
        b = values[i] if i < len(values) else None
        return b if isinstance(b, str) else str(self.na or self.missing)

    def _text(self, values, i, fmt) -> str:
        if self.missing is not None or (self.name == "PRV" and not installed()):
            return self.missing or "not installed"
        b = self._get(values, i)
        if b is None:
            return f"n/a ({self.reason(values, i)})"
        return "[" + fmt.format(b[0]) + ", " + fmt.format(b[1]) + "]"

    def delta_query(self, i: int) -> Brackets:
        """These brackets restricted to δ query i (for a per-query :func:`verdict`)."""
        return replace(self, deltas=self.deltas[i:i + 1], epsilons=[])

    def delta_inside(self, i: int, lower, upper) -> bool | None:
        """Whether the exact δ (or its certified enclosure [lower, upper]) meets bracket i (``None``: n/a or not
        decided); the relative slack 10⁻⁹ is the float rounding of the accountant's own output."""
        b = self._get(self.deltas, i)
        return None if b is None else meets(b, lower, upper, rel=1e-9)

    def epsilon_inside(self, lower, upper=None, i: int = 0) -> bool | None:
        """Whether the exact ε (or its certified enclosure [lower, upper]) lies in ε bracket i (``None``: n/a or not
        decided); the slack 10⁻⁹ is the accountant's float rounding."""
        b = self._get(self.epsilons, i)
        return None if b is None else meets(b, lower, lower if upper is None else upper, absolute=1e-9)


def _ball(x) -> arb:
    """x (a float: its exact binary value; a rational; an arb ball) as an arb ball."""
    if isinstance(x, float | np.floating):
        return arb(fmpq(*float(x).as_integer_ratio())) if math.isfinite(x) else arb(x)
    return x if isinstance(x, arb) else arb(x)


def meets(bracket, lower, upper, rel: float = 0.0, absolute: float = 0.0) -> bool | None:
    """Whether the accountant's float bracket [b₀, b₁], widened by the relative slack ``rel`` and the absolute slack
    ``absolute`` (its float rounding), meets the exact value's certified enclosure [lower, upper] (equal ends: the
    exact value): True / False only when the arb comparisons decide it (certified), else None."""
    lo, hi = _ball(bracket[0]), _ball(bracket[1])
    lo = lo - abs(lo) * fmpq(*rel.as_integer_ratio()) - fmpq(*absolute.as_integer_ratio())
    hi = hi + abs(hi) * fmpq(*rel.as_integer_ratio()) + fmpq(*absolute.as_integer_ratio())
    a, b = _ball(lower), _ball(upper)
    if lo <= b and a <= hi:
        return True
    if lo > b or a > hi:
        return False
    return None


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


#: dp_accounting's value discretisation intervals of every accountant table (coarse first: the cheap one)
PLD_INTERVALS = (1e-3, 1e-4)
#: dp_accounting's default ``tail_mass_truncation``: both its estimates add it to the mass at +∞, so a δ at or
#: below twice this floor has no lower bound from the optimistic run
PLD_FLOOR = 1e-15
#: largest composed PLD built (estimated points: 16 standard deviations of the composed loss plus one factor's
#: range, over the interval); ``--pld-max-points``
PLD_MAX_POINTS = 10**7


def pld_module():
    """dp_accounting's PLD module, or None when the optional package is absent."""
    try:
        from dp_accounting.pld import privacy_loss_distribution
    except ImportError:  # pragma: no cover - depends on the environment
        return None
    return privacy_loss_distribution


def pld_points(factors, interval: float) -> float:
    """Estimated points of dp_accounting's composition of ``factors`` ([((p, q), count)]): its tail truncation at
    10⁻¹⁵ keeps about 8 standard deviations of the composed loss on each side, plus one factor's range."""
    var, width = 0.0, 0.0
    for (p, q), count in factors:
        losses, masses, _ = pair_loss(p, q)
        mean = float(losses @ masses)
        var += count * float(((losses - mean) ** 2) @ masses)
        width = max(width, float(losses[-1] - losses[0]))
    return (16 * math.sqrt(var) + width) / interval + 1


def _pld_composed(pld, factors, interval: float, pessimistic: bool):
    """dp_accounting's PLD of δ = E_γ(P‖Q) for each factor ((P, Q), count) (P its ``upper`` pmf, Q ``lower``; an
    output with Q(y) = 0 < P(y) is its mass at +∞), self-composed ``count`` times, then composed together."""
    out = None
    for (p, q), count in factors:
        x = pld.from_two_probability_mass_functions(
            {i: math.log(float(fmpq(b))) for i, b in enumerate(q) if fmpq(b) > 0},
            {i: math.log(float(fmpq(a))) for i, a in enumerate(p) if fmpq(a) > 0}, pessimistic_estimate=pessimistic,
            value_discretization_interval=interval, symmetric=False).self_compose(count)
        out = x if out is None else out.compose(x)
    return out


def pld_brackets(alternatives, epsilons=(), deltas=(), interval: float = 1e-4) -> Brackets:
    """dp_accounting's PLD at ``interval``, pessimistic and optimistic, on the same workload as :func:`prv_brackets`
    (``alternatives``: compositions [((p, q), count), …], the worst taken): its δ at each ε of ``epsilons`` and its ε
    at each δ of ``deltas``.  The pessimistic estimate is an upper bound of δ(ε) and so of ε(δ), the optimistic one
    a lower bound of both: the bracket is [optimistic, pessimistic] for either query.  ``seconds`` = CPU of the
    pessimistic run (composition and queries), ``seconds_both`` with the optimistic one.

    ``n/a (reason)`` instead of a wrong bracket where the float accountant cannot answer: a δ at or below twice its
    tail-truncation floor (both estimates add 10⁻¹⁵ to the mass at +∞: no lower bound), an ε above 709.7 nats (its
    ``get_epsilon_for_delta`` sums e^{−loss}·mass in float64, which underflows near 745 nats: it returned a value
    above the exact ε, or inf), a composition above ``--pld-max-points``."""
    pld = pld_module()
    out = Brackets(name=f"PLD {interval:.0e}".replace("e-0", "e-"))
    if pld is None:
        out.missing = "not installed (pip install dp-accounting)"
        return out
    max_points = int(float(sys.argv[sys.argv.index("--pld-max-points") + 1])) if "--pld-max-points" in sys.argv \
        else PLD_MAX_POINTS
    out.points = int(max(pld_points(factors, interval) for factors in alternatives))
    if out.points > max_points:
        out.na = f"~{out.points:.2g} points > --pld-max-points {max_points:.2g}"
        return out
    t0 = time.process_time()
    runs = {}
    try:
        for pess in (True, False):
            d, e = [0.0] * len(epsilons), [0.0] * len(deltas)
            for factors in alternatives:
                x = _pld_composed(pld, factors, interval, pess)
                d = [max(v, float(x.get_delta_for_epsilon(eps))) for v, eps in zip(d, epsilons)]
                e = [max(v, float(x.get_epsilon_for_delta(delta))) for v, delta in zip(e, deltas)]
            runs[pess] = (d, e)
            if pess:
                out.seconds = time.process_time() - t0
    except (ValueError, RuntimeError, MemoryError, OverflowError) as exc:
        out.na = f"{type(exc).__name__}: {str(exc)[:60]}"
        return out
    finally:
        out.seconds_both = time.process_time() - t0
    out.deltas = [(lo, hi) if lo > 2 * PLD_FLOOR else
                  f"delta <= 2e-15 at its truncation floor 1e-15: upper {hi:.3g}, no lower bound"
                  for lo, hi in zip(runs[False][0], runs[True][0])]
    out.epsilons = [(lo, hi) if hi <= _EXP_MAX else f"eps > {_EXP_MAX:.1f}: its e^-loss underflows float64"
                    for lo, hi in zip(runs[False][1], runs[True][1])]
    return out


def accountants(alternatives, epsilons=(), deltas=()) -> list[Brackets]:
    """Every accountant setting of the benchmark tables on one workload: the PLD at each of ``PLD_INTERVALS`` and
    the PRV accountant (see :func:`pld_brackets`, :func:`prv_brackets`)."""
    out = [pld_brackets(alternatives, epsilons, deltas, iv) for iv in PLD_INTERVALS]
    prv = prv_brackets(alternatives, epsilons, deltas)
    prv.missing = None if installed() else "not installed (pip install prv-accountant)"
    return out + [prv]


def verdict(b: Brackets, exact_deltas=(), exact_epsilons=()) -> str:
    """``inside`` / ``OUTSIDE`` / ``n/a (reason)`` of one accountant over a workload's queries: ``exact_deltas`` and
    ``exact_epsilons`` are exactdp's certified enclosures (lower, upper) per query, in the order of the accountant's
    queries (``None``: exactdp refused that query).  ``OUTSIDE (j of m: d2 e1)`` names the queries outside (δ
    queries d1 …, ε queries e1 …); ``(k of m compared; n/a: reasons)`` when only k could be compared (an accountant's
    or exactdp's n/a, or an arb comparison that cannot tell)."""
    if b.missing is not None:
        return b.missing
    def check(values, i, x, inside):
        if x is None:
            return None, "exactdp refused"
        if b._get(values, i) is None:
            return None, b.reason(values, i)
        v = inside(i, x)
        return v, "not decided by the arb comparison" if v is None else ""

    checks = [check(b.deltas, i, x, lambda i, x: b.delta_inside(i, *x)) for i, x in enumerate(exact_deltas)]
    checks += [check(b.epsilons, i, x, lambda i, x: b.epsilon_inside(*x, i=i)) for i, x in enumerate(exact_epsilons)]
    compared = [v for v, _ in checks if v is not None]
    reasons = sorted({why for v, why in checks if v is None})
    if not compared:
        return f"n/a ({'; '.join(reasons)})"
    if False in compared:  # which: d1 … = the δ queries in order, e1 … = the ε queries
        names = [f"d{i + 1}" for i in range(len(exact_deltas))] + [f"e{i + 1}" for i in range(len(exact_epsilons))]
        text = f"OUTSIDE ({compared.count(False)} of {len(checks)}: " + " ".join(
            name for name, (v, _) in zip(names, checks) if v is False) + ")"
    else:
        text = "inside"
    if None in [v for v, _ in checks]:
        text += f" ({len(compared)} of {len(checks)} compared; n/a: {'; '.join(reasons)})"
    return text


def summary(b: Brackets, t_exact: float, exact_deltas=(), exact_epsilons=(), bracket: str = "") -> str:
    """One accountant line of a table: its setting, CPU seconds, ratio to exactdp's ``t_exact`` (same run), a bracket
    to show (``bracket``: ``eps`` = the first ε bracket, ``delta`` = the first δ bracket) and the verdict."""
    if b.missing is not None:
        return f"    {b.name:<8} {b.missing}"
    cpu = "-" if b.na and not (b.deltas or b.epsilons) else f"{b.seconds:.2f}s"
    refused = all(x is None for x in [*exact_deltas, *exact_epsilons])  # no exactdp answer to compare the time with
    ratio = "-" if cpu == "-" or t_exact <= 0 or refused else f"{b.seconds / t_exact:.2f}x"
    shown = {"eps": lambda: "eps " + b.epsilon_text(0), "delta": lambda: "delta " + b.delta_text(0)}.get(
        bracket, lambda: "")()
    text = verdict(b, exact_deltas, exact_epsilons)
    shown = "" if "n/a (" in shown and shown.split("n/a (", 1)[1].rstrip(")") in text else shown  # said once
    extra = f" (+{b.seconds_both - b.seconds:.2f}s optimistic)" if b.name.startswith("PLD") and cpu != "-" else ""
    grid = f", grid {'~' * b.name.startswith('PLD')}{b.points:.2g} points" if b.points and cpu != "-" else ""
    return f"    {b.name:<8} {cpu:>8} {ratio:>9} exactdp{extra}{grid}  " + (f"{shown}  " if shown else "") + text


def print_accountants(alternatives, epsilons, deltas, t_exact: float, exact_deltas, exact_epsilons,
                      bracket: str = "eps") -> list[Brackets]:
    """Run every accountant setting (:func:`accountants`) on one workload and print one :func:`summary` line each."""
    results = accountants(alternatives, epsilons, deltas)
    for b in results:
        print(summary(b, t_exact, exact_deltas, exact_epsilons, bracket), flush=True)
    return results


def delta_enclosure(r):
    """exactdp's δ as (lower, upper) rationals: an exact value (both ends equal), a ``TensorEnclosure``, or None (a
    refusal)."""
    if r is None:
        return None
    if isinstance(r, fmpq):
        return r, r
    return r.lower, r.upper


def epsilon_enclosure(inv):
    """exactdp's ε = log t* as certified arb balls (lower, upper): t* exact, or in (t_lower, t]; None when exactdp
    refused or no finite ε reaches δ."""
    if inv is None or inv.t is None:
        return None
    return arb(inv.t_lower if inv.t_lower is not None else inv.t).log(), arb(inv.t).log()


def both_directions(p, q, n: int):
    """The alternatives of a row pair composed n times: (p, q)^n and (q, p)^n."""
    return [[((p, q), n)], [((q, p), n)]]


def rr_with_both_directions(rr, pair, n: int):
    """The alternatives of RR^{⊗n} ⊗ K^{⊗n} as the PLD rows compose them: the pair of RR's rows ``rr`` (either
    direction: RR is symmetric) n times with each direction of the pair of rows ``pair`` n times."""
    return [[(tuple(rr), n)] + alt for alt in both_directions(*pair, n)]


def settings_text() -> str:
    """The accountants' settings (printed under each table's title): the PLD's intervals and what its bracket and
    time are, the PRV accountant's errors and grid."""
    pld = ("  PLD (dp_accounting): not installed (pip install dp-accounting)" if pld_module() is None else
           f"  PLD (dp_accounting) at intervals {', '.join(f'{iv:.0e}' for iv in PLD_INTERVALS)}: bracket [optimistic, "
           "pessimistic]; CPU = its pessimistic run (composition + queries), the optimistic run in parentheses")
    if not installed():
        return pld + "\n  PRV accountant: not installed (pip install prv-accountant)"
    eps_error, delta_error, max_points = settings()
    return (pld + f"\n  PRV accountant: eps_error {eps_error:g}, delta_error {delta_error:g} (bracket = estimate at "
            f"eps -/+ eps_error, -/+ delta_error), grids up to {max_points:.2g} points")
