r"""[G] abstract-level claims (G-29).

Statement: (a) achievable contraction bounds under PML; (b) extension to f-divergences (Binette);
           (c) "tighter bounds for mechanisms satisfying LDP"; (d) "beyond LDP, to any discrete kernel".
Checked:   (c) in the restricted sense docs/claims.md derives, for K₁ of Example 2: Cor 1's coefficient
           (7/8)·log((16−8u)/(1+7u)) is below the c-independent Zamanlooy–Asoodeh value (7/8)·log 15 iff
           u = Nc > 1/113 — proved by the exact identity (16−8u)/(1+7u) − 15 = (1 − 113u)/(1+7u) and checked
           exactly at the crossing; (d) every kernel is (−log c, c)-PML (instances).  (a), (b) are the
           theorems themselves (grosse2026.thm1, thm4).
Not shown: the qualitative wording.
"""

import sympy
from flint import fmpq

from exactdp.measures.privacy import pml_ratio
from exactdp.numbers.formula_text import written_step as step
from exactdp.mechanisms import grosse_example2_K1
from exactdp.sources import GROSSE2026, Source
from exactdp.verification.checking import check_instances, exact_data, prove_zero
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.formulas import lemma4_gamma_max, xi

from .def2_remarks import everything_is_pml_check


def _crossover_identity(ctx):
    u = sympy.Symbol("u", positive=True)
    return prove_zero((16 - 8 * u) / (1 + 7 * u) - 15 - (1 - 113 * u) / (1 + 7 * u),
                      claim="(16-8u)/(1+7u) - 15 = (1-113u)/(1+7u)",
                      derivation=(step("Cor 1 for K1: `Xi = 7/8` and `Gamma = (1-u)*15/(1+7*u) + 1`, which is "
                                       "`(16-8*u)/(1+7*u)`"),
                                  step("log is increasing: Cor 1 is below `(7/8)*log(15)` iff `(16-8*u)/(1+7*u) < 15`, "
                                       "iff `u > 1/113`")))


def _crossover_instances(ctx):
    def test(u):
        N = 4
        c = u / N
        K = grosse_example2_K1(N)
        r = pml_ratio(K, c)
        G = lemma4_gamma_max(r, c, N)
        side = (G < 15, G == 15, G > 15)
        expect = (u > fmpq(1, 113), u == fmpq(1, 113), u < fmpq(1, 113))
        return side == expect and xi(r, c, N) == fmpq(7, 8), exact_data(u=u, Gamma=G)

    return check_instances([("u around 1/113", [fmpq(1, 200), fmpq(1, 113), fmpq(1, 100), fmpq(1, 2)])], test,
                           claim="crossover exactly at u = 1/113")


register(Claim(
    id="grosse2026.abstract",
    catalogue=("G-29",),
    source=Source(GROSSE2026, "abstract"),
    title="Abstract claims: tighter than LDP bounds only for Nc > 1/113 (K1); every kernel is (-log c, c)-PML",
    statement=r"\tfrac78\log\frac{16-8u}{1+7u}<\tfrac78\log15\iff u=Nc>\tfrac1{113}",
    hypotheses="`K_1` of Example 2",
    checks=(Check("crossover identity", _crossover_identity), Check("crossover instances", _crossover_instances),
            Check("(d) every kernel is (-log c, c)-PML", everything_is_pml_check)),
    expected=Verdict.VERIFIED,
    notes="'Tighter bounds for LDP mechanisms' holds only in this restricted sense; as c -> 0 the KL/H2 "
          "corollaries are weaker than Zamanlooy-Asoodeh (F-G2).",
    related=("findings.fg02_lemma4_loose", "grosse2026.thm1"),
    formulas=("7/8*log((16 - 8*u)/(1 + 7*u)) < 7/8*log(15) ⟺ u > 1/113", "u = N*c"),
))
