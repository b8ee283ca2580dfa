"""Issue 23's "getting mechanisms in", re-checked end to end against brute force.

Each documented entry (a softmax numpy array through ``Kernel.from_floats``, ``Kernel(sympy.Matrix)``, a CSV
file with a header row and row labels, a pandas frame) and basic RAPPOR at e^ε = 3 becomes a kernel whose
η_TV and LDP level are compared with brute force computed here, independently of the library's measures:
η_TV as the largest TV distance over row pairs, TV(P, Q) = max_A P(A) − Q(A) over every output set A
([G] Def. 3 / [A] §II), and the LDP level as the largest entry ratio K[x][y] / K[x'][y] ([A] eq. (1)).
For the irrational RAPPOR entries the maximum is chosen by certified comparisons (never by floats).
"""

import itertools

import numpy as np
import pytest
import sympy
from flint import fmpq

from exactdp import Kernel, certified_compare, eta_tv, ldp_ratio
from exactdp.io import read_kernel
from exactdp.mechanisms import symmetric_unary_encoding

Q = fmpq


def brute_tv(P, Qr, zero):
    """max over every output set A of P(A) − Q(A)."""
    best = zero
    for r in range(1, len(P) + 1):
        for A in itertools.combinations(range(len(P)), r):
            d = sum((P[y] - Qr[y] for y in A), zero)
            best = d if _gt(d, best) else best
    return best


def brute_eta_tv(rows, zero=Q(0)):
    best = zero
    for i, j in itertools.permutations(range(len(rows)), 2):
        d = brute_tv(rows[i], rows[j], zero)
        best = d if _gt(d, best) else best
    return best


def brute_ldp(rows):
    best = None
    for x, xp in itertools.permutations(range(len(rows)), 2):
        for y in range(len(rows[0])):
            r = rows[x][y] / rows[xp][y]
            best = r if best is None or _gt(r, best) else best
    return best


def _gt(a, b):
    if isinstance(a, fmpq) and isinstance(b, fmpq):
        return a > b
    return certified_compare(sympy.sympify(a), ">", sympy.sympify(b)).value == "true"


def test_a_softmax_numpy_array_in_one_call():
    logits = np.array([[1.5, 0.2, -0.7], [0.1, 0.9, 0.3], [-1.2, 0.4, 2.0], [0.0, 0.0, 0.0]])
    A = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    K, change = Kernel.from_floats(A, digits=6, return_change=True)
    assert all(sum(row, Q(0)) == 1 for row in K.rows)
    assert 0 < change < Q(1, 10 ** 6)
    assert K.rows[3] == (Q(333334, 10 ** 6), Q(333333, 10 ** 6), Q(333333, 10 ** 6))  # ties to the first index
    assert eta_tv(K) == brute_eta_tv(K.rows)
    assert ldp_ratio(K) == brute_ldp(K.rows)
    # the exact answers sit within the rounding of the float closed forms (a cross-check, not the test's basis)
    tv_float = max(0.5 * np.abs(A[i] - A[j]).sum() for i in range(4) for j in range(4))
    assert abs(eta_tv(K) - Q(*float(tv_float).as_integer_ratio())) < Q(4, 10 ** 6)


def test_a_sympy_matrix_in_one_call():
    r = sympy.Rational
    M = sympy.Matrix([[r(1, 2), r(1, 3), r(1, 6)], [r(1, 5), r(3, 5), r(1, 5)], [r(1, 4), r(1, 4), r(1, 2)]])
    K = Kernel(M)
    rows = [[Q(int(v.p), int(v.q)) for v in M.row(i)] for i in range(3)]
    assert [list(row) for row in K.rows] == rows
    assert eta_tv(K) == brute_eta_tv(rows) == Q(7, 20)  # rows 1 and 2 on A = {1, 2}: 3/5 + 1/5 - 1/4 - 1/2
    assert ldp_ratio(K) == brute_ldp(rows) == Q(3)  # (1/2)/(1/6)


def test_a_csv_with_a_header_row_and_row_labels(tmp_path):
    path = tmp_path / "mech.csv"
    path.write_text("input,y=a,y=b,y=c\nalice,1/2,1/4,1/4\nbob,1/8,3/4,1/8\ncarol,1/3,1/3,1/3\n")
    said = []
    K = read_kernel(path, report=said.append)
    assert said == ["CSV: header row 'y=a, y=b, y=c' and row labels 'alice, bob, carol' skipped"]
    rows = [[Q(1, 2), Q(1, 4), Q(1, 4)], [Q(1, 8), Q(3, 4), Q(1, 8)], [Q(1, 3), Q(1, 3), Q(1, 3)]]
    assert [list(row) for row in K.rows] == rows
    assert eta_tv(K) == brute_eta_tv(rows) == Q(1, 2)  # alice vs bob on A = {0, 2}: 3/4 - 1/4
    assert ldp_ratio(K) == brute_ldp(rows) == Q(4)  # (1/2)/(1/8)


def test_a_pandas_frame_in_one_call():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"y0": ["1/2", "1/10"], "y1": ["1/2", "9/10"]}, index=["x0", "x1"])
    K = Kernel(frame)
    rows = [[Q(1, 2), Q(1, 2)], [Q(1, 10), Q(9, 10)]]
    assert [list(row) for row in K.rows] == rows
    assert eta_tv(K) == brute_eta_tv(rows) == Q(2, 5)
    assert ldp_ratio(K) == brute_ldp(rows) == Q(5)
    Kf = Kernel.from_floats(pd.DataFrame([[0.5, 0.5], [0.1, 0.9]]), denominator=10)
    assert Kf == K


@pytest.mark.parametrize("k", [2, 3])
def test_rappor_at_e_eps_3_against_brute_force(k):
    """Basic RAPPOR / symmetric unary encoding at e^ε = 3: each bit flips with probability 1/(√3 + 1), so
    η_TV = (√3 − 1)/(√3 + 1) and the LDP level is e^ε = 3 (the two bits that differ contribute √3 each)."""
    K = symmetric_unary_encoding(k, 3)
    assert K.M == 2 ** k
    s = sympy.sqrt(3)
    rows = [[sympy.sympify(v) for v in row] for row in K.rows]
    assert all(sympy.simplify(sum(row) - 1) == 0 for row in rows)
    closed_tv, closed_ldp = (s - 1) / (s + 1), sympy.Integer(3)
    brute_t, brute_l = brute_eta_tv(rows, sympy.Integer(0)), brute_ldp(rows)
    assert sympy.simplify(brute_t - closed_tv) == 0 and sympy.simplify(eta_tv(K) - closed_tv) == 0
    assert sympy.simplify(brute_l - closed_ldp) == 0 and sympy.simplify(ldp_ratio(K) - closed_ldp) == 0
