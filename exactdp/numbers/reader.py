r"""The one reader of user text: a whitelisted grammar that builds sympy / flint values directly.

Every text that becomes a number or an expression — kernel entries (JSON/CSV, numeric and symbolic),
parameters and regions of kernel files, ``--at`` values, ``exactdp evalf``, conjectures — goes through
:func:`read_expression` (or :func:`read_rational` for plain numbers).  Nothing is ever handed to
``eval``, ``sympify`` or ``parse_expr``: the text is tokenized and parsed here by a small recursive-descent
grammar, and each node is built by a guarded constructor.  Kernel files are data, never code.

Grammar (``^`` and ``**`` are both powers; decimals such as ``0.1`` and ``1e-30`` are read exactly; the
Unicode ``−``, ``·``, ``×``, ``≤``, ``≥`` and ``√`` that the text printer
(:func:`exactdp.numbers.display.to_text`) writes are read back)::

    relation := sum (("<" | "<=" | ">" | ">=") sum)*        only where relations are allowed
    sum      := term (("+" | "-") term)*
    term     := unary (("*" | "/") unary)*
    unary    := ("+" | "-") unary | power
    power    := atom (("^" | "**") unary)?                 right-associative: 2^3^2 = 2^9
    atom     := NUMBER | NAME | NAME "(" [sum ("," sum)*] ")" | "(" sum ")" | "√" atom

Names are only those the caller declares (parameters, constants, functions); anything else is an
error naming it.  Limits (``exactdp.limits``, each raisable): ``max_text_length`` characters,
``max_nesting`` levels of parentheses / calls / powers / signs, ``max_call_nesting`` levels of function
calls inside function calls, ``max_nodes`` tokens,
``max_integer_digits`` for every exact integer built (literals, decimal exponents, integer powers and
products of rationals), ``max_exp_argument`` for numeric arguments of ``exp`` and real exponents.
Every value must be real: ``log(-1)``, ``sqrt(-1)`` and ``1/0`` are errors.

    >>> read_expression("1/10^3 + 0.5")
    501/1000
    >>> t = sympy.Symbol("t", positive=True)
    >>> read_expression("t*(1-c)/(t+1)", symbols={"t": t, "c": sympy.Symbol("c")})
    t*(1 - c)/(t + 1)
    >>> read_expression("__import__(os)")
    Traceback (most recent call last):
    ...
    exactdp.numbers.reader.ReadError: EXPR: unknown name '__import__'; allowed: Abs, E, Max, Min, atan, cos, cosh, exp, log, pi, sin, sinh, sqrt, tan, tanh
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from flint import fmpq, fmpz

from exactdp.errors import CoercionError
from exactdp.limits import ResourceLimitError, how_to_raise, limit, limits, quote
from exactdp.numbers.memo import Memo, limits_in_force

if TYPE_CHECKING:
    import sympy
else:
    from exactdp.numbers.deferred import sympy  # deferred: start-up

from exactdp.numbers.deferred import sympy_function


class ReadError(CoercionError):
    """User text that the reader refuses: a syntax error, an unknown name, a value that is not real, or a size
    above one of the reader's limits (the message names it and how to raise it).  ``unknown_name`` is the
    offending name when that is the reason."""

    unknown_name: str | None = None


def _extremum(name: str) -> Callable[..., Any]:
    """``Min``/``Max`` of the reader: evaluated only when every argument is rational (an exact comparison);
    otherwise kept unevaluated, so no float comparison of sympy decides it (certified balls do, later)."""
    def build(*args: Any) -> Any:
        fn = getattr(sympy, name)
        if all(isinstance(a, sympy.Rational) for a in args):
            return fn(*args)
        return fn(*args, evaluate=False)

    return build


#: the one function set of every reader of user text (``evalf``, ``check``, ``bound --at``, kernel files):
#: name -> (sympy function, number of arguments; None = any number >= 1); sympy loads at the first call
MATH_FUNCTIONS = {**{name: (sympy_function(name), 1)
                     for name in ("exp", "log", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "atan")},
                  "Min": (_extremum("Min"), None), "Max": (_extremum("Max"), None), "Abs": (sympy_function("Abs"), 1)}


def math_constants() -> dict[str, Any]:
    """The constants every numeric reader knows: ``pi`` and ``E``."""
    return {"pi": sympy.pi, "E": sympy.E}


_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<num>(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)
  | (?P<name>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<op>\*\*|<=|>=|==|!=|[-+*/^(),<>√])
""", re.VERBOSE)
_UNICODE = {"−": "-", "·": "*", "×": "*", "≤": "<=", "≥": ">="}
_RELATIONS = {"<": sympy_function("Lt"), "<=": sympy_function("Le"), ">": sympy_function("Gt"),
              ">=": sympy_function("Ge")}
