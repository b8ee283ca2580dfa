r"""Certificates as data: what a proof rests on, written so that anyone can re-check it.

A :class:`Certificate` is a frozen value holding only strings: its parameter names (with their sign
assumptions), the inequalities of its parameter region and its scope in words, plus the kind-specific
data — multipliers, identities, an LP's primal and dual solutions.  Every expression is a string in the
grammar of the one safe reader (:mod:`exactdp.numbers.reader`), every number an exact string such as
``"3/7"``, so :meth:`Certificate.to_json` / :meth:`Certificate.from_json` round-trip exactly and a
certificate read from a file is data, never code.

:func:`check` re-derives the certificate's truth from those strings alone — it re-reads every expression,
re-checks every identity by exact cancellation and decides every sign condition with the prover
(:mod:`exactdp.algebra.prover`) on the stated region — and returns a :class:`CertificateCheck`:
TRUE (the certified statement holds on the whole region), FALSE (a step fails: the identity does not
cancel, a sign condition is refuted, the data are inconsistent) or UNKNOWN (a sign condition the prover
cannot decide).  ``failures`` names every failing step.

Kinds (:data:`KINDS`, filled by :func:`register_kind`; each kind lives in its own module here):

* ``"linear-combination"`` (:mod:`.linear_combination`) — a Farkas certificate: constraints g_i ≥ 0 in
  variables and parameters, multipliers λ_i(parameters) ≥ 0 and a slack s(parameters) ≥ 0 with
  h − Σ λ_i g_i − s ≡ 0, which proves h ≥ 0 for every point satisfying the constraints;
* ``"symbolic-statements"`` (:mod:`.statements`) — identities and inequalities decided by the prover;
* ``"lp-point"`` (:mod:`.lp_point`) — an exact LP at one rational point with primal and dual solutions;
* further kinds (``"parametric-lp"``, ``"split-tree"``, ``"instantiation"`` and ``"cases"``) register themselves
  from their own modules in this package.
"""

from __future__ import annotations

import importlib
import pkgutil
import dataclasses
from dataclasses import MISSING, dataclass, fields
from typing import Any, Callable, ClassVar, TypeVar

import sympy
from sympy.core.function import AppliedUndef

from exactdp.algebra.certificates.cache import CheckMemo, content_key
from exactdp.claim_statement import CERTIFICATE_FUNCTIONS, NOT_BOUND, Binding, ClaimStatement, binding, certificate_name, filed_domain, independent_parts, restating
from exactdp.errors import ParameterError, UndecidedError
from exactdp.limits import ResourceLimitError, require
from exactdp.numbers.formula_text import DerivationStep, inline_step, prefixed
from exactdp.numbers.memo import Memo, limits_in_force
from exactdp.numbers.reader import ReadError, as_expr, read_expression
from exactdp.numbers.truth import Truth
from exactdp.scopes import scope_text, size_names, sizes_of, valid_sizes

#: the functions a certificate's expressions may use (the reader's math functions, Min, Max, Abs) and the two
#: recorded operations: ``Subs(e, x, v)`` (e at x = v) and ``Limit(e, x, p)`` (e as x → p⁺), kept unevaluated
#: in the data so that a checker re-does them (:func:`redo`) instead of reading a result computed beforehand
#: (the table the binding reads with: :data:`exactdp.claim_statement.CERTIFICATE_FUNCTIONS`)
FUNCTIONS = CERTIFICATE_FUNCTIONS


def redo(e: Any) -> tuple[Any, list[Any]]:
    """``e`` with every recorded substitution and limit (``Subs``, ``Limit``) carried out, innermost first, and
    the steps that did it.  Raises ValueError when a limit does not evaluate to a finite expression."""
    steps: list[Any] = []

    def run(a: Any) -> Any:
        v = a.doit(deep=False) if isinstance(a, sympy.Subs) else sympy.limit(a.args[0], a.args[1], a.args[2], "+")
        if v.has(sympy.Limit, sympy.Subs) or v.has(sympy.oo, -sympy.oo, sympy.zoo, sympy.nan):
            raise ValueError(f"{a} does not evaluate to a finite expression: {v}")
        if isinstance(a, sympy.Subs):
            steps.append(inline_step("re-done: {} at {} is {}", a.expr, dict(zip(a.variables, a.point)), v))
        else:
            steps.append(inline_step("re-done: the limit of {} as {} tends to {} from above is {}", *a.args[:3], v))
        return v

    out = e.replace(lambda a: isinstance(a, (sympy.Subs, sympy.Limit)), run) if e.has(sympy.Subs, sympy.Limit) else e
    return out, steps

