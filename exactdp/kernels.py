r"""Markov kernels K[x][y] = P(Y=y | X=x): N inputs × M outputs, exact and immutable ([G] §II, D-1).

A :class:`Kernel` is validated once at construction: rectangular, non-empty, every entry in [0, 1],
every row summing to exactly 1 (identically, for symbolic entries).  Entries are ``fmpq`` (domain
``"QQ"``) or exact sympy expressions (domain ``"SR"``, parametric kernels).  Floats are refused; an
explicit :meth:`Kernel.from_floats` converts each double to its exact binary value.

A kernel is a **value**: immutable after construction (setting an attribute raises
:class:`dataclasses.FrozenInstanceError`, an ``AttributeError``), equal to and hashed like another kernel
exactly when they have the same rows, the same domain (QQ or SR) and the same declared parameter region
(:attr:`Kernel.region`, set by :func:`exactdp.symbolic.declare_region`), so a cache keyed by kernels never
mixes up two kernels whose closed forms differ.  The name is a label for reports and takes no part in
equality.  Changes are constructors: :meth:`Kernel.with_name`, :meth:`Kernel.with_region`.
"""

from __future__ import annotations

from flint import fmpq, fmpq_mat

from exactdp._vectors import as_sequence, exact_vector
from exactdp.distributions import Distribution, as_distribution
from dataclasses import FrozenInstanceError
from fractions import Fraction
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, cast

from exactdp.errors import InvalidKernelError, ParameterError, ShapeError
from exactdp.numbers import escape
from exactdp.limits import ESTIMATE_CAP, require
from exactdp.numbers.qq import ONE, ZERO, from_float
from exactdp.numbers.simplex_rounding import grid_denominator, round_to_simplex
from exactdp.numbers.sr import as_sympy
from exactdp.numbers.rich import RichDisplay
from exactdp.parameters import check_count

if TYPE_CHECKING:
    import sympy
else:
    from exactdp.numbers.deferred import sympy  # deferred: start-up

if TYPE_CHECKING:
    import numpy as np

    from exactdp.numbers.linalg import IntRows


#: up to this many entries a kernel is validated with fmpq arithmetic and gets its integer form lazily;
#: larger ones are validated in integer form (vectorized), which also caches that form
SMALL_KERNEL = 64


