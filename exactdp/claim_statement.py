r"""The statement a certificate is filed under, in machine form, and what binds the certificate to it.

A claim's statement (or the part of it one certificate carries) is a :class:`ClaimStatement`: the claim id, the
quantifiers — the sizes (``"all N, M"``, :data:`exactdp.scopes.SIZES`), the parameters and the variables —, the
hypotheses as a region (``domain``: inequalities in the parameters, the stated domain; ``hypotheses``: relations
that also involve the variables, e.g. the class constraints on a = K_x(A), b = K_{x′}(A)) and the conclusions
(relations).  Every field is text in the safe reader's grammar (:mod:`exactdp.numbers.reader`), so the statement is
data, exported inside the certificate (``"statement"``) and read back without evaluating anything.  A statement
that cannot be written yet is recorded as such: :meth:`ClaimStatement.not_bound` keeps the claim id and the reason,
and every checker reports it as "statement not bound" (``exactdp recheck``: UNDECIDED, never OK).

:func:`binding` reduces "the certificate proves this statement" to decisions that each checker takes with its own
procedure (the engine with :mod:`exactdp.algebra.prover`, ``recheck`` with :mod:`exactdp.recheck_cad`, the SMT path
with z3 and cvc5; docs/claims.md lists the claims):

* **structure**, decided here: the certificate's parameters and variables are among the statement's, no name is
  both a parameter and a variable, and (``linear-combination``) every constraint g ≥ 0 the certificate combines is
  one of the statement's hypotheses (exactly, after cancellation);
* **the region contains the stated domain**: every region condition and sign assumption of the certificate holds
  at every point of ``domain`` (relations to decide on the domain);
* **the domain is not empty** (else every statement would hold vacuously);
* **the conclusion implies the statement**: a ``linear-combination`` proves h ≥ 0, so a stated s ≥ 0 follows when
  s − h is free of the variables and ≥ 0 on the domain; a ``symbolic-statements`` certificate proves each of its
  relations lhs ρ rhs on its region and conditions, so a stated identity follows from a certified one with the
  same difference (up to sign, exactly), and a stated inequality s ≥ 0 (s > 0) from a certified h ≥ 0 (h > 0) with
  s − h ≥ 0 (> 0 when only h ≥ 0 is certified) on the domain, the certified relation's conditions holding there;
  a ``parametric-lp`` (``lp-point``) certificate proves c·x + offset ≤ value_k for every feasible x on each of its
  regions R_k, which cover its domain (at its point): the statement's variables name the LP's columns, every LP
  constraint is one of its hypotheses, and a stated s ≥ 0 follows when s + c·x + offset = G is free of the
  variables and G − value_k ≥ 0 on the stated domain within R_k (``cases``; an ``lp-point``'s stated domain is its
  point).  :func:`lp_statement` writes such a statement.

The name of a certificate is derived here too (:func:`certificate_name`): what its data prove (a structural lemma's
certificate: the lemma and what it states), so a renamed certificate is a changed one for every checker.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field, fields
from typing import Any, Callable

import sympy

from exactdp.errors import ParameterError
from exactdp.numbers.reader import MATH_FUNCTIONS, read_expression
from exactdp.scopes import size_names, valid_sizes

#: what every checker reports for a certificate whose statement is not in machine form (``recheck``: UNDECIDED)
NOT_BOUND = "statement not bound"

#: separates a conclusion from the conditions it is stated under ("lhs <= rhs when t*u < 2; c > 0")
WHEN = " when "

#: the longest derived certificate name; a longer text is cut (deterministically) and ends in "..."
NAME_WIDTH = 160


@dataclass(frozen=True)
class ClaimStatement:
    """One claim's statement (or the part a certificate proves) in machine form; see the module docstring."""

    claim: str
    sizes: str = ""
    parameters: tuple[str, ...] = ()
    variables: tuple[str, ...] = ()
    domain: tuple[str, ...] = ()
    hypotheses: tuple[str, ...] = ()
    conclusions: tuple[str, ...] = ()
    #: non-empty: the statement is not written in machine form yet, and this says why
    unbound: str = ""
    #: what the variables stand for: the quantifier that reduces the claim to them, in words ("every pair of rows
    #: x, x' and output set A, a = K_x(A), b = K_x'(A); eta_TV(K) is the max of a - b (B-1)"); read, not checked
    reduction: str = ""

    def __post_init__(self):
        for f in fields(self):
            v = getattr(self, f.name)
            ok = isinstance(v, str) if f.type == "str" else isinstance(v, tuple) and all(isinstance(x, str) for x in v)
            if not ok:
                raise ParameterError(f"statement of {str(self.claim)[:60]}: field {f.name!r} must be "
                                     f"{'a string' if f.type == 'str' else 'a list of strings'}, got {v!r:.60}")
        if not valid_sizes(self.sizes):
            raise ParameterError(f"statement of {self.claim}: sizes {self.sizes!r} is not of the form 'all N, M', "
                                 f"'N = 3' or 'all n >= 1'")
        if not self.unbound and not self.conclusions:
            raise ParameterError(f"statement of {self.claim}: no conclusion (a statement that cannot be written yet "
                                 f"is ClaimStatement.not_bound(claim, reason))")

    @classmethod
    def not_bound(cls, claim: str, reason: str) -> ClaimStatement:
        """The explicit record that ``claim``'s statement is not (yet) in machine form, with the reason."""
        return cls(claim=claim, unbound=reason or "no machine statement written")

    @property
    def bound(self) -> bool:
        return not self.unbound

    def text(self) -> str:
        """``"<claim>: for all <sizes>, <parameters> with <domain> [and <variables> with <hypotheses>]:
        <conclusions>"``, or ``"<claim>: statement not bound (<reason>)"``."""
        if not self.bound:
            return f"{self.claim}: statement not bound ({self.unbound})"
        quant = ", ".join(p for p in (self.sizes[4:] if self.sizes.startswith("all ") else self.sizes,
                                      ", ".join(self.parameters)) if p)
        head = f"for all {quant}" + (f" with {', '.join(self.domain)}" if self.domain else "")
        if self.reduction:
            head += f", for {self.reduction}"
        if self.variables:
            head += f" and all {', '.join(self.variables)}" + (
                f" with {', '.join(self.hypotheses)}" if self.hypotheses else "")
        return f"{self.claim}: {head}: {' and '.join(self.conclusions)}"

    def to_json(self) -> dict:
        return {f.name: list(getattr(self, f.name)) if isinstance(getattr(self, f.name), tuple)
                else getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, d: Any) -> ClaimStatement:
        """The statement a :meth:`to_json` dict describes.  Raises ParameterError on any other shape."""
        if not isinstance(d, dict):
            raise ParameterError(f"statement: expected a JSON object, got {type(d).__name__}")
        names = {f.name: f for f in fields(cls)}
        extra = sorted(set(d) - set(names))
        if extra or "claim" not in d:
            raise ParameterError(f"statement: unexpected field(s) {', '.join(map(str, extra))}" if extra else
                                 "statement: missing field 'claim'")
        values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in d.items()}
        return cls(**values)