_LOG2_10 = math.log2(10)


@dataclass(frozen=True)
class _Tok:
    kind: str  # "num", "name", "op", "end"
    text: str
    pos: int


def _tokenize(text: str, name: str) -> list[_Tok]:
    toks, pos, n = [], 0, len(text)
    while pos < n:
        m = _TOKEN.match(text, pos)
        if m is None:
            raise ReadError(f"{name}: unexpected character {text[pos]!r} at position {pos} in {quote(text)}")
        kind = m.lastgroup
        if kind != "ws":
            toks.append(_Tok(cast(str, kind), m.group(), pos))  # the pattern's groups are all named
        pos = m.end()
    if len(toks) > limit("max_nodes"):
        raise ReadError(f"{name}: {len(toks)} tokens exceed the limit max_nodes = {limit('max_nodes')}; "
                        f"{how_to_raise('max_nodes')}")
    toks.append(_Tok("end", "", n))
    return toks


def _max_bits() -> int:
    return int(limit("max_integer_digits") * _LOG2_10) + 1


def _log2(n: int) -> float:
    n = abs(n)
    return math.log2(n) if 0 < n < 2**53 else float(n.bit_length())


def _rational_bits(x: sympy.Rational) -> float:
    """log2 |p| + log2 q (an estimate of the size of ``x`` in bits, exact enough for limits)."""
    return _log2(int(x.p)) + _log2(int(x.q))


def _too_big(name: str, what: str, bits: float) -> ReadError:
    digits = int(bits / _LOG2_10)
    return ReadError(f"{name}: {what} is too large: about {digits} digits, more than the limit max_integer_digits = "
                     f"{limit('max_integer_digits')}; {how_to_raise('max_integer_digits')}")


def _literal(text: str, name: str) -> sympy.Rational:
    """A decimal literal, exactly: ``0.25`` -> 1/4, ``1e-30`` -> 10^-30 (sizes checked before building)."""
    mant, _, exp = text.replace("E", "e").partition("e")
    whole, _, frac = mant.partition(".")
    digits = (whole + frac).lstrip("0") or "0"
    power = (int(exp) if exp else 0) - len(frac) if len(exp) <= 30 else None
    cap = limit("max_integer_digits")
    if power is None or len(digits) > cap or abs(power) > cap:
        size = len(digits) if power is None or len(digits) > cap else abs(power)
        raise ReadError(f"{name}: the number {quote(text, 40)} is too large: about {size if power is not None else 'too many'}"
                        f" digits, more than the limit max_integer_digits = {cap}; {how_to_raise('max_integer_digits')}")
    num = int(fmpz(digits))  # flint parses without Python's 4300-digit limit
    if power >= 0:
        return sympy.Integer(num * 10**power)
    return sympy.Rational(num, 10 ** (-power))


