r"""A certificate's identity-and-sign obligations as SMT-LIB 2 problems (QF_NRA; QF_NIRA with integer parameters).

Each obligation is a problem whose expected answer is fixed in advance:

* a **sign or inequality** "C holds on the region R" is ``(assert R) (assert (not (and D C)))`` with D the
  definedness of C's terms (divisors non-zero, roots of non-negative numbers): expected ``unsat`` — so C is
  defined and true at every point of R;
* an **identity** A == B on R is ``(assert R) (assert D) (assert (not (= A B)))`` over the reals: expected
  ``unsat`` (the identity holds wherever both sides are defined);
* a **region** must not be empty: ``(assert R)`` alone, expected ``sat`` (a model is a point of R), so a
  certificate whose region was made empty proves nothing and is refuted.

Per kind (the data read by :mod:`exactdp.numbers.reader` through :class:`exactdp.recheck.CertificateData`, never
evaluated as code):

* ``linear-combination``: its ``definitions`` substituted first (as :func:`exactdp.recheck.definitions_of` reads
  them), h − Σ λ_i g_i − s = 0 on the region (parameters and variables), λ_i ≥ 0 and s ≥ 0 on
  the region, the region non-empty; λ_i and s must depend on the parameters only (checked on the data);
* ``symbolic-statements``: every statement on the region with its own conditions, each such region non-empty;
* ``lp-point``: x ≥ 0, A_ub x ≤ b_ub, A_eq x = b_eq, y_ub ≥ 0, A_ubᵀ y_ub + A_eqᵀ y_eq ≥ c, c·x = value and
  b·y = value, ground formulas over the exact data (weak duality then makes ``value`` the optimum);
* ``parametric-lp``: per region k on D ∧ R_k the equality rows, c·x = b·y and value = c·x (identities), and
  x ≥ 0, y_ub ≥ 0, b_ub − A_ub x ≥ 0, A_ubᵀy_ub + A_eqᵀy_eq − c ≥ 0 (signs); **coverage** as the one formula
  D ∧ ¬(R_1 ∨ … ∨ R_k) (expected ``unsat``: every point of the domain lies in some region), independent of the
  certificate's split tree; D non-empty.  Identities and signs of one region are first asked together and,
  when that is not confirmed, one by one, so a failure names its step;
* ``split-tree``: per leaf the obligations of its ``linear-combination`` on its cell (cells and slacks derived
  from the trees as ``recheck`` derives them), per tree the coverage formula of its leaves' cells (independent of
  the structural argument), every branch ≤ its argument on the domain;
* ``instantiation`` / ``cases``: the relations :func:`exactdp.claim_statement.chain_of` reduces them to (the source's
  domain at the substitution on the region; each part's domain on the region with its case, the region giving the
  size at least the first case), each on its conditions, and the region non-empty.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import sympy

from exactdp.claim_statement import binding, chain_of
from exactdp.errors import ParameterError
from exactdp.limits import require
from exactdp.recheck import (FUNCTIONS, Recheck, bound_to_its_data, CertificateData, definitions_of, shape_errors,
                             split_tree_leaf, split_tree_leaves)
from exactdp.smt.cleared import ClearingEncoder
from exactdp.smt.smtlib import Encoder, Unsupported

UNSAT, SAT = "unsat", "sat"


@dataclass
class Obligation:
    """One SMT problem: ``text`` (SMT-LIB 2 without ``check-sat``), the expected answer, the symbols a model
    reports, and whether functions were abstracted (a ``sat`` answer is then inconclusive).  ``parts``: the
    single obligations a conjunction stands for (asked one by one when the conjunction is not confirmed)."""

    label: str
    text: str
    expect: str = UNSAT
    shown: tuple = ()
    abstracted: bool = False
    parts: list = field(default_factory=list)
    #: the same problem with the integer parameters read as reals (expected unsat only): unsat there implies
    #: unsat over the integers, and real nonlinear arithmetic is decidable where the integer one is not
    relaxed: Obligation | None = None
    #: the same problem with every relation's denominators cleared (:mod:`exactdp.smt.cleared`): asked first,
    #: this one when a solver gives no conclusive answer to it
    cleared: Obligation | None = None

    def script(self) -> str:
        """The problem as a complete SMT-LIB 2 script (with ``check-sat``), for a file or a solver binary."""
        return self.text + "(check-sat)\n"


class Builder:
    """Makes SMT obligations over sympy relations: ``integers`` are declared ``Int``, ``functions`` (names) are
    the certificate's arbitrary functions."""

    def __init__(self, integers=(), functions=(), clearing: bool = False):
        self.integers = set(integers)
        self.functions = tuple(functions)
        self.clearing = clearing

    @classmethod
    def of(cls, data: CertificateData) -> Builder:
        """The builder for one certificate's read data (its integer parameters, its functions)."""
        return cls({s for s in data.syms.values() if s.is_integer}, tuple(data.functions))

    def _encoder(self) -> Encoder:
        return (ClearingEncoder if self.clearing else Encoder)(self.integers, self.functions)

    def _assert_region(self, enc: Encoder, region) -> list[str]:
        lines = [f"(assert {enc.formula(c)})" for c in region]
        lines += [f"(assert {d})" for d in enc.defined]  # a point where a condition is undefined is not in R
        enc.defined.clear()
        return lines

    def _finish(self, enc: Encoder, label: str, body: list[str], expect: str) -> Obligation:
        head = [f"(set-logic {enc.logic()})", *enc.declarations()]
        defs = [f"(assert {d})" for d in enc.definitions + enc.laws()]
        text = "\n".join(head + defs + body) + "\n"
        shown = tuple(sorted(n for n in enc.symbols if not n.startswith("_")))
        return Obligation(label, text, expect, shown, bool(enc.abstracted))

    def _variants(self, ob: Obligation, method: str, *args) -> Obligation:
        """Attach the second encoding (denominators cleared) and, for an expected-unsat obligation with integer
        parameters, the real relaxation (itself with its second encoding)."""
        if not self.clearing:
            try:
                ob.cleared = getattr(Builder(self.integers, self.functions, True), method)(*args)
            except Unsupported:
                ob.cleared = None
        if self.integers and ob.expect == UNSAT and ob.text.startswith("(set-logic QF_NIRA)"):
            ob.relaxed = getattr(Builder((), self.functions, self.clearing), method)(*args)
        return ob

    def holds(self, label: str, region, claim) -> Obligation:
        """``claim`` (a sympy relation, or a list of them: all) defined and true on ``region``: expected unsat."""
        enc = self._encoder()
        body = self._assert_region(enc, region)
        claims = claim if isinstance(claim, list) else [claim]
        goal = [enc.formula(c) for c in claims]
        goal = enc.defined + goal
        enc.defined = []
        body.append(f"(assert (not {_and(goal)}))")
        return self._variants(self._finish(enc, label, body, UNSAT), "holds", label, region, claim)

    def identity(self, label: str, region, pairs) -> Obligation:
        """Each (A, B) of ``pairs`` equal on ``region`` where defined: expected unsat."""
        enc = self._encoder()
        body = self._assert_region(enc, region)
        eqs = [enc.equal(a, b) for a, b in pairs]
        body += [f"(assert {d})" for d in enc.defined]
        enc.defined = []
        body.append(f"(assert (not {_and(eqs)}))")
        return self._variants(self._finish(enc, label, body, UNSAT), "identity", label, region, pairs)

    def nonempty(self, label: str, region) -> Obligation:
        """``region`` has a point: expected sat."""
        enc = self._encoder()
        body = self._assert_region(enc, region)
        return self._variants(self._finish(enc, label, body, SAT), "nonempty", label, region)

    def covers(self, label: str, domain, regions) -> Obligation:
        """Every point of ``domain`` satisfies one of ``regions`` (lists of conditions): expected unsat."""
        enc = self._encoder()
        body = self._assert_region(enc, domain)
        alts = []
        for conds in regions:
            parts = [enc.formula(c) for c in conds] + enc.defined
            enc.defined = []
            alts.append(_and(parts))
        body.append(f"(assert (not {_or(alts)}))")
        return self._variants(self._finish(enc, label, body, UNSAT), "covers", label, domain, regions)