#: the claim field of a structural lemma's statement starts so (:mod:`exactdp.theory.structural_lemmas`): a lemma
#: is stated once and its certificates are filed with every claim whose certificates use them
LEMMA_PREFIX = "lemma: "


def is_lemma(claim: str) -> bool:
    """Whether a statement's claim field names a structural lemma rather than a claim."""
    return claim.startswith(LEMMA_PREFIX)


#: the claim field of a proof step's statement starts so: a certificate of a claim's proof that carries none of the
#: claim's written statement parts (:attr:`exactdp.verification.claims.Claim.written`) proves a step of the proof,
#: and states itself (its relations, like a lemma) under ``"step of <claim>"`` — it binds to that claim only, and it
#: is never counted as proving the claim's statement
STEP_PREFIX = "step of "


def step_of(claim: str) -> str:
    """The claim field of the statement of a step of ``claim``'s proof."""
    return STEP_PREFIX + claim


def is_step(claim: str) -> bool:
    """Whether a statement's claim field names a step of a proof rather than a claim."""
    return claim.startswith(STEP_PREFIX)


def files_under(statement_claim: str, claim: str) -> bool:
    """Whether a certificate whose statement names ``statement_claim`` may be filed under ``claim``: the claim
    itself, a step of its proof, or a structural lemma (true wherever it is filed)."""
    return statement_claim in (claim, step_of(claim)) or is_lemma(statement_claim)


def restates(st: ClaimStatement, d: dict) -> bool:
    """Whether ``st``'s conclusions are, as text, the relations of the certificate ``d`` itself
    (:func:`restating`): a statement copied from its certificate, for which "the certificate implies the statement"
    is trivial.  A claim's statement must be written from the paper, not so (tests/proofs/test_statements.py)."""
    return bool(st.conclusions) and st.conclusions == restating(st.claim, d).conclusions


def names_in(text: str) -> set[str]:
    """The names a condition's text mentions (functions and constants excluded)."""
    return set(re.findall(r"[A-Za-z_]\w*", text)) - set(MATH_FUNCTIONS) - {"Min", "Max", "Abs", "Subs", "Limit",
                                                                           "E", "pi", "oo"}


_SIGN_TEXT = {"positive": "{} > 0", "nonnegative": "{} >= 0", "negative": "{} < 0", "nonpositive": "{} <= 0",
              "nonzero": "{}**2 > 0"}