class _Parser:
    def __init__(self, text: str, name: str, symbols: dict[str, Any], functions: dict[str, Any],
                 constants: dict[str, Any], relations: bool) -> None:
        self.text, self.name = text, name
        self.symbols, self.functions, self.constants = symbols, functions, constants
        self.relations = relations
        self.toks = _tokenize(text, name)
        self.i = 0
        self.depth = 0
        self.max_depth = limit("max_nesting")
        self.calls = 0
        self.max_calls = limit("max_call_nesting")

    # -- token helpers
    @property
    def tok(self) -> _Tok:
        return self.toks[self.i]

    def _error(self, msg: str) -> ReadError:
        return ReadError(f"{self.name}: {msg} in {quote(self.text)}")

    def expect(self, s: str) -> None:
        if self.tok.text != s or self.tok.kind != "op":
            got = "the end" if self.tok.kind == "end" else repr(self.tok.text)
            raise self._error(f"expected {s!r} at position {self.tok.pos}, got {got}")
        self.i += 1

    def nest(self) -> None:
        self.depth += 1
        if self.depth > self.max_depth:
            raise ReadError(f"{self.name}: nested more than {self.max_depth} levels deep (limit max_nesting); "
                            f"{how_to_raise('max_nesting')}")

    # -- grammar
    def parse(self) -> Any:
        value = self.relation() if self.relations else self.sum()
        if self.tok.kind != "end":
            raise self._error(f"unexpected {self.tok.text!r} at position {self.tok.pos}")
        return value

    def relation(self) -> Any:
        first = self.sum()
        parts, left, seen = [], first, False
        while self.tok.kind == "op" and self.tok.text in _RELATIONS:
            op = self.tok.text
            self.i += 1
            right = self.sum()
            rel = _RELATIONS[op](left, right)
            if rel is sympy.false:
                raise self._error(f"the relation {left} {op} {right} is false (given the parameters' assumptions)")
            if rel is not sympy.true:  # true by the parameters' assumptions (0 < c for c positive): nothing to add
                parts.append(rel)
            seen = True
            left = right
        if self.tok.kind == "op" and self.tok.text in ("==", "!="):
            raise self._error(f"{self.tok.text!r} is not supported; write an inequality with <=, <, >= or >")
        if not seen:
            return first
        if not parts:
            return sympy.true
        return parts[0] if len(parts) == 1 else sympy.And(*parts)

    def sum(self) -> Any:
        terms = [self.term()]
        while self.tok.kind == "op" and self.tok.text in "+-":
            op = self.tok.text
            self.i += 1
            t = self.term()
            terms.append(_neg(t) if op == "-" else t)
        return terms[0] if len(terms) == 1 else _add(terms, self.name)

    def term(self) -> Any:
        value = self.unary()
        while self.tok.kind == "op" and self.tok.text in ("*", "/"):
            op = self.tok.text
            self.i += 1
            other = self.unary()
            value = _mul(value, other, self.name) if op == "*" else _div(value, other, self.name, self)
        return value

    def unary(self) -> Any:
        if self.tok.kind == "op" and self.tok.text in "+-":
            op = self.tok.text
            self.i += 1
            self.nest()
            value = self.unary()
            self.depth -= 1
            return _neg(value) if op == "-" else value
        return self.power()

    def power(self) -> Any:
        base = self.atom()
        if self.tok.kind == "op" and self.tok.text in ("^", "**"):
            self.i += 1
            self.nest()
            exponent = self.unary()
            self.depth -= 1
            return _pow(base, exponent, self.name, self)
        return base

    def atom(self) -> Any:
        tok = self.tok
        if tok.kind == "op" and tok.text == "√":  # √2, √(1 + t), √x: the square root of the next atom
            self.i += 1
            self.nest()
            value = _apply("sqrt", sympy.sqrt, [self.atom()], self)
            self.depth -= 1
            return value
        if tok.kind == "num":
            self.i += 1
            return _literal(tok.text, self.name)
        if tok.kind == "op" and tok.text == "(":
            self.i += 1
            self.nest()
            value = self.sum()
            self.expect(")")
            self.depth -= 1
            return value
        if tok.kind == "name":
            self.i += 1
            if self.tok.kind == "op" and self.tok.text == "(":
                return self.call(tok)
            if tok.text in self.symbols:
                return self.symbols[tok.text]
            if tok.text in self.constants:
                return self.constants[tok.text]
            if tok.text in self.functions:
                raise self._error(f"{tok.text} is a function: it must be called with arguments, e.g. {tok.text}(...)")
            raise self._unknown(tok.text)
        got = "the end of the text" if tok.kind == "end" else repr(tok.text)
        raise self._error(f"expected a number, a name or '(' at position {tok.pos}, got {got}")

    def call(self, tok: _Tok) -> Any:
        if tok.text not in self.functions:
            if tok.text in self.symbols or tok.text in self.constants:
                raise self._error(f"{tok.text} is not a function (implicit multiplication? write {tok.text}*(...))")
            raise self._unknown(tok.text)
        fn, arity = self.functions[tok.text]
        self.expect("(")
        self.nest()
        self.calls += 1
        if self.calls > self.max_calls:
            raise ReadError(f"{self.name}: function calls nested more than {self.max_calls} deep (limit "
                            f"max_call_nesting); {how_to_raise('max_call_nesting')}")
        args = []
        if not (self.tok.kind == "op" and self.tok.text == ")"):
            args.append(self.sum())
            while self.tok.kind == "op" and self.tok.text == ",":
                self.i += 1
                args.append(self.sum())
        self.expect(")")
        self.depth -= 1
        self.calls -= 1
        if arity is not None and len(args) != arity:
            raise self._error(f"{tok.text} takes {arity} argument(s), got {len(args)}")
        if not args:
            raise self._error(f"{tok.text} needs at least one argument")
        return _apply(tok.text, fn, args, self)

    def _unknown(self, word: str) -> ReadError:
        allowed = sorted(set(self.symbols) | set(self.constants) | set(self.functions))
        if not allowed:
            err = ReadError(f"{self.name}: unknown name {quote(word, 40)}: only numbers and + - * / ^ ( ) are "
                            f"allowed here")
        else:
            listed = ", ".join(allowed)
            if len(listed) > 300:
                listed = listed[:300] + ", ..."
            err = ReadError(f"{self.name}: unknown name {quote(word, 40)}{did_you_mean(word, allowed)}; "
                            f"allowed: {listed}")
        err.unknown_name = word
        return err


