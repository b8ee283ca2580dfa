"""The cold path of Kernel construction (issue 15 item 5): large kernels of plain "p/q" strings, ints or
Fractions are read straight into their integer form (no fmpq per entry until an entry is asked for); the
result equals the general reader's exactly, and every malformed input still gets the general reader's
one-line error."""

import random
from fractions import Fraction

import numpy as np
import pytest
from flint import fmpq

from exactdp import InvalidKernelError, Kernel, eta_tv, ldp_ratio
from exactdp.errors import CoercionError
from exactdp.numbers.linalg import IntRows


def _random_rows(rng, N, M, big=False, unreduced=False):
    rows = []
    for _ in range(N):
        d = rng.randint(2, 10**25 if big else 1000)
        cuts = sorted(rng.randint(0, d) for _ in range(M - 1))
        A = [b - a for a, b in zip([0] + cuts, cuts + [d])]
        k = rng.randint(2, 7) if unreduced else 1
        rows.append([(a * k, d * k) for a in A])
    return rows


def _as_fmpq(rows):
    return [[fmpq(a, b) for a, b in r] for r in rows]


@pytest.mark.parametrize("big", [False, True], ids=["int64", "beyond-int64"])
@pytest.mark.parametrize("unreduced", [False, True])
@pytest.mark.parametrize("form", ["str", "fraction", "mixed-den"])
def test_fast_reader_equals_the_general_reader(big, unreduced, form):
    rng = random.Random(hash((big, unreduced, form)) % 1000)
    rows = _random_rows(rng, 12, 9, big, unreduced)
    if form == "str":
        given = [[f"{a}/{b}" if a else "0" for a, b in r] for r in rows]
    elif form == "fraction":
        given = [[Fraction(a, b) for a, b in r] for r in rows]
    else:  # each entry over its own (reduced) denominator, as a file written by hand has
        given = [[str(Fraction(a, b)) for a, b in r] for r in rows]
    K = Kernel(given)
    assert K._rows_data is None and K.shape == (12, 9)  # nothing materialized yet
    ref = Kernel(_as_fmpq(rows))
    want = IntRows.from_fmpq_rows(ref.rows)
    got = K.int_rows()
    assert got.A.dtype == want.A.dtype and (got.A == want.A).all() and (got.d == want.d).all()
    assert eta_tv(K) == eta_tv(ref) and ldp_ratio(K) == ldp_ratio(ref)
    assert K == ref and hash(K) == hash(ref) and K.rows == ref.rows and K[3, 4] == ref[3, 4]


def test_integer_arrays_and_rows_of_ints():
    A = np.eye(9, dtype=np.int64)
    K = Kernel(A)
    assert K._rows_data is None and K == Kernel([[fmpq(int(v)) for v in r] for r in A])


@pytest.mark.parametrize("bad, error, words", [
    ("3/0", CoercionError, "K[2][1]"),
    ("1/2/3", InvalidKernelError, "row 2 sums to 19/18, not 1"),  # arithmetic: (1/2)/3, as before
    ("-1/9", InvalidKernelError, "K[2][1]: entries must lie in [0, 1]"),
    ("2/9", InvalidKernelError, "row 2 sums to 10/9, not 1"),
    ("１/9", CoercionError, "K[2][1]"),  # a non-ASCII digit is not read as a number
    (True, CoercionError, "bool"),
    (0.125, CoercionError, "floats are not accepted"),
])
def test_malformed_entries_get_the_general_readers_error(bad, error, words):
    rows = [["1/9"] * 9 for _ in range(9)]
    rows[2][1] = bad
    with pytest.raises(error, match=words.replace("[", r"\[").replace("]", r"\]")):
        Kernel(rows)


def test_row_sums_cannot_wrap_around_int64():
    """Three entries (d−1)/d and one 5/d with d = 2^63 − 1 sum to 3 + 2/d; in int64 the numerators' sum
    wraps to exactly d — such a kernel must be refused (it was accepted before this check)."""
    d = 2**63 - 1
    for row in ([f"{d - 1}/{d}"] * 3 + [f"5/{d}"] + ["0"] * 61,
                [fmpq(d - 1, d)] * 3 + [fmpq(5, d)] + [fmpq(0)] * 61):
        with pytest.raises(InvalidKernelError, match="row 0 sums to"):
            Kernel([row, ["1"] + ["0"] * 64])


def test_decimals_and_arithmetic_still_read_exactly():
    rows = [["0.125"] * 8 for _ in range(9)]
    rows[0] = ["1/10^30"] + ["0"] * 6 + ["1 - 1/10^30"]
    K = Kernel(rows)
    assert K[0, 0] == fmpq(1, 10**30) and K[1, 1] == fmpq(1, 8)


def test_rows_mixing_strings_and_json_integers():
    rows = [["1/3", 0, "2/3"] + [0] * 6 for _ in range(8)] + [[1] + ["0"] * 8]
    K = Kernel(rows)
    assert K._rows_data is None
    assert K == Kernel([[fmpq(1, 3), 0, fmpq(2, 3)] + [0] * 6 for _ in range(8)] + [[1] + [0] * 8])
    rows[3][4] = "1//3"
    with pytest.raises(CoercionError, match=r"K\[3\]\[4\]"):
        Kernel(rows)


def test_strings_from_the_integer_form_equal_the_fmpq_strings():
    rng = random.Random(5)
    rows = _random_rows(rng, 10, 10, unreduced=True)
    K = Kernel([[f"{a}/{b}" for a, b in r] for r in rows])
    assert K._rows_data is None
    fast = K.as_strings()
    assert fast == [[str(v) for v in r] for r in Kernel(_as_fmpq(rows)).rows]
    K01 = Kernel([["0/7"] * 8 + ["14/14"]] + [["2/18"] * 9] * 8)  # zeros, ones and unreduced fractions
    assert K01.as_strings()[0] == ["0"] * 8 + ["1"] and K01.as_strings()[1] == ["1/9"] * 9


def test_rows_of_a_over_b_parsed_in_c_equal_the_general_reader():
    """Every entry "a/b" (numpy parses the row): one or several denominators, unreduced, zero numerators."""
    rng = random.Random(8)
    rows = _random_rows(rng, 9, 9, unreduced=True)
    given = [[f"{a}/{b}" for a, b in r] for r in rows]
    given[3] = [f"{a * 2}/{b * 2}" if k % 2 else f"{a}/{b}" for k, (a, b) in enumerate(rows[3])]  # two denominators
    K = Kernel(given)
    assert K._rows_data is None
    ref = Kernel(_as_fmpq(rows))
    assert K == ref
    got, want = K.int_rows(), IntRows.from_fmpq_rows(ref.rows)
    assert (got.A == want.A).all() and (got.d == want.d).all()


@pytest.mark.parametrize("pair", [("1/2/3", "5"), ("3/", "/4"), ("1,5/2", "3"), ("2/0", "1/9"), ("1/9", "1/9")])
def test_malformed_fraction_rows_never_pair_the_wrong_numbers(pair, monkeypatch):
    """Entries whose slashes or commas could shift numpy's token pairing are left to the general reader:
    the outcome (kernel or error message) is exactly the general reader's, never a silently mispaired row."""
    import exactdp.kernels as kernels

    rows = [["1/9"] * 9 for _ in range(9)]
    rows[4][2], rows[4][5] = pair

    def outcome():
        try:
            return Kernel(rows)
        except (CoercionError, InvalidKernelError) as exc:
            return type(exc), str(exc)

    fast = outcome()
    monkeypatch.setattr(kernels, "_plain_int_rows", lambda seq, what: None)
    assert outcome() == fast