def _and(parts: list[str]) -> str:
    return "true" if not parts else parts[0] if len(parts) == 1 else "(and " + " ".join(parts) + ")"


def _or(parts: list[str]) -> str:
    return "false" if not parts else parts[0] if len(parts) == 1 else "(or " + " ".join(parts) + ")"


def _ge0(e):
    return sympy.GreaterThan(e, 0, evaluate=False)


# -- the kinds -------------------------------------------------------------------------------------------------

def _linear_combination(d: dict) -> list[Obligation]:
    data = CertificateData(d, tuple(d.get("variables", ())))
    params = [data.syms[p] for p in d.get("parameters", ())]
    cons, mults = d.get("constraints", []), d.get("multipliers", [])
    if len(cons) != len(mults):
        raise ParameterError(f"{data.name}: {len(mults)} multipliers for {len(cons)} constraints")
    subs = definitions_of(d, data)  # the abbreviations substituted here too
    g = [(str(lab), data.read(txt, f"constraint {lab}").xreplace(subs)) for lab, txt in cons]
    lam = [data.read(txt, f"multiplier {k}").xreplace(subs) for k, txt in enumerate(mults)]
    h = data.read(d.get("conclusion", ""), "conclusion").xreplace(subs)
    s = data.read(d.get("slack", "0"), "slack").xreplace(subs)
    signs = [(f"multiplier of {lab}", m) for m, (lab, _) in zip(lam, g)] + [("slack", s)]
    for what, e in signs:
        if not e.free_symbols <= set(params):
            raise ParameterError(f"{data.name}: the {what} depends on "
                                 f"{sorted(map(str, e.free_symbols - set(params)))}, not only on the parameters")
    region = data.conditions(d.get("region", ()), "region") + data.assumption_conditions(
        {p: data.syms[p] for p in d.get("parameters", ())})
    b = Builder.of(data)
    out = [b.nonempty("the region is not empty", region),
           b.identity("conclusion = sum(multiplier * constraint) + slack", region,
                      [(h, sympy.Add(*[m * gi for m, (_, gi) in zip(lam, g)]) + s)])]
    out += [b.holds(f"{what} >= 0", region, _ge0(e)) for what, e in signs]
    return out


