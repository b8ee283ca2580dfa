"""exactdp — exact verification of theorems about privacy mechanisms.

Exact rationals (python-flint ``fmpq``), sympy expressions and certified balls; see README.md.
"""

from exactdp.distributions import Distribution
from exactdp.errors import (
    CoercionError,
    ExactDPError,
    InputError,
    InternalError,
    InvalidDistributionError,
    InvalidKernelError,
    ParameterError,
    ShapeError,
    UndecidedError,
)
from exactdp.kernels import Kernel
from exactdp.measures.contraction import (
    eta_hockey_stick,
    eta_hockey_stick_witness,
    eta_tv,
    eta_tv_witness,
)
from exactdp.measures.divergences import chi2, f_divergence, hellinger2, hockey_stick, kl, tv
from exactdp.measures.privacy import (
    Leakage,
    PrivacyProfile,
    is_ldp,
    ldp_epsilon,
    ldp_ratio,
    ldp_ratio_witness,
    max_leakage,
    max_leakage_ratio,
    pml,
    pml_epsilon,
    pml_ratio,
    pml_ratio_witness,
    privacy_profile,
)
from exactdp.theory.extremal import gamma_max, gamma_min, sup_eta_hockey_stick, sup_eta_tv  # issue 6
from exactdp.numbers import QQ, Sign, Truth, from_float, to_qq
# -- n-fold products (issue 7, tensor) --
from exactdp.measures.tensor import (
    delta_tensor_power,
    delta_tensor_power_eps,
    eta_hockey_stick_tensor_power,
    eta_hockey_stick_tensor_product,
    eta_tv_tensor_power,
    hockey_stick_product,
    privacy_profile_tensor_power,
)
from exactdp import mechanisms

# -- certified high precision (issue 5) --
from exactdp.measures.divergences import renyi
from exactdp.numbers.digits import evalf
from exactdp.numbers.rb import RB, precision_cap
from exactdp.certified import certified_compare, certified_sign

# -- conjecture checking (issue 9) --
from exactdp.verification.conjecture import check  # noqa: E402

__version__ = "0.1.0"

__all__ = [
    "gamma_max", "gamma_min", "sup_eta_hockey_stick", "sup_eta_tv",  # extremal mechanisms (issue 6)
    "QQ", "CoercionError", "Distribution", "ExactDPError", "InvalidDistributionError", "InvalidKernelError",
    "InputError", "InternalError",
    "Kernel", "Leakage", "ParameterError", "PrivacyProfile", "ShapeError", "Sign", "Truth", "UndecidedError",
    "chi2", "eta_hockey_stick", "eta_hockey_stick_witness", "eta_tv", "eta_tv_witness", "f_divergence",
    "from_float", "hellinger2", "hockey_stick", "is_ldp", "kl", "ldp_epsilon", "ldp_ratio", "ldp_ratio_witness",
    "max_leakage", "max_leakage_ratio", "mechanisms", "pml", "pml_epsilon", "pml_ratio", "pml_ratio_witness",
    "privacy_profile", "to_qq", "tv",
    # certified high precision (issue 5)
    "RB", "certified_compare", "certified_sign", "evalf", "precision_cap", "renyi",
]
__all__ += [  # n-fold products (issue 7, tensor)
    "delta_tensor_power", "delta_tensor_power_eps", "eta_hockey_stick_tensor_power",
    "eta_hockey_stick_tensor_product", "eta_tv_tensor_power", "hockey_stick_product", "privacy_profile_tensor_power",
]
__all__ += ["check"]
