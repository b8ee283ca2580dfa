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
    is trivial.  A claim's statement must be written from the paper, not so (tests/proofs/test_statements.py).  An
    ``instantiation`` has no relations of its own: a copy is then its source statement's conclusions, unchanged; a
    ``cases`` join repeats its statement's hypotheses and conclusions by construction (its parts carry the
    relations), so it restates nothing."""
    if d.get("kind") == "instantiation":
        raw = d.get("source_statement")
        return bool(st.conclusions) and isinstance(raw, dict) and list(st.conclusions) == list(raw.get("conclusions", ()))
    if d.get("kind") == "cases":
        return False
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
BOUND_KINDS = ("linear-combination", "symbolic-statements", "parametric-lp", "lp-point", "split-tree", "instantiation",
               "cases")


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
    if kind == "instantiation":
        raw = d.get("source_statement")
        src: dict = raw if isinstance(raw, dict) else {}
        at = ", ".join(f"{p[0]} = {p[1]}" for p in d.get("substitution", ()) if isinstance(p, (list, tuple))
                       and len(p) == 2)
        return f"{' and '.join(map(str, src.get('conclusions', ())))} at {at}"
    if kind == "cases":
        cases = ", ".join(_case_text(str(d.get("size", "")), p) for p in d.get("parts", ()))
        return f"{' and '.join(map(str, d.get('conclusions', ())))} by the cases {cases}"
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
    elif kind in ("instantiation", "cases"):
        _bind_derived(d, st, read, conclusions, out, syms, functions)
    else:
        _bind_statements(d, read, conclusions, out)
    stated = set(out.domain)
    out.steps += [f"{what}: a condition of the stated domain" for what, rel in out.holds if rel in stated]
    out.holds = [(what, rel) for what, rel in out.holds if rel not in stated]
    return out


def _stated_hypotheses(st: ClaimStatement, read) -> list:
    """The statement's hypotheses that are inequalities, each as g where it reads g >= 0 (or g > 0)."""
    hyps = []
    for i, text in enumerate(st.hypotheses):
        for rel in _relations(read(text, f"hypothesis[{i}]", True)):
            form = _nonnegative_form(rel)
            if form is not None:
                hyps.append(form[0])
    return hyps


def _bind_linear_combination(d: dict, st: ClaimStatement, read, conclusions, out: Binding) -> None:
    hyps = _stated_hypotheses(st, read)
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


# -- chains of statements: an instance of a statement, a statement by cases -------------------------------------

def normal_form(e):
    """``e`` with every maximal part free of Max, Min and Abs cancelled (``cancel(together(.))``), the sums' and
    products' such parts gathered first: the same function, in a form where two expressions that agree term by
    term (a Min's arguments, a Max's, the factors and terms around them) are the same object.  Used to compare a
    substituted statement with a stated one (:func:`same_value`): N·c/c written N, (t − 1)/(t(1 − Nc) + 1) and
    (t − 1)/(−Nct + t + 1) alike."""
    pieces = (sympy.Max, sympy.Min, sympy.Abs)
    if not e.has(*pieces):
        return _canceled(e)
    if isinstance(e, (sympy.Add, sympy.Mul)):
        plain = [x for x in e.args if not x.has(*pieces)]
        rest = [normal_form(x) for x in e.args if x.has(*pieces)]
        return e.func(*([_canceled(e.func(*plain))] if plain else []), *rest)
    return e.func(*[normal_form(x) for x in e.args]) if e.args else e


def same_value(e1, e2) -> bool:
    """Whether ``e1`` and ``e2`` are the same expression after :func:`normal_form` (exact; False says only that
    this comparison does not show it)."""
    return normal_form(e1 - e2) == 0


def _case_text(size: str, part) -> str:
    if not isinstance(part, (list, tuple)) or len(part) != 3:
        return "?"
    _, lo, hi = part
    return f"{size} = {lo}" if lo == hi else f"{size} >= {lo}" + (f", {size} <= {hi}" if hi else "")