#: the sign / domain assumptions a parameter may carry (sympy's names); they restrict its range
ASSUMPTIONS = ("positive", "nonnegative", "negative", "nonpositive", "nonzero", "integer", "real")


@dataclass(frozen=True)
class CertificateCheck:
    """The result of :func:`check`: TRUE / FALSE / UNKNOWN, the steps taken and every failure.  A step is a
    text line or, where its formulas are known, a :class:`~exactdp.numbers.formula_text.DerivationStep`."""

    truth: Truth
    steps: tuple[Any, ...] = ()
    failures: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.truth)


@dataclass(frozen=True, kw_only=True)
class Certificate:
    """Base of every certificate: ``kind`` (class constant), ``name``, ``parameters``, ``region``, ``scope``.

    ``region`` holds the parameter region's inequalities as reader text (``"t >= 1"``, ``"N*c <= 1"``);
    ``assumptions`` pairs a parameter with comma-separated sympy assumptions (``("t", "positive")``) that
    further restrict it; ``scope`` says in words what the certificate covers (``"all N, M; t >= 1"``);
    ``statement`` is the statement of the claim it is filed under (:class:`exactdp.claim_statement.ClaimStatement`),
    which :func:`check` binds it to.  ``name`` and ``scope`` are derived from the data (a given text is replaced):
    the name is the bound statement's text, else what the data prove (:func:`exactdp.claim_statement.certificate_name`).
    """

    kind: ClassVar[str] = ""
    name: str = ""
    parameters: tuple[str, ...]
    region: tuple[str, ...] = ()
    scope: str = ""
    assumptions: tuple[tuple[str, str], ...] = ()
    #: names of arbitrary (uninterpreted) functions the statements use: what is proved holds for every such f
    functions: tuple[str, ...] = ()
    #: the sizes the structural argument ranges over, in the grammar of :data:`exactdp.scopes.SIZES`
    #: (``"all N, M"``, ``"N = 3, M = 2"``); with the region it makes up ``scope``
    sizes: str = ""
    #: the statement of the claim the certificate is filed under, or None outside a claim
    statement: ClaimStatement | None = None

    def __post_init__(self) -> None:
        """``scope`` is derived from the data (:func:`exactdp.scopes.scope_text`): a given scope text contributes
        only its sizes part (when ``sizes`` is not given); the rest is the region (or point) the checks use.
        ``name`` is derived from the data (:func:`exactdp.claim_statement.certificate_name`)."""
        if not isinstance(self.sizes, str) or not valid_sizes(self.sizes):
            raise ParameterError(f"certificate {self.name}: sizes {self.sizes!r} is not of the form 'all N, M', "
                                 f"'N = 3, M = 2' or 'all n >= 1'")
        if self.statement is not None and not isinstance(self.statement, ClaimStatement):
            raise ParameterError(f"certificate {self.name}: statement must be a ClaimStatement, got "
                                 f"{type(self.statement).__name__}")
        if not self.sizes and self.scope:
            object.__setattr__(self, "sizes", sizes_of(self.scope))
        object.__setattr__(self, "scope", self.derived_scope())
        object.__setattr__(self, "name", certificate_name(self.to_json()))

    def bound_to(self, statement: ClaimStatement | None) -> Certificate:
        """This certificate filed under ``statement`` (its name follows); :func:`check` binds it."""
        return dataclasses.replace(self, statement=statement)

    def states(self, claim: str, *domain: str) -> Certificate:
        """This certificate filed under ``claim`` as the part of its statement that the certificate's relations
        are, on the claim's stated ``domain`` as the certificate sees it (:func:`exactdp.claim_statement.restating`,
        :func:`exactdp.claim_statement.filed_domain`)."""
        d = self.bound_to(None).to_json()
        stated, extra = filed_domain(domain, d)
        return self.bound_to(restating(claim, d, stated, extra))

    def written_out(self) -> Certificate:
        """This certificate bound to its statement with the certificate's own abbreviations written out, so that the
        statement names only its parameters and variables — what an ``instantiation`` citing it copies and
        substitutes into (:func:`exactdp.verification.engine.instantiating`).  A kind without abbreviations: itself;
        a linear combination substitutes its ``definitions`` (:meth:`LinearCombination.written_out`)."""
        return self

    def derived_scope(self) -> str:
        """The scope text of this certificate's data: its sizes and its region (or point)."""
        return scope_text(self.sizes, self.assumptions, self.region, getattr(self, "point", ()))

    # -- the JSON form ------------------------------------------------------------------------------------
    def to_json(self) -> dict[Any, Any]:
        """A JSON-ready dict: ``kind`` and every field; tuples become lists, strings stay strings."""
        out: dict[Any, Any] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = _jsonable(getattr(self, f.name))
        return out

    @classmethod
    def from_json(cls, d: dict[Any, Any]) -> Certificate:
        """The certificate a :meth:`to_json` dict describes, dispatching on ``d["kind"]``.

        Raises:
            ParameterError: not a dict, an unknown kind, a missing or unexpected field, a value that is not
            a string (or a list of them).
        """
        if not isinstance(d, dict):
            raise ParameterError(f"certificate: expected a JSON object, got {type(d).__name__}")
        kind = d.get("kind")
        _load_kinds()
        if kind not in KINDS:
            raise ParameterError(f"certificate: unknown kind {kind!r}; known: {', '.join(sorted(KINDS))}")
        target = KINDS[kind]
        if cls is not Certificate and not issubclass(target, cls):
            raise ParameterError(f"certificate: kind {kind!r} is not a {cls.__name__}")
        names = {f.name: f for f in fields(target)}
        extra = sorted(set(d) - set(names) - {"kind"})
        if extra:
            raise ParameterError(f"certificate {kind}: unexpected field(s) {', '.join(extra)}")
        values: dict[str, Any] = {}
        for name, f in names.items():
            if name in ("scope", "name"):
                continue  # derived from the data; compared below
            if name == "statement" and d.get(name) is not None:
                values[name] = ClaimStatement.from_json(d[name])
                continue
            if name != "statement" and "ClaimStatement" in str(f.type) and name in d:  # copied statement(s)
                raw = d[name]
                values[name] = tuple(ClaimStatement.from_json(x) for x in raw) if isinstance(raw, list) else \
                    ClaimStatement.from_json(raw)
                continue
            if name not in d:
                if f.default is not MISSING or f.default_factory is not MISSING:
                    continue
                raise ParameterError(f"certificate {kind}: missing field {name!r}")
            values[name] = _from_jsonable(d[name], f"{kind}.{name}")
        try:
            cert = target(**values)
        except TypeError as exc:
            raise ParameterError(f"certificate {kind}: {exc}") from None
        if d.get("scope", cert.scope) != cert.scope:
            raise ParameterError(f"certificate {cert.name}: its scope text {str(d['scope'])[:80]!r} is not the one "
                                 f"derived from its data ({cert.scope!r})")
        if d.get("name", cert.name) != cert.name:
            raise ParameterError(f"certificate {cert.name[:80]!r}: its name {str(d['name'])[:80]!r} is not the one "
                                 f"derived from its data")
        return cert

    # -- checking -----------------------------------------------------------------------------------------
    def check(self) -> CertificateCheck:
        """Re-check this certificate from its data (cached: equal certificates are checked once)."""
        return check(self)

    def _check(self) -> CertificateCheck:  # pragma: no cover - every kind overrides it
        raise NotImplementedError

    # -- helpers for the kinds ----------------------------------------------------------------------------
    def symbols(self, extra: tuple[str, ...] = ()) -> dict[Any, Any]:
        """name -> sympy Symbol for the parameters (with their assumptions) and the ``extra`` names."""
        given = dict(self.assumptions)
        out = {}
        for name in tuple(self.parameters) + tuple(extra):
            if not name.isidentifier():
                raise ParameterError(f"certificate {self.name}: parameter name {name!r} is not an identifier")
            kw = {}
            for a in filter(None, (s.strip() for s in given.get(name, "").split(","))):
                if a not in ASSUMPTIONS:
                    raise ParameterError(f"certificate {self.name}: assumption {a!r} of {name} is not one of "
                                         f"{', '.join(ASSUMPTIONS)}")
                kw[a] = True
            out[name] = sympy.Symbol(name, **kw)
        return out

    def read(self, text: str, symbols: dict[Any, Any], what: str, relations: bool = False) -> Any:
        """``text`` read by the safe reader with the certificate's symbols (ReadError names ``what``)."""
        funcs = dict(FUNCTIONS)
        for f in self.functions:
            if not f.isidentifier() or f in FUNCTIONS or f in symbols:
                raise ParameterError(f"certificate {self.name}: {f!r} cannot name an arbitrary function")
            funcs[f] = (sympy.Function(f), None)
        return read_expression(text, name=f"{self.name}: {what}", symbols=symbols, functions=funcs,
                               relations=relations)

    def region_conditions(self, symbols: dict[Any, Any]) -> list[Any]:
        """The region's inequalities as sympy relations (a chain gives several)."""
        out: list[Any] = []
        for i, text in enumerate(self.region):
            rel = self.read(text, symbols, f"region[{i}]", relations=True)
            if rel is sympy.true:
                continue
            if not isinstance(rel, (sympy.And, sympy.core.relational.Relational)):
                raise ParameterError(f"certificate {self.name}: region[{i}] = {text!r} is not an inequality")
            out.extend(rel.args if isinstance(rel, sympy.And) else (rel,))
        return out


