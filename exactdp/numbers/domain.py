r"""Number domains: one interface over which each measure is written once.

A measure computed over a :class:`Domain` ``D`` uses only

* ``D.zero``, ``D.one`` and ``D.convert(value)`` (an exact input as an element of D; floats refused),
* ``D.sign(a)`` — the three-valued sign: a :class:`~exactdp.numbers.truth.Sign`, or None when undecided,
* ``D.compare(a, op, b)`` → :class:`~exactdp.numbers.truth.Truth` (UNKNOWN, never a guess),
* ``D.positive_part(a)`` = (a)₊ = max(a, 0), from the domain's sign by the one
  :func:`exactdp.numbers.truth.positive_part`,
* ``D.total(values)`` (Σ), ``D.max(values)`` → ``(value, index)`` (index None when the maximizer varies),
* ``D.max_quotient(nums, dens)`` → ``(value, index)``: max_k nums[k]/dens[k], ``sympy.oo`` where a denominator
  vanishes below a non-zero numerator (SR: on the part of the region where it does),
* ``D.result(value)``: the canonical exact value (``fmpq`` for a rational, else an exact sympy expression).

**Fast paths as domain hooks** (mpmath's context style): each public measure has one body,
``D.run(measure, generic, *args)``, where ``generic(D, *args)`` is the algorithm written over the interface
above and a domain class may hold a faster route for the measure (``@QQ.fast_path("ldp_ratio")``: QQ's
vectorized integer routes, RB's certified ball routes), registered by the measure's own module next to the
body; a route returns None where it does not apply and the generic algorithm runs.  :func:`unify` is the
one choice of a domain from the inputs (sympy's ``unify``: the least of QQ ⊂ RB ⊂ SR holding them); every
measure calls it through :func:`exactdp.measures.input_domain.input_domain`, which builds the SR domain of a
region above this layer.

The three domains:

* :data:`QQ` — exact rationals on python-flint ``fmpq``; every sign is decided.  Its fast paths are the
  measures' integer routes on :mod:`exactdp.numbers.linalg`'s integer form (in :mod:`exactdp.measures`).
* :class:`RB` — symbol-free exact real numbers (``exp(1/2)``, ``sqrt(2)/2``) kept as sympy expressions, whose
  signs are certified by balls at doubling precision up to the cap with exact tie-breaks
  (:meth:`exactdp.numbers.rb.RB.sign`); an undecided sign in a positive part or a maximum raises
  :class:`~exactdp.errors.UndecidedError` naming the quantity.
* :class:`SR` — sympy expressions in parameters, decided on a region of hypotheses.  The exact prover sits
  above this layer (:mod:`exactdp.algebra.prover`), so an SR domain is given its region as a
  :class:`Hypotheses` object (:func:`exactdp.symbolic.closedforms.sr_domain` builds it): strict/weak signs
  decided on the region, a positive part that becomes a ``Piecewise`` where the sign changes, a maximum
  that splits the region (on a one-parameter box by exact cell decomposition), a maximum of quotients that
  is ``oo`` where a denominator vanishes on part of the region, and the canonical form of a result.

A fourth value domain, :mod:`exactdp.numbers.loglin` (rationals, exact log-linear combinations, certified
balls and ±∞), is the conjecture search's: it evaluates formulas over values rather than measures over kernels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ClassVar, Generic, Protocol, Sequence, TypeAlias, TypeVar, cast

from flint import fmpq

from exactdp.errors import ParameterError, UndecidedError
from exactdp.numbers.qq import ONE, ZERO, qq_to_sympy, to_qq
from exactdp.numbers.rb import RB as _Ball
from exactdp.numbers.sr import exact_result, simplest_constant, to_sr
from exactdp.numbers.truth import Sign, Truth, positive_part

if TYPE_CHECKING:
    import sympy
else:
    from exactdp.numbers.deferred import sympy  # deferred: start-up

from exactdp.numbers.deferred import is_sympy

#: the relations of :meth:`Domain.compare` and the signs of a − b that make them true
_OPS = {"<": (Sign.NEGATIVE,), "<=": (Sign.NEGATIVE, Sign.ZERO), "==": (Sign.ZERO,),
        "!=": (Sign.NEGATIVE, Sign.POSITIVE), ">": (Sign.POSITIVE,), ">=": (Sign.POSITIVE, Sign.ZERO)}


#: the element type of a domain: ``fmpq`` for QQ, a sympy expression for RB and SR
E = TypeVar("E")

#: an exact value of a measure in whichever domain ran it: ``fmpq`` (QQ) or an exact sympy expression (RB, SR)
Exact: TypeAlias = "fmpq | sympy.Expr"

#: a fast path: ``route(domain, *args)`` → the measure's value, or None where it does not apply
Route = Callable[..., Any]
R_ = TypeVar("R_", bound=Route)


class Domain(Generic[E]):
    """The operations a measure may use (module docstring), generic over the element type ``E``; subclasses
    give ``zero``, ``one``, ``convert`` and ``sign``."""

    name = "domain"
    zero: E
    one: E
    #: this domain class's fast paths by measure name (each subclass its own table; see :meth:`fast_path`)
    routes: ClassVar[dict[str, Route]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.routes = {}

    @classmethod
    def fast_path(cls, measure: str) -> Callable[[R_], R_]:
        """Decorator: register ``route(domain, *args)`` as this domain's fast path for ``measure`` (one per
        measure and domain class)."""
        def register(route: R_) -> R_:
            if measure in cls.routes:
                raise ValueError(f"{cls.__name__}: a fast path for {measure!r} is already registered")
            cls.routes[measure] = route
            return route
        return register

    def run(self, measure: str, generic: Route, *args: Any) -> Any:
        """The measure's value in this domain: its fast path when one is registered and applies (returns a
        value, not None), else ``generic(self, *args)``, the algorithm written over the domain interface."""
        route = type(self).routes.get(measure)
        if route is not None:
            value = route(self, *args)
            if value is not None:
                return value
        return generic(self, *args)

    def convert(self, value: Any, name: str = "value") -> E:
        raise NotImplementedError

    def sign(self, a: E) -> Sign | None:
        raise NotImplementedError

    def weak_sign(self, a: E) -> Sign | None:
        """POSITIVE for a proved a ≥ 0, NEGATIVE for a proved a ≤ 0 (enough for (a)₊); by default the sign."""
        return self.sign(a)

    def compare(self, a: E, op: str, b: E) -> Truth:
        """``a op b`` for op in <, <=, ==, !=, >, >=: TRUE, FALSE or UNKNOWN."""
        if op not in _OPS:
            raise ParameterError(f"op: must be one of {sorted(_OPS)}, got {op!r}")
        s = self.sign(a - b)  # type: ignore[operator]  # E is a number type (fmpq or sympy)
        return Truth.UNKNOWN if s is None else Truth.of(s in _OPS[op])

    def positive_part(self, a: E) -> E:
        """(a)₊ from this domain's sign; undecided: :meth:`undecided_positive_part`."""
        return cast(E, positive_part(a, self.weak_sign, zero=self.zero, undecided=self.undecided_positive_part))

    def undecided_positive_part(self, a: E) -> E:
        raise UndecidedError(f"{self.name}: the sign of {a} is undecided: its positive part is unknown")

    def total(self, values: Sequence[E]) -> E:
        terms: Sequence[Any] = values  # E supports +
        start: Any = self.zero
        return cast(E, sum(terms, start))

    def max(self, values: Sequence[E]) -> tuple[E, int | None]:
        """``(max, index of the first maximizer)``; every comparison certified (UndecidedError if one is not)."""
        if not values:
            raise ParameterError("values: the maximum of an empty sequence is undefined")
        best, arg = values[0], 0
        for k in range(1, len(values)):
            s = self.sign(values[k] - best)  # type: ignore[operator]
            if s is None:
                raise UndecidedError(f"{self.name}: cannot order {values[k]} and {best}")
            if s is Sign.POSITIVE:
                best, arg = values[k], k
        return best, arg

    def max_quotient(self, nums: Sequence[E], dens: Sequence[E]) -> tuple[Any, int | None]:
        """``(max_k nums[k]/dens[k], first maximizer)``; ``(sympy.oo, k)`` for the first denominator that is 0
        (every sign decided by the domain: UndecidedError if one is not)."""
        for k, den in enumerate(dens):
            if self.compare(den, "==", self.zero) is Truth.TRUE:
                return sympy.oo, k
        return self.max([self.normal(a / b) for a, b in zip(nums, dens)])  # type: ignore[operator]

    def result(self, value: E) -> Any:
        """The canonical exact value (``fmpq`` when rational)."""
        return exact_result(value)

    def normal(self, value: E) -> E:
        """A simpler equal element (a quotient in lowest terms); by default the value itself."""
        return value

    def __repr__(self) -> str:
        return self.name


