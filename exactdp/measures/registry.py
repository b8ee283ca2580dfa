r"""The registry of quantities: every named quantity of a kernel (or of two distributions) written once.

A :class:`Quantity` carries its name (as the conjecture language writes it), its arity, its meaning, its
LaTeX and text symbols, the key under which ``exactdp analyze --format json`` reports it, and its evaluators,
one per number domain (the QQ / RB / SR domains of :mod:`exactdp.numbers.domain`, ARCHITECTURE.md
"Number domains"):

* ``exact`` (QQ and exact sympy values): ``exact(K, *args)``, or ``exact(A, B, *args)`` for a divergence;
  the arguments are exact sympy numbers; the value is an ``fmpq``, an exact sympy expression or ``oo``;
* ``ball`` (RB): the same signature with ``arb`` arguments (an irrational argument of the conjecture search),
  a certified ball containing the value;
* ``symbolic`` (SR): ``symbolic(K)`` for a parametric kernel, the closed form on the kernel's region
  (quantities without arguments; ``exactdp derive`` uses it).

The conjecture language (:mod:`exactdp.verification.conjecture.parser`), its evaluation at an instance and its
re-check, ``exactdp analyze``, ``exactdp derive`` and :func:`exactdp.latex` read this registry, so a new
divergence or coefficient is one function plus one :func:`register_quantity` call.  An evaluator raises
:class:`Undefined` where the quantity has no value (η_χ² of a kernel with more than two inputs, a PML level
at c > 1/N); the conjecture search counts such instances as undefined.  Registration is per process: the
local worker processes of ``check(workers=W)`` (forked) inherit it, a dask worker knows the quantities that
the modules it imports register.

The built-in quantities are those of docs/claims.md: η_TV (D-4, B-1), the E_γ coefficient η_{E_γ} (B-2) and
the privacy profile δ(ε) = η_{E_{e^ε}} ([A] Thm 1), the LDP level (D-5), the (ε,c)-PML level (D-9), the
maximal leakage, the input-free χ² / KL coefficients η_χ² = η_KL (B-3, B-8; coefficients that are not a
maximum over pairs of rows, :mod:`exactdp.measures.chi2_contraction`), the tensor coefficient (B-9) and the
divergences TV, KL, H², χ², E_γ (D-2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, TYPE_CHECKING

from exactdp.errors import ParameterError

if TYPE_CHECKING:
    from exactdp.kernels import Kernel, KernelInput

Evaluator = Callable[..., Any]


class Undefined(ArithmeticError):
    """The quantity has no value at these arguments (outside its domain of definition here)."""


@dataclass(frozen=True)
class Quantity:
    """One named quantity.  ``latex`` and ``text`` are its symbols; with arguments they hold the
    placeholders ``#1``, ``#2``, ... (TeX's macro notation) where the printed arguments go."""

    name: str
    arity: int
    meaning: str
    latex: str
    text: str
    json_key: str | None = None  # the key of ``analyze --format json``; None: analyze does not report it
    exact: Evaluator | None = None
    ball: Evaluator | None = None
    symbolic: Evaluator | None = None
    distributions: int = 0  # leading arguments that are distributions (2 for a divergence), the rest numbers

    def latex_of(self, args: tuple[Any, ...] = ()) -> str:
        """The LaTeX of the quantity applied to the arguments' LaTeX."""
        return _fill(self.latex, args)

    def text_of(self, args: tuple[Any, ...] = ()) -> str:
        return _fill(self.text, args)


def _fill(template: str, args: tuple[Any, ...]) -> str:
    for k in range(len(args), 0, -1):  # #10 before #1
        template = template.replace(f"#{k}", str(args[k - 1]))
    return template


#: names a quantity may not take: the conjecture language's parameters, distributions and constants
RESERVED = frozenset({"eps", "gamma", "delta", "c", "N", "M", "n", "t", "P", "Q", "K", "row", "pi", "E", "oo",
                      "min", "max", "abs"})
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,39}")
MAX_ARITY = 4

_REGISTRY: dict[str, Quantity] = {}


