r"""Sympy expressions (as the safe reader builds them) written as SMT-LIB 2 terms over the reals.

The translation is syntactic and exact: rationals become ``(/ p.0 q.0)``, sums and products stay sums and
products, an integer power ``b**k`` a product of ``k`` factors, ``b**(-k)`` a division, ``Min`` / ``Max`` /
``Abs`` / ``Piecewise`` an ``ite``, an integer parameter (``N``) an ``Int`` constant read through ``to_real``.
Nothing is simplified, so a solver sees the certificate's own expressions.

Where a term is only defined on part of the space, the encoder records a **definedness condition**:
every divisor is non-zero, a square root's (more generally a ``p/q``-th power's) base is non-negative.  A
root ``b**(p/q)`` becomes ``r**p`` for one fresh real ``r`` per base and q with ``r >= 0`` and, where
``b >= 0``, ``r**q = b`` (r is free elsewhere, so the definition never removes a point from the space; that
``b >= 0``, ``b > 0`` for p < 0, is the term's definedness condition) — exact, so models stay genuine.

``exp`` and ``log`` have no exact meaning in QF_NRA: each application becomes an unknown (the function read
as an arbitrary one) with the true facts ``exp(a) > 0``, the definedness ``a > 0`` of ``log(a)`` and the laws
of :meth:`Encoder.laws` (value at the unit, monotonicity, product and sum laws with arithmetic premises); the
log of a product of integer powers is written as ``log(c) + Σ k_i log(b_i)`` (each b_i > 0), so that equal
logs are one unknown; a power with a symbolic exponent (``t**n``) is a function ``pow(t, n)``, defined where
the real power is, with the exponent law ``t^(a+k) = t^a t^k`` between its applications.  Applications are
Ackermannized (one constant per distinct application, congruence axioms between them), so every problem is
pure real (or mixed integer) arithmetic.  An ``unsat`` answer is then sound (the real functions are one
interpretation), but a ``sat`` answer may rest on a false interpretation: :attr:`Encoder.abstracted` says
so, and the caller reports such a model as inconclusive.  The certificate's own arbitrary functions
(``functions``) are arbitrary on purpose: the statement holds for every such function, so any model of the
negation is a genuine counterexample.

``Limit(f, x, a)`` is written as f(a) when f is continuous at a (:meth:`Encoder.limit_value`); a recorded
substitution ``Subs`` is carried out before it is written.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from exactdp.limits import require

#: the largest integer power written out as a product (larger powers: refused as too large)
MAX_POWER = 64
#: the applications of exp (of log) that get the laws of :meth:`Encoder.laws` (their number is cubic in it)
MAX_LAW_APPLICATIONS = 8

_REL = {sympy.LessThan: "<=", sympy.StrictLessThan: "<", sympy.GreaterThan: ">=", sympy.StrictGreaterThan: ">",
        sympy.Equality: "="}


class Unsupported(Exception):
    """A term outside what the encoder writes exactly (a trigonometric function, an irrational constant)."""


def quote(name: str) -> str:
    """An SMT-LIB symbol for ``name`` (quoted, so a parameter named like an SMT keyword stays a symbol)."""
    if "|" in name or "\\" in name:
        raise Unsupported(f"the name {name!r} cannot be written as an SMT-LIB symbol")
    return f"|{name}|"


def real_literal(q: Fraction) -> str:
    """An exact real literal: ``3.0``, ``(/ 3.0 7.0)``, ``(- (/ 3.0 7.0))``."""
    a = abs(q)
    body = f"{a.numerator}.0" if a.denominator == 1 else f"(/ {a.numerator}.0 {a.denominator}.0)"
    return f"(- {body})" if q < 0 else body


def _log_factors(arg) -> list:
    """``arg`` as [(base, integer exponent)] with a positive rational constant first, or [(arg, 1)] when it is not
    such a product (a negative constant, a non-integer power)."""
    out = []
    for f in sympy.Mul.make_args(arg):
        if f.is_Rational:
            if f <= 0:
                return [(arg, 1)]
            if f != 1:
                out.append((f, 1))
        elif isinstance(f, sympy.Pow) and f.exp.is_Integer:
            out.append((f.base, int(f.exp)))
        else:
            out.append((f, 1))
    return out or [(arg, 1)]


class Encoder:
    """Writes sympy expressions and relations as SMT-LIB terms; collects declarations and side conditions.

    ``integers`` are the symbols declared ``Int``; ``functions`` the certificate's arbitrary functions.
    After encoding, :meth:`declarations` lists every declaration, :attr:`definitions` the assertions that
    define auxiliary constants (always true), :attr:`defined` the definedness conditions of the encoded terms."""

    def __init__(self, integers=(), functions=()):
        self.integers = {str(s) for s in integers}
        self.functions = set(functions)
        self.symbols: dict[str, str] = {}  # name -> sort
        self._applied: dict = {}  # (function, argument terms) -> the constant that stands for the application
        self._powers: list = []  # (base, symbolic exponent, constant) of every power t**n written
        self._special: dict[str, str] = {}  # the function names that stand for exp and log
        self.definitions: list[str] = []
        self.defined: list[str] = []
        self.abstracted: set[str] = set()
        self._aux = 0
        self._guards: list[str] = []  # the ite conditions the term being written sits under
        self._roots: dict = {}  # (base term, q) -> the constant defined as its q-th root

    # -- declarations ----------------------------------------------------------------------------------
    def declarations(self) -> list[str]:
        return [f"(declare-const {quote(n)} {sort})" for n, sort in sorted(self.symbols.items())]

    def logic(self) -> str:
        return "QF_NIRA" if any(s == "Int" for s in self.symbols.values()) else "QF_NRA"

    def laws(self) -> list[str]:
        """True facts about the applications of ``exp`` and ``log`` written (each value a constant, see
        :meth:`_apply`), for at most :data:`MAX_LAW_APPLICATIONS` applications of each.  For ``log`` with
        arguments a_i and values L_i: a_i = 1 ⇒ L_i = 0; 0 < a_i < a_j ⇒ L_i < L_j; a_i, a_j > 0 and
        a_i·a_j = a_k ⇒ L_i + L_j = L_k.  For ``exp`` with values E_i: a_i = 0 ⇒ E_i = 1; a_i < a_j ⇒ E_i < E_j;
        a_i + a_j = a_k ⇒ E_i·E_j = E_k.  The premises are left to the solver, so a law applies wherever the
        arguments are related by real arithmetic, not only where they are written alike.  Facts of the real
        functions: they keep every ``unsat`` answer sound (a ``sat`` answer stays inconclusive)."""
        out = []
        for name, kind in sorted(self._special.items()):
            apps = [(args[0], v) for (f, args), v in self._applied.items() if f == name][:MAX_LAW_APPLICATIONS]
            unit, grow, law = ("1.0", "(< 0.0 {a} {b})", "(=> (and (> {a} 0.0) (> {b} 0.0) (= (* {a} {b}) {c})) "
                                "(= (+ {A} {B}) {C}))") if kind == "log" else \
                ("0.0", "(< {a} {b})", "(=> (= (+ {a} {b}) {c}) (= (* {A} {B}) {C}))")
            for a, A in apps:
                out.append(f"(=> (= {a} {unit}) (= {A} {'0.0' if kind == 'log' else '1.0'}))")
                for b, B in apps:
                    if b != a:
                        out.append(f"(=> {grow.format(a=a, b=b)} (< {A} {B}))")
                    out += [law.format(a=a, b=b, c=c, A=A, B=B, C=C) for c, C in apps if a <= b]
        return out

    def _apply(self, name: str, args: list[str]) -> str:
        """The application ``name(args)`` of an uninterpreted function, Ackermannized: one fresh real constant per
        distinct application and, for every two applications of the same function, the congruence axiom
        ``args = args' => value = value'``.  The problem is then equisatisfiable with the one with function
        symbols, and it is pure real arithmetic, where both solvers' complete procedures for nonlinear real
        arithmetic apply (z3's nlsat, cvc5's cylindrical algebraic coverings; neither is used with functions)."""
        key = (name, tuple(args))
        if key not in self._applied:
            value = self._fresh(name.strip("_") or "f")
            for (other, other_args), other_value in self._applied.items():
                if other == name:
                    eqs = [f"(= {a} {b})" for a, b in zip(args, other_args)]
                    same = "true" if not eqs else eqs[0] if len(eqs) == 1 else "(and " + " ".join(eqs) + ")"
                    self.definitions.append(f"(=> {same} (= {value} {other_value}))")
            self._applied[key] = value
        return self._applied[key]

    def _fresh(self, hint: str) -> str:
        self._aux += 1
        name = f"_{hint}{self._aux}"
        while name in self.symbols:
            self._aux += 1
            name = f"_{hint}{self._aux}"
        self.symbols[name] = "Real"
        return quote(name)

    # -- terms -----------------------------------------------------------------------------------------
    def _need(self, cond: str) -> None:
        """Record a definedness condition (under the ite conditions that select the current branch)."""
        if not self._guards:
            self.defined.append(cond)
            return
        guard = self._guards[0] if len(self._guards) == 1 else f"(and {' '.join(self._guards)})"
        self.defined.append(f"(=> {guard} {cond})")

    def term(self, e) -> str:
        if isinstance(e, sympy.Subs):  # a recorded substitution: carried out here, then written (x := v)
            return self.term(e.doit())
        if isinstance(e, sympy.Limit):
            return self.term(self.limit_value(e))
        if isinstance(e, (sympy.Integer, sympy.Rational)):
            return real_literal(Fraction(int(e.p), int(e.q)))
        if isinstance(e, sympy.Symbol):
            sort = "Int" if e.name in self.integers else "Real"
            self.symbols[e.name] = sort
            return f"(to_real {quote(e.name)})" if sort == "Int" else quote(e.name)
        if isinstance(e, sympy.Add):
            return "(+ " + " ".join(self.term(a) for a in e.args) + ")"
        if isinstance(e, sympy.Mul):
            num, den = [], []
            for a in e.args:
                if isinstance(a, sympy.Pow) and a.exp.is_Integer and a.exp < 0:
                    den.append(a.base ** (-a.exp))
                else:
                    num.append(a)
            top = self._product(num) if num else "1.0"
            if not den:
                return top
            bottom = self._product(den)
            self._need(f"(not (= {bottom} 0.0))")
            return f"(/ {top} {bottom})"
        if isinstance(e, sympy.Pow):
            return self._power(e.base, e.exp)
        if isinstance(e, (sympy.Min, sympy.Max)):
            op = "<=" if isinstance(e, sympy.Min) else ">="
            args = [self.term(a) for a in e.args]
            acc = args[0]
            for a in args[1:]:
                acc = f"(ite ({op} {acc} {a}) {acc} {a})"
            return acc
        if isinstance(e, sympy.Abs):
            a = self.term(e.args[0])
            return f"(ite (>= {a} 0.0) {a} (- {a}))"
        if isinstance(e, sympy.Piecewise):
            pieces = list(e.args)
            if pieces[-1][1] is not sympy.true:
                raise Unsupported(f"a Piecewise without a default branch: {str(e)[:80]}")
            conds = [self.formula(c) for _, c in pieces[:-1]]
            values = []
            for k, (val, _) in enumerate(pieces):  # branch k is taken when conds[:k] fail and conds[k] holds
                self._guards += [f"(not {c})" for c in conds[:k]] + conds[k:k + 1]
                values.append(self.term(val))
                del self._guards[len(self._guards) - k - (1 if k < len(conds) else 0):]
            acc = values[-1]
            for c, v in zip(reversed(conds), reversed(values[:-1])):
                acc = f"(ite {c} {v} {acc})"
            return acc
        if isinstance(e, sympy.log) and _log_factors(e.args[0]) != [(e.args[0], 1)]:
            # log(c * prod b_i**k_i) = log(c) + sum k_i log(b_i) where every b_i > 0: the real log's law, so the
            # logs of 1/M and of M are one unknown
            terms = []
            for b, k in _log_factors(e.args[0]):
                self._need(f"(> {self.term(b)} 0.0)")
                t = self.term(sympy.log(b, evaluate=False))
                terms.append(t if k == 1 else f"(* {real_literal(Fraction(k))} {t})")
            return terms[0] if len(terms) == 1 else "(+ " + " ".join(terms) + ")"
        if isinstance(e, (sympy.exp, sympy.log)):
            name = "exp" if isinstance(e, sympy.exp) else "log"
            while name in self.symbols or name in self.functions:
                name = "_" + name
            a = self.term(e.args[0])
            self.abstracted.add(name)
            self._special[name] = "exp" if isinstance(e, sympy.exp) else "log"
            app = self._apply(name, [a])
            if isinstance(e, sympy.exp):
                self.definitions.append(f"(> {app} 0.0)")
            else:
                self._need(f"(> {a} 0.0)")
            return app
        if e is sympy.E:
            return self.term(sympy.exp(1, evaluate=False))
        if isinstance(e, sympy.core.function.AppliedUndef) and e.func.__name__ in self.functions:
            return self._apply(e.func.__name__, [self.term(a) for a in e.args])
        raise Unsupported(f"{type(e).__name__} is not written to SMT-LIB here ({str(e)[:80]})")

    def limit_value(self, e):
        """``Limit(f, x, a)`` of an f that is continuous in x at the finite point a: the value f(a).

        f may combine x only by sums, products, integer powers, rational powers, ``exp`` and ``log``; each of
        these is continuous at a where it is defined with room: a divisor non-zero, a root's or a log's
        argument positive at x = a.  Those conditions are recorded as the term's definedness (a point where
        one fails is not decided here, so the obligation fails rather than trusts the limit there)."""
        f, x, a = e.args[0], e.args[1], e.args[2]
        if x in a.free_symbols or a.has(sympy.oo, -sympy.oo, sympy.zoo, sympy.nan):
            raise Unsupported(f"a limit at a point that is not finite: {str(e)[:80]}")
        strict = []
        for sub in sympy.preorder_traversal(f):
            if x not in sub.free_symbols or isinstance(sub, (sympy.Add, sympy.Mul, sympy.Symbol, sympy.exp,
                                                               sympy.log)):
                continue
            if isinstance(sub, sympy.Pow) and x not in sub.exp.free_symbols and sub.exp.is_Rational:
                if not sub.exp.is_Integer:
                    strict.append(sub.base)
                continue
            raise Unsupported(f"a limit of a term not known to be continuous here: {str(sub)[:80]}")
        value = f.xreplace({x: a})
        if value.has(sympy.oo, -sympy.oo, sympy.zoo, sympy.nan):
            raise Unsupported(f"a limit at a point where the term is not defined: {str(e)[:80]}")
        for b in strict:
            self._need(f"(> {self.term(b.xreplace({x: a}))} 0.0)")
        return value

    def _product(self, factors) -> str:
        terms = [self.term(f) for f in factors]
        return terms[0] if len(terms) == 1 else "(* " + " ".join(terms) + ")"

    def _power(self, base, exp) -> str:
        if exp.is_Integer:
            k = int(exp)
            if abs(k) > MAX_POWER:
                raise Unsupported(f"the power {k} exceeds {MAX_POWER}")
            if k == 0:
                return "1.0"
            b = self.term(base)
            body = b if abs(k) == 1 else "(* " + " ".join([b] * abs(k)) + ")"
            if k > 0:
                return body
            self._need(f"(not (= {b} 0.0))")
            return f"(/ 1.0 {body})"
        if exp.is_Rational:
            p, q = int(exp.p), int(exp.q)
            require("max_work", abs(p) * q, f"writing the power {exp} to SMT-LIB")
            if abs(p) > MAX_POWER or q > MAX_POWER:
                raise Unsupported(f"the power {exp} exceeds {MAX_POWER}")
            b = self.term(base)
            self._need(f"({'>' if p < 0 else '>='} {b} 0.0)")
            if (b, q) not in self._roots:  # one constant r = b**(1/q) per base and root degree
                r = self._fresh("root")
                self.definitions.append(f"(>= {r} 0.0)")  # r is the root where b >= 0, and free elsewhere
                self.definitions.append(f"(=> (>= {b} 0.0) (= {'(* ' + ' '.join([r] * q) + ')'} {b}))")
                self._roots[(b, q)] = r
            r = self._roots[(b, q)]
            rp = r if abs(p) == 1 else "(* " + " ".join([r] * abs(p)) + ")"
            return rp if p > 0 else f"(/ 1.0 {rp})"
        # a symbolic exponent (t**n): an uninterpreted function application, like exp and log (module docstring)
        name = "pow"
        while name in self.symbols or name in self.functions:
            name = "_" + name
        self.abstracted.add(name)
        value = self._apply(name, [self.term(base), self.term(exp)])
        self._need(self._power_defined(base, exp))
        for other_base, other_exp, other in self._powers:
            shift = exp - other_exp
            if other_base == base and shift.is_Integer and shift != 0:
                lo, low, high = (exp, value, other) if shift < 0 else (other_exp, other, value)
                k = abs(int(shift))
                if k > MAX_POWER:
                    raise Unsupported(f"the exponent difference {k} exceeds {MAX_POWER}")
                tk = self.term(base) if k == 1 else "(* " + " ".join([self.term(base)] * k) + ")"
                # the exponent law t^(a + k) = t^a t^k, true of the real power wherever t^a is defined
                self.definitions.append(f"(=> {self._power_defined(base, lo)} (= {high} (* {low} {tk})))")
        self._powers.append((base, exp, value))
        return value

    def _power_defined(self, base, exp) -> str:
        """Where the real power t^a is defined: t > 0, or t = 0 and a > 0; for an integer-valued a (an integer
        polynomial in ``Int`` parameters) t ≠ 0 or a ≥ 0 (with 0^0 = 1)."""
        t, a = self.term(base), self.term(exp)
        if exp.free_symbols and {str(x) for x in exp.free_symbols} <= self.integers and exp.is_polynomial() \
                and all(c.is_Integer for c in sympy.Poly(exp).coeffs()):
            return f"(or (not (= {t} 0.0)) (>= {a} 0.0))"
        return f"(or (> {t} 0.0) (and (= {t} 0.0) (> {a} 0.0)))"

    # -- formulas --------------------------------------------------------------------------------------
    def formula(self, rel) -> str:
        if rel is sympy.true or rel is True:
            return "true"
        if rel is sympy.false or rel is False:
            return "false"
        if isinstance(rel, sympy.And):
            return "(and " + " ".join(self.formula(a) for a in rel.args) + ")"
        if isinstance(rel, sympy.Or):
            return "(or " + " ".join(self.formula(a) for a in rel.args) + ")"
        if isinstance(rel, sympy.Not):
            return f"(not {self.formula(rel.args[0])})"
        if isinstance(rel, sympy.Unequality):
            return f"(not {self.equal(rel.lhs, rel.rhs)})"
        op = _REL.get(type(rel))
        if op is None:
            raise Unsupported(f"{str(rel)[:80]} is not a relation")
        return self.relation(op, rel.lhs, rel.rhs)

    def equal(self, lhs, rhs) -> str:
        """``lhs = rhs`` as an SMT-LIB formula."""
        return f"(= {self.term(lhs)} {self.term(rhs)})"

    def relation(self, op: str, lhs, rhs) -> str:
        """``lhs op rhs`` (op one of <=, <, >=, >, =) as an SMT-LIB formula."""
        return f"({op} {self.term(lhs)} {self.term(rhs)})"