class _Rationals(Domain[fmpq]):
    """QQ: exact rationals (``fmpq``), every sign decided."""

    name = "QQ"
    zero = ZERO
    one = ONE

    def convert(self, value: Any, name: str = "value") -> fmpq:
        return to_qq(value, name)

    def sign(self, a: fmpq) -> Sign:
        return Sign.POSITIVE if a > 0 else (Sign.NEGATIVE if a < 0 else Sign.ZERO)

    def result(self, value: fmpq) -> fmpq:
        return value


#: the exact rational domain
QQ = _Rationals()


class RB(Domain["sympy.Expr"]):
    """Symbol-free exact reals as sympy expressions, signs certified by balls (``max_prec``: the cap in bits,
    None for the scoped cap); ``what`` names the quantity in an undecided error."""

    name = "RB"

    def __init__(self, what: str = "RB", *, max_prec: int | None = None) -> None:
        self.what = what
        self.max_prec = max_prec
        self.zero = sympy.Integer(0)
        self.one = sympy.Integer(1)

    def convert(self, value: Any, name: str = "value") -> sympy.Expr:
        if isinstance(value, fmpq):
            return qq_to_sympy(value)
        expr = to_sr(value, name)
        if expr.free_symbols:
            raise ParameterError(f"{name}: must be a number, got {expr} with free symbols")
        return expr

    def sign(self, a: Any) -> Sign | None:
        if isinstance(a, fmpq):
            return QQ.sign(a)
        return _Ball(a).sign(max_prec=self.max_prec).sign

    def undecided_positive_part(self, a: Any) -> Any:
        reason = _Ball(a).sign(max_prec=self.max_prec).reason
        raise UndecidedError(f"{self.what}: the sign of {a} is undecided ({reason})")

    def total(self, values: Sequence[Any]) -> sympy.Expr:
        return sympy.Add(*values)

    def normal(self, value: Any) -> Any:
        """One fraction in lowest terms over the expression's transcendental generators (exact; cheap)."""
        return sympy.cancel(sympy.together(value))

    def result(self, value: Any) -> Any:
        """The canonical exact value in its shortest form (:func:`exactdp.numbers.sr.simplest_constant`)."""
        return exact_result(simplest_constant(value))

    def __repr__(self) -> str:
        return f"RB({self.what!r})"