def register_quantity(q: Quantity) -> Quantity:
    """Add ``q`` to the registry (its name must be new); returns it.

    Raises:
        ParameterError: a name that is not an identifier of at most 40 characters, is reserved or already
            registered; an arity outside 0..4 or fewer arguments than distributions.
    """
    if not isinstance(q, Quantity):
        raise ParameterError(f"register_quantity: expected a Quantity, got {type(q).__name__}")
    if not isinstance(q.name, str) or not _NAME.fullmatch(q.name):
        raise ParameterError(f"quantity name: must be a letter then letters, digits or _ (at most 40 characters), "
                             f"got {q.name!r}")
    from exactdp.numbers.reader import MATH_FUNCTIONS  # deferred: start-up

    if q.name in RESERVED or q.name in MATH_FUNCTIONS:
        raise ParameterError(f"quantity name: {q.name!r} is reserved (a parameter, distribution or function of "
                             f"the conjecture language)")
    if q.name in _REGISTRY:
        raise ParameterError(f"quantity name: {q.name!r} is already registered ({_REGISTRY[q.name].meaning})")
    if isinstance(q.arity, bool) or not isinstance(q.arity, int) or not 0 <= q.arity <= MAX_ARITY:
        raise ParameterError(f"quantity arity: must be an integer in 0..{MAX_ARITY}, got {q.arity!r}")
    if q.distributions not in (0, 2) or q.distributions > q.arity:
        raise ParameterError(f"quantity distributions: 0, or 2 with arity >= 2 (a divergence), got "
                             f"{q.distributions!r} with arity {q.arity}")
    _REGISTRY[q.name] = q
    return q


def unregister_quantity(name: str) -> Quantity:
    """Remove a registered quantity (returns it); ParameterError if the name is not registered."""
    if name not in _REGISTRY:
        raise ParameterError(f"quantity name: {name!r} is not registered")
    return _REGISTRY.pop(name)


def quantity(name: str) -> Quantity | None:
    """The registered quantity of that name, or None."""
    return _REGISTRY.get(name)


def quantities() -> tuple[Quantity, ...]:
    """Every registered quantity, in the order of registration (the built-ins first)."""
    return tuple(_REGISTRY.values())


def kernel_constants() -> tuple[str, ...]:
    """The names of the quantities written without arguments (``eta_tv``, not ``eta_tv()``)."""
    return tuple(q.name for q in _REGISTRY.values() if q.arity == 0)


def divergences() -> tuple[str, ...]:
    """The names of the quantities whose first two arguments are distributions."""
    return tuple(q.name for q in _REGISTRY.values() if q.distributions)


# -- the built-in evaluators (exact domain) -----------------------------------------------------------------------

def rational_argument(expr: Any, what: str) -> Any:
    """An exact sympy argument as an ``fmpq``; :class:`Undefined` when it is not rational."""
    import sympy  # deferred: start-up
    from flint import fmpq

    # only an expression that *is* a rational (sympy evaluates sqrt(4) to 2 on construction): never
    # nsimplify, which returns 1 for 1 + exp(-50) (a numerical guess, not an exact identity)
    e = sympy.Integer(expr) if isinstance(expr, int) else expr
    if not getattr(e, "is_Rational", False):
        raise Undefined(f"{what}: {str(expr)[:80]} is not rational")
    return fmpq(int(e.p), int(e.q))


def _eta_tv(K: KernelInput) -> Any:
    from exactdp.measures.contraction import eta_tv  # deferred: start-up

    return eta_tv(K)


def _ldp_eps(K: KernelInput) -> Any:
    from exactdp.measures.privacy import ldp_epsilon  # deferred: start-up

    return ldp_epsilon(K)


def _max_leakage(K: KernelInput) -> Any:
    from exactdp.measures.privacy import max_leakage  # deferred: start-up

    return max_leakage(K)


def _eta_hs(K: KernelInput, gamma: Any) -> Any:
    from exactdp.measures.contraction import eta_hockey_stick  # deferred: start-up

    return eta_hockey_stick(K, rational_argument(gamma, "eta_hs(gamma)"))


def _delta(K: Kernel, eps: Any) -> Any:
    """δ(ε) = η_{E_{e^ε}}(K) ([A] Thm 1) at an exact ε in [0, max_exp_argument]."""
    import sympy  # deferred: start-up

    from exactdp.limits import limit

    cap = limit("max_exp_argument")
    if not eps.is_number or eps.is_negative or abs(eps) > cap:
        raise Undefined(f"delta(eps) needs 0 <= eps <= {cap}, got {str(eps)[:80]}")
    return eta_hockey_stick_exact(K, sympy.exp(eps))


