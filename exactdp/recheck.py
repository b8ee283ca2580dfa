r"""An independent re-check of exported certificates (``exactdp recheck DIR``).

``exactdp verify --certificates DIR`` writes every certificate behind a verdict as JSON
(:mod:`exactdp.verification.export`).  This module re-checks those files through a code path that shares
**nothing** with exactdp's solver and prover — it imports only the safe text reader
(:mod:`exactdp.numbers.reader`, so file text stays data), the limits and the errors (the import-linter layer
contract keeps it in the bottom layer, so it cannot reach ``exactdp.algebra``):

* point data (LP rows, primal and dual solutions, values at points) in Python's :class:`fractions.Fraction`;
* identities by sympy's own ``cancel`` of the difference (``simplify`` only for non-rational terms);
* sign conditions on a region decided exactly by a cylindrical algebraic decomposition computed with sympy
  (:mod:`exactdp.recheck_cad`: McCallum's projection — coefficients, discriminants, resultants of the
  irreducible factors —, real-root isolation, sample points with real algebraic coordinates whose signs are
  decided by norms and interval refinement), in up to three variables always and in more when the lifting finds
  the set well oriented: every cell is sampled, so a statement false at a single irrational point is found;
  exp(r·x) of a parameter x that occurs only so, and real roots g**(p/q), become new variables first (exact);
* an integer parameter (N, n) is first relaxed to a real one (what holds for every real value holds for every
  integer one); if the relaxed statement fails, the integer parameter is the bottom variable of the
  decomposition and each of its cells is sampled at an integer.

A certificate is **OK** (everything re-checked), **UNDECIDED** (nothing wrong found, some part not re-checked:
a set in four or more variables that is not well oriented, a non-rational term other than exp(r·x) and real
roots, a resource limit — listed) or **REJECTED** (a failing step, with the reason and the failing point).
``exactdp recheck`` exits 0 only if every certificate is OK.
Kinds: ``linear-combination``, ``symbolic-statements``, ``lp-point``, ``parametric-lp``, ``split-tree``,
``instantiation`` and ``cases`` (statements from other certificates' statements: a change of variable, a split
into integer cases; the certificates they rest on are checked per claim).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import math
import os
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy

from exactdp.claim_statement import NOT_BOUND, ClaimStatement, binding, certificate_name, chain_of, independent_parts
from exactdp.errors import ParameterError
from exactdp.limits import PATH_WIDTH, ResourceLimitError, how_to_raise, limit, quote, require
from exactdp.numbers.escape import terminal
from exactdp.numbers.memo import Memo, limits_in_force
from exactdp.numbers.reader import MATH_FUNCTIONS, ReadError, read_expression, read_rational
from exactdp.recheck_cad import Undefined, Unsupported, find_point, point_text, rat, sign_at
from exactdp.regular_files import check_regular, inside_folder, read_bytes
from exactdp.scopes import scope_text, size_names, valid_sizes

#: hyperbolic and trigonometric functions: an identity holding them is retried in exponentials
_CIRCULAR = (sympy.functions.elementary.hyperbolic.HyperbolicFunction,
             sympy.functions.elementary.trigonometric.TrigonometricFunction)

OK, UNDECIDED, REJECTED = "OK", "UNDECIDED", "REJECTED"

#: the functions an exported expression may use (the reader's math functions and Min, Max, Abs) and the recorded
#: substitution ``Subs(e, x, v)`` and one-sided limit ``Limit(e, x, p)`` (x → p⁺), which are re-done here
FUNCTIONS = {**MATH_FUNCTIONS, "Min": (sympy.Min, None), "Max": (sympy.Max, None), "Abs": (sympy.Abs, 1),
             "Subs": (sympy.Subs, 3), "Limit": (lambda e, x, p: sympy.Limit(e, x, p, "+"), 3)}


def _carry_out(e, report: Recheck, what: str):
    """``e`` with its recorded substitutions (sympy ``xreplace`` of the bound variable) and limits (sympy's
    ``limit``) carried out, innermost first; a limit that is not finite is rejected (_Unsupported)."""
    if not e.has(sympy.Subs, sympy.Limit):
        return e

    def run(a):
        if isinstance(a, sympy.Subs):
            (body,), xs, vs = (a.args[0],), a.args[1], a.args[2]
            v = body.xreplace(dict(zip(xs, vs)))
        else:
            v = sympy.limit(a.args[0], a.args[1], a.args[2], "+")
        if v.has(sympy.Limit, sympy.Subs, sympy.oo, -sympy.oo, sympy.zoo, sympy.nan):
            raise _Unsupported(f"{what}: {a} does not evaluate to a finite expression ({v})")
        report.steps.append(f"{what}: re-done {a} = {v}")
        return v

    return e.replace(lambda a: isinstance(a, (sympy.Subs, sympy.Limit)), run)

_ASSUMPTIONS = ("positive", "nonnegative", "negative", "nonpositive", "nonzero", "integer", "real")



@dataclass
class Recheck:
    """The re-check of one certificate: OK / UNDECIDED / REJECTED, the steps, the reasons and what was not
    re-checked."""

    name: str
    kind: str
    status: str = OK
    steps: list = field(default_factory=list)
    reasons: list = field(default_factory=list)
    trusted: list = field(default_factory=list)
    source: str = ""
    #: the names of the certificates this one rests on (a linear combination's ``uses``), checked per claim
    uses: list = field(default_factory=list)
    #: (name, statement JSON) of the certificates an ``instantiation`` or ``cases`` rests on, checked per claim:
    #: one of that name must carry exactly that statement
    cites: list = field(default_factory=list)
    #: the statement the certificate carries (JSON, normalised), or None
    statement: Any = None

    def reject(self, why: str) -> None:
        self.status = REJECTED
        self.reasons.append(why)

    def trust(self, what: str) -> None:
        """Record a part that was not re-checked: the certificate is UNDECIDED (unless already REJECTED)."""
        if self.status == OK:
            self.status = UNDECIDED
        self.trusted.append(what)

    def line(self) -> str:
        """The text report's lines; a name, kind, file name or reason read from a certificate is data, shown
        with its control and bidi characters escaped (:func:`exactdp.numbers.escape.terminal`)."""
        head = f"{self.status:8} {terminal(self.kind):20} {terminal(self.name)}"
        if self.source:
            head += f"  [{terminal(self.source)}]"
        if self.reasons:
            head += "\n         rejected: " + "; ".join(terminal(r) for r in self.reasons[:3])
        if self.trusted:
            head += "\n         not re-checked: " + "; ".join(terminal(t) for t in self.trusted[:3]) + (
                f"; and {len(self.trusted) - 3} more" if len(self.trusted) > 3 else "")
        return head

    def to_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind, "status": self.status, "source": self.source,
                "reasons": self.reasons, "trusted": self.trusted, "steps": self.steps}


_Unsupported, _Undefined = Unsupported, Undefined


# -- relations at points and on regions (exact: exactdp.recheck_cad) ---------------------------------------------

_PIECEWISE = (sympy.Min, sympy.Max, sympy.Abs, sympy.Piecewise)


@functools.lru_cache(maxsize=4096)
def _branches(e):
    """``e`` as ((rational expression, condition), ...) (Min, Max, Abs as Piecewise), or ((e, True),).

    Memoised, as :func:`_fraction` is: a cell decomposition asks for the same expressions at many points."""
    if not e.has(*_PIECEWISE):
        return ((e, sympy.true),)
    pw = sympy.piecewise_fold(e.rewrite(sympy.Piecewise))
    if not isinstance(pw, sympy.Piecewise):
        return ((pw, sympy.true),)
    return tuple(pw.args)


@functools.lru_cache(maxsize=4096)
def _fraction(branch):
    """(numerator, denominator) of the rational expression ``branch``, cancelled (memoised: a pure function of an
    immutable expression, asked once per point of a cell decomposition otherwise)."""
    return sympy.fraction(sympy.cancel(sympy.together(branch)))


def _sign_expr(e, point: dict) -> int:
    """The exact sign of ``e`` (rational in the symbols, Min / Max / Abs allowed) at ``point``."""
    for branch, cond in _branches(e):
        if cond is sympy.true or _truth_at(cond, point):
            n, d = _fraction(branch)
            sd = sign_at(d, point)
            if sd == 0:
                raise _Undefined(f"{e} is undefined at {point_text(point)}")
            return sign_at(n, point) * sd
    raise _Undefined(f"no branch of {e} applies at {point_text(point)}")


_REL = {sympy.LessThan: lambda s: s <= 0, sympy.StrictLessThan: lambda s: s < 0,
        sympy.GreaterThan: lambda s: s >= 0, sympy.StrictGreaterThan: lambda s: s > 0,
        sympy.Equality: lambda s: s == 0, sympy.Unequality: lambda s: s != 0}


def _truth_at(rel, point: dict) -> bool:
    """The truth of the relation ``rel`` at ``point`` ({symbol: Fraction or algebraic Root}), exactly."""
    if rel is sympy.true or rel is True:
        return True
    if rel is sympy.false or rel is False:
        return False
    if isinstance(rel, sympy.And):
        return all(_truth_at(a, point) for a in rel.args)
    if isinstance(rel, sympy.Or):
        return any(_truth_at(a, point) for a in rel.args)
    if isinstance(rel, sympy.Not):
        return not _truth_at(rel.args[0], point)
    test = _REL.get(type(rel))
    if test is None:
        raise _Unsupported(f"{rel} is not a relation")
    return test(_sign_expr(rel.lhs - rel.rhs, point))


def _exprs_of(obj, out: list) -> None:
    """The numerators and denominators (sympy expressions) of every piece of a relation or expression."""
    if isinstance(obj, (sympy.And, sympy.Or, sympy.Not)):
        for a in obj.args:
            _exprs_of(a, out)
        return
    if obj is sympy.true or obj is sympy.false:
        return
    if isinstance(obj, sympy.core.relational.Relational):
        obj = obj.lhs - obj.rhs
    for branch, cond in _branches(obj):
        n, d = _fraction(branch)
        out += [n, d]
        if cond is not sympy.true:
            _exprs_of(cond, out)


def _sign_of_symbol(c):
    """(x, r) when the relation ``c`` is r·x ρ 0 (lhs − rhs = r·x, r a non-zero rational), else None."""
    if not isinstance(c, sympy.core.relational.Relational):
        return None
    r, x = sympy.expand(c.lhs - c.rhs).as_coeff_Mul()
    return (x, r) if x.is_Symbol and r.is_Rational and r != 0 else None


def _exp_symbols(objs: list) -> dict:
    """{x: d} for each real (not integer) symbol x that occurs in ``objs`` only inside exp(r·x) with rational r (or
    in a sign condition r·x ρ 0), d the least common denominator of those r (every exp(r·x) is a power of
    exp(x/d))."""
    found: dict = {}
    for obj in objs:
        for e in sympy.preorder_traversal(obj):
            if isinstance(e, sympy.exp):
                r, x = e.args[0].as_coeff_Mul()
                if x.is_Symbol and not x.is_integer and r.is_Rational and r != 0:  # an integer x: T not onto
                    found.setdefault(x, set()).add(sympy.Rational(r))
    out = {}
    for x, rs in found.items():
        rest = [obj.replace(lambda e: isinstance(e, sympy.exp) and e.args[0].as_coeff_Mul()[1] == x,
                            lambda e: sympy.Integer(1)) for obj in objs
                if (_sign_of_symbol(obj) or (None,))[0] != x]
        if not any(x in getattr(o, "free_symbols", ()) for o in rest):
            out[x] = math.lcm(*[int(r.q) for r in rs])
    return out


def _roots_of(obj) -> list:
    """The innermost real roots g**(p/q) (q ≥ 2) in ``obj``: those whose base holds no root itself."""
    out = []
    for e in sympy.preorder_traversal(obj):
        if (isinstance(e, sympy.Pow) and e.exp.is_Rational and e.exp.q > 1 and e.base.free_symbols
                and not any(isinstance(a, sympy.Pow) and a.exp.is_Rational and a.exp.q > 1
                            for a in sympy.preorder_traversal(e.base))):
            out.append(e)
    return out


def _algebraic_form(claim, conditions: list):
    """The claim and the region rewritten without exp(r·x) and real roots, or None when nothing is to rewrite:
    (claim, conditions, [(g, what)] the roots' arguments that must be ≥ 0 on the region for the claim to be
    defined).

    * exp(r·x), x occurring only so (or in a sign condition r·x ρ 0): x ↦ T = exp(x/d) is a bijection of the
      reals onto T > 0, so x is replaced by a fresh T > 0, exp(r·x) by T**(r·d) and a sign condition r·x ρ 0 (or
      x's sign assumption) by r·(T − 1) ρ 0 (x and T − 1 have the same sign);
    * a root g**(p/q): a fresh s with s ≥ 0 and s**q = g (the real root, defined where g ≥ 0) replaces it by
      s**p.  The claim becomes "s is that root ⇒ claim", the region gets the two relations, and g ≥ 0 is to be
      decided on the region (where a region condition's root is undefined, that point is not in the region).

    Both rewritings are exact, so the rewritten question is decided by the cell decomposition."""
    objs = [o for o in [claim, *conditions] if o is not None]
    exps = _exp_symbols(objs)
    roots = sorted({r for o in objs for r in _roots_of(o)}, key=str)
    if not exps and not roots:
        return None
    sub: dict = {}
    extra: list = []
    for x, d in exps.items():
        T = sympy.Dummy(f"exp({x.name}/{d})" if d > 1 else f"exp({x.name})", real=True)  # T > 0: a condition
        for e in {e for o in objs for e in sympy.preorder_traversal(o) if isinstance(e, sympy.exp)
                  and e.args[0].as_coeff_Mul()[1] == x}:
            sub[e] = T ** (e.args[0].as_coeff_Mul()[0] * d)
        extra.append(sympy.StrictGreaterThan(T, 0, evaluate=False))
        for flag, rel in (("is_positive", T > 1), ("is_nonnegative", T >= 1), ("is_negative", T < 1),
                          ("is_nonpositive", T <= 1)):
            if getattr(x, flag):
                extra.append(rel)
                break
    defined, claim_defs = [], []
    for root in roots:
        s = sympy.Dummy(str(root), real=True)
        g, p, q = root.base.xreplace(sub), root.exp.p, root.exp.q
        sub[root] = s ** p
        defs = [sympy.GreaterThan(s, 0, evaluate=False), sympy.Eq(s ** q, g, evaluate=False)]
        extra += defs
        if claim is not None and root in set(sympy.preorder_traversal(claim)):
            claim_defs += defs
            defined.append((g, f"{root.base} >= 0, where its root is taken"))
    signs = {}
    for c in conditions:
        xr = _sign_of_symbol(c)
        if xr is not None and xr[0] in exps:
            T = sub[next(e for e in sub if isinstance(e, sympy.exp) and e.args[0].as_coeff_Mul()[1] == xr[0])]
            base = T.base if isinstance(T, sympy.Pow) else T
            signs[c] = type(c)(xr[1] * (base - 1), 0, evaluate=False)
    conditions = [signs.get(c, c) for c in conditions]
    new_claim = claim.xreplace(sub) if claim is not None else None
    if new_claim is not None and claim_defs:
        new_claim = sympy.Or(sympy.Not(sympy.And(*claim_defs)), new_claim)
    return new_claim, [c.xreplace(sub) for c in conditions] + extra, defined


def decide(claim, conditions, report: Recheck, what: str, full: bool = False) -> None:
    """:func:`_decide` of ``claim`` on ``conditions``, remembered: the answer (the steps, reasons and parts not
    re-checked it adds to ``report``) is a pure function of the claim, the conditions, the label ``what``, ``full``
    and the limits in force, and the leaves of a split tree (and the copies of one certificate that a proof or a
    test re-checks) ask the same questions again.  Each question is still decided exactly once, by this module's
    own decomposition (:data:`_DECISIONS` is this module's memo, not the prover's).  A report already REJECTED is
    decided directly (:func:`_decide` stops early on it); an exception is never remembered."""
    try:
        key: tuple | None = (claim, tuple(conditions), what, full, limits_in_force())
        hash(key)
    except (TypeError, ResourceLimitError):
        key = None
    if key is None or report.status == REJECTED:
        _decide(claim, conditions, report, what, full)
        return
    known = _DECISIONS.get(key)
    if known is None:
        probe = Recheck(report.name, report.kind)
        try:
            _decide(claim, conditions, probe, what, full)
        finally:  # what was added before a limit stopped it, as if decided on ``report`` itself
            _replay(report, (probe.steps, probe.reasons, probe.trusted))
        known = (tuple(probe.steps), tuple(probe.reasons), tuple(probe.trusted))
        _DECISIONS.put(key, known)
        return
    _replay(report, known)


#: the re-checks of :func:`decide` already done: (steps, reasons, parts not re-checked) by question
_DECISIONS: Memo[tuple] = Memo()


def _replay(report: Recheck, added: tuple) -> None:
    """Add a decision's (steps, reasons, parts not re-checked) to ``report``, its status following as it would."""
    steps, reasons, trusted = added
    report.steps += steps
    for why in reasons:
        report.reject(why)
    for part in trusted:
        report.trust(part)


def _decide(claim, conditions, report: Recheck, what: str, full: bool = False) -> None:
    """Re-decide ``claim`` at every point of the region ``conditions``, exactly, or say why not (UNDECIDED).
    Terms exp(r·x) of a parameter x that occurs only so, and real roots, are first rewritten into new variables
    (:func:`_algebraic_form`: exact), so such a claim is decided in one more variable per term.

    Conditions in parameters the claim does not use are dropped first (a superset of the region: sound for OK);
    if the claim fails there, it is decided again with every condition.  ``claim`` None: decide that the region
    is empty (no condition dropped).  Integer parameters (N, n) are first *relaxed* to real ones — a claim that
    holds for every real value in the region holds for every integer one; if the relaxed claim fails, one
    integer parameter is decided as the bottom variable of the decomposition, sampled at integers
    (:mod:`exactdp.recheck_cad`): every question in up to three variables, and every well-oriented one in more
    (UNDECIDED, saying so, when the decomposition finds it is not)."""
    rewritten = _algebraic_form(claim, list(conditions))
    if rewritten is not None:
        claim2, conditions2, defined = rewritten
        for g, where in defined:
            decide(sympy.GreaterThan(g, 0, evaluate=False), list(conditions), report, f"{what}: {where}")
        if report.status == REJECTED:
            return
        report.steps.append(f"{what}: exp(r x) and real roots rewritten as new variables (exact)")
        decide(claim2, conditions2, report, what, full)
        return
    ints = [x for x in set().union(claim.free_symbols if claim is not None else set(),
                                   *[c.free_symbols for c in conditions]) if x.is_integer]
    if ints and claim is not None:
        real = {x: sympy.Symbol(x.name, real=True) for x in ints}
        probe = Recheck(report.name, report.kind)
        decide(claim.xreplace(real), [c.xreplace(real) for c in conditions], probe, what, full)
        if probe.status == OK:
            report.steps += probe.steps + [f"{what}: holds for every real {', '.join(sorted(map(str, ints)))} in "
                                           f"the region, so for every integer one"]
            return
    if claim is None or full:
        syms = set().union(*[c.free_symbols for c in conditions], claim.free_symbols if claim is not None else set())
    else:
        syms = set(claim.free_symbols)
    kept = [c for c in conditions if c.free_symbols <= syms]
    dropped = len(kept) < len(conditions)
    ints = sorted((s for s in syms if s.is_integer), key=str)
    if len(ints) > 1:
        report.trust(f"{what}: {len(ints)} integer parameters ({', '.join(map(str, ints))}) and the real "
                     f"relaxation fails: not decided")
        return
    order = ints + sorted(syms - set(ints), key=str)
    why: list = []

    def region_at(point: dict, level: int) -> bool:
        fixed = set(order[:level + 1])
        try:
            return all(_truth_at(c, point) for c in kept if c.free_symbols <= fixed and (
                not order or order[level] in c.free_symbols or (level == 0 and not c.free_symbols)))
        except _Undefined:
            return False  # a region condition undefined there: not a region point

    def fails(point: dict) -> bool:
        if claim is None:
            return True
        try:
            return not _truth_at(claim, point)
        except _Undefined as exc:
            why.append(str(exc))
            return True

    exprs: list = []
    try:
        for obj in [*([claim] if claim is not None else []), *kept]:
            _exprs_of(obj, exprs)
        if not order:
            point: dict | None = {} if region_at({}, 0) and fails({}) else None
        else:
            point = find_point(fails, exprs, order, bool(ints), region_at)
    except _Unsupported as exc:
        report.trust(f"{what}: outside the exact fragment ({str(exc)[:160]})")
        return
    if point is None:
        report.steps.append(f"{what}: exact" + (f": decided at every cell of a cylindrical decomposition in "
                                                 f"({', '.join(map(str, order))})" if order else ": true")
                            + (f", {ints[0]} at integers" if ints else ""))
        return
    at = point_text(point) or "every point"
    if claim is None:
        report.reject(f"{what}: the cell is not empty: {at} satisfies its conditions")
        return
    bad = why[0] if why else f"{claim} fails at {at}"
    if dropped:  # the failure may lie outside the region: decide again with every condition
        probe = Recheck(report.name, report.kind)
        decide(claim, conditions, probe, what, full=True)
        _adopt(report, probe, f"{what}: fails on a superset of the region ({bad})")
        return
    report.reject(f"{what}: {bad}")


def _substituted(conds: list, sub: dict) -> list | None:
    """The conditions with ``sub`` substituted, the constant ones dropped; None when a constant one fails or is
    undefined there (a division by 0: no region point lies there)."""
    out = []
    for c in conds:
        try:
            c = c.xreplace(sub)
            if c is sympy.true:
                continue
            if c is sympy.false or (not c.free_symbols and not _truth_at(c, {})):
                return None
        except (TypeError, _Undefined):
            return None
        out.append(c)
    return out


def _adopt(report: Recheck, probe: Recheck, why: str) -> None:
    """Take over the decision with the whole region (``probe``) after a failure on a superset."""
    report.steps += probe.steps
    if probe.status == REJECTED:
        report.reject(probe.reasons[0])
    elif probe.status == UNDECIDED:
        report.trust(f"{why}; with the whole region: " + "; ".join(probe.trusted))

# -- reading a certificate -------------------------------------------------------------------------------------

class CertificateData:
    """A certificate dict read through the safe reader: symbols, region, expressions."""

    def __init__(self, d: dict, extra: tuple = ()):
        self.d = d
        self.name = str(d.get("name", "?"))
        given = {}
        for pair in d.get("assumptions", ()):
            if not (isinstance(pair, list) and len(pair) == 2):
                raise ParameterError(f"{self.name}: assumptions must be [name, assumptions] pairs")
            given[pair[0]] = pair[1]
        self.syms = {}
        self.signs = {}  # name -> the sign assumptions, kept as explicit region conditions
        for name in list(d.get("parameters", ())) + list(extra):
            if not isinstance(name, str) or not name.isidentifier():
                raise ParameterError(f"{self.name}: parameter name {quote(name, 40)} is not an identifier")
            kw = {"real": True}
            signs = []
            for a in filter(None, (s.strip() for s in str(given.get(name, "")).split(","))):
                if a not in _ASSUMPTIONS:
                    raise ParameterError(f"{self.name}: unknown assumption {quote(a, 40)} of {name}")
                if a == "integer":
                    kw["integer"] = True
                elif a != "real":
                    signs.append(a)
            # sign assumptions become explicit conditions, so sympy never simplifies with them unseen
            self.syms[name] = sympy.Symbol(name, **kw)
            self.signs[name] = signs
        self.functions = {}
        for f in d.get("functions", ()) or ():
            if not isinstance(f, str) or not f.isidentifier() or f in FUNCTIONS or f in self.syms:
                raise ParameterError(f"{self.name}: function name {quote(str(f), 40)} is not a fresh identifier")
            self.functions[f] = (sympy.Function(f), None)

    def read(self, text, what: str, relations: bool = False, syms: dict | None = None):
        if not isinstance(text, str):
            raise ParameterError(f"{self.name}: {what} must be a string, got {type(text).__name__}")
        return read_expression(text, name=f"{self.name}: {what}", symbols=syms or self.syms,
                               functions={**FUNCTIONS, **self.functions}, relations=relations)

    def conditions(self, texts, what: str, syms: dict | None = None) -> list:
        out = []
        for i, text in enumerate(texts):
            rel = self.read(text, f"{what}[{i}]", relations=True, syms=syms)
            if rel is sympy.true:
                continue
            if rel is sympy.false:
                out.append(sympy.false)
                continue
            out.extend(rel.args if isinstance(rel, sympy.And) else (rel,))
        return out

    def assumption_conditions(self, syms: dict | None = None) -> list:
        rel = {"positive": sympy.StrictGreaterThan, "nonnegative": sympy.GreaterThan, "negative": sympy.StrictLessThan,
               "nonpositive": sympy.LessThan, "nonzero": sympy.Unequality}
        out = []
        for name, s in (syms or self.syms).items():
            for a in self.signs.get(name, ()):
                out.append(rel[a](s, 0, evaluate=False))
        return out

    def positive(self) -> set:
        """The parameters whose sign assumption makes them positive."""
        return {self.syms[n] for n, signs in self.signs.items() if "positive" in signs}

    def region(self) -> list:
        return self.conditions(self.d.get("region", ()), "region") + self.assumption_conditions()


def _identity(diff, report: Recheck, what: str, region: list | None = None, positive=()) -> None:
    """``diff ≡ 0``: sympy's cancel (simplify for non-rational terms, with the parameters the region makes
    positive declared positive); REJECTED if a rational function ≠ 0.  With Min / Max / Abs: decided pointwise
    on ``region`` by :func:`decide`."""
    if diff.has(*_PIECEWISE):
        decide(sympy.Eq(diff, 0, evaluate=False), region or [], report, what)
        return
    c = sympy.cancel(sympy.together(diff))
    if c == 0:
        report.steps.append(f"{what}: cancels to 0 (sympy cancel)")
        return
    # an arbitrary function applied to symbols, f(x), is an indeterminate: a rational function of such values
    # that does not cancel is non-zero for some choice of them (distinct arguments), so the identity is false
    applied = [a for a in sympy.preorder_traversal(c) if isinstance(a, sympy.core.function.AppliedUndef)]
    indeterminate = all(all(arg.is_Symbol for arg in a.args) for a in applied)
    rational = indeterminate and not c.has(sympy.log, sympy.exp) and all(
        a.exp.is_Integer for a in sympy.preorder_traversal(c) if isinstance(a, sympy.Pow))
    if rational:
        report.reject(f"{what}: the difference is {c}, not 0")
        return
    ops = sympy.count_ops(c)
    if ops > limit("max_simplify_ops"):  # sympy's simplify has no bound of its own: not called on large input
        witness = _nonzero_point(c, region or [])
        if witness is not None:
            report.reject(f"{what}: the difference is {witness[1]} != 0 at {witness[0]}")
            return
        report.trust(f"{what}: the difference has {ops} operations, more than the limit max_simplify_ops "
                     f"({limit('max_simplify_ops')}; {how_to_raise('max_simplify_ops')}): not simplified")
        return
    pos = {x: sympy.Symbol(x.name, positive=True) for x in c.free_symbols if x in set(positive)}
    if c.has(*_CIRCULAR):  # tanh x = (e^x - e^-x)/(e^x + e^-x), ...
        c = sympy.cancel(sympy.powsimp(sympy.together(c.rewrite(sympy.exp))))
        if c == 0:
            report.steps.append(f"{what}: 0 once hyperbolic/trigonometric functions are written as exponentials")
            return
    if sympy.simplify(sympy.expand_log(c.xreplace(pos), force=False)) == 0:
        report.steps.append(f"{what}: 0 by sympy simplify (non-rational terms"
                            + (f"; {', '.join(sorted(map(str, pos)))} > 0 on the region)" if pos else ")"))
        return
    witness = _nonzero_point(c, region or [])
    if witness is not None:
        report.reject(f"{what}: the difference is {witness[1]} != 0 at {witness[0]}")
        return
    report.trust(f"{what}: sympy could not reduce the difference {str(c)[:80]} to 0")


#: the values tried for a symbol when looking for a point where a claimed identity fails
_WITNESS_VALUES = {"integer": (1, 2, 3), "real": (sympy.Rational(1, 3), sympy.Rational(2, 3), 2, 3)}


def _nonzero_point(diff, region: list):
    """A point (within ``region`` and the symbols' assumptions) where ``diff`` is an exact non-zero rational:
    (point text, value), or None.  At most 81 points; symbols only, no arbitrary functions."""
    syms = sorted(diff.free_symbols, key=str)
    if not syms or len(syms) > 4 or diff.has(sympy.core.function.AppliedUndef):
        return None
    choices = [_WITNESS_VALUES["integer" if x.is_integer else "real"] for x in syms]
    for values in itertools.product(*choices):
        sub = dict(zip(syms, values))
        if any(x.is_negative or x.is_nonpositive and v > 0 or x.is_nonnegative and v < 0 or x.is_positive and v <= 0
               for x, v in sub.items()):
            continue  # the symbol's declared sign excludes this value
        try:
            if not all(bool(r.xreplace(sub)) for r in region if r.free_symbols <= set(syms)):
                continue
            v = diff.xreplace(sub)
        except (TypeError, ZeroDivisionError):
            continue
        if v.is_Rational and v != 0:
            return ", ".join(f"{x} = {q}" for x, q in sub.items()), v
    return None


# -- the kinds -------------------------------------------------------------------------------------------------

def definitions_of(d: dict, data: CertificateData) -> dict:
    """A linear combination's ``definitions`` [name, expression] as a substitution (symbol -> expression in the
    parameters and variables; a later definition may use an earlier one), its names read as fresh symbols: the
    re-check substitutes them itself, so an abbreviation is re-done, not trusted."""
    names = [n for n, _ in d.get("definitions", ())]
    if len(set(names)) != len(names) or set(names) & set(data.syms):
        raise ParameterError(f"{data.name}: a definition's name is a parameter, a variable or defined twice")
    for n in names:
        if not n.isidentifier() or n in FUNCTIONS:
            raise ParameterError(f"{data.name}: definition name {quote(n, 40)} is not a fresh identifier")
        data.syms[n] = sympy.Symbol(n, real=True)
    subs: dict = {}
    for n, txt in d.get("definitions", ()):
        subs[data.syms[n]] = data.read(txt, f"definition of {n}").xreplace(subs)
    return subs


def _linear_combination(d: dict, r: Recheck) -> None:
    data = CertificateData(d, tuple(d.get("variables", ())))
    params = {data.syms[p] for p in d.get("parameters", ())}
    cons, mults = d.get("constraints", []), d.get("multipliers", [])
    if len(cons) != len(mults):
        r.reject(f"{len(mults)} multipliers for {len(cons)} constraints")
        return
    subs = definitions_of(d, data)
    r.uses = [str(x) for x in d.get("uses", ())]
    g = [(str(lab), data.read(txt, f"constraint {lab}").xreplace(subs)) for lab, txt in cons]
    lam = [data.read(txt, f"multiplier {k}").xreplace(subs) for k, txt in enumerate(mults)]
    h = data.read(d.get("conclusion", ""), "conclusion").xreplace(subs)
    s = data.read(d.get("slack", "0"), "slack").xreplace(subs)
    for what, e in [("slack", s)] + [(f"multiplier of {lab}", m) for m, (lab, _) in zip(lam, g)]:
        if not e.free_symbols <= params:
            r.reject(f"{what} depends on {sorted(map(str, e.free_symbols - params))}, not only on the parameters")
            return
    _identity(h - sympy.Add(*[m * gi for m, (_, gi) in zip(lam, g)]) - s, r,
              "conclusion - sum(multiplier * constraint) - slack")
    if r.status == REJECTED:
        return
    region = data.conditions(d.get("region", ()), "region") + data.assumption_conditions(
        {p: data.syms[p] for p in d.get("parameters", ())})
    for what, e in [(f"multiplier of {lab}", m) for m, (lab, _) in zip(lam, g)] + [("slack", s)]:
        if _by_factors(e, region, r, f"{what} >= 0"):
            continue
        decide(sympy.GreaterThan(e, 0, evaluate=False) if e.free_symbols else e >= 0, region, r, f"{what} >= 0")
        if r.status == REJECTED:
            return


def _by_factors(e, region: list, report: Recheck, what: str) -> bool:
    """Whether e ≥ 0 on the region follows from the signs of e's irreducible factors, each decided on the whole
    region by :func:`decide` (a numerator factor ≥ 0 or ≤ 0, a denominator factor > 0 or < 0; a numerator factor
    of even power needs none); False: not shown this way (the caller decides e ≥ 0 whole, as before).

    Only in three or more parameters, where one decomposition of e's numerator with every region condition is
    costly and the factors are of lower degree (the every-N PML pieces, whose slack E − V has the factors of V's
    and E's denominators and t·(u − 2c))."""
    used = set(e.free_symbols).union(*[c.free_symbols for c in region])
    if len(used) < 3 or not e.free_symbols:
        return False
    num, den = sympy.fraction(sympy.cancel(sympy.together(e)))
    (ln, fn), (ld, fd) = sympy.factor_list(num), sympy.factor_list(den)
    parts = [(f, k, True) for f, k in fn] + [(f, k, False) for f, k in fd]
    if len(parts) < 2:
        return False
    sign, steps = (1 if ln * ld > 0 else -1), []
    for f, k, in_num in parts:
        if in_num and k % 2 == 0:
            continue
        for s in (1, -1):
            probe = Recheck(report.name, report.kind)
            rel = (sympy.GreaterThan if in_num else sympy.StrictGreaterThan)(s * f, 0, evaluate=False)
            decide(rel, region, probe, f"{what}: its factor {f}")
            if probe.status == OK:
                steps += probe.steps
                sign *= s ** k
                break
        else:
            return False
    if sign < 0:
        return False
    report.steps += steps + [f"{what}: from the signs of its {len(parts)} irreducible factors"]
    return True


_OPS = {"<=": sympy.LessThan, "<": sympy.StrictLessThan, ">=": sympy.GreaterThan, ">": sympy.StrictGreaterThan}


def _symbolic_statements(d: dict, r: Recheck) -> None:
    data = CertificateData(d)
    base = data.region()
    sts = d.get("statements", [])
    if not sts:
        r.reject("no statement to check")
        return
    for i, st in enumerate(sts):
        if not (isinstance(st, list) and len(st) == 5) or (st[2] != "==" and st[2] not in _OPS):
            r.reject(f"statement {i}: expected [label, lhs, op, rhs, conditions]")
            return
        label, lt, op, rt, conds = st
        if lt.replace(" ", "") == rt.replace(" ", ""):
            r.reject(f"statement {quote(label, 60)}: both sides are the text {quote(lt, 60)}: a textual tautology "
                     f"proves nothing")
            return
        lhs = _carry_out(data.read(lt, f"{label} lhs"), r, label)
        rhs = _carry_out(data.read(rt, f"{label} rhs"), r, label)
        if op == "==":
            _identity(lhs - rhs, r, f"{label}: {lt} == {rt}", base + data.conditions(conds, f"{label} condition"),
                      data.positive())
        else:
            rel = _OPS[op](lhs, rhs, evaluate=False)
            decide(rel, base + data.conditions(conds, f"{label} condition"), r, f"{label}: {lt} {op} {rt}")
        if r.status == REJECTED:
            return


def _fractions(row, what: str, name: str) -> list[Fraction]:
    out = []
    for k, v in enumerate(row):
        if not isinstance(v, str):
            raise ParameterError(f"{name}: {what}[{k}] must be an exact string, got {type(v).__name__}")
        q = read_rational(v, f"{name}: {what}[{k}]")
        out.append(Fraction(int(q.p), int(q.q)))
    return out


def _lp_point(d: dict, r: Recheck) -> None:
    name = r.name
    raw = [row for key in ("A_ub", "A_eq") for row in (d.get(key) or []) if isinstance(row, list)]
    require("max_entries", sum(map(len, raw)) + len(d.get("c") or []),  # counted before any entry is read
            f"re-checking the LP of {name}")
    require("max_work", (len(raw) + 1) * max(len(d.get("c") or []), 1), f"re-checking the LP of {name}")
    c = _fractions(d.get("c", []), "c", name)
    A_ub = [_fractions(row, "A_ub", name) for row in d.get("A_ub", [])]
    A_eq = [_fractions(row, "A_eq", name) for row in d.get("A_eq", [])]
    b_ub, b_eq = _fractions(d.get("b_ub", []), "b_ub", name), _fractions(d.get("b_eq", []), "b_eq", name)
    x, y_ub, y_eq = (_fractions(d.get(k, []), k, name) for k in ("x", "y_ub", "y_eq"))
    value = _fractions([d.get("value", "")], "value", name)[0]
    n = len(c)
    if any(len(row) != n for row in A_ub + A_eq) or len(x) != n or len(b_ub) != len(A_ub) or len(y_ub) != len(A_ub) \
            or len(b_eq) != len(A_eq) or len(y_eq) != len(A_eq):
        r.reject("inconsistent LP dimensions")
        return
    dot = lambda u, v: sum((a * b for a, b in zip(u, v)), Fraction(0))  # noqa: E731
    checks = [("x >= 0", all(v >= 0 for v in x)),
              ("A_ub x <= b_ub", all(dot(row, x) <= b for row, b in zip(A_ub, b_ub))),
              ("A_eq x = b_eq", all(dot(row, x) == b for row, b in zip(A_eq, b_eq))),
              ("y_ub >= 0", all(v >= 0 for v in y_ub)),
              ("A_ub^T y_ub + A_eq^T y_eq >= c", all(
                  dot([row[j] for row in A_ub], y_ub) + dot([row[j] for row in A_eq], y_eq) >= c[j] for j in range(n))),
              ("c.x = value", dot(c, x) == value),
              ("b_ub.y_ub + b_eq.y_eq = value", dot(b_ub, y_ub) + dot(b_eq, y_eq) == value)]
    for what, ok in checks:
        if not ok:
            r.reject(f"LP certificate: {what} fails")
    if r.status != REJECTED:
        r.steps.append(f"LP with {n} variables: primal and dual feasibility and equal objectives re-checked in "
                       f"fractions.Fraction: optimum {value}")


def _negate(rel):
    flip = {sympy.GreaterThan: sympy.StrictLessThan, sympy.StrictGreaterThan: sympy.LessThan,
            sympy.LessThan: sympy.StrictGreaterThan, sympy.StrictLessThan: sympy.GreaterThan}
    if type(rel) not in flip:
        raise _Unsupported(f"{rel} is not an inequality to split on")
    return flip[type(rel)](rel.lhs, rel.rhs, evaluate=False)


def _parametric_lp(d: dict, r: Recheck) -> None:
    """Per region: the LP identities by cancel, the sign conditions (x ≥ 0, slacks ≥ 0, y_ub ≥ 0, reduced costs
    ≥ 0) by :func:`decide`; coverage: the split tree's leaves partition the domain (complementary children),
    each region leaf's conditions hold on its cell, each empty leaf is empty, no open leaf, each region once."""
    data = CertificateData(d)
    base = data.region()
    rd = lambda v, what: [data.read(a, what) for a in v]  # noqa: E731
    c = rd(d.get("c", []), "c")
    A_ub = [rd(row, "A_ub") for row in d.get("A_ub", [])]
    A_eq = [rd(row, "A_eq") for row in d.get("A_eq", [])]
    b_ub, b_eq = rd(d.get("b_ub", []), "b_ub"), rd(d.get("b_eq", []), "b_eq")
    n = len(c)
    values = d.get("region_value", [])
    conds_all, xs = d.get("region_conditions_", []), d.get("region_x", [])
    yubs, yeqs = d.get("region_y_ub", []), d.get("region_y_eq", [])
    if not values or not (len(conds_all) == len(xs) == len(yubs) == len(yeqs) == len(values)):
        r.reject("no region, or inconsistent numbers of regions")
        return
    if any(len(row) != n for row in A_ub + A_eq) or len(b_ub) != len(A_ub) or len(b_eq) != len(A_eq):
        r.reject("inconsistent LP dimensions")
        return
    dot = lambda u, v: sympy.Add(*[a * b for a, b in zip(u, v)])  # noqa: E731
    region_conds = []
    for k in range(len(values)):
        where = f"region {k}"
        conds = data.conditions(conds_all[k], f"{where} conditions")
        region_conds.append(conds)
        x, y_ub, y_eq = rd(xs[k], f"{where} x"), rd(yubs[k], f"{where} y_ub"), rd(yeqs[k], f"{where} y_eq")
        value = data.read(values[k], f"{where} value")
        if len(x) != n or len(y_ub) != len(A_ub) or len(y_eq) != len(A_eq):
            r.reject(f"{where}: wrong number of primal or dual entries")
            return
        for i, (row, b) in enumerate(zip(A_eq, b_eq)):
            _identity(dot(row, x) - b, r, f"{where}: equality row {i}")
        _identity(dot(c, x) - dot(b_ub, y_ub) - dot(b_eq, y_eq), r, f"{where}: c.x = b.y")
        _identity(value - dot(c, x), r, f"{where}: value = c.x")
        if r.status == REJECTED:
            return
        signs = [(f"x[{j}]", v) for j, v in enumerate(x)] + [(f"y_ub[{i}]", v) for i, v in enumerate(y_ub)]
        signs += [(f"slack of row {i}", b - dot(row, x)) for i, (row, b) in enumerate(zip(A_ub, b_ub))]
        signs += [(f"reduced cost {j}", dot([row[j] for row in A_ub], y_ub) + dot([row[j] for row in A_eq], y_eq)
                   - c[j]) for j in range(n)]
        for what, e in signs:
            e = sympy.cancel(sympy.together(e))
            decide(sympy.GreaterThan(e, 0, evaluate=False) if e.free_symbols else e >= 0, base + conds, r,
                   f"{where}: {what} >= 0")
            if r.status == REJECTED:
                return
    _coverage(d.get("tree"), data, base, region_conds, r)


def split_tree_leaves(d: dict, data: CertificateData) -> list:
    """[(leaf, argument, cell)] of a ``split-tree`` certificate: each cell the path of its leaf, a split g >= 0
    giving g >= 0 and -g >= 0 (closed complements, so the leaves of a tree cover the domain); raises
    ParameterError when a node is malformed or open (a gap), a split is not of the form g >= 0, or the leaves are
    not each leaf exactly once (shared by ``recheck`` and ``recheck --smt``)."""
    n = len(d.get("leaf_branches", []))
    if not n or len(d.get("leaf_multipliers", [])) != n or len(d.get("trees", [])) != len(d.get("arguments", [])):
        raise ParameterError(f"{data.name}: no leaf, or inconsistent numbers of leaves, trees and arguments")
    leaves: list = []

    def walk(node, i: int, path: list) -> None:
        if len(path) > limit("max_nesting"):
            raise ParameterError(f"coverage: a split tree is deeper than max_nesting = {limit('max_nesting')}")
        if not isinstance(node, list) or not node:
            raise ParameterError("coverage: malformed tree node")
        if node[0] == "split" and len(node) == 4:
            rel = data.read(node[1], "split condition", relations=True)
            if not isinstance(rel, sympy.GreaterThan):
                raise ParameterError(f"coverage: the split {quote(str(node[1]), 60)} is not of the form g >= 0")
            g = sympy.expand(rel.lhs - rel.rhs)
            walk(node[2], i, path + [sympy.GreaterThan(g, 0, evaluate=False)])
            walk(node[3], i, path + [sympy.GreaterThan(-g, 0, evaluate=False)])
        elif node[0] == "leaf" and len(node) == 2 and str(node[1]).isdigit() and int(node[1]) < n:
            leaves.append((int(node[1]), i, path))
        elif node[0] == "open":
            raise ParameterError("coverage gap: a cell of the domain has no leaf (open leaf)")
        else:
            raise ParameterError(f"coverage: unknown tree node {quote(str(node[0]), 20)} or a leaf index out of range")

    for i, tree in enumerate(d.get("trees", [])):
        walk(tree, i, [])
    if sorted(k for k, _, _ in leaves) != list(range(n)):
        raise ParameterError("coverage: the trees' leaves are not each leaf exactly once")
    return sorted(leaves, key=lambda x: x[0])


def split_tree_leaf(d: dict, data: CertificateData, k: int, path: list) -> dict:
    """Leaf k of a ``split-tree`` certificate as a ``linear-combination`` dict on the domain and its cell, its slack
    E - o - sum(multiplier * constraint) derived here (ParameterError when it depends on the variables: then no
    combination of the constraints gives E - o)."""
    xs = {data.syms[v] for v in d.get("variables", ())}
    mults = d["leaf_multipliers"][k]
    g = [data.read(txt, f"constraint {lab}") for lab, txt in d.get("constraints", [])]
    if len(mults) != len(g):
        raise ParameterError(f"leaf {k}: {len(mults)} multipliers for {len(g)} constraints")
    lam = [data.read(m, f"leaf {k} multiplier") for m in mults]
    E = data.read(d["leaf_branches"][k], f"leaf {k} branch")
    s = sympy.cancel(sympy.together(E - data.read(d.get("objective", ""), "objective")
                                    - sympy.Add(*[m * gi for m, gi in zip(lam, g)])))
    if (s.free_symbols | E.free_symbols) & xs:
        raise ParameterError(f"leaf {k}: the branch, or branch - objective - sum(multiplier * constraint), depends on "
                             f"the variables")
    leaf = {key: d[key] for key in ("name", "parameters", "assumptions", "variables", "constraints") if key in d}
    leaf.update(region=[*d.get("region", []), *(f"{c.lhs} >= 0" for c in path)], multipliers=mults,
                conclusion=f"{d['leaf_branches'][k]} - ({d.get('objective', '')})", slack=str(s))
    return leaf


def _split_tree(d: dict, r: Recheck) -> None:
    """The trees' cells derived from their paths (:func:`split_tree_leaves`: coverage is structural); each leaf
    re-checked as a linear combination on its cell (:func:`split_tree_leaf`, :func:`_linear_combination`); every
    branch E <= its argument A on the domain (:func:`decide`)."""
    data = CertificateData(d, tuple(d.get("variables", ())))
    args = d.get("arguments", [])
    pairs: dict = {}
    try:
        leaves = [(k, i, split_tree_leaf(d, data, k, path)) for k, i, path in split_tree_leaves(d, data)]
    except ParameterError as exc:  # a gap, a malformed tree, a slack in the variables: the data prove nothing
        r.reject(str(exc))
        return
    for k, i, leaf in leaves:
        path = leaf["region"][len(d.get("region", [])):]
        _linear_combination(leaf, r)
        if r.status == REJECTED:
            r.reasons[0] = f"leaf {k}: {r.reasons[0]}"
            return
        r.steps.append(f"leaf {k} (argument {i}, {len(path)} split conditions): re-checked as a linear combination")
        pairs[(i, d["leaf_branches"][k])] = data.read(d["leaf_branches"][k], f"leaf {k} branch")
    base = data.region()
    for (i, text), E in pairs.items():
        A = _carry_out(data.read(args[i], f"argument {i}"), r, f"argument {i}")
        if not A.has(*_PIECEWISE) and sympy.cancel(sympy.together(A - E)) == 0:
            continue
        decide(sympy.LessThan(E, A, evaluate=False), base, r, f"branch {quote(text, 60)} <= argument {i}")
        if r.status == REJECTED:
            return
    r.uses = [str(x) for x in d.get("uses", ())]


def _chain(d: dict, r: Recheck) -> None:
    """An ``instantiation`` or ``cases`` certificate: :func:`exactdp.claim_statement.chain_of` reduces it to exact
    structural checks (failures) and relations decided here on their conditions (:func:`decide`) — the source's
    domain at the substitution on the region; each part's domain on the region with its case, and the region
    giving the size at least the first case (the cases being consecutive integer ranges is checked there, in integer
    arithmetic); the certificates it rests on are checked per claim (:func:`_with_uses_met`)."""
    data = CertificateData(d, tuple(d.get("variables", ())))
    ch = chain_of(d, data.syms, {**FUNCTIONS, **data.functions}, data.region())
    r.cites = list(ch.cites)
    if ch.failures:
        r.reject(ch.failures[0])
        return
    r.steps += ch.steps
    for what, rel, conds in ch.obligations:
        decide(rel, conds, r, what)
        if r.status == REJECTED:
            return


def _coverage(tree, data: CertificateData, base: list, region_conds: list, r: Recheck) -> None:
    seen: list[int] = []

    from exactdp.limits import limit

    def walk(node, path: list) -> None:
        if r.status == REJECTED:
            return
        if len(path) > limit("max_nesting"):
            r.reject(f"coverage: the split tree is deeper than max_nesting = {limit('max_nesting')}")
            return
        if not isinstance(node, list) or not node:
            r.reject("coverage: malformed tree node")
            return
        tag = node[0]
        if tag == "split" and len(node) == 4:
            cond = data.read(node[1], "split condition", relations=True)
            walk(node[2], path + [cond])
            walk(node[3], path + [_negate(cond)])
        elif tag == "region" and len(node) == 2:
            k = int(node[1])
            if not 0 <= k < len(region_conds):
                r.reject(f"coverage: leaf names region {k}, which does not exist")
                return
            seen.append(k)
            for j, cond in enumerate(region_conds[k]):  # the leaf's cell lies inside the region
                decide(cond, base + path, r, f"coverage: region {k} condition {j} on its cell")
        elif tag == "empty":
            decide(None, base + path, r, "coverage: an empty cell")
        elif tag == "open":
            r.reject("coverage gap: a cell of the domain is covered by no region (open leaf)")
        else:
            r.reject(f"coverage: unknown tree node {quote(str(tag), 20)}")

    walk(tree, [])
    if r.status != REJECTED and sorted(seen) != list(range(len(region_conds))):
        r.reject(f"coverage: the tree's region leaves {sorted(seen)} are not each region exactly once")


S, L, LL = "str", "list[str]", "list[list[str]]"
_BASE = {"name": S, "parameters": L, "region": L, "scope": S, "assumptions": LL, "functions": L, "sizes": S,
         "statement": "statement"}
#: the JSON shape of every field, per kind (a field present with another shape is REJECTED before reading)
SHAPES = {
    "linear-combination": {**_BASE, "variables": L, "constraints": LL, "multipliers": L, "conclusion": S,
                           "slack": S, "definitions": LL, "uses": L},
    "symbolic-statements": {**_BASE, "statements": "statements"},
    "lp-point": {**_BASE, "point": LL, "c": L, "A_ub": LL, "b_ub": L, "A_eq": LL, "b_eq": L, "x": L, "y_ub": L,
                 "y_eq": L, "value": S},
    "parametric-lp": {**_BASE, "c": L, "A_ub": LL, "b_ub": L, "A_eq": LL, "b_eq": L, "offset": S,
                      "region_conditions_": LL, "region_x": LL, "region_y_ub": LL, "region_y_eq": LL,
                      "region_value": L, "tree": "tree"},
    "split-tree": {**_BASE, "variables": L, "constraints": LL, "objective": S, "arguments": L, "trees": "tree",
                   "leaf_multipliers": LL, "leaf_branches": L, "uses": L},
    "instantiation": {**_BASE, "variables": L, "source": S, "source_statement": "statement", "substitution": LL},
    "cases": {**_BASE, "variables": L, "size": S, "hypotheses": L, "conclusions": L, "parts": LL,
              "part_statements": "statement-list"},
}


def _shape_ok(v, shape: str) -> bool:
    if shape == S:
        return isinstance(v, str)
    if shape == L:
        return isinstance(v, list) and all(isinstance(x, str) for x in v)
    if shape == LL:
        return isinstance(v, list) and all(_shape_ok(x, L) for x in v)
    if shape == "statement":
        return v is None or isinstance(v, dict)
    if shape == "statement-list":
        return isinstance(v, list) and all(isinstance(x, dict) for x in v)
    if shape == "statements":
        return isinstance(v, list) and all(isinstance(x, list) and len(x) == 5 and all(
            isinstance(y, str) for y in x[:4]) and _shape_ok(x[4], L) for x in v)
    return isinstance(v, list)  # a tree: its nodes are checked while walking it


def shape_errors(d: dict, kind: str) -> list[str]:
    shapes = SHAPES[kind]
    out = [f"unexpected field {quote(k, 40)}" for k in d if k not in shapes and k != "kind"]
    out += [f"field {k!r} must be {shapes[k]}" for k in d if k in shapes and not _shape_ok(d[k], shapes[k])]
    return out


KINDS = {"linear-combination": _linear_combination, "symbolic-statements": _symbolic_statements,
         "lp-point": _lp_point, "parametric-lp": _parametric_lp, "split-tree": _split_tree, "instantiation": _chain,
         "cases": _chain}


def recheck_certificate(d: Any, source: str = "", claim: str | None = None) -> Recheck:
    """Re-check one certificate (its JSON dict) independently; never raises on bad data (REJECTED).  With a
    ``statement``, also that it proves that statement (of ``claim``, when it is filed under one)."""
    if not isinstance(d, dict):
        r = Recheck("?", "?", source=source)
        r.reject(f"not a JSON object ({type(d).__name__})")
        return r
    kind = d.get("kind")
    r = Recheck(str(d.get("name", "?")), str(kind), source=source)
    fn = KINDS.get(kind) if isinstance(kind, str) else None
    if fn is None or not isinstance(kind, str):
        r.reject(f"unknown kind {quote(str(kind), 40)}; known: {', '.join(sorted(KINDS))}")
        return r
    bad = shape_errors(d, kind)
    if bad:
        r.reject("malformed certificate: " + "; ".join(bad[:3]))
        return r
    try:
        if isinstance(d.get("statement"), dict):
            r.statement = ClaimStatement.from_json(d["statement"]).to_json()
        bound_to_its_data(d, r)
        if r.status != REJECTED:
            fn(d, r)
        if r.status != REJECTED:
            _region_has_a_point(d, r)
        if r.status != REJECTED and d.get("statement") is not None:
            _bound_to_statement(d, r, claim)
    except ResourceLimitError as exc:  # not re-checked, not wrong: the rest is trusted, and says why
        r.trust(f"not re-checked further: {exc}")
    except (ReadError, ParameterError) as exc:
        r.reject(f"unreadable data: {exc}")
    except (_Unsupported, _Undefined) as exc:
        r.reject(str(exc)[:300])
    except (TypeError, ValueError, AttributeError, KeyError) as exc:
        r.reject(f"malformed certificate ({type(exc).__name__}: {str(exc)[:200]})")
    return r


def bound_to_its_data(d: dict, r: Recheck) -> None:
    """The texts a reader sees are those of the checked data: ``name`` is
    :func:`exactdp.claim_statement.certificate_name` of the data, ``scope`` is :func:`exactdp.scopes.scope_text` of
    the sizes, assumptions and region (or point); an ``integer`` parameter is one of the sizes; no name is both a
    parameter and a variable."""
    sizes = d.get("sizes", "")
    if not valid_sizes(sizes):
        r.reject(f"sizes {quote(sizes, 60)} is not of the form 'all N, M', 'N = 3, M = 2' or 'all n >= 1'")
        return
    name = certificate_name(d)
    if d.get("name") != name:
        r.reject(f"the name {quote(str(d.get('name', '')), 80)} is not the one its data give ({quote(name, 80)})")
        return
    derived = scope_text(sizes, [tuple(a) for a in d.get("assumptions", ())], d.get("region", ()),
                         [tuple(p) for p in d.get("point", ())])
    if d.get("scope", "") != derived:
        r.reject(f"the scope text {quote(str(d.get('scope', '')), 80)} is not the one its data give ({quote(derived, 80)})")
        return
    ints = sorted(str(n) for n, a in d.get("assumptions", ()) if "integer" in (x.strip() for x in str(a).split(",")))
    stray = [n for n in ints if n not in size_names(sizes)]
    if stray:
        r.reject(f"parameter(s) {', '.join(stray)} carry the integer assumption but are not among the sizes "
                 f"{quote(sizes or '(none)', 40)}")
        return
    clash = sorted(set(d.get("parameters", ())) & set(d.get("variables", ())))
    if clash:
        r.reject(f"name(s) {', '.join(clash)} are both a parameter and a variable")


def _bound_to_statement(d: dict, r: Recheck, claim: str | None) -> None:
    """The certificate proves the statement it carries (:func:`exactdp.claim_statement.binding`), decided here by
    :func:`decide`: REJECTED when not (naming the point), UNDECIDED when the statement is not bound."""
    b = binding(d, claim, carry_out=lambda e: _carry_out(e, r, "statement"))
    if b.failures:
        r.reject(f"statement: {b.failures[0]}")
        return
    if b.unbound:
        r.trust(f"{NOT_BOUND}: {b.unbound}")
        return
    r.steps += [f"statement: {s}" for s in b.steps]
    for what, rel, near in [(w, x, b.domain_for(x)) for w, x in b.holds] + [
            (w, x, b.domain_for_case(x, conds)) for w, x, conds in b.cases]:
        decide(rel, near, r, f"statement: {what}")
        if r.status == REJECTED:
            return
    has_a_point(b.domain, r, "the stated domain", "statement: ")


def has_a_point(conds: list, r: Recheck, what: str, prefix: str = "") -> None:
    """The set ``conds`` decided non-empty by an exact cell decomposition (a step naming a point), empty (REJECTED:
    everything on it holds vacuously) or neither (UNDECIDED); conditions on disjoint names are decided apart
    (:func:`exactdp.claim_statement.independent_parts`)."""
    parts = independent_parts(conds)
    if len(parts) > 1:
        for k, part in enumerate(parts):
            has_a_point(part, r, f"{what} (part {k + 1} of {len(parts)})", prefix)
        return
    probe = Recheck(r.name, r.kind)
    decide(None, conds, probe, what)
    if probe.status == REJECTED and "not empty" in probe.reasons[0]:
        r.steps.append(f"{prefix}{what} is not empty: {probe.reasons[0]}")
    elif probe.status == OK:
        r.reject(f"{prefix}{what} is empty: it proves nothing")
    else:
        r.trust(f"{prefix}no point of {what} was found: it may be empty")


#: the values tried per parameter when a point of a region is searched (integers only for integer parameters)
WITNESS_GRID = tuple(Fraction(a) for a in ("1/2", "2", "1", "3", "1/4", "1/3", "0", "1/8", "5", "10", "-1", "100"))


def _region_has_a_point(d: dict, r: Recheck) -> None:
    """REJECTED when the certificate's region is empty (everything would hold vacuously), OK when a point of it
    is found (a grid point satisfying every condition exactly, or an exact cell decomposition), else UNDECIDED."""
    data = CertificateData(d, tuple(d.get("variables", ())))
    params = [data.syms[p] for p in d.get("parameters", ())]
    conds = data.region()
    if any(c is sympy.false for c in conds):
        r.reject("the region is empty (a condition is false): the certificate proves nothing")
        return
    used = sorted(set().union(*[c.free_symbols for c in conds]) & set(params), key=str) if conds else []
    grids = [[q for q in WITNESS_GRID if q.denominator == 1 or not x.is_integer] for x in used]
    require("max_work", len(WITNESS_GRID) ** min(len(used), 8) * max(len(conds), 1),
            f"searching a point of the region of {r.name}")
    for values in itertools.product(*grids):
        sub = {x: rat(q) for x, q in zip(used, values)}
        try:
            inside = _substituted(conds, sub) == []
        except _Unsupported:
            continue
        if inside:
            r.steps.append("the region is not empty: it contains "
                           + (", ".join(f"{x} = {q}" for x, q in zip(used, values)) or "every point"))
            return
    has_a_point(conds, r, "the region")


def certificate_files(directory) -> list[Path]:
    """The certificate files under ``directory`` (``*.json`` except the index), sorted.

    Each must be a regular file (:func:`exactdp.regular_files.check_regular`): a FIFO, a device, a socket
    or a symbolic link leaving ``directory`` (a file or a folder) is refused with one line before anything
    is read; symbolic links to folders are not followed."""
    p = Path(directory)
    if not p.is_dir():
        raise ParameterError(f"recheck: {quote(str(directory))} is not a directory (write one with "
                             f"`exactdp verify --certificates DIR`)")
    home = os.path.realpath(p)
    files = []
    for folder, dirs, names in os.walk(p):
        for d in dirs:
            link = os.path.join(folder, d)
            if os.path.islink(link) and not inside_folder(link, home):
                raise ParameterError(f"recheck: {quote(link, PATH_WIDTH)} is a symbolic link leaving the folder "
                                     f"{quote(str(directory), PATH_WIDTH)}")
        for name in names:
            path = Path(folder) / name
            if name.endswith(".json") and path.relative_to(p).as_posix() != INDEX:
                check_regular(path, "recheck", folder=home)
                files.append(path)
    if not files:
        raise ParameterError(f"recheck: no certificate files (*.json) under {quote(str(directory))}")
    return sorted(files)


#: the index file of an exported folder
INDEX = "index.json"


def certificate_file_name(check: str, k: int) -> str:
    """The file name of the ``k``-th certificate of the check named ``check``, inside its claim's folder
    (written by :mod:`exactdp.verification.export`, matched here)."""
    slug = (re.sub(r"[^A-Za-z0-9._-]+", "-", check).strip("-") or "check")[:60]
    return f"{slug}-{k}.json"


def _read_json(path: Path, folder=None):
    """A JSON document read through :func:`exactdp.regular_files.read_bytes` (a regular file, inside
    ``folder`` if given, at most ``max_file_bytes`` read)."""
    return json.loads(read_bytes(path, f"recheck: {path.name}", folder=folder).decode("utf-8"))


def recheck_file(path: Path, folder=None) -> list[Recheck]:
    """Every certificate of one exported file (``{"certificate": {...}}`` or a bare certificate), unbound: the
    claim it is filed under is checked by :func:`recheck_directory`."""
    try:
        doc = _read_json(path, folder)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        r = Recheck(path.name, "?", source=str(path))
        r.reject(f"unreadable JSON: {exc}")
        return [r]
    cert = doc.get("certificate", doc) if isinstance(doc, dict) else doc
    label = str(doc.get("claim", "")) if isinstance(doc, dict) else ""
    return [recheck_certificate(cert, label or path.name)]


_PROVED = ("proved", "proved-modulo")


def _claim_failures(claim: str, entry: dict) -> list[str]:
    """Why a claim's index entry does not support its verdict: a proved claim needs checks whose verdicts give
    it (every non-supporting check proved, or proved-modulo for proved-modulo) and a certificate for each
    proving check."""
    verdict, checks = entry.get("verdict"), entry.get("checks")
    if isinstance(checks, list) and all(isinstance(c, dict) and isinstance(c.get("certificates", []), list)
                                        for c in checks):
        by_checks = sorted(str(rel) for c in checks for rel in c.get("certificates", []))
        if by_checks != sorted(map(str, entry.get("certificates", []))):
            return [f"claim {claim}: its checks list other certificate files than the claim does"]
    if verdict not in _PROVED:
        return []
    if not isinstance(checks, list) or not all(isinstance(c, dict) for c in checks):
        return [f"claim {claim}: the index lists no checks, so its verdict {verdict} cannot be re-derived "
                f"(export again with `exactdp verify --certificates DIR`)"]
    core = [c for c in checks if not (c.get("supporting") and c.get("verdict") == "verified")
            and c.get("verdict") != "not-checkable"]
    out = []
    if not core:
        out.append(f"claim {claim}: {verdict} with no proving check")
    for c in core:
        if c.get("verdict") not in _PROVED or (verdict == "proved" and c.get("verdict") != "proved"):
            out.append(f"claim {claim}: check {quote(str(c.get('name')), 60)} is {c.get('verdict')}, so the claim "
                       f"is not {verdict}")
        elif not c.get("certificates"):
            out.append(f"claim {claim}: check {quote(str(c.get('name')), 60)} is {c.get('verdict')} with no "
                       f"certificate: the proof is incomplete")
    return out


@dataclass
class Filed:
    """A certificate file that index.json lists and that is filed where it says: its claim, its file (relative
    path), the certificate (JSON) and whether the claim is proved or proved-modulo (its certificates must then
    carry the claim's statement)."""

    claim: str
    rel: str
    certificate: Any
    proved: bool


def filed_certificates(directory) -> tuple[list[Recheck], list[Filed]]:
    """An exported folder read against its ``index.json`` (shared by ``recheck`` and ``recheck --smt``): the
    failures (REJECTED entries: a listed file missing, changed (SHA-256), not in its claim's folder, naming another
    claim or check; a file the index does not list; a proved claim whose proving checks lack certificates) and
    the certificates that are filed where the index says.  Without a readable index every file is returned, each
    filed under no claim, and the failure says so."""
    root = Path(directory)
    home = os.path.realpath(directory)
    files = certificate_files(directory)
    out: list[Recheck] = []
    filed: list[Filed] = []

    def fail(name: str, why: str) -> None:
        r = Recheck(name, "index", source=INDEX)
        r.reject(why)
        out.append(r)

    def unfiled() -> list[Filed]:
        return [Filed("", f.relative_to(root).as_posix(), f, False) for f in files]

    if not os.path.lexists(root / INDEX):
        fail(INDEX, "no index.json: the certificates are filed under no claim (export with `exactdp verify "
                    "--certificates DIR`)")
        return out, unfiled()
    try:
        index = _read_json(root / INDEX, home)
        claims, hashes = index["claims"], index.get("sha256")
        if not isinstance(claims, dict) or not isinstance(hashes, dict):
            raise TypeError("claims and sha256 must be objects")
    except (OSError, UnicodeDecodeError, ValueError, RecursionError, KeyError, TypeError) as exc:
        fail(INDEX, f"unreadable index.json ({type(exc).__name__}: {str(exc)[:120]}); it must hold 'claims' and "
                    f"'sha256'")
        return out, unfiled()
    listed: set[str] = set()
    for claim in sorted(claims):
        entry = claims[claim]
        if not isinstance(entry, dict) or not isinstance(entry.get("certificates", []), list):
            fail(str(claim), "malformed index entry")
            continue
        for why in _claim_failures(claim, entry):
            fail(claim, why)
        by_check = {rel: c.get("name") for c in entry.get("checks") or [] if isinstance(c, dict)
                    for rel in c.get("certificates") or []}
        for rel in entry.get("certificates", []):
            rel = str(rel)
            listed.add(rel)
            got = _listed(root, home, claim, rel, hashes.get(rel), by_check.get(rel))
            if isinstance(got, Recheck):
                out.append(got)
            else:
                filed.append(Filed(claim, rel, got, entry.get("verdict") in _PROVED))
    for f in files:
        rel = f.relative_to(root).as_posix()
        if rel not in listed:
            fail(rel, "a certificate file that index.json does not list: filed under no claim")
    for claim in sorted({f.claim for f in filed if f.proved}):
        why = _statement_not_carried(claim, [f.certificate for f in filed if f.claim == claim])
        if why:
            fail(claim, why)
    return out, filed


def _statement_not_carried(claim: str, certificates: list) -> str:
    """Why a proved claim's certificates do not prove its statement as a whole: every one carries a statement, but
    each is a step of the proof or a structural lemma, none the claim's own (its written statement), so what was
    proved is not the claim ("" when one carries it, or when some carry no statement: those are "statement not
    bound")."""
    stated = [c.get("statement") for c in certificates if isinstance(c, dict)]
    if not stated or any(not isinstance(st, dict) for st in stated):
        return ""
    if any(isinstance(st, dict) and st.get("claim") == claim for st in stated):
        return ""
    return (f"claim {claim}: none of its {len(stated)} certificates carries the claim's statement (only steps of its "
            f"proof and structural lemmas): the proof does not reach what the claim states")


def recheck_directory(directory) -> list[Recheck]:
    """Re-check an exported folder against its ``index.json`` (:func:`filed_certificates`), then every certificate
    filed where it says (:func:`recheck_certificate`, bound to its claim's statement: a certificate of a proved
    claim without one is UNDECIDED, "statement not bound")."""
    home = os.path.realpath(directory)
    out, filed = filed_certificates(directory)
    by_claim: dict[str, list[Recheck]] = {}
    for f in filed:
        if isinstance(f.certificate, Path):  # no index: every file, filed under no claim
            out += recheck_file(f.certificate, folder=home)
            continue
        r = recheck_certificate(f.certificate, f.claim, claim=f.claim)
        if f.proved and r.status == OK and isinstance(f.certificate, dict) and f.certificate.get("statement") is None:
            r.trust(f"{NOT_BOUND}: the certificate of a {f.claim} proof carries no statement of the claim")
        by_claim.setdefault(f.claim, []).append(r)
    for claim in by_claim:
        out += _with_uses_met(by_claim[claim])
    return out


def unmet_citations(cites: list, others: list, passed: str) -> list[tuple[bool, str]]:
    """Why a certificate's citations (``cites``: the (name, statement JSON) an ``instantiation``'s source or a
    ``cases``' parts, :func:`exactdp.claim_statement.cites_of`) are not met by the other certificates of its claim
    (``others``: (name, statement JSON, whether it ``passed`` its check)), as (rejected, why): none of that name
    (rejected), none of that name carrying exactly the copied statement (rejected), or only ones that did not pass
    (not rejected: not checked).  Shared by ``recheck`` and ``recheck --smt``, which give it their own verdicts."""
    out = []
    for name, st in cites:
        carrying = [(s, ok) for n, s, ok in others if n == name]
        if not carrying:
            out.append((True, f"rests on {quote(name, 60)}, which is not among the claim's certificates"))
        elif not any(s == st for s, _ in carrying):
            out.append((True, f"rests on {quote(name, 60)} with a statement that is not the one it carries"))
        elif not any(s == st and ok for s, ok in carrying):
            out.append((False, f"rests on {quote(name, 60)}, which was not {passed}"))
    return out


def _with_uses_met(rechecks: list[Recheck]) -> list[Recheck]:
    """The re-checks of one claim's certificates, a certificate that rests on others (``uses``) REJECTED when one
    of them is not among the claim's certificates, UNDECIDED when one is there but not re-checked OK: a
    structural lemma is a certificate of its own, never a sentence."""
    status: dict[str, set[str]] = {}
    for r in rechecks:
        status.setdefault(r.name, set()).add(r.status)
    for r in rechecks:
        others = [(x.name, x.statement, x.status == OK) for x in rechecks if x is not r]
        for rejected, why in unmet_citations(r.cites, others, "re-checked OK"):
            (r.reject if rejected else r.trust)(why)
    for r in rechecks:
        missing = [n for n in r.uses if n not in status]
        if missing:
            r.reject("rests on " + ", ".join(quote(n, 60) for n in missing[:3]) + ", not among the claim's certificates")
        for n in r.uses:
            if n in status and status[n] != {OK}:
                r.trust(f"rests on {quote(n, 60)}, which was not re-checked OK")
    return rechecks


def _listed(root: Path, home: str, claim: str, rel: str, digest, check) -> Recheck | Any:
    """One listed certificate file: present, unchanged (SHA-256), in its claim's folder, naming that claim and
    the check it is listed under, with the file name of that check.  Returns its certificate (JSON), or the
    REJECTED entry that says why not."""
    path = (root / rel)
    bad = Recheck(rel, "?", source=claim)
    folder, _, name = rel.partition("/")
    if folder != claim or "/" in name or ".." in rel.split("/"):
        bad.reject(f"listed under claim {claim} but not in its folder {claim}/")
        return bad
    if not path.is_file():
        bad.reject(f"listed in index.json under claim {claim}, but the file is missing")
        return bad
    data = read_bytes(path, f"recheck: the certificate file {rel}", folder=home)
    if not isinstance(digest, str) or hashlib.sha256(data).hexdigest() != digest:
        bad.reject("the file's SHA-256 differs from index.json: it was changed after the export" if isinstance(
            digest, str) else "index.json lists no SHA-256 for this file")
        return bad
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        bad.reject(f"unreadable JSON: {exc}")
        return bad
    if not isinstance(doc, dict) or doc.get("claim") != claim:
        bad.reject(f"the file names claim {quote(str(doc.get('claim') if isinstance(doc, dict) else None), 60)}, "
                   f"but it is filed under {claim}")
        return bad
    if check is not None and doc.get("check") != check:
        bad.reject(f"the file names check {quote(str(doc.get('check')), 60)}, but index.json files it under check "
                   f"{quote(str(check), 60)}")
        return bad
    if not re.fullmatch(re.escape(certificate_file_name(str(doc.get("check")), 0)[:-7]) + r"-\d+\.json", name):
        bad.reject(f"the file name {name} is not that of its check {quote(str(doc.get('check')), 60)}")
        return bad
    return doc.get("certificate")