class Kernel(RichDisplay):
    """An immutable row-stochastic matrix.

    Args:
        rows: a sequence of N rows of M exact entries (ints, Fractions, fmpq, sympy Rationals or
            expressions, strings ``"3/7"`` / ``"0.25"``), or an integer/object numpy array.
        name: optional label used in reports (not part of the kernel's value: see :meth:`__eq__`).

    ``Kernel(K)`` of a kernel K is the same value (rows, domain and declared region) with the given name.

    Raises:
        InvalidKernelError: empty, ragged, an entry outside [0, 1], a row not summing to 1.
        CoercionError: a float, NaN or unreadable entry (the message names the entry).

    >>> K = Kernel([["3/4", "1/4"], ["1/4", "3/4"]])
    >>> K.N, K.M, K[0, 1]
    (2, 2, 1/4)
    >>> K.name = "RR"
    Traceback (most recent call last):
    ...
    dataclasses.FrozenInstanceError: Kernel is immutable: cannot set 'name' (use K.with_name(...))
    >>> K.with_name("RR") == K, K.with_name("RR").name
    (True, 'RR')
    """

    # _rows, _symbolic (domain SR), _region (declared parameter hypotheses): the value;
    # _name: a label; _int_rows, _hash: caches filled lazily (through object.__setattr__)
    # _rows_data is None for a large rational kernel read from text until an entry is asked for: its value
    # then lives in _int_rows, and _rows builds the fmpq rows once
    __slots__ = ("_rows_data", "_symbolic", "_name", "_region", "_int_rows", "_hash")
    _rows_data: tuple[tuple[Any, ...], ...] | None  # fmpq (QQ) or sympy.Expr (SR) entries
    _symbolic: bool
    _name: str | None
    _region: tuple[Any, ...]
    _int_rows: IntRows | None
    _hash: int | None

    def __init__(self, rows, *, name: str | None = None):
        if isinstance(rows, Kernel):
            _init(self, rows._rows_data, rows._symbolic, name, rows._region, rows._int_rows)
        else:
            parsed, symbolic, int_rows = _parse(rows, "K")
            _init(self, parsed, symbolic, name, (), int_rows)

    def __setattr__(self, key, value):
        raise FrozenInstanceError(f"Kernel is immutable: cannot set {key!r} (use K.with_name(...))")

    def __delattr__(self, key):
        raise FrozenInstanceError(f"Kernel is immutable: cannot delete {key!r}")

    def __reduce__(self):  # pickling (process pools) rebuilds the value, not the caches
        return _rebuild, (self._rows, self._symbolic, self._name, self._region)

    def __copy__(self) -> "Kernel":
        return self

    def __deepcopy__(self, memo) -> "Kernel":
        return self

    # -- construction -----------------------------------------------------------------------------
    @classmethod
    def from_exact_rows(cls, rows, symbolic: bool = False, *, name: str | None = None,
                        int_rows=None) -> "Kernel":
        """A kernel from rows that are already exact and already stochastic: **nothing is re-validated**.

        The fast constructor for code that computes kernels from validated ones (products, compositions,
        rounding to a grid, random draws): ``rows`` must be N rows of M ``fmpq`` entries (or exact sympy
        expressions with ``symbolic=True``), each in [0, 1], each row summing to exactly 1.  Anything else
        (user input, strings, ints, floats) goes through ``Kernel(rows)``, which checks all of it.
        ``int_rows`` optionally supplies the integer form (an :class:`exactdp.numbers.linalg.IntRows` of the
        same rows) when the caller has it.

        >>> from flint import fmpq
        >>> Kernel.from_exact_rows([[fmpq(1, 2), fmpq(1, 2)]]) == Kernel([["1/2", "1/2"]])
        True
        """
        if cls is not Kernel:  # pragma: no cover - a subclass goes through its own __init__
            return cls(rows, name=name)
        obj = _new(Kernel)
        _init(obj, tuple(tuple(r) for r in rows), symbolic, name, (), int_rows)
        return obj

    #: private alias of :meth:`from_exact_rows` (positional ``symbolic``, keyword ``name``), kept for
    #: kernels.py; other modules call the public name
    _trusted = from_exact_rows

    def with_name(self, name: str | None) -> "Kernel":
        """The same kernel (equal, same hash) labelled ``name`` in reports."""
        obj = _new(Kernel)
        _init(obj, self._rows_data, self._symbolic, name, self._region, self._int_rows)
        return obj

    def with_region(self, conditions) -> "Kernel":
        """The same rows and name with the declared parameter region ``conditions`` (replacing this one's).

        ``conditions`` is a sequence of sympy inequalities (or conjunctions) on the parameters; a kernel's
        region is part of its value: kernels declared on different regions are unequal.
        :func:`exactdp.symbolic.declare_region` adds conditions to a kernel's region through this method.
        """
        conditions = tuple(conditions)
        for c in conditions:
            if not isinstance(c, (sympy.core.relational.Relational, sympy.And)):
                raise TypeError(f"declare_region: expected sympy inequalities, got {c!r}")
        obj = _new(Kernel)
        _init(obj, self._rows_data, self._symbolic, self._name, conditions, self._int_rows)
        return obj

    @classmethod
    def from_floats(cls, rows, *, name: str | None = None, denominator: int | None = None,
                    digits: int | None = None, return_change: bool = False):
        """A kernel from rows of doubles (a list, a numpy array or a pandas frame): the explicit float entry.

        Without a grid each double becomes its exact binary value and the rows must then sum to 1 exactly
        (rows of doubles rarely do: ``[[0.1, 0.2, 0.7]]`` is refused).  With ``denominator=D`` (or
        ``digits=d``, ``D = 10**d``) each row is renormalised by its exact sum and rounded to multiples of
        ``1/D`` by largest remainders (:mod:`exactdp.numbers.simplex_rounding`): every entry moves by less
        than ``1/D`` from the renormalised row, zero entries stay zero, every row sums to exactly 1.

        ``return_change=True`` returns ``(kernel, change)`` with ``change`` the exact largest
        ``|K[x][k] − A[x][k]|`` over the entries (against the doubles' exact binary values).
        """
        D = grid_denominator(denominator, digits)
        seq = as_sequence(rows, "K", InvalidKernelError, allow_float=True)
        exact = [[from_float(v, f"K[{x}][{k}]")
                  for k, v in enumerate(as_sequence(r, f"row {x}", InvalidKernelError, allow_float=True))]
                 for x, r in enumerate(seq)]
        rounded = exact if D is None else [round_to_simplex(r, D, f"K[{x}]") for x, r in enumerate(exact)]
        K = cls(rounded, name=name)
        if not return_change:
            return K
        change = max((abs(a - b) for ra, rb in zip(rounded, exact) for a, b in zip(ra, rb)), default=ZERO)
        return K, change

    @classmethod
    def identity(cls, n: int) -> "Kernel":
        _check_size(n, "N")
        _require_entries(n, n, "Kernel.identity(N)")
        return cls._trusted([[ONE if i == j else ZERO for j in range(n)] for i in range(n)], name=f"I_{n}")

    # -- shape and entries --------------------------------------------------------------------------
    @property
    def _rows(self) -> tuple[tuple[Any, ...], ...]:
        """The entries (fmpq or sympy); built once from the integer form for a kernel read lazily."""
        rows = self._rows_data
        if rows is None:
            rows = tuple(tuple(r) for r in cast("IntRows", self._int_rows).to_fmpq_rows())
            _set(self, "_rows_data", rows)
        return rows

    @property
    def N(self) -> int:
        """Number of inputs (rows)."""
        if self._rows_data is None:
            return int(cast("IntRows", self._int_rows).A.shape[0])
        return len(self._rows_data)

    @property
    def M(self) -> int:
        """Number of outputs (columns)."""
        if self._rows_data is None:
            return int(cast("IntRows", self._int_rows).A.shape[1])
        return len(self._rows_data[0])

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
        """``"QQ"`` (fmpq entries) or ``"SR"`` (sympy expressions); part of the kernel's value."""
        return "SR" if self._symbolic else "QQ"

    @property
    def name(self) -> str | None:
        """The label used in reports (None when unnamed); not part of the kernel's value."""
        return self._name

    @property
    def region(self) -> tuple:
        """The declared hypotheses on the parameters (sympy inequalities; ``()`` when none), part of the
        kernel's value; see :func:`exactdp.symbolic.declare_region`."""
        return self._region

    @property
    def free_symbols(self) -> set:
        if not self._symbolic:
            return set()
        return set().union(*(e.free_symbols for r in self._rows for e in r))

    def column(self, y: int) -> tuple:
        return tuple(r[y] for r in self._rows)

    def row(self, x: int) -> Distribution:
        return Distribution.from_exact_probs(self._rows[x], self._symbolic)

    def __getitem__(self, idx):
        if isinstance(idx, tuple):
            x, y = idx
            return self._rows[x][y]
        return self._rows[idx]

    def __iter__(self):
        return iter(self._rows)

    def __len__(self) -> int:
        return self.N

    def int_rows(self) -> IntRows:
        """The integer-numerator / per-row-denominator form used by vectorized exact code (QQ only)."""
        if self._symbolic:
            raise TypeError("int_rows is only defined for rational (QQ) kernels")
        if self._int_rows is None:
            from exactdp.numbers.linalg import IntRows

            _set(self, "_int_rows", IntRows.from_fmpq_rows(self._rows))  # a cache, not part of the value
        return cast("IntRows", self._int_rows)  # filled just above when it was None

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
        out: Sequence[Any]
        if symbolic:
            out = [sympy.simplify(sum(as_sympy(P[x]) * as_sympy(self._rows[x][y]) for x in range(self.N)))
                   for y in range(self.M)]
        else:
            out = _fmpq_rows(fmpq_mat(1, self.N, list(P.probs)) * fmpq_mat(self._rows), self.M)[0]
        return Distribution.from_exact_probs(tuple(out), symbolic)

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
        """The entries as exact strings ("p/q", "p"), as ``str(fmpq)`` prints them."""
        R = self._int_rows
        if self._rows_data is None and R is not None and R.A.dtype != object:  # from the integer form
            import numpy as np

            g = np.gcd(R.A, R.d[:, None])
            num, den = (R.A // g).tolist(), (np.broadcast_to(R.d[:, None], R.A.shape) // g).tolist()
            return [[f"{a}/{b}" if b != 1 else str(a) for a, b in zip(ra, rb)] for ra, rb in zip(num, den)]
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
        """Same rows, same domain (QQ/SR) and same declared region (as a set of conditions); the name is
        a label and is ignored."""
        if self is other:
            return True
        if not isinstance(other, Kernel):
            return False
        return (self._symbolic == other._symbolic and self._rows == other._rows
                and (self._region == other._region or frozenset(self._region) == frozenset(other._region)))

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash((self._symbolic, tuple(tuple(str(v) for v in r) for r in self._rows),
                      frozenset(self._region)))
            _set(self, "_hash", h)
        return h

    def __repr__(self) -> str:
        """``Kernel([['1/2', '1/2'], …])``, which evaluates back to the kernel when it has at most
        :data:`REPR_FULL` entries; larger kernels are summarised as numpy does (the first and last
        :data:`REPR_EDGE` rows and columns, ``...`` between) with their shape, so a 30×30 kernel prints
        a few lines, not kilobytes."""
        full = self.N * self.M <= REPR_FULL
        rows = _edges(self.as_strings(), full)
        body = ", ".join("..." if r is None else "[" + ", ".join(v if v == "..." else f"'{v}'" for v in r) + "]"
                         for r in rows)
        return f"Kernel([{body}])" if full else f"Kernel([{body}], N={self.N}, M={self.M})"

    def __str__(self) -> str:
        full = self.N * self.M <= REPR_FULL
        rows = _edges(self.as_strings(), full)
        width_cells = len(rows[0] or ())
        cells = [r if r is not None else ["..."] * width_cells for r in rows]
        width = max(len(c) for r in cells for c in r)
        head = f"{escape.terminal(self.name or 'Kernel')} ({self.N}×{self.M}, {self.domain})"
        return head + "\n" + "\n".join("  " + "  ".join(c.rjust(width) for c in r) for r in cells)


#: a kernel with at most this many entries prints whole (``repr`` evaluates back to it)
REPR_FULL = 100
#: rows and columns shown at each end of a larger kernel (numpy's ``edgeitems``)
REPR_EDGE = 3


def _edges(cells: list[list[str]], full: bool) -> list[list[str] | None]:
    """The rows to print: all of them, or the first and last :data:`REPR_EDGE` rows and columns, with
    ``...`` for the columns left out and ``None`` for the rows left out."""
    if full:
        return list(cells)

    def cut(seq: list, gap):
        return list(seq) if len(seq) <= 2 * REPR_EDGE + 1 else [*seq[:REPR_EDGE], gap, *seq[-REPR_EDGE:]]

    return cut([cut(r, "...") for r in cells], None)


def _fmpq_rows(mat, M: int) -> list[tuple]:
    """The rows of a flint ``fmpq_mat`` with M columns, as tuples of fmpq."""
    e = mat.entries()
    return [tuple(e[k:k + M]) for k in range(0, len(e), M)]


def _plain_int_rows(seq, what: str):
    r"""The validated integer form of a kernel given as rows of plain strings ``"p"`` / ``"p/q"`` (ASCII
    digits, within the size limits) or of ints and Fractions, read without creating one ``fmpq`` per entry
    — numerators over each row's lcm of denominators, reduced by the row's gcd, exactly what
    :meth:`IntRows.from_fmpq_rows` gives — or None when the input is anything else (small kernels, signs,
    decimals, arithmetic, sympy values: the general reader handles them and names the entry in errors).
    """
    from math import gcd, lcm

    rows0 = seq[0]
    if not isinstance(rows0, (list, tuple)):
        return None
    N, M = len(seq), len(rows0)
    if N * M <= SMALL_KERNEL or M == 0:
        return None
    _require_entries(N, M, what)
    from exactdp.numbers.qq import simple_string_limit

    short = simple_string_limit()
    flat: list[int] = []
    dens: list[int] = []
    for row in seq:
        if type(row) not in (list, tuple) or len(row) != M:
            return None
        try:
            text = "".join(row)
        except TypeError:  # not all strings: ints, Fractions and plain strings mixed (JSON 0 and 1), or other
            text = None
        if text is not None:
            longest = max(map(len, row))
            if not (text.isascii() and text.replace("/", "").isdigit()) or longest > short:
                return None
            fast = _fraction_row(row, M) if longest <= 18 else None
            if fast is not None:  # "a/b" entries of at most 18 characters: parsed in C, int64
                A_row, L = fast
                flat.extend(A_row)
                dens.append(L)
                continue
            try:
                pairs = [(int(a), int(b) if sep else 1) for a, sep, b in (e.partition("/") for e in row)]
            except ValueError:  # "3/", "/4", "1/2/3": the general reader's message
                return None
        else:
            pairs = []
            for e in row:
                t = type(e)
                if t is int or t is Fraction:
                    pairs.append((e.numerator, e.denominator))
                elif t is str and e.isascii() and e.replace("/", "").isdigit() and len(e) <= short:
                    a, sep, b = e.partition("/")
                    if not a or (sep and not b.isdigit()):
                        return None
                    pairs.append((int(a), int(b) if sep else 1))
                else:
                    return None
        ds = {b for _, b in pairs}
        if 0 in ds:
            return None
        L = lcm(*ds)
        A = [a for a, _ in pairs] if len(ds) == 1 else [a * (L // b) for a, b in pairs]
        g = gcd(L, *A)
        if g > 1:
            A, L = [a // g for a in A], L // g
        flat.extend(A)
        dens.append(L)
    import numpy as np

    from exactdp.numbers.linalg import INT64_LIMIT, IntRows

    big = max(max(flat), max(dens)) >= INT64_LIMIT
    R = IntRows(np.array(flat, dtype=object if big else np.int64).reshape(N, M), dens)
    return _check_int_rows(R, what, lambda x, k: str(seq[x][k]))


def _fraction_row(row, M: int):
    """``(numerators, denominator)`` of a row of ASCII "a/b" strings (each with exactly one '/', digits on
    both sides, at most 18 characters, so every number fits int64), reduced as in :func:`_plain_int_rows`;
    parsed by numpy in C.  None when the row is not of that form or a scaled numerator could leave int64."""
    import numpy as np

    if not all(e.count("/") == 1 for e in row):
        return None
    text = ",".join(row)
    if text[0] == "/" or text[-1] == "/" or ",/" in text or "/," in text or text.count(",") != M - 1:
        return None
    arr = np.fromstring(text.replace("/", ","), dtype=np.int64, sep=",")
    if arr.size != 2 * M:
        return None
    nums, dens = arr[0::2], arr[1::2]
    if (dens == 0).any():
        return None
    L = int(dens[0])
    if not (dens == L).all():
        from math import lcm

        L = lcm(*set(dens.tolist()))
        if L * int(nums.max()) >= 2**62:
            return None
        nums = nums * (L // dens)
    g = int(np.gcd.reduce(nums)) if len(nums) else 0
    from math import gcd

    g = gcd(g, L)
    if g > 1:
        nums, L = nums // g, L // g
    return nums.tolist(), L


def _validated_int_rows(rows, what: str = "K"):
    """The integer form of rational rows, after checking 0 ≤ K[x][y] ≤ 1 and Σ_y K[x][y] = 1 exactly.

    Checked on numerators over each row's denominator (0 ≤ A ≤ d, ΣA = d), vectorized; the first
    offending row is reported (an entry before the row sum), e.g. ``row 2 sums to 5/6, not 1``.
    """
    from exactdp.numbers.linalg import IntRows

    return _check_int_rows(IntRows.from_fmpq_rows(rows), what, lambda x, k: rows[x][k])


def _check_int_rows(R, what: str, entry):
    """``R`` after the checks of :func:`_validated_int_rows`; ``entry(x, k)`` shows an offending entry."""
    import numpy as np

    from exactdp.numbers.linalg import INT64_LIMIT

    bad_entry = (R.A < 0) | (R.A > R.d[:, None])
    if R.A.dtype != object and (R.max_num + R.max_den) * R.A.shape[1] >= INT64_LIMIT:
        sums = R.A.astype(object).sum(axis=1)  # int64 row sums could wrap around (and fake a sum of 1)
    else:
        sums = R.A.sum(axis=1)
    bad_sum = sums != R.d
    bad_rows = np.flatnonzero(bad_entry.any(axis=1) | bad_sum)
    if len(bad_rows):
        x = int(bad_rows[0])
        if bad_entry[x].any():
            k = int(np.flatnonzero(bad_entry[x])[0])
            raise InvalidKernelError(f"{what}[{x}][{k}]: entries must lie in [0, 1], got {entry(x, k)}")
        raise InvalidKernelError(f"row {x} sums to {fmpq(int(sums[x]), int(R.d[x]))}, not 1")
    return R


_CAP = ESTIMATE_CAP  # exactdp.limits


def _capped_power(base: int, n: int) -> int:
    """base**n, or _CAP when it would exceed it (decided from bit lengths: nothing of size n is built)."""
    if base <= 1:
        return base
    if (base.bit_length() - 1) * n > 1000:
        return _CAP
    return min(base**n, _CAP)


def _require_entries(N: int, M: int, what: str, shape: str | None = None) -> None:
    """Refuse a kernel of N x M entries above ``max_entries`` before any row is built."""
    require("max_entries", min(N * M, _CAP), f"{what}: a {shape or f'{N}x{M}'} kernel")


def _check_size(n, name: str) -> None:
    check_count(n, name)


#: what :func:`as_kernel` reads: a Kernel, or rows of exact entries (sequences, or an integer/object numpy array)
KernelInput: TypeAlias = "Kernel | Sequence[Sequence[object]] | np.ndarray"


def as_kernel(K, name: str = "K") -> Kernel:
    """Accept a Kernel (returned as is) or anything its constructor accepts; ``name`` is the argument's
    name in error messages (e.g. ``L: must have at least one row``), as in :func:`as_distribution`.

    >>> as_kernel([], name="L")
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidKernelError: L: must have at least one row
    """
    if isinstance(K, Kernel):
        return K
    rows, symbolic, int_rows = _parse(K, name)
    obj = _new(Kernel)
    _init(obj, rows, symbolic, None, (), int_rows)
    return obj


_new = object.__new__
_set = object.__setattr__


def _init(obj: Kernel, rows: tuple | None, symbolic: bool, name, region: tuple, int_rows) -> None:
    """Fill the slots of a new kernel (the only writes; a kernel is immutable afterwards); ``rows`` None:
    the value is ``int_rows`` (rational, validated) and the fmpq rows are built on first use.  ``name`` is
    a string or None (the kernel file's schema, ``exactdp/schemas/kernel.json``): a list or a number is
    refused, so every report can treat the name as text."""
    if name is not None and not isinstance(name, str):
        raise ParameterError(f"name: a kernel's name must be a string, got {type(name).__name__} "
                             f"{escape.terminal(repr(name))[:80]}")
    _set(obj, "_rows_data", rows)
    _set(obj, "_symbolic", symbolic)
    _set(obj, "_name", name)
    _set(obj, "_region", region)
    _set(obj, "_int_rows", int_rows)
    _set(obj, "_hash", None)


def _rebuild(rows, symbolic, name, region) -> Kernel:
    obj = _new(Kernel)
    _init(obj, rows, symbolic, name, region, None)
    return obj


def _parse(rows, what: str) -> tuple:
    """Validate user rows: ``(rows, symbolic, int_rows)``; ``what`` names the kernel in messages.

    ``rows`` is None when a large kernel of plain "p/q" strings, ints or Fractions was read straight into
    its integer form (:func:`_plain_int_rows`); its fmpq rows are then built only when asked for."""
    seq = as_sequence(rows, what, InvalidKernelError)
    if not seq:
        raise InvalidKernelError(f"{what}: must have at least one row")
    fast = _plain_int_rows(seq, what)
    if fast is not None:
        return None, False, fast
    parsed, symbolic = [], False
    width: Any = None  # the first row's length (seq is non-empty, so an int after the loop)
    for x, row in enumerate(seq):
        row_seq = as_sequence(row, f"row {x}", InvalidKernelError)
        if width is None:
            width = len(row_seq)
            _require_entries(len(seq), width, what)
        elif len(row_seq) != width:
            raise InvalidKernelError(
                f"{what}: rows must all have the same length; row 0 has {width}, row {x} has {len(row_seq)}"
            )
        entries, sym = exact_vector(row_seq, f"row {x}", InvalidKernelError, entry=f"{what}[{x}]",
                                    check=len(seq) * width <= SMALL_KERNEL)
        parsed.append(entries)
        symbolic |= sym
    int_rows = None
    if symbolic:
        for x, r in enumerate(parsed):  # [0, 1] where decidable, sum identically 1
            exact_vector(r, f"row {x}", InvalidKernelError, entry=f"{what}[{x}]")
        parsed = [tuple(as_sympy(v) for v in r) for r in parsed]
    elif len(parsed) * width > SMALL_KERNEL:  # (small ones were checked entry by entry above)
        int_rows = _validated_int_rows(parsed, what)
    return tuple(parsed), symbolic, int_rows
