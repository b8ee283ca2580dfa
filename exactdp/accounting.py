r"""The accountants' bridge: exact privacy profiles exported to, and checked against, Google ``dp_accounting``.

Three things for researchers who compose with a privacy-loss-distribution (PLD) accountant:

* :func:`export_pld` — a kernel (or one row pair) as a ``dp_accounting`` ``PrivacyLossDistribution``,
  pessimistic or optimistic, carrying a statement of how it relates to the exact profile.
* :func:`check_pld` — whether an accountant's δ(ε) curve lies above (or below) the exact one, decided by
  certified arithmetic at each ε (TRUE / FALSE / UNDECIDED, never a guess), with a note when the accountant
  is a ``PLDAccountant`` that drops the ``count`` of a randomized-response event (see :func:`count_bug`).
* :func:`renyi_dp` — Rényi DP of a kernel, ε(α) = max_{x ≠ x'} D_α(K_x‖K_{x'}).

**The exported data.**  dp_accounting represents a PLD by masses m_i on privacy losses i·h (h the
discretization interval, a double whose exact value is used throughout) and an infinity mass m_∞; its
δ(ε) is m_∞ + Σ_i m_i (1 − e^{ε − i h})_+, and composition convolves the masses (m_∞ composes as
1 − Π(1 − m_∞)).  For a pair (p, q) the exact masses are the type classes of
:class:`~exactdp.measures.privacy_loss.PairLoss`: class l has loss log r_l and p-mass P_l, and m_∞ = p(q = 0).
The export rounds every loss to an index i_l = ⌈log r_l / h⌉ (pessimistic) or ⌊log r_l / h⌋ (optimistic),
decided by arb balls (log r / h is never an integer for a rational r ≠ 1 and rational h, by
Lindemann–Weierstrass, so the ball loop ends), and every mass to the nearest double above (pessimistic) or
below (optimistic).  Each term of δ, of one pair or of any convolution of it, is non-decreasing in every loss
and every mass, so the δ computed *exactly* from the pessimistic data is ≥ the exact value of the pair it
came from, for every number of compositions n and every ε ≥ 0, and the optimistic data's is ≤ it.

**Which pair.**  δ of the n-fold kernel K^{⊗n} is a maximum over all pairs of input sequences, which mixes
row pairs (a 2×3 kernel's maximizer can be 4 × (x, x') and 6 × (x', x)); one row pair composed n times can
fall below it.  The pessimistic export of a kernel is therefore its *profile pair*: the dichotomy (P, Q) whose
E_γ(P‖Q) equals the exact privacy profile δ_K(γ) for every γ ≥ 0 (its classes are the profile's pieces:
ratio = breakpoint, mass = the drop of the intercept).  It dominates every ordered row pair in the Blackwell
order — checked exactly for each pair by :meth:`PairLoss.dominates` — so by Blackwell's theorem for
dichotomies every row pair is a garbling of (P, Q), garblings compose coordinatewise, and
E_γ(P^{⊗n}‖Q^{⊗n}) ≥ δ_{K^{⊗n}}(γ) for every n: the statement is *proved modulo* that theorem.  The
optimistic export of a kernel is one row pair (the one of largest TV, and its reverse as dp_accounting's
"add" direction): both directions composed n times are input-sequence pairs of K^{⊗n}, so their δ is ≤
δ_{K^{⊗n}} without any cited theorem.  Not covered: dp_accounting's own float arithmetic (FFT convolution,
tail truncation, its float exp); :func:`check_pld` checks the numbers it returns.

References: docs/claims.md B-10 (the privacy profile δ(γ) = η_{E_γ}), D-7 (n-fold products); the type-class
view of :mod:`exactdp.measures.privacy_loss`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

import sympy
from flint import arb, ctx, fmpq

from exactdp.errors import InputError, InternalError, ParameterError, UndecidedError
from exactdp.kernels import as_kernel
from exactdp.limits import require
from exactdp.measures.divergences import kl, renyi
from exactdp.measures.privacy import PrivacyProfile, ldp_epsilon, privacy_profile
from exactdp.measures.privacy_loss import PairLoss
from exactdp.numbers.float_interval import float_bracket
from exactdp.numbers.qq import ONE, ZERO, from_float, qq_to_sympy, to_qq
from exactdp.numbers.rb import RB, precisions
from exactdp.numbers.reader import as_expr
from exactdp.numbers.truth import Sign, Truth

__all__ = ["DEFAULT_EPSILONS", "ExportedPLD", "PLDCheck", "PLDPoint", "RenyiDP", "check_pld", "count_bug", "export_pld",
           "profile_pair", "renyi_dp"]

#: the default ε grid of :func:`check_pld`: 0, 1/4, …, 19/4 (20 values)
DEFAULT_EPSILONS = tuple(fmpq(i, 4) for i in range(20))


def _dp_accounting(module: str = "pld.privacy_loss_distribution"):
    """The dp_accounting submodule, imported on first use (it is optional: the ``test`` extra installs it)."""
    try:
        return importlib.import_module(f"dp_accounting.{module}")
    except ImportError as exc:
        raise InputError("exactdp.accounting needs the optional package dp_accounting: "
                         "pip install dp-accounting (or the exactdp[test] extra)") from exc


# -- the profile pair ----------------------------------------------------------------------------------

def profile_pair(K) -> PairLoss:
    r"""The dichotomy (P, Q) with E_γ(P‖Q) = δ_K(γ) for every γ ≥ 0 (δ_K the exact privacy profile, B-10).

    From the profile's pieces (P_k, Q_k) (γ increasing, breakpoints b_k): one class per breakpoint with
    ratio b_k and p-mass P_{k−1} − P_k, the P-only mass = the last intercept (the profile's value at ∞),
    and q-mass 1 − Q_0 on an output where P vanishes.  Checked: E_γ(P‖Q) = δ_K(γ) at 0, at every breakpoint
    and beyond the last (both sides are piecewise linear with these breakpoints), and the pair dominates every
    ordered row pair of K in the Blackwell order (:meth:`PairLoss.dominates`); a failure is an InternalError.
    """
    K = as_kernel(K)
    if K.symbolic or K.free_symbols:
        raise ParameterError("K: the dp_accounting export takes kernels with rational entries")
    prof = privacy_profile(K)
    assert isinstance(prof, PrivacyProfile)  # a rational kernel's profile (symbolic ones are refused above)
    pieces, bps = prof.pieces, prof.breakpoints
    classes = tuple(sorted(((bps[k - 1], pieces[k - 1][0] - pieces[k][0]) for k in range(1, len(pieces))),
                           key=lambda c: c[0], reverse=True))
    pair = PairLoss(classes, pieces[-1][0])
    last = bps[-1] + 1 if bps else ONE
    for g in (ZERO, *bps, last):
        if pair.hockey_stick(g) != prof(g):
            raise InternalError(f"profile_pair: E_gamma of the pair differs from the profile at gamma = {g}")
    for x in range(K.N):
        for x2 in range(K.N):
            if x != x2 and not pair.dominates(PairLoss.of(K[x], K[x2])):
                raise InternalError(f"profile_pair: the pair does not dominate the row pair ({x}, {x2})")
    return pair


# -- export ----------------------------------------------------------------------------------------------

def _loss_index(r: fmpq, h: fmpq, up: bool) -> int:
    """⌈log r / h⌉ (``up``) or ⌊log r / h⌋ for a rational r > 0, decided by arb balls (never an integer
    for r ≠ 1, so the loop ends; UndecidedError at the precision cap)."""
    if r == 1:
        return 0
    for prec in precisions():
        with ctx.workprec(prec):
            x = arb(r).log() / arb(h)
            lo, hi = x.lower(), x.upper()
            if not (lo.is_finite() and hi.is_finite()):
                continue
            # lower()/upper() are exact points, so their floors are exact integers (unique_fmpz is not None)
            f_lo, f_hi = int(lo.floor().unique_fmpz()), int(hi.floor().unique_fmpz())  # type: ignore[arg-type]
        if f_lo == f_hi:
            return f_lo + 1 if up else f_lo
    raise UndecidedError(f"the privacy loss log({r}) / h could not be placed between two integers")


def _rounded(loss: PairLoss, h: fmpq, up: bool) -> tuple[dict[int, float], float, tuple, fmpq]:
    """dp_accounting's rounded pmf of one pair: ``({index: mass}, infinity mass, exact items, exact ∞)``.

    Masses of equal index are summed exactly, then rounded once (up for ``up``, else down)."""
    exact: dict[int, fmpq] = {}
    for r, P in loss.classes:
        i = _loss_index(r, h, up)
        exact[i] = exact.get(i, ZERO) + P
    side = 1 if up else 0
    pmf = {i: float_bracket(m)[side] for i, m in sorted(exact.items())}
    inf_mass = float_bracket(loss.p_only)[side]
    items = tuple((i, from_float(m)) for i, m in pmf.items())
    if pmf:
        require("max_memory", 8 * (max(pmf) - min(pmf) + 1), "export_pld: the dense PLD array (losses / interval)")
    return pmf, inf_mass, items, from_float(inf_mass)


@dataclass(frozen=True)
class ExportedPLD:
    r"""A dp_accounting ``PrivacyLossDistribution`` with what it is and how it relates to the exact profile.

    ``pld``: the dp_accounting object; ``source``: ``"profile pair"`` or ``"row pair (x, x')"``;
    ``interval``: the exact value of the discretization interval h (a double); ``remove`` / ``add``: the
    exported data as exact ``(index, mass)`` items (the exact values of the doubles handed over) and the
    infinity masses; ``statement``: the certified relation; ``rests_on``: the cited theorem it depends on
    (empty when none).
    """

    pld: Any = field(repr=False)
    pessimistic: bool
    source: str
    interval: fmpq
    remove: tuple
    infinity_mass: fmpq
    add: tuple | None
    infinity_mass_add: fmpq | None
    statement: str
    rests_on: tuple[str, ...] = ()

    @property
    def verdict(self) -> str:
        return "proved modulo " + ", ".join(self.rests_on) if self.rests_on else "proved"

    def self_compose(self, n: int):
        """dp_accounting's n-fold composition of the exported PLD (its float FFT; see :func:`check_pld`)."""
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ParameterError(f"n: must be an integer >= 1, got {n!r}")
        return self.pld.self_compose(n)


def _interval(interval) -> tuple[float, fmpq]:
    h = to_qq(interval, "interval")
    if h <= 0:
        raise ParameterError(f"interval: must be > 0, got {h}")
    below, above = float_bracket(h)
    h_float = below or above  # the double nearest below h (above when h is below the least subnormal)
    return h_float, from_float(h_float)


def export_pld(K, pair: tuple[int, int] | None = None, *, pessimistic: bool = True,
               interval="1/10000") -> ExportedPLD:
    r"""Export a kernel (or the row pair ``pair`` = (x, x')) as a dp_accounting ``PrivacyLossDistribution``.

    * pessimistic, ``pair=None``: the profile pair (:func:`profile_pair`), symmetric.  Its n-fold δ,
      computed exactly from the exported data, is ≥ δ_{K^{⊗n}}(e^ε) for every n ≥ 1 and ε ≥ 0 (proved
      modulo Blackwell's theorem for dichotomies; see the module docstring).
    * pessimistic, ``pair=(x, x')``: remove = PLD(K_x‖K_{x'}), add = PLD(K_{x'}‖K_x); an upper bound for
      those two pure compositions (not for K^{⊗n}: mixed input sequences can be larger).
    * optimistic: ``pair`` (default: the ordered pair of largest TV) and its reverse; its n-fold δ is ≤
      δ_{K^{⊗n}}(e^ε) for every n and ε (both directions are input-sequence pairs of K^{⊗n}).

    ``interval``: the discretization h, exact (``"1/10000"``); the double nearest below it is used and its
    exact value reported as ``interval``.  Raises ParameterError for a symbolic kernel, a bad pair or h ≤ 0;
    InputError when dp_accounting is not installed.

    >>> from exactdp.mechanisms import randomized_response
    >>> e = export_pld(randomized_response(2, 3), interval="1/4")
    >>> e.remove, e.infinity_mass
    (((-4, 1/4), (5, 3/4)), 0)
    """
    K = as_kernel(K)
    if K.symbolic or K.free_symbols:
        raise ParameterError("K: the dp_accounting export takes kernels with rational entries")
    if K.N < 2:
        raise ParameterError("K: needs at least two rows (one input has no neighbour)")
    h_float, h = _interval(interval)
    if pair is not None:
        if (not isinstance(pair, tuple) or len(pair) != 2 or
                any(not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < K.N for v in pair) or pair[0] == pair[1]):
            raise ParameterError(f"pair: expected two distinct row indices in 0..{K.N - 1}, got {pair!r}")
    pld_module = _dp_accounting()
    create = pld_module.PrivacyLossDistribution.create_from_rounded_probability
    if pessimistic and pair is None:
        pmf, inf_mass, items, inf_exact = _rounded(profile_pair(K), h, True)
        pld = create(pmf, inf_mass, h_float, pessimistic_estimate=True)
        statement = ("for every n >= 1 and eps >= 0, the delta(eps) of the n-fold composition computed exactly "
                     "from this data is >= the exact delta of K^{(x)n} at e^eps: the data is the profile pair of K "
                     "(E_gamma = delta_K for all gamma >= 0, checked) with losses rounded up to multiples of h and "
                     "masses rounded up; the pair dominates every row pair of K (checked), hence every input-sequence "
                     "pair of K^{(x)n} is a garbling of its n-th power")
        return ExportedPLD(pld, True, "profile pair", h, items, inf_exact, None, None, statement,
                           ("Blackwell's theorem for dichotomies",))
    if pair is None:
        pair = max(((x, x2) for x in range(K.N) for x2 in range(K.N) if x != x2),
                   key=lambda p: PairLoss.of(K[p[0]], K[p[1]]).hockey_stick(ONE))
    x, x2 = pair
    fwd, bwd = PairLoss.of(K[x], K[x2]), PairLoss.of(K[x2], K[x])
    pmf, inf_mass, items, inf_exact = _rounded(fwd, h, pessimistic)
    pmf_add, inf_add, items_add, inf_add_exact = _rounded(bwd, h, pessimistic)
    pld = create(pmf, inf_mass, h_float, pessimistic_estimate=pessimistic, rounded_probability_mass_function_add=pmf_add,
                 infinity_mass_add=inf_add, symmetric=False)
    if pessimistic:
        statement = (f"for every n >= 1 and eps >= 0, the delta(eps) of the n-fold composition computed exactly from "
                     f"this data is >= max(E(K_{x}^n || K_{x2}^n), E(K_{x2}^n || K_{x}^n)) at e^eps (losses and masses "
                     f"rounded up); this pair only: mixed input sequences of K^(x)n can be larger")
    else:
        statement = (f"for every n >= 1 and eps >= 0, the delta(eps) of the n-fold composition computed exactly from "
                     f"this data is <= the exact delta of K^(x)n at e^eps: losses and masses are rounded down and both "
                     f"directions ({x}, {x2})^n and ({x2}, {x})^n are input-sequence pairs of K^(x)n")
    return ExportedPLD(pld, pessimistic, f"row pair ({x}, {x2})", h, items, inf_exact, items_add, inf_add_exact,
                       statement)


# -- checking an accountant's curve -------------------------------------------------------------------------

@dataclass(frozen=True)
class PLDPoint:
    """One ε of :func:`check_pld`: ``eps`` (the exact value of the double passed to the accountant), the
    accountant's δ (exact value of its double), the exact δ (sympy), and whether the requested side holds."""

    eps: fmpq
    accountant: fmpq
    exact: sympy.Expr
    holds: Truth


@dataclass(frozen=True)
class PLDCheck:
    """The result of :func:`check_pld`: ``holds`` is TRUE when the accountant's curve is on ``side`` of the
    exact one at every checked ε (certified), FALSE when it is on the wrong side at some ε, else UNKNOWN."""

    side: str
    points: tuple[PLDPoint, ...]
    notes: tuple[str, ...] = ()

    @property
    def holds(self) -> Truth:
        truths = [p.holds for p in self.points]
        if any(t is Truth.FALSE for t in truths):
            return Truth.FALSE
        return Truth.TRUE if all(t is Truth.TRUE for t in truths) else Truth.UNKNOWN

    @property
    def violations(self) -> tuple[PLDPoint, ...]:
        return tuple(p for p in self.points if p.holds is Truth.FALSE)

    def summary(self) -> str:
        word = {Truth.TRUE: "holds", Truth.FALSE: "FAILS", Truth.UNKNOWN: "UNDECIDED"}[self.holds]
        bad = self.violations
        text = f"accountant delta(eps) {self.side} the exact curve at {len(self.points)} eps values: {word}"
        if bad:
            p = bad[0]
            text += (f" ({len(bad)} violations; first at eps = {p.eps}: accountant {float(p.accountant):.6g}, "
                     f"exact {float(sympy.N(p.exact, 15)):.6g})")
        return "\n".join([text, *self.notes])


def _exact_delta(profile: PrivacyProfile, eps: fmpq) -> sympy.Expr:
    """δ(e^ε) of an exact profile, the piece chosen by certified comparisons of e^ε with the breakpoints."""
    gamma = sympy.exp(qq_to_sympy(eps))

    def sym(v):
        return qq_to_sympy(v) if isinstance(v, fmpq) else as_expr(v)

    k = 0
    for b in profile.breakpoints:
        s = RB(gamma - sym(b)).sign().sign
        if s is None:
            raise UndecidedError(f"e^{eps} could not be compared with the breakpoint {b}")
        if s is not Sign.POSITIVE:
            break
        k += 1
    P, Q = profile.pieces[k]
    return sym(P) - sym(Q) * gamma


def _side(exact: sympy.Expr, value: fmpq, side: str) -> Truth:
    s = RB(exact).compare_rational(value)  # sign(exact − accountant)
    if s is None:
        return Truth.UNKNOWN
    ok = s is not Sign.POSITIVE if side == "above" else s is not Sign.NEGATIVE
    return Truth.TRUE if ok else Truth.FALSE


def _accountant_delta(pld) -> Any:
    if isinstance(pld, ExportedPLD):
        pld = pld.pld
    for name in ("get_delta_for_epsilon", "get_delta"):
        if callable(getattr(pld, name, None)):
            return getattr(pld, name)
    raise ParameterError(f"pld: expected a dp_accounting PrivacyLossDistribution, PLDAccountant or ExportedPLD, "
                         f"got {type(pld).__name__}")


def check_pld(pld, exact, *, n: int = 1, epsilons=None, side: str = "above") -> PLDCheck:
    r"""Is an accountant's δ(ε) curve above (``side="above"``, the pessimistic claim) or below the exact one?

    ``pld``: a dp_accounting ``PrivacyLossDistribution`` (already composed), a ``PLDAccountant`` (its
    ``get_delta``) or an :class:`ExportedPLD`.  ``exact``: a :class:`~exactdp.measures.privacy.PrivacyProfile`
    or a kernel K, whose n-fold profile (``privacy_profile_tensor_power(K, n)``) is used.  ``epsilons``:
    exact values ≥ 0 (default 0, 1/4, …, 19/4); each is handed to the accountant as the nearest double and
    the comparison is made at that double's exact value ε: the accountant's double (exactly) against
    δ(e^ε) = P − Q e^ε of the exact profile, by certified balls (exact when ε = 0).

    When the curve is below the exact one, ``pld`` is a ``PLDAccountant`` whose ledger uses a
    randomized-response event more than once, and this dp_accounting applies a counted such event once
    (:func:`count_bug`), the result carries a note naming that likely cause (the ledger merges repeated
    events, so it cannot tell a counted compose from a loop: the note needs the failure as well).
    """
    if side not in ("above", "below"):
        raise ParameterError(f"side: expected 'above' or 'below', got {side!r}")
    get = _accountant_delta(pld)
    if isinstance(exact, PrivacyProfile):
        profile = exact
    else:
        from exactdp.measures.tensor import privacy_profile_tensor_power

        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ParameterError(f"n: must be an integer >= 1, got {n!r}")
        computed = privacy_profile(exact) if n == 1 else privacy_profile_tensor_power(exact, n)
        if not isinstance(computed, PrivacyProfile):
            raise ParameterError("exact: the kernel has symbolic entries; pass its exact PrivacyProfile")
        profile = computed
    eps_values = DEFAULT_EPSILONS if epsilons is None else tuple(to_qq(e, "epsilons") for e in epsilons)
    points = []
    for e in eps_values:
        if e < 0:
            raise ParameterError(f"epsilons: must be >= 0, got {e}")
        e_float = float_bracket(e)[0]
        e_exact = from_float(e_float)
        value = from_float(float(get(e_float)))
        ex = _exact_delta(profile, e_exact)
        points.append(PLDPoint(e_exact, value, ex, _side(ex, value, side)))
    result = PLDCheck(side, tuple(points))
    if side == "above" and result.holds is Truth.FALSE and _rr_repeated(pld) and count_bug():
        result = PLDCheck(side, result.points, (
            "likely cause: this PLDAccountant's ledger uses a RandomizedResponseDpEvent more than once, and this "
            "dp_accounting's PLDAccountant applies compose(event, count) / SelfComposedDpEvent of such an event "
            "once whatever its count (it composes the randomized-response PLD without self_compose(count)); "
            "compose the event once per use, or self_compose the PLD",))
    return result


def _rr_repeated(pld) -> bool:
    """Does a dp_accounting accountant's ledger compose a randomized-response event with total count > 1?"""
    ledger = getattr(pld, "ledger", None)
    if ledger is None or isinstance(pld, ExportedPLD):
        return False
    events = _dp_accounting("dp_event")
    total = 0

    def walk(event, count: int) -> None:
        nonlocal total
        if isinstance(event, events.SelfComposedDpEvent):
            walk(event.event, count * event.count)
        elif isinstance(event, events.ComposedDpEvent):
            for e in event.events:
                walk(e, count)
        elif isinstance(event, events.RandomizedResponseDpEvent):
            total += count

    walk(ledger, 1)
    return total > 1


def count_bug() -> bool:
    """Does the installed dp_accounting's ``PLDAccountant`` ignore the count of a randomized-response event?

    Probed, not assumed: one accountant composes ``RandomizedResponseDpEvent(1/2, 2)`` with count 2, another
    once; equal δ at ε = 0 (exact: 1/2 vs 3/4 for this randomized response) means the count was dropped."""
    dp_event = _dp_accounting("dp_event")
    accountant = _dp_accounting("pld.pld_privacy_accountant")
    rel = _dp_accounting("privacy_accountant").NeighboringRelation.REPLACE_ONE
    event = dp_event.RandomizedResponseDpEvent(noise_parameter=0.5, num_buckets=2)
    once, twice = accountant.PLDAccountant(rel), accountant.PLDAccountant(rel)
    once.compose(event)
    twice.compose(event, 2)
    return once.get_delta(0.0) == twice.get_delta(0.0)


# -- Rényi DP ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RenyiDP:
    r"""ε(α) = max_{x ≠ x'} D_α(K_x‖K_{x'}) (nats) of a kernel, and of K^{⊗n}: n·ε(α).

    ``epsilon``: the exact value (sympy; ``oo`` when infinite) when the maximizing pair was decided exactly,
    else None; ``lower``/``upper``: exact rational endpoints of a certified enclosure (both None when
    infinite); ``pair``: a maximizing ordered pair when decided.
    """

    alpha: Any
    n: int
    epsilon: sympy.Expr | None
    lower: fmpq | None
    upper: fmpq | None
    pair: tuple[int, int] | None

    @property
    def exact(self) -> bool:
        return self.epsilon is not None


def _enclosure(value, prec: int = 128) -> tuple[fmpq, fmpq]:
    if isinstance(value, fmpq):
        return value, value
    ends = RB(value).endpoints(prec)
    if ends is None:
        raise UndecidedError(f"renyi_dp: no finite enclosure of {value}")
    return ends


def renyi_dp(K, alpha, *, n: int = 1) -> RenyiDP:
    r"""Rényi DP of a kernel: ε(α) = max over ordered row pairs of D_α(K_x‖K_{x'}) (:func:`exactdp.renyi`),
    times n for the n-fold composition (D_α is additive over products, and every coordinate's pair is one of
    K's).  α > 0 exact rational (α = 1: KL) or ``sympy.oo`` (the LDP level).

    Row pairs with equal privacy-loss distribution have equal D_α and are evaluated once.  The maximum is
    decided by certified comparisons; when two candidates cannot be told apart (a tie the exact layer cannot
    prove) the result keeps only the certified enclosure of the maximum (``epsilon`` None).  For an integer α
    the Rényi sums are rational and the value is log(rational)/(α − 1) exactly.

    >>> from exactdp.mechanisms import randomized_response
    >>> renyi_dp(randomized_response(2, 3), 2).epsilon
    log(7/3)
    """
    K = as_kernel(K)
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ParameterError(f"n: must be an integer >= 1, got {n!r}")
    if K.N < 2:
        raise ParameterError("K: needs at least two rows (one input has no neighbour)")
    if K.free_symbols:
        raise ParameterError("K: renyi_dp takes kernels with exact constant entries (no parameters); substitute "
                             "values first (Kernel.subs)")
    if alpha is sympy.oo:
        value = ldp_epsilon(K)
        candidates = [((0, 1), value)]
    else:
        a = to_qq(alpha, "alpha")
        if a <= 0:
            raise ParameterError(f"alpha: must be > 0 or oo, got {a}")
        seen: dict = {}
        for x in range(K.N):
            for x2 in range(K.N):
                if x == x2:
                    continue
                key = (x, x2) if K.symbolic else PairLoss.of(K[x], K[x2])
                if key not in seen:
                    seen[key] = ((x, x2), kl(K[x], K[x2]) if a == 1 else renyi(K[x], K[x2], a))
        candidates = list(seen.values())
    if any(v is sympy.oo for _, v in candidates):
        pair = next(p for p, v in candidates if v is sympy.oo)
        return RenyiDP(alpha, n, sympy.oo, None, None, pair)
    best, decided = candidates[0], True
    for cand in candidates[1:]:
        s = RB(_sym(cand[1]) - _sym(best[1])).sign().sign
        if s is None:
            decided = False
            if _enclosure(cand[1])[1] > _enclosure(best[1])[1]:
                best = cand
        elif s is Sign.POSITIVE:
            best = cand
    if decided:
        value = sympy.Integer(n) * _sym(best[1])
        lo, hi = _enclosure(value)
        return RenyiDP(alpha, n, value, lo, hi, best[0])
    ends = [_enclosure(v) for _, v in candidates]
    lo, hi = max(e[0] for e in ends), max(e[1] for e in ends)
    return RenyiDP(alpha, n, None, n * lo, n * hi, None)


def _sym(v) -> sympy.Expr:
    return qq_to_sympy(v) if isinstance(v, fmpq) else v