#: kind name -> certificate class
KINDS: dict[str, type[Certificate]] = {}
_Kind = TypeVar("_Kind", bound="type[Certificate]")


def register_kind(cls: _Kind) -> _Kind:
    """Class decorator: register a :class:`Certificate` subclass under its ``kind``."""
    if not cls.kind:
        raise ValueError(f"{cls.__name__}: a certificate kind needs a non-empty name")
    if KINDS.get(cls.kind, cls) is not cls:
        raise ValueError(f"certificate kind {cls.kind!r} is registered twice")
    KINDS[cls.kind] = cls
    return cls


_LOADED = False


def _load_kinds() -> None:
    """Import every module of this package once, so each kind registers itself."""
    global _LOADED
    if _LOADED:
        return
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
    _LOADED = True


def _jsonable(v: Any) -> Any:
    if isinstance(v, ClaimStatement):
        return v.to_json()
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    if isinstance(v, (str, bool)) or v is None:
        return v
    raise TypeError(f"certificate fields hold strings and tuples of them, got {type(v).__name__}")


def _from_jsonable(v: Any, what: str) -> Any:
    if isinstance(v, list):
        return tuple(_from_jsonable(x, what) for x in v)
    if isinstance(v, (str, bool)) or v is None:
        return v
    raise ParameterError(f"certificate: {what} must be a string or a list, got {type(v).__name__} {v!r:.40}")


