r"""Cross-paper relations X-1 … X-5 (docs/claims.md §5).

* X-1: φ(ε,0)/Ξ(ε,0) = 1 + e^{−ε} ∈ (1, 2] — [A]'s linear constant is up to 2× loose for pure LDP.  PROVED.
* X-2: the relaxations differ (δ additive vs restricted priors) — qualitative: NOT_CHECKABLE.
* X-3: the symbol δ means different things in [A] and [G] — notation: NOT_CHECKABLE.
* X-4: [G]'s reference [6] gives [A] a wrong title — bibliographic: NOT_CHECKABLE.
* X-5: [G]'s route (Ξ·Binette with the exact Γ = e^ε at c = 0) reproduces Zamanlooy–Asoodeh for KL and H²
  (PROVED symbolically); [A]'s φ route does not (φ(ε,0)·log e^ε exceeds it, certified on a grid).
"""

import sympy

from exactdp.numbers.formula_text import DerivationStep
from exactdp.sources import CATALOGUE, Source
from exactdp.numbers.rb import decide_lt
from exactdp.verification.checking import (
    check_instances,
    exact_data,
    not_checkable,
    prove_nonnegative,
    prove_zero,
)
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.formulas import H2_F, KL_F, binette_coefficient, phi, xi_first

E, s = sympy.symbols("E s", positive=True)
SRC = Source(CATALOGUE, "§5 cross-paper relations")


def ratio_identity_check(rhs=1 + 1 / E):
    """φ(ε,0)/Ξ(ε,0) == rhs (1 + 1/E is the claim)."""
    return lambda ctx: prove_zero(phi(E, 0) / xi_first(E, 0, 1) - rhs, claim="phi(eps,0)/Xi(eps,0) = 1 + e^-eps",
                                  symbols=(E,), domain=lambda p: p[E] > 1)


def _ratio_range(ctx):
    return prove_nonnegative(1 - 1 / E, claim="1 + e^-eps <= 2", orthant={E: 1 + s},
                             derivation=(DerivationStep("the gap to 2", ("2 - (1 + 1/E) = 1 - 1/E",),
                                                        parameters=("E",)),
                                         DerivationStep("where {0} and {1}", ("E = exp(eps)", "E >= 1"),
                                                        parameters=("E",), inline=True)))


def _qualitative(cid, item, title, reason):
    """Register a cross-paper relation that is qualitative (NOT_CHECKABLE, with the reason)."""
    register(Claim(id=cid, catalogue=(item,), source=SRC, title=title, statement=r"\text{(qualitative)}",
                   hypotheses="—", checks=(Check("qualitative", lambda ctx, r=reason: not_checkable(r)),),
                   expected=Verdict.NOT_CHECKABLE, kind="finding"))


def _za_kl(ctx):
    za = (E - 1) / (E + 1) * sympy.log(E)
    return prove_zero(xi_first(E, 0, 1) * binette_coefficient(KL_F, 1 / E, E) - za,
                      claim="Xi(eps,0) * Binette_KL(e^-eps, e^eps) = eps (e^eps-1)/(e^eps+1)", symbols=(E,),
                      domain=lambda p: p[E] > 1)


def _za_h2(ctx):
    za = 2 * (sympy.sqrt(E) - 1) ** 2 / (E + 1)
    return prove_zero(xi_first(E, 0, 1) * binette_coefficient(H2_F, 1 / E, E) - za,
                      claim="Xi(eps,0) * Binette_H2(e^-eps, e^eps) = 2(sqrt(e^eps)-1)^2/(e^eps+1)", symbols=(E,),
                      domain=lambda p: p[E] > 1)


def _phi_route(ctx):
    def test(g):
        za = (g - 1) / (g + 1) * sympy.log(g)
        a = (1 - 1 / g) * sympy.log(g)
        return decide_lt(za, a), exact_data(e_eps=g, za=za, phi_route=a)

    grid = [sympy.Rational(p, q) for p, q in ((11, 10), (3, 2), (2, 1), (3, 1), (10, 1))]
    return check_instances([("e^eps grid", grid)], test, claim="phi route exceeds Zamanlooy-Asoodeh (KL)")