def filed_domain(domain: tuple[str, ...], d: dict) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The stated ``domain`` of a claim as one certificate (JSON ``d``) is filed under it, and the names it
    quantifies beyond the certificate's parameters: every condition of the domain (but those on a name the
    certificate quantifies as a variable, for all of its values under the hypotheses), and the certificate's region
    conditions and sign assumptions on names the domain does not mention (the proof's own quantities — a
    positive part p >= 0, a mass e in (0, 1] —, whose range is the certificate's business); every other region
    condition and assumption is then decided on the domain by the checkers."""
    variables = set(d.get("variables", ()))
    domain = tuple(c for c in domain if not names_in(c) & variables)  # a name the certificate quantifies itself
    stated = {n for c in domain for n in names_in(c)}
    own = [c for c in d.get("region", ()) if not names_in(c) & stated]
    own += [_SIGN_TEXT[a].format(n) for n, assumed in d.get("assumptions", ()) if n not in stated
            for a in (x.strip() for x in str(assumed).split(",")) if a in _SIGN_TEXT]
    extra = tuple(sorted(stated - set(d.get("parameters", ()))))
    return tuple(dict.fromkeys((*domain, *own))), extra


def restating(claim: str, d: dict, domain: tuple[str, ...] = (), parameters: tuple[str, ...] = ()) -> ClaimStatement:
    """The statement ``claim`` makes through a certificate (its JSON dict ``d``) whose relations are the claim's own
    formulas: the conclusions are the certificate's relations (a linear combination's h >= 0 under its constraints
    as hypotheses; each symbolic statement's lhs op rhs, under its conditions: ``"... when c1; c2"``), and
    ``domain`` — the claim's stated hypotheses on the parameters (:attr:`exactdp.verification.claims.Claim.domain`,
    written from docs/claims.md; :func:`filed_domain`) — is what the checkers show non-empty and inside the
    certificate's region.  ``parameters``: names the statement quantifies beyond the certificate's own (e.g. c when
    only u = Nc occurs).  A structural lemma (``claim`` starting with :data:`LEMMA_PREFIX`) states itself, on its
    certificate's region."""
    hypotheses: tuple[str, ...]
    conclusions: tuple[str, ...]
    if d.get("kind") in ("parametric-lp", "lp-point"):
        return _lp_restating(claim, d, domain, parameters)
    if d.get("kind") in ("linear-combination", "split-tree"):
        hypotheses = tuple(f"{g} >= 0" for _, g in d.get("constraints", ()))
        h = split_tree_conclusion(d) if d.get("kind") == "split-tree" else d.get("conclusion", "")
        conclusions = (f"{h} >= 0",)
    else:
        hypotheses = ()
        conclusions = tuple(f"{lhs} {op} {rhs}" + (WHEN + "; ".join(conds) if conds else "")
                            for _, lhs, op, rhs, conds in d.get("statements", ()))
    return ClaimStatement(claim=claim, sizes=d.get("sizes", ""),
                          parameters=tuple(dict.fromkeys((*d.get("parameters", ()), *parameters))),
                          variables=tuple(d.get("variables", ())), domain=tuple(domain), hypotheses=hypotheses,
                          conclusions=conclusions)


#: the certificate kinds :func:`binding` binds to a statement (any other: "statement not bound")
BOUND_KINDS = ("linear-combination", "symbolic-statements", "parametric-lp", "lp-point", "split-tree")


def lp_statement(claim: str, d: dict, variables: tuple[str, ...], domain: tuple[str, ...] = (),
                 conclusions: tuple[str, ...] = (), parameters: tuple[str, ...] = ()) -> ClaimStatement:
    """The statement "for every point of ``domain`` and every x ≥ 0 (named ``variables``, the LP's columns in order)
    with A_ub x ≤ b_ub and A_eq x = b_eq: ``conclusions``" of the LP of a ``parametric-lp`` / ``lp-point``
    certificate (JSON ``d``); without ``conclusions``, the certificate's own: c·x + offset ≤ value_k in each region
    (at its point)."""
    def lin(coeffs, names) -> str:
        terms = [f"({a})*{v}" for a, v in zip(coeffs, names) if str(a).strip() not in ("0", "-0")]
        return " + ".join(terms) or "0"

    objective = lin(d.get("c", ()), variables) + (f" + ({d['offset']})" if str(d.get("offset", "0")) != "0" else "")
    hyps = [f"({b}) - ({lin(r, variables)}) >= 0" for r, b in zip(d.get("A_ub", ()), d.get("b_ub", ()))]
    hyps += [f"{v} >= 0" for v in variables]
    hyps += [f"{lin(r, variables)} == {b}" for r, b in zip(d.get("A_eq", ()), d.get("b_eq", ()))]
    if not conclusions:
        if d.get("kind") == "lp-point":
            conclusions = (f"({d.get('value', '')}) - ({objective}) >= 0",)
        else:
            conclusions = tuple(f"({v}) - ({objective}) >= 0" + (WHEN + "; ".join(conds) if conds else "")
                                for conds, v in zip(d.get("region_conditions_", ()), d.get("region_value", ())))
    return ClaimStatement(claim=claim, sizes=d.get("sizes", ""),
                          parameters=tuple(dict.fromkeys((*d.get("parameters", ()), *parameters))),
                          variables=tuple(variables), domain=tuple(domain), hypotheses=tuple(hyps),
                          conclusions=tuple(conclusions))


def _lp_restating(claim: str, d: dict, domain: tuple[str, ...], parameters: tuple[str, ...]) -> ClaimStatement:
    """:func:`restating` of an LP certificate: its own optimum (:func:`lp_statement`), the columns named x0, x1, …
    (another prefix when a parameter has such a name), an ``lp-point``'s point added to the domain."""
    taken = set(d.get("parameters", ())) | set(parameters) | {n for c in domain for n in names_in(c)}
    prefix = next(p for p in ("x", "lpx", "lp_x", "lp_col_") if not any(n.startswith(p) for n in taken))
    cols = tuple(f"{prefix}{j}" for j in range(len(d.get("c", ()))))
    if d.get("kind") == "lp-point":
        domain = (*domain, *(f"{k} {op} {v}" for k, v in d.get("point", ()) for op in (">=", "<=")))
    return lp_statement(claim, d, cols, domain, parameters=parameters)


