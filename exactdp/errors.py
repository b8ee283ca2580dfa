"""The project's exception classes: one hierarchy, three kinds of failure.

::

    ExactDPError (Exception)                 root: ``except ExactDPError`` catches anything exactdp raises
    ├── InputError (ValueError)              bad input: the caller can fix it           CLI exit status 2
    │   ├── CoercionError (TypeError)        not an exact number (a float, NaN, unreadable text...)
    │   │   └── exactdp.numbers.reader.ReadError      text the one safe reader refuses
    │   ├── InvalidKernelError               not a Markov kernel
    │   ├── InvalidDistributionError         not a probability vector
    │   ├── ParameterError                   a parameter outside its domain, an unknown name
    │   ├── ShapeError                       sizes that do not match
    │   └── exactdp.limits.ResourceLimitError          an input beyond a size limit (raise the limit)
    ├── UndecidedError                       a comparison could not be certified      CLI exit status 3
    │   ├── exactdp.algebra.decision.ProverUndecided    the exact prover cannot decide a sign
    │   └── exactdp.numbers.loglin.Undecided   (also an ArithmeticError)
    └── InternalError (RuntimeError)         a broken invariant: a bug, please report    CLI exit status 1

Every bad-input message names the argument, the rule it broke and the offending value, e.g.
``InvalidKernelError: row 2 sums to 5/6, not 1``.  Bad input is still a :class:`ValueError` (so
``except ValueError`` in user code keeps working); an **undecided** answer is deliberately *not* a
``ValueError``: it is neither true, nor false, nor the caller's mistake — more precision (``precision_cap``,
``--max-prec``) may decide it.  An expression with no value at all (the conjecture layer's ``Undefined``,
∞ − ∞, log of a negative number) is a definite answer, not an undecided one, and stays an
:class:`ArithmeticError`.
"""

from __future__ import annotations


class ExactDPError(Exception):
    """Root of every exception exactdp raises on purpose (bad input, undecided, internal)."""


class InputError(ExactDPError, ValueError):
    """Bad input: a value, file, option or size the caller can correct.  The CLI's exit status 2."""


class CoercionError(InputError, TypeError):
    """A value cannot be taken as an exact number (a float, NaN, an unparsable string...)."""


class InvalidKernelError(InputError):
    """A matrix is not a Markov kernel (shape, negative entry, row sum different from 1...)."""


class InvalidDistributionError(InputError):
    """A vector is not a probability distribution."""


class ParameterError(InputError):
    """A parameter lies outside its domain (c outside (0, 1/N], delta outside [0, 1], an unknown name...)."""


class ShapeError(InputError):
    """Objects whose sizes do not match (a kernel applied to a distribution of the wrong length...)."""


class UndecidedError(ExactDPError):
    """A comparison could not be certified (at the precision cap, or by the exact prover).

    Raised when an undecided truth value is used as a bool, or a sign is needed and not certified.  Not a
    ``ValueError``: an undecided comparison is never reported as true, false, or bad input.  The CLI's exit
    status 3 (raise the cap with ``--max-prec`` / :func:`exactdp.precision_cap`).
    """


class InternalError(ExactDPError, RuntimeError):
    """A broken internal invariant (a bug, not the caller's input).  The CLI's exit status 1.

    Also a ``RuntimeError``, which such checks raised before."""
