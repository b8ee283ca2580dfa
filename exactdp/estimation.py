"""``exactdp.estimation``: the private estimation and testing bounds (an alias of
:mod:`exactdp.theory.estimation`, under its older name), plus the Bernoulli example and discrete Bayes problems."""

from exactdp.theory.bernoulli import (
    bernoulli_e_gamma_information,
    bernoulli_e_gamma_information_rb,
    bernoulli_mutual_information,
)
from exactdp.theory.discrete_bayes import (
    DiscreteBayesProblem,
    discrete_thm2_bound,
    discrete_xu_raginsky_bound,
)
from exactdp.theory.estimation import *
from exactdp.theory.estimation import __all__ as _all

__all__ = [*_all,  # noqa: PLE0604
           "bernoulli_e_gamma_information", "bernoulli_e_gamma_information_rb", "bernoulli_mutual_information",
           "DiscreteBayesProblem", "discrete_thm2_bound", "discrete_xu_raginsky_bound"]