# -- the derived name ---------------------------------------------------------------------------------------

def _what_it_proves(d: dict) -> str:
    """The text of what a certificate's data prove (its kind's conclusion), for its derived name."""
    kind = d.get("kind")
    if kind == "linear-combination":
        return f"{d.get('conclusion', '')} >= 0"
    if kind == "symbolic-statements":
        sts = [st for st in d.get("statements", ()) if isinstance(st, (list, tuple)) and len(st) == 5]
        first = " ".join(str(x) for x in sts[0][1:4]) if sts else "(no statement)"
        return first + (f" and {len(sts) - 1} more" if len(sts) > 1 else "")
    if kind == "lp-point":
        at = ", ".join(f"{p[0]} = {p[1]}" for p in d.get("point", ()) if isinstance(p, (list, tuple)) and len(p) == 2)
        return f"LP optimum {d.get('value', '')}" + (f" at {at}" if at else "")
    if kind == "parametric-lp":
        return f"parametric LP optimum on {len(d.get('region_value', ()))} regions"
    if kind == "split-tree":
        return f"{split_tree_conclusion(d)} >= 0 on {len(d.get('leaf_branches', ()))} leaves of split trees"
    return f"{kind}"


def split_tree_conclusion(d: dict) -> str:
    """The conclusion h (h >= 0) of a ``split-tree`` certificate's data: Min of its arguments minus its objective.
    The one definition: the engine's :meth:`exactdp.algebra.certificates.split_tree.SplitTreeCertificate.conclusion`
    calls it, and this module reads the data without the engine."""
    args = [str(x) for x in d.get("arguments", ())]
    head = args[0] if len(args) == 1 else f"Min({', '.join(args)})"
    return f"{head} - ({d.get('objective', '')})"


def certificate_name(d: dict) -> str:
    """The name of a certificate (its JSON dict): for a structural lemma's certificate the lemma and the conclusions
    it states, else what its data prove (:func:`_what_it_proves`), so that filing a certificate under a claim does
    not rename it (a sibling's ``uses`` names it); at most :data:`NAME_WIDTH` characters."""
    st = d.get("statement")
    text = ""
    if isinstance(st, dict) and isinstance(st.get("claim"), str):
        try:
            s = ClaimStatement.from_json(st)
        except (ParameterError, TypeError):
            s = None
        if s is not None and s.bound and is_lemma(s.claim):
            text = f"{s.claim}: {' and '.join(s.conclusions)}"
    text = text or _what_it_proves(d)
    return text if len(text) <= NAME_WIDTH else text[:NAME_WIDTH - 3] + "..."


# -- the binding ----------------------------------------------------------------------------------------------

def _limit(e: Any, x: Any, point: Any) -> Any:
    """``Limit(e, x, point)``: the one-sided limit x → point⁺ (unevaluated until a checker re-does it)."""
    return sympy.Limit(e, x, point, "+")


#: the functions a certificate's expressions may use (the reader's math functions, Min, Max, Abs) and the two
#: recorded operations: ``Subs(e, x, v)`` (e at x = v) and ``Limit(e, x, p)`` (e as x → p⁺), kept unevaluated
#: in the data so that a checker re-does them instead of reading a result computed beforehand (one table, so
#: that the reader's memo knows a certificate's strings whoever reads them)
CERTIFICATE_FUNCTIONS = {**MATH_FUNCTIONS, "Min": (sympy.Min, None), "Max": (sympy.Max, None), "Abs": (sympy.Abs, 1),
                         "Subs": (sympy.Subs, 3), "Limit": (_limit, 3)}


@dataclass
class Binding:
    """What "the certificate proves its statement" reduces to (:func:`binding`).

    ``failures``: structural reasons it does not (decided: the binding is false); ``unbound``: the statement is
    not in machine form (the reason); ``domain``: the stated domain (sympy relations); ``holds``: (what, relation)
    pairs, each to be decided true at every point of ``domain``; the domain must also be shown non-empty.
    ``steps``: what was decided exactly while reducing."""

    statement: ClaimStatement | None
    failures: list = field(default_factory=list)

    def domain_for(self, rel) -> list:
        """The conditions of ``domain`` that share a name with ``rel``, directly or through other conditions: ``rel``
        holds on the domain exactly when it holds on these (the rest constrain other coordinates and have a point,
        which the checkers decide apart; :func:`independent_parts`)."""
        names = set(rel.free_symbols)
        return [c for part in independent_parts(self.domain) if set().union(*[r.free_symbols for r in part]) & names
                for c in part]
    unbound: str = ""
    domain: list = field(default_factory=list)
    holds: list = field(default_factory=list)
    steps: list = field(default_factory=list)
    #: (what, relation, conditions): the relation to be decided true at every point of ``domain`` where the
    #: conditions hold (a parametric LP's region: its optimum there against the stated conclusion)
    cases: list = field(default_factory=list)

    def domain_for_case(self, rel, conditions: list) -> list:
        """The conditions of ``domain`` that bear on ``rel`` under ``conditions`` (:meth:`domain_for` of both),
        followed by ``conditions``."""
        names = set(rel.free_symbols).union(*[c.free_symbols for c in conditions])
        return [c for part in independent_parts(self.domain) if set().union(*[r.free_symbols for r in part]) & names
                for c in part] + list(conditions)