def _statement_symbols(st: ClaimStatement, syms: dict) -> dict:
    """name -> symbol for a copied statement's parameters and variables: ``syms``' own where it has the name (the
    certificate's, or the binding's), else a real symbol (an integer one for a name among its sizes)."""
    ints = size_names(st.sizes)
    return {n: syms.get(n) or (sympy.Symbol(n, integer=True) if n in ints else sympy.Symbol(n, real=True))
            for n in (*st.parameters, *st.variables)}


def _read_statement(st: ClaimStatement, syms: dict, functions: dict, what: str, conditional: list | None = None,
                    equations: list | None = None):
    """(domain relations, hypotheses as g (g >= 0), conclusions as (s, strict) (s >= 0 or s > 0)) of a copied
    statement, read with :func:`_statement_symbols`.  Raises ParameterError for a conclusion with conditions, an
    equation or a hypothesis that is not an inequality (not what a chain carries) — but with a list
    ``conditional`` (an instantiation's source), each inequality conclusion "s >= 0 when C1; ...; Ck" is appended
    to it as (s, strict, [C1, ..., Ck]), and each equation "l == r (when C...)" to ``equations`` as (l - r, [C...])
    — but one through a recorded substitution or limit (Subs, Limit) is left out (the instance then carries fewer
    conclusions than its source: a weakening, so sound)."""
    own = _statement_symbols(st, syms)

    def rd(text, k):
        if not isinstance(text, str) or " == " in text:
            raise ParameterError(f"{what}: {k} {str(text)[:60]!r} is not an inequality")
        return read_expression(text, name=f"{what}: {k}", symbols=own, functions=functions, relations=True)

    domain = [r for i, x in enumerate(st.domain) for r in _relations(rd(x, f"domain[{i}]"))]
    hyps, concl = [], []
    for i, x in enumerate(st.hypotheses):
        for r in _relations(rd(x, f"hypothesis[{i}]")):
            form = _nonnegative_form(r)
            if form is None or form[1]:
                raise ParameterError(f"{what}: hypothesis[{i}] {x[:60]!r} is not of the form g >= 0")
            hyps.append(form[0])
    for i, x in enumerate(st.conclusions):
        if WHEN in x and conditional is None:
            raise ParameterError(f"{what}: conclusion[{i}] has conditions")
        rel_text, _, when = x.partition(WHEN)
        conds = [r for j, c in enumerate(when.split(";") if when else ())
                 for r in _relations(rd(c.strip(), f"conclusion[{i}] condition {j}"))]
        if conditional is not None and " == " in rel_text:
            if equations is not None and "Subs(" not in rel_text and "Limit(" not in rel_text:
                sides = rel_text.split(" == ")  # an identity: the reader's grammar has inequalities only
                if len(sides) != 2:
                    raise ParameterError(f"{what}: conclusion[{i}] {x[:60]!r} is not one equation")
                lhs, rhs = (read_expression(t, name=f"{what}: conclusion[{i}]", symbols=own, functions=functions)
                            for t in sides)
                equations.append((lhs - rhs, conds))
            continue
        for r in _relations(rd(rel_text, f"conclusion[{i}]")):
            form = _nonnegative_form(r)
            if form is None:
                raise ParameterError(f"{what}: conclusion[{i}] {x[:60]!r} is not an inequality")
            if when and conditional is not None:
                conditional.append((*form, conds))
            else:
                concl.append(form)
    return domain, hyps, concl