_OPS = {"<=": sympy.LessThan, "<": sympy.StrictLessThan, ">=": sympy.GreaterThan, ">": sympy.StrictGreaterThan}


def _symbolic_statements(d: dict) -> list[Obligation]:
    data = CertificateData(d)
    base = data.region()
    sts = d.get("statements", [])
    if not sts:
        raise ParameterError(f"{data.name}: no statement to check")
    b = Builder.of(data)
    out = [b.nonempty("the region is not empty", base)]
    for i, st in enumerate(sts):
        label, lt, op, rt, conds = st
        if op != "==" and op not in _OPS:
            raise ParameterError(f"{data.name}: statement {i}: the relation {op!r} is not one of ==, {', '.join(_OPS)}")
        if str(lt).replace(" ", "") == str(rt).replace(" ", ""):
            raise ParameterError(f"{data.name}: statement {str(label)[:60]!r}: both sides are the same text, a "
                                 f"textual tautology that proves nothing")
        lhs, rhs = data.read(lt, f"{label} lhs"), data.read(rt, f"{label} rhs")
        region = base + data.conditions(conds, f"{label} condition")
        if conds:
            out.append(b.nonempty(f"{label}: its conditions have a point", region))
        if op == "==":
            out.append(b.identity(f"{label}: {lt} == {rt}", region, [(lhs, rhs)]))
        else:
            out.append(b.holds(f"{label}: {lt} {op} {rt}", region, _OPS[op](lhs, rhs, evaluate=False)))
    return out