_SIGN_RELATIONS = {"positive": sympy.StrictGreaterThan, "nonnegative": sympy.GreaterThan,
                   "negative": sympy.StrictLessThan, "nonpositive": sympy.LessThan,
                   "nonzero": lambda x, z, evaluate: sympy.StrictGreaterThan(x**2, z, evaluate=evaluate)}
_FLIP = {sympy.LessThan: sympy.GreaterThan, sympy.StrictLessThan: sympy.StrictGreaterThan}


def _relations(rel) -> list:
    """A read relation as a list of relations (an And is split; True gives none)."""
    if rel is sympy.true:
        return []
    if isinstance(rel, sympy.And):
        return list(rel.args)
    if not isinstance(rel, sympy.core.relational.Relational):
        raise ParameterError(f"{rel} is not a relation")
    return [rel]


def _nonnegative_form(rel) -> tuple[Any, bool] | None:
    """``(e, strict)`` with ``rel`` ⇔ e ≥ 0 (e > 0 if strict); None for an equation or ≠."""
    if isinstance(rel, (sympy.LessThan, sympy.StrictLessThan)):
        return rel.rhs - rel.lhs, isinstance(rel, sympy.StrictLessThan)
    if isinstance(rel, (sympy.GreaterThan, sympy.StrictGreaterThan)):
        return rel.lhs - rel.rhs, isinstance(rel, sympy.StrictGreaterThan)
    return None


def independent_parts(rels: list) -> list[list]:
    """``rels`` split into groups that share no free symbol: their conjunction has a point exactly when every group
    has one (the groups constrain disjoint coordinates), so a domain in many names is shown non-empty part by part."""
    groups: list[tuple[set, list]] = []
    for rel in rels:
        names, members = set(rel.free_symbols), [rel]
        for g in [g for g in groups if g[0] & names]:
            groups.remove(g)
            names |= g[0]
            members = g[1] + members
        groups.append((names, members))
    return [m for _, m in groups]


def _zero(e) -> bool:
    """Whether ``e`` is identically 0: cancelled to 0 (:func:`_canceled`); a difference shown non-zero at one
    rational point (:func:`_nonzero_somewhere`) cannot cancel to 0, so it is not cancelled (the answer is the same)."""
    if e == 0:
        return True
    if not e.has(sympy.Subs, sympy.Limit) and _nonzero_somewhere(e):
        return False
    return bool(_canceled(e) == 0)


@functools.lru_cache(maxsize=4096)
def _canceled(e):
    """``cancel(together(e))``: the one normal form the binding compares differences in (0 stays 0 uncomputed;
    remembered, since a conclusion is compared with the same certified statements more than once)."""
    return e if e == 0 else sympy.cancel(sympy.together(e))