def did_you_mean(word: str, names: Any) -> str:
    """``" (did you mean `eta_tv`?)"`` when one of ``names`` is close to ``word`` (the same name in another case,
    or a near miss by :func:`difflib.get_close_matches`), else ``""``: the hint of every unknown-name error."""
    import difflib

    names = sorted(set(names))
    same = [n for n in names if n.lower() == word.lower()]
    close = same or difflib.get_close_matches(word, names, n=1, cutoff=0.75)
    return f" (did you mean `{close[0]}`?)" if close else ""


# -- guarded constructors -------------------------------------------------------------------------------

def _neg(x: Any) -> Any:
    return -x


def _add(terms: list[Any], name: str) -> Any:
    rationals = [t for t in terms if isinstance(t, sympy.Rational)]
    if len(rationals) == len(terms):
        bits = sum(_rational_bits(t) for t in terms)
        if bits > _max_bits() * 2:  # a sum of rationals can have a denominator up to the product of theirs
            raise _too_big(name, "the sum", bits)
        total = fmpq(0)
        for t in terms:
            total += fmpq(int(t.p), int(t.q))
            if int(total.q).bit_length() > _max_bits():
                raise _too_big(name, "the sum's denominator", int(total.q).bit_length())
        return sympy.Rational(int(total.p), int(total.q))
    return sympy.Add(*terms)


def _mul(a: Any, b: Any, name: str) -> Any:
    if isinstance(a, sympy.Rational) and isinstance(b, sympy.Rational):
        bits = _rational_bits(a) + _rational_bits(b)
        if bits > _max_bits():
            raise _too_big(name, "the product", bits)
    return a * b


