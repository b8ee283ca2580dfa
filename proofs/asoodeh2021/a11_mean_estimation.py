r"""Asoodeh et al. 2021 §IV-A — one-dimensional mean estimation (docs/claims.md A-11, finding F-A4).

Statement as reported **[RECON]**: for the family {P on ℝ : E|X|^k ≤ 1}, k > 1, squared loss, every ε ≥ 0 and
δ ∈ [0,1], 𝓜_n ≥ c_ℓ·min{1, (nφ²(ε,δ))^{−(k−1)/k}} ("1/(φ√n)" at k = 2, "(φ²n)^{−1}" at k = ∞ in the summary;
the paper's display is not stored, F-A12).

Checked (exact, rationals): at δ = 1 (φ = 1) every mechanism, the identity included, is (ε,1)-LDP, and the
sample mean has worst-case risk 1/n; the reported k = 2 rate c_ℓ·n^{−1/2} exceeds 1/n as soon as n > c_ℓ^{−2},
for every constant c_ℓ > 0 — the counterexample is printed for c_ℓ = 1/10 (n = 101).
Not shown: what the PDF actually prints (the summary may be garbled: "1/√(φn)", "(φn)^{−2}"); the TV-route
rate min{1,(nφ)^{−2(k−1)/k}} is consistent with both witnesses (see findings.fa04_mean_rates).
"""

from __future__ import annotations

from flint import fmpq

from exactdp.sources import ASOODEH2021, Source
from exactdp.theory.estimation import sample_mean_risk
from exactdp.verification.claims import Check, Claim, Outcome, Verdict, register


def _phi_one_witness(ctx):
    c_l = fmpq(1, 10)
    n = int((1 / c_l**2).floor()) + 1  # smallest n with c_l^2 n > 1, i.e. c_l n^{-1/2} > 1/n
    risk = sample_mean_risk(n)
    claimed_sq = c_l**2 / n  # (c_l n^{-1/2})^2, compared in squares (exact)
    if claimed_sq > risk**2:
        return Outcome(Verdict.REFUTED, f"phi = 1, k = 2: the reported lower bound c_l n^(-1/2) exceeds the sample "
                       f"mean's risk 1/n at n = {n} (c_l = {c_l})",
                       counterexample={"delta": "1", "eps": "any", "k": "2", "c_l": str(c_l), "n": str(n),
                                       "claimed_bound_squared": str(claimed_sq), "achieved_risk": str(risk),
                                       "mechanism": "identity (every kernel is (eps,1)-LDP)",
                                       "estimator": "sample mean"})
    return Outcome(Verdict.UNDECIDED, "witness failed", reason="unexpected: the witness did not exceed")


register(Claim(
    id="asoodeh2021.a11_mean_estimation", catalogue=("A-11", "F-A4"),
    source=Source(ASOODEH2021, "mean estimation (label unknown)", "§IV-A", "5"),
    title="One-dimensional private mean estimation rate, as reported",
    statement=r"\mathcal M_n\ge c_\ell\min\{1,(n\varphi^2(\varepsilon,\delta))^{-(k-1)/k}\}\quad"
              r"\forall\varepsilon\ge0,\ \delta\in[0,1]",
    hypotheses=("`P` with `k`-th absolute moment at most 1, `k > 1`, squared loss, (`eps`, `delta`)-LDP, "
                "sequential interaction allowed"),
    checks=(Check("phi_one_sample_mean", _phi_one_witness, "exact witness at delta = 1, k = 2"),),
    expected=Verdict.REFUTED, reconstructed=True, kind="corollary",
    notes="Refutes the statement as reconstructed from the summary; confirm against the PDF (F-A4).",
    related=("findings.fa04_mean_rates",),
    formulas=("M_n >= c_l*Min(1, (n*phi(eps, delta)^2)^(-(k - 1)/k))", "eps >= 0", "0 <= delta <= 1"),
))
