r"""D-11 ([G] §IV): the function Ξ(ε,c) = min{(e^ε − 1)/(e^ε(1 − Nc) + 1), 1}.

Statement: for e^ε = γ ≥ 1 and 0 ≤ c ≤ 1/N, Ξ ∈ [0, 1]; its first branch reaches 1 exactly at
           γ = 2/(Nc) (the threshold of Theorems 2–3), is below 1 before it and ≥ 1 after it.
Checked:   symbolically, with γ = 1 + s and 1 − Nc = u/(1 + u)... i.e. Nc = 1/(1 + u), s, u ≥ 0: the
           first branch is ≥ 0; first branch − 1 = (γNc − 2)/(γ(1 − Nc) + 1), whose sign is that of
           γ − 2/(Nc) (identity proved by simplification).
Not shown: the limits c → 0, c = 1/N (the symbolic module's grosse2026.xi_limits).
"""

import sympy

from exactdp.sources import GROSSE2026, Source
from exactdp.verification.checking import prove_nonnegative, prove_zero
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.formulas import xi_first
from exactdp.numbers.formula_text import written_step as step
from .._statements import xi_sign_identity

g, c, N, s, u = sympy.symbols("gamma c N s u", positive=True)


def _nonneg(ctx):
    return prove_nonnegative(xi_first(g, c, N), claim="first branch of Xi >= 0",
                             orthant={g: 1 + s, c: 1 / (N * (1 + u))},
derivation=(step("`Xi_1 = (gamma - 1)/(gamma*(1 - N*c) + 1)`"),))


def _threshold(ctx):
    return prove_zero(xi_first(g, c, N) - 1 - (g * N * c - 2) / (g * (1 - N * c) + 1),
                      claim="Xi_1 - 1 = (gamma N c - 2)/(gamma(1 - N c) + 1)",
derivation=(step("the denominator `gamma*(1 - N*c) + 1` is positive for `c <= 1/N`"),
                                   step("so `Xi_1 >= 1` iff `gamma >= 2/(N*c)`, with equality at "
                                        "`gamma = 2/(N*c)`")))


register(Claim(
    written=(xi_sign_identity("background.d11_xi"),),
    id="background.d11_xi",
    domain=("gamma >= 1", "c > 0", "N >= 2", "N*c <= 1"),
    catalogue=("D-11",),
    source=Source(GROSSE2026, "definition of Xi", section="IV"),
    title="Xi(eps,c) lies in [0,1] and its first branch crosses 1 at e^eps = 2/(Nc)",
    statement=r"\Xi(\varepsilon,c)=\min\Big\{\frac{e^\varepsilon-1}{e^\varepsilon(1-Nc)+1},1\Big\}\in[0,1]",
    hypotheses="`eps >= 0`, `0 <= c <= 1/N`",
    checks=(Check("non-negative", _nonneg), Check("threshold identity", _threshold)),
    expected=Verdict.PROVED,
    kind="definition",
    related=("grosse2026.xi_limits",),
    formulas=("Xi(eps, c) = Min((exp(eps) - 1)/(exp(eps)*(1 - N*c) + 1), 1)", "0 <= Xi(eps, c) <= 1"),
))
