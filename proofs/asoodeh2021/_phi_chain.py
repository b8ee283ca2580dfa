r"""[A]'s φ-based corollaries as "proved modulo" chains: the algebra is certified, the rest cited.

Every corollary of [A] §IV–VII replaces a contraction coefficient of an (ε,δ)-LDP kernel by φ(ε,δ).  That step
is proved for all N, M by certificates (:mod:`exactdp.theory.class_certificates`): ``ldp_tv`` (a fixed
combination of the (ε,δ)-LDP constraints gives η_TV(K) ≤ (t−1+2δ)/(t+1)) and ``ldp_statements``
(φ(ε,δ) ≥ (t−1+2δ)/(t+1)), so η_TV(K) ≤ φ(ε,δ).  The remaining steps are classical results that exactdp cites
(named in ``rests_on``; a claim id when the registry checks that result, whose verdict the report shows).
A claim built with :func:`phi_chain_check` is therefore PROVED_MODULO; its instance checks stay as
supporting evidence (they can refute it, they do not demote it).
"""

from __future__ import annotations

import sympy

from exactdp import bounds as B
from exactdp.algebra.certificates import check
from exactdp.algebra.certificates.statements import SymbolicStatements, statement
from exactdp.theory import class_certificates as CC
from exactdp.theory import e_gamma_certificates as EG
from exactdp.numbers.formula_text import DerivationStep, marked
from exactdp.verification.claims import Check, proved
from exactdp.numbers.formula_text import written_step as step

#: the scope of the φ step: every (ε,δ)-LDP kernel of every size
PHI_SCOPE = "all N, M; t >= 1, 0 <= delta <= 1"

#: cited results that the registry does not check (plain names)
SDPI_MI = "SDPI for mutual information (Anantharam et al. 2013)"
SDPI_MI_STEP = SDPI_MI + ": `I(U, Z) <= eta_kl(K)*I(U, X)` for a Markov chain U - X - Z"
TV_PRODUCTS = "TV of product measures (subadditivity, coupling)"
TV_PRODUCTS_STEP = (TV_PRODUCTS + ": `TV(P_n, Q_n) <= Min(1, n*TV(P, Q))` and `1 - TV(P_n, Q_n) >= (1 - TV(P, Q))^n` "
                    "for the n-fold products P_n, Q_n")


def phi_n_identity() -> SymbolicStatements:
    """φ(nε, 1 − (1−δ)ⁿ) = φⁿ(ε,δ) with the registry's φ and φⁿ, for every n ≥ 1 (a symbolic n).  The left side
    is the registry's φ with e^ε → tⁿ and δ → 1 − (1−δ)ⁿ substituted *unevaluated*, so the exported text shows
    the substitution and the checkers do the simplification themselves."""
    t, d, n = sympy.Symbol("t", positive=True), sympy.Symbol("delta"), sympy.Symbol("n", positive=True, integer=True)
    phi = sympy.Subs(sympy.Subs(B.get("phi").expr, B.delta, 1 - (1 - d) ** n), B.t, t**n)  # re-done by the checkers
    phi_n = B.get("phi_n").expr.subs({B.t: t, B.delta: d, B.n: n})
    return SymbolicStatements(
        name="phi at the n-fold composition level is phi^n", parameters=("t", "delta", "n"),
        assumptions=(("n", "positive,integer"), ("t", "positive")),
        region=("t >= 1", "delta >= 0", "delta <= 1", "n >= 1"), scope="all n >= 1; t >= 1, 0 <= delta <= 1",
        statements=(statement("phi(n eps, 1 - (1 - delta)^n) = phi^n(eps, delta)",
                              sympy.Eq(phi, phi_n, evaluate=False)),))


def phi_chain_check(chain: tuple[str, ...], rests_on: tuple[str, ...], extra=(), scope: str = PHI_SCOPE) -> Check:
    """A check that is PROVED_MODULO ``rests_on``: the ``chain`` of steps, with η_TV ≤ φ (and the ``extra``
    certificate builders) certified and re-checked on every run."""

    def run(ctx):
        certs = tuple(dict.fromkeys((CC.ldp_tv(), CC.ldp_statements(), *EG.thm3_certificates(),
                                     *[f() for f in extra])))
        steps = tuple(chain) + tuple(marked(c.name, s) for c in certs for s in check(c).steps)
        return proved("proved modulo " + ", ".join(rests_on) + "; eta_TV <= phi by certificates", certs, scope,
                      derivation=steps, rests_on=rests_on)

    return Check("proof modulo cited results", run,
                 "eta_TV(K) <= phi(eps, delta) for every (eps,delta)-LDP K by certificates (all N, M); the other "
                 "steps cite: " + "; ".join(rests_on))


PHI_STEP = DerivationStep("{0} for every (ε, δ)-LDP kernel K, all N, M (certificates below; the step from rows and "
                          "sets to η_TV is the two-point formula at {1}, [A] Thm 3's certificates)",
                          ("eta_tv(K) <= (t - 1 + 2*delta)/(t + 1) <= phi(eps, delta)", "gamma = 1"), inline=True)
