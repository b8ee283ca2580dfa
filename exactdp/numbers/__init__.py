"""The number layer: QQ (exact rationals on fmpq), SR (sympy), RB (certified balls), Truth.

The domains themselves (``QQ``, ``RB``, ``SR``) live in :mod:`exactdp.numbers.domain`; ``exactdp.QQ`` is the
domain QQ, whose elements are python-flint ``fmpq``."""

from exactdp.numbers.qq import from_float, qq_str, qq_to_sympy, to_qq
from exactdp.numbers.sr import as_sympy, to_exact, to_sr
from exactdp.numbers.truth import Sign, Truth

__all__ = ["Sign", "Truth", "as_sympy", "from_float", "qq_str", "qq_to_sympy", "to_exact", "to_qq", "to_sr"]
