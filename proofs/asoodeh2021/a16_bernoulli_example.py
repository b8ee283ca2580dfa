"""The claim ``asoodeh2021.a16_bernoulli_example``; its checks and instance families are in
``asoodeh2021/_bayes.py``."""

from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.claims import Check, Claim, Verdict, register

from ._bayes import _quoted_numbers

register(Claim(
    id="asoodeh2021.a16_bernoulli_example", catalogue=("A-16", "F-A10"),
    source=Source(ASOODEH2021, "Bernoulli example", "§V", "7-8"),
    title="Uniform-prior Bernoulli example: Bayes-risk lower bounds 0.08 (Thm 2) versus 0.03 (15)",
    statement=r"n=20,\ \delta=10^{-4}:\ \text{Thm 2}\approx0.08,\ (15)\approx0.03",
    hypotheses=("`theta` uniform on the unit interval, `X_i` Bernoulli(`theta`), absolute loss, `eps = 1/50` "
                "(reconstructed, F-A10)"),
    checks=(Check("quoted_numbers", _quoted_numbers, "certified to the printed digits"),),
    expected=Verdict.VERIFIED, reconstructed=True, kind="example",
    formulas=("n = 20", "delta = 10^(-4)", "thm2_bound(eps) = 0.08", "bound15(eps) = 0.03"),
))