#: the results of earlier checks, by the certificates' content (not their names): :mod:`.cache`
_CACHE = CheckMemo()


def check(cert: Certificate) -> CertificateCheck:
    """Re-check ``cert`` from its data: TRUE, FALSE (with the failures) or UNKNOWN (with the reason).

    Bad data (an unreadable expression, a name that is not a parameter) gives FALSE with the reason; a
    resource limit or undecidable sign gives UNKNOWN.  Certificates with equal content share one check,
    whatever their names (:mod:`.cache`)."""
    if not isinstance(cert, Certificate) or type(cert).kind not in KINDS:
        raise ParameterError(f"check: expected a registered Certificate, got {type(cert).__name__}")
    known: CertificateCheck | None = _CACHE.get(cert)
    if known is not None:
        return known
    if cert.statement is not None:  # the data checked once, whatever statement they are filed under
        result = check(cert.bound_to(None))
        if result.truth is Truth.TRUE:
            result = _guarded(lambda: _bound_to_statement(cert, result))
        return _remember(cert, result)
    return _remember(cert, _guarded(lambda: _checked_data(cert)))


def _checked_data(cert: Certificate) -> CertificateCheck:
    stray = _integers_are_sizes(cert)
    result = stray if stray is not None else cert._check()
    if result.truth is Truth.TRUE:
        result = _on_a_nonempty_region(cert, result)
    return result