@dataclass
class Chain:
    """What an ``instantiation`` or a ``cases`` certificate (JSON ``d``) reduces to (:func:`chain_of`), in the
    symbols the caller gave: ``failures`` (structural, decided exactly here), ``obligations`` — (what, relation,
    conditions) each to be decided true wherever the conditions hold (by each checker's own procedure) —, the
    hypotheses g (g >= 0) and conclusions (s, strict) the certificate proves on its region, ``conditional``: the
    conclusions (s, strict, conditions) it proves where the conditions hold (an instantiation of a source whose
    conclusions carry "when" conditions: substituted too), ``equations``: the (e, conditions) with e = 0 proved there
    (an instantiation's), and ``cites``: the (name, statement JSON) of each
    certificate it rests on, which must be in the same proof with exactly that statement."""

    failures: list = field(default_factory=list)
    obligations: list = field(default_factory=list)
    hypotheses: list = field(default_factory=list)
    conclusions: list = field(default_factory=list)
    cites: list = field(default_factory=list)
    steps: list = field(default_factory=list)
    conditional: list = field(default_factory=list)
    equations: list = field(default_factory=list)


def cites_of(d: Any) -> list[tuple[str, Any]]:
    """The (name, statement JSON, normalised) of each certificate an ``instantiation`` (its ``source``) or ``cases``
    (its ``parts``) certificate — JSON ``d`` — rests on: the :attr:`Chain.cites` of :func:`chain_of`, read without
    the rest of the chain, so a checker of a whole folder (``recheck --smt``) can check them per claim.  Raises
    ParameterError on a copied statement of another shape (the certificate is then malformed)."""
    if not isinstance(d, dict):
        return []
    if d.get("kind") == "instantiation":
        return [(str(d.get("source", "")), ClaimStatement.from_json(d.get("source_statement")).to_json())]
    if d.get("kind") == "cases":
        return [(str(part[0] if isinstance(part, (list, tuple)) and part else part),
                 ClaimStatement.from_json(raw).to_json())
                for part, raw in zip(d.get("parts", ()), d.get("part_statements", ()))]
    return []


