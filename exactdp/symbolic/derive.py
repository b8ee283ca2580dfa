r"""Parametric kernels from text: the kernel files and catalogue mechanisms ``exactdp derive`` reads.

(The derivations themselves — the steps recorded around the one measure of each quantity — are
:func:`exactdp.measures.derivations.derive`.)  :func:`parametric_kernel_from_json` reads a kernel file with
symbolic entries::

    {"parameters": {"t": "positive", "c": "positive"},
     "region": ["t >= 1", "c <= 1/2", "t*c <= 1"],
     "rows": [["t*(1-c)/(t*(1-2*c)+1)", "(1-t*c)/(t*(1-2*c)+1)"], ...]}
"""
from __future__ import annotations

import inspect
import json
import re

import sympy

from exactdp.errors import InvalidKernelError, ParameterError
from exactdp.limits import quote
from exactdp.numbers.reader import MATH_FUNCTIONS, ReadError
from exactdp.numbers.sr import to_sr
from exactdp.symbolic.closedforms import Derivation, Step
from exactdp.symbolic.region import declare_region

#: symbols used for the catalogue constructors' parameters when no value is given
PARAMETER_SYMBOLS = {
    "t": sympy.Symbol("t", positive=True),
    "c": sympy.Symbol("c", positive=True),
    "delta": sympy.Symbol("delta", nonnegative=True),
    "p": sympy.Symbol("p", positive=True),
    "q": sympy.Symbol("q", positive=True),
}
#: the privacy parameters of a constructor (t = e^eps, c, delta): symbols when not given, although optional
PRIVACY_PARAMETERS = ("t", "c", "delta")


def parse_expression(text: str, symbols: dict, name: str) -> sympy.Expr:
    """An exact sympy expression from text, read by the one safe reader (:mod:`exactdp.numbers.reader`):
    decimals are exact, unknown names are errors, nothing is evaluated as Python."""
    from exactdp.numbers.reader import read_expression

    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise InvalidKernelError(f"{name}: entries must be strings or integers, got {quote(repr(text), 40)}")
    if isinstance(text, int):
        return to_sr(text, name)
    try:
        expr = read_expression(text, name=name, symbols=symbols)
    except ReadError as exc:
        if exc.unknown_name and not (exc.unknown_name in MATH_FUNCTIONS):
            raise InvalidKernelError(f"{name}: unknown parameter {quote(exc.unknown_name, 40)} in {quote(text)}; "
                                     f"declare it under \"parameters\"") from None
        raise
    return to_sr(expr, name)


def parametric_kernel_from_json(text: str, name: str | None = None):
    """A parametric Kernel (with its declared region) from the JSON format in the module docstring."""
    from exactdp.io import file_name
    from exactdp.kernels import Kernel

    try:
        data = json.loads(text, parse_float=lambda s: (_ for _ in ()).throw(
            InvalidKernelError(f"kernel file: the JSON number {s} is a float; write entries as strings")))
    except json.JSONDecodeError as exc:
        raise InvalidKernelError(f"kernel file: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    if isinstance(data, list):  # a plain list of rows: a kernel without parameters
        data = {"rows": data}
    if not isinstance(data, dict) or "rows" not in data:
        raise InvalidKernelError("kernel file: expected an object with \"rows\" (and \"parameters\", \"region\")")
    if not isinstance(data["rows"], list) or not all(isinstance(r, list) for r in data["rows"]):
        raise InvalidKernelError("kernel file: \"rows\" must be a list of lists of entries")
    params = data.get("parameters") or {}
    if not isinstance(params, dict):
        raise InvalidKernelError("kernel file: \"parameters\" must be an object {name: assumption}")
    if not isinstance(data.get("region", []), list):
        raise InvalidKernelError("kernel file: \"region\" must be a list of inequalities")
    symbols = {}
    for pname, assumption in params.items():
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,30}", pname) or pname in ("E", "pi") or pname in MATH_FUNCTIONS:
            raise InvalidKernelError(f"parameters: {quote(pname, 40)} is not a usable parameter name (letters, digits "
                                     f"and _, starting with a letter; not a function or constant name)")
        allowed = {"positive", "nonnegative", "real"}
        if assumption is None:
            assumption = []
        kinds = [assumption] if isinstance(assumption, str) else assumption
        if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
            raise InvalidKernelError(f"parameters.{pname}: the assumption must be a string or a list of strings from "
                                     f"{sorted(allowed)}, got {quote(repr(assumption), 40)}")
        bad = [k for k in kinds if k not in allowed]
        if bad:
            raise InvalidKernelError(f"parameters.{pname}: unknown assumption {bad[0]!r}; use one of {sorted(allowed)}")
        symbols[pname] = sympy.Symbol(pname, **{k: True for k in kinds})
    rows = [[parse_expression(e, symbols, f"K[{x}][{y}]") for y, e in enumerate(r)]
            for x, r in enumerate(data["rows"])]
    region = [rel for rel in (_parse_relation(r, symbols) for r in data.get("region", [])) if rel is not sympy.true]
    K = Kernel(rows, name=name or file_name(data))
    return declare_region(K, *region)


def _parse_relation(text, symbols: dict):
    from exactdp.numbers.reader import read_expression

    if not isinstance(text, str):
        raise InvalidKernelError(f"region: expected an inequality like 't >= 1', got {quote(repr(text), 40)}")
    rel = read_expression(text, name="region", symbols=symbols, relations=True)
    if rel is sympy.true:  # implied by the parameters' assumptions
        return rel
    if not isinstance(rel, (sympy.core.relational.Relational, sympy.And)):
        raise InvalidKernelError(f"region: expected an inequality like 't >= 1', got {quote(text)}")
    return rel


def catalogue_kernel(name: str, values: dict):
    """A catalogue mechanism with symbols for every parameter not given (integers must be given)."""
    from exactdp.mechanisms import CATALOGUE

    if name not in CATALOGUE:
        raise ParameterError(f"MECHANISM: unknown mechanism {name!r}; choose one of {', '.join(sorted(CATALOGUE))}")
    fn = CATALOGUE[name]
    kwargs = {}
    for pname, param in inspect.signature(fn).parameters.items():
        if pname in values:
            v = values[pname]
            kwargs[pname] = int(v) if pname in ("k", "N", "q", "n") else v
        elif pname in PRIVACY_PARAMETERS and not (pname == "t" and "eps" in values):
            kwargs[pname] = PARAMETER_SYMBOLS[pname]  # t, c, delta: symbols unless given
        elif param.default is not inspect.Parameter.empty:
            continue
        elif pname in PARAMETER_SYMBOLS:
            kwargs[pname] = PARAMETER_SYMBOLS[pname]
        else:
            raise ParameterError(f"{pname}: {name} needs an integer value for {pname} (e.g. {pname}=3)")
    return fn(**kwargs)


__all__ = ["Derivation", "Step", "catalogue_kernel", "parametric_kernel_from_json", "parse_expression"]