def eta_hockey_stick_exact(K: Kernel, g: Any) -> Any:
    """η_{E_g}(K) = max over x ≠ x' of Σ_y (K(y|x) − g K(y|x'))₊ (B-2) for an exact, possibly irrational
    g ≥ 0, as an exact sympy number (a rational g goes through the core's fmpq path)."""
    import sympy  # deferred: start-up

    from exactdp.measures.contraction import eta_hockey_stick  # deferred: start-up
    from exactdp.numbers.reader import as_expr

    def exact(v: Any) -> Any:
        return sympy.Rational(int(v.p), int(v.q)) if type(v).__name__ == "fmpq" else as_expr(v)

    if g.is_Rational:
        return exact(eta_hockey_stick(K, rational_argument(g, "gamma")))
    best = sympy.Integer(0)
    for i in range(K.N):
        for j in range(K.N):
            if i != j:
                best = sympy.Max(best, sympy.Add(*[sympy.Max(exact(a) - g * exact(b), 0)
                                                   for a, b in zip(K[i], K[j])]))
    return best


def _pml_eps(K: KernelInput, c: Any) -> Any:
    from exactdp.measures.privacy import pml_epsilon  # deferred: start-up

    return pml_epsilon(K, rational_argument(c, "pml_eps(c)"))


def eta_chi2_two_inputs(K: Kernel) -> Any:
    """η_χ²(K) (= η_KL(K)) of a two-input kernel (a :class:`~exactdp.measures.chi2_contraction.ChiSquareContraction`
    holding an exact real algebraic number); other sizes have no exact value here (:class:`Undefined`)."""
    from exactdp.measures.chi2_contraction import eta_chi2  # deferred: start-up

    if K.N != 2:
        raise Undefined(f"eta_chi2 / eta_kl are exact for two-input kernels only, got N = {K.N}")
    return eta_chi2(K)


def _eta_chi2(K: Kernel) -> Any:
    return eta_chi2_two_inputs(K).as_sympy()


#: width and box budget of the η_χ² enclosure that ``check`` and ``extremal`` ask for at N = 3, 4 inputs (the
#: branch and bound of :mod:`exactdp.measures.chi2_branch_bound`): a conjecture search evaluates many kernels
SEARCH_WIDTH = "1/100"
SEARCH_BOXES = 200


def chi2_search_enclosure(K: KernelInput) -> Any:
    """The certified enclosure of η_χ²(K) (= η_KL(K)) used by the conjecture search for N ≥ 3: the branch and
    bound's [L, L + SEARCH_WIDTH] within SEARCH_BOXES boxes (N = 3, 4, positive used columns), else the loose
    [best two-input prior's value, η_TV] (``width`` 1: no branch and bound)."""
    from exactdp.limits import ResourceLimitError
    from exactdp.measures.chi2_contraction import eta_chi2  # deferred: start-up

    try:
        return eta_chi2(K, SEARCH_WIDTH, SEARCH_BOXES)
    except ResourceLimitError:
        return eta_chi2(K, 1)


def exact_lower_bound(name: str, K: KernelInput) -> Any:
    """An exact rational lower bound of a quantity that has no exact value at K, or None: for η_χ² = η_KL of a
    kernel with N ≥ 3 inputs, the lower end of its certified enclosure (:func:`chi2_search_enclosure`: an exact
    value at a rational prior, rounded down).  A violation of ``quantity <= bound`` is certified when this
    already exceeds the bound (:func:`exactdp.verification.conjecture.api.recheck`)."""
    if name not in ("eta_chi2", "eta_kl"):
        return None
    return chi2_search_enclosure(K).lower


def eta_chi2_ball(K: KernelInput) -> Any:
    """η_χ²(K) as a ball (the RB route): for two inputs around the exact value; for N ≥ 3 a ball containing the
    certified enclosure of :func:`chi2_search_enclosure`, so a conjecture is refuted only where the lower end
    exceeds its bound, and undecided where the ball straddles it (never proved by sampling)."""
    from flint import arb  # deferred: start-up

    e = chi2_search_enclosure(K)
    return arb(e.lower).union(arb(e.upper))


def _eta_tv_tensor(K: Kernel, n: Any) -> Any:
    from exactdp.measures.contraction import eta_tv  # deferred: start-up

    k = int(rational_argument(n, "eta_tv_tensor(n)"))
    return eta_tv(K.tensor_power(k)) if k > 1 else eta_tv(K)


def _divergence(fname: str) -> Evaluator:
    def evaluate(A: Any, B: Any) -> Any:
        from exactdp.measures import divergences  # deferred: start-up

        return getattr(divergences, fname)(A, B)

    evaluate.__name__ = fname
    return evaluate


