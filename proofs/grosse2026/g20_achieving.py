"""The claim ``grosse2026.g20_achieving``; its checks and instance families are in
``grosse2026/_achieving_mechanisms.py``."""

from exactdp.sources import GROSSE2026, Source
from exactdp.verification.claims import Check, Claim, Verdict, register

from ._achieving_mechanisms import CLAIM, check_feasibility, check_instances, check_proof
from .._statements import achiever_feasibility

register(Claim(
    written=achiever_feasibility(CLAIM),
    id=CLAIM,
    domain=("t >= 1", "c > 0", "u >= 2*c", "u <= 1", "N >= 2", "N*c <= 1"),
    catalogue=("G-20", "G-21"),
    source=Source(GROSSE2026, "proof of Theorem 3 (achieving mechanisms) and Example 1", section="III"),
    title="The m, M, q mechanisms and Example 1 attain Xi(eps,c)",
    statement=r"m=\frac{1-e^\varepsilon cq}{1+e^\varepsilon(1-Nc)},\ M=\frac{e^\varepsilon(1-cq)}"
              r"{1+e^\varepsilon(1-Nc)},\ M-m=\Xi(\varepsilon,c)",
    hypotheses="`t*c*q <= 1` and `t*c*(N - q) <= 1`",
    checks=(Check("proof", check_proof, "feasible and attaining Xi for every N and real q (certificates)"),
            Check("feasibility", check_feasibility, "feasibility for real q; middle row (sympy)"),
            Check("instances", check_instances, "constructions attain the LP supremum", supporting=True)),
    expected=Verdict.PROVED,
    reconstructed=True,
    formulas=("m = (1 - exp(eps)*c*q)/(1 + exp(eps)*(1 - N*c))",
              "M = exp(eps)*(1 - c*q)/(1 + exp(eps)*(1 - N*c))",
              "M - m = Xi(eps, c)"),
))
