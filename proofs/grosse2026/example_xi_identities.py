r"""[G] Examples: Theorem 1's bound at the examples' own PML levels (G-2, G-27; docs/claims.md §7).

* Example 2's K₁ (N/2 rows (15/16, 1/16), N/2 rows (1/16, 15/16)): its (ε,c)-PML level is
  e^{ε_c} = 15/(1+7Nc) (derived by the library with a symbolic c, N = 2, 4, 6), and
  Ξ(ε_c, c) = 7/8 = η_TV(K₁) for every c and every N (the identity is proved with N symbolic):
  K₁ is Dobrushin-optimal at its own level.
* Introduction's K₁ (4×4, one zero per column, entries 1/3): e^{ε_c} = 1/(3c) (library, symbolic c),
  Theorem 1 at that level gives (1−3c)/(1−c), which is ≥ 1/3 = η_TV(K₁) for 0 < c ≤ 1/4 with equality
  exactly at c = 1/4 (decided exactly).  The identity kernel I₄ has e^{ε_c} = 1/c.
Checked: library closed forms with symbolic c, identities by cancellation, one-parameter decisions.
Not shown: Fig. 1 (its curves are not stored, F-G9).
"""

import sympy

from exactdp import eta_tv, pml_ratio
from exactdp.mechanisms import grosse_example2_K1, grosse_intro_K1, grosse_intro_K2
from exactdp.numbers.sr import as_sympy
from exactdp.sources import GROSSE2026, Source
from exactdp.bounds import N, c, t, xi_raw
from exactdp.verification.claims import Check, Claim, Outcome, Verdict, proved, register
from exactdp.verification.identities import Eq, Statement, at, symbolic_outcome
from .._library_steps import library_step, plain_label
from .._statements import xi_examples

R = sympy.Rational


def xi1(n):
    """Ξ's first branch (t−1)/(t(1−Nc)+1) from the registry (:data:`exactdp.bounds.xi_raw`) at N = n."""
    return at(xi_raw, (N, n))


def _computed_and_statements():
    """(the library's computations on the kernels, as (label, value, formula); the statements certified from
    them).  A computed value equal to its formula is a fact about the library's output, not a certificate: it
    is compared here (exact cancellation) and the certificate holds only what is then proved from it."""
    computed, out = [], []
    for n in (2, 4, 6):
        K = grosse_example2_K1(n)
        level = as_sympy(pml_ratio(K, c))
        computed.append((f"Ex.2 K1 with N = {n}, the PML level `pml_ratio(K, c)`", level, 15 / (1 + 7 * n * c)))
        computed.append((f"Ex.2 K1 with N = {n}, `eta_tv(K)`", as_sympy(eta_tv(K)), R(7, 8)))
    # the identity itself holds for every N: (14 - 7Nc)/(16 - 8Nc) = 7/8 (Nc <= 1 keeps the denominator away from 0)
    out.append(Statement("Ex.2 K1, every N: Xi(15/(1+7Nc), c) = 7/8", Eq(at(xi_raw, (t, 15 / (1 + 7 * N * c))),
                                                                         R(7, 8)), (N >= 2, N * c <= 1)))
    K1 = grosse_intro_K1()
    computed += [("intro K1, the PML level `pml_ratio(K, c)`", as_sympy(pml_ratio(K1, c)), 1 / (3 * c)),
                 ("intro K1, `eta_tv(K)`", as_sympy(eta_tv(K1)), R(1, 3)),
                 ("I_4, the PML level `pml_ratio(K, c)`", as_sympy(pml_ratio(grosse_intro_K2(), c)), 1 / c)]
    bound = at(xi1(4), (t, 1 / (3 * c)))
    out += [
        Statement("intro K1: Thm 1 bound = (1-3c)/(1-c)", Eq(bound, (1 - 3 * c) / (1 - c))),
        Statement("intro K1: bound >= eta_TV(K1) = 1/3 on 0 < c <= 1/4", bound >= R(1, 3), (c <= R(1, 4),)),
        Statement("intro K1: bound > 1/3 for c < 1/4", bound > R(1, 3), (c < R(1, 4),)),
    ]
    return computed, out


def _check(ctx):
    computed, statements = _computed_and_statements()
    wrong = [f"{plain_label(label)}: the library gives {value}, not {formula}" for label, value, formula in computed
             if sympy.cancel(sympy.together(value - formula)) != 0]
    if wrong:
        return Outcome(Verdict.REFUTED, wrong[0], counterexample={"statement": wrong[0]})
    out = symbolic_outcome(statements, scope=SCOPE)
    if out.verdict is not Verdict.PROVED:
        return out
    return proved(out.summary, out.certificates, out.scope, derivation=tuple(
        library_step(label, value, formula) for label, value, formula in computed) + out.derivation)


#: what is covered: the examples' kernels at their sizes, every c of their PML range
SCOPE = ("Example 2's identity for all N, 0 < c <= 1/N (level L = 15/(1 + 7*N*c), derived by the library at "
         "N = 2, 4, 6); the introduction's 4x4 kernels")


register(Claim(
    written=(xi_examples("grosse2026.example_xi_identities"),),
    id="grosse2026.example_xi_identities",
    domain=("t >= 1", "c > 0", "u >= 2*c", "u <= 1", "N >= 2", "N*c <= 1"),
    catalogue=("G-2", "G-27"),
    source=Source(GROSSE2026, "Example 2 and the introduction's kernels", "I, IV"),
    title="The examples' kernels at their own PML level: Xi = 7/8 (Example 2), (1-3c)/(1-c) (intro K1)",
    statement=r"\Xi\big(\log\tfrac{15}{1+7Nc},c\big)=\tfrac78,\qquad \Xi\big(-\log 3c,c\big)=\frac{1-3c}{1-c}",
    hypotheses="`0 < c <= 1/N`",
    checks=(Check("library closed forms and identities", _check),),
    expected=Verdict.PROVED, kind="example",
    formulas=("Xi(log(15/(1 + 7*N*c)), c) = 7/8", "Xi(-log(3*c), c) = (1 - 3*c)/(1 - c)"),
))
