r"""Proofs for the decidable fragment: ``Z ⋈ f(params)`` with an upper bound S on Z over the class.

When the small side of the conjecture is a kernel quantity Z with a known upper bound ``Z ≤ S`` over the
class (S a rational function of t = e^ε, δ, c, N), and the large side f involves only the parameters (with
ε only through e^ε, so f is rational in t), then ``S ⋈ f`` on the parameter region implies the conjecture
(``Z ≤ S ⋈ f``; strictness carries over).  The symbolic layer's exact decision procedure
(:func:`exactdp.algebra.prover.decide`) settles ``S ⋈ f``.

The bound ``Z ≤ S`` is never assumed: it comes either from a **certificate** that is checked here, on every
call (:func:`exactdp.algebra.certificates.check`), or from a **claim of the registry**, named in
``rests_on``.  A proof whose every step is a checked certificate or a prover decision is ``proved``; one
that uses a claim is only ``proved-modulo`` that claim (the report shows the claim's registered verdict),
so a theorem can never be proved by assuming it.  The bounds used:

* η_TV over ε-LDP: (t−1)/(t+1) and over (ε,δ)-LDP: (t−1+2δ)/(t+1) — the fixed-combination certificate
  of B-4's upper bound (:func:`exactdp.theory.class_certificates.ldp_tv`, all N, M; the claim
  ``background.b04_tight_ldp`` states it);
* η_TV over (ε,c)-PML: Ξ(ε,c) = min{(t−1)/(t(1−Nc)+1), 1} — the fixed-combination certificates of the
  [G] Thm 1 upper bound and of η_TV ≤ 1 (``pml_tv``, ``trivial_tv``, all N, M; claim ``grosse2026.thm1``);
* η_{E_{e^ε}}(K) ≤ δ over (ε,δ)-LDP (0 over ε-LDP) — [A] Thm 1's (⇒) direction (claim ``asoodeh2021.thm1``):
  the summand statements and Farkas combinations of :mod:`exactdp.theory.e_gamma_certificates`
  (``contraction_certificates``, all N, M, real t ≥ 1, δ ∈ [0, 1]).

Without the symbolic layer (``exactdp.algebra.prover`` not installed) nothing is ever called proved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import sympy

from exactdp import bounds as B
from exactdp.measures import registry
from exactdp.verification.conjecture.parser import Conjecture, conjecture_symbols

_t = sympy.Symbol("t", positive=True)

PROVED = "proved"
PROVED_MODULO = "proved-modulo"


@dataclass(frozen=True)
class UpperBound:
    r"""``Z ≤ value`` for every kernel of a class: the statement, the claim of the registry that states it and,
    when there are, a function building its certificates (:class:`~exactdp.algebra.certificates.Certificate`\ s
    valid for every N and M)."""

    value: sympy.Expr
    statement: str
    claim: str
    certificates: Callable[[], tuple] | None = None


@dataclass(frozen=True)
class Proof:
    """What :func:`prove` established: ``proved`` (every step checked here) or ``proved-modulo`` (some step
    rests on the claims ``rests_on``), the derivation, the checked certificates and the scope."""

    verdict: str
    steps: tuple[str, ...]
    rests_on: tuple[str, ...]
    certificates: tuple
    scope: str


def _class_certificates(cls: str) -> tuple:
    """The fixed-combination certificates of the class's η_TV upper bound (all N, M;
    :mod:`exactdp.theory.class_certificates`): (ε,δ)-LDP's a − b ≤ (t−1+2δ)/(t+1) (δ = 0 for ε-LDP), and for
    (ε,c)-PML a − b ≤ (t−1)/(t(1−Nc)+1) with a − b ≤ 1 (the two branches of Ξ's min)."""
    from exactdp.theory import class_certificates as CC

    if cls in ("ldp", "approx-ldp"):
        return (CC.ldp_tv(),)
    return (CC.pml_tv(), CC.trivial_tv())


def _contraction_certificates() -> tuple:
    """[A] Thm 1 (⇒): η_{E_t}(K) ≤ δ for every (ε,δ)-LDP kernel, all N, M (δ = 0 for ε-LDP)."""
    from exactdp.theory import e_gamma_certificates as EG

    return EG.contraction_certificates()


def upper_bound(small: sympy.Expr, cls: str, N: int | None) -> UpperBound | None:
    """The class's upper bound on the small side at input size N, or None outside the fragment."""
    s = conjecture_symbols()
    eps, delta, c = s["eps"], s["delta"], s["c"]
    if small == sympy.Symbol("eta_tv"):
        own = {B.t: _t, B.delta: delta, B.c: c}  # registry entries in this module's symbols
        if N is not None:
            own[B.N] = N
        if cls == "ldp":
            return UpperBound(B.get("ldp_dobrushin").expr.xreplace(own),
                              "eta_tv <= (t-1)/(t+1) for every eps-LDP kernel", "background.b04_tight_ldp",
                              lambda: _class_certificates("ldp"))
        if cls == "approx-ldp":
            return UpperBound(B.get("ldp_dobrushin_tight").expr.xreplace(own),
                              "eta_tv <= (t-1+2 delta)/(t+1) for every (eps,delta)-LDP kernel",
                              "background.b04_tight_ldp", lambda: _class_certificates("approx-ldp"))
        return UpperBound(B.get("xi").expr.xreplace(own),
                          "eta_tv <= Xi(eps,c) for every (eps,c)-PML kernel ([G] Thm 1, upper bound)",
                          "grosse2026.thm1", lambda: _class_certificates("pml"))
    hs = {sympy.Function("eta_hs")(sympy.exp(eps)), sympy.Function("delta_K")(eps)}
    if small in hs and cls in ("ldp", "approx-ldp"):
        bound = delta if cls == "approx-ldp" else sympy.Integer(0)
        return UpperBound(bound, "eta_{E_{e^eps}}(K) <= delta for every (eps,delta)-LDP kernel ([A] Thm 1, D-6)",
                          "asoodeh2021.thm1", _contraction_certificates)
    return None


def rational_in_t(expr: sympy.Expr):
    """The parameter side in t = e^ε, or None when it is not a function of t, c, δ, N alone.  ε outside
    ``exp(eps)`` (tanh(ε/2), e^{ε/2}, cosh ε, 1 − e^{−ε}) is rewritten exactly: ε = log t, every hyperbolic
    function in exponentials, then one fraction; tanh(ε/2) reads (t − 1)/(t + 1)."""
    s = conjecture_symbols()
    f = expr.subs(sympy.exp(s["eps"]), _t).subs(s["gamma"], _t).subs(s["t"], _t)
    if f.has(s["eps"]):
        from exactdp.algebra.prover import exponential_form

        f = exponential_form(f.subs(s["eps"], sympy.log(_t)))
    if f.has(s["eps"]) or any(isinstance(a, sympy.core.function.AppliedUndef) for a in sympy.preorder_traversal(f)):
        return None
    if any(isinstance(a, sympy.Symbol) and a.name in (*registry.kernel_constants(), "M", "n")
           for a in f.free_symbols):
        return None
    return f


def _certified(bound: UpperBound):
    """(certificates, step) when the bound's certificates exist and each checks TRUE here; ((), why) otherwise."""
    if bound.certificates is None:
        return (), "no certificate"
    try:
        from exactdp.algebra.certificates import check
        from exactdp.numbers.truth import Truth

        from exactdp.theory.structural_lemmas import lemmas_used, with_lemmas  # deferred: start-up

        main = bound.certificates()
        certs = with_lemmas(main)  # the structural lemmas the class certificates rest on, checked with them
    except ImportError:
        return (), "the class certificates are not installed"
    for cert in certs:
        result = check(cert)
        if result.truth is not Truth.TRUE:
            why = "; ".join(result.failures[:2]) or str(result.truth)
            return (), f"its certificate {cert.name!r} did not check ({why})"
    names = " and ".join(f"{c.kind} {c.name!r} ({c.scope})" for c in main)
    lemmas = lemmas_used(main)
    used = f", with the structural lemmas {'; '.join(lemmas)} ({len(certs) - len(main)} certificates)" if lemmas else ""
    return certs, f"certificate{'s' if len(main) > 1 else ''} {names} checked: TRUE{used}"


def claim_verdict(claim_id: str) -> str:
    """The registered (expected) verdict of a claim, as shown in a proved-modulo chain ("unknown claim" if absent)."""
    from exactdp.verification.claims import load_all

    claim = load_all().get(claim_id)
    if claim is None:
        return "unknown claim"
    text = claim.expected.value
    return text + (", reconstructed statement" if claim.reconstructed else "")


def _algebra_certificate(S, g, strict: bool, conds: list, cls: str, N: int | None):
    """The ``symbolic-statements`` certificate of the algebraic step ``S ⋈ g`` on the class's region."""
    from exactdp.algebra.certificates import assumptions_of, relation_text, symbols_of
    from exactdp.algebra.certificates.statements import SymbolicStatements, statement
    from exactdp.scopes import with_sizes

    rel = (sympy.StrictLessThan if strict else sympy.LessThan)(S, g, evaluate=False)
    params = sorted(symbols_of(rel, *conds), key=str)
    return SymbolicStatements(
        name=f"check: {cls}{'' if N is None else f', N={N}'}: bound {'<' if strict else '<='} conjectured side",
        parameters=tuple(map(str, params)), assumptions=assumptions_of(params),
        region=tuple(relation_text(c) for c in conds),
        scope=f"{cls} class parameters, " + ("every N" if N is None else f"N = {N}"),
        sizes=with_sizes("" if N is None else f"N = {N}", [str(p) for p in params if p.is_integer]),
        statements=(statement(cls if N is None else f"{cls}, N={N}", rel),))


def rewrite_certificate(large, f, s: dict):
    """The checked identity ``large(ε = log t) = f`` on t ≥ 1 (a ``symbolic-statements`` certificate), or None
    when it does not check TRUE: the conjecture's side as typed is bound to the form in t that is decided."""
    from exactdp.algebra.certificates import assumptions_of, check, relation_text, symbols_of
    from exactdp.algebra.certificates.statements import SymbolicStatements, statement
    from exactdp.numbers.truth import Truth

    rel = sympy.Eq(large.subs(s["eps"], sympy.log(_t)), f, evaluate=False)
    params = sorted(symbols_of(rel), key=str)
    try:
        cert = SymbolicStatements(
            name="check: the conjectured side in t = e^eps", parameters=tuple(map(str, params)),
            assumptions=assumptions_of(params), region=(relation_text(_t >= 1),), scope="t >= 1",
            sizes="", statements=(statement("eps = log(t)", rel),))
        return cert if check(cert).truth is Truth.TRUE else None
    except ValueError:  # not expressible in the reader's grammar
        return None


#: N as a real symbol >= 2 (every integer size at once) in the (eps,c)-PML decision of :func:`prove`
_N_REAL = sympy.Symbol("N", real=True)


def _decide_step(small, f, cls: str, N, strict: bool, s: dict):
    """(bound, S, g, certificate, check) when the class bound S at size N (a number, None for "no N", or
    :data:`_N_REAL`) is decided ≤ (or <) the conjectured side g by a TRUE certificate; None otherwise."""
    from exactdp.algebra.certificates import check
    from exactdp.numbers.truth import Truth

    bound = upper_bound(small, cls, N)
    if bound is None:
        return None
    S = bound.value
    g = f if N is None else f.subs(s["N"], N)
    conds = [_t >= 1]
    if cls == "approx-ldp":
        conds += [s["delta"] <= 1]
    if cls == "pml":
        conds += [_N_REAL >= 2, _N_REAL * s["c"] <= 1] if N is _N_REAL else [s["c"] <= sympy.Rational(1, N)]
    if (S < g if strict else S <= g) is sympy.false:
        return None
    n_at = None if N is _N_REAL else N
    # the conjecture at a fixed N is recorded as a substitution (Subs) that the checkers carry out
    g_at = sympy.Subs(f, s["N"], N) if n_at is not None and f.has(s["N"]) else g
    try:
        algebra = _algebra_certificate(S, g_at, strict, conds, cls, n_at)
        lhs_text, _, rhs_text = algebra.statements[0][1:4]
        if lhs_text == rhs_text:  # the conjectured side is the class bound itself: the step is bound - side <= 0
            algebra = _algebra_certificate(sympy.Add(S, -g_at, evaluate=False), sympy.Integer(0), strict, conds,
                                           cls, n_at)
    except ValueError:  # not expressible in the reader's grammar: outside the fragment
        return None
    try:
        result = check(algebra)
    except Exception:  # noqa: BLE001 - outside the prover's fragment: no proof, never a guess
        return None
    return (bound, S, g, algebra, result) if result.truth is Truth.TRUE else None


def _decide_sizes(small, f, cls: str, sizes, strict: bool, s: dict):
    """[(N, step)] when every size is decided by :func:`_decide_step`, else None (stops at the first failure)."""
    out = []
    for N in sizes:
        step = _decide_step(small, f, cls, N, strict, s)
        if step is None:
            return None
        out.append((N, step))
    return out


def prove(conj: Conjecture, classes, spec) -> Proof | None:
    """The proof when the conjecture follows for every class and every N in range, else None."""
    small, large = conj.sides()
    f = rational_in_t(large)
    if f is None:
        return None
    s = conjecture_symbols()
    rel = "<" if conj.strict else "<="
    steps = [f"symbolic proof (exactdp.algebra.prover), t = exp(eps) >= 1; the conjecture reads {small} {rel} {f}"]
    rests_on: list[str] = []
    certificates: list = []
    if large.subs(sympy.exp(s["eps"]), _t).has(s["eps"]):  # rewritten in t: the identity is a checked step
        rewrite = rewrite_certificate(large, f, s)
        if rewrite is None:
            return None
        certificates.append(rewrite)
        steps.append(f"with eps = log(t): {large} = {f} (certificate {rewrite.kind} {rewrite.name!r} checked: TRUE)")
    every_n = not f.has(s["N"]) and "pml" not in classes
    all_sizes = True  # every class decided once for every N (no per-N decision)
    for cls in classes:
        stated = False
        # neither side depends on N (the LDP bounds, a conjecture without N): one decision covers every N;
        # for (eps,c)-PML the decision is first tried with N a real symbol >= 2 (every N at once), then per N
        attempts = [[None]] if every_n else ([[_N_REAL]] if cls == "pml" else []) + [
            range(spec.N[0], spec.N[1] + 1)]
        decided = next((d for d in (_decide_sizes(small, f, cls, sizes, conj.strict, s) for sizes in attempts)
                        if d is not None), None)
        if decided is None:
            return None
        if decided[0][0] not in (None, _N_REAL):
            all_sizes = False
        for N, (bound, S, g, algebra, result) in decided:
            certificates.append(algebra)
            if not stated:  # the class bound holds for every N and M: stated (and its certificates checked) once
                stated = True
                certs, why = _certified(bound)
                if certs:
                    certificates += [c for c in certs if c not in certificates]
                    steps.append(f"{cls}, every N and M: {bound.statement}: {why}")
                else:
                    if bound.claim not in rests_on:
                        rests_on.append(bound.claim)
                    steps.append(f"{cls}, every N and M: {bound.statement}: taken from the claim {bound.claim} "
                                 f"(registered verdict: {claim_verdict(bound.claim)}; {why})")
            where = "" if N is None else (", every real N >= 2" if N is _N_REAL else f", N={N}")
            steps.append(f"{cls}{where}: then {S} {rel} {g}: certificate {algebra.kind} {algebra.name!r} "
                         f"checked: TRUE")
            steps += ["    " + str(x) for x in result.steps[1:6]]
    if all_sizes:
        scope = "all N, M; all parameters of the class"
    else:
        sizes = f"{spec.N[0]}..{spec.N[1]}" if spec.N[1] > spec.N[0] else f"{spec.N[0]}"
        scope = f"N = {sizes}, all M; all parameters of the class"
    if rests_on:
        steps.append("proved modulo " + ", ".join(rests_on) + ": the bound above is that claim's statement, "
                     "not re-proved here")
    return Proof(PROVED_MODULO if rests_on else PROVED, tuple(steps), tuple(rests_on), tuple(certificates), scope)
