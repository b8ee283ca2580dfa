r"""Kernel-valued terms of the conjecture language: products ``tensor(K, K2)`` and powers ``K^n``.

A quantity of a kernel (η_TV, η_{E_γ}, δ(ε), the LDP and PML levels, maximal leakage, η_χ², η_KL) may take a
kernel term as its first argument: ``eta_tv(tensor(K, K))``, ``eta_hs(tensor(K, K2), 2)``, ``ldp_eps(K^3)``,
``pml_eps(tensor(K, K2), c, c)``.  The terms are

* ``K``, the searched kernel, and ``K2``, a second kernel drawn from the same class at the same parameters
  (both are members of the class at the instance's ε, δ, c);
* ``tensor(A, B, ...)``, the product kernel A ⊗ B ⊗ … (independent uses on independent inputs, [A] §4 and
  [G] §5: the composition that B-9 and F-G11 are about);
* ``A^k`` (or ``A**k``) with k a positive integer literal or the parameter ``n``: A^{⊗k}.

A term is written as sympy's ``tensor(F_1, ..., F_m)`` over factors ``K``, ``K2``, ``K**k``, ``K2**n`` in the order
the text names them (``tensor(K, K2)^2`` is K ⊗ K2 ⊗ K ⊗ K2, ``tensor(K, K2)^n`` is K^{⊗n} ⊗ K2^{⊗n}: every
quantity of this language is invariant under relabelling the inputs and outputs, so the order of the factors
does not change its value).  A quantity applied to the term K alone is the quantity of K (``eta_tv(K)`` is
``eta_tv``).

``pml_eps`` of a product takes either one floor, c', the (ε,c')-PML level of the product kernel over the floor
class Q(c') on its N₁N₂… inputs ([G] Def. 2 applied to the product), or one floor per factor, c₁, …, c_m, the
level over the product priors Q(c₁) × … × Q(c_m) (:mod:`exactdp.measures.product_prior`, docs/claims.md F-G11,
F-G12).

:func:`rewrite` replaces each term of the text by a placeholder name before the one safe reader
(:mod:`exactdp.numbers.reader`) reads the sides, so no text is evaluated; :func:`factors` gives the kernels of
a term at an instance.
"""

from __future__ import annotations

from typing import Any

import sympy

from exactdp.measures import registry

#: the kernel names of the language: the searched kernel and a second member of the class
LEAVES = ("K", "K2")
#: the function that writes a product term
TENSOR = sympy.Function("tensor")
#: suffix of a quantity's name when its first argument is a kernel term (read by the safe reader, then renamed)
SUFFIX = "__onk"
#: prefix of the placeholder names standing for the terms while the reader reads the text
PLACEHOLDER = "kterm__"
#: largest number of inputs or outputs of an explicitly built product kernel
MAX_PRODUCT_SIZE = 81


class TermError(ValueError):
    """A malformed kernel term (the parser turns it into a one-line syntax error)."""


def _n_symbol() -> sympy.Symbol:
    return sympy.Symbol("n", positive=True, integer=True)  # the parser's parameter n


def leaf(name: str) -> sympy.Symbol:
    return sympy.Symbol(name)


def kernel_quantities() -> tuple[str, ...]:
    """The registered quantities of a kernel (not of two distributions): those that take a kernel term."""
    return tuple(q.name for q in registry.quantities() if q.distributions == 0)


def rewrite(text: str) -> tuple[str, dict[str, sympy.Expr]]:
    """``text`` with every quantity applied to a kernel term renamed ``name__onk`` and the term replaced by a
    placeholder name; the placeholders' terms.  Raises :class:`TermError` on a malformed term or a term outside
    a quantity's first argument."""
    from exactdp.numbers.reader import tokens

    toks = tokens(text, "INEQUALITY")
    names = set(kernel_quantities()) | {"delta"}
    pieces: list[str] = []
    terms: dict[str, sympy.Expr] = {}
    last, i = 0, 0
    while i < len(toks):
        tok = toks[i]
        if (tok.kind == "name" and tok.text in names and toks[i + 1].text == "("
                and _starts_term(toks, i + 2)):
            term, j = _term(toks, i + 2, text)
            if toks[j].text not in (",", ")"):
                raise TermError(f"INEQUALITY: expected ',' or ')' after the kernel term at position {toks[j].pos}, "
                                f"got {toks[j].text or 'the end'!r}")
            name = PLACEHOLDER + str(len(terms))
            terms[name] = term
            pieces.append(text[last:tok.pos] + tok.text + SUFFIX + "(" + name)
            last = toks[j].pos
            i = j
            continue
        if tok.kind == "name" and tok.text in ("tensor", "K2"):
            raise TermError(f"INEQUALITY: {tok.text} at position {tok.pos} is a kernel term: use it as the first "
                            f"argument of a quantity of a kernel, e.g. eta_tv(tensor(K, K2)) or ldp_eps(K2)")
        i += 1
    pieces.append(text[last:])
    return "".join(pieces), terms