def _div(a: Any, b: Any, name: str, parser: _Parser) -> Any:
    if b == 0:
        raise parser._error("division by zero is undefined")
    if isinstance(a, sympy.Rational) and isinstance(b, sympy.Rational):
        bits = _rational_bits(a) + _rational_bits(b)
        if bits > _max_bits():
            raise _too_big(name, "the quotient", bits)
    return a / b


def _magnitude(x: Any) -> float | None:
    """An estimate of log2 |x| for a numeric expression (None when symbolic); mpmath has unbounded exponents."""
    if not getattr(x, "is_number", False):
        return None
    if isinstance(x, sympy.Rational):
        if x == 0:
            return -math.inf
        return int(abs(x.p)).bit_length() - int(x.q).bit_length()
    try:
        v = sympy.N(x, 15)
    except Exception:  # pragma: no cover - sympy's evalf failing on a weird numeric expression
        return None
    if v == 0 or not v.is_finite:
        return None if not v.is_finite else -math.inf
    import mpmath

    with mpmath.workprec(53):
        return float(mpmath.log(abs(mpmath.mpf(v._mpf_)), 2)) if v.is_real else None


def _pow(base: Any, exponent: Any, name: str, parser: _Parser | _Substitution) -> Any:
    if base == 0 and exponent.is_number and (exponent.is_negative or exponent == 0):
        raise parser._error("0 to a non-positive power is undefined")
    if isinstance(exponent, sympy.Rational):
        e = abs(exponent)
        if isinstance(base, sympy.Rational):
            bits = _rational_bits(base) * e
            if bits > _max_bits():
                raise _too_big(name, f"the power ({base})^({exponent})" if len(str(exponent)) < 30 else "a power",
                               int(bits))
        elif base.is_number:
            mag = _magnitude(base)
            if mag is not None and abs(mag) * e > _max_bits():
                raise _too_big(name, "the power", int(abs(mag) * e))
            if e > limit("max_integer_digits"):
                raise _too_big(name, "the power's exponent", int(e * _LOG2_10))
        elif e > limit("max_integer_digits"):  # (t + 1)^(10^9) would be expanded by later simplification
            raise ReadError(f"{name}: the exponent {exponent} is larger than the limit max_integer_digits = "
                            f"{limit('max_integer_digits')}; {how_to_raise('max_integer_digits')}")
        if base.is_number and base.is_negative and not exponent.is_integer:
            raise parser._error(f"({base})^({exponent}) is not a real number")
    elif not exponent.is_number:
        _check_symbolic_argument(exponent, "the exponent", name)
    elif exponent.is_number:
        mag = _magnitude(exponent)
        if mag is not None and mag > math.log2(limit("max_exp_argument")):
            raise ReadError(f"{name}: the exponent {_short(exponent)} is too large: more than the limit max_exp_argument = "
                            f"{limit('max_exp_argument')}; {how_to_raise('max_exp_argument')}")
        if base.is_number and base.is_negative:
            raise parser._error(f"({base})^({_short(exponent)}) is not a real number")
    return base ** exponent


def _short(x: Any) -> str:
    s = str(x)
    return s if len(s) <= 60 else s[:60] + "..."


def _check_symbolic_argument(arg: Any, what: str, name: str) -> None:
    """Refuse a symbolic argument of exp (or exponent of a power) holding a number above ``max_exp_argument``:
    ``exp(10^12*eta_tv)`` would reach GMP with a 10^12-bit size once a value is substituted (an abort, not
    an error).  The numbers are the rationals and numeric subterms of the argument, each bounded alone."""
    cap = math.log2(limit("max_exp_argument"))
    for node in sympy.preorder_traversal(arg):
        if node.is_number and not node.is_Atom or isinstance(node, sympy.Rational):
            mag = _magnitude(node)
            if mag is not None and mag > cap:
                raise ReadError(f"{name}: {what} {_short(arg)} holds the number {_short(node)}, larger than the "
                                f"limit max_exp_argument = {limit('max_exp_argument')}; "
                                f"{how_to_raise('max_exp_argument')}")


