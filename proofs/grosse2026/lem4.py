r"""[G] Lemma 4 (G-23 bound part): Γ_max(ε,c) ≤ (1−Nc)e^ε + 1 and Γ_min(ε,c) ≥ its inverse.

Statement: for c ∈ (0, 1/N], K ∈ M(ε,c) and P, Q ∈ Q_X(c), every output y has
           (K∘P)(y) ≤ ((1−Nc)e^ε + 1)(K∘Q)(y); Γ as in D-12 [RECON].
Proved:    for all N ≥ 2, M ≥ 2, every real t = e^ε ≥ 1 (``proof``; the paper's ε ≤ −log c is not needed):
           the Farkas certificate :func:`exactdp.theory.class_certificates.lemma4_ratio` — with
           p = (KP)(y), q = (KQ)(y), S = S_y, m / k the column's max / min: p ≤ cS + (1−Nc)m (P ∈ Q_X(c)),
           q ≥ cS + (1−Nc)k (Q ∈ Q_X(c)), m ≤ t(cS + (1−Nc)k) (PML, D-9) and k ≥ 0, with multipliers 1,
           (1−Nc)t + 1, 1−Nc, 1−Nc, give ((1−Nc)t + 1)q − p ≥ 0 identically.  Γ_min ≥ 1/((1−Nc)t + 1) by
           exchanging P and Q.
Supporting: the exact LP Γ_max ≤ Lemma 4 at grid points (``validity``), the two-branch exact value
           (``closed_form``, the exact Γ_max of docs/claims.md G-23) and the symbolic gap (``gap_formula``);
           checks in ``grosse2026/_lem4_gamma_bounds.py``.
"""

from exactdp.sources import GROSSE2026, Source
from exactdp.theory import class_certificates
from exactdp.verification.claims import Check, Claim, Verdict, proved, register
from exactdp.numbers.formula_text import written_step as step

from ._lem4_gamma_bounds import check_closed_form, check_gap_formula, check_validity
from .._statements import gamma_max_bound


def proof_check(ctx):
    """(KP)(y) <= ((1-Nc)t + 1)(KQ)(y) for every K in M(eps,c), P, Q in Q_X(c): one Farkas certificate."""
    cert = class_certificates.lemma4_ratio()
    return proved("for every K in M(eps,c), P, Q in Q_X(c) and output y: (KP)(y) <= ((1-Nc)t + 1)(KQ)(y); hence "
                  "Gamma_max <= (1-Nc)e^eps + 1 and Gamma_min >= 1/((1-Nc)e^eps + 1)", (cert,), class_certificates.ALL_N_M,
                  derivation=(
                      step("[[G] Lemma 4 ratio bound] `(c*S + (1-N*c)*m - p) + ((1-N*c)*t + 1)*(q - c*S - (1-N*c)*k) + "
                           "(1-N*c)*(t*(c*S + (1-N*c)*k) - m) + (1-N*c)*k = ((1-N*c)*t + 1)*q - p`, every bracket "
                           "and every multiplier non-negative where `t >= 1` and `N*c <= 1`"),
                      step("P is c on every input plus a non-negative part of mass `1 - N*c`, so `KP(y)` lies "
                           "between `c*S_y + (1-N*c)*K_min(y)` and `c*S_y + (1-N*c)*K_max(y)` (the smallest and "
                           "largest entry of column y)"),
                      step("`Gamma_min`: exchange P and Q")))


register(Claim(
    written=(gamma_max_bound("grosse2026.lem4"),),
    id="grosse2026.lem4",
    domain=("t >= 1", "c > 0", "u >= 2*c", "u <= 1", "N >= 2", "N*c <= 1"),
    catalogue=("G-23",),
    source=Source(GROSSE2026, "Lemma 4", section="IV"),
    title="Gamma_max <= (1-Nc)e^eps + 1 and Gamma_min >= its inverse (all N, M)",
    statement=r"\Gamma_{\max}(\varepsilon,c)\le(1-Nc)e^\varepsilon+1,\quad"
              r"\Gamma_{\min}(\varepsilon,c)\ge\big((1-Nc)e^\varepsilon+1\big)^{-1}",
    hypotheses="`0 < c <= 1/N`, `eps >= 0` (the paper adds `eps <= -log(c)`); `Gamma` as in D-12 [RECON]",
    checks=(Check("proof", proof_check, "Farkas certificate, all N, M"),
            Check("validity", check_validity, "exact LP Gamma vs Lemma 4", supporting=True),
            Check("closed_form", check_closed_form, "LP = two-branch closed form", supporting=True),
            Check("gap_formula", check_gap_formula, "symbolic gap")),
    expected=Verdict.PROVED,
    reconstructed=True,
    formulas=("Gamma_max(eps, c) <= (1 - N*c)*exp(eps) + 1",
              "Gamma_min(eps, c) >= 1/((1 - N*c)*exp(eps) + 1)"),
))