def _starts_term(toks: list[Any], i: int) -> bool:
    t = toks[i]
    if t.kind != "name":
        return False
    if t.text in ("tensor", "K2"):
        return True
    return t.text == "K" and toks[i + 1].text in (",", ")", "^", "**")


def _term(toks: list[Any], i: int, text: str) -> tuple[sympy.Expr, int]:
    """Parse one term from token i: (the term, the index after it)."""
    fs, i = _factor(toks, i, text)
    return TENSOR(*fs), i


def _factor(toks: list[Any], i: int, text: str) -> tuple[list[sympy.Expr], int]:
    t = toks[i]
    if t.kind == "name" and t.text in LEAVES and toks[i + 1].text != "(":
        fs: list[sympy.Expr] = [leaf(t.text)]
        i += 1
    elif t.kind == "name" and t.text == "tensor" and toks[i + 1].text == "(":
        fs, i = _factor(toks, i + 2, text)
        while toks[i].text == ",":
            more, i = _factor(toks, i + 1, text)
            fs += more
        if toks[i].text != ")":
            raise TermError(f"INEQUALITY: expected ',' or ')' in tensor(...) at position {toks[i].pos}, "
                            f"got {toks[i].text or 'the end'!r}")
        i += 1
        if len(fs) < 2:
            raise TermError("INEQUALITY: tensor(...) needs at least two kernels, e.g. tensor(K, K2)")
    elif t.text == "(":
        fs, i = _factor(toks, i + 1, text)
        if toks[i].text != ")":
            raise TermError(f"INEQUALITY: expected ')' at position {toks[i].pos}")
        i += 1
    else:
        raise TermError(f"INEQUALITY: expected a kernel (K, K2, tensor(...) or a power of one) at position "
                        f"{t.pos}, got {t.text or 'the end'!r}")
    if toks[i].text in ("^", "**"):
        e = toks[i + 1]
        if e.kind == "num" and e.text.isdigit() and 1 <= int(e.text) <= 64:
            fs = fs * int(e.text)
        elif e.kind == "name" and e.text == "n" and toks[i + 2].text != "(":
            fs = [_power(f, _n_symbol()) for f in fs]
        else:
            raise TermError(f"INEQUALITY: the power of a kernel must be an integer 1..64 or the parameter n, got "
                            f"{e.text or 'the end'!r} at position {e.pos}")
        i += 2
    return fs, i


def _power(f: sympy.Expr, e: sympy.Expr) -> sympy.Expr:
    if isinstance(f, sympy.Pow):
        return sympy.Pow(f.base, f.exp * e, evaluate=False)
    return sympy.Pow(f, e, evaluate=False)


def is_term(node: Any) -> bool:
    return isinstance(node, sympy.core.function.AppliedUndef) and node.func.__name__ == "tensor"


def plain(term: sympy.Expr) -> bool:
    """Is the term K alone (then the quantity is the quantity of K)?"""
    return is_term(term) and term.args == (leaf("K"),)


def leaves(term: sympy.Expr) -> list[tuple[str, sympy.Expr]]:
    """The factors as (leaf name, exponent), the exponent an integer or an expression in n."""
    out = []
    for f in term.args:
        if isinstance(f, sympy.Pow):
            out.append((f.base.name, f.exp))
        else:
            out.append((f.name, sympy.Integer(1)))
    return out


def uses_second(expr: sympy.Expr) -> bool:
    """Does the expression name K2?"""
    return any(is_term(a) and any(name == "K2" for name, _ in leaves(a)) for a in sympy.preorder_traversal(expr))


def factors(term: sympy.Expr, K: Any, K2: Any, n: int | None) -> list[tuple[Any, int]]:
    """The kernels of the term at an instance: [(kernel, multiplicity)], in the order of the text.  Raises
    :class:`registry.Undefined` when K2 or n is not sampled."""
    out = []
    for name, e in leaves(term):
        kernel = K if name == "K" else K2
        if kernel is None:
            raise registry.Undefined(f"{name} is not sampled")
        if e.free_symbols:
            if n is None:
                raise registry.Undefined("n is not sampled")
            e = e.xreplace({s: sympy.Integer(n) for s in e.free_symbols})
        k = int(e)
        if k < 1:
            raise registry.Undefined(f"a kernel power must be >= 1, got {k}")
        out.append((kernel, k))
    return out


def product_kernel(fs: list[tuple[Any, int]]) -> Any:
    """The product kernel, built explicitly; Undefined beyond :data:`MAX_PRODUCT_SIZE` inputs or outputs."""
    N = M = 1
    for K, k in fs:
        N, M = N * K.N ** k, M * K.M ** k
    if N > MAX_PRODUCT_SIZE or M > MAX_PRODUCT_SIZE:
        raise registry.Undefined(f"the product kernel has {N} inputs and {M} outputs (more than "
                                 f"{MAX_PRODUCT_SIZE}): only eta_tv and eta_hs of large products are evaluated")
    out = None
    for K, k in fs:
        for _ in range(k):
            out = K if out is None else out.tensor(K)
    return out