def chain_of(d: dict, syms: dict, functions: dict, region: list) -> Chain:
    """Reduce an ``instantiation`` or ``cases`` certificate's data (JSON ``d``; ``syms`` its parameters' and
    variables' symbols, ``region`` its region's relations in them) to a :class:`Chain`.

    **instantiation** (data: ``source``, ``source_statement`` S, ``substitution`` σ = [(x, v)], the variables):
    S says "for every p of D_S and every v with g(v, p) ≥ 0: s(v, p) ≥ 0".  With σ replacing each of S's
    parameters x that is not one of the certificate's by a polynomial v in the certificate's parameters (so defined
    everywhere: u ↦ N·c, v ↦ N − l), every condition of
    σ(D_S) must hold on the region (obligations: the region lies in the image's preimage); then for every point
    q of the region and every v with σ(g)(v, q) ≥ 0, σ(s)(v, q) ≥ 0 — the hypotheses and conclusions proved.
    The sizes are S's.  σ may also replace variables of S (not a size) by polynomials in the certificate's
    parameters and variables (α ↦ c·q): S's other variables must be the certificate's, and σ(g) — now in the
    certificate's variables — is a hypothesis proved under, which the bound statement must state exactly
    (:func:`_bind_derived`; :mod:`exactdp.algebra.certificates.instantiation` gives the rule).

    **cases** (data: ``size`` n — one of the sizes, an integer —, ``parts`` [(name, lo, hi)] with the copied
    ``part_statements``, ``hypotheses`` and ``conclusions``): each part proves the data's statement on the
    region with n = lo (lo = hi: its statement at that integer, n substituted) or lo ≤ n (≤ hi): its domain
    conditions hold on the region and the case (obligations), each of its hypotheses is one of the data's (at
    n = lo for a point part; exact), and each of the data's conclusions is one of its (:func:`same_value`).  The
    integers: the cases, ordered, are consecutive integer ranges (hi + 1 = the next lo, exact integer arithmetic:
    integer n ≥ 2, n ≠ 2 gives n ≥ 3 only because n is an integer), the last unbounded, and the region gives
    n ≥ the first lo (an obligation); n is a size, so an integer, and every integer n ≥ the first lo is in one
    case.  A decision over the reals could not see this step."""
    out = Chain(cites=cites_of(d))
    kind = d.get("kind")
    variables = [syms[v] for v in d.get("variables", ()) if v in syms]
    if kind == "instantiation":
        raw = d.get("source_statement")
        st = ClaimStatement.from_json(raw)
        if not st.bound:
            out.failures.append("the source statement is not in machine form")
            return out
        if st.sizes != d.get("sizes", ""):
            out.failures.append(f"the source's sizes {st.sizes!r} are not the certificate's {d.get('sizes')!r}")
        params, cert_vars = set(d.get("parameters", ())), set(d.get("variables", ()))
        sigma_names = [str(p[0]) for p in d.get("substitution", ())]
        kept = [v for v in st.variables if v not in sigma_names]
        lost = [v for v in kept if v not in cert_vars]
        if lost:
            out.failures.append(f"the source's variable(s) {', '.join(lost)} are neither substituted nor the "
                                f"certificate's")
        own = _statement_symbols(st, syms)
        bad = [n for n in sigma_names if (n not in st.parameters and n not in st.variables) or n in params
               or n in cert_vars or (n in st.variables and n in size_names(st.sizes))] + [
            n for n in st.parameters if n not in params and n not in sigma_names]
        if bad or len(set(sigma_names)) != len(sigma_names):
            out.failures.append(f"the substitution must replace exactly the source's parameters that are not the "
                                f"certificate's, and may replace its variables (not a size), by names that are not "
                                f"the certificate's ({', '.join(sorted(set(bad))) or 'a name twice'})")
        if out.failures:
            return out
        sigma = {own[n]: read_expression(str(v), name=f"substitution of {n}", symbols=syms, functions=functions)
                 for n, v in d.get("substitution", ())}
        for n, v in d.get("substitution", ()):
            image = sigma[own[n]]
            if n in st.variables:  # a variable's image: a polynomial in the parameters and variables (defined)
                names = {syms[p] for p in (*params, *cert_vars)}
                if image.free_symbols - names or not image.is_polynomial(*image.free_symbols):
                    out.failures.append(f"the substitution of the variable {n} by {v} is not a polynomial in the "
                                        f"certificate's parameters and variables")
                    return out
                continue
            stray = image.free_symbols - {syms[p] for p in params}
            if stray:
                out.failures.append(f"the substitution uses {', '.join(sorted(map(str, stray)))}, not parameters")
                return out
            if not image.is_polynomial(*image.free_symbols):  # a pole would leave the target undefined somewhere
                out.failures.append(f"the substitution of the parameter {n} by {v} is not a polynomial in the "
                                    f"certificate's parameters")
                return out
        conditional: list = []
        equations: list = []
        domain, hyps, concl = _read_statement(st, syms, functions, "the source statement", conditional, equations)
        for rel in domain:
            image = rel.xreplace(sigma)
            if image is sympy.true:
                continue
            if image is sympy.false:
                out.failures.append(f"the source's domain condition {rel} is false at {_at(sigma)}")
                return out
            out.obligations.append((f"the source's domain condition {rel} at {_at(sigma)}: {image} on the region",
                                    image, list(region)))
        out.hypotheses = [g.xreplace(sigma) for g in hyps]
        out.conclusions = [(s.xreplace(sigma), strict) for s, strict in concl]
        for s, *form, conds in conditional + equations:  # a condition true at sigma is dropped; one false: nothing
            image = [c.xreplace(sigma) for c in conds]
            if sympy.false not in image:
                (out.conditional if form else out.equations).append(
                    (s.xreplace(sigma), *form, [c for c in image if c is not sympy.true]))
        out.steps.append(f"the source statement at {_at(sigma)}: {len(out.hypotheses)} hypotheses, "
                         f"{len(out.conclusions)} conclusion(s)"
                         + (f", {len(out.conditional)} under conditions" if out.conditional else "")
                         + (f", {len(out.equations)} equation(s)" if out.equations else ""))
        return out
    # cases
    size = str(d.get("size", ""))
    if size not in size_names(d.get("sizes", "")) or size not in syms or size not in d.get("parameters", ()):
        out.failures.append(f"the size {size!r} split into cases is not a parameter among the sizes {d.get('sizes')!r}"
                            f" (an integer)")
        return out
    n = syms[size]
    read = lambda text, what: read_expression(text, name=what, symbols=syms, functions=functions,  # noqa: E731
                                              relations=True)
    hyps = []
    for i, x in enumerate(d.get("hypotheses", ())):
        for r in _relations(read(x, f"hypothesis[{i}]")):
            form = _nonnegative_form(r)
            if form is None or form[1]:
                out.failures.append(f"hypothesis[{i}] is not of the form g >= 0")
                return out
            hyps.append(form[0])
    concl = []
    for i, x in enumerate(d.get("conclusions", ())):
        for r in _relations(read(x, f"conclusion[{i}]")):
            form = _nonnegative_form(r)
            if form is None:
                out.failures.append(f"conclusion[{i}] is not an inequality")
                return out
            concl.append(form)
    out.hypotheses, out.conclusions = hyps, concl
    parts, statements = list(d.get("parts", ())), list(d.get("part_statements", ()))
    if not parts or len(parts) != len(statements):
        out.failures.append("no part, or not one copied statement per part")
        return out
    ranges = []
    for k, (part, raw) in enumerate(zip(parts, statements)):
        name, lo, hi = part
        if not re.fullmatch(r"-?\d+", str(lo)) or not (hi == "" or re.fullmatch(r"-?\d+", str(hi))) or (
                hi != "" and int(hi) < int(lo)):
            out.failures.append(f"part {k}: the case {lo!r}..{hi!r} is not an integer range")
            return out
        st = ClaimStatement.from_json(raw)
        if not st.bound:
            out.failures.append(f"part {k}: its statement is not in machine form")
            return out
        point = lo == hi
        case = f"{size} = {lo}" if point else _case_text(size, part)
        if st.sizes != (f"{size} = {lo}" if point else d.get("sizes", "")):
            out.failures.append(f"part {k} ({case}): its sizes {st.sizes!r} are not those of the case")
        extra = sorted(set(st.parameters) - set(d.get("parameters", ())))
        if extra or sorted(st.variables) != sorted(d.get("variables", ())):
            out.failures.append(f"part {k} ({case}): its parameters or variables are not the certificate's")
        if out.failures:
            return out
        sigma = {n: sympy.Integer(int(lo))} if point else {}
        where = [r.xreplace(sigma) for r in region] if point else [
            *region, sympy.GreaterThan(n, int(lo)), *([sympy.LessThan(n, int(hi))] if hi else [])]
        where = [r for r in where if r is not sympy.true]
        if any(r is sympy.false for r in where):
            out.failures.append(f"part {k} ({case}): the region has no point with {case}")
            return out
        domain, p_hyps, p_concl = _read_statement(st, syms, functions, f"part {k}'s statement")
        for rel in domain:
            out.obligations.append((f"part {k} ({case}): its domain condition {rel} on the region with {case}", rel,
                                    where))
        mine = [g.xreplace(sigma) for g in hyps]
        for g in p_hyps:
            if not any(_zero(g - e) for e in mine):
                out.failures.append(f"part {k} ({case}): its hypothesis {g} >= 0 is not one of the certificate's"
                                    f"{' at ' + case if point else ''}")
                return out
        for s, strict in concl:
            s = s.xreplace(sigma)
            if not any(ps_strict >= strict and same_value(s, ps) for ps, ps_strict in p_concl):
                out.failures.append(f"part {k} ({case}): the conclusion {s} {'>' if strict else '>='} 0 is not one "
                                    f"of its")
                return out
        out.steps.append(f"part {k} ({case}): its hypotheses are the certificate's, its conclusions include the "
                         f"certificate's{' at ' + case if point else ''}")
        ranges.append((int(lo), int(hi) if hi != "" else None, k))
    ranges.sort()
    for (lo1, hi1, k1), (lo2, _, k2) in zip(ranges, ranges[1:]):
        if hi1 is None or hi1 + 1 != lo2:
            out.failures.append(f"the cases of parts {k1} and {k2} are not consecutive integer ranges "
                                f"({hi1} + 1 != {lo2}): an integer {size} may fall between them")
            return out
    if ranges[-1][1] is not None:
        out.failures.append(f"the last case is bounded ({size} <= {ranges[-1][1]}): larger {size} are not covered")
        return out
    first = ranges[0][0]
    out.obligations.append((f"the region gives {size} >= {first}", sympy.GreaterThan(n, first), list(region)))
    out.steps.append(f"the cases {', '.join(_case_text(size, parts[k]) for _, _, k in ranges)} are consecutive "
                     f"integer ranges from {first} on, the last unbounded: with {size} an integer (a size) >= {first}, "
                     f"every point of the region is in one")
    return out


