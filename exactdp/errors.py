"""The project's exception classes.

Every message names the argument, the rule it broke and the offending value, e.g.
``InvalidKernelError: row 2 sums to 5/6, not 1``.  All derive from :class:`ExactDPError`
(itself a :class:`ValueError`), so the command line can turn any of them into one line
and exit status 2.
"""

from __future__ import annotations


class ExactDPError(ValueError):
    """Base class of every error exactdp raises on bad input."""


class CoercionError(ExactDPError, TypeError):
    """A value cannot be taken as an exact number (a float, NaN, an unparsable string...)."""


class InvalidKernelError(ExactDPError):
    """A matrix is not a Markov kernel (shape, negative entry, row sum different from 1...)."""


class InvalidDistributionError(ExactDPError):
    """A vector is not a probability distribution."""


class ParameterError(ExactDPError):
    """A parameter lies outside its domain (c outside (0, 1/N], delta outside [0, 1], ...)."""


class ShapeError(ExactDPError):
    """Objects whose sizes do not match (a kernel applied to a distribution of the wrong length...)."""


class UndecidedError(ExactDPError):
    """A comparison could not be certified; raised when an undecided truth value is used as a bool."""
