"""The claim ``findings.fg02_lemma4_loose``; its checks and instance families are in
``grosse2026/_lem4_gamma_bounds.py``."""

from exactdp.sources import CATALOGUE, Source
from exactdp.verification.claims import Check, Claim, Verdict, register

from ..grosse2026._lem4_gamma_bounds import check_c_to_0, check_exact_gamma_corollaries, check_tightness

register(Claim(
    id="findings.fg02_lemma4_loose",
    catalogue=("F-G2", "G-25", "G-26"),
    source=Source(CATALOGUE, "F-G2", section="6"),
    title="Lemma 4 is loose below e^eps = 1/((N-1)c); Cor. 1-2 then miss the LDP-tight limit",
    statement=r"\Gamma_{\max}<(1-Nc)e^\varepsilon+1\iff e^\varepsilon<\frac{1}{(N-1)c}\ (c<1/N);\ "
              r"\lim_{c\to0}\Xi\log\Gamma_{\max}=\frac{e^\varepsilon-1}{e^\varepsilon+1}\varepsilon",
    hypotheses="`0 < c < 1/N`, `1 <= e^eps <= 1/c`",
    checks=(Check("tightness", check_tightness, "gap = 0 iff above threshold (or c = 1/N)"),
            Check("c_to_0", check_c_to_0, "corollaries at c -> 0 with exact vs Lemma 4 Gamma"),
            Check("exact_gamma_corollaries", check_exact_gamma_corollaries,
                  "Cor. 1-2 with the exact Gamma_max hold on random instances (certified)")),
    expected=Verdict.VERIFIED,
    kind="finding",
    notes="At c = 1/N both sides equal 1 for every t (degenerate; the catalogue's 'iff' needs c < 1/N).",
    formulas=("Gamma_max(eps, c) < (1 - N*c)*exp(eps) + 1 ⟺ exp(eps) < 1/((N - 1)*c)",
              "c < 1/N",
              "lim_c0_Xi_log_Gamma_max(eps) = (exp(eps) - 1)/(exp(eps) + 1)*eps"),
))
