r"""[A] §IV-A, A-10 — the "effective sample size φ(ε,δ)·n", against the exact quantity it stands for.

Statement [RECON, reading (i) of docs/claims.md A-10]: for a non-interactive (ε,δ)-LDP K and two inputs
           P₁, P₂, TV((K∘P₁)^{⊗n}, (K∘P₂)^{⊗n}) ≤ min{1, n φ(ε,δ) TV(P₁,P₂)}, and (non-interactive form)
           1 − TV((K∘P₁)^{⊗n}, (K∘P₂)^{⊗n}) ≥ (1 − φ TV(P₁,P₂))ⁿ — n private samples distinguish P₁, P₂ no
           better than "φ·n" clean ones.
Checked:   both inequalities exactly (products by type classes, :func:`exactdp.hockey_stick_product`) for
           Bernoulli pairs P_{1,2} = Bern(1/2 ± h) through binary randomized response and the optimal
           binary (ε,δ) kernel, n ≤ 200 (1000 in full mode).  Reported (details): the *exact* effective
           sample size m*(n) = max{m : TV(P₁^{⊗m}, P₂^{⊗m}) ≤ TV((K∘P₁)^{⊗n}, (K∘P₂)^{⊗n})} — how many clean
           samples are exactly as informative, in TV — beside φ·n.  m*/n is near ((γ−1)/(γ+1))² for small h
           (a χ²-type rate), well below φ: the φ·n reading is valid but loose.
Not shown: the minimax rate statements built on it (A-11, F-A4; see the estimation claims); sequential
           interaction.
"""

from __future__ import annotations

from flint import fmpq

from exactdp import bounds as B
from exactdp.measures.contraction import eta_hockey_stick
from exactdp.measures.tensor import hockey_stick_product
from exactdp.mechanisms import optimal_binary_approx_ldp, randomized_response
from exactdp.sources import ASOODEH2021, Source
from exactdp.verification.claims import Check, Claim, Outcome, Verdict, register
from exactdp.numbers.formula_text import written_step as step

from ._phi_chain import PHI_STEP, TV_PRODUCTS, TV_PRODUCTS_STEP, phi_chain_check
from .._statements import phi_contraction


def _tv_n(p, q, n):
    return hockey_stick_product([(p, q, n)], 1)


def _check(ctx):
    cases = [("RR_2(3)", randomized_response(2, 3), fmpq(3)),
             ("RR_2(3/2)", randomized_response(2, fmpq(3, 2)), fmpq(3, 2)),
             ("OptBin(2, 1/20)", optimal_binary_approx_ldp(2, fmpq(1, 20)), fmpq(2))]
    ns = (10, 50, 200) + (() if ctx.quick else (1000,))
    rows, count = {}, 0
    for name, K, g in cases:
        d = eta_hockey_stick(K, g)
        phi = B.get("phi").at(t=g, delta=d)
        for h in (fmpq(1, 10), fmpq(1, 40)):
            P1, P2 = (fmpq(1, 2) + h, fmpq(1, 2) - h), (fmpq(1, 2) - h, fmpq(1, 2) + h)
            KP1, KP2 = K.apply(P1).probs, K.apply(P2).probs
            tv_in = 2 * h
            for n in ns:
                tv_priv = _tv_n(KP1, KP2, n)
                count += 1
                if not (tv_priv <= min(fmpq(1), n * phi * tv_in) and 1 - tv_priv >= (1 - phi * tv_in) ** n):
                    return Outcome(Verdict.REFUTED, "effective-sample-size bound fails", instances=count,
                                   counterexample={"K": K.as_strings(), "gamma": str(g), "delta": str(d), "h": str(h),
                                                   "n": str(n), "tv_private": str(tv_priv), "phi": str(phi)})
                m = 0
                while m < n and _tv_n(P1, P2, m + 1) <= tv_priv:
                    m += 1
                rows[f"{name} h={h} n={n}"] = (f"exact m*={m}, phi*n={phi * n} (m*/n={fmpq(m, n)}, "
                                              f"((g-1)/(g+1))^2={((g - 1) / (g + 1)) ** 2})")
    return Outcome(Verdict.VERIFIED, f"TV of n private samples <= min(1, n phi TV) and 1-TV >= (1-phi TV)^n "
                   f"on {count} instances; exact effective sample sizes in details",
                   instances=count, families=(("binary kernels x Bernoulli pairs x n", count),),
                   details={"exact effective sample size m* vs phi*n": rows})


register(Claim(
    written=(phi_contraction("asoodeh2021.a10_effective_sample_size_exact"),),
    id="asoodeh2021.a10_effective_sample_size_exact",
    domain=("t >= 1", "delta >= 0", "delta <= 1"),
    catalogue=("A-10",),
    source=Source(ASOODEH2021, "locally private Le Cam (label unknown)", section="IV-A", page="5"),
    title="Effective sample size phi(eps,delta) n against the exact TV of n private samples",
    statement=r"\mathrm{TV}((K\circ P_1)^{\otimes n},(K\circ P_2)^{\otimes n})\le\min\{1,n\,\varphi(\varepsilon,\delta)"
              r"\,\mathrm{TV}(P_1,P_2)\}",
    hypotheses="`K` (`eps`, `delta`)-LDP, non-interactive; `gamma = e^eps` rational",
    checks=(phi_chain_check((
        step(TV_PRODUCTS_STEP + ", applied to K P_1 and K P_2"),
                step("`TV(KP_1, KP_2) <= eta_tv(K)*TV(P_1, P_2)` (Dobrushin's two-point formula, "
                     "background.b01_dobrushin)"),
                PHI_STEP, step("both bounds are non-decreasing in `TV(KP_1, KP_2)`, so "
                               "`phi(eps, delta)*TV(P_1, P_2)` may replace it")),
                ("background.b01_dobrushin", TV_PRODUCTS)),
            Check("exact TV of private products vs phi n", _check, supporting=True),),
    expected=Verdict.PROVED_MODULO,
    reconstructed=True,
    kind="corollary",
    notes="Formula reconstructed (docs/claims.md A-10 reading (i)); the exact m* shows phi n overstates the information.",
    related=("background.b01_dobrushin",),
    formulas=("TV(K_P1_n, K_P2_n) <= Min(1, n*phi(eps, delta)*TV(P1, P2))",),
))
