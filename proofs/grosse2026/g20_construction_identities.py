r"""[G] §III, the achieving mechanisms of Theorem 3 (G-20, G-21; docs/claims.md §7).

m = (1 − tcq)/(1 + t(1−Nc)), M = t(1 − cq)/(1 + t(1−Nc)), q rows at M and N − q rows at m (t = e^ε):
* M − m = Ξ₁(t,c) = (t−1)/(t(1−Nc)+1);
* both (ε,c)-PML ratios equal t exactly: M/(cS + (1−Nc)m) = t and (1−m)/(c(N−S) + (1−Nc)(1−M)) = t,
  S = qM + (N−q)m;
* through the library (parametric kernels, symbols t and c): for N = 2..5 with q = ⌊N/2⌋,
  ``pml_ratio(grosse_pml_mechanism(N, t, c), c)`` simplifies to t and ``eta_tv`` to Ξ₁.
Checked: identities with symbolic N, q, t, c; the library's closed forms compared by exact cancellation.
Not shown: feasibility (m ≥ 0, M ≤ 1) — the constructor's declared region t·c·max(q, N−q) ≤ 1.
"""

import sympy

from exactdp.mechanisms import grosse_binary_mechanism, grosse_pml_mechanism
from exactdp.sources import GROSSE2026, Source
from exactdp.bounds import N, c, t, xi_raw
from exactdp.verification.claims import Check, Claim, Outcome, Verdict, proved, register
from exactdp.verification.identities import Eq, Statement, at, symbolic_outcome
from .._library_steps import library_step, plain_label
from .._statements import achiever_identities

q = sympy.Symbol("q", positive=True, integer=True)
z = 1 + t * (1 - N * c)
m_ = (1 - t * c * q) / z
M_ = t * (1 - c * q) / z
S = q * M_ + (N - q) * m_
xi1 = xi_raw  # Ξ's first branch (t−1)/(t(1−Nc)+1), from the registry


def _library_check(top: int):
    """The library's closed forms of the construction for N = 2..top: its PML level is t (a computation on the
    kernel, compared here by exact cancellation: it is not a certificate) and its η_TV is the registry's Ξ₁ at
    that N (certified, the substitution N = k recorded for the checkers to carry out)."""
    from exactdp import eta_tv, pml_ratio
    from exactdp.numbers.sr import as_sympy

    computed, out = [], []
    for k in range(2, top + 1):
        K = grosse_pml_mechanism(k, t, c)
        computed.append((f"N = {k}, the PML level `pml_ratio(K, c)`", as_sympy(pml_ratio(K, c)), t))
        out.append(Statement(f"N={k}: eta_tv(K) = Xi1", Eq(as_sympy(eta_tv(K)), at(xi1, (N, k)))))
    K = grosse_binary_mechanism(t, c)
    out.append(Statement("Example 1: eta_tv = (t-1)/(t(1-2c)+1)", Eq(as_sympy(eta_tv(K)), at(xi1, (N, 2)))))
    wrong = [f"{plain_label(label)}: the library gives {value}, not {formula}" for label, value, formula in computed
             if sympy.cancel(sympy.together(value - formula)) != 0]
    if wrong:
        return Outcome(Verdict.REFUTED, wrong[0], counterexample={"statement": wrong[0]})
    res = symbolic_outcome(out)
    if res.verdict is not Verdict.PROVED:
        return res
    return proved(res.summary, res.certificates, res.scope, derivation=tuple(
        library_step(label, value, formula) for label, value, formula in computed) + res.derivation)


register(Claim(
    written=(achiever_identities("grosse2026.g20_construction_identities"),),
    id="grosse2026.g20_construction_identities",
    domain=("t >= 1", "c > 0", "u >= 2*c", "u <= 1", "N >= 2", "N*c <= 1"),
    catalogue=("G-20", "G-21"),
    source=Source(GROSSE2026, "achieving mechanisms (end of the proof of Theorem 3)", "III"),
    title="The construction attains Xi: M - m = Xi and both PML ratios equal e^eps",
    statement=r"M-m=\frac{e^{\varepsilon}-1}{e^{\varepsilon}(1-Nc)+1},\quad "
              r"\frac{M}{cS+(1-Nc)m}=\frac{1-m}{c(N-S)+(1-Nc)(1-M)}=e^{\varepsilon}",
    hypotheses="`N >= 2`, `1 <= q <= N - 1`, `0 < c <= 1/N`, `1 <= e^eps`, `e^eps*c*max(q, N - q) <= 1`",
    checks=(
        Check("identities", lambda ctx: symbolic_outcome([
            Statement("M - m = Xi1", Eq(M_ - m_, xi1)),
            Statement("output-0 PML ratio = t", Eq(M_ / (c * S + (1 - N * c) * m_), t)),
            Statement("output-1 PML ratio = t", Eq((1 - m_) / (c * (N - S) + (1 - N * c) * (1 - M_)), t)),
        ])),
        Check("library closed forms, N = 2..5 (2..3 in quick mode)",
              lambda ctx: _library_check(3 if ctx.quick else 5)),
    ),
    expected=Verdict.PROVED, kind="theorem",
    formulas=("M - m = (exp(eps) - 1)/(exp(eps)*(1 - N*c) + 1)",
              "M/(c*S + (1 - N*c)*m) = exp(eps)",
              "(1 - m)/(c*(N - S) + (1 - N*c)*(1 - M)) = exp(eps)"),
))
