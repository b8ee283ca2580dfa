r"""The log-linear value domain: exact-or-certified real values for conjecture checking, and an evaluator of
sympy trees over them.

A declared number domain beside QQ, RB and SR (:mod:`exactdp.numbers.domain`): the conjecture search
(:mod:`exactdp.verification.conjecture`) evaluates its formulas over these values, which stay exact longer
than RB's sympy expressions (log-linear combinations, rational powers) and are cheaper to compare (one ball
per sign, no sympy tree).  Its operations are the module functions (``add``, ``mul``, ``sign``, ...), not the
:class:`~exactdp.numbers.domain.Domain` interface, whose measures take kernels, not values.

A value is one of

* ``fmpq`` — an exact rational;
* :class:`LogLin` — an exact element q₀ + Σ qᵢ log rᵢ (qᵢ, rᵢ rational, rᵢ > 0): the values of ε = log γ,
  of LDP / PML / maximal-leakage levels and of KL divergences between rational distributions;
* ``arb`` — a certified real ball (python-flint) at the working precision, for anything else
  (square roots of non-squares, exp of a non-integer log combination, π, ...);
* :class:`Inf` — +∞ or −∞ (an infinite LDP level, a KL divergence with a zero in the second argument).

Arithmetic stays exact as long as it can: exp(k·log γ) = γᵏ for integer k, so bounds written in
``exp(eps)`` with ε = log γ are rational.  Signs come from balls; a :class:`LogLin` whose ball cannot
be separated from 0 is tested for exact zero by the certified layer
(:func:`exactdp.numbers.exact_zero.is_zero`: coprime log basis and Lindemann); otherwise a ball containing 0
means *undecided at this precision* (:class:`Undecided`), never a guess.  An expression with no value (∞ − ∞, 0·∞, log of a
negative number, division by 0) raises :class:`Undefined`.

:func:`compile_expr` turns a sympy expression into a closure evaluated against an environment that
supplies parameter values and quantity values; :func:`certified_sign` runs it under increasing scoped
precision (``flint.ctx.workprec``) until the sign is certified.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, TypeGuard, Union, cast

from flint import arb, ctx, fmpq

from exactdp.errors import UndecidedError
from exactdp.numbers.rb import ball_sign, check_exp_argument, current_cap
from exactdp.numbers.truth import Truth

if TYPE_CHECKING:
    import sympy
else:
    from exactdp.numbers.deferred import sympy  # deferred: a log level prints without sympy (analyze)

ZERO, ONE = fmpq(0), fmpq(1)
#: working precisions (bits) tried in turn before a sign is reported undecided (never above the scoped
#: cap of exactdp.numbers.rb, which bounds every certified decision)
PRECISIONS = (64, 256, 1024)
#: exact rational powers r**k with |k| above this are not formed (a ball is used, or the input refused)
MAX_EXPONENT = 10_000


class Undefined(ArithmeticError):
    """The expression has no value at this instance (∞ − ∞, 0·∞, x/0, log of a negative number)."""


class Undecided(UndecidedError, ArithmeticError):
    """A sign needed during evaluation could not be certified at the working precision.

    An :class:`~exactdp.errors.UndecidedError` (never bad input; still an ``ArithmeticError`` as before)."""


@dataclass(frozen=True)
class Inf:
    """+∞ (sign 1) or −∞ (sign −1)."""

    sign: int

    def __str__(self) -> str:
        return "oo" if self.sign > 0 else "-oo"


@dataclass(frozen=True)
class LogLin:
    r"""q0 + Σ coeff·log(r) over terms ((r, coeff), ...), r > 0, r ≠ 1, coeff ≠ 0, sorted by r."""

    q0: fmpq
    terms: tuple[tuple[fmpq, fmpq], ...]

    def to_sympy(self) -> sympy.Expr:
        out = _sym(self.q0)
        for r, q in self.terms:
            out += _sym(q) * sympy.log(_sym(r))
        return out

    def __str__(self) -> str:
        """sympy's printing of :meth:`to_sympy`; log r alone (the levels ``exactdp analyze`` prints) without
        importing sympy: ``log(3/2)``, and ``-log(q)`` for r = 1/q (sympy's log(1/q) = −log q)."""
        r = self.single_log()
        if r is not None:
            return f"-log({r.q})" if r.p == 1 else f"log({r})"
        return str(self.to_sympy())

    def single_log(self) -> fmpq | None:
        """r when this value is log r alone (r > 0, r ≠ 1: never 0, never rational), else None."""
        if self.q0 == 0 and len(self.terms) == 1 and self.terms[0][1] == 1:
            return self.terms[0][0]
        return None


#: a value of this domain
Value = Union[fmpq, LogLin, arb, Inf]
#: a compiled expression: its value in an environment
Compiled = Callable[["Env"], Value]


def _sym(q: fmpq) -> sympy.Rational:
    return sympy.Rational(int(q.p), int(q.q))


def loglin(q0: Any, terms: Any) -> Value:
    """Normalize: merge equal r, drop r = 1 and zero coefficients; a LogLin without terms is an fmpq."""
    acc: dict[fmpq, fmpq] = {}
    for r, q in terms:
        if r == 1 or q == 0:
            continue
        acc[r] = acc.get(r, ZERO) + q
    items = tuple(sorted(((r, q) for r, q in acc.items() if q != 0), key=lambda t: t[0]))
    if not items:
        return fmpq(q0)
    return LogLin(fmpq(q0), items)


def log_of(r: fmpq) -> Value:
    """log r for a rational r ≥ 0 (−∞ at 0)."""
    if r < 0:
        raise Undefined(f"log of the negative number {r}")
    if r == 0:
        return Inf(-1)
    return loglin(ZERO, ((r, ONE),))


def is_exact(v: Value) -> TypeGuard[fmpq | LogLin]:
    return isinstance(v, (fmpq, LogLin))


def to_arb(v: Value) -> arb:
    if isinstance(v, arb):
        return v
    if isinstance(v, fmpq):
        return arb(v)
    if isinstance(v, LogLin):
        out = arb(v.q0)
        for r, q in v.terms:
            out += arb(q) * arb(r).log()
        return out
    raise Undefined(f"{v} has no finite real value")


def _loglin_parts(v: fmpq | LogLin) -> tuple[fmpq, tuple[tuple[fmpq, fmpq], ...]]:
    return (v, ()) if isinstance(v, fmpq) else (v.q0, v.terms)


# -- signs --------------------------------------------------------------------------------------------

def _exact_log_zero(v: LogLin) -> int | None:
    """0 when the log-linear form is exactly zero (the certified layer's exact test), else None."""
    from exactdp.numbers.exact_zero import is_zero  # deferred: start-up (exact_zero imports sympy)

    return 0 if is_zero(v.to_sympy())[0] is Truth.TRUE else None


def sign(v: Value) -> int | None:
    """The certified sign of a value at the working precision; None when undecided."""
    if isinstance(v, fmpq):
        return (v > 0) - (v < 0)
    if isinstance(v, Inf):
        return v.sign
    if isinstance(v, LogLin):
        s = _arb_sign(to_arb(v))
        return s if s is not None else _exact_log_zero(v)
    return _arb_sign(to_arb(v))


def _arb_sign(b: arb) -> int | None:
    """The sign the ball certifies (:func:`exactdp.numbers.rb.ball_sign`, the one ball test), as an int."""
    s = ball_sign(b)
    return None if s is None else int(s)


def _need_sign(v: Value) -> int:
    s = sign(v)
    if s is None:
        raise Undecided(f"the sign of {v} is not certified at {ctx.prec} bits")
    return s


# -- arithmetic -------------------------------------------------------------------------------------------

def add(a: Value, b: Value) -> Value:
    if isinstance(a, Inf) or isinstance(b, Inf):
        if isinstance(a, Inf) and isinstance(b, Inf) and a.sign != b.sign:
            raise Undefined("oo - oo")
        return a if isinstance(a, Inf) else b
    if is_exact(a) and is_exact(b):
        (p, s), (q, t) = _loglin_parts(a), _loglin_parts(b)
        return loglin(p + q, s + t)
    return to_arb(a) + to_arb(b)


def neg(a: Value) -> Value:
    return mul(fmpq(-1), a)


def mul(a: Value, b: Value) -> Value:
    if isinstance(a, Inf) or isinstance(b, Inf):
        sa, sb = _need_sign(a), _need_sign(b)
        if sa == 0 or sb == 0:
            raise Undefined("0 * oo")
        return Inf(sa * sb)
    if isinstance(a, fmpq) and isinstance(b, fmpq):
        return a * b
    if isinstance(a, fmpq) and isinstance(b, LogLin):
        a, b = b, a
    if isinstance(a, LogLin) and isinstance(b, fmpq):
        return loglin(a.q0 * b, tuple((r, q * b) for r, q in a.terms))
    return to_arb(a) * to_arb(b)


def inv(a: Value) -> Value:
    if isinstance(a, Inf):
        return ZERO
    s = _need_sign(a)
    if s == 0:
        raise Undefined("division by 0")
    if isinstance(a, fmpq):
        return 1 / a
    return 1 / to_arb(a)


def _exact_root(a: fmpq, k: int) -> fmpq | None:
    """a^(1/k) when it is rational, else None."""
    p, q = int(a.p), int(a.q)
    rp, okp = sympy.integer_nthroot(p, k)
    rq, okq = sympy.integer_nthroot(q, k)
    return fmpq(rp, rq) if okp and okq else None


def power(a: Value, b: Value) -> Value:
    if isinstance(b, fmpq) and b.q == 1:
        k = int(b.p)
        if isinstance(a, Inf):
            if k == 0:
                return ONE
            return ZERO if k < 0 else Inf(a.sign ** k if a.sign < 0 else 1)
        if k < 0:
            return inv(power(a, fmpq(-k)))
        if isinstance(a, fmpq):
            if abs(k) > MAX_EXPONENT and a not in (ZERO, ONE, fmpq(-1)):
                raise Undefined(f"the exponent {k} is too large for an exact power (at most {MAX_EXPONENT})")
            return a ** k
        return to_arb(a) ** k
    if isinstance(a, Inf):
        if a.sign < 0:
            raise Undefined("a negative base to a non-integer power")
        sb = _need_sign(b)
        return Inf(1) if sb > 0 else (ZERO if sb < 0 else ONE)
    sa = _need_sign(a)
    if sa < 0:
        raise Undefined("a negative base to a non-integer power")
    if sa == 0:
        sb = _need_sign(b)
        if sb <= 0:
            raise Undefined("0 to a non-positive power")
        return ZERO
    if isinstance(a, fmpq) and isinstance(b, fmpq):
        root = _exact_root(a, int(b.q))
        if root is not None:
            return power(root, fmpq(b.p))
    return exp(mul(b, log(a)))


def exp(a: Value) -> Value:
    if isinstance(a, Inf):
        return Inf(1) if a.sign > 0 else ZERO
    if isinstance(a, fmpq) and a == 0:
        return ONE
    if (isinstance(a, LogLin) and a.q0 == 0 and all(q.q == 1 and abs(int(q.p)) <= MAX_EXPONENT
                                                    for _, q in a.terms)):
        out = ONE
        for r, q in a.terms:
            out *= r ** int(q.p)
        return out
    return to_arb(a).exp()


def log(a: Value) -> Value:
    if isinstance(a, Inf):
        if a.sign < 0:
            raise Undefined("log of -oo")
        return a
    if isinstance(a, fmpq):
        return log_of(a)
    s = _need_sign(a)
    if s < 0:
        raise Undefined("log of a negative number")
    if s == 0:
        return Inf(-1)
    return to_arb(a).log()


#: the elementary functions of the reader's function set beyond exp/log: name -> (value at 0, at +oo, at -oo)
#: (None: no finite limit, so the value is undefined there)
_ELEMENTARY = {"sin": (ZERO, None, None), "cos": (ONE, None, None), "tan": (ZERO, None, None),
               "sinh": (ZERO, Inf(1), Inf(-1)), "cosh": (ONE, Inf(1), Inf(1)), "tanh": (ZERO, ONE, -ONE),
               "atan": (ZERO, None, None)}


def elementary(name: str, a: Value) -> Value:
    """sin, cos, tan, sinh, cosh, tanh or atan of a value: exact at 0 and at ±oo where the limit exists,
    a certified ball (arb) otherwise (sinh and cosh with the exponential's argument limit)."""
    at_zero, at_inf, at_minus_inf = _ELEMENTARY[name]
    if isinstance(a, Inf):
        out = at_inf if a.sign > 0 else at_minus_inf
        if out is None:
            raise Undefined(f"{name} has no limit at {'oo' if a.sign > 0 else '-oo'}")
        return out
    if isinstance(a, fmpq) and a == 0:
        return at_zero
    x = to_arb(a)
    if name in ("sinh", "cosh"):
        check_exp_argument(x, f"argument of {name}")
    value: arb = getattr(x, name)()
    return value


def sub(a: Value, b: Value) -> Value:
    return add(a, neg(b))


def maximum(a: Value, b: Value, pick_max: bool = True) -> Value:
    """max(a, b) (or min): exact when the order is certified, a certified ball otherwise."""
    if isinstance(a, Inf) or isinstance(b, Inf):
        if isinstance(a, Inf) and isinstance(b, Inf):
            return a if (a.sign >= b.sign) == pick_max else b
        inf, other = (a, b) if isinstance(a, Inf) else (cast(Inf, b), a)
        return inf if (inf.sign > 0) == pick_max else other
    s = sign(sub(a, b))
    if s is not None:
        return a if (s >= 0) == pick_max else b
    x, y = to_arb(a), to_arb(b)
    return x.max(y) if pick_max else x.min(y)


def absolute(a: Value) -> Value:
    if isinstance(a, Inf):
        return Inf(1)
    s = sign(a)
    if s is not None:
        return a if s >= 0 else neg(a)
    return abs(to_arb(a))


# -- compiling sympy trees ------------------------------------------------------------------------------------

class Env:
    """What an expression is evaluated against: parameter values and quantity values.

    Subclasses implement ``param(name)`` and ``quantity(name, args)`` (``args`` are sympy nodes, so a
    quantity decides how to read them: numbers through :meth:`value`, distributions by name).
    """

    def param(self, name: str) -> Value:  # pragma: no cover - interface
        raise NotImplementedError

    def quantity(self, name: str, args: tuple[Any, ...]) -> Value:  # pragma: no cover - interface
        raise NotImplementedError

    def value(self, node: sympy.Basic) -> Value:
        return compile_expr(node)(self)


_COMPILED: dict[sympy.Basic, Compiled] = {}


def compile_expr(node: sympy.Basic) -> Compiled:
    """A closure ``f(env) -> value`` for a sympy expression (cached per expression)."""
    f = _COMPILED.get(node)
    if f is None:
        f = _compile(node)
        if len(_COMPILED) < 10_000:
            _COMPILED[node] = f
    return f


def _fold(op: Callable[[Value, Value], Value], fs: list[Compiled]) -> Compiled:
    def run(env: Env) -> Value:
        acc = fs[0](env)
        for g in fs[1:]:
            acc = op(acc, g(env))
        return acc
    return run


def _compile(node: sympy.Basic) -> Compiled:
    if isinstance(node, sympy.Rational):
        q = fmpq(int(node.p), int(node.q))
        return lambda env: q
    if node is sympy.oo:
        return lambda env: Inf(1)
    if node is sympy.S.NegativeInfinity:
        return lambda env: Inf(-1)
    if node is sympy.pi:
        return lambda env: arb.pi()
    if node is sympy.E:
        return lambda env: arb(1).exp()
    if isinstance(node, sympy.Symbol):
        name = node.name
        return lambda env: env.param(name)
    if isinstance(node, sympy.Add):
        return _fold(add, [compile_expr(a) for a in node.args])
    if isinstance(node, sympy.Mul):
        return _fold(mul, [compile_expr(a) for a in node.args])
    if isinstance(node, sympy.Pow):
        fb, fe = compile_expr(node.base), compile_expr(node.exp)
        return lambda env: power(fb(env), fe(env))
    if isinstance(node, sympy.exp):
        f = compile_expr(node.args[0])
        return lambda env: exp(f(env))
    if isinstance(node, sympy.log):
        f = compile_expr(node.args[0])
        return lambda env: log(f(env))
    if type(node).__name__ in _ELEMENTARY and len(node.args) == 1:
        name, f = type(node).__name__, compile_expr(node.args[0])
        return lambda env: elementary(name, f(env))
    if isinstance(node, (sympy.Max, sympy.Min)):
        pick = isinstance(node, sympy.Max)
        fs = [compile_expr(a) for a in node.args]
        return _fold(lambda a, b: maximum(a, b, pick), fs)
    if isinstance(node, sympy.Abs):
        f = compile_expr(node.args[0])
        return lambda env: absolute(f(env))
    if isinstance(node, sympy.core.function.AppliedUndef):
        name, args = node.func.__name__, node.args
        return lambda env: env.quantity(name, args)
    raise Undefined(f"cannot evaluate {node} (unsupported operation {type(node).__name__})")


def certified_sign(evaluate: Callable[[], Value]) -> tuple[int | None, Value | None]:
    """Run ``evaluate()`` under increasing scoped precision until its value's sign is certified.

    Returns ``(sign, value)``; sign None when still undecided at the highest precision.
    Raises :class:`Undefined` when the value does not exist.
    """
    cap = current_cap()  # the one scoped cap (precision_cap / --max-prec) bounds this ladder too
    value: Value | None = None
    for prec in [p for p in PRECISIONS if p < cap] + ([cap] if cap <= PRECISIONS[-1] else []):
        with ctx.workprec(prec):
            try:
                value = evaluate()
            except Undecided:
                continue
            s = sign(value)
        if s is not None:
            return s, value
    return None, value


def score_of(value: Value) -> fmpq | Inf:
    """A precision-independent exact rational near the value (for ranking only, never for decisions)."""
    if isinstance(value, (fmpq, Inf)):
        return value
    with ctx.workprec(128):
        b = to_arb(value)
        m, e = b.mid().man_exp()
    q = fmpq(int(m)) * (fmpq(2) ** int(e) if int(e) >= 0 else fmpq(1, 2 ** (-int(e))))
    # round to 2^-48 so that the ranking does not depend on the last bits of the ball
    scale = 2 ** 48
    return fmpq(int((q * scale).floor()), scale)


def enclosure(value: Value) -> str:
    """A decimal enclosure string of a value: exact values print exactly."""
    if isinstance(value, (fmpq, Inf)):
        return str(value)
    with ctx.workprec(128):
        return to_arb(value).str(20, radius=True)