def _apply(fname: str, fn: Any, args: list[Any], parser: _Parser) -> Any:
    if fname == "exp" and not args[0].is_number:
        _check_symbolic_argument(args[0], "the argument of exp", parser.name)
    if fname in MATH_FUNCTIONS and len(args) == 1:  # Min and Max take any number of arguments
        (arg,) = args
        if arg.is_number:
            if fname == "exp":
                mag = _magnitude(arg)
                if mag is not None and mag > math.log2(limit("max_exp_argument")):
                    raise ReadError(f"{parser.name}: exp({_short(arg)}) is too large: its argument exceeds the limit "
                                    f"max_exp_argument = {limit('max_exp_argument')}; {how_to_raise('max_exp_argument')}")
            if fname in ("log", "sqrt") and (arg.is_negative or (fname == "log" and arg == 0)):
                raise parser._error(f"{fname}({_short(arg)}) is not a real number")
            if fname in ("sin", "cos", "tan", "sinh", "cosh", "tanh", "atan"):
                mag = _magnitude(arg)
                if mag is not None and mag > math.log2(limit("max_exp_argument")):
                    raise ReadError(f"{parser.name}: {fname}({_short(arg)}) is too large: its argument exceeds the limit "
                                    f"max_exp_argument = {limit('max_exp_argument')}; "
                                    f"{how_to_raise('max_exp_argument')}")
    try:
        value = fn(*args)
    except (TypeError, ValueError, ArithmeticError) as exc:
        raise parser._error(f"{fname}: {str(exc)[:120]}") from None
    if isinstance(value, sympy.Basic) and value.is_number and value.has(sympy.zoo, sympy.nan, sympy.I):
        raise parser._error(f"{fname}({', '.join(_short(a) for a in args)}) is not a real number")
    if isinstance(value, sympy.Rational) and _rational_bits(value) > _max_bits():  # exp(k log 2) is 2^k
        raise _too_big(parser.name, f"{fname}({_short(args[0])})", int(_rational_bits(value)))
    return value


class _Substitution:
    """What the guarded constructors need of a parser when they rebuild an expression: its error format."""

    def __init__(self, name: str) -> None:
        self.name = name

    def _error(self, msg: str) -> ReadError:
        return ReadError(f"{self.name}: {msg}")


def substitute(expr: Any, values: dict[Any, Any], name: str = "EXPR", *, scale: int = 1) -> Any:
    """``expr`` with symbols replaced by exact values (``{Symbol: sympy number}``), rebuilt bottom-up through
    the reader's guarded constructors: a power, product or sum of exact numbers whose size exceeds
    ``max_integer_digits`` (``(9/10)^n`` at n = 10^18) is refused *before* sympy or GMP builds it, with a
    :class:`ReadError` naming the limit.  ``expr.subs`` would build the huge rational first.  ``scale``
    multiplies the limit for exact results of the library's own evaluations (``scale`` × the limit digits).

    >>> n = sympy.Symbol("n")
    >>> substitute(1 - sympy.Rational(1, 2) ** n, {n: sympy.Integer(3)})
    7/8
    >>> substitute(sympy.Rational(9, 10) ** n, {n: sympy.Integer(10**18)}, "phi_n")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactdp.numbers.reader.ReadError: phi_n: the power (9/10)^(1000000000000000000) is too large: about ... digits, more than the limit max_integer_digits = 10000; raise it with ...
    """
    keys = set(values)
    guard = _Substitution(name)

    def walk(e: Any) -> Any:
        if e in values:
            return values[e]
        if not e.args or not (e.free_symbols & keys):
            return e
        args = [walk(a) for a in e.args]
        if e.is_Pow and not (isinstance(args[0], sympy.exp) or args[0] is sympy.E):  # exp(a)^k = exp(k a): cheap
            return _pow(args[0], args[1], name, guard)
        if e.is_Mul or e.is_Add:
            bits = sum(_rational_bits(a) for a in args if isinstance(a, sympy.Rational))
            if bits > 2 * _max_bits():
                raise _too_big(name, "the product" if e.is_Mul else "the sum", bits)
        return e.func(*args)

    if scale == 1:
        return walk(expr)
    with limits(max_integer_digits=scale * limit("max_integer_digits")):
        return walk(expr)


