"""The number layer: QQ (exact rationals on fmpq), SR (sympy), RB (certified balls), Truth."""

from exactdp.numbers.qq import QQ, from_float, qq_str, qq_to_sympy, to_qq
from exactdp.numbers.sr import as_sympy, to_exact, to_sr
from exactdp.numbers.truth import Sign, Truth

__all__ = ["QQ", "Sign", "Truth", "as_sympy", "from_float", "qq_str", "qq_to_sympy", "to_exact", "to_qq", "to_sr"]
