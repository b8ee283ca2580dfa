r"""Certified high precision: transcendental quantities and the edge cases floats get wrong.

Everything here encloses exact values in python-flint ``arb`` balls at a scoped working precision
(:mod:`exactdp.numbers.rb`) and decides comparisons three-valued, with exact tie-breaks
(:mod:`exactdp.numbers.exact_zero`).

Public API (see the module docstrings):

* :class:`RB` — a certified real; ``RB(sympy.log(3)).ball(200)``, ``RB(x) < RB(y)`` → Truth.
* :func:`evalf` — ``evalf(x, digits=30)``: a decimal string whose printed digits are guaranteed.
* :func:`certified_compare` / :func:`certified_sign` — decisions for checkers and proofs;
  :func:`evaluate_at` — a symbolic bound at exact parameter values, as an RB.
* :func:`certified_bracket` — a certified bracket of a sign change (crossovers such as F-A3).
* :func:`precision_cap` — ``with precision_cap(bits): ...`` scopes the cap (default 8192 bits).
* :func:`eta_hockey_stick_certified`, :func:`is_ldp_certified` — η_{E_γ} and (ε,δ)-LDP for irrational γ
  (called by ``exactdp.eta_hockey_stick`` / ``exactdp.is_ldp``).
* Stable evaluators returning RB: :func:`exp_eps`, :func:`phi`, :func:`phi_n`, :func:`phi_n_complement`, :func:`xi`,
  :func:`tight_ldp_eta`; decisions :func:`xi_regime`; exact :func:`xi_threshold`.
"""

from exactdp.certified.compare import (
    as_rb,
    certified_compare,
    certified_difference_sign,
    certified_sign,
    evaluate_at,
)
from exactdp.measures.irrational_gamma import eta_hockey_stick_certified, is_ldp_certified
from exactdp.certified.roots import Bracket, certified_bracket
from exactdp.certified.stable import (
    exp_eps,
    phi,
    phi_n,
    phi_n_complement,
    tight_ldp_eta,
    xi,
    xi_regime,
    xi_threshold,
)
from exactdp.numbers.digits import evalf
from exactdp.numbers.rb import DEFAULT_MAX_PREC, RB, SignResult, current_cap, precision_cap

__all__ = [
    "DEFAULT_MAX_PREC",
    "RB",
    "Bracket",
    "SignResult",
    "as_rb",
    "certified_bracket",
    "certified_compare",
    "certified_difference_sign",
    "certified_sign",
    "current_cap",
    "eta_hockey_stick_certified",
    "evalf",
    "evaluate_at",
    "exp_eps",
    "is_ldp_certified",
    "phi",
    "phi_n",
    "phi_n_complement",
    "precision_cap",
    "tight_ldp_eta",
    "xi",
    "xi_regime",
    "xi_threshold",
]