def _read_lp(data: CertificateData, d: dict, rational: bool = False) -> dict:
    """The LP fields c, b_ub, b_eq, A_ub, A_eq read (``rational``: each entry must be an exact rational)."""
    def vec(row, what):
        out = [data.read(a, f"{what}[{k}]") for k, a in enumerate(row)]
        bad = [k for k, q in enumerate(out) if rational and not isinstance(q, sympy.Rational)]
        if bad:
            raise ParameterError(f"{data.name}: {what}[{bad[0]}] = {str(row[bad[0]])[:40]!r} is not an exact rational")
        return out

    lp = {k: vec(d.get(k, []), k) for k in ("c", "b_ub", "b_eq")}
    lp.update({k: [vec(row, k) for row in d.get(k, [])] for k in ("A_ub", "A_eq")})
    lp["vec"] = vec
    n = len(lp["c"])
    require("max_work", (len(lp["A_ub"]) + len(lp["A_eq"]) + 1) * max(n, 1),
            f"writing the LP of {data.name} to SMT-LIB")
    if any(len(row) != n for row in lp["A_ub"] + lp["A_eq"]) or len(lp["b_ub"]) != len(lp["A_ub"]) \
            or len(lp["b_eq"]) != len(lp["A_eq"]):
        raise ParameterError(f"{data.name}: inconsistent LP dimensions")
    return lp


def _optimality(lp: dict, x, y_ub, y_eq, value, where: str, data: CertificateData):
    """(identities, signs) that make x optimal with dual (y_ub, y_eq) and optimum ``value`` (weak duality):
    A_eq x = b_eq, c·x = b·y, value = c·x; x ≥ 0, y_ub ≥ 0, b_ub − A_ub x ≥ 0, A_ubᵀy_ub + A_eqᵀy_eq − c ≥ 0."""
    A_ub, A_eq, b_ub, b_eq, c = lp["A_ub"], lp["A_eq"], lp["b_ub"], lp["b_eq"], lp["c"]
    if len(x) != len(c) or len(y_ub) != len(A_ub) or len(y_eq) != len(A_eq):
        raise ParameterError(f"{data.name}: {where}wrong number of primal or dual entries")
    dot = lambda u, v: sympy.Add(*[a * b for a, b in zip(u, v)])  # noqa: E731
    idents = [(f"{where}equality row {i}", (dot(row, x), bb)) for i, (row, bb) in enumerate(zip(A_eq, b_eq))]
    idents += [(f"{where}c.x = b.y", (dot(c, x), dot(b_ub, y_ub) + dot(b_eq, y_eq))),
               (f"{where}value = c.x", (value, dot(c, x)))]
    signs = [(f"{where}x[{j}] >= 0", v) for j, v in enumerate(x)]
    signs += [(f"{where}y_ub[{i}] >= 0", v) for i, v in enumerate(y_ub)]
    signs += [(f"{where}slack of row {i} >= 0", bb - dot(row, x)) for i, (row, bb) in enumerate(zip(A_ub, b_ub))]
    signs += [(f"{where}reduced cost {j} >= 0", dot([row[j] for row in A_ub], y_ub)
               + dot([row[j] for row in A_eq], y_eq) - c[j]) for j in range(len(c))]
    return idents, signs


def _optimality_obligations(b: Builder, region, idents, signs, where: str) -> list[Obligation]:
    """The identities together and the signs together, each split into its parts when not confirmed."""
    whole = b.identity(f"{where}the LP identities", region, [p for _, p in idents])
    whole.parts = [b.identity(w, region, [p]) for w, p in idents]
    out = [whole]
    if signs:
        whole = b.holds(f"{where}the {len(signs)} sign conditions", region, [_ge0(e) for _, e in signs])
        whole.parts = [b.holds(w, region, _ge0(e)) for w, e in signs]
        out.append(whole)
    return out


