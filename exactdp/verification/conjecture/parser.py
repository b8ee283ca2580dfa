r"""Reading a conjectured inequality ``"<lhs> <= <rhs>"`` safely into sympy.

The text is tokenized first by the reader's tokenizer and every name must be a known quantity, parameter or function (anything
else is an :class:`~exactdp.errors.InputError` naming it, so the CLI exits with status 2); only then is it
built by the project's one safe reader (:mod:`exactdp.numbers.reader`) from a table of exactly those names;
nothing is evaluated as Python.
Decimal literals are read exactly (``0.1`` is 1/10), ``^`` is a power, and the Unicode forms ``≤ ≥ ε δ γ ∘``
are accepted (``K∘P`` is the image distribution ``K(P)``).

Names (the quantities are those of the registry, :mod:`exactdp.measures.registry`, with their meanings;
see :data:`PARAMETERS` for the parameters)::

    quantities of K:  eta_tv  ldp_eps  max_leakage  eta_hs(gamma)  delta(eps)  pml_eps(c)  eta_tv_tensor(n)
                      eta_chi2  eta_kl  (two-input kernels)
    divergences:      tv(A,B)  kl(A,B)  hellinger2(A,B)  chi2(A,B)  hs(A,B,gamma),  A, B in {P, Q, K(P), K(Q), row(i)}
    kernel terms:     a quantity of K applied to a product or power first, eta_tv(tensor(K, K2)), ldp_eps(K^3),
                      eta_hs(K^n, 2), pml_eps(tensor(K, K2), c, c)  (:mod:`.kernel_terms`; K2 a second kernel of
                      the class)
    parameters:       eps  t (= exp(eps))  gamma (= t, the order of E_gamma)  delta  c  N  M  n
    functions:        the reader's set: exp log sqrt sin cos tan sinh cosh tanh atan Min Max Abs
                      (min, max, abs too); constants pi E oo
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy

from exactdp.errors import InputError
from exactdp.limits import quote
from exactdp.measures import registry
from exactdp.verification.conjecture import kernel_terms

#: the quantities (their names, arities and meanings) are those of the registry,
#: :func:`exactdp.measures.registry.quantities`: a quantity registered there is a name of the language
#: distribution-valued names usable as arguments of the divergences
DISTRIBUTIONS = {"P", "Q", "K", "row"}
#: parameters: name -> meaning
PARAMETERS = {
    "eps": "privacy level epsilon = log t (t rational, so exp(eps) is exact)",
    "t": "t = exp(eps)",
    "gamma": "the order gamma of E_gamma at the class's level: gamma = t = exp(eps), as in eta_hs(gamma)",
    "delta": "approximate-LDP slack (class approx-ldp; 0 for class ldp)",
    "c": "prior mass bound of (eps,c)-PML (class pml)",
    "N": "number of inputs of K",
    "M": "number of outputs of K",
    "n": "number of independent uses (with eta_tv_tensor(n)); sampled in 1..3",
}
_FUNCTIONS = {"pi": sympy.pi, "E": sympy.E, "oo": sympy.oo}  # constants; the functions are the reader's
_RELATIONS = {"<=": "<=", "<": "<", ">=": ">=", ">": ">"}
_UNICODE = {"≤": "<=", "≥": ">=", "ε": "eps", "δ": "delta", "γ": "gamma", "−": "-", "·": "*", "×": "*"}


def conjecture_symbols() -> dict:
    return {
        "eps": sympy.Symbol("eps", nonnegative=True),
        "t": sympy.Symbol("t", positive=True),
        "gamma": sympy.Symbol("gamma", positive=True),
        "delta": sympy.Symbol("delta", nonnegative=True),
        "c": sympy.Symbol("c", positive=True),
        "N": sympy.Symbol("N", positive=True, integer=True),
        "M": sympy.Symbol("M", positive=True, integer=True),
        "n": sympy.Symbol("n", positive=True, integer=True),
        "P": sympy.Symbol("P"),
        "Q": sympy.Symbol("Q"),
    }


def _names() -> dict:
    d = dict(_FUNCTIONS)
    d.update(conjecture_symbols())
    for q in registry.quantities():
        d[q.name] = sympy.Symbol(q.name) if q.arity == 0 else sympy.Function(q.name)
    d["K"] = sympy.Function("K")
    d["row"] = sympy.Function("row")
    return d


class ConjectureSyntaxError(InputError):
    """The inequality text is malformed or names something unknown."""


@dataclass(frozen=True)
class Conjecture:
    """A parsed inequality ``lhs REL rhs`` with the names it uses."""

    text: str
    lhs: sympy.Expr
    rhs: sympy.Expr
    relation: str
    quantities: frozenset
    parameters: frozenset
    uses_inputs: bool  # P or Q appear

    @property
    def strict(self) -> bool:
        return self.relation in ("<", ">")

    def slack_expr(self) -> sympy.Expr:
        """rhs - lhs for <, <=; lhs - rhs for >, >=: the conjecture holds iff the slack is >= 0 (> 0 if strict)."""
        return self.rhs - self.lhs if self.relation in ("<", "<=") else self.lhs - self.rhs

    def sides(self) -> tuple[sympy.Expr, sympy.Expr]:
        """(small, large): the conjecture says small <= large (or <)."""
        return (self.lhs, self.rhs) if self.relation in ("<", "<=") else (self.rhs, self.lhs)

    def __str__(self) -> str:
        return f"{self.lhs} {self.relation} {self.rhs}"


def _preprocess(text: str) -> str:
    text = " ".join(text.split())  # one line, so token columns index the text
    for u, a in _UNICODE.items():
        text = text.replace(u, a)
    # K∘P -> K(P);  delta(...) is the privacy profile, bare delta the parameter
    text = re.sub(r"\bK\s*∘\s*([PQ])\b", r"K(\1)", text)
    text = re.sub(r"\bdelta\s*\(", "delta_K(", text)
    return text


def _split(text: str, extra: frozenset = frozenset()) -> tuple[str, str, str]:
    """Check every name and split at the single relation operator, with the one safe reader's tokenizer and
    its position-marked errors (:func:`exactdp.numbers.reader.split_relation`); ``extra``: the names
    :func:`.kernel_terms.rewrite` put in."""
    from exactdp.numbers.reader import MATH_FUNCTIONS, ReadError, did_you_mean, split_relation, tokens

    known = _known() | extra
    try:
        for t in tokens(text, "INEQUALITY"):
            if t.kind == "name" and t.text not in known:
                raise ConjectureSyntaxError(
                    f"INEQUALITY: unknown name {t.text!r} at position {t.pos}"
                    f"{did_you_mean(t.text, [*_public_quantities(), *PARAMETERS, *MATH_FUNCTIONS])}; "
                    f"known quantities: {', '.join(_public_quantities())}; parameters: {', '.join(PARAMETERS)}; "
                    f"functions: {', '.join(MATH_FUNCTIONS)}")
        lhs, rel, rhs = split_relation(text, "INEQUALITY")
    except ReadError as exc:
        raise ConjectureSyntaxError(str(exc)) from None
    if not lhs.strip() or not rhs.strip():
        raise ConjectureSyntaxError(f"INEQUALITY: both sides of {rel!r} must be non-empty in {text!r}")
    return lhs, rel, rhs


def _known() -> set:
    return set(_names()) | {"delta_K"} | set(_reader_tables(_names())[1])


def _public_quantities():
    return ["delta" if q.name == "delta_K" else q.name for q in registry.quantities()]


def _reader_tables(names: dict) -> tuple[dict, dict, dict]:
    """(symbols, functions, constants) for the safe reader, from the namespace of :func:`_names`: the reader's
    one function set (:data:`exactdp.numbers.reader.MATH_FUNCTIONS`, lower-case min/max/abs as aliases), the
    quantities of K, and each quantity of a kernel applied to a kernel term (``eta_tv__onk``, any number of
    arguments: :func:`_check_usage` checks them)."""
    from exactdp.numbers.reader import MATH_FUNCTIONS

    functions = {**MATH_FUNCTIONS, "abs": MATH_FUNCTIONS["Abs"], "min": MATH_FUNCTIONS["Min"],
                 "max": MATH_FUNCTIONS["Max"]}
    for q in registry.quantities():
        if q.arity:
            functions[q.name] = (names[q.name], q.arity)
    for name in kernel_terms.kernel_quantities():
        functions[name + kernel_terms.SUFFIX] = (sympy.Function(name), None)
    functions["K"] = (names["K"], 1)
    functions["row"] = (names["row"], 1)
    constants = {"pi": sympy.pi, "E": sympy.E, "oo": sympy.oo}
    symbols = {k: v for k, v in names.items() if isinstance(v, sympy.Symbol)}
    return symbols, functions, constants


def _parse_side(side: str, names: dict) -> sympy.Expr:
    """One side of the inequality, read by the one safe reader (:mod:`exactdp.numbers.reader`)."""
    from exactdp.numbers.reader import ReadError, read_expression

    symbols, functions, constants = _reader_tables(names)
    try:
        expr = read_expression(side.strip(), name="INEQUALITY", symbols=symbols, functions=functions,
                               constants=constants)
    except ReadError as exc:
        raise ConjectureSyntaxError(str(exc).replace("INEQUALITY: ", "INEQUALITY: cannot read: ", 1)
                                    if "limit" not in str(exc) else str(exc)) from None
    except (TypeError, ValueError, ArithmeticError) as exc:
        raise ConjectureSyntaxError(f"INEQUALITY: cannot parse {quote(side.strip())}: {str(exc)[:120]}") from None
    if isinstance(expr, sympy.Expr) and expr.has(sympy.zoo, sympy.nan):
        raise ConjectureSyntaxError(f"INEQUALITY: {quote(side.strip())} is undefined (a division by zero?)")
    if not isinstance(expr, sympy.Expr):
        raise ConjectureSyntaxError(f"INEQUALITY: {quote(side.strip())} is not an expression "
                                    f"(a quantity with arguments must be called, e.g. eta_hs(2), pml_eps(c))")
    return expr


def _check_usage(expr: sympy.Expr, side: str) -> tuple[set, set, bool]:
    """Arity and argument checks; returns (quantities, parameters, uses P/Q)."""
    quants, params, inputs = set(), set(), False
    dist_funcs = set(registry.divergences())

    def check_dist(arg):
        nonlocal inputs
        if isinstance(arg, sympy.Symbol) and arg.name in ("P", "Q"):
            inputs = True
            return
        if (isinstance(arg, sympy.core.function.AppliedUndef) and arg.func.__name__ == "K" and len(arg.args) == 1
                and isinstance(arg.args[0], sympy.Symbol) and arg.args[0].name in ("P", "Q")):
            inputs = True
            return
        if isinstance(arg, sympy.core.function.AppliedUndef) and arg.func.__name__ == "row":
            if len(arg.args) == 1 and isinstance(arg.args[0], sympy.Integer) and arg.args[0] >= 0:
                return
            raise ConjectureSyntaxError(f"INEQUALITY: row(i) needs a non-negative integer i, got {arg}")
        raise ConjectureSyntaxError(
            f"INEQUALITY: divergence arguments must be P, Q, K(P), K(Q) or row(i), got {arg}")

    def walk(node, in_dist=False):
        if isinstance(node, sympy.Symbol):
            if node.name in ("P", "Q"):
                raise ConjectureSyntaxError(
                    f"INEQUALITY: {node.name} is a distribution; use it inside tv/kl/hellinger2/chi2/hs")
            if registry.quantity(node.name) is not None:
                quants.add(node.name)
            else:
                params.add(node.name)
            return
        if isinstance(node, sympy.core.function.AppliedUndef) and node.args and kernel_terms.is_term(node.args[0]):
            name, term = node.func.__name__, node.args[0]
            q = registry.quantity(name)
            pub = "delta" if name == "delta_K" else name
            floors = len(term.args)
            ok = q is not None and (len(node.args) - 1 == q.arity or (
                name == "pml_eps" and len(node.args) - 1 == floors > 1 and not any(
                    e.free_symbols for _, e in kernel_terms.leaves(term))))
            if not ok:
                more = " (or one floor per factor of a product without a power n)" if name == "pml_eps" else ""
                raise ConjectureSyntaxError(f"INEQUALITY: {pub} of a kernel term takes the term and "
                                            f"{q.arity if q else 0} argument(s){more}, got {len(node.args) - 1}")
            quants.add(name)
            quants.add("tensor")
            if any(e.free_symbols for _, e in kernel_terms.leaves(term)):
                params.add("n")
            for a in node.args[1:]:
                walk(a)
            return
        if isinstance(node, sympy.core.function.AppliedUndef):
            name = node.func.__name__
            if name in ("K", "row"):
                raise ConjectureSyntaxError(f"INEQUALITY: {node} is a distribution; use it inside tv/kl/...")
            q = registry.quantity(name)
            arity = q.arity if q is not None else len(node.args)
            if len(node.args) != arity:
                pub = "delta" if name == "delta_K" else name
                raise ConjectureSyntaxError(f"INEQUALITY: {pub} takes {arity} argument(s), got {len(node.args)}")
            quants.add(name)
            if name in dist_funcs:
                for a in node.args[:2]:
                    check_dist(a)
                for a in node.args[2:]:
                    walk(a)
            else:
                for a in node.args:
                    walk(a)
            return
        if isinstance(node, (sympy.FunctionClass, type)):
            raise ConjectureSyntaxError(f"INEQUALITY: {node} must be called with arguments in {side!r}")
        for a in node.args:
            walk(a)

    walk(expr)
    return quants, params, inputs


def _terms_in(expr: sympy.Expr, terms: dict) -> sympy.Expr:
    """The placeholders of :func:`.kernel_terms.rewrite` replaced by their kernel terms; a quantity of the term
    K alone is the quantity of K (``eta_tv(K)`` is ``eta_tv``)."""
    if not terms:
        return expr
    expr = expr.xreplace({sympy.Symbol(k): v for k, v in terms.items()})

    def plain(node):
        if isinstance(node, sympy.core.function.AppliedUndef) and node.args and kernel_terms.plain(node.args[0]):
            q = registry.quantity(node.func.__name__)
            if q is not None and len(node.args) - 1 == q.arity:
                return sympy.Symbol(q.name) if q.arity == 0 else sympy.Function(q.name)(*node.args[1:])
        return node

    return expr.replace(lambda e: isinstance(e, sympy.core.function.AppliedUndef), plain)


def parse_conjecture(text: str) -> Conjecture:
    """Parse ``"lhs REL rhs"``; raise :class:`ConjectureSyntaxError` (an InputError) on bad input.

    >>> str(parse_conjecture("eta_tv <= (exp(eps)-1)/(exp(eps)+1)").relation)
    '<='
    """
    if not isinstance(text, str) or not text.strip():
        raise ConjectureSyntaxError("INEQUALITY: must be a non-empty string such as 'eta_tv <= eps'")
    if len(text) > 2000:
        raise ConjectureSyntaxError(f"INEQUALITY: too long ({len(text)} characters, at most 2000)")
    src = _preprocess(text)
    from exactdp.numbers.reader import ReadError

    try:
        src, terms = kernel_terms.rewrite(src)
    except (kernel_terms.TermError, ReadError) as exc:
        raise ConjectureSyntaxError(str(exc)) from None
    extra = frozenset(terms) | {q + kernel_terms.SUFFIX for q in kernel_terms.kernel_quantities()}
    lhs_s, rel, rhs_s = _split(src, extra)
    names = _names()
    names["delta_K"] = sympy.Function("delta_K")
    names.update({k: sympy.Symbol(k) for k in terms})
    lhs, rhs = (_terms_in(_parse_side(side, names), terms) for side in (lhs_s, rhs_s))
    q1, p1, i1 = _check_usage(lhs, lhs_s)
    q2, p2, i2 = _check_usage(rhs, rhs_s)
    return Conjecture(text=text.strip(), lhs=lhs, rhs=rhs, relation=_RELATIONS[rel],
                      quantities=frozenset(q1 | q2), parameters=frozenset(p1 | p2), uses_inputs=i1 or i2)
