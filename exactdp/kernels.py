r"""Markov kernels K[x][y] = P(Y=y | X=x): N inputs × M outputs, exact and immutable ([G] §II, D-1).

A :class:`Kernel` is validated once at construction: rectangular, non-empty, every entry in [0, 1],
every row summing to exactly 1 (identically, for symbolic entries).  Entries are ``fmpq`` (domain
``"QQ"``) or exact sympy expressions (domain ``"SR"``, parametric kernels).  Floats are refused; an
explicit :meth:`Kernel.from_floats` converts each double to its exact binary value.
"""

from __future__ import annotations

import sympy
from flint import fmpq, fmpq_mat

from exactdp._vectors import as_sequence, exact_vector
from exactdp.distributions import Distribution, as_distribution
from exactdp.errors import InvalidKernelError, ParameterError, ShapeError
from exactdp.limits import require
from exactdp.numbers.qq import ONE, ZERO, from_float
from exactdp.numbers.sr import as_sympy


#: up to this many entries a kernel is validated with fmpq arithmetic and gets its integer form lazily;
#: larger ones are validated in integer form (vectorized), which also caches that form
SMALL_KERNEL = 64


class Kernel:
    """An immutable row-stochastic matrix.

    Args:
        rows: a sequence of N rows of M exact entries (ints, Fractions, fmpq, sympy Rationals or
            expressions, strings ``"3/7"`` / ``"0.25"``), or an integer/object numpy array.
        name: optional label used in reports.

    Raises:
        InvalidKernelError: empty, ragged, an entry outside [0, 1], a row not summing to 1.
        CoercionError: a float, NaN or unreadable entry (the message names the entry).

    >>> K = Kernel([["3/4", "1/4"], ["1/4", "3/4"]])
    >>> K.N, K.M, K[0, 1]
    (2, 2, 1/4)
    """

    # _assumptions: parameter hypotheses of a parametric kernel, set by exactdp.symbolic.declare_region
    __slots__ = ("_rows", "_symbolic", "name", "_int_rows", "_hash", "_assumptions")

    def __init__(self, rows, *, name: str | None = None):
        if isinstance(rows, Kernel):
            self._rows, self._symbolic = rows._rows, rows._symbolic
        else:
            seq = as_sequence(rows, "K", InvalidKernelError)
            if not seq:
                raise InvalidKernelError("K: must have at least one row")
            parsed, symbolic = [], False
            width = None
            for x, row in enumerate(seq):
                row_seq = as_sequence(row, f"row {x}", InvalidKernelError)
                if width is None:
                    width = len(row_seq)
                    _require_entries(len(seq), width, "K")
                elif len(row_seq) != width:
                    raise InvalidKernelError(
                        f"K: rows must all have the same length; row 0 has {width}, row {x} has {len(row_seq)}"
                    )
                entries, sym = exact_vector(row_seq, f"row {x}", InvalidKernelError, entry=f"K[{x}]",
                                            check=len(seq) * width <= SMALL_KERNEL)
                parsed.append(entries)
                symbolic |= sym
            int_rows = None
            if symbolic:
                for x, r in enumerate(parsed):  # [0, 1] where decidable, sum identically 1
                    exact_vector(r, f"row {x}", InvalidKernelError, entry=f"K[{x}]")
                parsed = [tuple(as_sympy(v) for v in r) for r in parsed]
            elif len(parsed) * width > SMALL_KERNEL:  # (small ones were checked entry by entry above)
                int_rows = _validated_int_rows(parsed)
            self._rows, self._symbolic = tuple(parsed), symbolic
        self.name = name
        self._int_rows = rows._int_rows if isinstance(rows, Kernel) else int_rows
        self._hash = None

    # -- construction -----------------------------------------------------------------------------
    @classmethod
    def _trusted(cls, rows, symbolic: bool = False, name: str | None = None) -> "Kernel":
        obj = cls.__new__(cls)
        obj._rows, obj._symbolic, obj.name = tuple(tuple(r) for r in rows), symbolic, name
        obj._int_rows, obj._hash = None, None
        return obj

    @classmethod
    def from_floats(cls, rows, *, name: str | None = None) -> "Kernel":
        """Convert each double to its exact binary value, then validate exactly.

        Rows of doubles rarely sum to exactly 1 in binary; such a kernel is rejected, as it should be.
        """
        seq = as_sequence(rows, "K", InvalidKernelError, allow_float=True)
        return cls([[from_float(v, f"K[{x}][{k}]")
                     for k, v in enumerate(as_sequence(r, f"row {x}", InvalidKernelError, allow_float=True))]
                    for x, r in enumerate(seq)], name=name)

    @classmethod
    def identity(cls, n: int) -> "Kernel":
        _check_size(n, "N")
        _require_entries(n, n, "Kernel.identity(N)")
        return cls._trusted([[ONE if i == j else ZERO for j in range(n)] for i in range(n)], name=f"I_{n}")

    # -- shape and entries --------------------------------------------------------------------------
    @property
    def N(self) -> int:
        """Number of inputs (rows)."""
        return len(self._rows)

    @property
    def M(self) -> int:
        """Number of outputs (columns)."""
        return len(self._rows[0])

    @property
    def shape(self) -> tuple[int, int]:
        return self.N, self.M

    @property
    def rows(self) -> tuple[tuple, ...]:
        return self._rows

    @property
    def symbolic(self) -> bool:
        """True for a parametric / irrational kernel (domain SR)."""
        return self._symbolic

    @property
    def domain(self) -> str:
        return "SR" if self._symbolic else "QQ"

    @property
    def free_symbols(self) -> set:
        if not self._symbolic:
            return set()
        return set().union(*(e.free_symbols for r in self._rows for e in r))

    def column(self, y: int) -> tuple:
        return tuple(r[y] for r in self._rows)

    def row(self, x: int) -> Distribution:
        return Distribution._trusted(self._rows[x], self._symbolic)

    def __getitem__(self, idx):
        if isinstance(idx, tuple):
            x, y = idx
            return self._rows[x][y]
        return self._rows[idx]

    def __iter__(self):
        return iter(self._rows)

    def __len__(self) -> int:
        return self.N

    def int_rows(self):
        """The integer-numerator / per-row-denominator form used by vectorized exact code (QQ only)."""
        if self._symbolic:
            raise TypeError("int_rows is only defined for rational (QQ) kernels")
        if self._int_rows is None:
            from exactdp.numbers.linalg import IntRows

            self._int_rows = IntRows.from_fmpq_rows(self._rows)
        return self._int_rows

    # -- algebra ------------------------------------------------------------------------------------
    def apply(self, P) -> Distribution:
        """The output distribution (K∘P)(y) = Σ_x P(x) K(y|x).

        >>> Kernel([["3/4", "1/4"], ["1/4", "3/4"]]).apply(["1/3", "2/3"]).probs
        (5/12, 7/12)
        """
        P = as_distribution(P)
        if len(P) != self.N:
            raise ShapeError(f"P: has {len(P)} entries, the kernel has N = {self.N} inputs")
        symbolic = self._symbolic or P.symbolic
        if symbolic:
            out = [sympy.simplify(sum(as_sympy(P[x]) * as_sympy(self._rows[x][y]) for x in range(self.N)))
                   for y in range(self.M)]
        else:
            out = _fmpq_rows(fmpq_mat(1, self.N, list(P.probs)) * fmpq_mat(self._rows), self.M)[0]
        return Distribution._trusted(tuple(out), symbolic)

    def __matmul__(self, other: "Kernel") -> "Kernel":
        """Composition (K @ L)[x][z] = Σ_y K[x][y] L[y][z]: first K, then L (post-processing).

        >>> (Kernel([["3/4", "1/4"], ["1/4", "3/4"]]) @ Kernel([["1", "0"], ["1/2", "1/2"]])).rows
        ((7/8, 1/8), (5/8, 3/8))
        """
        if not isinstance(other, Kernel):
            return NotImplemented
        if self.M != other.N:
            raise ShapeError(f"K @ L: K has M = {self.M} outputs but L has N = {other.N} inputs")
        symbolic = self._symbolic or other._symbolic
        if not symbolic:  # exact rational matrix product in flint (C), the same values
            return Kernel._trusted(_fmpq_rows(fmpq_mat(self._rows) * fmpq_mat(other._rows), other.M))
        rows = [[sympy.simplify(sympy.Add(*[as_sympy(v) * as_sympy(other._rows[y][z])
                                             for y, v in enumerate(r) if v != 0]))
                 for z in range(other.M)] for r in self._rows]
        return Kernel._trusted(rows, True)

    def tensor(self, other: "Kernel") -> "Kernel":
        """The product kernel (K ⊗ L)[(x,x')][(y,y')] = K[x][y] L[x'][y'] (rows are Kronecker products).

        Inputs and outputs are ordered lexicographically: index x*L.N + x'.

        >>> Kernel([["1/2", "1/2"], ["1", "0"]]).tensor(Kernel([["1/3", "2/3"]])).rows[1]
        (1/3, 2/3, 0, 0)
        """
        if not isinstance(other, Kernel):
            raise TypeError(f"tensor: expected a Kernel, got {type(other).__name__}")
        _require_entries(self.N * other.N, self.M * other.M, "K.tensor(L)")
        symbolic = self._symbolic or other._symbolic
        mul = (lambda a, b: sympy.expand(as_sympy(a) * as_sympy(b))) if symbolic else (lambda a, b: a * b)
        rows = [[mul(a, b) for a in r for b in s] for r in self._rows for s in other._rows]
        return Kernel._trusted(rows, symbolic)

    def tensor_power(self, n: int) -> "Kernel":
        """K^{⊗n}, built explicitly (N^n rows, M^n columns): for small n only.

        Refused up front (:class:`~exactdp.limits.ResourceLimitError`) when (N·M)^n exceeds ``max_entries``;
        :func:`exactdp.measures.tensor.eta_hockey_stick_tensor_power` computes η of K^{⊗n} without building it.
        """
        _check_size(n, "n")
        _require_entries(_capped_power(self.N, n), _capped_power(self.M, n), f"K.tensor_power({n})",
                         f"{self.N}^{n} x {self.M}^{n}")
        out = self
        for _ in range(n - 1):
            out = out.tensor(self)
        return out

    # -- conversions ----------------------------------------------------------------------------------
    def to_sympy(self) -> sympy.Matrix:
        return sympy.Matrix([[as_sympy(v) for v in r] for r in self._rows])

    def as_strings(self) -> list[list[str]]:
        return [[str(v) for v in r] for r in self._rows]

    def subs(self, values: dict) -> "Kernel":
        """Substitute parameter values (exact) into a parametric kernel and re-validate."""
        if not self._symbolic:
            return self
        from exactdp.numbers.sr import to_sr

        exact = {k: to_sr(v, str(k)) for k, v in values.items()}
        return Kernel([[sympy.simplify(e.subs(exact))
                        for e in r] for r in self._rows], name=self.name)

    def __eq__(self, other) -> bool:
        return isinstance(other, Kernel) and self._rows == other._rows

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(tuple(str(v) for v in r) for r in self._rows))
        return self._hash

    def __repr__(self) -> str:
        body = ", ".join("[" + ", ".join(f"'{v}'" for v in r) + "]" for r in self._rows)
        return f"Kernel([{body}])"

    def __str__(self) -> str:
        cells = self.as_strings()
        width = max(len(c) for r in cells for c in r)
        head = f"{self.name or 'Kernel'} ({self.N}×{self.M}, {self.domain})"
        return head + "\n" + "\n".join("  " + "  ".join(c.rjust(width) for c in r) for r in cells)


