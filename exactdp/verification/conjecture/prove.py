r"""Proofs for the decidable fragment: ``Z ⋈ f(params)`` with Z's class supremum known in closed form.

When the small side of the conjecture is a kernel quantity Z whose supremum over the class is a known
rational function S of t = e^ε, δ, c, N, and the large side f involves only the parameters (with ε only
through e^ε, so f is rational in t), the conjecture is equivalent to S ⋈ f on the parameter region
(the supremum is attained, so strictness carries over): the symbolic layer's exact decision procedure
(:func:`exactdp.algebra.prover.decide`) settles that.  The suprema used:

* η_TV over ε-LDP: (t−1)/(t+1)  (B-4; [G] eq. (13), attained by binary randomized response);
* η_TV over (ε,δ)-LDP: (t−1+2δ)/(t+1)  (B-4, attained by the optimal binary kernel);
* η_TV over (ε,c)-PML: Ξ(ε,c) = min{(t−1)/(t(1−Nc)+1), 1}  ([G] Thm 1, G-15; attained, LP-exact);
* η_{E_{e^ε}} = δ(ε) over (ε,δ)-LDP: δ  ([A] Thm 1 with D-6); over ε-LDP: 0.

Without the symbolic layer (``exactdp.algebra.prover`` not installed) nothing is ever called proved.
"""

from __future__ import annotations

import sympy

from exactdp import bounds as B
from exactdp.verification.conjecture.parser import Conjecture, _symbols

_t = sympy.Symbol("t", positive=True)


def _supremum(small: sympy.Expr, cls: str, N: int):
    """(S, lemma) for the small side in the class, or None outside the fragment."""
    s = _symbols()
    eps, delta, c = s["eps"], s["delta"], s["c"]
    if small == sympy.Symbol("eta_tv"):
        own = {B.t: _t, B.delta: delta, B.c: c, B.N: N}  # registry entries in this module's symbols
        if cls == "ldp":
            return (B.get("ldp_dobrushin").expr.xreplace(own),
                    "sup of eta_tv over eps-LDP kernels = (t-1)/(t+1) (B-4, [G] eq. (13))")
        if cls == "approx-ldp":
            return (B.get("ldp_dobrushin_tight").expr.xreplace(own),
                    "sup of eta_tv over (eps,delta)-LDP = (t-1+2 delta)/(t+1) (B-4)")
        return (B.get("xi").expr.xreplace(own),
                f"sup of eta_tv over (eps,c)-PML kernels with N={N} = Xi(eps,c) ([G] Thm 1, G-15)")
    hs = {sympy.Function("eta_hs")(sympy.exp(eps)), sympy.Function("delta_K")(eps)}
    if small in hs and cls in ("ldp", "approx-ldp"):
        bound = delta if cls == "approx-ldp" else sympy.Integer(0)
        return bound, "eta_{E_{e^eps}}(K) <= delta for (eps,delta)-LDP K, with equality attained ([A] Thm 1, D-6)"
    return None


def _rational_in_t(expr: sympy.Expr):
    s = _symbols()
    f = expr.subs(sympy.exp(s["eps"]), _t).subs(s["gamma"], _t)
    if f.has(s["eps"]) or any(isinstance(a, sympy.core.function.AppliedUndef) for a in sympy.preorder_traversal(f)):
        return None
    if any(isinstance(a, sympy.Symbol) and a.name in ("eta_tv", "ldp_eps", "max_leakage", "M", "n")
           for a in f.free_symbols):
        return None
    return f


def prove(conj: Conjecture, classes, spec) -> list[str]:
    """Derivation lines when the conjecture is proved for every class and every N in range, else []."""
    try:
        from exactdp.algebra.prover import Region, decide
    except ImportError:
        return []
    small, large = conj.sides()
    f = _rational_in_t(large)
    if f is None:
        return []
    s = _symbols()
    rel = "<" if conj.strict else "<="
    steps = [f"symbolic proof (exactdp.algebra.prover), t = exp(eps) >= 1; the conjecture reads {small} {rel} {f}"]
    for cls in classes:
        for N in range(spec.N[0], spec.N[1] + 1):
            sup = _supremum(small, cls, N)
            if sup is None:
                return []
            S, lemma = sup
            g = f.subs(s["N"], N)
            conds = [_t >= 1]
            if cls == "approx-ldp":
                conds += [s["delta"] <= 1]
            if cls == "pml":
                conds += [s["c"] <= sympy.Rational(1, N)]
            statement = S < g if conj.strict else S <= g
            if statement is sympy.true:  # sympy decided it structurally (e.g. identical sides)
                steps.append(f"{cls}, N={N}: {lemma}; then {S} {rel} {g} holds identically")
                continue
            if statement is sympy.false:
                return []
            try:
                decision = decide(statement, Region.of(*conds))
            except Exception:  # noqa: BLE001 - outside the prover's fragment: no proof, never a guess
                return []
            if str(decision.truth) != "true":
                return []
            steps.append(f"{cls}, N={N}: {lemma}; then {S} {rel} {g} on {decision.region}: TRUE")
            steps += ["    " + str(x) for x in decision.steps[:6]]
    return steps
