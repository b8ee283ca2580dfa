r"""The registry of every bound and closed form of both papers, as named symbolic objects.

Each :class:`Bound` holds the sympy expression (privacy parametrized by t = e^ε, DESIGN principle 5;
logs/roots only where the statement has them), its parameters and their domain, the quantity it
bounds and the direction, and its source (paper, statement, equation; ``reconstructed`` when
docs/claims.md marks it [RECON]).  Methods: exact evaluation, evaluation to N digits, LaTeX, and
:meth:`Bound.compare` — a proved ordering or exact crossing points by :mod:`exactdp.algebra.prover`.

Parameters (sympy symbols, module constants): ``t`` = e^ε ≥ 1, ``delta`` ∈ [0,1] (the LDP slack of [A]),
``c`` ∈ (0, 1/N], ``N`` ≥ 2 inputs, ``n`` ≥ 1 samples, ``M`` > 1 / ``m`` < 1 likelihood-ratio bounds,
``gamma`` ≥ 1, and for the risk bounds ``Phi`` (loss at the separation), ``TV``, ``I``, ``zeta``, ``L``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import sympy
from flint import fmpq
from sympy.codegen.cfunctions import expm1, log1p

from exactdp.errors import CoercionError, ParameterError
from exactdp.numbers.truth import Truth
from exactdp.numbers.rich import RichDisplay
from exactdp.sources import (
    ASOODEH2021,
    BINETTE2019,
    CATALOGUE,
    DUCHI2018,
    GROSSE2026,
    ZAMANLOOY2023,
    Paper,
    Source,
)
from exactdp.numbers.reader import ReadError, as_expr, substitute
from exactdp.parameters import PMLLevel, PrivacyLevel  # noqa: F401 - the registry's validated parameter values

t = sympy.Symbol("t", positive=True)
delta = sympy.Symbol("delta", nonnegative=True)
c = sympy.Symbol("c", positive=True)
N = sympy.Symbol("N", positive=True, integer=True)
n = sympy.Symbol("n", positive=True, integer=True)
M = sympy.Symbol("M", positive=True)
m = sympy.Symbol("m", nonnegative=True)
gamma = sympy.Symbol("gamma", positive=True)
Phi = sympy.Symbol("Phi", nonnegative=True)
TV = sympy.Symbol("TV", nonnegative=True)
I = sympy.Symbol("I", nonnegative=True)
zeta = sympy.Symbol("zeta", positive=True)
L = sympy.Symbol("L", nonnegative=True)
V = sympy.Symbol("V", positive=True)  # size of a packing
eps = sympy.Symbol("eps", nonnegative=True)

ASOODEH_ZHANG = Paper("asoodeh-zhang2024", "S. Asoodeh, H. Zhang", "Contraction of Locally Differentially "
                      "Private Mechanisms", "IEEE JSAIT 2024")

#: the domain of every parameter symbol (rational conditions the prover can use)
DOMAINS = {
    t: [t >= 1], delta: [delta >= 0, delta <= 1], c: [c > 0, c * N <= 1], N: [N >= 2], n: [n >= 1],
    M: [M > 1], m: [m >= 0, m < 1], gamma: [gamma >= 1], Phi: [Phi >= 0], TV: [TV >= 0, TV <= 1],
    I: [I >= 0], zeta: [zeta > 0], L: [L >= 0, L <= 1], V: [V >= 2],
}

MEANING = {
    t: "e^eps (privacy level)", delta: "LDP slack delta", c: "minimum prior mass c", N: "number of inputs",
    n: "number of samples", M: "upper likelihood-ratio bound", m: "lower likelihood-ratio bound",
    gamma: "hockey-stick order gamma", Phi: "loss at the separation", TV: "TV distance of the inputs",
    I: "mutual information (nats)", zeta: "small-ball radius", L: "small-ball probability L(zeta)",
    V: "packing size |V|",
}


@dataclass(frozen=True)
class Bound(RichDisplay):
    """A named bound or closed form: ``quantity ⋈ expr`` for all parameters in the domain."""

    name: str
    symbol_latex: str  # the paper's symbol, e.g. \varphi(\varepsilon,\delta)
    expr: sympy.Expr
    quantity: str  # what it bounds, in words
    quantity_latex: str
    direction: str  # "upper" (quantity ≤ expr), "lower" (≥), "equals" (closed form), "definition"
    source: Source
    catalogue: tuple = ()
    reconstructed: bool = False
    notes: str = ""
    extra_domain: tuple = ()  # conditions beyond the parameters' own domains
    aliases: tuple = field(default=())
    #: the same formula in a cancellation-free *evaluation form* in ``eps`` (t = e^eps), written with
    #: ``expm1``/``log1p`` for certified balls (:func:`exactdp.numbers.rb.ball_of_form`); None: use ``expr``
    ball_form: sympy.Expr | None = None

    @property
    def parameters(self) -> tuple:
        return tuple(sorted(self.expr.free_symbols, key=str))

    def domain(self) -> list:
        conds = [cnd for p in self.parameters for cnd in DOMAINS.get(p, [])]
        return [cnd for cnd in conds + list(self.extra_domain) if cnd is not sympy.true]

    # -- evaluation -------------------------------------------------------------------------------
    def substitutions(self, values: dict, *, complete: bool = False, others: tuple = ()) -> dict:
        """Parameter values by name: ``t``/``gamma`` exact, or ``eps`` (then t = e^eps); checks domains.

        Every value is checked against its parameter's domain (:data:`DOMAINS` and the symbol's
        assumptions: c > 0, N an integer >= 2, ...) and the bound's extra conditions; with ``complete``
        every parameter must be given.  Names of parameters of ``others`` (bounds compared with this one)
        are accepted and skipped.  Violations raise :class:`ParameterError` naming the parameter."""
        return check_values(self.parameters, values, self.name, extra=self.extra_domain, complete=complete,
                            others=others)

    def evaluate(self, partial: bool = False, **values):
        """The exact value (``fmpq`` when rational, else an exact sympy expression).

        Every parameter must be given (a forgotten one is a :class:`ParameterError` naming it) unless
        ``partial=True``, which substitutes the given ones and returns an expression in the others.

        >>> get("xi").evaluate(t=3, c="1/4", N=2)
        4/5
        >>> get("phi").evaluate(eps="1/2", delta=0)
        1 - exp(-1/2)"""
        from exactdp.numbers.sr import exact_result

        subs = self.substitutions(values, complete=not partial)
        val = substitute(self.expr, subs, self.name)  # powers such as (1 - delta)^n sized before they are built
        if val.free_symbols and not val.has(sympy.Piecewise, sympy.Min, sympy.Max):
            val = sympy.cancel(val)  # a partial evaluation: one fraction (numbers stay as written)
        return exact_result(val)

    def at(self, **values: object) -> fmpq | sympy.Expr:
        """The entry at exact values *already validated* (a :class:`PrivacyLevel` / :class:`PMLLevel` or
        ``check_values``): ``fmpq`` when rational, else the exact sympy expression; no domain check, so
        instance loops pay only the substitution.  Floats are refused (:class:`CoercionError`).

        >>> get("xi").at(t=3, c=fmpq(1, 4), N=2)
        4/5"""
        return exact_at(self.expr, values)

    def evalf(self, digits: int = 15, **values) -> str:
        """The value to ``digits`` significant digits, every digit guaranteed (certified balls,
        :func:`exactdp.numbers.digits.evalf`; correctly rounded)."""
        from exactdp.numbers.digits import evalf

        subs = self.substitutions(values, complete=True)
        try:
            val = substitute(self.expr, subs, self.name)
        except ReadError:  # the exact value is too large to build (n = 10^18): balls of the evaluation form
            if self.ball_form is None:
                raise
            return evalf(self._ball_of_form(subs), digits)
        if val.free_symbols:  # pragma: no cover - complete=True gives every parameter
            raise ParameterError(f"{self.name}: give every parameter to evaluate numerically; missing "
                                 f"{', '.join(sorted(map(str, val.free_symbols)))}")
        return evalf(val, digits)

    def _ball_of_form(self, subs: dict):
        """The value at validated ``subs`` as a certified real from :attr:`ball_form` alone (no exact side):
        the route of :meth:`evalf` when the exact value is too large to build."""
        from exactdp.numbers.rb import RB, ball_of_form

        by_name = {str(k): v for k, v in subs.items()}
        if "t" in by_name:
            by_name["eps"] = sympy.log(by_name["t"])
        return RB.from_evaluator(lambda: ball_of_form(self.ball_form, by_name), None, label=self.name)

    # -- output (LaTeX lives in exactdp.output.latex: bound_latex, bound_statement_latex) ---------------
    def describe(self, show=str, unicode: bool = False) -> str:
        """Name, formula, parameters, domain and source, one per line; ``show`` prints the formula and the
        domain conditions (the command line passes its mathematics printer), ``unicode`` uses ≤ and ≥."""
        rel = {"upper": "≤" if unicode else "<=", "lower": "≥" if unicode else ">=", "equals": "=",
               "definition": ":="}[self.direction]
        params = ", ".join(f"{p} ({MEANING.get(p, '')})" for p in self.parameters)
        sep = ", " if unicode else " , "
        return (f"{self.name}: {self.quantity} {rel} {show(self.expr)}\n  parameters: {params}\n"
                f"  domain: {sep.join(map(show, self.domain()))}\n  source: {self.source}"
                f"{' [reconstructed]' if self.reconstructed else ''}"
                f"{' (' + ', '.join(self.catalogue) + ')' if self.catalogue else ''}"
                + (f"\n  note: {self.notes}" if self.notes else ""))

    # -- comparison -------------------------------------------------------------------------------
    def compare(self, other: Bound, at: dict | None = None, region=None) -> Comparison:
        """Decide ``self ≤ other`` and ``other ≤ self`` on the common domain (with ``at`` substituted).

        >>> get("ldp_dobrushin_tight").compare(get("phi")).le.truth
        <Truth.TRUE: 'true'>"""
        if at:  # validate the values on both bounds (same rules as evaluate; a missing one stays free)
            self.substitutions(at, others=other.parameters)
            other.substitutions(at, others=self.parameters)
        return compare(self.expr, other.expr, self.domain() + other.domain(), at=at, region=region,
                       names=(self.name, other.name))


@dataclass
class Comparison:
    """Proved orderings between two expressions and the exact crossing points."""

    names: tuple
    le: Any  # Decision for a ≤ b (exactdp.algebra.prover.Decision)
    ge: Any  # Decision for a ≥ b
    crossings: list
    le_where: list = field(default_factory=list)  # conditions (beyond the domain) under which a ≤ b is proved
    ge_where: list = field(default_factory=list)

    def summary(self, show=str, le: str = "<=", ge: str = ">=") -> str:
        """The decisions, counterexamples, crossings and proved regions, one per line; ``show`` prints a
        value or condition (the command line passes its mathematics printer), ``le``/``ge`` the relations."""
        a, b = self.names
        lines = [f"{a} {le} {b}: {self.le.truth.value}", f"{a} {ge} {b}: {self.ge.truth.value}"]
        for d, rel in ((self.le, le), (self.ge, ge)):
            if d.counterexample:
                lines.append(f"  counterexample to {a} {rel} {b}: {_fmt(d.counterexample, show)}")
            if d.reason:
                lines.append(f"  ({rel}: {d.reason})")
        if self.crossings:
            lines.append("crossings: " + "; ".join(_fmt(x, show) for x in self.crossings))
        for where, rel in ((self.le_where, le), (self.ge_where, ge)):
            if where:
                lines.append(f"{a} {rel} {b} proved where: " + " or ".join(show(w) for w in where))
        return "\n".join(lines)


def _fmt(d, show=str) -> str:
    return ", ".join(f"{k} = {show(v)}" for k, v in d.items()) if isinstance(d, dict) else show(d)


def _sym_value(v, name: str):
    """An exact sympy value of a (validated) parameter; floats — Python, numpy or sympy — are refused."""
    if isinstance(v, fmpq):
        return sympy.Rational(int(v.p), int(v.q))
    if isinstance(v, bool):
        raise CoercionError(f"{name}: expected a number, got the bool {v!r}")
    if isinstance(v, int):
        return sympy.Integer(v)
    from exactdp.numbers.sr import to_sr

    return to_sr(v, name)  # strings as exact rationals; sympy checked for hidden floats; floats refused


def exact_at(expr: sympy.Expr, values: dict[str, object]) -> fmpq | sympy.Expr:
    """``expr`` (a registry expression) with parameter values substituted by name: an ``fmpq`` when the
    result is rational, else the exact sympy expression.  The substitution every exact evaluation of a
    registry entry goes through (:meth:`Bound.evaluate` validates first, :meth:`Bound.at` does not).
    Powers are sized before they are built, up to 10 × ``max_integer_digits`` digits (the library's own
    exact evaluations, e.g. φⁿ's exact side at δ = 10^-5000, n = 3)."""
    fast = _rational_at(expr, values)
    if fast is not None:
        return fast
    syms = {s.name: s for s in expr.free_symbols}
    out = substitute(expr, {syms[k]: _sym_value(v, k) for k, v in values.items() if k in syms}, scale=10)
    if out.is_Rational:
        return fmpq(int(out.p), int(out.q))
    return out


class _NotRational(Exception):
    """Raised inside a compiled evaluator: this point leaves its rational route (the substitution decides)."""


#: the most arguments of one node the rational route evaluates (the size rule below is per argument)
_MAX_ARGS = 16


def _rational_evaluator(expr: sympy.Expr):
    """``expr`` (sums, products, integer powers, Min and Max of rationals and symbols) compiled once to a function
    of {name: fmpq} and a size cap in bits, returning the exact ``fmpq`` it takes there; None for any other
    expression (logarithms, roots, Piecewise ...).  Every node's value is kept within the cap, and a power is sized
    before it is built, else :class:`_NotRational` hands the point to :func:`exactdp.numbers.reader.substitute`."""
    if expr.is_Symbol:
        name = expr.name
        return lambda v, cap: v[name]
    if expr.is_Rational:
        q = fmpq(int(expr.p), int(expr.q))
        return lambda v, cap: q
    if len(expr.args) > _MAX_ARGS:
        return None
    if expr.is_Pow:
        base = _rational_evaluator(expr.base)
        if base is None:
            return None
        ex = expr.exp
        if ex.is_Integer:
            k = int(ex)
            return lambda v, cap: _power(base(v, cap), k, cap)
        if ex.free_symbols and ex.is_integer:  # (1 - delta)^n: n given as an integer
            exponent = _rational_evaluator(ex)
            if exponent is None:
                return None
            return lambda v, cap: _power(base(v, cap), _integer(exponent(v, cap)), cap)
        return None
    parts = [_rational_evaluator(a) for a in expr.args]
    if any(f is None for f in parts):
        return None
    if expr.is_Add:
        return lambda v, cap: _sized(sum((f(v, cap) for f in parts), fmpq(0)), cap)
    if expr.is_Mul:
        def product(v, cap):
            out = fmpq(1)
            for f in parts:
                out *= f(v, cap)
            return _sized(out, cap)
        return product
    if isinstance(expr, sympy.Min):
        return lambda v, cap: min(f(v, cap) for f in parts)
    if isinstance(expr, sympy.Max):
        return lambda v, cap: max(f(v, cap) for f in parts)
    return None


def _bits(q: fmpq) -> int:
    return int(q.p).bit_length() + int(q.q).bit_length()


def _sized(q: fmpq, cap: int) -> fmpq:
    if _bits(q) > cap:
        raise _NotRational
    return q


def _integer(q: fmpq) -> int:
    if q.q != 1:
        raise _NotRational
    return int(q.p)


def _power(base: fmpq, k: int, cap: int) -> fmpq:
    if base == 0 and k <= 0:  # undefined: the substitution's error
        raise _NotRational
    if _bits(base) * abs(k) > cap:  # sized before it is built
        raise _NotRational
    return base ** k


_EVALUATORS: dict[Any, Any] = {}
_KEPT_EVALUATORS = 512


def _rational_at(expr: sympy.Expr, values: dict[str, object]) -> fmpq | None:
    """The rational route of :func:`exact_at`: ``expr`` at rational values by its compiled evaluator (built once
    per expression, :func:`_rational_evaluator`), with no sympy object built; None when the expression or a value
    is not for this route (the substitution then gives the value, or its error).  Every value is a small fmpq,
    int or sympy Rational and every intermediate stays 32 times below the substitution's size limit, so that
    route would neither refuse the point nor give another value: sympy evaluates these operations exactly."""
    try:
        f = _EVALUATORS[expr]
    except KeyError:
        f = _rational_evaluator(expr)
        if len(_EVALUATORS) < _KEPT_EVALUATORS:  # the registry's entries and a caller's few own expressions
            _EVALUATORS[expr] = f
    if f is None:
        return None
    from exactdp.limits import limit

    cap = int(10 * limit("max_integer_digits") * 3.32) // (2 * _MAX_ARGS)
    point: dict[str, fmpq] = {}
    for k, v in values.items():
        if isinstance(v, fmpq):
            q = v
        elif type(v) is int:
            q = fmpq(v)
        elif isinstance(v, sympy.Rational):
            q = fmpq(int(v.p), int(v.q))
        else:
            return None
        if _bits(q) > cap:
            return None
        point[k] = q
    try:
        return f(point, cap)
    except (_NotRational, KeyError, ZeroDivisionError):  # KeyError: a parameter not given
        return None


#: names accepted for a parameter besides its own: eps (or epsilon) gives t = e^eps; tv_in is TV
_ALIASES = {"tv_in": "TV"}


def _describe(p) -> str:
    return f"{p} ({MEANING[p]})" if p in MEANING else str(p)


def _domain_rules(p) -> list:
    """The conditions a value of parameter ``p`` must meet: its symbol's assumptions and :data:`DOMAINS`."""
    rules = []
    if p.is_integer:
        rules.append(("an integer", lambda v: v.is_integer is True))
    if p.is_positive:
        rules.append(("> 0", lambda v: v.is_positive is True))
    elif p.is_nonnegative:
        rules.append((">= 0", lambda v: v.is_nonnegative is True))
    return rules


def check_values(parameters, values: dict, name: str, *, extra=(), complete: bool = False, others=()) -> dict:
    """Validate ``values`` (parameter name → exact value) for an expression in ``parameters``; return the
    substitution {symbol: exact sympy value}.  The one place where bound parameters are checked: unknown
    or duplicate names, non-numbers, integrality, each parameter's domain (t >= 1, delta in [0, 1],
    c in (0, 1/N], N >= 2 an integer, ...), the extra conditions, and — with ``complete`` — missing ones.

    >>> check_values(get("xi").parameters, {"t": 3, "c": "1/4"}, "xi", complete=True)
    Traceback (most recent call last):
    ...
    exactdp.errors.ParameterError: xi: missing parameter N (number of inputs); give every parameter (N, c, t)
    >>> check_values(get("xi").parameters, {"t": 3, "c": -1, "N": 2}, "xi")
    Traceback (most recent call last):
    ...
    exactdp.errors.ParameterError: c: must be > 0 (minimum prior mass c; domain of xi: c in (0, 1/N]), got '-1'
    """
    from exactdp.limits import quote
    from exactdp.numbers.sr import to_sr

    params = tuple(parameters)
    by_name = {p.name: p for p in params}
    other_names = {getattr(p, "name", str(p)) for p in others}
    subs: dict = {}
    given: dict = {}  # symbol -> the key that gave it (duplicates: eps and t, epsilon and eps)
    for key, value in values.items():
        key = str(key)
        if key in ("eps", "epsilon"):
            e = to_sr(value, "eps")
            if not e.is_number or e.is_extended_real is False:
                raise ParameterError(f"eps: must be a real number, got {quote(e)}")
            if e.is_negative:
                raise ParameterError(f"eps: must be >= 0, got {quote(e)}")
            if t not in params:
                if "t" in other_names:
                    continue
                raise ParameterError(f"eps: not a parameter of {name} "
                                     f"(parameters: {', '.join(sorted(by_name)) or 'none'})")
            sym, val = t, sympy.exp(e)
        else:
            key = _ALIASES.get(key, key)
            if key not in by_name:
                if key in other_names:
                    continue
                raise ParameterError(f"{quote(key, 40)}: not a parameter of {name} "
                                     f"(parameters: {', '.join(sorted(by_name)) or 'none'})")
            sym = by_name[key]
            val = to_sr(value, key)
        if sym in given:
            raise ParameterError(f"{key}: given twice (as {given[sym]} and as {key}); give each parameter once"
                                 + (" (eps = log t: give eps or t, not both)" if sym is t else ""))
        if not val.is_number:
            raise ParameterError(f"{key}: must be a number, got {quote(val)}")
        if val.is_extended_real is False or val.has(sympy.oo, -sympy.oo):
            raise ParameterError(f"{key}: must be a finite real number, got {quote(val)}")
        for rule, ok in _domain_rules(sym):
            if not ok(val):
                raise ParameterError(f"{key}: must be {rule} ({_domain_note(sym, name)}), got {quote(val)}")
        given[sym] = key
        subs[sym] = val
    if complete:
        missing = [p for p in params if p not in subs]
        if missing:
            raise ParameterError(f"{name}: missing parameter{'s' if len(missing) > 1 else ''} "
                                 f"{', '.join(_describe(p) for p in missing)}; give every parameter "
                                 f"({', '.join(p.name for p in params)})")
    conds = [cnd for p in params for cnd in DOMAINS.get(p, [])] + list(extra)
    for cond in conds:
        if cond in (sympy.true, True):
            continue
        v = cond.subs(subs)
        if v is sympy.false or v is False:
            raise ParameterError(f"{name}: the values {_fmt(subs)} violate the domain condition {cond}")
    return subs


def _domain_note(sym, name: str) -> str:
    ranges = {"c": "c in (0, 1/N]", "delta": "delta in [0, 1]", "t": "t = e^eps >= 1", "N": "N >= 2 inputs",
              "n": "n >= 1 samples"}
    meaning = MEANING.get(sym, str(sym))
    r = ranges.get(sym.name)
    return f"{meaning}; domain of {name}: {r}" if r else f"{meaning}"


def compare(a, b, domain=(), at: dict | None = None, region=None, names=("a", "b")) -> Comparison:
    """Decide a ≤ b and a ≥ b exactly on the domain (conditions) after substituting ``at``."""
    from exactdp.numbers.sr import to_sr
    from exactdp.algebra.prover import Region, decide

    at = {(sympy.Symbol(k) if isinstance(k, str) else k): v for k, v in (at or {}).items()}
    syms = {s.name: s for s in (a.free_symbols | b.free_symbols)}
    subs = {syms.get(k.name, k): to_sr(v, str(k)) for k, v in at.items()}
    a2, b2 = as_expr(a).subs(subs), as_expr(b).subs(subs)
    conds = []
    for cond in domain:
        cnd = cond.subs(subs)
        if cnd is sympy.true:
            continue
        if cnd is sympy.false:
            raise ParameterError(f"the values {_fmt(subs)} violate the domain condition {cond}")
        conds.append(cnd)
    reg = region or Region.of(*conds, variables=sorted(a2.free_symbols | b2.free_symbols, key=str))
    le = decide(a2 <= b2, reg)
    ge = decide(a2 >= b2, reg)
    crossings = le.crossings or ge.crossings
    le_where, ge_where = [], []
    one = [x for x in crossings if isinstance(x, dict) and len(x) == 1]
    decided = le.truth is not Truth.UNKNOWN and ge.truth is not Truth.UNKNOWN
    if decided and le.truth is Truth.FALSE and ge.truth is Truth.FALSE and len(reg.variables) == 1 \
            and not reg.constraints and one and not (a2 - b2).has(sympy.Piecewise, sympy.Min, sympy.Max):
        (v,) = reg.variables
        rs = sorted({r for x in one for r in x.values()}, key=lambda r: sympy.N(r, 50))
        le_where, ge_where = _one_parameter_cells(a2, b2, v, rs, reg)
    elif le.truth is not Truth.TRUE and ge.truth is not Truth.TRUE:
        for cond in _cells(crossings, reg):
            sub = reg.with_conditions(cond)
            if decide(a2 <= b2, sub).truth is Truth.TRUE:
                le_where.append(cond)
            if decide(a2 >= b2, sub).truth is Truth.TRUE:
                ge_where.append(cond)
    return Comparison(names, le, ge, crossings, le_where, ge_where)


def _one_parameter_cells(a, b, v, rs, reg):
    """``(le_where, ge_where)`` on one parameter: the cells between the exact crossing points r₁ < … < r_k
    (all zeros of the numerator of a − b in the region; its denominator has a proved constant sign), each
    decided by the exact sign of a − b at one rational point strictly inside, then closed by continuity."""
    bnd = reg.bounds(v)
    lo_end = None if bnd.lo is None else sympy.Rational(int(bnd.lo.p), int(bnd.lo.q))
    hi_end = None if bnd.hi is None else sympy.Rational(int(bnd.hi.p), int(bnd.hi.q))
    ends = [lo_end, *rs, hi_end]
    le_where, ge_where = [], []
    for left, right in itertools.pairwise(ends):
        if left is not None and right is not None and not bool(left < right):
            continue
        if left is None or right is None:
            q = (right - 1) if left is None else (left + 1)
            q = sympy.floor(q) if left is None else sympy.ceiling(q)
        else:
            q = sympy.Rational(str(sympy.N((left + right) / 2, 40)))
        if not ((left is None or bool(left < q)) and (right is None or bool(q < right))):
            continue  # pragma: no cover - a 40-digit midpoint always separates distinct algebraic ends
        diff = as_expr(a - b).subs(v, q)
        cond = sympy.And(*([v >= left] if left is not None and left != lo_end else []),
                         *([v <= right] if right is not None and right != hi_end else []))
        if cond is sympy.true:
            continue
        try:
            nonpositive = bool(diff <= 0)
        except TypeError:  # sympy could not settle the sign exactly: report nothing for this cell
            continue
        (le_where if nonpositive else ge_where).append(cond)
    return le_where, ge_where


def _cells(crossings, reg) -> list:
    """Candidate pieces of the region cut by the crossings: v ≤ h / v ≥ h for a curve v = h, and the
    intervals between consecutive crossing points of one parameter (rational ends only)."""
    out = []
    points: dict = {}
    for x in crossings:
        if isinstance(x, sympy.Eq) and isinstance(x.lhs, sympy.Symbol) and x.rhs.free_symbols:
            out += [x.lhs <= x.rhs, x.lhs >= x.rhs]
        elif isinstance(x, dict) and len(x) == 1:
            (v, r), = x.items()
            points.setdefault(v, []).append(r)
        elif isinstance(x, sympy.Eq) and isinstance(x.lhs, sympy.Symbol) and x.rhs.is_number:
            points.setdefault(x.lhs, []).append(x.rhs)
    for v, rs in points.items():
        rs = sorted(set(rs), key=lambda r: sympy.N(r, 30))
        if not all(r.is_Rational for r in rs):
            continue  # irrational ends on a constrained region: the crossings are the answer
        b = reg.bounds(v)
        ends = [v <= rs[0]] if b.lo is None or sympy.Rational(int(b.lo.p), int(b.lo.q)) < rs[0] else []
        if b.hi is None or sympy.Rational(int(b.hi.p), int(b.hi.q)) > rs[-1]:
            ends.append(v >= rs[-1])
        out += ends + [sympy.And(v >= lo, v <= hi) for lo, hi in itertools.pairwise(rs)]
    return out


# -- the registry -------------------------------------------------------------------------------------

REGISTRY: dict[str, Bound] = {}


def register(b: Bound) -> Bound:
    if b.name in REGISTRY:
        raise ValueError(f"bound {b.name!r} registered twice")
    REGISTRY[b.name] = b
    return b


def get(name: str) -> Bound:
    try:
        return REGISTRY[name]
    except KeyError:
        from exactdp.limits import quote

        raise ParameterError(f"NAME: unknown bound {quote(name, 60)}; `exactdp bound --list` lists them") from None


def _src(paper, label, section=None, equation=None, page=None) -> Source:
    return Source(paper, label, section, page, equation)


A, G = ASOODEH2021, GROSSE2026

# The formulas of both papers, each written once (privacy in t = e^eps).  A ``*_ball`` form is the same
# formula in eps, rewritten with expm1/log1p so that certified balls do not cancel (eps = 1e-30,
# n = 10^6, delta = 1 - 1e-30); tests/objects/test_one_formula.py checks each equals its expression.
phi_n = 1 - (1 - delta) ** n / t**n
phi = phi_n.subs(n, 1)  # phi^1 (sympy prints it 1 - (1 - delta)/t)
phi_n_ball = -expm1(n * (log1p(-delta) - eps))  # 1 - e^{-n eps}(1 - delta)^n
phi_n_complement_ball = sympy.exp(n * (log1p(-delta) - eps))  # e^{-n eps}(1 - delta)^n = 1 - phi^n
xi_raw = (t - 1) / (t * (1 - N * c) + 1)
xi = sympy.Min(xi_raw, 1)
xi_ball = sympy.Min(expm1(eps) / (sympy.exp(eps) * (1 - N * c) + 1), 1)
ldp_tight = (t - 1 + 2 * delta) / (t + 1)
ldp_tight_ball = (expm1(eps) + 2 * delta) / (sympy.exp(eps) + 1)
gamma_max_l4 = (1 - N * c) * t + 1
gamma_max_first = (t * (1 - N * c) + c) / (1 - (N - 1) * c)  # G-23's branch for t (N-1) c < 1
gamma_max_exact = sympy.Piecewise((gamma_max_first, t * (N - 1) * c < 1), (gamma_max_l4, True))
binette_f = None  # the generic coefficient is f-dependent: see binette_kl / binette_h2

register(Bound("phi", r"\varphi(\varepsilon,\delta)", phi, "eta_TV(K) (and eta_f(K)) of an (eps,delta)-LDP K",
               r"\eta_{f}(K) \leq \eta_{\mathrm{TV}}(K)", "upper", _src(A, "Lemma (phi-contraction)", "III", page="4"),
               ("D-13", "A-7"), notes="valid but not tight (F-A2): see ldp_dobrushin_tight"))
register(Bound("phi_n", r"\varphi^{n}(\varepsilon,\delta)", phi_n,
               "eta_f of the n-fold product of (eps,delta)-LDP kernels", r"\eta_{f}(K_1 \otimes \cdots \otimes K_n)",
               "upper", _src(A, "tensorized contraction", "III", page="4"), ("D-13", "A-8"),
               notes="phi^n is a label, NOT phi to the power n (F-A1); equals phi(n eps, 1-(1-delta)^n)",
               ball_form=phi_n_ball))
register(Bound("composition_delta", r"1-(1-\delta)^{n}", 1 - (1 - delta) ** n,
               "delta of the n-fold composition at level n*eps", r"\delta_{n}", "upper",
               _src(CATALOGUE, "B-10 (Kairouz-Oh-Viswanath, i = 0 term)"), ("B-10",),
               ball_form=-expm1(n * log1p(-delta))))
register(Bound("effective_sample_size_phi", r"n\,\varphi(\varepsilon,\delta)", n * phi,
               "effective sample size in [A]'s private Le Cam bound", r"n_{\mathrm{eff}}", "equals",
               _src(A, "locally private Le Cam", "IV-A", page="5"), ("A-10",), reconstructed=True,
               notes="direction of the comparison with 4 eps^2 n is reversed for small eps (F-A3)"))
register(Bound("effective_sample_size_duchi", r"4(e^{\varepsilon}-1)^{2} n", 4 * (t - 1) ** 2 * n,
               "effective sample size of Duchi et al. (FOCS 2013 form)", r"n_{\mathrm{eff}}", "equals",
               _src(DUCHI2018, "Thm 1 (KL form)"), ("A-10", "B-5")))
register(Bound("effective_sample_size_duchi_eps2", r"4\varepsilon^{2} n", 4 * sympy.log(t) ** 2 * n,
               "effective sample size 4 eps^2 n quoted by [A]", r"n_{\mathrm{eff}}", "equals",
               _src(A, "comparison with [10]", "IV-A", page="5"), ("A-10",)))
register(Bound("xi", r"\Xi(\varepsilon,c)", xi, "the private Dobrushin coefficient eta_TV(eps,c)",
               r"\Xi(\varepsilon,c)", "definition", _src(G, "Xi", "IV"), ("D-11", "G-24"), ball_form=xi_ball))
register(Bound("grosse_thm1", r"\eta_{\mathrm{TV}}(\varepsilon,c)", xi,
               "sup of eta_TV over (eps,c)-PML kernels M(eps,c)", r"\eta_{\mathrm{TV}}(\varepsilon,c)", "equals",
               _src(G, "Theorem 1", "III"), ("G-15", "G-18"),
               notes="stated as <=; equality holds (F-G10, exact LP)"))
register(Bound("gamma_max_lemma4", r"\Gamma_{\max}(\varepsilon,c)", gamma_max_l4,
               "largest output likelihood ratio over K in M(eps,c), P,Q in Q_X(c)", r"\Gamma_{\max}(\varepsilon,c)",
               "upper", _src(G, "Lemma 4", "IV"), ("G-23", "D-12"), extra_domain=(t * c <= 1,),
               notes="loose when e^eps < 1/((N-1)c) (F-G2)"))
register(Bound("gamma_min_lemma4", r"\Gamma_{\min}(\varepsilon,c)", 1 / gamma_max_l4,
               "smallest output likelihood ratio", r"\Gamma_{\min}(\varepsilon,c)", "lower",
               _src(G, "Lemma 4", "IV"), ("G-23", "D-12"), extra_domain=(t * c <= 1,)))
register(Bound("gamma_max_exact", r"\Gamma_{\max}(\varepsilon,c)", gamma_max_exact,
               "largest output likelihood ratio (exact two-branch value)", r"\Gamma_{\max}(\varepsilon,c)",
               "equals", _src(CATALOGUE, "G-23 exact value [DERIVED]"), ("G-23",), extra_domain=(t * c <= 1,)))
register(Bound("gamma_min_exact", r"\Gamma_{\min}(\varepsilon,c)", 1 / gamma_max_exact,
               "smallest output likelihood ratio (exact)", r"\Gamma_{\min}(\varepsilon,c)", "equals",
               _src(CATALOGUE, "G-23 exact value [DERIVED]"), ("G-23",), extra_domain=(t * c <= 1,)))
register(Bound("grosse_cor1_kl", r"\Xi(\varepsilon,c)\log((1-Nc)e^{\varepsilon}+1)", xi * sympy.log(gamma_max_l4),
               "D(K o P || K o Q) / TV(P,Q) for K in M(eps,c), P,Q in Q_X(c)",
               r"\frac{D(K\circ P\|K\circ Q)}{\mathrm{TV}(P,Q)}", "upper", _src(G, "Corollary 1", "IV"),
               ("G-25",), extra_domain=(t * c <= 1,), notes="weaker than Zamanlooy-Asoodeh as c -> 0 (F-G2)"))
register(Bound("grosse_cor2_h2", r"\Xi(\varepsilon,c)(2-\frac{4}{\sqrt{(1-Nc)e^{\varepsilon}+1}+1})",
               xi * (2 - 4 / (sympy.sqrt(gamma_max_l4) + 1)),
               "H^2(K o P, K o Q) / TV(P,Q) (H^2 without 1/2)", r"\frac{H^{2}(K\circ P,K\circ Q)}{\mathrm{TV}(P,Q)}",
               "upper", _src(G, "Corollary 2", "IV"), ("G-26",), extra_domain=(t * c <= 1,)))
register(Bound("ldp_dobrushin", r"\frac{e^{\varepsilon}-1}{e^{\varepsilon}+1}", (t - 1) / (t + 1),
               "sup of eta_TV over eps-LDP kernels (tight, binary RR)", r"\eta_{\mathrm{TV}}(K)", "equals",
               _src(G, "eq. (13)", "II-C", equation="13"), ("B-4", "G-9")))
register(Bound("ldp_dobrushin_tight", r"\frac{e^{\varepsilon}-1+2\delta}{e^{\varepsilon}+1}",
               ldp_tight, "sup of eta_TV over (eps,delta)-LDP kernels (tight)",
               r"\eta_{\mathrm{TV}}(K)", "equals", _src(CATALOGUE, "B-4 [DERIVED]"), ("B-4", "A-7"),
               ball_form=ldp_tight_ball))
register(Bound("duchi_kl", r"\min\{4,e^{2\varepsilon}\}(e^{\varepsilon}-1)^{2}",
               sympy.Min(4, t**2) * (t - 1) ** 2,
               "(D(KP||KQ) + D(KQ||KP)) / TV(P,Q)^2 for eps-LDP K", r"\frac{D_{\mathrm{sym}}}{\mathrm{TV}^{2}(P,Q)}",
               "upper", _src(DUCHI2018, "Theorem 1"), ("B-5", "G-9")))
register(Bound("zamanlooy_asoodeh_egamma", r"\frac{(e^{\varepsilon}-\gamma)^{+}}{e^{\varepsilon}+1}",
               sympy.Max(t - gamma, 0) / (t + 1), "E_gamma(KP||KQ) / TV(P,Q) for eps-LDP K",
               r"\frac{E_{\gamma}(K\circ P\|K\circ Q)}{\mathrm{TV}(P,Q)}", "upper",
               _src(ZAMANLOOY2023, "SDPI for LDP (E_gamma form)"), ("B-7",), reconstructed=True))
register(Bound("zamanlooy_asoodeh_kl", r"\frac{\varepsilon(e^{\varepsilon}-1)}{e^{\varepsilon}+1}",
               sympy.log(t) * (t - 1) / (t + 1), "D(KP||KQ) / TV(P,Q) for eps-LDP K",
               r"\frac{D(K\circ P\|K\circ Q)}{\mathrm{TV}(P,Q)}", "upper",
               _src(ZAMANLOOY2023, "SDPI for LDP (f-divergence form, KL)"), ("B-7",), reconstructed=True))
register(Bound("zamanlooy_asoodeh_h2", r"\frac{2(e^{\varepsilon/2}-1)^{2}}{e^{\varepsilon}+1}",
               2 * (sympy.sqrt(t) - 1) ** 2 / (t + 1), "H^2(KP,KQ) / TV(P,Q) for eps-LDP K",
               r"\frac{H^{2}(K\circ P,K\circ Q)}{\mathrm{TV}(P,Q)}", "upper",
               _src(ZAMANLOOY2023, "SDPI for LDP (f-divergence form, H^2)"), ("B-7",), reconstructed=True))
register(Bound("binette_kl", r"\log M", sympy.log(M), "Binette's KL coefficient with m = 1/M: D(P||Q)/TV(P,Q)",
               r"\frac{D(P\|Q)}{\mathrm{TV}(P,Q)}", "upper", _src(BINETTE2019, "reverse Pinsker, KL"), ("B-6",)))
register(Bound("binette_h2", r"2-\frac{4}{\sqrt{M}+1}", 2 - 4 / (sympy.sqrt(M) + 1),
               "Binette's H^2 coefficient with m = 1/M", r"\frac{H^{2}(P,Q)}{\mathrm{TV}(P,Q)}", "upper",
               _src(BINETTE2019, "reverse Pinsker, H^2"), ("B-6",)))
register(Bound("binette_chi2", r"M-m", M - m, "Binette's chi^2 coefficient: chi^2(P||Q)/TV(P,Q)",
               r"\frac{\chi^{2}(P\|Q)}{\mathrm{TV}(P,Q)}", "upper", _src(BINETTE2019, "reverse Pinsker, chi^2"),
               ("B-6",), notes="f(x) = (x-1)^2: (1-m) + (M-1)"))
register(Bound("asoodeh_zhang_chi2", r"\left(\frac{e^{\varepsilon}-1}{e^{\varepsilon}+1}\right)^{2}",
               ((t - 1) / (t + 1)) ** 2, "eta_chi2(K) of an eps-LDP K", r"\eta_{\chi^{2}}(K)", "upper",
               _src(ASOODEH_ZHANG, "contraction of LDP mechanisms"), ("B-8",)))
register(Bound("ldp_phi_gap", r"\varphi(\varepsilon,\delta)-\frac{e^{\varepsilon}-1+2\delta}{e^{\varepsilon}+1}",
               (1 - delta) * (t - 1) / (t * (t + 1)), "phi minus the tight (eps,delta) value",
               r"\varphi - \eta^{*}", "equals", _src(CATALOGUE, "A-7 check 2 [DERIVED]"), ("A-7", "F-A2")))
# -- minimax and Bayes bounds of [A] (all reconstructions, docs/claims.md A-10..A-16) ------------------------
register(Bound("lecam_private_tv", r"\frac{\Phi}{2}(1-\min\{1,n\varphi\mathrm{TV}\})",
               Phi / 2 * (1 - sympy.Min(1, n * phi * TV)), "private minimax risk M_n (Le Cam, TV route)",
               r"\mathcal{M}_{n}", "lower", _src(A, "locally private Le Cam", "IV-A", page="5"), ("A-10",),
               reconstructed=True))
register(Bound("lecam_private_kl", r"\frac{\Phi}{2}(1-\sqrt{n\varphi D/2})",
               Phi / 2 * (1 - sympy.sqrt(n * phi * I / 2)), "private minimax risk M_n (Le Cam, KL route; I = D(P1||P2))",
               r"\mathcal{M}_{n}", "lower", _src(A, "locally private Le Cam", "IV-A", page="5"), ("A-10",),
               reconstructed=True))
register(Bound("fano_private", r"\Phi(1-\frac{n\varphi I+\log 2}{\log|V|})",
               Phi * (1 - (n * phi * I + sympy.log(2)) / sympy.log(V)), "private minimax risk (Fano, non-interactive)",
               r"\mathcal{M}_{n}", "lower", _src(A, "locally private Fano", "IV-B", page="5"), ("A-12",),
               reconstructed=True))
register(Bound("bayes_thm2", r"\zeta(1-e^{\varepsilon}L-\varphi^{n}I_{\gamma})",
               zeta * (1 - t * L - phi_n * I), "private Bayes risk R_B (Theorem 2, n > 1, I = I_{e^eps}(theta;X^n))",
               r"R_{B}", "lower", _src(A, "Theorem 2", "V", page="6"), ("A-14",), reconstructed=True))
register(Bound("xu_raginsky_private", r"\zeta(1-\frac{\varphi^{n}I+\log 2}{\log(1/L)})",
               zeta * (1 - (phi_n * I + sympy.log(2)) / sympy.log(1 / L)),
               "private Bayes risk R_B (private Xu-Raginsky, bound (15))", r"R_{B}", "lower",
               _src(A, "bound (15)", "V", page="7", equation="15"), ("A-15",), reconstructed=True))
register(Bound("mutual_information_ldp", r"\varphi(\varepsilon,\delta) H(X)", phi * I,
               "sup of I(X;Z) over (eps,delta)-LDP K (I = H(X))", r"I(X;Z)", "upper",
               _src(A, "mutual information under LDP", "VII", page="9"), ("A-19",), reconstructed=True))


# -- estimation bounds evaluated by exactdp.theory.estimation (all reconstructions) ---------------
alpha = sympy.Symbol("alpha", nonnegative=True)
k = sympy.Symbol("k", positive=True)
DOMAINS[alpha], MEANING[alpha] = [alpha >= 0, alpha < 1], "type-I error level alpha"
DOMAINS[k], MEANING[k] = [k > 1], "moment order k (E|X|^k <= 1)"
register(Bound("chernoff_stein_private", r"\frac{n\varphi D+\log 2}{1-\alpha}",
               (n * phi * I + sympy.log(2)) / (1 - alpha), "-log beta_n^{eps,delta}(alpha) (I = D(P0||P1))",
               r"-\log\beta_{n}^{\varepsilon,\delta}(\alpha)", "upper",
               _src(A, "private hypothesis testing", "VI", page="8"), ("A-18",), reconstructed=True))
register(Bound("mean_estimation_reported", r"\min\{1,(n\varphi^{2})^{-(k-1)/k}\}",
               sympy.Min(1, (n * phi**2) ** (-(k - 1) / k)), "private minimax MSE of mean estimation (up to c_l)",
               r"\mathcal{M}_{n}", "lower", _src(A, "mean estimation", "IV-A", page="5"), ("A-11", "F-A4"),
               reconstructed=True, notes="as reported it exceeds the sample mean's 1/n at phi = 1 (F-A4)"))
register(Bound("mean_estimation_tv_route", r"\min\{1,(n\varphi)^{-2(k-1)/k}\}",
               sympy.Min(1, (n * phi) ** (-2 * (k - 1) / k)), "private minimax MSE of mean estimation, TV route",
               r"\mathcal{M}_{n}", "lower", _src(CATALOGUE, "A-11 TV route [DERIVED]"), ("A-11", "F-A4"),
               reconstructed=True))
register(Bound("grosse_example3_minimax", r"\frac{\Phi}{8}e^{-n\Xi\log((1-Nc)e^{\varepsilon}+1)\mathrm{TV}}",
               Phi / 8 * sympy.exp(-n * xi * sympy.log(gamma_max_l4) * TV),
               "minimax risk of [G] Example 3 (Le Cam + Bretagnolle-Huber, Phi = loss at the separation)",
               r"\inf_{\hat\theta}\max_{i}\mathbb{E}_{i}\ell", "lower", _src(G, "Example 3", "IV"), ("G-28",),
               reconstructed=True, extra_domain=(t * c <= 1,)))


# -- presentations: how exactdp.theory.estimation names and states its bounds (its SPECS are a view) ----

@dataclass(frozen=True)
class Presentation:
    """A registry entry as :mod:`exactdp.theory.estimation` presents it: its id there, title, the full
    statement in LaTeX and the source label it cites."""

    id: str
    title: str
    latex: str
    source: Source
    catalogue: tuple
    reconstructed: bool = True


#: registry name -> its estimation presentation, in presentation order
PRESENTATIONS: dict[str, Presentation] = {}


def _present(name, id, title, latex, label, section, catalogue, paper=ASOODEH2021, reconstructed=True, **kw):
    get(name)  # the entry must exist: one registry
    PRESENTATIONS[name] = Presentation(id, title, latex, Source(paper, label, section, **kw), catalogue,
                                       reconstructed)


_present("lecam_private_tv", "le_cam_tv", "Locally private Le Cam (TV route)",
         r"\mathcal M_n\ge\frac{\Phi(t)}{2}\bigl(1-\min\{1,\,n\varphi(\varepsilon,\delta)\,\mathrm{TV}(P_1,P_2)\}\bigr)",
         "Le Cam corollary (label unknown)", "§IV-A", ("A-10",), page="5")
_present("lecam_private_kl", "le_cam_kl", "Locally private Le Cam (KL route)",
         r"\mathcal M_n\ge\frac{\Phi(t)}{2}\Bigl(1-\sqrt{\tfrac{n\varphi(\varepsilon,\delta)}{2}D(P_1\|P_2)}\Bigr)",
         "Le Cam corollary (label unknown)", "§IV-A", ("A-10",), page="5")
_present("fano_private", "fano", "Locally private Fano (non-interactive)",
         r"\mathcal M_n\ge\Phi(t)\Bigl(1-\frac{n\varphi(\varepsilon,\delta)I(V;X)+\log 2}{\log|\mathcal V|}\Bigr)",
         "Fano corollary (label unknown)", "§IV-B", ("A-12",), page="5-6")
_present("mean_estimation_reported", "mean_as_reported", "Mean estimation rate as reported",
         r"\mathcal M_n\ge c_\ell\min\{1,(n\varphi^2(\varepsilon,\delta))^{-(k-1)/k}\}",
         "mean estimation (§IV-A)", "§IV-A", ("A-11", "F-A4"), page="5")
_present("mean_estimation_tv_route", "mean_tv_route", "Mean estimation rate via the TV route",
         r"\mathcal M_n\gtrsim\min\{1,(n\varphi(\varepsilon,\delta))^{-2(k-1)/k}\}",
         "mean estimation (§IV-A)", "§IV-A", ("A-11", "F-A4"), page="5")
_present("bayes_thm2", "thm2_bayes", "Theorem 2: private Bayes risk via E_gamma",
         r"R_B\ge\sup_\zeta\zeta\bigl[1-e^{\varepsilon}L(\zeta)-\psi_n I_{e^\varepsilon}(\theta;X^n)\bigr]",
         "Theorem 2", "§V", ("A-14",), page="6-7", equation="(17)")
_present("xu_raginsky_private", "xu_raginsky", "Private Xu-Raginsky bound",
         r"R_B\ge\sup_\zeta\zeta\Bigl[1-\frac{\varphi^n(\varepsilon,\delta)I(\theta;X^n)+\log 2}{\log(1/L(\zeta))}\Bigr]",
         "bound (15) / private [44, Thm 1]", "§V", ("A-15",), page="6", equation="(15)")
_present("chernoff_stein_private", "testing", "Private Chernoff-Stein (weak converse)",
         r"-\log\beta_n^{\varepsilon,\delta}(\alpha)\le\frac{n\varphi(\varepsilon,\delta)D(P_0\|P_1)+\log 2}{1-\alpha}",
         "testing corollary (label unknown)", "§VI", ("A-18",), page="8")
_present("mutual_information_ldp", "mutual_information", "Mutual information under (eps,delta)-LDP",
         r"\sup_{K\in\mathcal Q_{\varepsilon,\delta}}I(X;Z)\le\varphi(\varepsilon,\delta)H(X)",
         "MI bound (label unknown)", "§VII", ("A-19",), page="9")
_present("grosse_cor1_kl", "grosse_ex3_kl", "[G] Example 3: KL of the privatized pair (Cor 1, N=4)",
         r"D(K\circ P_{\theta_0}\|K\circ P_{\theta_1})\le\Xi(\varepsilon,c)\log\bigl((1-Nc)e^\varepsilon+1\bigr)\,\delta",
         "Example 3", "§IV", ("G-28",), paper=GROSSE2026, reconstructed=False)
_present("grosse_cor2_h2", "grosse_cor2_h2", "[G] Corollary 2: squared Hellinger",
         r"H^2(K\circ P_X\|K\circ Q_X)\le\Xi(\varepsilon,c)\Bigl(2-\frac{4}{\sqrt{(1-Nc)e^\varepsilon+1}+1}\Bigr)\delta",
         "Corollary 2", "§IV", ("G-26",), paper=GROSSE2026, reconstructed=False)
_present("grosse_example3_minimax", "grosse_ex3_minimax", "[G] Example 3: Le Cam + Bretagnolle-Huber minimax bound",
         r"\inf_{\hat\theta}\max_i\mathbb E_i\ell\ge\frac{\ell(\theta_0,\theta_1)}{8}"
         r"\exp\bigl(-n\,\Xi(\varepsilon,c)\log((1-Nc)e^\varepsilon+1)\,\delta\bigr)",
         "Example 3", "§IV", ("G-28",), paper=GROSSE2026)


def names() -> list[str]:
    return sorted(REGISTRY)
