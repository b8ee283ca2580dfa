"""Shared validation of exact probability vectors (rows of kernels, distributions).

One implementation, used by :mod:`exactdp.kernels` and :mod:`exactdp.distributions`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flint import fmpq, fmpq_mat

from exactdp.errors import CoercionError
from exactdp.numbers.qq import ONE, SIMPLE_RATIONAL, ZERO, simple_string_limit
from exactdp.numbers.sr import to_exact

if TYPE_CHECKING:
    import sympy
else:
    from exactdp.numbers.deferred import sympy  # deferred: start-up

from exactdp.numbers.deferred import is_sympy


def as_sequence(obj: object, what: str, error: type[Exception], allow_float: bool = False) -> list[Any]:
    """A list from a list/tuple/numpy array, a pandas frame or series (through ``to_numpy()``) or a sympy
    matrix (its rows); refuse float dtypes at once (unless ``allow_float``, used only by the explicit
    ``from_floats`` constructors)."""
    if is_sympy(obj, "MatrixBase"):
        return obj.tolist()
    frame = hasattr(obj, "to_numpy") and hasattr(obj, "dtypes" if hasattr(obj, "columns") else "dtype")
    try:
        import numpy as np

        if frame:
            arr = obj.to_numpy()  # type: ignore[attr-defined]
            if arr.dtype.kind in "fc" and not allow_float:
                raise CoercionError(
                    f"{what}: a pandas frame of floats is not exact; read the file with dtype=str "
                    f"(pandas.read_csv(..., dtype=str)) or use Kernel.from_floats(frame, digits=...)"
                )
            obj = arr
        if isinstance(obj, np.ndarray):
            if (obj.dtype.kind == "f" or obj.dtype.kind == "c") and not allow_float:
                raise CoercionError(
                    f"{what}: a float numpy array ({obj.dtype}) is not exact; use an integer or object "
                    f"array of Fractions/strings, or Kernel.from_floats / Distribution.from_floats"
                )
            return obj.tolist()
    except ImportError:  # pragma: no cover
        pass
    if isinstance(obj, (str, bytes)) or not hasattr(obj, "__iter__"):
        raise error(f"{what}: expected a sequence, got {type(obj).__name__} {obj!r}")
    return list(obj)


def exact_vector(values, what: str, error, entry: str | None = None, *, check: bool = True) -> tuple[tuple, bool]:
    """Coerce a probability vector; check entries in [0,1] (when decidable) and the sum is 1.

    Returns ``(entries, symbolic)``.  ``what`` names the vector in messages ("row 2", "P") and
    ``entry`` its entries (default ``what``): entry k is called ``f"{entry}[{k}]"``.  With
    ``check=False`` only the coercion is done (kernels validate rational rows in integer form).
    """
    entry = entry or what
    seq = as_sequence(values, what, error)
    if not seq:
        raise error(f"{what}: must be non-empty")
    entries: list[Any] = []  # fmpq, then sympy expressions when symbolic
    symbolic = False
    # the cold path of every kernel file: "p", "-p", "p/q" strings within the size limits
    # (read once per vector, not once per entry) and ints go straight to flint; everything else — decimals,
    # arithmetic, oversized or malformed text, sympy values — through to_exact, which names the entry
    short = simple_string_limit()
    if all(type(v) is fmpq for v in seq):  # already exact (the library's own vectors): nothing to read
        entries, seq = list(seq), []
    for k, v in enumerate(seq):
        t = type(v)
        if t is fmpq:
            entries.append(v)
            continue
        if t is str and len(v) <= short and SIMPLE_RATIONAL.fullmatch(v) and not v.endswith("/0"):
            entries.append(fmpq(v))
            continue
        if t is int:
            entries.append(fmpq(v))
            continue
        x, sym = to_exact(v, f"{entry}[{k}]")
        symbolic |= sym
        entries.append(x)
    if not check and not symbolic:
        return tuple(entries), False
    if symbolic:
        entries = [sympy.Rational(int(e.p), int(e.q)) if isinstance(e, fmpq) else e for e in entries]
        for k, e in enumerate(entries):
            if e.is_negative or (e - 1).is_positive:
                raise error(f"{entry}[{k}]: entries must lie in [0, 1], got {e}")
        total = sympy.simplify(sympy.Add(*entries) - 1)
        if total != 0:
            raise error(f"{what} sums to {sympy.simplify(sympy.Add(*entries))}, not 1 identically")
        return tuple(entries), True
    if len(entries) > 16:  # numerators over the common denominator, in C: 0 ≤ A ≤ d, ΣA = d
        num, den = fmpq_mat(1, len(entries), entries).numer_denom()
        nums = num.entries()
        if min(nums) >= 0 and max(nums) <= den and sum(nums) == den:
            return tuple(entries), False
    for k, e in enumerate(entries):
        if e < ZERO or e > ONE:
            raise error(f"{entry}[{k}]: entries must lie in [0, 1], got {e}")
    total = sum(entries, ZERO)
    if total != ONE:
        raise error(f"{what} sums to {total}, not 1")
    return tuple(entries), False