def _hs(A: Any, B: Any, gamma: Any) -> Any:
    from exactdp.measures.divergences import hockey_stick  # deferred: start-up

    return hockey_stick(A, B, rational_argument(gamma, "hs(A,B,gamma)"))


_BUILTIN = (
    Quantity("eta_tv", 0, "Dobrushin coefficient max_{x,x'} TV(K_x, K_x')", r"\eta_{\mathrm{TV}}(K)",
             "eta_TV(K)", "eta_tv", _eta_tv, symbolic=_eta_tv),
    Quantity("ldp_eps", 0, "LDP level log max_y max_{x,x'} K(y|x)/K(y|x') (oo with zeros)",
             r"\varepsilon_{\mathrm{LDP}}(K)", "eps_LDP(K)", "ldp", _ldp_eps, symbolic=_ldp_eps),
    Quantity("max_leakage", 0, "maximal leakage log sum_y max_x K(y|x)", r"\mathcal{L}(X \to Y)",
             "L(X -> Y)", "max_leakage", _max_leakage),
    Quantity("eta_hs", 1, "E_gamma contraction coefficient max_{x,x'} E_gamma(K_x||K_x') at gamma = the argument",
             r"\eta_{E_{#1}}(K)", "eta_E_#1(K)", "eta_hockey_stick", _eta_hs),
    Quantity("delta_K", 1, "delta(eps): privacy profile of K, the least delta making K (eps,delta)-LDP",
             r"\delta_K(#1)", "delta(#1)", None, _delta),
    Quantity("pml_eps", 1, "(eps,c)-PML level of K at c = the argument: "
             "log max_y max_x K(y|x)/(c S_y+(1-Nc) min_x K(y|x))", r"\varepsilon_{\mathrm{PML}}(K, #1)",
             "eps_PML(K, #1)", "pml", _pml_eps),
    Quantity("eta_chi2", 0, "chi-square contraction coefficient sup_P eta_chi2(P, K), exact for two-input kernels",
             r"\eta_{\chi^2}(K)", "eta_chi2(K)", None, _eta_chi2, eta_chi2_ball),
    Quantity("eta_kl", 0, "KL contraction coefficient; equals eta_chi2 (operator-convex f, docs/references.md)",
             r"\eta_{\mathrm{KL}}(K)", "eta_KL(K)", None, _eta_chi2, eta_chi2_ball),
    Quantity("eta_tv_tensor", 1, "Dobrushin coefficient of the n-fold product K^{(x)n}, n = the argument (1..4)",
             r"\eta_{\mathrm{TV}}(K^{\otimes #1})", "eta_TV(K^(x)#1)", None, _eta_tv_tensor),
    Quantity("tv", 2, "total variation 1/2 sum |A-B|", r"\mathrm{TV}(#1, #2)", "TV(#1, #2)", None,
             _divergence("tv"), distributions=2),
    Quantity("kl", 2, "KL divergence sum A log(A/B) in nats", r"D_{\mathrm{KL}}(#1 \,\|\, #2)", "KL(#1 || #2)",
             None, _divergence("kl"), distributions=2),
    Quantity("hellinger2", 2, "squared Hellinger sum (sqrt A - sqrt B)^2 (no 1/2)", r"H^2(#1, #2)", "H^2(#1, #2)",
             None, _divergence("hellinger2"), distributions=2),
    Quantity("chi2", 2, "chi-square sum (A-B)^2/B", r"\chi^2(#1 \,\|\, #2)", "chi2(#1 || #2)", None,
             _divergence("chi2"), distributions=2),
    Quantity("hs", 3, "hockey-stick divergence E_gamma(A||B) = sum (A - gamma B)_+, gamma = the third argument",
             r"E_{#3}(#1 \,\|\, #2)", "E_#3(#1 || #2)", None, _hs, distributions=2),
)
for _q in _BUILTIN:
    register_quantity(_q)
#: the names of the built-in quantities (registered when this module is imported)
BUILTIN = frozenset(q.name for q in _BUILTIN)

__all__ = ["BUILTIN", "MAX_ARITY", "RESERVED", "Quantity", "Undefined", "chi2_search_enclosure", "divergences", "eta_chi2_ball", "eta_chi2_two_inputs", "eta_hockey_stick_exact", "exact_lower_bound",
           "kernel_constants", "quantities", "quantity", "rational_argument", "register_quantity",
           "unregister_quantity"]