def _fmpq_rows(mat, M: int) -> list[tuple]:
    """The rows of a flint ``fmpq_mat`` with M columns, as tuples of fmpq."""
    e = mat.entries()
    return [tuple(e[k:k + M]) for k in range(0, len(e), M)]


def _validated_int_rows(rows):
    """The integer form of rational rows, after checking 0 ≤ K[x][y] ≤ 1 and Σ_y K[x][y] = 1 exactly.

    Checked on numerators over each row's denominator (0 ≤ A ≤ d, ΣA = d), vectorized; the first
    offending row is reported (an entry before the row sum), e.g. ``row 2 sums to 5/6, not 1``.
    """
    import numpy as np

    from exactdp.numbers.linalg import IntRows

    R = IntRows.from_fmpq_rows(rows)
    bad_entry = (R.A < 0) | (R.A > R.d[:, None])
    sums = R.A.sum(axis=1)
    bad_sum = sums != R.d
    bad_rows = np.flatnonzero(bad_entry.any(axis=1) | bad_sum)
    if len(bad_rows):
        x = int(bad_rows[0])
        if bad_entry[x].any():
            k = int(np.flatnonzero(bad_entry[x])[0])
            raise InvalidKernelError(f"K[{x}][{k}]: entries must lie in [0, 1], got {rows[x][k]}")
        raise InvalidKernelError(f"row {x} sums to {fmpq(int(sums[x]), int(R.d[x]))}, not 1")
    return R


#: estimates above this are reported as this (a message never formats a number with thousands of digits)
_CAP = 10**300


def _capped_power(base: int, n: int) -> int:
    """base**n, or _CAP when it would exceed it (decided from bit lengths: nothing of size n is built)."""
    if base <= 1:
        return base
    if (base.bit_length() - 1) * n > 1000:
        return _CAP
    return min(base**n, _CAP)


def _require_entries(N: int, M: int, what: str, shape: str | None = None) -> None:
    """Refuse a kernel of N x M entries above ``max_entries`` before any row is built (issue 14)."""
    require("max_entries", min(N * M, _CAP), f"{what}: a {shape or f'{N}x{M}'} kernel")


def _check_size(n, name: str) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ParameterError(f"{name}: must be a positive integer, got {n!r}")


def as_kernel(K, name: str = "K") -> Kernel:
    return K if isinstance(K, Kernel) else Kernel(K, name=None)