# -- public API -----------------------------------------------------------------------------------------

def _check_text(text: Any, name: str) -> str:
    if not isinstance(text, str):
        raise ReadError(f"{name}: expected text, got {type(text).__name__}")
    cap = limit("max_text_length")
    if len(text) > cap:
        raise ReadError(f"{name}: {len(text)} characters exceed the limit max_text_length = {cap}; "
                        f"{how_to_raise('max_text_length')}")
    for u, a in _UNICODE.items():
        if u in text:
            text = text.replace(u, a)
    if not text.strip():
        raise ReadError(f"{name}: empty text where a number or expression is expected")
    return str(text)


def read_expression(text: str, *, name: str = "EXPR", symbols: dict[str, Any] | None = None,
                    functions: dict[str, Any] | None = None, constants: dict[str, Any] | None = None,
                    relations: bool = False) -> sympy.Basic:
    """Read ``text`` into an exact sympy expression (see the module docstring for the grammar and limits).

    Args:
        symbols: parameter name -> sympy Symbol the text may use.
        functions: name -> (callable, arity or None); default :data:`MATH_FUNCTIONS`.
        constants: name -> value; default :func:`math_constants` (``pi``, ``E``).
        relations: accept ``<, <=, >, >=`` (chains give an ``And``).

    Raises:
        ReadError: (a :class:`~exactdp.errors.CoercionError`) naming ``name``, the rule and at most 80
        characters of the text.

    A text read once is read again from :data:`_READ_MEMO` (certificates hold the same strings, read by every
    checker of them): the key is everything the value depends on — the text, the symbols, functions and
    constants it may use, ``relations`` and the limits in force —, never ``name``, which only labels a refusal;
    a refusal is never remembered, so it is raised again with its own name.
    """
    key = _read_key(text, symbols, functions, constants, relations)
    if key is not None:
        known = _READ_MEMO.get(key)
        if known is not None:
            return known
    value = _read_expression(text, name, symbols, functions, constants, relations)
    if key is not None:
        _READ_MEMO.put(key, value)
    return value


#: expressions already read, by :func:`_read_key` (:func:`read_expression`)
_READ_MEMO: Memo[Any] = Memo()


def _read_key(text: Any, symbols: dict[str, Any] | None, functions: dict[str, Any] | None,
              constants: dict[str, Any] | None, relations: bool) -> tuple[Any, ...] | None:
    """The memo key of one reading (None when an input is not hashable or a limit is unreadable: then the text is
    simply read, and the reading reports what it reports)."""
    try:
        key = (text, frozenset((symbols or {}).items()),
               None if functions is None else frozenset(functions.items()),
               None if constants is None else frozenset(constants.items()), bool(relations), limits_in_force())
        hash(key)
    except (TypeError, ResourceLimitError):
        return None
    return key


def _read_expression(text: str, name: str, symbols: dict[str, Any] | None, functions: dict[str, Any] | None,
                     constants: dict[str, Any] | None, relations: bool) -> sympy.Basic:
    text = _check_text(text, name)
    parser = _Parser(text, name, dict(symbols or {}), MATH_FUNCTIONS if functions is None else functions,
                     math_constants() if constants is None else constants, relations)
    try:
        value = parser.parse()
    except RecursionError:  # pragma: no cover - max_nesting keeps the recursion far below Python's limit
        raise ReadError(f"{name}: nested too deeply in {quote(text)}") from None
    if getattr(value, "free_symbols", None):
        degree = _degree(value, limit("max_degree") + 1)
        if degree > limit("max_degree"):
            raise ReadError(f"{name}: {quote(text, 60)} has degree {'at least ' if degree == limit('max_degree') + 1 else ''}"
                            f"{degree} in its parameters, more than the limit max_degree = {limit('max_degree')}; "
                            f"{how_to_raise('max_degree')}")
    return value


