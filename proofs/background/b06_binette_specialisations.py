r"""Binette's reverse Pinsker coefficient and its specialisations (B-6, B-7, G-25, G-26; docs/claims.md §7).

B(f; m, M) = f(m)/(1−m) + f(M)/(M−1).  With m = 1/M:
* KL (f = x log x): B = log M  (so [G] Cor. 1's coefficient is Ξ·log Γ_max);
* H² (f = (√x − 1)², no ½): B = 2 − 4/(√M + 1)  ([G] Cor. 2);
* TV (f = |x − 1|/2): B = 1;
* Zamanlooy–Asoodeh's f-form (f(E) + E f(1/E))/(E+1) = Ξ(ε,0)·B(f; 1/E, E) for every f (f an undefined
  function: the identity is in the field of rational functions over f(E), f(1/E)); its KL instance is
  ε(E−1)/(E+1), its H² instance 2(√E − 1)²/(E+1).
Checked: each identity by exact rewriting (cancellation; logs and square roots simplified by sympy,
which only ever rewrites to equal expressions).
Not shown: Binette's inequality itself (a C-class check elsewhere).
"""

import sympy

from exactdp.sources import BINETTE2019, Source
from exactdp.bounds import M, t
from exactdp.verification.claims import Claim, Verdict, register
from exactdp.verification.identities import Eq, Statement, at, symbolic_check
from .._statements import binette_at

x = sympy.Symbol("x", positive=True)
f = sympy.Function("f")


def binette(fx, m, Mv):
    return fx.subs(x, m) / (1 - m) + fx.subs(x, Mv) / (Mv - 1)


F_KL = x * sympy.log(x)
F_H2 = (sympy.sqrt(x) - 1) ** 2
F_TV_RIGHT = (x - 1) / 2  # |x-1|/2 on x >= 1
F_TV_LEFT = (1 - x) / 2  # on x <= 1
xi0 = (t - 1) / (t + 1)

register(Claim(
    written=binette_at("background.b06_binette_specialisations", also=("t", "x")),
    id="background.b06_binette_specialisations",
    domain=(),
    catalogue=("B-6", "B-7", "G-25", "G-26"),
    source=Source(BINETTE2019, "reverse Pinsker inequality"),
    title="Binette's coefficient with m = 1/M: log M (KL), 2 - 4/(sqrt M + 1) (H^2), 1 (TV); "
          "Zamanlooy-Asoodeh = Xi(eps,0) * Binette(1/E, E)",
    statement=r"\frac{f(m)}{1-m}+\frac{f(M)}{M-1}\Big|_{m=1/M}=\log M,\ 2-\frac{4}{\sqrt{M}+1},\ 1",
    hypotheses="`M > 1`, `f` convex with `f(1) = 0`",
    checks=(symbolic_check("specialisations", [
        Statement("KL: B = log M", Eq(binette(F_KL, 1 / M, M), sympy.log(M))),
        Statement("H2: B = 2 - 4/(sqrt M + 1)", Eq(binette(F_H2, 1 / M, M), 2 - 4 / (sympy.sqrt(M) + 1))),
        Statement("TV: B = 1", Eq(at(F_TV_LEFT, (x, 1 / M)) / (1 - 1 / M) + at(F_TV_RIGHT, (x, M)) / (M - 1), 1)),
        Statement("ZA f-form = Xi0 * B(f; 1/E, E)",
                  Eq((f(t) + t * f(1 / t)) / (t + 1),
                           xi0 * (f(1 / t) / (1 - 1 / t) + f(t) / (t - 1)))),
        Statement("ZA KL instance", Eq(xi0 * binette(F_KL, 1 / t, t), sympy.log(t) * (t - 1) / (t + 1))),
        Statement("ZA H2 instance", Eq(xi0 * binette(F_H2, 1 / t, t), 2 * (sympy.sqrt(t) - 1) ** 2 / (t + 1))),
    ]),),
    expected=Verdict.PROVED, kind="background",
    formulas=("binette_KL(1/M, M) = log(M)",
              "binette_H2(1/M, M) = 2 - 4/(√M + 1)",
              "binette_TV(1/M, M) = 1"),
))
