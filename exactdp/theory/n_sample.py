r"""n-sample extremal problems: sup of η_{E_γ}(K^{⊗n}) over a privacy class, exactly, with a certificate.

The quantity is the contraction of n independent uses of one mechanism K ([A] A-8; docs/claims.md D-7):
η_{E_γ}(K^{⊗n}) = max over input sequences x, x' ∈ [N]ⁿ of E_γ(K_{x₁}⊗…⊗K_{xₙ} ‖ K_{x'₁}⊗…⊗K_{x'ₙ}), γ ≥ 1
(γ = 1: η_TV).  The n = 1 suprema are LPs (:mod:`exactdp.theory.extremal`); for n ≥ 2 the objective is a
polynomial of degree n in the entries and is **not** convex (K = [[p, 1−p], [0, 1]] has η_TV(K⊗K) = 2p − p²),
so the supremum is not found by looking at the vertices of the class polytope.  It is found instead by
Blackwell domination of dichotomies:

**Theorem (exact n-sample supremum).**  Let the class be (ε,δ)-LDP ([A] D-6) with any N ≥ 2 inputs and any
number of outputs, or (ε,c)-PML ([G] Def. 2) with N = 2.  Write t' = t for LDP; for PML with N = 2, [G] Def. 2
reads K(y|x)(1 − tc) ≤ t(1 − c)K(y|x') (the constraint with x = x' is implied since (t − 1)(1 − 2c) ≥ 0), so the
class is the t'-LDP class with t' = t(1 − c)/(1 − tc) when tc < 1 and every kernel when tc ≥ 1.  Let (R₀, R₁) be
the (ε,δ) randomized response: R₀ = (δ, (1−δ)t'/(t'+1), (1−δ)/(t'+1), 0), R₁ its reverse (2 outputs when
δ = 0; the identity when every kernel qualifies).  Then for every n ≥ 1 and γ ≥ 1

    sup_K η_{E_γ}(K^{⊗n}) = E_γ(R₀^{⊗n} ‖ R₁^{⊗n}),

attained by the N-input kernel with rows R₀, R₁, R₁, …, R₁.

*Proof.*  (1) Coordinates with x_i = x'_i drop out of E_γ, and adding a differing coordinate is never worse
(data processing), so the maximum is over sequences of ordered pairs (a_i, b_i), a_i ≠ b_i (the facts of
:mod:`exactdp.measures.tensor`).  (2) Each dichotomy (P, Q) = (K_a, K_b) of a class kernel has the profile
f(γ) = E_γ(P‖Q): convex, non-increasing, f(0) = 1; the class gives f(t') ≤ δ and, through
E_{t'}(Q‖P) = 1 − t' + t' f(1/t') ≤ δ, f(1/t') ≤ 1 − (1−δ)/t'.  The chords of a convex function lie above it,
so f ≤ U on [0, ∞), U the convex piecewise-linear function through (0, 1), (1/t', 1 − (1−δ)/t'), (t', δ),
constant δ after t'.  (3) U is exactly the profile of (R₀, R₁) (its likelihood ratios are ∞, t', 1/t', 0), so by
Blackwell's theorem for dichotomies (as in :meth:`exactdp.measures.privacy_loss.PairLoss.dominates`) each
(K_a, K_b) is a garbling (R₀W, R₁W) of (R₀, R₁).  (4) Then the product dichotomy is the garbling by W₁⊗…⊗Wₙ
of (R₀^{⊗n}, R₁^{⊗n}), and E_γ does not increase under garbling.  (5) The kernel with rows R₀, R₁, …, R₁ is in
the class (every pair of its rows is (R₀, R₁), its reverse or equal) and has every differing pair equal
to (R₀, R₁) or its reverse, whose E_γ of products is the value.  ∎

At n = 1 the value is B-4's (t − 1 + 2δ)/(t + 1) for γ = 1 (the binary kernel of B-4 is then also optimal); for
n ≥ 2 the 4-output (ε,δ) randomized response can be strictly better than B-4's binary kernel (t = 3/2,
δ = 1/4, n = 2: 11/20 against 2/5).  The gap to [A]'s bound φⁿ(ε,δ) = 1 − (1−δ)ⁿ/tⁿ (A-8, D-13;
not a power, F-A1) is reported for the LDP classes.

**Certificate** (:meth:`NSampleExtremal.failures`, exact, from the data alone): the optimal kernel is in the
class (core functions ``ldp_ratio`` / ``eta_hockey_stick`` / ``pml_ratio``); its η_{E_γ}(K^{⊗n}) recomputed by
:func:`exactdp.measures.tensor.eta_hockey_stick_tensor_power` equals the value; (R₀, R₁) is in the binary
class and its profile equals the envelope U at 0, 1/t', t' and ∞ with no likelihood ratio outside
{0, 1/t', t', ∞} (so the two piecewise-linear functions are equal).  Steps (1)–(4) of the proof are the
theorems the certificate relies on.  Scope: every N ≥ 2 and every output alphabet for LDP; N = 2 for PML
(for N ≥ 3 the rows of a PML kernel are coupled through the column sums, and the dichotomy that dominates
every row pair need not be a row pair of any class kernel; refused).  With fewer outputs M than (R₀, R₁) has (M = 2, 3 at δ > 0) the
value stays an upper bound; it is the M-output supremum when a merge of R's outputs into M blocks (a
post-processing, so in the class) attains it — t = 3/2, δ = 1/4, n = 2, M = 3 merges outputs 0 and 1 — and is
refused otherwise, with the interval it lies in.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from flint import fmpq

from exactdp.errors import ParameterError
from exactdp.kernels import Kernel, as_kernel
from exactdp.limits import require
from exactdp.measures.privacy_loss import PairLoss
from exactdp.measures.tensor import check_n, eta_hockey_stick_tensor_power, phi_n
from exactdp.numbers.qq import ONE, ZERO, to_qq
from exactdp.parameters import check_c, check_delta, t_value
from exactdp.theory.blackwell import blackwell_domination
from exactdp.theory.extremal import privacy_level_failures
from exactdp.theory.lp_programs import integer_size


def approx_randomized_response(t, delta) -> Kernel:
    r"""The (ε,δ) randomized response, rows (δ, (1−δ)t/(t+1), (1−δ)/(t+1), 0) and its reverse (t = e^ε rational):
    the dichotomy whose E_γ profile is the largest an (ε,δ)-LDP pair of rows can have (module docstring).
    With δ = 0 the two zero-mass outputs are dropped (binary randomized response).

    >>> approx_randomized_response("3/2", "1/4").rows
    ((1/4, 9/20, 3/10, 0), (0, 3/10, 9/20, 1/4))
    """
    t, d = to_qq(t_value(t), "t"), check_delta(delta)
    a, b = (1 - d) * t / (t + 1), (1 - d) / (t + 1)
    rows = [[d, a, b, ZERO], [ZERO, b, a, d]] if d else [[a, b], [b, a]]
    return Kernel.from_exact_rows(rows, False, name="RR(eps,delta)")


@dataclass(frozen=True)
class NSampleExtremal:
    """sup η_{E_γ}(K^{⊗n}) over a class, exactly: ``value``, an optimal ``kernel`` (N inputs), the dominating
    pair ``dominating`` (2 rows), and the class data ``params`` (``t_pair`` = t' of the theorem, None when every
    kernel qualifies).  ``phi_n`` / ``gap`` = φⁿ(ε,δ) and φⁿ − value for the LDP classes, else None."""

    value: fmpq
    kernel: Kernel
    dominating: Kernel
    params: dict = field(default_factory=dict)
    phi_n: fmpq | None = None

    @property
    def gap(self) -> fmpq | None:
        return None if self.phi_n is None else self.phi_n - self.value

    @property
    def scope(self) -> str:
        p = self.params
        inputs = ("every N >= 2" if p["c"] is None else "N = 2 (the (eps,c)-PML class is then an LDP class)"
                  if p["t_pair"] is not None else "N = 2 (every kernel is (eps,c)-PML: tc >= 1)")
        if p["M"] < self.dominating.M:
            return (f"{inputs}, kernels with {p['M']} or more outputs (attained by merging outputs of the "
                    f"{self.dominating.M}-output optimum)")
        return f"{inputs}, every output alphabet (optimum attained with {self.dominating.M} outputs)"

    def failures(self) -> list[str]:
        """Everything in the certificate that fails to re-check exactly (empty: the value is proved)."""
        p = self.params
        bad = privacy_level_failures(self.kernel, p["t"], p["c"], p["delta"])
        bad += [f"dominating pair: {f}" for f in privacy_level_failures(self.dominating, p["t"], p["c"], p["delta"])]
        got = eta_hockey_stick_tensor_power(self.kernel, p["n"], p["gamma"])
        if got != self.value:
            bad.append(f"eta_E_{p['gamma']}(kernel^(x){p['n']}) = {got} != value {self.value}")
        bad.extend(envelope_failures(self.dominating, p["t_pair"], p["delta"]))
        top = eta_hockey_stick_tensor_power(self.dominating, p["n"], p["gamma"])
        if top != self.value:
            bad.append(f"E_{p['gamma']} of the dominating pair's {p['n']}-fold products = {top} != value {self.value}")
        return bad

    def certified(self) -> bool:
        return not self.failures()

    def envelope_points(self) -> tuple:
        """The certificate's data: (γ, U(γ)) at the nodes where the dominating pair's profile was checked, and
        ("inf", U(∞)); U is linear between consecutive nodes and constant after the last."""
        p = self.params
        last = ONE if p["t_pair"] is None else p["delta"]
        return tuple((g, envelope(p["t_pair"], p["delta"], g)) for g in envelope_nodes(p["t_pair"])) + (("inf", last),)

    def garblings(self, K) -> dict:
        """Step (3) of the proof made explicit for one kernel K of the class: for every ordered pair (a, b) of
        distinct inputs, :func:`~exactdp.theory.blackwell.blackwell_domination` of the dominating pair over
        (K_a, K_b) — an exact W with (K_a, K_b) = (R₀W, R₁W), or, if K is not in the class, possibly a
        separating loss.  Quadratic in N: one exact LP per pair."""
        K = as_kernel(K)
        require("max_work", K.N * K.N * self.dominating.M * K.M, f"garblings: {K.N * (K.N - 1)} domination LPs")
        return {(a, b): blackwell_domination(self.dominating, Kernel.from_exact_rows([K.rows[a], K.rows[b]], False))
                for a, b in itertools.permutations(range(K.N), 2)}


def envelope(t_pair, delta, gamma) -> fmpq:
    r"""U(γ): the largest E_γ(K_a‖K_b) of two rows of a t'-LDP-with-slack-δ kernel (module docstring, step 2);
    ``t_pair`` None means every kernel qualifies (U ≡ 1)."""
    if t_pair is None:
        return ONE
    return max(1 - (1 - delta) * gamma, delta + (1 - delta) * (t_pair - gamma) / (t_pair + 1), delta)


def envelope_nodes(t_pair) -> tuple:
    """The finite points where :func:`envelope_failures` compares the profile with U: 0, 1/t', t' (0 alone when
    every kernel qualifies, U ≡ 1); the value at ∞ is compared too."""
    return (ZERO,) if t_pair is None else (ZERO, 1 / t_pair, t_pair)


def envelope_failures(R: Kernel, t_pair, delta) -> list[str]:
    """Why the profile of the dichotomy (R₀, R₁) is not the envelope U (empty if it is): equal at 0, 1/t', t'
    and ∞, and no likelihood ratio outside {0, 1/t', t', ∞} (both functions linear in between)."""
    loss = PairLoss.of(R.rows[0], R.rows[1])
    breaks = () if t_pair is None else (t_pair, 1 / t_pair)
    points = envelope_nodes(t_pair)
    at_infinity = ONE if t_pair is None else delta
    bad = [] if loss.p_only == at_infinity else [f"E_inf(R0 || R1) = {loss.p_only} != U(inf) = {at_infinity}"]
    bad += [f"likelihood ratio {r} of (R0, R1) is not a breakpoint of U" for r, _ in loss.classes if r not in breaks]
    bad += [f"E_{g}(R0 || R1) = {loss.hockey_stick(g)} != U({g}) = {envelope(t_pair, delta, g)}"
            for g in points if loss.hockey_stick(g) != envelope(t_pair, delta, g)]
    return bad


def sup_eta_hockey_stick_tensor(N: int, n: int, *, M: int | None = None, gamma=1, t=None, c=None, delta=0,
                                eps=None) -> NSampleExtremal:
    r"""sup of η_{E_γ}(K^{⊗n}) over N-input kernels of the (ε,δ)-LDP class, or the (ε,c)-PML class (N = 2),
    exactly, with an optimal kernel and a re-checkable certificate (module docstring: theorem and scope).

    Args:
        N: inputs (≥ 2; PML: N = 2).  n: samples (≥ 1).  M: outputs of the returned kernel (default: those of
        the optimum; more are zero columns; fewer only when a merge attains the value).  gamma: γ ≥ 1 (1: η_TV).  t / eps: e^ε ≥ 1
        rational.  c: PML prior floor (no δ with it).  delta: LDP slack.

    >>> r = sup_eta_hockey_stick_tensor(2, 2, t="3/2", delta="1/4")
    >>> r.value, r.gap, r.certified()
    (11/20, 1/5, True)
    """
    N, n = integer_size(N, "N"), check_n(n)
    t = to_qq(t_value(t, eps), "eps" if eps is not None else "t")
    g = to_qq(gamma, "gamma")
    if g < 1:
        raise ParameterError(f"gamma: must be >= 1, got {g}")
    d = check_delta(delta)
    if c is not None:
        c = check_c(c, N)
        if d:
            raise ParameterError(f"delta: the (eps,c)-PML class has no delta; got c = {c} and delta = {d}")
        if N != 2:
            raise ParameterError(f"N: the n-sample supremum over (eps,c)-PML is computed for N = 2 only, got N = {N}")
        t_pair = None if t * c >= 1 else t * (1 - c) / (1 - t * c)
    else:
        t_pair = t
    if t_pair is None:
        R = Kernel.from_exact_rows([[ONE, ZERO], [ZERO, ONE]], False, name="identity")
    else:
        R = approx_randomized_response(t_pair, d)
    if M is None:
        M = R.M
    M = integer_size(M, "M")
    require("max_entries", N * M, f"n-sample extremal kernel: N = {N} x M = {M}")
    value = eta_hockey_stick_tensor_power(R, n, g)
    pair = R if M >= R.M else _merge_attaining(R, M, n, g, value)
    pad = [ZERO] * (M - pair.M)
    rows = [list(pair.rows[0]) + pad] + [list(pair.rows[1]) + pad] * (N - 1)
    K = Kernel.from_exact_rows(rows, False, name=f"optimum (n = {n})")
    params = {"N": N, "M": M, "n": n, "t": t, "c": c, "delta": d, "gamma": g, "t_pair": t_pair}
    phi = phi_n(t, d, n) if c is None else None
    return NSampleExtremal(value, K, R, params, phi)


def _merge_attaining(R: Kernel, M: int, n: int, g: fmpq, value: fmpq) -> Kernel:
    """A merge of the outputs of R into M blocks (post-processing: still in the class) whose n-fold products
    attain ``value``, the supremum over every alphabet, which is then also the supremum over M outputs; else
    ParameterError with the interval the M-output supremum lies in (best merge, value)."""
    best, arg = None, None
    for labels in itertools.product(range(M), repeat=R.M):
        if sorted(set(labels)) != list(range(M)) or [labels.index(j) for j in range(M)] != sorted(
                labels.index(j) for j in range(M)):
            continue  # not a set partition into M blocks in canonical order
        rows = [[sum((r[y] for y in range(R.M) if labels[y] == j), ZERO) for j in range(M)] for r in R.rows]
        K = Kernel.from_exact_rows(rows, False)
        got = eta_hockey_stick_tensor_power(K, n, g)
        if got == value:
            return K
        if best is None or got > best:
            best, arg = got, labels
    raise ParameterError(f"M: with M = {M} outputs the n-sample supremum lies in [{best}, {value}] (best merge of the "
                         f"{R.M}-output optimum: blocks {arg}); it is computed exactly only when a merge attains {value}")
