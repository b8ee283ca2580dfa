r"""Parametric (symbolic) kernels: validity regions and closed forms derived exactly.

The public measure functions (``eta_tv``, ``eta_hockey_stick``, ``ldp_ratio``, ``pml_ratio``,
``privacy_profile``, ``tv``/``hockey_stick`` between rows) dispatch here for kernels with sympy
entries; this package is not a separate API.  Regions: :func:`declare_region`, :func:`assuming`,
:func:`validity_region`.  Derivations (for LaTeX): :class:`Derivation`.
"""

from exactdp.symbolic.closedforms import (
    Derivation,
    SymbolicPrivacyProfile,
    hockey_stick_rows,
    positive_part,
    symbolic_max,
)
from exactdp.symbolic.families import SymmetricFamily, randomized_response_family, unary_encoding_family
from exactdp.symbolic.region import (
    Validity,
    assuming,
    base_region,
    declare_region,
    declared_conditions,
    kernel_region,
    validity_region,
)

__all__ = [
    "Derivation",
    "SymbolicPrivacyProfile",
    "SymmetricFamily",
    "Validity",
    "assuming",
    "base_region",
    "declare_region",
    "declared_conditions",
    "hockey_stick_rows",
    "kernel_region",
    "positive_part",
    "randomized_response_family",
    "symbolic_max",
    "unary_encoding_family",
    "validity_region",
]