def _lp_point(d: dict) -> list[Obligation]:
    data = CertificateData({k: v for k, v in d.items() if k != "parameters"})
    lp = _read_lp(data, d, rational=True)
    x, y_ub, y_eq = (lp["vec"](d.get(k, []), k) for k in ("x", "y_ub", "y_eq"))
    value = lp["vec"]([d.get("value", "")], "value")[0]
    idents, signs = _optimality(lp, x, y_ub, y_eq, value, "LP certificate: ", data)
    return _optimality_obligations(Builder(), [], idents, signs, "LP certificate: ")


def _parametric_lp(d: dict) -> list[Obligation]:
    data = CertificateData(d)
    base = data.region()
    lp = _read_lp(data, d)
    values = d.get("region_value", [])
    conds_all, xs = d.get("region_conditions_", []), d.get("region_x", [])
    yubs, yeqs = d.get("region_y_ub", []), d.get("region_y_eq", [])
    if not values or not (len(conds_all) == len(xs) == len(yubs) == len(yeqs) == len(values)):
        raise ParameterError(f"{data.name}: no region, or inconsistent numbers of regions")
    b = Builder.of(data)
    out = [b.nonempty("the domain is not empty", base)]
    regions = []
    for k in range(len(values)):
        where = f"region {k}: "
        conds = data.conditions(conds_all[k], f"{where}conditions")
        regions.append(conds)
        x, y_ub, y_eq = (lp["vec"](v[k], f"{where}{key}") for v, key in ((xs, "x"), (yubs, "y_ub"), (yeqs, "y_eq")))
        idents, signs = _optimality(lp, x, y_ub, y_eq, data.read(values[k], f"{where}value"), where, data)
        signs = [(w, e) for w, e in signs if not (e.is_Rational and e >= 0)]
        out += _optimality_obligations(b, base + conds, idents, signs, where)
    out.append(b.covers(f"coverage: the {len(regions)} regions cover the domain", base, regions))
    return out


def _split_tree(d: dict) -> list[Obligation]:
    """Per leaf, the obligations of its ``linear-combination`` on its cell (the cells and slacks derived as
    ``recheck`` derives them: :func:`exactdp.recheck.split_tree_leaves`, :func:`exactdp.recheck.split_tree_leaf`);
    per tree, that its leaves' cells cover the domain; every branch <= its argument on the domain."""
    data = CertificateData(d, tuple(d.get("variables", ())))
    base = data.region()
    b = Builder.of(data)
    out: list[Obligation] = []
    cells: dict = {}
    pairs: dict = {}
    for k, i, path in split_tree_leaves(d, data):
        out += [dataclasses.replace(ob, label=f"leaf {k}: {ob.label}")
                for ob in _linear_combination(split_tree_leaf(d, data, k, path))]
        cells.setdefault(i, []).append(path)
        pairs[(i, d["leaf_branches"][k])] = data.read(d["leaf_branches"][k], f"leaf {k} branch")
    for i, paths in cells.items():
        out.append(b.covers(f"coverage: the {len(paths)} leaves of tree {i} cover the domain", base, paths))
    for (i, text), E in pairs.items():
        A = data.read(d["arguments"][i], f"argument {i}")
        if A.has(sympy.Max, sympy.Min) or sympy.cancel(sympy.together(A - E)) != 0:
            out.append(b.holds(f"branch {text} <= argument {i}", base, sympy.LessThan(E, A, evaluate=False)))
    return out


