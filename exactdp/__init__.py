"""exactdp — exact verification of theorems about privacy mechanisms.

Exact rationals (python-flint ``fmpq``), sympy expressions and certified balls; see README.md.

The public names below are imported lazily (PEP 562): ``import exactdp`` loads no
sympy, numpy, prover or plotting code; the first use of a name imports the module that defines it
(``exactdp.Kernel`` → :mod:`exactdp.kernels`), once.  ``from exactdp import X`` works as usual.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# Exact results may have many digits (kl at P(y) = 1/10^5000 holds a 5001-digit integer): Python's
# 4300-digit int/str guard would make printing such a result, or an error message quoting a huge input,
# raise a ValueError.  The sizes exactdp builds are bounded by exactdp.limits instead (max_integer_digits,
# max_digits), so the guard is lifted when the package is imported, as the command line does.
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)

#: public name → the module that defines it (the layer rules of pyproject.toml apply to those modules)
_LAZY: dict[str, str] = {}


def _export(module: str, *names: str) -> None:
    for name in names:
        _LAZY[name] = module


_export("exactdp.distributions", "Distribution")
_export("exactdp.errors", "CoercionError", "ExactDPError", "InputError", "InternalError",
        "InvalidDistributionError", "InvalidKernelError", "ParameterError", "ShapeError", "UndecidedError")
_export("exactdp.kernels", "Kernel")
_export("exactdp.measures.chi2_contraction", "eta_chi2", "eta_chi2_prior", "eta_hellinger2", "eta_kl")
_export("exactdp.measures.contraction", "eta_hockey_stick", "eta_hockey_stick_witness", "eta_tv", "eta_tv_witness")
_export("exactdp.measures.divergences", "chi2", "f_divergence", "hellinger2", "hockey_stick", "kl", "tv", "renyi")
_export("exactdp.measures.privacy", "Leakage", "PrivacyProfile", "is_ldp", "ldp_epsilon", "ldp_ratio",
        "ldp_ratio_witness", "max_leakage", "max_leakage_ratio", "pml", "pml_epsilon", "pml_ratio",
        "pml_ratio_witness", "privacy_profile")
# the registry of quantities (what check, analyze, derive and latex know by name)
_export("exactdp.measures.registry", "Quantity", "quantities", "register_quantity", "unregister_quantity")
_export("exactdp.theory.extremal", "gamma_max", "gamma_min", "sup_eta_hockey_stick", "sup_eta_tv")
_export("exactdp.numbers", "Sign", "Truth", "from_float", "to_qq")
_export("exactdp.numbers.domain", "QQ")  # the exact rational domain (its elements are flint fmpq)
# n-fold products (tensor; inversion of the privacy profile)
_export("exactdp.measures.tensor", "delta_tensor_power", "delta_tensor_power_batch", "delta_tensor_power_eps",
        "eta_hockey_stick_tensor_power",
        "eta_hockey_stick_tensor_product", "eta_tv_tensor_power", "hockey_stick_product",
        "privacy_profile_tensor_power")
_export("exactdp.measures.profile_inversion", "epsilon_tensor_power")
# certified high precision
_export("exactdp.numbers.digits", "evalf")
_export("exactdp.numbers.rb", "RB", "precision_cap")
_export("exactdp.certified", "certified_compare", "certified_sign")
# conjecture checking
_export("exactdp.verification.conjecture", "check")
# the claims of both papers checked from Python (exactdp verify)
_export("exactdp.verification.results", "VerifyResult", "verify")
# LaTeX to paste: any closed form, Bound, Kernel, verdict, profile, extremal result
_export("exactdp.output.latex", "latex")

#: submodules reachable as attributes (``exactdp.mechanisms.randomized_response``)
_SUBMODULES = ("mechanisms",)

__all__ = sorted(_LAZY) + list(_SUBMODULES)


def __getattr__(name: str) -> Any:
    """Import the defining module of a public name on first use (PEP 562) and cache the value."""
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
    elif name in _SUBMODULES or (not name.startswith("__") and importlib.util.find_spec(f"exactdp.{name}")):
        value = importlib.import_module(f"exactdp.{name}")  # any submodule, as after the former eager imports
    else:
        raise AttributeError(f"module 'exactdp' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # static checkers and IDEs see the eager imports
    from exactdp import mechanisms  # noqa: F401
    from exactdp.certified import certified_compare, certified_sign  # noqa: F401
    from exactdp.distributions import Distribution  # noqa: F401
    from exactdp.errors import (  # noqa: F401
        CoercionError, ExactDPError, InputError, InternalError, InvalidDistributionError, InvalidKernelError,
        ParameterError, ShapeError, UndecidedError,
    )
    from exactdp.kernels import Kernel  # noqa: F401
    from exactdp.measures.chi2_contraction import eta_chi2, eta_chi2_prior, eta_hellinger2, eta_kl  # noqa: F401
    from exactdp.measures.contraction import eta_hockey_stick, eta_hockey_stick_witness, eta_tv, eta_tv_witness  # noqa: F401
    from exactdp.measures.divergences import chi2, f_divergence, hellinger2, hockey_stick, kl, renyi, tv  # noqa: F401
    from exactdp.measures.privacy import (  # noqa: F401
        Leakage, PrivacyProfile, is_ldp, ldp_epsilon, ldp_ratio, ldp_ratio_witness, max_leakage,
        max_leakage_ratio, pml, pml_epsilon, pml_ratio, pml_ratio_witness, privacy_profile,
    )
    from exactdp.measures.tensor import (  # noqa: F401
        delta_tensor_power, delta_tensor_power_batch, delta_tensor_power_eps, eta_hockey_stick_tensor_power,
        eta_hockey_stick_tensor_product, eta_tv_tensor_power, hockey_stick_product, privacy_profile_tensor_power,
    )
    from exactdp.measures.profile_inversion import epsilon_tensor_power  # noqa: F401
    from exactdp.measures.registry import Quantity, quantities, register_quantity, unregister_quantity  # noqa: F401
    from exactdp.numbers import Sign, Truth, from_float, to_qq  # noqa: F401
    from exactdp.numbers.domain import QQ  # noqa: F401
    from exactdp.numbers.digits import evalf  # noqa: F401
    from exactdp.numbers.rb import RB, precision_cap  # noqa: F401
    from exactdp.theory.extremal import gamma_max, gamma_min, sup_eta_hockey_stick, sup_eta_tv  # noqa: F401
    from exactdp.verification.conjecture import check  # noqa: F401
    from exactdp.verification.results import VerifyResult, verify  # noqa: F401
