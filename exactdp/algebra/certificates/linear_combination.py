r"""The ``"linear-combination"`` certificate: a Farkas combination of constraints that yields a bound.

Data: variables v (e.g. a = K_x(A), b = K_{x'}(A)), parameters p on a region R, named constraints
g_i(v, p) ≥ 0, multipliers λ_i(p), a slack s(p) and a conclusion h(v, p).  The certificate is valid when

1. h − Σ_i λ_i g_i − s ≡ 0 as a rational function of (v, p) (exact cancellation), and
2. λ_i ≥ 0 and s ≥ 0 at every point of R (decided by the prover, :func:`~exactdp.algebra.certificates.decide_sign`).

Then for every p ∈ R and every v with g_i(v, p) ≥ 0 for all i:  h = Σ λ_i g_i + s ≥ 0.  Nothing is assumed
about how many inputs or outputs produced the g_i, so a certificate whose constraints hold for every
kernel of a class proves h ≥ 0 for the whole class.

Two fields say why the g_i hold, both checked (there is no free-text ``lemmas`` field):

* ``definitions`` — abbreviations ``(name, expression)`` (e.g. a witness entry ``a = t(1 − (N−1)c)/z`` or
  ``cS = c·S``): the constraints, multipliers, conclusion and slack may use the names, and the check substitutes
  the expressions (later definitions may use earlier ones) before anything else, so a step that is a tautology
  after the substitution keeps the substitution and the original expressions.  A name is neither a parameter
  nor a variable.
* ``uses`` — the names of the certificates whose statements the g_i rest on (the structural lemmas of
  :mod:`exactdp.theory.structural_lemmas`, or a sibling certificate of the same proof): the outcome that carries
  this certificate must carry those too (:func:`exactdp.verification.claims.proved` adds the structural lemmas),
  and ``exactdp recheck`` fails when one of them is not among the claim's re-checked certificates.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import sympy

from exactdp.algebra.certificates import (
    Certificate,
    CertificateCheck,
    combine_truths,
    decide_sign,
    expr_text,
    register_kind,
    relation_text,
)
from exactdp.numbers.formula_text import inline_step, prefixed
from exactdp.numbers.truth import Truth


@register_kind
@dataclass(frozen=True, kw_only=True)
class LinearCombination(Certificate):
    """h ≥ 0 from g_i ≥ 0 with multipliers λ_i ≥ 0 and slack s ≥ 0 (see the module docstring)."""

    kind = "linear-combination"
    variables: tuple[str, ...]
    constraints: tuple[tuple[str, str], ...]  # (label, g) meaning g >= 0
    multipliers: tuple[str, ...]
    conclusion: str  # h, meaning h >= 0
    slack: str = "0"
    definitions: tuple[tuple[str, str], ...] = ()  # (name, expression): substituted before the check
    uses: tuple[str, ...] = ()  # names of the certificates the constraints rest on

    @classmethod
    def build(cls, *, name: Any, parameters: Any, variables: Any, constraints: Any, multipliers: Any,
              conclusion: Any, slack: Any = 0, region: Any = (), scope: Any = "", definitions: Any = (),
              uses: Any = ()) -> LinearCombination:
        """From sympy objects: ``parameters``/``variables`` symbols, ``constraints`` (label, g) pairs, ``region``
        sympy inequalities (the parameters' assumptions are recorded too), ``definitions`` (symbol, expression)
        pairs and ``uses`` certificate names."""
        from exactdp.algebra.certificates import assumptions_of

        return cls(name=name, parameters=tuple(map(str, parameters)), variables=tuple(map(str, variables)),
                   assumptions=assumptions_of(parameters), region=tuple(relation_text(r) for r in region),
                   scope=scope, constraints=tuple((lab, expr_text(g)) for lab, g in constraints),
                   multipliers=tuple(expr_text(m) for m in multipliers), conclusion=expr_text(conclusion),
                   slack=expr_text(slack),
                   definitions=tuple((str(n), expr_text(e)) for n, e in definitions), uses=tuple(uses))

    def _definitions(self, syms: dict[str, Any]) -> dict[Any, Any]:
        """Each definition's symbol -> its expression in the parameters and variables (a later definition may use
        the earlier ones, substituted in order)."""
        subs: dict[Any, Any] = {}
        for n, txt in self.definitions:
            subs[syms[n]] = self.read(txt, syms, f"definition of {n}").xreplace(subs)
        return subs

    def written_out(self) -> Certificate:
        """This combination bound to its statement (:meth:`Certificate.states`) with its ``definitions`` substituted
        in the hypotheses and conclusions (each relation read, its abbreviations replaced, written again): the
        statement is then in the parameters and variables only, as the combination proves it once the definitions
        are substituted.  Unchanged without definitions or statement.  The binding (:func:`exactdp.claim_statement.
        binding`) substitutes the definitions in both and compares, so an edited definition does not prove it.

        Raises:
            ValueError: a relation that is no inequality once substituted (decided as a constant)."""
        st = self.statement
        if st is None or not self.definitions:
            return self
        syms = self.symbols(self.variables + tuple(n for n, _ in self.definitions))
        subs = self._definitions(syms)

        def out(text: str, what: str) -> str:
            rel = self.read(text, syms, what, relations=True).xreplace(subs)
            return relation_text(rel)

        return self.bound_to(dataclasses.replace(
            st, hypotheses=tuple(out(x, f"hypothesis {x}") for x in st.hypotheses),
            conclusions=tuple(out(x, f"conclusion {x}") for x in st.conclusions)))

    def _check(self) -> CertificateCheck:
        steps: list[str] = []
        fails: list[str] = []
        if len(self.multipliers) != len(self.constraints):
            return CertificateCheck(Truth.FALSE, (), (f"{len(self.multipliers)} multipliers for "
                                                      f"{len(self.constraints)} constraints",))
        clash = set(self.variables) & set(self.parameters)
        if clash:
            return CertificateCheck(Truth.FALSE, (), (f"names both variable and parameter: {sorted(clash)}",))
        names = [n for n, _ in self.definitions]
        taken = set(names) & (set(self.variables) | set(self.parameters))
        if taken or len(set(names)) != len(names):
            return CertificateCheck(Truth.FALSE, (), (f"a definition's name is a parameter, a variable or defined "
                                                      f"twice: {sorted(taken) or names}",))
        syms = self.symbols(self.variables + tuple(names))
        params = {syms[p] for p in self.parameters}
        region = self.region_conditions({p: syms[p] for p in self.parameters})
        subs = self._definitions(syms)
        steps += [inline_step("definition: {}", sympy.Eq(x, e, evaluate=False)) for x, e in subs.items()]

        def read(txt: str, what: str) -> Any:
            return self.read(txt, syms, what).xreplace(subs)

        g = [(lab, read(txt, f"constraint {lab}")) for lab, txt in self.constraints]
        lam = [read(txt, f"multiplier of {lab}") for txt, (lab, _) in zip(self.multipliers, self.constraints)]
        h = read(self.conclusion, "conclusion")
        s = read(self.slack, "slack")
        for what, e in [("slack", s)] + [(f"multiplier of {lab}", m) for m, (lab, _) in zip(lam, g)]:
            if not e.free_symbols <= params:
                fails.append(f"{what} = {e} depends on {sorted(map(str, e.free_symbols - params))}, not only on "
                             f"the parameters")
        if fails:
            return CertificateCheck(Truth.FALSE, tuple(steps), tuple(fails))
        combo = sympy.Add(*[m * gi for m, (_, gi) in zip(lam, g)]) + s
        diff = sympy.cancel(sympy.together(h - combo))
        stated = self.read(self.conclusion, syms, "conclusion")  # with its abbreviations, as written
        steps.append(inline_step("identity: the conclusion {} minus the sum of multiplier times constraint minus "
                                 "the slack is {} after exact cancellation", stated, diff))
        if diff != 0:
            fails.append(f"the combination does not give the conclusion: the difference is {diff}")
            return CertificateCheck(Truth.FALSE, tuple(steps), tuple(fails))
        truths = []
        for what, e in [(f"multiplier of {lab}", m) for m, (lab, _) in zip(lam, g)] + [("slack", s)]:
            truth, text = decide_sign(e, region)
            steps.append(prefixed(f"{what}: ", text))
            truths.append(truth)
            if truth is Truth.FALSE:
                fails.append(f"{what} = {e} is negative somewhere on the region: {text}")
            elif truth is Truth.UNKNOWN:
                fails.append(f"{what} = {e}: sign undecided on the region: {text}")
        truth = combine_truths(truths)
        if truth is Truth.TRUE:
            steps.append(inline_step("hence {} whenever every constraint holds, for all parameters in the region",
                                     sympy.GreaterThan(stated, 0, evaluate=False)))
        return CertificateCheck(truth, tuple(steps), tuple(fails))
