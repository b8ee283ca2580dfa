r"""Sympy expressions (as the safe reader builds them) written as SMT-LIB 2 terms over the reals.

The translation is syntactic and exact: rationals become ``(/ p.0 q.0)``, sums and products stay sums and
products, an integer power ``b**k`` a product of ``k`` factors, ``b**(-k)`` a division, ``Min`` / ``Max`` /
``Abs`` / ``Piecewise`` an ``ite``, an integer parameter (``N``) an ``Int`` constant read through ``to_real``.
Nothing is simplified, so a solver sees the certificate's own expressions.

Where a term is only defined on part of the space, the encoder records a **definedness condition**:
every divisor is non-zero, a square root's (more generally a ``p/q``-th power's) base is non-negative.  A
root ``b**(p/q)`` becomes ``r**p`` for one fresh real ``r`` per base and q with ``r >= 0`` and ``r**q = b``
(``b >= 0``; for p < 0 the reciprocal, ``b > 0``) — an exact definition, so models stay genuine.

``exp`` and ``log`` have no exact meaning in QF_NRA: each application becomes an uninterpreted function
application with the true facts ``exp(a) > 0`` and the definedness ``a > 0`` of ``log(a)``; the log of a
product of integer powers is written as ``log(c) + Σ k_i log(b_i)`` (each b_i > 0), so that equal logs are
one unknown; a power with a symbolic exponent (``t**n``) becomes a function ``pow(t, n)``.  An ``unsat``
answer is then sound (the real functions are one interpretation), but a ``sat`` answer may rest on a false
interpretation: :attr:`Encoder.abstracted` says so, and the caller reports such a model as inconclusive.
The certificate's own arbitrary functions (``functions``) are uninterpreted on purpose: the statement holds
for every such function, so any model of the negation is a genuine counterexample.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from exactdp.limits import require

#: the largest integer power written out as a product (larger powers: refused as too large)
MAX_POWER = 64

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
        self.apps: dict[str, int] = {}  # uninterpreted function -> arity
        self.definitions: list[str] = []
        self.defined: list[str] = []
        self.abstracted: set[str] = set()
        self._aux = 0
        self._guards: list[str] = []  # the ite conditions the term being written sits under
        self._roots: dict = {}  # (base term, q) -> the constant defined as its q-th root

    # -- declarations ----------------------------------------------------------------------------------
    def declarations(self) -> list[str]:
        out = [f"(declare-const {quote(n)} {sort})" for n, sort in sorted(self.symbols.items())]
        out += [f"(declare-fun {quote(f)} ({' '.join(['Real'] * k)}) Real)" for f, k in sorted(self.apps.items())]
        return out

    def logic(self) -> str:
        uf = "UF" if self.apps else ""
        arith = "NIRA" if any(s == "Int" for s in self.symbols.values()) else "NRA"
        return f"QF_{uf}{arith}"

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
            self.apps[name] = 1
            self.abstracted.add(name)
            app = f"({quote(name)} {a})"
            if isinstance(e, sympy.exp):
                self.definitions.append(f"(> {app} 0.0)")
            else:
                self._need(f"(> {a} 0.0)")
            return app
        if e is sympy.E:
            return self.term(sympy.exp(1, evaluate=False))
        if isinstance(e, sympy.core.function.AppliedUndef) and e.func.__name__ in self.functions:
            self.apps[e.func.__name__] = len(e.args)
            return f"({quote(e.func.__name__)} " + " ".join(self.term(a) for a in e.args) + ")"
        raise Unsupported(f"{type(e).__name__} is not written to SMT-LIB here ({str(e)[:80]})")

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
                self.definitions.append(f"(>= {r} 0.0)")
                self.definitions.append(f"(= {'(* ' + ' '.join([r] * q) + ')'} {b})")
                self._roots[(b, q)] = r
            r = self._roots[(b, q)]
            rp = r if abs(p) == 1 else "(* " + " ".join([r] * abs(p)) + ")"
            return rp if p > 0 else f"(/ 1.0 {rp})"
        # a symbolic exponent (t**n): an uninterpreted function application, like exp and log (module docstring)
        name = "pow"
        while name in self.symbols or name in self.functions:
            name = "_" + name
        self.apps[name] = 2
        self.abstracted.add(name)
        return f"({quote(name)} {self.term(base)} {self.term(exp)})"

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
            return f"(not (= {self.term(rel.lhs)} {self.term(rel.rhs)}))"
        op = _REL.get(type(rel))
        if op is None:
            raise Unsupported(f"{str(rel)[:80]} is not a relation")
        return f"({op} {self.term(rel.lhs)} {self.term(rel.rhs)})"