class Hypotheses(Protocol):
    """What an :class:`SR` domain is given by the owner of its region (the prover's layer)."""

    def holds(self, expr: Any, strict: bool) -> Truth:
        """Truth of expr > 0 (strict) / expr ≥ 0 on the whole region."""

    def piecewise_positive(self, expr: Any) -> Any:
        """(expr)₊ where the sign of expr changes on the region: a Piecewise with the condition expr > 0."""

    def maximum(self, exprs: Sequence[Any]) -> tuple[Any, int | None]:
        """max of the expressions on the region, with the maximizer's index (None if it varies)."""

    def max_quotient(self, nums: Sequence[Any], dens: Sequence[Any]) -> tuple[Any, int | None]:
        """max_k nums[k]/dens[k] on the region, ``oo`` where a denominator vanishes below a non-zero
        numerator (a ``Piecewise`` when that is on part of the region only); index None if it varies."""

    def result(self, expr: Any) -> Any:
        """The canonical closed form of a value on the region."""


class SR(Domain["sympy.Expr"]):
    """Sympy expressions in parameters, decided on ``hypotheses`` (a region; see :class:`Hypotheses`)."""

    name = "SR"

    def __init__(self, hypotheses: Hypotheses) -> None:
        self.hypotheses = hypotheses
        self.zero = sympy.Integer(0)
        self.one = sympy.Integer(1)

    def convert(self, value: Any, name: str = "value") -> sympy.Expr:
        return qq_to_sympy(value) if isinstance(value, fmpq) else to_sr(value, name)

    def sign(self, a: Any) -> Sign | None:
        h = self.hypotheses
        if h.holds(a, True) is Truth.TRUE:
            return Sign.POSITIVE
        if h.holds(-a, True) is Truth.TRUE:
            return Sign.NEGATIVE
        if h.holds(a, False) is Truth.TRUE and h.holds(-a, False) is Truth.TRUE:
            return Sign.ZERO
        return None

    def weak_sign(self, a: Any) -> Sign | None:
        h = self.hypotheses
        if a == 0:
            return Sign.ZERO
        if h.holds(a, False) is Truth.TRUE:
            return Sign.POSITIVE
        return Sign.NEGATIVE if h.holds(-a, False) is Truth.TRUE else None

    def undecided_positive_part(self, a: Any) -> Any:
        return self.hypotheses.piecewise_positive(a)

    def compare(self, a: Any, op: str, b: Any) -> Truth:
        """``a op b``: TRUE if it holds on the whole region, FALSE if it fails on the whole region, UNKNOWN
        otherwise (undecided, or true on a part of the region only)."""
        if op not in _OPS:
            raise ParameterError(f"op: must be one of {sorted(_OPS)}, got {op!r}")
        if op in ("<", "<="):
            a, b, op = b, a, {"<": ">", "<=": ">="}[op]
        h, d = self.hypotheses, a - b
        if op in (">", ">="):
            if h.holds(d, op == ">") is Truth.TRUE:
                return Truth.TRUE
            return Truth.FALSE if h.holds(-d, op == ">=") is Truth.TRUE else Truth.UNKNOWN
        equal = Truth.UNKNOWN
        if h.holds(d, False) is Truth.TRUE and h.holds(-d, False) is Truth.TRUE:
            equal = Truth.TRUE
        elif h.holds(d, True) is Truth.TRUE or h.holds(-d, True) is Truth.TRUE:
            equal = Truth.FALSE
        return equal if op == "==" else ~equal

    def total(self, values: Sequence[Any]) -> sympy.Expr:
        return sympy.Add(*values)

    def max(self, values: Sequence[Any]) -> tuple[Any, int | None]:
        return self.hypotheses.maximum(list(values))

    def max_quotient(self, nums: Sequence[Any], dens: Sequence[Any]) -> tuple[Any, int | None]:
        return self.hypotheses.max_quotient(list(nums), list(dens))

    def result(self, value: Any) -> Any:
        return self.hypotheses.result(value)

    def __repr__(self) -> str:
        return f"SR({self.hypotheses!r})"


