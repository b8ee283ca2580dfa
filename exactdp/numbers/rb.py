r"""RB: certified real balls on python-flint ``arb``, for the transcendental quantities of exactdp.

An :class:`RB` is an *exact* real number (a sympy expression built from rationals with + − × ÷,
rational powers, exp, log, ...; or a stable evaluator such as ``−expm1(n(log1p(−δ) − ε))``) together
with the means to enclose it in an ``arb`` ball at any working precision.  Nothing is rounded until a
ball is asked for, and a ball always contains the exact value (python-flint/Arb's guarantee).

Decisions are three-valued.  :meth:`RB.sign` evaluates balls at 64, 128, 256, … bits up to a cap;
a ball that excludes 0 decides the sign; a ball that still contains 0 after 256 bits is handed to the
exact layer (:mod:`exactdp.numbers.exact_zero`: rationals, algebraic numbers by minimal polynomial,
Lindemann–Weierstrass for Σ cᵢ e^{aᵢ}, Baker/unique factorisation for q₀ + Σ qᵢ log rᵢ, sympy
identities); otherwise the answer is *undecided*, never a guess.

Precision is always scoped: balls are computed inside ``with flint.ctx.workprec(p)``; the cap is a
keyword argument of every decision or the :func:`precision_cap` context manager (a ``ContextVar``),
never a global setting.

>>> import sympy
>>> x = RB(sympy.exp(sympy.Rational(1, 2)))
>>> x.evalf(20)
'1.6487212707001281468'
>>> x > RB("33/20")
<Truth.FALSE: 'false'>
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from flint import arb, ctx, fmpq

from exactdp.errors import CoercionError, ParameterError
from exactdp.limits import ResourceLimitError, how_to_raise, limit, require
from exactdp.numbers.qq import parse_rational_string, qq_to_sympy, to_qq
from exactdp.numbers.truth import Sign, Truth

if TYPE_CHECKING:
    import sympy
else:
    from exactdp.numbers.deferred import sympy  # deferred: start-up

#: Default cap (bits) of the precision-doubling loop; the caller can change it per call or per block.
DEFAULT_MAX_PREC = 8192
#: First working precision of the loop (bits).
START_PREC = 64
#: From this precision on, a ball still containing 0 is handed to the exact layer.
EXACT_LAYER_PREC = 256

_max_prec: contextvars.ContextVar[int] = contextvars.ContextVar(
    "exactdp_rb_max_prec", default=DEFAULT_MAX_PREC
)


@contextlib.contextmanager
def precision_cap(bits: int) -> Iterator[int]:
    """Scope the precision cap of every certified decision inside the ``with`` block.

    >>> with precision_cap(128):
    ...     current_cap()
    128
    """
    if not isinstance(bits, int) or isinstance(bits, bool) or bits < START_PREC:
        raise ParameterError(f"bits: the precision cap must be an integer >= {START_PREC}, got {bits!r}")
    require("max_prec", bits, "precision cap")
    token = _max_prec.set(bits)
    try:
        yield bits
    finally:
        _max_prec.reset(token)


def current_cap(max_prec: int | None = None) -> int:
    """The cap in force: ``max_prec`` when given, else the scoped (or default) cap."""
    if max_prec is None:
        return _max_prec.get()
    if not isinstance(max_prec, int) or isinstance(max_prec, bool) or max_prec < START_PREC:
        raise ParameterError(f"max_prec: must be an integer >= {START_PREC}, got {max_prec!r}")
    require("max_prec", max_prec, "max_prec")
    return max_prec


def precisions(max_prec: int | None = None, start: int = START_PREC) -> Iterator[int]:
    """The working precisions start, 2·start, 4·start, … ≤ cap (the cap itself is always tried last)."""
    cap = current_cap(max_prec)
    p = min(start, cap)
    while p < cap:
        yield p
        p *= 2
    yield cap


# -- exact input ------------------------------------------------------------------------------------


def _check_depth(expr: Any, name: str) -> None:
    """Refuse an expression tree deeper than 3 × ``max_nesting`` before any recursive sympy / arb walk
    (they would hit Python's recursion limit); measured iteratively."""
    cap = 3 * limit("max_nesting")
    stack = [(expr, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > cap:
            raise ResourceLimitError(
                f"{name}: an expression tree deeper than {cap} levels exceeds 3 x the limit max_nesting = "
                f"{limit('max_nesting')} levels; {how_to_raise('max_nesting')}"
            )
        stack.extend((a, depth + 1) for a in node.args)


def exact_expr(value: Any, name: str = "value") -> sympy.Expr:
    """An exact, finite, symbol-free sympy expression for ``value`` (floats refused)."""
    if isinstance(value, RB):
        expr = value.exact
        if expr is None:
            raise ParameterError(f"{name}: this certified value has no exact expression")
        return expr
    if isinstance(value, sympy.Basic):
        _check_depth(value, name)
        if any(isinstance(a, sympy.Float) for a in sympy.preorder_traversal(value)):
            raise CoercionError(
                f"{name}: the expression {value} contains a float; use sympy.Rational or 'p/q'"
            )
        if value.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
            raise ParameterError(f"{name}: must be a finite real number, got {value}")
        if value.free_symbols:
            raise ParameterError(
                f"{name}: has free symbols {sorted(map(str, value.free_symbols))}; substitute exact values first"
            )
        return value
    return qq_to_sympy(to_qq(value, name))


def _fmpq_of_rational(expr: Any) -> fmpq:
    return fmpq(int(expr.p), int(expr.q))


# -- sympy expression -> arb ball ----------------------------------------------------------------------

_ARB_FUNCS = {
    "sin": "sin",
    "cos": "cos",
    "tan": "tan",
    "sinh": "sinh",
    "cosh": "cosh",
    "tanh": "tanh",
    "atan": "atan",
    "asin": "asin",
    "acos": "acos",
    "erf": "erf",
    "erfc": "erfc",
}


def _is_one(e: Any) -> bool:
    return e is sympy.S.One


#: Root indices and numerators up to this go through arb's root / integer power; larger through exp(e·log b).
_MAX_ROOT_INDEX = 1 << 16
#: Integer powers with a larger exponent go through exp(n·log|b|) (binary powering would lose the ball).
_MAX_INT_POWER = 1 << 20


def _exp_limit_error(what: str, magnitude: str) -> ResourceLimitError:
    cap = limit("max_exp_argument")
    return ResourceLimitError(
        f"{what}: about {magnitude} in absolute value exceeds the limit max_exp_argument = {cap}; "
        f"{how_to_raise('max_exp_argument')}"
    )


def check_exp_argument(x: arb, what: str = "argument of exp") -> None:
    """Refuse an exp argument certainly larger in magnitude than ``max_exp_argument`` (a ball that only
    straddles the limit is let through: its exp is an honest, possibly wide, ball)."""
    if x.is_finite() and abs(x) > limit("max_exp_argument"):
        raise _exp_limit_error(what, abs(x).mid().str(8, radius=False))


def _check_exponent(e: Any, what: str = "exponent of a non-integer power") -> None:
    """Refuse a non-integer rational exponent larger in magnitude than ``max_exp_argument``."""
    p, q = abs(int(e.p)), int(e.q)
    if p > limit("max_exp_argument") * q:
        size = str(p // q) if p.bit_length() <= 64 else f"10^{(p.bit_length() - q.bit_length()) * 30103 // 100000}"
        raise _exp_limit_error(what, size)


def _exp(x: arb) -> arb:
    """exp of a ball, refusing an argument beyond ``max_exp_argument`` (exp(exp(exp(100))) is refused,
    not formed)."""
    check_exp_argument(x)
    return x.exp()


def _int_power(b: arb, n: int) -> arb:
    """b**n for an integer n of any size, as a ball (never an exact huge object)."""
    if abs(n) <= _MAX_INT_POWER:
        return b ** n
    # |b|^n = exp(n log|b|): refused beyond max_exp_argument like any exponential; the sign of b^n
    # is that of b for odd n
    if b.is_zero():
        return arb(0) if n > 0 else arb("nan")
    mag = abs(b)
    x = arb(n) * mag.log()
    check_exp_argument(x, "logarithm of an integer power")
    out = x.exp()
    if n % 2 == 0 or b > 0:
        return out
    if b < 0:
        return -out
    return out.union(-out)


def arb_of_expr(expr: Any) -> arb:
    """The arb ball of an exact sympy expression at the *current* flint precision."""
    if expr.is_Rational:
        return arb(_fmpq_of_rational(expr))
    if expr is sympy.E:
        return arb.const_e()
    if expr is sympy.pi:
        return arb.pi()
    if isinstance(expr, sympy.Float):
        raise CoercionError(f"cannot evaluate {expr}: floats are not exact")
    if isinstance(expr, sympy.Symbol):
        raise ParameterError(f"cannot evaluate the free symbol {expr}: substitute an exact value first")
    if expr.is_Add:
        args = expr.args
        if len(args) == 2:  # c ± e^u with c = ∓1: use expm1 (no cancellation for small u)
            for one, other in (args, args[::-1]):
                if one is sympy.S.NegativeOne and isinstance(other, sympy.exp):
                    return arb_of_expr(other.args[0]).expm1()
                if (
                    _is_one(one)
                    and other.is_Mul
                    and len(other.args) == 2
                    and other.args[0] is sympy.S.NegativeOne
                    and isinstance(other.args[1], sympy.exp)
                ):
                    return -arb_of_expr(other.args[1].args[0]).expm1()
        total = arb(0)
        for a in args:
            total += arb_of_expr(a)
        return total
    if expr.is_Mul:
        total = arb(1)
        for a in expr.args:
            total *= arb_of_expr(a)
        return total
    if expr.is_Pow:
        base, e = expr.args
        if base is sympy.E:
            return _exp(arb_of_expr(e))
        if e.is_Integer:
            return _int_power(arb_of_expr(base), int(e))
        if e.is_Rational:
            _check_exponent(e)
            b = arb_of_expr(base)
            if e.q == 2:
                return _int_power(b.sqrt(), int(e.p))
            if e.q <= _MAX_ROOT_INDEX and abs(e.p) <= _MAX_ROOT_INDEX:
                return _int_power(b.root(int(e.q)), int(e.p))
            # a huge index or numerator: exp(e log b) (arb's root index is a C unsigned long);
            # log of a ball reaching 0 or below is not finite, and so is the result
            return _exp(arb(_fmpq_of_rational(e)) * b.log())
        x = arb_of_expr(e)
        check_exp_argument(x, "exponent of a non-integer power")
        return _exp(x * arb_of_expr(base).log())
    if isinstance(expr, sympy.exp):
        return _exp(arb_of_expr(expr.args[0]))
    if isinstance(expr, sympy.log):
        (u,) = expr.args
        if u.is_Rational:  # log r = log1p(r − 1) with r − 1 exact: accurate for r near 1
            return arb(_fmpq_of_rational(u) - 1).log1p()
        if u.is_Add and any(_is_one(a) for a in u.args):  # log(1 + v): log1p
            return arb_of_expr(u - 1).log1p()
        return arb_of_expr(u).log()
    if isinstance(expr, (sympy.Max, sympy.Min)):
        balls = [arb_of_expr(a) for a in expr.args]
        out = balls[0]
        for b in balls[1:]:
            out = out.max(b) if isinstance(expr, sympy.Max) else out.min(b)
        return out
    if isinstance(expr, sympy.Abs):
        return abs(arb_of_expr(expr.args[0]))
    if isinstance(expr, sympy.UnevaluatedExpr):  # a term kept unevaluated to stop sympy's auto-rewriting
        return arb_of_expr(expr.args[0])
    name = type(expr).__name__
    if name in _ARB_FUNCS and len(expr.args) == 1:
        x = arb_of_expr(expr.args[0])
        if name in ("sinh", "cosh"):  # exponentials: the same limit as exp
            check_exp_argument(x, f"argument of {name}")
        return cast(arb, getattr(x, _ARB_FUNCS[name])())
    if expr in (sympy.oo, -sympy.oo, sympy.zoo, sympy.nan):
        raise ParameterError(f"cannot enclose the non-finite value {expr} in a ball")
    raise ParameterError(f"cannot evaluate {expr} ({name}) with certified arithmetic")


def _rational_form(expr: Any, values: dict[str, Any]) -> fmpq | None:
    """The exact rational value of ``expr`` when every leaf is rational (symbols looked up by name in
    ``values``, fmpq); None otherwise.  Constant folding for :func:`ball_of_form`."""
    if expr.is_Rational:
        return _fmpq_of_rational(expr)
    if isinstance(expr, sympy.Symbol):
        v = values.get(expr.name)
        return v if isinstance(v, fmpq) else None
    if expr.is_Add or expr.is_Mul:
        parts = [_rational_form(a, values) for a in expr.args]
        if any(p is None for p in parts):
            return None
        qs = cast("list[fmpq]", parts)  # no None left
        out = qs[0]
        for q in qs[1:]:
            out = out + q if expr.is_Add else out * q
        return out
    if expr.is_Pow and expr.args[1].is_Integer:
        b = _rational_form(expr.args[0], values)
        if b is None or (b == 0 and expr.args[1] < 0) or abs(int(expr.args[1])) > 64:
            return None
        return b ** int(expr.args[1])
    return None


def ball_of_form(expr: Any, values: dict[str, Any]) -> arb:
    """The ball of a formula's *evaluation form* at the current precision, symbols taken by name from
    ``values`` (``fmpq`` or exact sympy numbers) **without substituting** — sympy would fold
    ``expm1(n (log1p(-delta) - eps))`` back into the cancelling ``1 - e^{-n eps}(1 - delta)^n``.

    Rational subtrees are computed exactly first (1 − Nc, −δ); ``expm1``/``log1p`` use arb's; ``log1p``
    of an exact rational v uses log of the exact 1 + v when |v| > 1/2 (δ = 1 − 10⁻³⁰ is not lost).  The
    one ball evaluator of registry entries (:mod:`exactdp.certified.stable`).
    """
    q = _rational_form(expr, values)
    if q is not None:
        return arb(q)
    if isinstance(expr, sympy.Symbol):
        if expr.name not in values:
            raise ParameterError(f"cannot evaluate the free symbol {expr}: give its value")
        return arb_of_expr(exact_expr(values[expr.name], expr.name))
    if not expr.free_symbols:
        return arb_of_expr(expr)
    name = type(expr).__name__
    if name == "log1p":
        v = _rational_form(expr.args[0], values)
        if v is not None:
            return arb(v).log1p() if 2 * abs(v) <= 1 else arb(1 + v).log()
        return ball_of_form(expr.args[0], values).log1p()
    if name == "expm1" or isinstance(expr, sympy.exp):
        x = ball_of_form(expr.args[0], values)
        if x.is_finite() and x > limit("max_exp_argument"):  # e^{-huge} is a fine ball near 0
            raise _exp_limit_error(f"argument of {name}", abs(x).mid().str(8, radius=False))
        return x.expm1() if name == "expm1" else x.exp()
    if expr.is_Add:
        total = arb(0)
        for a in expr.args:
            total += ball_of_form(a, values)
        return total
    if expr.is_Mul:
        total = arb(1)
        for a in expr.args:
            total *= ball_of_form(a, values)
        return total
    if expr.is_Pow and expr.args[1].is_Integer:
        return _int_power(ball_of_form(expr.args[0], values), int(expr.args[1]))
    if isinstance(expr, (sympy.Max, sympy.Min)):
        balls = [ball_of_form(a, values) for a in expr.args]
        out = balls[0]
        for b in balls[1:]:
            out = out.max(b) if isinstance(expr, sympy.Max) else out.min(b)
        return out
    raise ParameterError(f"cannot evaluate {expr} ({name}) as an evaluation form")


def arb_ball(value: Any, prec: int) -> arb:
    """The arb ball of an exact value at ``prec`` bits (precision scoped to this call)."""
    expr = exact_expr(value)
    with ctx.workprec(prec):
        return arb_of_expr(expr)


def exact_bits_cap() -> int:
    """Largest exact rational (in bits) made from a ball: 4 × ``max_prec`` (the largest working precision)."""
    return 4 * limit("max_prec")


def arb_exponent_bits(x: arb) -> int:
    """Bits of the exact dyadic value of a finite arb number m·2^e (|e| + bits of m)."""
    m, e = x.man_exp()
    return abs(int(e)) + int(m).bit_length()


def arb_to_fmpq(x: arb, cap: int | None = None) -> fmpq:
    """The exact dyadic value of a finite arb number (refused when it would be a huge exact object:
    e.g. the endpoint of a ball around 2^(10^30)).  ``cap``: :func:`exact_bits_cap` read once by a caller that
    converts many ends in a loop (reading the limit costs more than the conversion); None reads it here."""
    m, e = cast("tuple[Any, Any]", x.man_exp())  # fmpz pair, rebound to ints below
    e = int(e)
    if abs(e) > (exact_bits_cap() if cap is None else cap):
        raise ResourceLimitError(
            f"exact value of a ball endpoint: about {abs(e)} bits exceeds 4 x the limit max_prec = "
            f"{limit('max_prec')} bits; {how_to_raise('max_prec')}"
        )
    m = int(m)
    return fmpq(m << e) if e >= 0 else fmpq(m, 1 << (-e))


def ball_endpoints(b: arb) -> tuple[fmpq, fmpq] | None:
    """The exact rational endpoints [lo, hi] of a finite ball (None for a non-finite ball, or one whose
    endpoints would be exact rationals of more than 4 × ``max_prec`` bits)."""
    if not b.is_finite():
        return None
    cap = exact_bits_cap()
    mid = b.mid()
    if arb_exponent_bits(mid) > cap or arb_exponent_bits(b.rad()) > cap:
        return None
    # lower()/upper() round outward, so the endpoints are valid at any precision; this one keeps them tight
    with ctx.workprec(max(ctx.prec, 2 * mid.bits() + 64, 64)):
        return arb_to_fmpq(b.lower(), cap), arb_to_fmpq(b.upper(), cap)


# -- cost model ------------------------------------------------------------------------------------


def transcendental_weight(expr: Any) -> int:
    """The number of transcendental nodes of ``expr`` (exp, log, non-integer powers, functions,
    constants), at least 1: the cost unit of one ball."""
    n = 0
    for a in sympy.preorder_traversal(expr):
        if a.is_Atom:
            n += a in (sympy.pi, sympy.E)
        elif a.is_Pow:
            n += not a.exp.is_Integer or abs(int(a.exp)) > _MAX_INT_POWER
        elif not (a.is_Add or a.is_Mul):
            n += 1
    return max(n, 1)


def ball_work(weight: int, prec: int) -> int:
    """Estimated elementary operations of one ball: ``weight`` transcendental operations at ``prec`` bits,
    each about 3·p·log2(p) elementary operations (calibrated on exp at 2^19 bits, benchmarks/bench_certified.py)."""
    return 3 * weight * prec * max(prec.bit_length(), 1)


# -- the certified real ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SignResult:
    """A certified sign: ``sign`` is a :class:`Sign` or None (undecided); ``reason`` says how / why not.

    ``bool()`` of a SignResult raises, so it cannot reach an ``if`` by mistake; use ``.sign``,
    :meth:`truth` or the Truth-valued comparisons of :class:`RB`.
    """

    sign: Sign | None
    prec: int
    reason: str

    @property
    def decided(self) -> bool:
        return self.sign is not None

    def __bool__(self) -> bool:
        raise TypeError("a SignResult is not a truth value; use .sign, .decided or a Truth-valued comparison")

    def truth(self, *accepted: Sign) -> Truth:
        """TRUE if the sign is one of ``accepted``, FALSE if decided otherwise, UNKNOWN if undecided."""
        if self.sign is None:
            return Truth.UNKNOWN
        return Truth.of(self.sign in accepted)


class RB:
    """A certified real number: an exact value with balls at any precision (see module docstring).

    Args:
        value: an exact number (int, Fraction, fmpq, string "p/q" or "0.25", a symbol-free sympy
            expression such as ``exp(Rational(1, 2))``, ``log(3)``, ``sqrt(2)``), or another RB.

    Raises:
        CoercionError: a float.  ParameterError: free symbols or a non-finite value.
    """

    __slots__ = ("_cache", "_eval", "_exact", "_weight", "label")
    _cache: dict[int, arb]
    _eval: Any
    _exact: sympy.Expr
    _weight: int | None
    label: str | None

    def __init__(self, value: Any, name: str = "value") -> None:
        if isinstance(value, RB):
            self._exact, self._eval, self._cache, self.label = (
                value._exact,
                value._eval,
                value._cache,
                value.label,
            )
            self._weight = value._weight
            return
        expr = exact_expr(value, name)
        self._exact = expr
        self._eval = None
        self._cache = {}
        self.label = None
        self._weight = None

    @classmethod
    def from_evaluator(cls, evaluator: Callable[[], arb], exact: Any = None, label: str | None = None) -> RB:
        """An RB from a ball evaluator (called inside ``ctx.workprec(p)``) and its exact value.

        ``exact`` is a sympy expression, a zero-argument callable returning one (built only if an exact
        tie-break needs it), or None (ties then stay undecided).
        """
        obj = cls.__new__(cls)
        obj._exact, obj._eval, obj._cache, obj.label = exact, evaluator, {}, label
        obj._weight = None if isinstance(exact, sympy.Basic) else 1
        return obj

    # -- exact side --
    @property
    def exact(self) -> sympy.Expr | None:
        """The exact sympy expression of this number (None if it has none)."""
        if callable(self._exact) and not isinstance(self._exact, sympy.Basic):
            self._exact = self._exact()
        return self._exact

    def rational(self) -> fmpq | None:
        """The value as an fmpq when the exact expression is a rational number, else None."""
        if self._eval is not None and not isinstance(self._exact, sympy.Basic):
            return None  # do not force a lazy exact expression just for this
        e = self.exact
        if e is not None and e.is_Rational:
            return _fmpq_of_rational(e)
        return None

    # -- cost --
    @property
    def weight(self) -> int:
        """How many transcendental operations (exp, log, roots, trig, constants) one ball costs."""
        if self._weight is None:
            e = self._exact if isinstance(self._exact, sympy.Basic) else None
            self._weight = 1 if e is None else transcendental_weight(e)
        return self._weight

    def affordable(self, prec: int) -> bool:
        """Is one ball at ``prec`` bits within the ``max_work`` limit (see :func:`ball_work`)?"""
        return prec <= EXACT_LAYER_PREC or ball_work(self.weight, prec) <= limit("max_work")

    # -- balls --
    def ball(self, prec: int) -> arb:
        """An arb ball containing the value, computed at ``prec`` bits (precision scoped to the call)."""
        b = self._cache.get(prec)
        if b is None:
            try:
                with ctx.workprec(prec):
                    b = self._eval() if self._eval is not None else arb_of_expr(self._exact)
            except RecursionError:  # only with max_nesting raised past Python's recursion limit
                raise ResourceLimitError(
                    "the expression is nested too deeply for Python's recursion limit; lower max_nesting "
                    "or simplify the expression") from None
            self._cache[prec] = b
        return b

    def endpoints(self, prec: int) -> tuple[fmpq, fmpq] | None:
        """Exact rational [lo, hi] enclosing the value at ``prec`` bits (None if the ball is not finite)."""
        return ball_endpoints(self.ball(prec))

    # -- decisions --
    def sign(self, *, max_prec: int | None = None) -> SignResult:
        """The certified sign (see module docstring); ``.sign is None`` when undecided at the cap."""
        q = self.rational()
        if q is not None:
            return SignResult(Sign(int(q.p > 0) - int(q.p < 0)), 0, "exact rational")
        exact_note, tried_exact, prec, stopped = "", False, START_PREC, ""
        for p in precisions(max_prec):
            if not self.affordable(p):  # the next ball would exceed max_work: stay undecided
                stopped = f" (stopped before {p} bits: the limit max_work)"
                break
            prec = p
            s = ball_sign(self.ball(prec))
            if s is not None:  # an exact zero ball encloses only 0
                return SignResult(s, prec, f"{'exact zero ' if s is Sign.ZERO else ''}ball at {prec} bits")
            if prec >= EXACT_LAYER_PREC and not tried_exact:
                tried_exact = True
                s = self._exact_rational_sign()
                if s is not None:
                    return SignResult(s, prec, "exact: the logarithms cancel to a rational")
                zero, exact_note = self._exact_zero()
                if zero is Truth.TRUE:
                    return SignResult(Sign.ZERO, prec, f"exact: {exact_note}")
        if not tried_exact:
            zero, exact_note = self._exact_zero()
            if zero is Truth.TRUE:
                return SignResult(Sign.ZERO, prec, f"exact: {exact_note}")
        return SignResult(
            None, prec, f"the ball at the cap of {prec} bits contains 0{stopped}; exact layer: {exact_note}"
        )

    def _exact_zero(self) -> tuple[Truth, str]:
        from exactdp.numbers.exact_zero import is_zero  # deferred: circle

        expr = self.exact
        if expr is None:
            return Truth.UNKNOWN, "no exact expression"
        return is_zero(expr)

    def _exact_rational_sign(self) -> Sign | None:
        from exactdp.numbers.exact_zero import rational_value  # deferred: circle

        expr = self.exact
        q = None if expr is None else rational_value(expr)
        return None if q is None else Sign(int(bool(q > 0)) - int(bool(q < 0)))

    def compare_rational(self, r: Any, *, max_prec: int | None = None) -> Sign | None:
        """sign(self − r) for an exact rational r, deciding ties exactly; None when undecided.

        r is enclosed at the same precision as ``self`` (an exact ball when r is dyadic), so many
        comparisons against rationals share one ball of ``self`` per precision.
        """
        r = to_qq(r, "r")
        q = self.rational()
        if q is not None:
            return Sign(int(q > r) - int(q < r))
        tried = False
        for prec in precisions(max_prec):
            if not self.affordable(prec):
                break
            b = self.ball(prec)
            if b.is_finite():
                with ctx.workprec(prec):
                    rb = arb(r)
                if b > rb:
                    return Sign.POSITIVE
                if b < rb:
                    return Sign.NEGATIVE
                if b.is_exact() and rb.is_exact() and b == rb:
                    return Sign.ZERO
            if prec >= EXACT_LAYER_PREC and not tried:
                tried = True
                if self._equals_rational(r):
                    return Sign.ZERO
        if not tried and self._equals_rational(r):
            return Sign.ZERO
        return None

    def _equals_rational(self, r: fmpq) -> bool:
        """Exact tie-break: is the value exactly r (decided by the exact layer, never by balls)?"""
        return (self - RB(r)).sign(max_prec=START_PREC).sign is Sign.ZERO

    def _cmp(self, other: Any, accepted: Any) -> Truth:
        return (self - to_rb(other)).sign().truth(*accepted)

    def __lt__(self, other: Any) -> Truth:
        return self._cmp(other, (Sign.NEGATIVE,))

    def __le__(self, other: Any) -> Truth:
        return self._cmp(other, (Sign.NEGATIVE, Sign.ZERO))

    def __gt__(self, other: Any) -> Truth:
        return self._cmp(other, (Sign.POSITIVE,))

    def __ge__(self, other: Any) -> Truth:
        return self._cmp(other, (Sign.POSITIVE, Sign.ZERO))

    def eq(self, other: Any) -> Truth:
        """Certified equality (``==`` is left as object identity so RBs stay hashable)."""
        return self._cmp(other, (Sign.ZERO,))

    __hash__ = object.__hash__

    # -- arithmetic (exact side kept lazily) --
    def _binary(self, other: Any, op: Callable[[arb, arb], arb], sym: Callable[[Any, Any], Any]) -> RB:
        other = to_rb(other)
        a, b = self, other

        def exact() -> Any:
            ea, eb = a.exact, b.exact
            return None if ea is None or eb is None else sym(ea, eb)

        out = RB.from_evaluator(lambda: op(a.ball(ctx.prec), b.ball(ctx.prec)), exact)
        out._weight = a.weight + b.weight
        return out

    def __add__(self, other: Any) -> RB:
        return self._binary(other, lambda x, y: x + y, lambda x, y: x + y)

    def __radd__(self, other: Any) -> RB:
        return to_rb(other) + self

    def __sub__(self, other: Any) -> RB:
        return self._binary(other, lambda x, y: x - y, lambda x, y: x - y)

    def __rsub__(self, other: Any) -> RB:
        return to_rb(other) - self

    def __mul__(self, other: Any) -> RB:
        return self._binary(other, lambda x, y: x * y, lambda x, y: x * y)

    def __rmul__(self, other: Any) -> RB:
        return to_rb(other) * self

    def __truediv__(self, other: Any) -> RB:
        return self._binary(other, lambda x, y: x / y, lambda x, y: x / y)

    def __rtruediv__(self, other: Any) -> RB:
        return to_rb(other) / self

    def __neg__(self) -> RB:
        return RB(0) - self

    # -- output --
    def evalf(self, digits: int = 30, *, max_prec: int | None = None) -> str:
        """The value to ``digits`` significant digits, every printed digit guaranteed (see :func:`exactdp.numbers.digits.evalf`)."""
        from exactdp.numbers.digits import evalf  # deferred: circle

        return evalf(self, digits, max_prec=max_prec)

    def __repr__(self) -> str:
        from exactdp.numbers.exact_zero import short  # deferred: circle

        e = self._exact if isinstance(self._exact, sympy.Basic) else None
        shown = short(e, 80) if e is not None else (self.label or "<evaluator>")
        return f"RB({shown})"

    def __str__(self) -> str:
        return self.ball(START_PREC).str(radius=True)


def to_rb(value: Any) -> RB:
    return value if isinstance(value, RB) else RB(value)


def rb_apply(fn: str, x: Any) -> RB:
    """exp, log, sqrt, expm1, log1p of an RB (ball via arb, exact side via sympy)."""
    x = to_rb(x)
    sym = {
        "exp": sympy.exp,
        "log": sympy.log,
        "sqrt": sympy.sqrt,
        "expm1": lambda e: sympy.exp(e) - 1,
        "log1p": lambda e: sympy.log(1 + e),
    }[fn]

    def exact() -> Any:
        e = x.exact
        return None if e is None else sym(e)

    out = RB.from_evaluator(lambda: getattr(x.ball(ctx.prec), fn)(), exact, label=f"{fn}(...)")
    out._weight = x.weight + 1
    return out


# -- the one certified sign routine and the decisions built on it --------------------------------------
# Every certified comparison of exact reals in exactdp goes through :func:`certified_difference_sign`
# (RB.sign: balls at 64, 128, … bits up to the one scoped cap, then the exact layer; UNKNOWN otherwise).

_OPS = {
    "<": (Sign.NEGATIVE,),
    "<=": (Sign.NEGATIVE, Sign.ZERO),
    "==": (Sign.ZERO,),
    "!=": (Sign.NEGATIVE, Sign.POSITIVE),
    ">": (Sign.POSITIVE,),
    ">=": (Sign.POSITIVE, Sign.ZERO),
}


def ball_sign(b: arb) -> Sign | None:
    """The sign a ball certifies (a finite ball entirely > 0, < 0, or exactly 0), else None."""
    if not b.is_finite():
        return None
    if b > 0:
        return Sign.POSITIVE
    if b < 0:
        return Sign.NEGATIVE
    if b.is_zero():
        return Sign.ZERO
    return None


def comparable_value(x: Any) -> Any:
    """Normalise an argument: Leakage → its nats; sympy Rational / exact scalars → fmpq; else as is."""
    if hasattr(x, "nats") and hasattr(x, "ratio"):
        x = x.nats
    if isinstance(x, (RB, fmpq)):
        return x
    if isinstance(x, sympy.Basic):
        if x in (sympy.oo, -sympy.oo):
            return x
        return to_qq(x) if x.is_Rational else x
    return to_qq(x)


def _infinite_sign(a: Any, b: Any) -> Sign | None:
    inf = {sympy.oo: 1, -sympy.oo: -1}
    ia = inf.get(a, 0) if isinstance(a, sympy.Basic) else 0
    ib = inf.get(b, 0) if isinstance(b, sympy.Basic) else 0
    if ia == 0 and ib == 0:
        return None
    return Sign((ia > ib) - (ia < ib)) if ia != ib else Sign.ZERO


def certified_difference_sign(a: Any, b: Any, *, max_prec: int | None = None) -> SignResult:
    """The certified sign of a − b (infinities compared as extended reals): the one sign routine."""
    a, b = comparable_value(a), comparable_value(b)
    s = _infinite_sign(a, b)
    if s is not None:
        return SignResult(s, 0, "extended reals")
    if isinstance(a, fmpq) and isinstance(b, fmpq):
        return SignResult(Sign((a > b) - (a < b)), 0, "exact rationals")
    if isinstance(b, fmpq):
        s = RB(a).compare_rational(b, max_prec=max_prec)
        if s is not None:
            return SignResult(s, 0, "certified against an exact rational")
    elif isinstance(a, fmpq):
        s = RB(b).compare_rational(a, max_prec=max_prec)
        if s is not None:
            return SignResult(Sign(-int(s)), 0, "certified against an exact rational")
    return (RB(a) - RB(b)).sign(max_prec=max_prec)


def certified_sign(x: Any, *, max_prec: int | None = None) -> SignResult:
    """The certified sign of ``x`` (``.sign`` is None when undecided at the cap; see ``.reason``)."""
    return certified_difference_sign(x, fmpq(0), max_prec=max_prec)


def certified_compare(a: Any, op: str, b: Any, *, max_prec: int | None = None) -> Truth:
    """Decide ``a op b`` for op in <, <=, ==, !=, >, >=: TRUE, FALSE or UNKNOWN (never a guess).

    Raises:
        ParameterError: an unknown operator.
    """
    if op not in _OPS:
        raise ParameterError(f"op: must be one of {sorted(_OPS)}, got {op!r}")
    return certified_difference_sign(a, b, max_prec=max_prec).truth(*_OPS[op])


def decide_le(a: Any, b: Any) -> Truth:
    """``a ≤ b`` certified: TRUE, FALSE or UNKNOWN."""
    return certified_compare(a, "<=", b)


def decide_lt(a: Any, b: Any) -> Truth:
    """``a < b`` certified (strict)."""
    return certified_compare(a, "<", b)


def sign(value: Any) -> int | None:
    """The certified sign (−1, 0, 1) of an exact real, or None when it cannot be decided."""
    s = certified_sign(value).sign
    return None if s is None else int(s)


def to_sympy(value: Any) -> sympy.Expr:
    """fmpq / int / sympy → sympy (exact); anything else is refused."""
    if isinstance(value, fmpq):
        return qq_to_sympy(value)
    if isinstance(value, int):
        return sympy.Integer(value)
    if isinstance(value, sympy.Basic):
        return value
    raise CoercionError(f"expected an exact value, got {type(value).__name__} {value!r}")


#: the working precision of the estimation layer's balls (bits)
DEFAULT_PREC = 128


def arb_eval(value: Any, prec: int = DEFAULT_PREC) -> arb:
    """A ball containing the exact value of ``value`` (an arb ball is returned unchanged).

    >>> import sympy
    >>> arb_eval(sympy.log(2), 64) > arb("0.6931"), arb_eval(sympy.log(2), 64) < arb("0.6932")
    (True, True)
    """
    if isinstance(value, arb):
        return value
    if isinstance(value, RB):
        return value.ball(prec)
    return arb_ball(value, prec)


def compare(a: Any, b: Any, prec: int = DEFAULT_PREC) -> Truth:
    """Truth of a ≤ b.  Exact values: :meth:`RB.sign` (precision doubling, exact tie-breaks), so an
    equality such as log 4 / 2 ≤ log 2 is TRUE.  Balls (certified integrals): TRUE/FALSE when the
    ``prec``-bit balls decide, else UNKNOWN."""
    if not isinstance(a, arb) and not isinstance(b, arb):
        return RB(a) <= RB(b)
    x, y = arb_eval(a, prec), arb_eval(b, prec)
    with ctx.workprec(prec):
        d = y - x
    if d >= 0:  # the ball of b − a certifies its lower end (0 included): a ≤ b
        return Truth.TRUE
    if d < 0:
        return Truth.FALSE
    return Truth.UNKNOWN


def rounds_to(x: Any, printed: str, prec: int = DEFAULT_PREC) -> Truth:
    """Truth of "x rounds to the printed decimal" (round-half-up window [p − u/2, p + u/2)).

    ``printed`` is a decimal string such as ``"0.0444"``; u is one unit of its last digit.  TRUE when x is
    certified inside the window, FALSE when certified outside, UNKNOWN otherwise.

    >>> import sympy
    >>> rounds_to(sympy.log(2), "0.693"), rounds_to(sympy.log(2), "0.694")
    (<Truth.TRUE: 'true'>, <Truth.FALSE: 'false'>)
    """
    p = parse_rational_string(printed, "printed")
    digits = len(printed.split(".")[1]) if "." in printed else 0
    require("max_digits", digits, "digits of the printed decimal")
    half = fmpq(1, 2 * 10**digits)
    lo, hi = p - half, p + half
    if not isinstance(x, arb):
        v = RB(x)
        return (v >= RB(lo)) & (v < RB(hi))
    with ctx.workprec(prec):
        if x >= arb(lo) and x < arb(hi):
            return Truth.TRUE
        if x < arb(lo) or x >= arb(hi):
            return Truth.FALSE
    return Truth.UNKNOWN


__all__ = [
    "DEFAULT_MAX_PREC",
    "DEFAULT_PREC",
    "arb_eval",
    "ball_of_form",
    "ball_sign",
    "certified_compare",
    "certified_difference_sign",
    "certified_sign",
    "compare",
    "decide_le",
    "decide_lt",
    "rounds_to",
    "sign",
    "to_sympy",
    "RB",
    "SignResult",
    "arb_ball",
    "ball_endpoints",
    "current_cap",
    "exact_expr",
    "precision_cap",
    "precisions",
    "rb_apply",
]