def _guarded(run: Callable[[], CertificateCheck]) -> CertificateCheck:
    """``run()``, with bad data FALSE and a limit or an undecidable sign UNKNOWN (never raised)."""
    try:
        return run()
    except ResourceLimitError as exc:
        return CertificateCheck(Truth.UNKNOWN, (), (f"a resource limit stopped the check: {exc}",))
    except UndecidedError as exc:
        return CertificateCheck(Truth.UNKNOWN, (), (f"undecided: {exc}",))
    except (ReadError, ParameterError) as exc:
        return CertificateCheck(Truth.FALSE, (), (f"unreadable certificate data: {exc}",))
    except Exception as exc:  # noqa: BLE001 - data the algebra cannot handle is never accepted
        return CertificateCheck(Truth.UNKNOWN, (), (f"the check could not be completed: "
                                                    f"{type(exc).__name__}: {str(exc)[:200]}",))


def _remember(cert: Certificate, result: CertificateCheck) -> CertificateCheck:
    _CACHE.put(cert, result)
    return result


def _bound_to_statement(cert: Certificate, result: CertificateCheck) -> CertificateCheck:
    """``result`` (the data's check) and the binding to ``cert.statement`` (:func:`exactdp.claim_statement.binding`,
    decided by the prover): FALSE when the conclusion does not imply the statement on a region containing its
    non-empty domain, UNKNOWN when undecided; a statement not in machine form leaves ``result`` and says so."""
    from exactdp.algebra.prover import Region, decide

    b = statement_binding(cert)
    if b.failures:
        return CertificateCheck(Truth.FALSE, result.steps, tuple(f"statement: {f}" for f in b.failures))
    if b.unbound:
        return CertificateCheck(result.truth, result.steps + (f"{NOT_BOUND}: {b.unbound}",), result.failures)
    steps = list(result.steps) + [prefixed("statement: ", s) for s in b.steps]
    fails: list[str] = []
    truths = []
    for what, rel, near in [(w, r, b.domain_for(r)) for w, r in b.holds] + [
            (w, r, b.domain_for_case(r, conds)) for w, r, conds in b.cases]:
        names = set().union(*[r.free_symbols for r in near]) if near else set()
        d = decide(rel, Region.of(*near, variables=sorted(names | rel.free_symbols, key=str)), crossings=False)
        truths.append(d.truth)
        steps.append(DerivationStep(f"statement: {what}", outcome=str(d.truth)))
        if d.truth is not Truth.TRUE:
            fails.append(f"statement: {what}: " + (f"false at {d.counterexample}" if d.truth is Truth.FALSE else
                                                   f"undecided ({d.reason or 'no reason given'})"))
    for part in independent_parts(b.domain) or [[]]:  # conditions on disjoint names have a point part by part
        names = set().union(*[r.free_symbols for r in part]) if part else set()
        empty = decide(sympy.StrictLessThan(1, 0, evaluate=False), Region.of(*part, variables=sorted(names, key=str)))
        if empty.truth is Truth.TRUE:
            truths.append(Truth.FALSE)
            fails.append("statement: the stated domain is empty: the statement holds vacuously")
        elif empty.truth is Truth.UNKNOWN:
            truths.append(Truth.UNKNOWN)
            fails.append(f"statement: the stated domain could not be shown non-empty ({empty.reason or 'undecided'})")
        else:
            steps.append(inline_step("statement: the stated domain is not empty: it contains {}",
                                     empty.counterexample or {}))
    return CertificateCheck(combine_truths(truths), tuple(steps), tuple(fails))


#: the bindings already reduced, by the certificate's content and the limits in force (:func:`statement_binding`)
_BINDINGS: Memo[Binding] = Memo()