def binding(d: dict, claim: str | None = None, carry_out: Callable | None = None) -> Binding:
    """Reduce "certificate ``d`` (a JSON dict) proves the statement it carries" to decisions (module docstring).

    ``claim``: the claim the certificate is filed under (its statement must name it); ``carry_out``: the checker's
    own procedure that re-does recorded substitutions and limits (``Subs``, ``Limit``) in an expression.  Raises
    ParameterError / ReadError on unreadable data."""
    raw = d.get("statement")
    if raw is None:
        return Binding(None, unbound="the certificate carries no statement of the claim it is filed under")
    st = ClaimStatement.from_json(raw)
    out = Binding(st)
    if claim is not None and not files_under(st.claim, claim):
        out.failures.append(f"its statement is that of claim {st.claim[:60]!r}, but it is filed under {claim}")
        return out
    if not st.bound:
        out.unbound = st.unbound
        return out
    kind = d.get("kind")
    params, variables = list(d.get("parameters", ())), list(d.get("variables", ()))
    clash = sorted(set(st.parameters) & set(st.variables))
    if clash:
        out.failures.append(f"the statement quantifies {', '.join(clash)} both as parameters and as variables")
    for what, mine, theirs in (("parameter", params, st.parameters), ("variable", variables, st.variables)):
        stray = sorted(set(mine) - set(theirs))
        if stray:
            out.failures.append(f"the certificate's {what}(s) {', '.join(stray)} are not the statement's "
                                f"{what}s ({', '.join(theirs) or 'none'})")
    if kind not in BOUND_KINDS:
        out.unbound = f"binding a statement to a {kind} certificate is not implemented"
        return out
    if out.failures:
        return out
    ints = size_names(st.sizes)
    syms = {n: sympy.Symbol(n, integer=True) if n in ints else sympy.Symbol(n, real=True)
            for n in (*st.parameters, *st.variables)}
    functions = dict(CERTIFICATE_FUNCTIONS)
    functions.update({f: (sympy.Function(f), None) for f in d.get("functions", ()) or ()})
    definitions = [(str(n), txt) for n, txt in d.get("definitions", ()) or ()]
    for n, _ in definitions:  # a linear combination's abbreviations: substituted in every text read here
        if n in syms or not n.isidentifier():
            out.failures.append(f"the definition name {n[:40]!r} is a parameter, a variable or not a name")
            return out
        syms[n] = sympy.Symbol(n, real=True)
    subs: dict = {}

    def read(text, what: str, relation: bool = False):
        if not isinstance(text, str):
            raise ParameterError(f"{st.claim}: {what} must be a string")
        sides = text.split(" == ")
        if relation and len(sides) == 2:  # an identity: the reader's grammar has inequalities only
            return sympy.Eq(read(sides[0], f"{what} (left side)"), read(sides[1], f"{what} (right side)"),
                            evaluate=False)
        e = read_expression(text, name=f"statement of {st.claim}: {what}", symbols=syms, functions=functions,
                            relations=relation).xreplace(subs)
        if carry_out is None:
            return e
        if not relation:
            return carry_out(e)
        return e.func(*[r.func(carry_out(r.lhs), carry_out(r.rhs), evaluate=False) for r in e.args]) if isinstance(
            e, sympy.And) else e.func(carry_out(e.lhs), carry_out(e.rhs), evaluate=False) if isinstance(
            e, sympy.core.relational.Relational) else e

    for n, txt in definitions:
        subs[syms[n]] = read(txt, f"definition of {n}")
    for i, text in enumerate(st.domain):
        rel = read(text, f"domain[{i}]", True)
        out.domain += _relations(rel)
    bad = [r for r in out.domain if r.free_symbols - {syms[p] for p in st.parameters}]
    if bad:
        out.failures.append(f"the domain condition {bad[0]} involves a name that is not a parameter")
        return out
    # the certificate's region and sign assumptions must hold on the stated domain
    for i, text in enumerate(d.get("region", ())):
        for rel in _relations(read(text, f"the certificate's region[{i}]", True)):
            out.holds.append((f"region condition {rel} on the stated domain", rel))
    for name, assumed in d.get("assumptions", ()):
        for a in (x.strip() for x in str(assumed).split(",")):
            if a in _SIGN_RELATIONS and name in syms:
                out.holds.append((f"the assumption {name} {a} on the stated domain",
                                  _SIGN_RELATIONS[a](syms[name], 0, evaluate=False)))
    conclusions = []
    for i, text in enumerate(st.conclusions):
        rel_text, _, when = text.partition(WHEN)
        conds = [r for j, c in enumerate(when.split(";") if when else ())
                 for r in _relations(read(c.strip(), f"conclusion[{i}] condition {j}", True))]
        conclusions.append((text, _relations(read(rel_text, f"conclusion[{i}]", True)), conds))
    if kind == "linear-combination":
        _bind_linear_combination(d, st, read, conclusions, out)
    elif kind == "split-tree":  # proves Min(arguments) - objective >= 0 under its constraints: a combination's form
        _bind_linear_combination({**d, "conclusion": split_tree_conclusion(d)}, st, read, conclusions, out)
    elif kind in ("parametric-lp", "lp-point"):
        _bind_lp(d, st, read, conclusions, out)
    else:
        _bind_statements(d, read, conclusions, out)
    stated = set(out.domain)
    out.steps += [f"{what}: a condition of the stated domain" for what, rel in out.holds if rel in stated]
    out.holds = [(what, rel) for what, rel in out.holds if rel not in stated]
    return out


def _bind_linear_combination(d: dict, st: ClaimStatement, read, conclusions, out: Binding) -> None:
    hyps = []
    for i, text in enumerate(st.hypotheses):
        for rel in _relations(read(text, f"hypothesis[{i}]", True)):
            form = _nonnegative_form(rel)
            if form is not None:
                hyps.append(form[0])
    for lab, g_text in d.get("constraints", ()):
        g = read(g_text, f"constraint {lab}")
        if not any(_zero(g - e) for e in hyps):
            out.failures.append(f"the constraint {str(lab)[:60]!r} ({g_text} >= 0) is not a hypothesis of the "
                                f"statement")
    if out.failures:
        return
    out.steps.append(f"every one of the {len(d.get('constraints', ()))} constraints is a hypothesis of the statement")
    h = read(d.get("conclusion", ""), "the certificate's conclusion")
    variables = {s for s in h.free_symbols if s.name in set(st.variables)}
    for text, rels, when in conclusions:
        if when:
            out.failures.append(f"the conclusion {text!r} has conditions: a linear combination proves h >= 0 under "
                                f"its hypotheses, which state them")
            continue
        for rel in rels:
            form = _nonnegative_form(rel)
            if form is None or form[1]:
                out.failures.append(f"the conclusion {text!r} is not of the form s >= 0 that h >= 0 implies")
                continue
            diff = sympy.cancel(sympy.together(form[0] - h))
            if diff.free_symbols & (variables | {s for s in diff.free_symbols if s.name in set(st.variables)}):
                out.failures.append(f"the conclusion {text!r} is not the certificate's {d.get('conclusion')} >= 0 "
                                    f"plus a term in the parameters: the difference is {diff}")
            elif diff == 0:
                out.steps.append(f"the conclusion {text} is the certificate's {d.get('conclusion')} >= 0")
            else:
                out.holds.append((f"the conclusion {text}: its difference {diff} to the certificate's conclusion "
                                  f"is >= 0 on the stated domain", sympy.GreaterThan(diff, 0, evaluate=False)))


