r"""The one formula printer: exact values in the papers' notation as LaTeX (:func:`to_latex`) and as text for
the terminal (:func:`to_text`).

Every formula exactdp shows — on the terminal, in the LaTeX, Markdown and HTML documents and in Jupyter — is
printed from a sympy expression by these two printers:

* t = e^ε is printed as ``e^{\varepsilon}`` (proofs run in t, the papers write ε),
  powers as ``e^{2 \varepsilon}``; δ, γ, c, N as themselves; fractions with ``\frac``;
* ``Min``/``Max`` as ``\min``/``\max``; a sum leads with a positive term (``1 - N c``, not ``- N c + 1``);
* ``Piecewise`` as ``\left\{ a \;\text{if}\; \dots,\quad b \;\text{otherwise} \right.`` (parses with
  matplotlib's mathtext), or as a ``cases`` environment with ``cases=True`` (documents, Jupyter).

Only sympy and the number layer are used here; how the objects of the upper layers present themselves
(Jupyter's ``_repr_*_``, the reports) is :mod:`exactdp.output.presenters`.
"""

from __future__ import annotations

from typing import Any

import sympy
from flint import fmpq
from sympy.printing.latex import LatexPrinter
from sympy.printing.str import StrPrinter

from exactdp.numbers.reader import as_expr
from exactdp.numbers.sr import as_sympy

#: the papers' symbols for the names used in exactdp's sympy expressions
SYMBOL_LATEX = {
    "eps": r"\varepsilon", "epsilon": r"\varepsilon", "delta": r"\delta", "gamma": r"\gamma",
    "eta": r"\eta", "phi": r"\varphi", "Xi": r"\Xi", "Gamma": r"\Gamma", "Phi": r"\Phi", "TV": r"\mathrm{TV}",
    "zeta": r"\zeta", "psi": r"\psi", "I_gamma": r"I_{\gamma}", "tv_in": r"\delta",
}

#: the papers' notation for the other names of the claims' stored formulas (functions and symbols,
#: :mod:`exactdp.numbers.formula_text`), used by the LaTeX printer only (prose keeps :data:`SYMBOL_LATEX`)
FORMULA_LATEX = {
    "eta_tv": r"\eta_{\mathrm{TV}}", "eta_f": r"\eta_{f}", "eta_gamma": r"\eta_{\gamma}",
    "eps_star": r"\varepsilon^{*}", "E_gamma": r"E_{\gamma}", "Gamma_max": r"\Gamma_{\max}",
    "Gamma_min": r"\Gamma_{\min}", "LDP": r"\mathrm{LDP}", "theta": r"\theta", "ell": r"\ell",
    "alpha": r"\alpha", "beta": r"\beta", "rho": r"\rho", "KL": r"\mathrm{KL}",
    "phi_n": r"\varphi^{n}", "eta_E": r"\eta_{E}", "delta_K": r"\delta_{K}", "eta_chi2": r"\eta_{\chi^2}",
    "H2": r"H^{2}", "D_inf": r"D_{\infty}", "M_n": r"\mathcal{M}_{n}", "R_B": r"R_{B}",
}

EPS = sympy.Symbol("eps", positive=True)

#: the note every display of a formula in e^ε carries
T_NOTE = r"t = e^{\varepsilon}"