def _chain(d: dict) -> list[Obligation]:
    """``instantiation`` / ``cases``: the exact structural checks of :func:`exactdp.claim_statement.chain_of`
    (failures raise ParameterError: refuted), each of its relations on its conditions, the region non-empty.  That
    the certificates they rest on are in the same proof with the copied statements is ``recheck``'s (per claim)."""
    data = CertificateData(d, tuple(d.get("variables", ())))
    region = data.region()
    ch = chain_of(d, data.syms, {**FUNCTIONS, **data.functions}, region)
    if ch.failures:
        raise ParameterError(f"{data.name}: {ch.failures[0]}")
    b = Builder.of(data)
    return [b.nonempty("the region is not empty", region)] + [b.holds(what, list(conds), rel)
                                                              for what, rel, conds in ch.obligations]


KINDS = {"linear-combination": _linear_combination, "symbolic-statements": _symbolic_statements,
         "lp-point": _lp_point, "parametric-lp": _parametric_lp, "split-tree": _split_tree, "instantiation": _chain,
         "cases": _chain}


def _statement_obligations(d: dict, claim: str | None) -> list[Obligation]:
    """The binding to the statement the certificate carries (:func:`exactdp.claim_statement.binding`): each
    reduced relation on the stated domain (expected unsat), the domain non-empty (expected sat); structural
    failures raise ParameterError (refuted).  None carried, or not in machine form: no obligation."""
    if d.get("statement") is None:
        return []
    data = CertificateData(d)
    b = binding(d, claim, carry_out=lambda e: _carried_out(e, data.name))
    if b.failures:
        raise ParameterError(f"statement: {b.failures[0]}")
    if b.unbound:
        return []
    ints = {s for r in b.domain + [rel for _, rel in b.holds] + [x for _, rel, conds in b.cases for x in (rel, *conds)]
            for s in r.free_symbols if s.is_integer}
    builder = Builder(ints, tuple(d.get("functions", ()) or ()))
    return [builder.nonempty("statement: the stated domain is not empty", b.domain)] + [
        builder.holds(f"statement: {what}", b.domain, rel) for what, rel in b.holds] + [
        builder.holds(f"statement: {what}", b.domain + list(conds), rel) for what, rel, conds in b.cases]


def _carried_out(e, name: str):
    """``e`` with its recorded substitutions done (``xreplace`` of the bound variable); a recorded limit is not
    written to SMT-LIB (Unsupported)."""
    if not e.has(sympy.Subs, sympy.Limit):
        return e
    if e.has(sympy.Limit):
        raise Unsupported(f"{name}: a statement bound through a recorded limit is not written to SMT-LIB")
    return e.replace(lambda a: isinstance(a, sympy.Subs), lambda a: a.args[0].xreplace(dict(zip(a.args[1], a.args[2]))))


def not_bound(d) -> str:
    """Why the statement the certificate (JSON dict) carries is not in machine form, or ``""``."""
    st = d.get("statement") if isinstance(d, dict) else None
    return str(st.get("unbound", "")) if isinstance(st, dict) else ""


def obligations(d: dict, claim: str | None = None) -> list[Obligation]:
    """The obligations of one certificate (its JSON dict), with those binding it to the statement it carries
    (of ``claim``, when it is filed under one).

    Raises:
        ParameterError: an unknown kind, a malformed field, inconsistent data (the certificate is then refuted
        as malformed); ReadError from the reader; Unsupported for a term the encoder cannot write exactly.
    """
    if not isinstance(d, dict):
        raise ParameterError(f"a certificate must be a JSON object, got {type(d).__name__}")
    kind = d.get("kind")
    if kind not in KINDS:
        raise ParameterError(f"unknown certificate kind {str(kind)[:40]!r}; known: {', '.join(sorted(KINDS))}")
    bad = shape_errors(d, kind)
    if bad:
        raise ParameterError("malformed certificate: " + "; ".join(bad[:3]))
    bound = Recheck(str(d.get("name", "?")), str(kind))
    bound_to_its_data(d, bound)  # the same binding rules as recheck: the scope text, integer sizes, no clash
    if bound.reasons:
        raise ParameterError(bound.reasons[0])
    return KINDS[kind](d) + _statement_obligations(d, claim)