def statement_binding(cert: Certificate) -> Binding:
    """:func:`exactdp.claim_statement.binding` of ``cert`` (its JSON form, with :func:`redo` carrying out recorded
    substitutions and limits): the reduction of "``cert`` proves the statement it carries" to decisions, which the
    caller decides.  A pure function of the certificate's content (its name is derived from it), remembered so
    that the engine's filing (:func:`exactdp.verification.engine.carrying`) and :func:`check` reduce a pairing
    once; each caller gets its own lists.  Raises what :func:`~exactdp.claim_statement.binding` raises (never
    remembered)."""
    key = (content_key(cert), limits_in_force())
    known = _BINDINGS.get(key)
    if known is None:
        known = binding(cert.to_json(), carry_out=_carried_out)
        _BINDINGS.put(key, known)
    return dataclasses.replace(known, failures=list(known.failures), domain=list(known.domain),
                               holds=list(known.holds), steps=list(known.steps), cases=list(known.cases))


def _carried_out(e: Any) -> Any:
    """``e`` with its recorded substitutions and limits carried out (:func:`redo`)."""
    return redo(e)[0]


def _integers_are_sizes(cert: Certificate) -> CertificateCheck | None:
    """FALSE when a parameter carries the ``integer`` assumption without being one of the certificate's sizes: an
    integer assumption restricts what is proved, so it must show in the scope (None when every one does)."""
    ints = sorted(name for name, assumed in cert.assumptions if "integer" in (a.strip() for a in assumed.split(",")))
    stray = [n for n in ints if n not in size_names(cert.sizes)]
    if stray:
        return CertificateCheck(Truth.FALSE, (), (f"parameter(s) {', '.join(stray)} carry the integer assumption but "
                                                  f"are not among the sizes {cert.sizes or '(none)'!r}: an integer "
                                                  f"restriction must show in the scope",))
    return None


def _on_a_nonempty_region(cert: Certificate, result: CertificateCheck) -> CertificateCheck:
    """``result`` if the certificate's region (its inequalities and its parameters' assumptions) has a point,
    FALSE if it is empty (every statement would hold vacuously: the certificate proves nothing), UNKNOWN if
    neither is shown.  A point found by the prover, or a rational point of a small grid that satisfies every
    condition exactly, shows it non-empty."""
    from exactdp.algebra.prover import Region, decide

    syms = cert.symbols()
    conds = cert.region_conditions(syms)
    params = sorted(syms.values(), key=str)
    d = decide(sympy.StrictLessThan(1, 0, evaluate=False), Region.of(*conds, variables=params))
    if d.truth is Truth.FALSE:  # 1 < 0 fails at a region point: the region has one
        point: dict[Any, Any] | None = d.counterexample or {}
        return CertificateCheck(Truth.TRUE, result.steps + (inline_step("the region is not empty: it contains {}",
                                                                        point),), result.failures)
    if d.truth is Truth.TRUE:
        return CertificateCheck(Truth.FALSE, result.steps, result.failures + (
            "the region is empty: the certificate proves nothing",))
    point = _grid_point(conds, params)
    if point is not None:
        return CertificateCheck(Truth.TRUE, result.steps + (inline_step("the region is not empty: it contains {}",
                                                                        point),), result.failures)
    return CertificateCheck(Truth.UNKNOWN, result.steps, result.failures + (
        f"the region could not be shown non-empty ({d.reason or 'undecided'})",))


#: the values tried for each parameter when a point of a region is searched on a grid
_GRID = tuple(sympy.Rational(a) for a in ("1/2", "1", "2", "3", "1/4", "1/3", "1/8", "5", "10", "-1", "0"))


def _grid_point(conds: list[Any], params: list[Any]) -> dict[Any, Any] | None:
    """A point of a small rational grid (integers for integer parameters) satisfying every condition, or None."""
    import itertools

    grids = [[v for v in _GRID if (v.is_integer or not p.is_integer) and not (p.is_positive and v <= 0)
              and not (p.is_nonnegative and v < 0)] for p in params]
    require("max_work", len(_GRID) ** min(len(params), 8) * max(len(conds), 1),
            f"searching a point of a {len(params)}-parameter region on a grid")
    for values in itertools.product(*grids):
        point = dict(zip(params, values))
        try:
            if all(c.xreplace(point) is sympy.true for c in conds):
                return point
        except (TypeError, ZeroDivisionError):
            continue
    return None