class PaperLatexPrinter(LatexPrinter):
    """sympy's LaTeX printer with the papers' symbol names, a positive leading term, and a Piecewise
    that parses with matplotlib's mathtext (``cases=False``) or a ``cases`` environment (``cases=True``)."""

    def __init__(self, settings: Any = None, *, cases: bool = False) -> None:
        super().__init__(settings)
        self.cases = cases

    def _argument(self, a: Any) -> str | None:
        r"""A sum argument of a call over its common denominator, as the text printer
        (:meth:`TextPrinter._print_Function`) writes it: ``\frac{1 + \sqrt{2}}{2}``, not
        ``\frac{1}{2} + \frac{\sqrt{2}}{2}`` (sympy distributes 1/2 over the sum); None for other arguments."""
        content, rest = a.as_content_primitive() if a.is_Add else (sympy.S.One, a)
        if content.is_Rational and content.q != 1:
            return rf"\frac{{{self._print(content.p * rest)}}}{{{content.q}}}"
        return None

    def _print_Function(self, expr: Any, exp: Any = None) -> str:
        """A call, its sum arguments as :meth:`_argument` writes them."""
        fractions: dict[str, str] = {}
        args = []
        for k, a in enumerate(expr.args):
            frac = self._argument(a)
            if frac is not None:
                name = "XxFRACTIONxX" + "abcdefghijklmnopqrstuvwxyz"[k % 26] * (1 + k // 26)
                fractions[name] = frac
                args.append(sympy.Symbol(name))
            else:
                args.append(a)
        text = str(super()._print_Function(expr.func(*args) if fractions else expr, exp))
        for name, frac in fractions.items():
            text = text.replace(name, frac)
        return text

    def _print_log(self, expr: Any, exp: Any = None) -> str:
        """log, its argument as :meth:`_argument` writes it."""
        frac = self._argument(expr.args[0])
        if frac is None:
            return str(super()._print_log(expr, exp))
        tex = r"\log{\left(" + frac + r" \right)}"
        return tex if exp is None else rf"{tex}^{{{exp}}}"

    def _print_Piecewise(self, expr: Any) -> str:
        if self.cases:
            rows = [rf"{self._print(e)} & \text{{otherwise}}" if c is sympy.true
                    else rf"{self._print(e)} & \text{{if }} {self._print(c)}" for e, c in expr.args]
            return r"\begin{cases} " + r" \\ ".join(rows) + r" \end{cases}"
        parts = []
        for e, c in expr.args:
            if c is sympy.true:
                parts.append(rf"{self._print(e)} \;\text{{otherwise}}")
            else:
                parts.append(rf"{self._print(e)} \;\text{{if}}\; {self._print(c)}")
        return r"\left\{ " + r",\quad ".join(parts) + r" \right."

    def add_terms(self, expr: Any, order: Any = None) -> list[str]:
        """The terms of a sum as printed: the first bare, the others with their sign (``"+ a"``, ``"- b"``)."""
        terms = list(self._as_ordered_terms(expr, order=order))
        lead = next((k for k, term in enumerate(terms) if not term.could_extract_minus_sign()), 0)
        terms = [terms[lead]] + terms[:lead] + terms[lead + 1:]
        out = []
        for i, term in enumerate(terms):
            sign = ""
            if i and term.could_extract_minus_sign():
                sign, term = "- ", -term
            elif i:
                sign = "+ "
            term_tex = self._print(term)
            if self._needs_add_brackets(term):
                term_tex = rf"\left({term_tex}\right)"
            out.append(sign + term_tex)
        return out

    def _print_Add(self, expr: Any, order: Any = None) -> str:
        """Default term order, except that a positive term leads ("1 - Nc", not "- Nc + 1")."""
        return " ".join(self.add_terms(expr, order))

    def _hprint_Function(self, func: str) -> str:
        """An undefined function's name in the papers' notation (``phi`` as φ, ``eta_tv`` as η_TV)."""
        return SYMBOL_LATEX.get(func) or FORMULA_LATEX.get(func) or str(super()._hprint_Function(func))

    def _print_Symbol(self, expr: Any, style: Any = "plain") -> str:
        name = expr.name
        if name in SYMBOL_LATEX:
            return SYMBOL_LATEX[name]
        if name in FORMULA_LATEX:
            return FORMULA_LATEX[name]
        return str(super()._print_Symbol(expr, style=style))


def exp_form(expr: Any, t_names: Any = ("t",)) -> Any:
    """Replace t by e^ε (proofs run in t, the papers write ε)."""
    expr = as_expr(expr)
    subs = {s: sympy.exp(EPS) for s in expr.free_symbols if s.name in t_names}
    return expr.xreplace(subs) if subs else expr


def printer(*, cases: bool = False) -> PaperLatexPrinter:
    return PaperLatexPrinter({"mul_symbol": None, "inv_trig_style": "abbreviated"}, cases=cases)


def as_display_expr(expr: Any, *, t_as_exp: bool = True) -> Any:
    """A sympy value of an exact number or expression (fmpq, int, ``oo``, sympy), t → e^ε if asked."""
    if not isinstance(expr, (sympy.Basic, bool)):
        expr = as_sympy(expr)
    if isinstance(expr, sympy.Basic) and t_as_exp:
        expr = exp_form(expr)
    return expr


def to_latex(expr: Any, *, t_as_exp: bool = True, cases: bool = False) -> str:
    """LaTeX of a sympy expression (or fmpq / ``oo``) in the papers' notation, without ``$``.

    >>> t = sympy.Symbol("t", positive=True)
    >>> to_latex((t - 1) / (t + 1))
    '\\\\frac{e^{\\\\varepsilon} - 1}{e^{\\\\varepsilon} + 1}'
    """
    return str(printer(cases=cases).doprint(as_display_expr(expr, t_as_exp=t_as_exp)))


class TextPrinter(StrPrinter):
    """The terminal's printer of exact values, the plain-text twin of :class:`PaperLatexPrinter`: ``^`` for
    powers, ``·`` for products, ``√`` for square roots, ``a/b`` for quotients (the denominator parenthesised
    when it is a sum or product).  What it prints is what the safe reader (:mod:`exactdp.numbers.reader`) reads
    back into the same expression, so the screen never states a formula other than the one computed."""

    def _print_Pow(self, expr: Any, rational: Any = False) -> str:
        base, e = expr.args
        if e is sympy.S.Half:  # √2, √t, √(t + 1)
            text = self._print(base)
            return "√" + (text if base.is_Atom and not (base.is_Rational and not base.is_Integer)
                          else f"({text})")
        if e.is_Integer and e < 0:  # t^(-2) -> 1/t^2, (t + 1)^(-1) -> 1/(t + 1)
            den = base ** -e
            text = self._print(den)
            return f"1/({text})" if isinstance(den, (sympy.Add, sympy.Mul)) else f"1/{text}"
        return str(super()._print_Pow(expr, rational)).replace("**", "^")

    def _print_Function(self, expr: Any) -> str:
        """A call with each sum argument over its common denominator: log((1 + √2)/2), not log(1/2 + √2/2)
        (sympy distributes 1/2 over the sum; the reader rebuilds the same expression from either text)."""
        args = []
        for a in expr.args:
            content, rest = a.as_content_primitive() if a.is_Add else (sympy.S.One, a)
            if content.is_Rational and content.q != 1:
                args.append(f"({self._print(content.p * rest)})/{content.q}")
            else:
                args.append(self._print(a))
        return f"{expr.func.__name__}({', '.join(args)})"

    def _print_Mul(self, expr: Any) -> str:
        num, den = sympy.fraction(expr)
        if den != 1 and not expr.has(sympy.Piecewise):
            ns, ds = self._print(num), self._print(den)
            if isinstance(num, sympy.Add):
                ns = f"({ns})"
            if isinstance(den, (sympy.Add, sympy.Mul)):
                ds = f"({ds})"  # 1/(4·c), 1/(t + 1); 2/t^3 needs none (a power binds first)
            return f"{ns}/{ds}"
        return str(super()._print_Mul(expr)).replace("**", "^").replace("*", "·")


RELATION_TEXT = {"==": "=", "<=": "≤", ">=": "≥", "<": "<", ">": ">", "!=": "≠"}


def to_text(value: Any) -> str:
    """An exact value as mathematics for the terminal, by :class:`TextPrinter`: relations with ``≤``/``≥``,
    an equation cleared of denominators (``4·c·t = 1``, not ``Eq(t, 1/(4*c))``), ``Piecewise`` as cases
    (``{a if cond; b otherwise}``), ``and``/``or`` between conditions, ``(a, b)`` for sequences.

    >>> t, c = sympy.symbols("t c", positive=True)
    >>> to_text((sympy.sqrt(2) - 1) / (sympy.sqrt(2) + 1)), to_text(sympy.log((1 + sympy.sqrt(2)) / 2))
    ('(-1 + √2)/(1 + √2)', 'log((1 + √2)/2)')
    >>> to_text(sympy.Eq(t, 1 / (4 * c))), to_text(t <= 1 / (4 * c))
    ('4·c·t = 1', 't ≤ 1/(4·c)')
    """
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(to_text(v) for v in value) + ")"
    if isinstance(value, fmpq) or (isinstance(value, int) and not isinstance(value, bool)):
        # a computed exact number converts directly: its text may exceed the reader's limit on user input
        value = sympy.Rational(int(value.p), int(value.q)) if isinstance(value, fmpq) else sympy.Integer(value)
    elif not isinstance(value, sympy.Basic):
        value = as_expr(str(value))
    if isinstance(value, sympy.Piecewise):
        return "{" + "; ".join(f"{to_text(e)} otherwise" if c is sympy.true else f"{to_text(e)} if {to_text(c)}"
                               for e, c in value.args) + "}"
    if isinstance(value, sympy.core.relational.Relational):
        op = RELATION_TEXT.get(value.rel_op, value.rel_op)
        if isinstance(value, sympy.Equality) and all(side.is_rational_function() for side in value.args):
            # a rational equation cleared of denominators: Eq(t, 1/(4*c)) -> 4·c·t = 1
            num, _ = sympy.fraction(sympy.together(value.lhs - value.rhs))
            terms = sympy.Add.make_args(sympy.expand(num))
            pos = sympy.Add(*[a for a in terms if a.could_extract_minus_sign() is False])
            neg = -sympy.Add(*[a for a in terms if a.could_extract_minus_sign() is True])
            if pos != 0 or neg != 0:
                return f"{to_text(pos)} = {to_text(neg)}"
        return f"{to_text(value.lhs)} {op} {to_text(value.rhs)}"
    if isinstance(value, (sympy.And, sympy.Or)):
        sep = " and " if isinstance(value, sympy.And) else " or "
        return sep.join(to_text(a) for a in value.args)
    return str(_TEXT.doprint(value))


def normal_form(e: Any) -> Any:
    """num/den factored, the sign chosen so that most of the denominator's coefficients are positive
    (ties: a positive constant term) — the papers' style (t−1)/(t(1−Nc)+1), not −(t−1)/(Nct−t−1)."""
    num, den = sympy.fraction(sympy.cancel(sympy.together(e)))
    if den.free_symbols:
        P = sympy.Poly(den, *sorted(den.free_symbols, key=str))
        signs = [1 if cf > 0 else -1 for cf in P.coeffs()]
        const = P.coeff_monomial(1)
        if sum(signs) < 0 or (sum(signs) == 0 and const < 0):
            num, den = -num, -den
    num, den = sympy.factor(num), sympy.factor(den)
    num = absorb_sign(num)
    privacy = [v for v in den.free_symbols if v.name == "t"]
    if privacy and isinstance(den, sympy.Add):  # the papers write t(1 − Nc) + 1: collect in t = e^ε
        den = sympy.collect(sympy.expand(den), privacy[0], func=sympy.factor)
    if den == 1:
        return num
    return num / den


def absorb_sign(e: Any) -> Any:
    """−t(c − 1) → t(1 − c): move a leading minus sign of a product into one of its sum factors."""
    if isinstance(e, sympy.Mul) and e.could_extract_minus_sign():
        factors = list(e.args)
        for k, f in enumerate(factors):
            if isinstance(f, sympy.Add):
                factors[k] = -f
                rest = [g for g in factors if g != -1]
                return sympy.Mul(*rest) if -1 in factors else -sympy.Mul(*factors)
    return e


def uses_t(*exprs: Any) -> bool:
    """Whether any of the values is written in t (then its display is in e^ε and says so)."""
    return any(isinstance(e, sympy.Basic) and any(s.name == "t" for s in e.free_symbols) for e in exprs)


def entry_form(e: Any) -> Any:
    """An entry of a kernel as displayed: in the papers' normal form (:func:`normal_form`) when it has
    parameters."""
    e = as_display_expr(e, t_as_exp=False)
    if isinstance(e, sympy.Expr) and e.free_symbols:
        return normal_form(e)
    return e


def matrix_latex(rows: Any, entry: Any = entry_form) -> str:
    r"""``\begin{pmatrix} … \end{pmatrix}`` of a matrix of exact values (rows), each printed as
    ``entry(value)`` (default :func:`entry_form`: cancelled and factored), t as e^ε."""
    body = r" \\ ".join(" & ".join(to_latex(entry(e)) for e in r) for r in rows)
    return r"\begin{pmatrix} " + body + r" \end{pmatrix}"


RELATIONS = {"=": "=", "<=": r"\leq", ">=": r"\geq", "<": "<", ">": ">", "upper": r"\leq", "lower": r"\geq",
             "equals": "=", "definition": "="}


def relation_latex(lhs_tex: str, rel: str, rhs: Any) -> str:
    """``lhs rel rhs`` with rel one of = ≤ ≥ < > (or a registry direction: upper, lower, equals)."""
    rhs_tex = rhs if isinstance(rhs, str) else to_latex(rhs)
    return f"{lhs_tex} {RELATIONS[rel]} {rhs_tex}"


_TEXT = TextPrinter({"order": None})
