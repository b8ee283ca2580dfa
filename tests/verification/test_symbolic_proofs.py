"""The proofs/ modules of the symbolic layer: each claim's checks run and give the expected verdict."""

import importlib

import pytest

from exactdp.numbers.formula_text import DerivationStep
from exactdp.verification.claims import REGISTRY, CheckContext, Verdict, combine

MODULES = {
    "exactdp_proofs.background.phi_n_identity": ("background.phi_n_identity",),
    "exactdp_proofs.asoodeh2021.a07_phi_vs_tight": ("asoodeh2021.a07_phi_vs_tight",),
    "exactdp_proofs.grosse2026.xi_limits": ("grosse2026.xi_limits",),
    "exactdp_proofs.grosse2026.g20_construction_identities": ("grosse2026.g20_construction_identities",),
    "exactdp_proofs.background.b06_binette_specialisations": ("background.b06_binette_specialisations",),
    "exactdp_proofs.grosse2026.lem4_exact_gamma_ordering": ("grosse2026.lem4_exact_gamma_ordering",),
    "exactdp_proofs.asoodeh2021.a10_effective_sample_crossing": ("asoodeh2021.a10_effective_sample_crossing",),
    "exactdp_proofs.grosse2026.example_xi_identities": ("grosse2026.example_xi_identities",),
}


@pytest.mark.parametrize("module,claims", sorted(MODULES.items()))
def test_claims_are_proved_with_derivations(module, claims):
    importlib.import_module(module)
    for cid in claims:
        claim = REGISTRY[cid]
        assert claim.expected is Verdict.PROVED
        outcomes = [check.run(CheckContext(seed=0, quick=True)) for check in claim.checks]
        assert combine(outcomes) is Verdict.PROVED, [o.summary for o in outcomes]
        for o in outcomes:  # text lines, and the decided statements with prose and formulas apart
            assert o.derivation and all(isinstance(s, (str, DerivationStep)) for s in o.derivation)
            decided = [s for s in o.derivation if isinstance(s, DerivationStep) and s.outcome]
            assert all(s.outcome == "true" for s in decided) and any(s.math for s in decided)


def test_a_false_identity_is_refuted_not_proved():
    import sympy

    from exactdp.verification.identities import Eq, Statement, symbolic_outcome

    t = sympy.Symbol("t", positive=True)
    out = symbolic_outcome([Statement("wrong ordering", (t - 1) / (t + 1) >= 1 - 1 / t, (t >= 1,))])
    assert out.verdict is Verdict.REFUTED
    v = sympy.Rational(out.counterexample["t"])
    assert v >= 1 and (v - 1) / (v + 1) < 1 - 1 / v
    out = symbolic_outcome([Statement("not an identity", Eq(t, t + 1))])  # a false rational identity: a witness
    assert out.verdict is Verdict.REFUTED and sympy.Rational(out.counterexample["t"]) > 0  # any t > 0 separates them


def test_a_false_identity_with_a_symbolic_exponent_is_refuted_at_an_exact_point():
    """(1 - delta)^n = 1 - n delta is no rational function in n: cancellation cannot decide it, an exact
    evaluation can — the witness is a point where both sides are different rationals (not UNKNOWN)."""
    import sympy

    from exactdp.verification.identities import Eq, Statement, symbolic_outcome

    n = sympy.Symbol("n", integer=True, positive=True)
    delta = sympy.Symbol("delta", nonnegative=True)
    out = symbolic_outcome([Statement("Bernoulli as an identity", Eq((1 - delta) ** n, 1 - n * delta))])
    assert out.verdict is Verdict.REFUTED
    point = {sympy.Symbol(k): sympy.Rational(v) for k, v in out.counterexample.items()}
    d, k = point[sympy.Symbol("delta")], point[sympy.Symbol("n")]
    assert k.is_integer and k >= 1 and d >= 0 and (1 - d) ** k != 1 - k * d
    true = symbolic_outcome([Statement("powers add", Eq(delta ** n * delta, delta ** (n + 1)))])
    assert true.verdict is Verdict.PROVED