def flat(fs: list[tuple[Any, int]]) -> list[Any]:
    """The factors one kernel per use."""
    return [K for K, k in fs for _ in range(k)]


def exact_value(name: str, fs: list[tuple[Any, int]], args: tuple[Any, ...], *, explicit: bool) -> Any:
    """The exact value of quantity ``name`` of the product ``fs`` at exact sympy arguments ``args``: an fmpq,
    an exact sympy number or ``oo`` (as the registry's evaluators return).

    η_TV, η_{E_γ} (γ rational ≥ 1) and δ(ε) (e^ε rational ≥ 1) go through the pair-type search of
    :func:`exactdp.measures.tensor.eta_hockey_stick_tensor_product` (no product kernel is built) unless
    ``explicit``; everything else, and everything when ``explicit`` (the independent re-check of a
    counterexample), is the registry's evaluator on the explicit product kernel.  ``pml_eps`` with one floor per
    factor is the level over product priors (:func:`exactdp.measures.product_prior.pml_ratio_product_priors`).
    Raises :class:`registry.Undefined` where there is no value (sizes, floors, budgets)."""
    from exactdp.errors import InputError

    q = registry.quantity(name)
    if q is None or q.distributions or q.exact is None:
        raise registry.Undefined(f"{name} is not a quantity of a kernel")
    try:
        if name in LEVELS:
            r = level_ratio(name, fs, tuple(registry.rational_argument(a, f"{name}: an argument") for a in args))
            return sympy.oo if r == sympy.oo else sympy.log(sympy.Rational(int(r.p), int(r.q)))
        if len(args) != q.arity:
            raise registry.Undefined(f"{name} of a product takes {q.arity} argument(s)"
                                     + (" or one floor per factor" if name == "pml_eps" else "")
                                     + f", got {len(args)}")
        if not explicit and name in ("eta_tv", "eta_hs", "delta_K"):
            g = _order(name, args)
            if g is not None:
                from exactdp.measures.tensor import eta_hockey_stick_tensor_product  # deferred: start-up

                return eta_hockey_stick_tensor_product(fs, g)
        return q.exact(product_kernel(fs), *args)
    except InputError as exc:  # a size, budget or argument the core refuses (limits too): no value here
        raise registry.Undefined(str(exc).splitlines()[0][:200]) from None


def _order(name: str, args: tuple[Any, ...]) -> Any:
    """γ of the E_γ coefficient as an fmpq when it is a rational ≥ 1 (the tensor search's domain), else None."""
    from flint import fmpq

    if name == "eta_tv":
        return fmpq(1)
    g = args[0] if name == "eta_hs" else sympy.exp(args[0])
    if not getattr(g, "is_Rational", False) or g < 1:
        return None
    return fmpq(int(g.p), int(g.q))


#: the privacy levels, logs of a ratio (:func:`level_ratio`)
LEVELS = ("ldp_eps", "max_leakage", "pml_eps")


def level_ratio(name: str, fs: list[tuple[Any, int]], args: tuple[Any, ...]) -> Any:
    """e^(level) of the product for a privacy level in :data:`LEVELS`, at rational (fmpq) arguments: the LDP
    ratio, the maximal-leakage ratio, the (ε,c')-PML ratio over the floor class Q(c') of the product alphabet
    (one floor), or over the product priors Q(c₁) × … × Q(c_m) (one floor per factor, F-G11,
    :func:`exactdp.measures.product_prior.pml_ratio_product_priors`).  An fmpq, or ``sympy.oo``; raises
    :class:`registry.Undefined` where there is none."""
    from exactdp.errors import InputError
    from exactdp.measures.privacy import ldp_ratio, max_leakage_ratio, pml_ratio  # deferred: start-up
    from exactdp.measures.product_prior import ProductPrior, pml_ratio_product_priors  # deferred: start-up

    try:
        if name == "pml_eps" and len(args) == len(flat(fs)) > 1:
            ks = flat(fs)
            return pml_ratio_product_priors(ks, ProductPrior(tuple(K.N for K in ks), args)).ratio
        arity = 1 if name == "pml_eps" else 0
        if len(args) != arity:
            raise registry.Undefined(f"{name} of a product takes {arity} argument(s)"
                                     + (" or one floor per factor" if name == "pml_eps" else "")
                                     + f", got {len(args)}")
        P = product_kernel(fs)
        if name == "ldp_eps":
            return ldp_ratio(P)
        if name == "max_leakage":
            return max_leakage_ratio(P)
        if args[0] <= 0 or args[0] * P.N > 1:
            raise registry.Undefined(f"pml_eps(term, c) needs c in (0, 1/N] for the product's N = {P.N}, "
                                     f"got {args[0]}")
        return pml_ratio(P, args[0])
    except InputError as exc:
        raise registry.Undefined(str(exc).splitlines()[0][:200]) from None