#: the constant domains in the order of inclusion QQ ⊂ RB ⊂ SR (SR: expressions with free symbols)
DOMAIN_ORDER = ("QQ", "RB", "SR")


def value_domain(value: Any) -> str:
    """The least domain holding one exact value: ``"QQ"`` for an ``fmpq`` (or a Python int), ``"SR"`` for a
    sympy expression with free symbols, ``"RB"`` for any other exact number (``sqrt(2)``, ``E``, ``exp(1/2)``,
    ``pi``; a sympy Rational too, converted by RB exactly)."""
    if isinstance(value, fmpq) or (isinstance(value, int) and not isinstance(value, bool)):
        return "QQ"
    if is_sympy(value) and value.free_symbols:
        return "SR"
    return "RB"


def unify(values: Sequence[Any], what: str = "RB", *, least: str = "QQ") -> Domain[Any] | None:
    """The one choice of a measure's number domain (sympy's ``unify``): the least of QQ ⊂ RB ⊂ SR holding
    every value and ``least`` (the domain the caller's other inputs need, such as a kernel's
    :func:`exactdp.measures.input_domain.kernel_domain_name`).  Returns :data:`QQ`, ``RB(what)`` (``what``
    names the quantity in an undecided error), or None for SR: the SR domain of a region is built above this
    layer, by :func:`exactdp.measures.input_domain.input_domain`."""
    if least not in DOMAIN_ORDER:
        raise ParameterError(f"least: must be one of {', '.join(DOMAIN_ORDER)}, got {least!r}")
    rank = DOMAIN_ORDER.index(least)
    for v in values:
        if rank == 2:
            break
        rank = max(rank, DOMAIN_ORDER.index(value_domain(v)))
    if rank == 0:
        return QQ
    return RB(what) if rank == 1 else None