# -- writing expressions --------------------------------------------------------------------------------

def expr_text(e: Any) -> str:
    """``e`` (a sympy expression or an exact number) as reader text that reads back to the same value.

    Raises:
        ValueError: a float, or an object the reader's grammar cannot express (``Piecewise``, ``oo``, ``I``).
    """
    if isinstance(e, float):
        raise ValueError(f"floats never enter a certificate, got {e!r}")
    if isinstance(e, str):
        return e
    e = as_expr(e)
    for a in sympy.preorder_traversal(e):
        if isinstance(a, sympy.Float):
            raise ValueError(f"floats never enter a certificate, got {a}")
        if isinstance(a, sympy.Limit) and str(a.args[3]) != "+":
            raise ValueError(f"{a}: only one-sided limits x -> p+ are written (Limit(e, x, p))")
        undefined = isinstance(a, AppliedUndef)  # an arbitrary function f(...): named in ``functions``
        if a.is_Function and not undefined and type(a).__name__ not in FUNCTIONS or isinstance(
                a, sympy.Piecewise) or a in (
                sympy.oo, -sympy.oo, sympy.zoo, sympy.nan, sympy.I):
            raise ValueError(f"{a} cannot be written in the reader's grammar")
    text: str = _Printer({"order": None}).doprint(e)
    return text


class _Printer(sympy.printing.str.StrPrinter):
    """sympy's text, with a recorded substitution of several variables written as nested ``Subs(e, x, v)`` (the
    reader's grammar has no tuples) and a limit as ``Limit(e, x, p)`` (x → p⁺)."""

    def _print_Subs(self, obj: Any) -> str:
        e, xs, vs = obj.args
        for i, x in enumerate(xs):
            if any(x in v.free_symbols for v in vs[:i]):
                raise ValueError(f"{obj}: the simultaneous substitution cannot be written as nested Subs")
        text: str = self._print(e)
        for x, v in zip(xs, vs):
            text = f"Subs({text}, {self._print(x)}, {self._print(v)})"
        return text

    def _print_Limit(self, obj: Any) -> str:
        e, x, p, _ = obj.args
        return f"Limit({self._print(e)}, {self._print(x)}, {self._print(p)})"


def relation_text(rel: Any) -> str:
    """An inequality ``a <= b`` (sympy) as reader text."""
    ops = {sympy.LessThan: "<=", sympy.StrictLessThan: "<", sympy.GreaterThan: ">=", sympy.StrictGreaterThan: ">"}
    if type(rel) not in ops:
        raise ValueError(f"{rel} is not an inequality")
    return f"{expr_text(rel.lhs)} {ops[type(rel)]} {expr_text(rel.rhs)}"


def symbols_of(*exprs: Any) -> set[Any]:
    """The symbols a certificate over ``exprs`` must declare: their free symbols and the variables of their
    recorded substitutions and limits (``Subs``, ``Limit``), which the reader must know to read them back."""
    out: set[Any] = set()
    for e in exprs:
        out |= e.free_symbols
        for a in sympy.preorder_traversal(e):
            if isinstance(a, sympy.Subs):
                out |= set(a.variables)
            elif isinstance(a, sympy.Limit):
                out.add(a.args[1])
    return out


def functions_of(*exprs: Any) -> tuple[str, ...]:
    """The ``functions`` field for sympy expressions: the names of the arbitrary functions f(...) they apply."""
    return tuple(sorted({type(a).__name__ for e in exprs for a in e.atoms(AppliedUndef)}))


def assumptions_of(symbols: Any) -> tuple[tuple[str, str], ...]:
    """The ``assumptions`` field for sympy symbols: each symbol's assumptions among :data:`ASSUMPTIONS`."""
    out = []
    for s in sorted(symbols, key=str):
        keys = [a for a in ASSUMPTIONS if s.assumptions0.get(a) is True]
        if keys:
            out.append((str(s), ",".join(keys)))
    return tuple(out)