def _bind_statements(d: dict, read, conclusions, out: Binding) -> None:
    certified = []
    for st in d.get("statements", ()):
        label, lt, op, rt, conds = st
        lhs, rhs = read(lt, f"{label} lhs"), read(rt, f"{label} rhs")
        extra = [r for i, c in enumerate(conds) for r in _relations(read(c, f"{label} condition {i}", True))]
        certified.append((label, op, lhs, rhs, extra))
    for text, rels, when in conclusions:
        for rel in rels:
            match = _certified_match(rel, [c for c in certified if set(c[4]) <= set(when)]) or _certified_match(
                rel, certified)
            if match is None:
                out.failures.append(f"the conclusion {text!r} is none of the certificate's statements")
                continue
            label, obligation, extra = match
            if when and obligation is not None:
                out.failures.append(f"the conclusion {text!r} is conditional but not the statement {label!r} itself")
                continue
            out.steps.append(f"the conclusion {text} follows from the certified statement {label!r}")
            stated = set(when)
            out.steps += [f"the condition {c} of {label!r} is a condition of the conclusion" for c in extra
                          if c in stated]
            out.holds += [(f"the condition {c} of {label!r} on the stated domain", c) for c in extra
                          if c not in stated]
            if obligation is not None:
                out.holds.append((f"the conclusion {text} from {label!r}: {obligation} on the stated domain",
                                  obligation))


def _bind_lp(d: dict, st: ClaimStatement, read, conclusions, out: Binding) -> None:
    """A ``parametric-lp`` (``lp-point``) certificate proves that c·x + offset ≤ value_k(p) for every x ≥ 0 with
    A_ub x ≤ b_ub, A_eq x = b_eq, at every point p of its domain D in region R_k (at its point), and its data check
    shows that the regions cover D.  The statement's variables name the LP's columns in order; every constraint
    of the LP must be one of its hypotheses; a stated s ≥ 0 (``when`` C) then follows when s + c·x + offset = G is
    free of the variables and G − value_k ≥ 0 on the stated domain (and C) in region R_k — for the one region whose
    conditions are all among C, else for every region (the regions cover D, which contains the stated domain)."""
    kind = d.get("kind")
    cols = list(st.variables)
    n = len(d.get("c", ()))
    if len(cols) != n:
        out.failures.append(f"the statement's variables ({', '.join(cols) or 'none'}) do not name the LP's {n} "
                            f"columns")
        return
    x = [read(v, f"variable {v}") for v in cols]
    point: dict = {}
    if kind == "lp-point":
        for name, v in d.get("point", ()):
            p, value = read(name, f"the point's {name}"), read(v, f"the point's value of {name}")
            if not isinstance(p, sympy.Symbol):
                out.failures.append(f"the point names {str(name)[:40]!r}, not a parameter")
                return
            point[p] = value
            out.holds += [(f"the certificate's point {name} = {v}: the stated domain is that point ({op})",
                           rel(p, value, evaluate=False)) for op, rel in ((">=", sympy.GreaterThan),
                                                                          ("<=", sympy.LessThan))]

    def at(e):
        return e.xreplace(point) if point else e

    def row(v, what):
        return [read(a, f"the LP's {what}") for a in v]

    ineqs, eqs = [], []
    for i, text in enumerate(st.hypotheses):
        for rel in _relations(read(text, f"hypothesis[{i}]", True)):
            form = _nonnegative_form(rel)
            if form is not None:
                ineqs.append(at(form[0]))
            elif isinstance(rel, sympy.Eq):
                eqs.append(at(rel.lhs - rel.rhs))

    def dot(r, v):
        return sympy.Add(*[a * b for a, b in zip(r, v)])

    lp = [(f"row {i} of A_ub x <= b_ub", read(b, "b_ub") - dot(row(r, "A_ub"), x), ineqs)
          for i, (r, b) in enumerate(zip(d.get("A_ub", ()), d.get("b_ub", ())))]
    lp += [(f"{v} >= 0", xj, ineqs) for v, xj in zip(cols, x)]
    lp += [(f"row {i} of A_eq x = b_eq", dot(row(r, "A_eq"), x) - read(b, "b_eq"), eqs)
           for i, (r, b) in enumerate(zip(d.get("A_eq", ()), d.get("b_eq", ())))]
    for what, g, stated in lp:
        if not any(_zero(g - e) or (stated is eqs and _zero(g + e)) for e in stated):
            out.failures.append(f"the LP constraint {what} ({g} {'==' if stated is eqs else '>='} 0) is not a "
                                f"hypothesis of the statement")
    if out.failures:
        return
    out.steps.append(f"the statement's variables {', '.join(cols)} are the LP's columns, and every one of its "
                     f"{len(lp)} constraints is a hypothesis of the statement")
    h = dot(row(d.get("c", ()), "c"), x) + read(d.get("offset", "0") or "0", "offset")
    regions: list[tuple[tuple, Any]]
    if kind == "lp-point":
        regions = [((), read(d.get("value", ""), "the LP's value"))]
    else:
        regions = [(tuple(r for j, c in enumerate(conds) for r in _relations(read(c, f"region {k} condition {j}",
                                                                                  True))),
                    read(v, f"region {k} value"))
                   for k, (conds, v) in enumerate(zip(d.get("region_conditions_", ()), d.get("region_value", ())))]
        out.steps.append(f"the {len(regions)} regions cover the certificate's domain (its split tree, checked with "
                         f"its data), which contains the stated domain (its region conditions, below)")
    names = set(x)
    for text, rels, when in conclusions:
        for rel in rels:
            form = _nonnegative_form(rel)
            if form is None or form[1]:
                out.failures.append(f"the conclusion {text!r} is not of the form s >= 0 that an LP optimum implies")
                continue
            G = sympy.cancel(sympy.together(at(form[0]) + h)) if not form[0].has(sympy.Max, sympy.Min, sympy.Abs) \
                else at(form[0]) + h
            if G.free_symbols & names:
                out.failures.append(f"the conclusion {text!r} is not the LP's objective {h} bounded by a term in the "
                                    f"parameters")
                continue
            own = [k for k, (conds, _) in enumerate(regions) if conds and set(conds) <= set(when)]
            for k in (own[:1] or range(len(regions))):
                conds, value = regions[k]
                diff = G - value
                where = "" if kind == "lp-point" else f" in region {k}"
                if _zero(diff):
                    out.steps.append(f"the conclusion {text}{where}: the LP's optimum there")
                    continue
                extra = [r for r in conds if r not in set(when)]
                out.cases.append((f"the conclusion {text}{where}: {G} >= the LP's optimum {value} on the stated "
                                  f"domain", sympy.GreaterThan(diff, 0, evaluate=False), [*when, *extra]))


