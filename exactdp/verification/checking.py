r"""Building blocks for checks: turn instance tests and symbolic identities into :class:`Outcome`\ s.

* :func:`check_instances` — run a test over named families of exact instances: VERIFIED with the
  count, REFUTED at the first failing instance (its exact data as the counterexample), UNDECIDED when
  a certified comparison could not separate.
* :func:`prove_zero` — an identity ``expr == 0`` by the project's prover (PROVED with its "symbolic-statements"
  certificate and the derivation);
  if it is not reduced to 0, exact evaluation at rational points looks for a counterexample.
* :func:`prove_nonnegative` — a rational function of variables that are ≥ 0 after the substitution
  given (e.g. t = 1 + s), proved ≥ 0 when numerator and denominator are polynomials with coefficients
  of one sign (every term ≥ 0 on the orthant); otherwise a rational point where it is < 0 refutes it.
* :func:`not_checkable` — the outcome for a statement that is not known well enough.

An instance test returns ``(truth, data)``: a :class:`~exactdp.numbers.truth.Truth` (or bool) and a
dict of exact values (strings) that describes the instance — the counterexample when truth is FALSE.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping

import sympy

from exactdp.numbers.formula_text import inline_step
from flint import fmpq

from exactdp.numbers.infinity import is_infinite
from exactdp.numbers.truth import Truth
from exactdp.algebra.certificates import check
from exactdp.verification.claims import Outcome, Verdict, proved
from exactdp.verification.identities import Eq, Statement, statements_certificate
from exactdp.numbers.reader import as_expr


def _stringify(value):
    if isinstance(value, Mapping):
        return {str(k): _stringify(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_stringify(v) for v in value]
    if isinstance(value, (str, bool)) or value is None:
        return value
    if isinstance(value, int):
        return str(value)  # every exact value in evidence is a string ("3", "3/5", "inf")
    if is_infinite(value):  # +∞: INF or sympy.oo
        return "inf"
    return str(value)


class ExactData(Mapping):
    """The exact values describing an instance, as strings (kernels as lists of row strings).

    The strings are made when the data are first read: an instance test returns its data with every
    instance, but only a failing or undecided instance's data are ever shown (:func:`check_instances`), and
    printing large exact values costs more than many tests.  The values are immutable (fmpq, sympy
    expressions, kernels, distributions), so reading them later gives the strings they had when passed."""

    __slots__ = ("_raw", "_strings")

    def __init__(self, values: dict) -> None:
        self._raw: dict | None = values
        self._strings: dict | None = None

    def _load(self) -> dict:
        if self._strings is None:
            raw, self._raw = self._raw or {}, None
            self._strings = {k: _stringify(v.as_strings() if hasattr(v, "as_strings") else v)
                             for k, v in raw.items()}
        return self._strings

    def __getitem__(self, key: str):
        return self._load()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())

    def __repr__(self) -> str:
        return repr(self._load())


def exact_data(**values) -> ExactData:
    """The exact values of an instance as strings (kernels as lists of row strings), made when first read."""
    return ExactData({k: list(v) if isinstance(v, list) else v for k, v in values.items()})


def check_instances(families: Iterable[tuple[str, Iterable]], test: Callable, *, claim: str,
                    stop_at_first: bool = True) -> Outcome:
    """Run ``test(instance) -> (truth, data)`` over every instance of every family.

    Args:
        families: ``(family name, iterable of instances)`` pairs.
        test: returns a Truth/bool and a dict of exact strings describing the instance.
        claim: what is being checked, one line (used in the summary).
    Returns:
        REFUTED with the first failing instance, else UNDECIDED if any instance was undecided, else
        VERIFIED with the count per family.
    """
    counts: list[tuple[str, int]] = []
    undecided: list[dict] = []
    total = 0
    for fam, instances in families:
        n = 0
        for inst in instances:
            truth, data = test(inst)
            if isinstance(truth, bool):
                truth = Truth.of(truth)
            n += 1
            total += 1
            if truth is Truth.FALSE:
                counts.append((fam, n))
                return Outcome(Verdict.REFUTED, f"{claim}: fails on an instance of family '{fam}'",
                               instances=total, families=tuple(counts),
                               counterexample={"family": fam, **_stringify(data)})
            if truth is Truth.UNKNOWN:
                undecided.append({"family": fam, **_stringify(data)})
        counts.append((fam, n))
    if total == 0:
        return Outcome(Verdict.UNDECIDED, f"{claim}: no instance was checked", reason="empty instance families")
    if undecided:
        return Outcome(Verdict.UNDECIDED, f"{claim}: {len(undecided)} of {total} instances undecided",
                       instances=total, families=tuple(counts),
                       reason="a certified comparison could not separate the two sides",
                       details={"first_undecided": undecided[0]})
    return Outcome(Verdict.VERIFIED, f"{claim}: holds on all {total} instances", instances=total,
                   families=tuple(counts))


def _points(symbols, values) -> Iterable[dict]:
    for combo in itertools.product(values, repeat=len(symbols)):
        yield dict(zip(symbols, combo))


DEFAULT_POINTS = tuple(sympy.Rational(p, q) for p, q in ((0, 1), (1, 7), (1, 3), (1, 2), (1, 1), (3, 2), (2, 1),
                                                          (3, 1), (7, 2), (10, 1)))


def _search_nonzero(expr, symbols, domain: Callable | None, points):
    for pt in _points(symbols, points):
        if domain is not None and not domain(pt):
            continue
        try:
            v = sympy.simplify(expr.subs(pt))
        except (ZeroDivisionError, ValueError):
            continue
        if v.has(sympy.zoo, sympy.nan, sympy.oo):
            continue
        if v.is_Rational and v != 0:
            return pt, v
    return None


def prove_zero(expr, *, claim: str, derivation: tuple[str, ...] = (), symbols=None,
               domain: Callable | None = None, points=DEFAULT_POINTS) -> Outcome:
    """PROVED if the prover reduces ``expr`` to 0 (:func:`exactdp.algebra.prover.prove_identity`: exact
    cancellation, then sympy simplification); REFUTED at a rational point where expr ≠ 0; else UNDECIDED.

    ``domain(point) -> bool`` restricts the counterexample search to points satisfying the hypotheses.
    """
    expr = as_expr(expr)
    symbols = tuple(sorted(expr.free_symbols, key=str)) if symbols is None else tuple(symbols)
    cert = statements_certificate(claim, (Statement(claim, Eq(expr, 0)),))
    result = check(cert)
    if result.truth is Truth.TRUE:
        steps = tuple(derivation) + tuple(result.steps) + ("the difference is identically 0",)
        return proved(f"{claim}: identity holds for all parameters", (cert,), "all parameters", derivation=steps)
    found = _search_nonzero(sympy.simplify(expr), symbols, domain, points)
    if found:
        pt, v = found
        return Outcome(Verdict.REFUTED, f"{claim}: the two sides differ",
                       counterexample={**{str(k): str(val) for k, val in pt.items()}, "lhs_minus_rhs": str(v)})
    return Outcome(Verdict.UNDECIDED, f"{claim}: not reduced to 0 and no rational counterexample found",
                   reason="; ".join(result.failures) or "not reduced to 0")


def prove_nonnegative(expr, *, claim: str, orthant: dict, derivation: tuple[str, ...] = (),
                      domain: Callable | None = None, points=DEFAULT_POINTS) -> Outcome:
    """Prove ``expr ≥ 0`` on a region mapped onto the non-negative orthant.

    Args:
        expr: a rational function of the original variables.
        orthant: ``{original_symbol: expression in new symbols s ≥ 0}``, e.g. ``{t: 1 + s}`` for t ≥ 1,
            ``{c: 1/(N(1+u))}`` ...; every point of the hypotheses must be reached with new symbols ≥ 0.
        domain: predicate on points of the *original* variables for the counterexample search.
    """
    expr = as_expr(expr)
    sub = sympy.together(sympy.factor(expr.subs(orthant)))
    new_symbols = tuple(sorted(sub.free_symbols, key=str))
    geq = sympy.GreaterThan  # unevaluated: the symbols' assumptions may already settle a condition
    cert = statements_certificate(claim, (Statement(claim, geq(sub, 0, evaluate=False),
                                                    tuple(geq(s, 0, evaluate=False) for s in new_symbols)),),
                                  scope=f"all parameters (substituted {_substitution(orthant)}, new variables >= 0)")
    result = check(cert)
    if result.truth is Truth.TRUE:
        steps = tuple(derivation) + (inline_step("substitute {} (new variables nonnegative)", sympy.And(
            *[sympy.Eq(k, v, evaluate=False) for k, v in orthant.items()])),) + result.steps
        return proved(f"{claim}: proved >= 0 by sign analysis", (cert,), cert.scope, derivation=steps)
    symbols = tuple(sorted(expr.free_symbols, key=str))
    for pt in _points(symbols, points):
        if domain is not None and not domain(pt):
            continue
        try:
            v = sympy.simplify(expr.subs(pt))
        except (ZeroDivisionError, ValueError):
            continue
        if v.is_Rational and v < 0:
            return Outcome(Verdict.REFUTED, f"{claim}: negative at a point of the hypotheses",
                           counterexample={**{str(k): str(val) for k, val in pt.items()}, "value": str(v)})
    return Outcome(Verdict.UNDECIDED, f"{claim}: sign analysis inconclusive, no counterexample found",
                   reason="coefficients of mixed sign after the substitution")


def _substitution(orthant: dict) -> str:
    return ", ".join(f"{k} = {v}" for k, v in orthant.items())


def not_checkable(reason: str, summary: str = "statement not available in checkable form") -> Outcome:
    return Outcome(Verdict.NOT_CHECKABLE, summary, reason=reason)


def qstr(v) -> str:
    """String of an exact value (fmpq, sympy, oo)."""
    if is_infinite(v):  # +∞: INF or sympy.oo
        return "inf"
    return str(v)


__all__ = ["ExactData", "check_instances", "exact_data", "fmpq", "not_checkable", "prove_nonnegative", "prove_zero", "qstr"]
