r"""Float probability vectors made exact: each value's binary value, renormalised, rounded onto a grid.

A row of doubles from a softmax or a CSV rarely sums to exactly 1 in binary.  :func:`round_to_simplex`
turns it into exact rationals that do: with ``x_k`` the exact binary values of the doubles, ``s = Σ x_k`` and
``y_k = x_k / s`` (the renormalised row, exact), every ``y_k · D`` is rounded down and the remaining
``D − Σ ⌊y_k D⌋`` units go to the entries with the largest remainders (the first index wins a tie), so

* the result is ``(a_k / D)`` with integers ``a_k ≥ 0`` and ``Σ a_k = D`` exactly,
* ``|a_k / D − y_k| < 1/D`` for every ``k`` (largest-remainder rounding), and
* an entry that is exactly 0 stays 0 (the remainders to be distributed, ``Σ r_k``, are fewer than the
  non-zero remainders), so the support — and with it every zero-entry property — is kept.

This is the one documented conversion of float rows; it is reached through ``Kernel.from_floats(...,
denominator=D)`` / ``digits=d`` and ``Distribution.from_floats``.  Without a grid the doubles' exact binary
values are kept and must sum to 1 exactly.
"""

from __future__ import annotations

from typing import Any

from flint import fmpq, fmpz

from exactdp.errors import ParameterError

#: the largest grid accepted (``denominator`` ≤ 10**MAX_DIGITS); finer grids than a double's 53 bits add
#: nothing but size
MAX_DIGITS = 60


def grid_denominator(denominator: Any = None, digits: Any = None) -> int | None:
    """The grid ``D`` from ``denominator=D`` or ``digits=d`` (``D = 10**d``), validated; None for neither."""
    if denominator is not None and digits is not None:
        raise ParameterError("from_floats: give denominator or digits, not both")
    if digits is not None:
        if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= MAX_DIGITS:
            raise ParameterError(f"digits: must be an integer in [1, {MAX_DIGITS}], got {digits!r}")
        return int(10 ** digits)
    if denominator is not None:
        if isinstance(denominator, bool) or not isinstance(denominator, int) \
                or not 1 <= denominator <= 10 ** MAX_DIGITS:
            raise ParameterError(f"denominator: must be an integer in [1, 10^{MAX_DIGITS}], got {denominator!r}")
        return denominator
    return None


def round_to_simplex(values: list[fmpq], D: int, what: str = "row") -> list[fmpq]:
    """``values`` (exact, ≥ 0, not all 0) renormalised and rounded to multiples of ``1/D`` summing to 1.

    Largest-remainder rounding of ``values[k] / Σ values`` (module docstring): each entry moves by less
    than ``1/D`` from the renormalised value, zeros stay zero, the sum is exactly 1.
    """
    for k, v in enumerate(values):
        if v < 0:
            raise ParameterError(f"{what}[{k}]: a probability must be >= 0, got {v}")
    s = sum(values, fmpq(0))
    if s == 0:
        raise ParameterError(f"{what}: all entries are 0; a probability row needs a positive sum")
    scaled = [v * D / s for v in values]
    floors = [int(fmpz(x.p) // fmpz(x.q)) for x in scaled]
    remainders = [x - f for x, f in zip(scaled, floors)]
    deficit = D - sum(floors)
    # the `deficit` largest remainders get one unit each; sorted by (-remainder, index): first index wins ties
    for k in sorted(range(len(values)), key=lambda k: (-remainders[k], k))[:deficit]:
        floors[k] += 1
    return [fmpq(a, D) for a in floors]