def _certified_match(rel, certified):
    """(label, remaining relation or None, conditions to hold) of the certified statement implying ``rel``.

    The first certified statement whose difference to ``rel`` cancels to 0 implies it outright; otherwise the
    one leaving the simplest difference, which must then hold on the stated domain.  A difference shown non-zero
    at one rational point (:func:`_nonzero_somewhere`) cannot cancel to 0, so such candidates skip the
    cancellation until no candidate cancels (the answer is the same as cancelling each in turn)."""
    if isinstance(rel, sympy.Eq):  # the same two sides (either way round): a difference alone is 0 for every identity
        for label, op, lhs, rhs, extra in certified:
            if op == "==" and any(_zero(rel.lhs - x) and _zero(rel.rhs - y) for x, y in ((lhs, rhs), (rhs, lhs))):
                return label, None, extra
        return None
    form = _nonnegative_form(rel)
    if form is None:
        return None
    s, strict = form
    candidates = []
    for label, op, lhs, rhs, extra in certified:
        if op == "==":
            continue
        h, h_strict = _nonnegative_form({"<=": sympy.LessThan, "<": sympy.StrictLessThan, ">=": sympy.GreaterThan,
                                         ">": sympy.StrictGreaterThan}[op](lhs, rhs, evaluate=False))
        candidates.append((label, s - h, h_strict, extra))
    for label, raw, h_strict, extra in candidates:
        if (h_strict or not strict) and not _nonzero_somewhere(raw) and _canceled(raw) == 0:
            return label, None, extra
    best = None
    for label, raw, h_strict, extra in candidates:
        diff = _canceled(raw)
        need = (sympy.StrictGreaterThan if strict and not h_strict else sympy.GreaterThan)(diff, 0, evaluate=False)
        if best is None or sympy.count_ops(diff) < best[0]:
            best = (sympy.count_ops(diff), (label, need, extra))
    return best[1] if best is not None else None


#: the values given to the free names (in name order) by :func:`_nonzero_somewhere`: distinct, unlikely poles of
#: the rational functions certificates hold (an integer name gets the numerator)
_PROBE = tuple(sympy.Rational(p, q) for p, q in ((37, 11), (53, 13), (71, 17), (89, 19), (107, 23), (131, 29),
                                                 (149, 31), (173, 37), (197, 41), (223, 43)))


def _nonzero_somewhere(e) -> bool:
    """True when ``e`` evaluates to a non-zero rational at one rational point (so it is not identically 0);
    False when that is not shown (0 there, a pole, an irrational value or more names than probe values)."""
    names = sorted(e.free_symbols, key=str)
    if len(names) > len(_PROBE):
        return False
    v = e.xreplace({n: sympy.Integer(p.p) if n.is_integer else p for n, p in zip(names, _PROBE)})
    return isinstance(v, sympy.Rational) and v != 0


__all__ = ["BOUND_KINDS", "Binding", "CERTIFICATE_FUNCTIONS", "ClaimStatement", "LEMMA_PREFIX", "NAME_WIDTH", "NOT_BOUND", "STEP_PREFIX",
           "binding", "certificate_name", "filed_domain", "files_under", "independent_parts", "is_lemma", "is_step",
           "lp_statement", "names_in", "restates", "restating", "step_of"]