def tokens(text: str, name: str = "EXPR") -> list[_Tok]:
    """The reader's tokens of ``text`` (each with ``kind`` num/name/op/end, ``text`` and ``pos``): callers
    that check names before reading (``exactdp check``) see the text exactly as the reader does."""
    return _tokenize(_check_text(text, name), name)


def split_relation(text: str, name: str = "EXPR") -> tuple[str, str, str]:
    """``"lhs <= rhs"`` → ``("lhs ", "<=", " rhs")``: the text split at its one relation ``<, <=, >, >=``, found by
    the reader's tokenizer (so errors are the reader's, with positions: an unexpected character, ``==``).

    >>> split_relation("eta_tv <= tanh(eps/2)")
    ('eta_tv ', '<=', ' tanh(eps/2)')
    """
    text = _check_text(text, name)
    toks = _tokenize(text, name)
    rel = [t for t in toks if t.kind == "op" and t.text in _RELATIONS]
    for t in toks:
        if t.kind == "op" and t.text in ("==", "!="):
            raise ReadError(f"{name}: {t.text!r} at position {t.pos} is not supported; write an inequality with "
                            f"<=, <, >= or > in {quote(text)}")
    if not rel:
        raise ReadError(f"{name}: no relation (<=, <, >=, >) in {quote(text)}")
    if len(rel) > 1:
        raise ReadError(f"{name}: must contain exactly one of <=, <, >=, >; got a second {rel[1].text!r} at "
                        f"position {rel[1].pos} in {quote(text)}")
    r = rel[0]
    return text[:r.pos], r.text, text[r.pos + len(r.text):]


def _degree(expr: Any, cap: int) -> int:
    """An upper estimate (capped at ``cap``) of the total degree of ``expr`` in its symbols, counting a
    quotient as the sum of the degrees of its parts and a function by the degree of its argument."""
    if expr.is_Symbol:
        return 1
    if expr.is_number or not expr.args:
        return 0
    if expr.is_Mul:
        return min(cap, sum(_degree(a, cap) for a in expr.args))
    if expr.is_Pow:
        base, e = expr.args
        d = _degree(base, cap)
        if e.is_Rational:
            return min(cap, d * (abs(int(e.p)) // int(e.q) + 1 if not e.is_Integer else abs(int(e))))
        return max(d, _degree(e, cap))
    return max(_degree(a, cap) for a in expr.args)


def read_rational(text: str, name: str = "value") -> fmpq:
    """An exact rational from text with arithmetic on numbers only: ``"1/10^5000"``, ``"1 - 3/7"``, ``"2**-3"``.

    >>> read_rational("1 - 1/2^3"), read_rational("0.1*3")
    (7/8, 3/10)
    """
    value = read_expression(text, name=name, functions={}, constants={})
    if not isinstance(value, sympy.Rational):
        raise ReadError(f"{name}: {quote(text)} is not an exact rational number")
    return fmpq(int(value.p), int(value.q))


def as_expr(value: Any, name: str = "value") -> sympy.Basic:
    """The library's one replacement of ``sympy.sympify``: numbers and sympy objects pass (``strict``
    sympify), text goes through :func:`read_expression` (numbers and the math functions, no names), and
    floats are refused.  ``sympify`` on a string would run Python's ``eval``.

    >>> as_expr("exp(1/2) + 1"), as_expr(3)
    (1 + exp(1/2), 3)
    """
    if isinstance(value, str):
        return read_expression(value, name=name)
    if isinstance(value, float):
        raise CoercionError(f"{name}: floats are not accepted in exact computations, got {value!r}; pass it "
                            f"exactly as a string or a Fraction")
    try:
        return sympy.sympify(value, strict=True)
    except sympy.SympifyError:
        raise CoercionError(f"{name}: cannot use {type(value).__name__} {quote(repr(value), 60)} as a number "
                            f"or expression") from None