def _at(sigma: dict) -> str:
    return ", ".join(f"{k} = {v}" for k, v in sigma.items())


def _bind_derived(d: dict, st: ClaimStatement, read, conclusions, out: Binding, syms: dict, functions: dict) -> None:
    """An ``instantiation`` or ``cases`` certificate proves, on its region, its derived hypotheses ⇒ conclusions
    (:func:`chain_of`, read here with the statement's symbols — an integer size stays an integer): every derived
    hypothesis must be one of the stated ones (exact) and every stated conclusion one of the derived ones
    (:func:`same_value`, no stronger)."""
    ch = chain_of(d, syms, functions, [])
    if ch.failures:
        out.failures += ch.failures
        return
    stated = _stated_hypotheses(st, read)
    for g in ch.hypotheses:
        if not any(_zero(g - e) for e in stated):
            out.failures.append(f"the derived hypothesis {g} >= 0 is not a hypothesis of the statement")
            return
    out.steps.append(f"every one of the {len(ch.hypotheses)} derived hypotheses is a hypothesis of the statement")
    derived = [(s, strict, []) for s, strict in ch.conclusions] + ch.conditional
    for text, rels, when in conclusions:
        for rel in rels:
            form = _nonnegative_form(rel)
            if isinstance(rel, sympy.Eq):  # e = 0 derived gives lhs == rhs when lhs - rhs is e or -e, exactly
                e = rel.lhs - rel.rhs
                found = [conds for x, conds in ch.equations if _zero(e - x) or _zero(e + x)]
            else:
                found = [conds for s, strict, conds in derived if form is not None and strict >= form[1]
                         and same_value(form[0], s)]
            if not found:
                out.failures.append(f"the conclusion {text!r} is not one the certificate derives (term by term)")
                continue
            # the derived conclusion holds where its (substituted) conditions do: each is one of the stated
            # conditions (exact) or must follow from them on the stated domain (decided, as a case)
            conds = min(found, key=lambda cs: sum(not any(_same_relation(c, w) for w in when) for c in cs))
            out.steps.append(f"the conclusion {text} is the derived one, term by term")
            for c in conds:
                if any(_same_relation(c, w) for w in when):
                    out.steps.append(f"its derived condition {c} is a stated condition")
                else:
                    out.cases.append((f"the conclusion {text}: its derived condition {c} under the stated conditions",
                                      c, list(when)))


def _same_relation(a, b) -> bool:
    """Whether the relations ``a`` and ``b`` are the same condition: the same g >= 0 (or g > 0) up to an exact
    cancellation, or the same relation."""
    fa, fb = _nonnegative_form(a), _nonnegative_form(b)
    if fa is None or fb is None:
        return bool(a == b)
    return fa[1] == fb[1] and _zero(fa[0] - fb[0])


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
           "binding", "certificate_name", "cites_of", "filed_domain", "files_under", "independent_parts", "is_lemma", "is_step",
           "lp_statement", "names_in", "restates", "restating", "step_of"]