def decide_sign(expr: Any, conditions: list[Any], strict: bool = False) -> tuple[Truth, Any]:
    """Decide ``expr ≥ 0`` (``> 0`` if strict) for every point satisfying ``conditions`` (sympy relations).

    Only the conditions whose symbols all occur in ``expr`` are used (a *superset* of the region), so a
    TRUE answer is sound for the region whatever its other conditions; a FALSE answer is returned only
    when no condition was dropped, or when the dropped ones involve none of ``expr``'s symbols and are
    satisfiable (the region is then a product, so the counterexample extends).  Otherwise the sign is
    decided again on the whole region, in every parameter its conditions name (as ``exactdp recheck``
    does): a (ε,c)-PML multiplier t/(t − 1) is defined and ≥ 0 on a region that excludes t = 1 only
    through a condition in c as well.  Returns ``(Truth, step)``: the step a
    :class:`~exactdp.numbers.formula_text.DerivationStep` (the relation, the region and the decision apart) or,
    for a false or undecided answer, a text line.
    """
    from exactdp.algebra.prover import Region, decide

    expr = as_expr(expr)
    syms = expr.free_symbols
    kept = [c for c in conditions if c.free_symbols <= syms]
    dropped = len(kept) < len(conditions)
    rel = expr > 0 if strict else expr >= 0
    if rel is sympy.true:
        return Truth.TRUE, inline_step("{} (exact)", (sympy.StrictGreaterThan if strict else sympy.GreaterThan)(
            expr, 0, evaluate=False))
    if rel is sympy.false and not syms:
        return Truth.FALSE, f"{expr} {'>' if strict else '>='} 0 is false"
    region = Region.of(*kept, variables=sorted(syms, key=str))
    if rel is sympy.false:
        rel = sympy.GreaterThan(expr, 0, evaluate=False) if not strict else sympy.StrictGreaterThan(
            expr, 0, evaluate=False)
    d = decide(rel, region, crossings=False)
    where = f" on {region}" + (" (region conditions in other parameters dropped: a superset)" if dropped else "")
    if d.truth is Truth.FALSE and dropped:
        others = [c for c in conditions if c not in kept]
        if not any(c.free_symbols & syms for c in others):  # the region is a product: a point extends
            rest = decide(sympy.StrictLessThan(1, 0, evaluate=False), Region.of(*others))  # false iff non-empty
            if rest.truth is Truth.FALSE:
                return Truth.FALSE, (f"{rel}{where}: false, counterexample {d.counterexample} (the other "
                                     f"conditions involve other parameters and are satisfiable)")
        return _on_whole_region(rel, conditions, f"{rel}{where}: false on the superset")
    if d.truth is Truth.UNKNOWN and dropped:
        return _on_whole_region(rel, conditions, f"{rel}{where}: undecided on the superset")
    tail = f"; counterexample {d.counterexample}" if d.counterexample else (f" ({d.reason})" if d.reason else "")
    if d.truth is Truth.TRUE:
        return d.truth, inline_step("{}" + (" (region conditions in other parameters dropped: a superset)"
                                            if dropped else ""), rel, region=region.as_sympy(), outcome="true")
    return d.truth, f"{rel}{where}: {d.truth}{tail}"


def _on_whole_region(rel: Any, conditions: list[Any], first: str) -> tuple[Truth, str]:
    """:func:`decide_sign`'s second attempt: ``rel`` decided with every condition of the region."""
    from exactdp.algebra.prover import Region, decide

    syms = set(rel.free_symbols).union(*[c.free_symbols for c in conditions])
    region = Region.of(*conditions, variables=sorted(syms, key=str))
    d = decide(rel, region, crossings=False)
    tail = f"; counterexample {d.counterexample}" if d.counterexample else (f" ({d.reason})" if d.reason else "")
    return d.truth, f"{first}; on the whole region {region}: {d.truth}{tail}"


def combine_truths(truths: Any) -> Truth:
    out = Truth.TRUE
    for t in truths:
        out = out & t
    return out


__all__ = ["ASSUMPTIONS", "Certificate", "CertificateCheck", "ClaimStatement", "FUNCTIONS", "KINDS", "NOT_BOUND", "assumptions_of", "check",
           "decide_sign", "expr_text", "functions_of", "redo", "register_kind", "relation_text", "statement_binding",
           "symbols_of"]
