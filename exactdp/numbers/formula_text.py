r"""Formulas of statements and derivation steps: stored as the safe reader's text, read once into sympy, and
printed from the expression — on the terminal (:func:`formula_text`), in LaTeX (:func:`formula_latex_of`) and
as presentation MathML (:func:`formula_mathml`).  Nothing here converts LaTeX or any other markup into text.

A formula's text is the reader's grammar (:mod:`exactdp.numbers.reader`) with three top-level connectives,
each written between spaces and split before the reader reads the parts:

* ``a ⟺ b`` (also ``<=>``): the statements a and b are equivalent (:class:`Iff`, order kept);
* ``a ⟹ b`` (also ``=>``): a implies b (sympy's ``Implies``);
* ``a = b``: an equation (``Eq(a, b)``, unevaluated, sides kept as written).

Every name is a symbol, every called name other than the reader's functions an undefined function
(``phi(eps, 0)``, ``eta_tv(K)``).  What :func:`formula_text` prints, :func:`read_formula` reads back into the
same expression (tests/output/test_formula_text.py checks it for every statement and derivation step of the
verify report).

Derivation steps (:class:`DerivationStep`) are built where the mathematics is known as sympy: the prover,
the cylindrical decision and the certificate checkers call :func:`formula_step` (``prose: formulas on region
-> outcome``) or :func:`inline_step` (words and formulas interleaved, ``"numerator {} and denominator {}"``),
which store each formula as the reader's text (:func:`math_text`) and leave a line whose mathematics the
grammar cannot state (``Or``, ``≠``) as text rather than store a formula that does not read back.

    >>> e = read_formula("eps > log((1+√2)/2)")
    >>> formula_text(e)
    'eps > log((1 + √2)/2)'
    >>> read_formula(formula_text(e)) == e
    True
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    import sympy
else:
    from exactdp.numbers.deferred import sympy  # deferred: start-up

#: the connectives between statements, in the order they bind (loosest first), with their ASCII spellings
_IFF = (" ⟺ ", " <=> ")
_IMPLIES = (" ⟹ ", " => ")
_EQ = (" = ",)
_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_CALLED = re.compile(r"([A-Za-z_][A-Za-z_0-9]*)\s*\(")

_IFF_CLASS: Any = None


@dataclass(frozen=True)
class DerivationStep:
    """One step of a check's derivation with prose and mathematics apart: ``prose`` is words (a label, what
    was done), ``math`` the formulas it states and ``region`` the conditions they are decided on, each as the
    safe reader's text (:func:`read_formula`); ``outcome`` is the decision ("true", "false", "unknown" or
    "").  A step whose words and formulas interleave ("numerator {0} and denominator {1} have coefficients of
    one sign") is ``inline``: its prose holds the slot ``{k}`` where formula ``math[k]`` stands.  Leading
    spaces of the prose mark a sub-step (a decision's own steps under the statement it decides).
    Every output prints the formulas from their expressions (:meth:`render`); ``str(step)`` is the engine's
    one-line record (the JSON report's ``derivation`` strings): ``prose: math on (region) -> outcome``, an
    inline step with its formulas' text in the slots."""

    prose: str
    math: tuple[str, ...] = ()
    region: tuple[str, ...] = ()
    outcome: str = ""
    #: names that are parameters even where the reader has a constant of that name (a certificate's ``E``)
    parameters: tuple[str, ...] = ()
    #: the prose holds slots ``{0}``, ``{1}``, … for the formulas (words and formulas interleaved)
    inline: bool = False
    #: the name of the certificate whose check made the step (printed ``[name]`` before it, as code)
    label: str = ""

    def formulas(self) -> tuple[Any, ...]:
        """The step's formulas then its region's conditions, read once by the safe reader."""
        return tuple(read_formula(m, "derivation step", self.parameters) for m in self.math + self.region)

    def pieces(self) -> list[tuple[bool, Any]]:
        """The prose and formulas of the step (not its region and outcome) in order, as ``(is_formula,
        piece)``: a prose piece is text, a formula piece the expression read by the safe reader."""
        forms = self.formulas()[:len(self.math)]
        if not self.inline:
            out: list[tuple[bool, Any]] = [(False, self.prose)]
            for k, f in enumerate(forms):
                out += [(False, ": " if k == 0 else "; "), (True, f)]
            return out
        parts = _SLOT.split(self.prose)
        out = []
        for k, part in enumerate(parts):
            if k % 2:
                out.append((True, forms[int(part)]))
            elif part:
                out.append((False, part))
        return out

    def render(self, prose: Callable[[str], str], formula: Callable[[Any], str], *,
               region: Callable[[list[Any]], str] | None = None,
               outcome: Callable[[str], str] | None = None, label: Callable[[str], str] | None = None) -> str:
        """The step by one output's printers: ``prose`` for words, ``formula`` for an expression, ``region``
        for the list of the region's conditions (default: each by ``formula``, after " on "), ``outcome`` for
        the decision (default " → outcome"), ``label`` for the certificate's name (default "[name] ").  The
        text, LaTeX, HTML and Jupyter outputs all print through here."""
        from exactdp.numbers.reader import ReadError  # deferred: start-up

        line = "" if not self.label else label(self.label) if label is not None else prose(f"[{self.label}] ")
        try:
            pieces, conds = self.pieces(), list(self.formulas()[len(self.math):])
        except ReadError:  # a formula outside the reader's grammar (never stored on purpose): the line as text
            return line + prose(str(dataclasses.replace(self, label="")))
        line += "".join(formula(p) if is_formula else prose(p) for is_formula, p in pieces)
        if self.region:
            line += (region(conds) if region is not None
                     else prose(" on ") + prose(", ").join(formula(c) for c in conds))
        if self.outcome:
            line += outcome(self.outcome) if outcome is not None else prose(f" → {self.outcome}")
        return line

    def __str__(self) -> str:
        line = f"[{self.label}] " if self.label else ""
        if self.inline:
            line += _SLOT.sub(lambda m: self.math[int(m.group(1))], self.prose)
        else:
            line += self.prose + (": " + "; ".join(self.math) if self.math else "")
        if self.region:
            line += " on " + " & ".join(f"({r})" for r in self.region)
        return line + (f" -> {self.outcome}" if self.outcome else "")

    def text(self, prose: Callable[[str], str] = str) -> str:
        """The step for the terminal: its prose (through ``prose``), then its formulas and region printed from
        the expressions (:func:`formula_text`), then the decision."""
        return self.render(prose, formula_text)

    def record(self) -> dict[str, Any]:
        """The step as JSON: ``{"prose", "math", "region", "outcome", "parameters", "inline", "label"}``."""
        return {"prose": self.prose, "math": list(self.math), "region": list(self.region),
                "outcome": self.outcome, "parameters": list(self.parameters), "inline": self.inline,
                "label": self.label}


def marked(name: str, step: Any) -> DerivationStep:
    """A certificate's check step marked with the certificate's name (:attr:`DerivationStep.label`): a
    structured step keeps its fields, a text line becomes a step of prose only."""
    if isinstance(step, DerivationStep):
        return (dataclasses.replace(step, label=name) if not step.label
                else dataclasses.replace(step, prose=f"[{step.label}] {step.prose}", label=name))
    return DerivationStep(str(step), label=name)


def prefixed(prefix: str, step: Any) -> Any:
    """A derivation line with ``prefix`` before it (a certificate's ``[name] ``, a sub-step's indentation):
    a :class:`DerivationStep` keeps its fields apart (the prefix joins its prose), a text line stays text."""
    if isinstance(step, DerivationStep):
        return dataclasses.replace(step, prose=prefix + step.prose)
    return f"{prefix}{step}"


def inline_step(template: str, *items: Any, region: Any = None, outcome: str = "",
                parameters: tuple[str, ...] = ()) -> Any:
    """An inline :class:`DerivationStep` from ``template`` with ``{}`` where each item stands (a sympy
    expression or relation; an ``And`` of relations fills its place with its conditions joined by "and"; a
    point ``{x: v}`` with ``x = v, …``), ``region`` its conditions (a sympy ``And``, a relation or None) and
    ``outcome``.  An item the reader's grammar cannot state (``Or``, ``Not``, ``≠``) leaves the line as text
    (``template`` with sympy's text of the items), so no formula is ever stored unreadable.  A symbol named
    like one of the reader's constants (``E``) is declared a parameter of the step."""
    texts: list[str] = []
    fills: list[str] = []
    try:
        for item in items:
            if isinstance(item, dict):
                parts = [math_text(sympy.Eq(sympy.Symbol(str(k)), v, evaluate=False)) for k, v in item.items()]
                sep = ", "
            elif isinstance(item, sympy.And):
                parts, sep = [math_text(c) for c in sorted(item.args, key=sympy.default_sort_key)], " and "
            else:
                parts, sep = [math_text(item)], ""
            fills.append(sep.join(f"{{{len(texts) + k}}}" for k in range(len(parts))))
            texts += parts
        conds = conditions_text(region) if region is not None and region is not sympy.false else ()
    except ValueError:
        pieces = template.split("{}")
        line = "".join(p + f for p, f in zip(pieces, [str(i) for i in items] + [""]))
        return line + (f" on {region}" if region is not None else "") + (f" -> {outcome}" if outcome else "")
    pieces = template.split("{}")
    prose = "".join(p + f for p, f in zip(pieces, fills + [""])) + (" on an empty region" if region is sympy.false
                                                                     else "")
    return DerivationStep(prose, tuple(texts), conds, outcome, _parameters(parameters, *items, region),
                          inline=True)


def written_step(text: str, *, outcome: str = "", parameters: tuple[str, ...] = (),
                 what: str = "derivation step") -> DerivationStep:
    """A hand-written derivation line of a claim module as an inline :class:`DerivationStep`: its formulas are
    written between backticks in the safe reader's text (``"column sums `N/2`; the constraints hold iff
    `t*N*c >= 2`"``), the words around them are its prose.  Each formula is read once here, so a line whose
    formula the reader cannot read fails where it is written (a :class:`~exactdp.numbers.reader.ReadError`
    naming ``what`` and the formula), never in an output.  A line without backticks is prose only.  A claim's
    hypotheses and a verdict's scope are such lines too (prose and formulas apart, printed by the same
    printers: :attr:`exactdp.verification.claims.Claim.hypotheses_step`, :func:`scope_step`)."""
    from exactdp.numbers.reader import ReadError  # deferred: start-up

    parts = text.split("`")
    if len(parts) % 2 == 0:
        raise ReadError(f"{what}: unbalanced backticks in {text!r}")
    math = tuple(parts[1::2])
    for m in math:
        read_formula(m, f"{what} {text!r}", parameters)
    if not math:
        return DerivationStep(text, outcome=outcome, parameters=parameters)
    prose = "".join(p if k % 2 == 0 else f"{{{k // 2}}}" for k, p in enumerate(parts))
    return DerivationStep(prose, math, (), outcome, parameters, inline=True)


def formula_step(prose: str, *formulas: Any, region: Any = None, outcome: str = "") -> DerivationStep:
    """A :class:`DerivationStep` stating sympy expressions or relations after its prose (``prose: f; g on
    region -> outcome``), each stored as the reader's text (:func:`math_text`); a symbol named like one of the
    reader's constants (``E``) is declared a parameter."""
    try:
        texts = tuple(math_text(f) for f in formulas)
        conds = conditions_text(region) if region is not None and region is not sympy.false else ()
    except ValueError:  # not in the reader's grammar (Or, Not, ≠): the line stays text
        return DerivationStep(f"{prose}: " + "; ".join(str(f) for f in formulas)
                              + (f" on {region}" if region is not None else ""), outcome=outcome)
    if region is sympy.false:
        prose += " (on an empty region)"
    return DerivationStep(prose, texts, conds, outcome, _parameters((), *formulas, region))


def _parameters(given: tuple[str, ...], *items: Any) -> tuple[str, ...]:
    """``given`` and the names of the items' symbols that the reader would read as its constants (``E``)."""
    from exactdp.numbers.reader import math_constants  # deferred: start-up

    constants = set(math_constants())
    names: set[str] = set()
    for item in items:
        for e in (item.items() if isinstance(item, dict) else (item,)):
            for part in (e if isinstance(e, tuple) else (e,)):
                names |= {str(x) for x in getattr(part, "free_symbols", ()) if str(x) in constants}
                names |= {str(part)} if isinstance(part, sympy.Symbol) and str(part) in constants else set()
    return tuple(dict.fromkeys(given + tuple(sorted(names))))


#: a formula's slot in an inline step's prose
_SLOT = re.compile(r"\{(\d+)\}")


def math_text(expr: Any) -> str:
    """A sympy expression or relation as the safe reader's text (:func:`read_formula` reads it back into the
    same expression): sympy's own text for an expression, ``a = b`` for an equation, ``a <= b`` for an
    inequality.  Cheap (no pretty printing): it is how the prover stores the formulas of its steps."""
    if isinstance(expr, sympy.Eq):
        return f"{sympy.sstr(expr.lhs)} = {sympy.sstr(expr.rhs)}"
    if isinstance(expr, sympy.core.relational.Relational) and expr.rel_op in ("<", "<=", ">", ">="):
        return f"{sympy.sstr(expr.lhs)} {expr.rel_op} {sympy.sstr(expr.rhs)}"
    if isinstance(expr, (sympy.logic.boolalg.BooleanFunction, sympy.logic.boolalg.BooleanAtom,
                         sympy.core.relational.Relational)):
        raise ValueError(f"the reader has no text for {type(expr).__name__}: state it as relations")
    return str(sympy.sstr(expr))


def conditions_text(condition: Any) -> tuple[str, ...]:
    """The conditions of a region (``And`` of relations, or one relation, or ``true``) as reader texts, one
    per condition (:func:`math_text`), in sympy's printing order (the order of ``And``'s arguments depends on
    the hash seed; this one does not)."""
    if condition is sympy.true or condition is True:
        return ()
    return tuple(math_text(c) for c in sorted(sympy.And.make_args(condition), key=sympy.default_sort_key))


def _iff_class() -> Any:
    """The class of ``a ⟺ b`` (built at the first use, so sympy loads only when a formula is read)."""
    global _IFF_CLASS
    if _IFF_CLASS is None:
        from sympy.logic.boolalg import BooleanFunction

        class Iff(BooleanFunction):
            """``a ⟺ b`` with its two sides in the order written (sympy's ``Equivalent`` sorts them)."""

            nargs = 2

            @classmethod
            def eval(cls, *args: Any) -> None:
                return None

            def _latex(self, printer: Any) -> str:
                return rf"{printer._print(self.args[0])} \iff {printer._print(self.args[1])}"

            def _sympystr(self, printer: Any) -> str:
                return f"{printer._print(self.args[0])} ⟺ {printer._print(self.args[1])}"

            def _mathml_presentation(self, printer: Any) -> Any:
                row = printer.dom.createElement("mrow")
                row.appendChild(printer._print(self.args[0]))
                op = printer.dom.createElement("mo")
                op.appendChild(printer.dom.createTextNode("\u27fa"))
                row.appendChild(op)
                row.appendChild(printer._print(self.args[1]))
                return row

        _IFF_CLASS = Iff
    return _IFF_CLASS


def _split(text: str, seps: tuple[str, ...]) -> list[str] | None:
    """``text`` split at a connective outside parentheses, or None when it has none."""
    for sep in seps:
        depth, parts, start, k = 0, [], 0, 0
        while k < len(text):
            ch = text[k]
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0 and text.startswith(sep, k):
                parts.append(text[start:k])
                start = k = k + len(sep)
                continue
            k += 1
        if parts:
            return parts + [text[start:]]
    return None


def read_formula(text: str, name: str = "formula", parameters: tuple[str, ...] = ()) -> Any:
    """Read one formula (module docstring) into sympy by the safe reader; errors are the reader's
    :class:`~exactdp.numbers.reader.ReadError`, naming ``name``.  ``E`` and ``pi`` are the constants unless
    ``parameters`` names them (a certificate's parameter ``E`` = e^ε is a symbol)."""
    from exactdp.numbers.reader import (MATH_FUNCTIONS, ReadError, math_constants,  # deferred: start-up
                                        read_expression)

    if not isinstance(text, str):
        raise ReadError(f"{name}: expected text, got {type(text).__name__}")
    builds: tuple[tuple[tuple[str, ...], Callable[[Any, Any], Any]], ...]
    builds = ((_IFF, lambda a, b: _iff_class()(a, b)),
              (_IMPLIES, lambda a, b: sympy.Implies(a, b, evaluate=False)),
              (_EQ, lambda a, b: sympy.Eq(a, b, evaluate=False)))
    for seps, build in builds:
        parts = _split(text, seps)
        if parts is not None:
            if len(parts) != 2:
                raise ReadError(f"{name}: {seps[0].strip()!r} joins exactly two parts in {text!r}; "
                                f"parenthesise the others")
            return build(read_formula(parts[0], name, parameters), read_formula(parts[1], name, parameters))
    text = text.strip()
    if text.startswith("(") and text.endswith(")") and _split(text[1:-1], _IFF + _IMPLIES + _EQ) is not None:
        return read_formula(text[1:-1], name, parameters)  # a parenthesised connective: (a ⟹ b) ⟺ c
    called = set(_CALLED.findall(text)) - set(MATH_FUNCTIONS)
    constants = {k: v for k, v in math_constants().items() if k not in parameters}
    names = {n: sympy.Symbol(n) for n in _NAME.findall(text)
             if n not in MATH_FUNCTIONS and n not in called and n not in constants}
    functions = {**MATH_FUNCTIONS, **{n: (sympy.Function(n), None) for n in called}}
    sides, ops = _relation_parts(text)
    if ops:  # a relation or chain as written: unevaluated, so "0 >= 0" stays a relation (not True)
        exprs = [read_expression(side, name=name, symbols=names, functions=functions, constants=constants)
                 for side in sides]
        rels = [_RELATION_CLASSES[op](a, b, evaluate=False) for op, a, b in zip(ops, exprs, exprs[1:])]
        return rels[0] if len(rels) == 1 else sympy.And(*rels, evaluate=False)
    return read_expression(text, name=name, symbols=names, functions=functions, constants=constants,
                           relations=True)


_RELATION_OPS = ("<=", ">=", "<", ">")
_RELATION_CLASSES: dict[str, Any] = {}


def _relation_parts(text: str) -> tuple[list[str], list[str]]:
    """``text`` split at its relations outside parentheses: (sides, operators); no operator: ([text], [])."""
    if not _RELATION_CLASSES:
        _RELATION_CLASSES.update({"<=": sympy.LessThan, ">=": sympy.GreaterThan, "<": sympy.StrictLessThan,
                                  ">": sympy.StrictGreaterThan})
    text = text.replace("≤", "<=").replace("≥", ">=")
    sides: list[str] = []
    ops: list[str] = []
    depth, start, k = 0, 0, 0
    while k < len(text):
        ch = text[k]
        depth += ch == "("
        depth -= ch == ")"
        op = next((o for o in _RELATION_OPS if text.startswith(o, k)), None) if depth == 0 else None
        if op is not None:
            sides.append(text[start:k])
            ops.append(op)
            start = k = k + len(op)
            continue
        k += 1
    return sides + [text[start:]], ops


def _chain(expr: Any) -> list[Any] | None:
    """``And(a < b, b < c)`` (its arguments in any order: sympy sorts them) as the chain
    ``[a, "<", b, "<", c]``, how the reader reads ``a < b < c``; None when the relations do not chain."""
    from itertools import permutations

    rels = expr.args
    if len(rels) > 4 or not all(isinstance(r, sympy.core.relational.Relational)
                                and not isinstance(r, (sympy.Eq, sympy.Ne)) for r in rels):
        return None
    for order in permutations(rels):
        if all(order[k].rhs == order[k + 1].lhs for k in range(len(order) - 1)):
            parts: list[Any] = [order[0].lhs]
            for r in order:
                parts += [r.rel_op, r.rhs]
            return parts
    return None


def formula_text(expr: Any) -> str:
    """A formula as text for the terminal, by the one text printer (:func:`exactdp.numbers.display.to_text`)
    for every expression in it; an equation prints its two sides as stored (not cleared of denominators) and a
    chain ``a < b < c`` as one, so :func:`read_formula` reads the text back into ``expr``."""
    from exactdp.numbers.display import RELATION_TEXT, to_text  # deferred: start-up

    def part(e: Any) -> str:  # a connective's side: parenthesised when it is itself a connective
        s = formula_text(e)
        return f"({s})" if isinstance(e, (sympy.Implies, sympy.Eq, _iff_class())) else s

    if isinstance(expr, _iff_class()):
        return f"{part(expr.args[0])} ⟺ {part(expr.args[1])}"
    if isinstance(expr, sympy.Implies):
        return f"{part(expr.args[0])} ⟹ {part(expr.args[1])}"
    if isinstance(expr, sympy.Eq):
        return f"{to_text(expr.lhs)} = {to_text(expr.rhs)}"
    if isinstance(expr, sympy.core.relational.Relational):
        return f"{to_text(expr.lhs)} {RELATION_TEXT.get(expr.rel_op, expr.rel_op)} {to_text(expr.rhs)}"
    if isinstance(expr, sympy.And):
        chain = _chain(expr)
        if chain is not None:
            return " ".join(RELATION_TEXT.get(p, p) if isinstance(p, str) else to_text(p) for p in chain)
    return to_text(expr)


def formula_latex_of(expr: Any) -> str:
    r"""A formula as LaTeX (without ``$``) by the one LaTeX printer (:func:`exactdp.numbers.display.to_latex`,
    the papers' symbols: ε, δ, φ, η_TV, …); symbols are printed as stored (``t`` is not rewritten)."""
    from exactdp.numbers.display import to_latex  # deferred: start-up

    rel = {"<": "<", "<=": r"\leq", ">": ">", ">=": r"\geq"}
    if isinstance(expr, sympy.And) and (chain := _chain(expr)) is not None:
        return " ".join(rel[p] if isinstance(p, str) else to_latex(p, t_as_exp=False) for p in chain)
    if isinstance(expr, (sympy.Implies, _iff_class())):  # each side by this function (a chain stays one)
        op = r"\iff" if isinstance(expr, _iff_class()) else r"\implies"
        return f"{formula_latex_of(expr.args[0])} {op} {formula_latex_of(expr.args[1])}"
    return to_latex(expr, t_as_exp=False)


def formula_mathml(expr: Any) -> str:
    """A formula as an inline presentation-MathML ``<math>`` element (sympy's presentation printer), the
    papers' Greek letters for ``eps``, ``delta``, ``phi``, ``gamma``."""
    from sympy.core.function import AppliedUndef

    from sympy.printing.mathml import MathMLPresentationPrinter

    class Printer(MathMLPresentationPrinter):
        def mathml_tag(self, e: Any) -> str:  # an undefined function's name as written (sympy lowercases it)
            return e.func.__name__ if isinstance(e, AppliedUndef) else str(super().mathml_tag(e))

    if isinstance(expr, sympy.Basic):
        expr = expr.xreplace({s: sympy.Symbol(_MATHML_NAMES[s.name]) for s in expr.free_symbols
                              if s.name in _MATHML_NAMES})
        expr = expr.xreplace({f: sympy.Function(_MATHML_NAMES[f.func.__name__])(*f.args)
                              for f in expr.atoms(AppliedUndef) if f.func.__name__ in _MATHML_NAMES})
    return ('<math xmlns="http://www.w3.org/1998/Math/MathML">'
            + str(Printer().doprint(expr)).replace("<mo><</mo>", "<mo>&lt;</mo>")
            .replace("<mo>></mo>", "<mo>&gt;</mo>")
            + "</math>")


#: the papers' letters for the names of stored formulas, in MathML (sympy prints other names as written)
_MATHML_NAMES = {"eps": "ε", "delta": "δ", "gamma": "γ", "phi": "φ", "Xi": "Ξ", "Gamma": "Γ", "zeta": "ζ",
                 "psi": "ψ", "theta": "θ", "eta_tv": "η_TV", "eta_f": "η_f", "eta_gamma": "η_γ",
                 "eps_star": "ε*",
                 "alpha": "α", "beta": "β", "ell": "ℓ", "rho": "ρ",
                 "Gamma_max": "Γ_max", "Gamma_min": "Γ_min", "E_gamma": "E_γ"}


#: a name a scope quantifies over, a formula by itself (``all N, M``, ``real q``): one letter with subscripts and
#: primes (``N_i``, ``M'``) or a Greek name; other words of a scope are prose
_SCOPE_NAME = re.compile(r"(?:[A-Za-z]\d*|eps|delta|gamma|Gamma|alpha|beta|eta|theta|zeta|psi|phi|rho)"
                         r"(?:_[A-Za-z0-9]+)*'*")
#: a variable of a relation in a scope: a name of :data:`_SCOPE_NAME` or of one or two letters and digits (a
#: certificate's ``pp``, ``Ix``, ``e1``); a longer word (``loss``, ``variables``) is prose
_SCOPE_SYMBOL = re.compile(rf"{_SCOPE_NAME.pattern}|[A-Za-z]{{1,2}}\d*")
#: the words before a formula in a scope item (``all``, ``every``, ``real``, ``the point``, ``Example 2's``):
#: words of two or more letters, a number's possessive, a label ``≤:``; never a one-letter name
_SCOPE_WORD = re.compile(r"[a-z]{2,}|[A-Z][a-z]{2,}|[A-Za-z0-9]+'s|[^\sA-Za-z0-9(]+:")


def _top_split(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside brackets (round and square)."""
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(text):
        depth += ch in "(["
        depth -= ch in ")]"
        if depth == 0 and text.startswith(sep, k):
            parts.append(text[start:k])
            start = k + len(sep)
    return parts + [text[start:]]


def _scope_formula(text: str) -> bool:
    """Whether a piece of a scope is one formula: a relation (chain, equation) the reader reads in the names a
    scope quantifies over, or one such name (:data:`_SCOPE_NAME`)."""
    from exactdp.numbers.reader import ReadError  # deferred: start-up

    if _SCOPE_NAME.fullmatch(text):
        return True
    try:
        expr = read_formula(text, "scope")
    except ReadError:
        return False
    return (isinstance(expr, (sympy.core.relational.Relational, sympy.And, sympy.Implies, _iff_class()))
            and all(_SCOPE_SYMBOL.fullmatch(str(x)) for x in expr.free_symbols))  # "new variables >= 0": words


@functools.lru_cache(maxsize=4096)
def scope_step(text: str) -> DerivationStep:
    """A verdict's scope text (``"all N, M; t >= 1, 0 < c <= 1/N (u = N*c)"``, the certificates' scopes of
    :mod:`exactdp.scopes` and the proof modules' own) as an inline :class:`DerivationStep`: prose and formulas
    apart, each formula read once by the safe reader and printed by the one printer of each output.

    The scope's grammar: parts joined by ``"; "``, items of a part by ``", "`` (outside brackets); an item is a
    formula (a relation the reader reads, or a name quantified over: ``N``, ``M'``, ``eps``), lower-case words
    then a formula (``all n >= 1``, ``real q``, ``the point t = 2``), an item with a parenthesised list after it
    (``0 < c <= 1/N (u = N*c)``), or words (``every pair of inputs``), which stay prose.

    >>> str(scope_step("all N, M; t >= 1 (u = N*c)").math)
    "('N', 'M', 't >= 1', 'u = N*c')"
    """
    math: list[str] = []

    def formula(piece: str) -> str:
        math.append(piece)
        return f"{{{len(math) - 1}}}"

    def item(piece: str) -> str:
        lead = piece[:len(piece) - len(piece.lstrip())]
        body = piece.strip()
        if not body:
            return piece
        if _scope_formula(body):
            return lead + formula(body)
        if body.endswith(")"):  # "<item> (<items>)": the last top-level parenthesised group
            depth = 0
            for k in range(len(body) - 1, -1, -1):
                depth += body[k] == ")"
                depth -= body[k] == "("
                if depth == 0:
                    break
            if k > 0 and body[k - 1] == " ":
                return lead + item(body[:k - 1]) + " (" + items(body[k + 1:-1]) + ")"
        words = body.split(" ")
        for i in range(1, len(words)):
            if not all(_SCOPE_WORD.fullmatch(w) for w in words[:i]):
                break
            rest = " ".join(words[i:])
            if _scope_formula(rest):
                return lead + " ".join(words[:i]) + " " + formula(rest)
        return piece

    def items(part: str) -> str:
        return ", ".join(item(p) for p in _top_split(part, ", "))

    prose = "; ".join(items(part) for part in _top_split(str(text), "; "))
    if not math:
        return DerivationStep(str(text))
    return DerivationStep(prose, tuple(math), inline=True)
