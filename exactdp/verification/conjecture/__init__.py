"""Conjecture checking: an exact counterexample search for a user's own inequality.

``check("eta_tv <= (exp(eps)-1)/(exp(eps)+1)", "ldp")`` — see :mod:`.api` for the verdicts,
:mod:`.parser` for the language, :mod:`.classes` for what the classes and parameters mean,
:mod:`.search` and :mod:`.runner` for the deterministic (local or Dask) search.
"""

from exactdp.verification.conjecture.api import CheckResult, check, format_result, recheck
from exactdp.verification.conjecture.parser import Conjecture, ConjectureSyntaxError, parse_conjecture

__all__ = ["CheckResult", "Conjecture", "ConjectureSyntaxError", "check", "format_result", "parse_conjecture",
           "recheck"]
