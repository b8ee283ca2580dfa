"""One function chooses every measure's number domain (issue 22 item 2; :mod:`exactdp.measures.input_domain`).

Kernels with one irrational constant entry per row pair — sqrt(2), E, exp(1/2), pi — take the domain RB in
every measure (η_TV, η_{E_γ}, the LDP level, the PML level, the maximal leakage, the privacy profile, the
row divergences); before, η_{E_γ} and the PML level at an irrational c took SR on such kernels while the
others took RB.  Each value is checked against a brute force written here in sympy (the maximum over output
sets / columns / priors' vertices, decided by sympy's own numeric comparison of the candidates), equality
decided exactly by ``certified_compare``.
"""

from __future__ import annotations

from itertools import product

import pytest
import sympy
from flint import fmpq

from exactdp import Truth, certified_compare
from exactdp.errors import ParameterError
from exactdp.kernels import as_kernel
from exactdp.measures import contraction, divergences, input_domain as choice, privacy
from exactdp.numbers.domain import QQ, RB, SR, unify, value_domain

HALF = sympy.Rational(1, 2)
#: name → the first row's first entry a (irrational); the second row is (b, 1 - b) with b rational
IRRATIONAL = {"sqrt(2)": (sympy.sqrt(2) / 2, sympy.Rational(1, 4)), "E": (1 / sympy.E, HALF),
              "exp(1/2)": (sympy.exp(-HALF), sympy.Rational(1, 3)), "pi": (1 / sympy.pi, sympy.Rational(1, 5))}


def _kernel(a, b):
    return as_kernel([[a, 1 - a], [b, 1 - b]])


def _rows(a, b):
    return [[a, 1 - a], [b, 1 - b]]


def _hs(p, q, g):
    """E_g(p‖q) = max over output sets A of p(A) − g q(A) (brute force over the 4 subsets of 2 outputs)."""
    return sympy.Max(*[sum((p[y] - g * q[y] for y in range(2) if s[y]), sympy.Integer(0))
                       for s in product((0, 1), repeat=2)])


def _eta(rows, g):
    return sympy.Max(*[_hs(rows[i], rows[j], g) for i in range(2) for j in range(2) if i != j])


def _ldp(rows):
    return sympy.Max(*[max(col) / min(col) for col in zip(*rows)], evaluate=True)


def _pml(rows, c):
    """max over outputs y and the vertices of Q_X(c) (c + (1 − 2c) on one input) of K(y|x)/(K∘P)(y)."""
    out = []
    for y in range(2):
        col = [rows[x][y] for x in range(2)]
        for x0 in range(2):
            mass = [c + (1 - 2 * c if x == x0 else 0) for x in range(2)]
            out.append(max(col) / sum(m * k for m, k in zip(mass, col)))
    return sympy.Max(*out)


def _same(value, expected):
    assert certified_compare(value, "==", expected) is Truth.TRUE, (value, expected)


@pytest.fixture
def chosen(monkeypatch):
    """The domains the measures choose: every call of the one choice (``unify``) recorded by name."""
    seen: list = []

    def spy(values, what="RB", *, least="QQ"):
        D = unify(values, what, least=least)
        seen.append("SR" if D is None else D.name)
        return D

    monkeypatch.setattr(choice, "unify", spy)
    monkeypatch.setattr(privacy, "unify", spy)
    return seen


@pytest.mark.parametrize("name", sorted(IRRATIONAL))
def test_every_measure_takes_rb_on_irrational_constant_entries(name, chosen):
    a, b = IRRATIONAL[name]
    K, rows = _kernel(a, b), _rows(a, b)
    g = sympy.Rational(3, 2)
    values = {
        "eta_tv": (contraction.eta_tv(K), _eta(rows, 1)),
        "eta_hockey_stick": (contraction.eta_hockey_stick(K, g), _eta(rows, g)),
        "eta_hockey_stick at e^(1/2)": (contraction.eta_hockey_stick(K, sympy.exp(HALF)), _eta(rows, sympy.exp(HALF))),
        "ldp_ratio": (privacy.ldp_ratio(K), _ldp(rows)),
        "pml_ratio": (privacy.pml_ratio(K, "1/4"), _pml(rows, sympy.Rational(1, 4))),
        "pml_ratio at sqrt(2)/4": (privacy.pml_ratio(K, sympy.sqrt(2) / 4), _pml(rows, sympy.sqrt(2) / 4)),
        "max_leakage_ratio": (privacy.max_leakage_ratio(K), sum(max(c) for c in zip(*rows))),
        "privacy profile at 3/2": (privacy.privacy_profile(K)(g), _eta(rows, g)),
        "row divergence tv": (divergences.row_divergence(K, 0, 1, "tv"), _hs(rows[0], rows[1], 1)),
        "row divergence E_3/2": (divergences.row_divergence(K, 1, 0, "hockey_stick", g), _hs(rows[1], rows[0], g)),
    }
    assert chosen and set(chosen) == {"RB"}, chosen
    for label, (value, expected) in values.items():
        assert not getattr(value, "free_symbols", None), label
        _same(value, expected)


@pytest.mark.parametrize("name", sorted(IRRATIONAL))
def test_rational_kernel_with_an_irrational_order_or_class_parameter_is_rb(name, chosen):
    """The other inputs count too: a rational kernel with γ or c irrational is RB (PML at an irrational c was
    a CoercionError before)."""
    a, _ = IRRATIONAL[name]
    rows = [[sympy.Rational(1, 2), sympy.Rational(1, 2)], [sympy.Rational(1, 4), sympy.Rational(3, 4)]]
    K = as_kernel([["1/2", "1/2"], ["1/4", "3/4"]])
    c = a / 4  # in (0, 1/2]
    gamma = 1 + a
    _same(privacy.pml_ratio(K, c), _pml(rows, c))
    _same(contraction.eta_hockey_stick(K, gamma), _eta(rows, gamma))
    assert set(chosen) == {"RB"}
    ratio, y, prior = privacy.pml_ratio_witness(K, c)
    _same(ratio, _pml(rows, c))
    assert certified_compare(sum(prior.probs), "==", 1) is Truth.TRUE
    assert c in prior.probs  # a vertex of Q_X(c): c on every input but one


def test_rational_inputs_stay_qq_and_parameters_go_to_sr(chosen):
    p = sympy.Symbol("p", positive=True)
    K = as_kernel([["1/2", "1/2"], ["1/4", "3/4"]])
    assert contraction.eta_hockey_stick(K, 2) == 0 and contraction.eta_tv(K) == fmpq(1, 4)
    assert privacy.pml_ratio(K, "1/4") == fmpq(8, 5)  # column 0: (1/2) / (1/4 · 3/4 + 1/2 · 1/4)
    assert set(chosen) == {"QQ"}
    chosen.clear()
    Kp = as_kernel([[p / 2, 1 - p / 2], [HALF, HALF]])
    closed = contraction.eta_tv(Kp)  # a closed form on the kernel's region 0 < p <= 2: |p/2 − 1/2|
    for point in (sympy.Rational(1, 3), sympy.Integer(1), sympy.Rational(7, 4), sympy.Integer(2)):
        assert closed.subs(p, point) == abs(point / 2 - HALF)
    assert set(chosen) == {"SR"}


def test_pml_class_parameter_is_checked_in_every_domain():
    """c ∉ (0, 1/N] is refused for an irrational kernel and for a parametric one (both returned a value)."""
    p = sympy.Symbol("p", positive=True)
    a, b = IRRATIONAL["sqrt(2)"]
    for K in (_kernel(a, b), as_kernel([[p / 2, 1 - p / 2], [HALF, HALF]]), as_kernel([["1/2", "1/2"], ["0", "1"]])):
        for c in (1, sympy.sqrt(2), 0, -sympy.sqrt(2) / 4):
            with pytest.raises(ParameterError, match=r"c: must lie in \(0, 1/N\]"):
                privacy.pml_ratio(K, c)


def test_unify_is_the_least_domain_holding_the_values():
    x = sympy.Symbol("x")
    assert [value_domain(v) for v in (fmpq(1, 3), 2, sympy.sqrt(2), sympy.E, sympy.pi, x + 1)] == \
        ["QQ", "QQ", "RB", "RB", "RB", "SR"]
    assert unify([fmpq(1), 3]) is QQ
    assert isinstance(unify([fmpq(1), sympy.exp(HALF)], "q"), RB)
    assert unify([fmpq(1)], least="RB").name == "RB"
    assert unify([fmpq(1), x]) is None and unify([], least="SR") is None
    assert unify([], least="QQ") is QQ
    with pytest.raises(ParameterError, match="least: must be one of QQ, RB, SR, got 'ZZ'"):
        unify([], least="ZZ")
    assert isinstance(choice.input_domain("t", (x,), kernel=as_kernel([["1", "0"], ["0", "1"]])), SR)


def _ldp_expected(rows, t, delta):
    """(ε,δ)-LDP by brute force: η_{E_t} over output sets and ordered pairs (:func:`_eta`) against δ, decided by
    ``certified_compare`` (the cases below are not ties)."""
    return certified_compare(_eta(rows, t), "<=", delta)


@pytest.mark.parametrize("name", ["sqrt(2)", "E"])
def test_is_ldp_takes_the_one_domain_choice_on_irrational_kernels(name, chosen):
    """is_ldp chooses its domain by ``unify`` as every measure does: RB on an irrational constant entry (sqrt(2),
    E) at a rational or irrational t, its verdict equal to the brute force on both sides of the level."""
    a, b = IRRATIONAL[name]
    rows = _rows(a, b)
    for t in (sympy.Integer(2), sympy.Rational(3, 2), sympy.sqrt(3)):
        eta = _eta(rows, t)
        for delta in (0, sympy.Rational(1, 100), HALF):
            expected = _ldp_expected(rows, t, delta)
            assert expected in (Truth.TRUE, Truth.FALSE)
            got = privacy.is_ldp(_kernel(a, b), t=t if not t.is_Rational else str(t), delta=str(delta))
            assert got is expected, (name, t, delta, eta)
    assert set(chosen) == {"RB"}, chosen


def test_is_ldp_rational_kernel_qq_and_irrational_t_rb_against_the_brute_force(chosen):
    """A rational kernel takes QQ at a rational t and RB at t = e^{1/2} or sqrt(2) (also given as eps)."""
    rows = [[sympy.Rational(3, 5), sympy.Rational(2, 5)], [sympy.Rational(1, 4), sympy.Rational(3, 4)]]
    K = as_kernel(rows)
    for t in (sympy.Integer(2), sympy.Rational(12, 5)):  # 12/5 = the largest ratio: a tie-free neighbour below
        for delta in (0, sympy.Rational(1, 10), sympy.Rational(1, 5)):
            assert privacy.is_ldp(K, t=str(t), delta=str(delta)) is _ldp_expected(rows, t, delta)
    assert set(chosen) == {"QQ"}, chosen
    chosen.clear()
    for t, eps in ((sympy.exp(HALF), "1/2"), (sympy.sqrt(2), "log(2)/2")):
        for delta in (0, sympy.Rational(1, 10), sympy.Rational(1, 5)):
            expected = _ldp_expected(rows, t, delta)
            assert privacy.is_ldp(K, t=t, delta=str(delta)) is expected
            assert privacy.is_ldp(K, eps=eps, delta=str(delta)) is expected
    assert set(chosen) == {"RB"}, chosen


def test_is_ldp_parametric_kernel_sr_against_rational_points(chosen):
    """A kernel with a parameter (randomized response at t ≥ 1) takes SR; the verdict for every parameter value
    agrees with the brute force at rational points of the region (FALSE: a violating point exists)."""
    s = sympy.Symbol("s", positive=True)
    from exactdp.mechanisms import randomized_response

    K = randomized_response(2, s)  # rows (s, 1)/(s + 1), (1, s)/(s + 1), s >= 1
    assert privacy.is_ldp(K, t=s) is Truth.TRUE
    assert privacy.is_ldp(K, t=2) is Truth.FALSE
    assert set(chosen) == {"SR"}, chosen
    for v in (sympy.Integer(1), sympy.Rational(3, 2), sympy.Integer(2), sympy.Integer(5)):
        rows = [[v / (v + 1), 1 / (v + 1)], [1 / (v + 1), v / (v + 1)]]
        assert _ldp_expected(rows, v, 0) is Truth.TRUE
    assert _ldp_expected([[sympy.Rational(5, 6), sympy.Rational(1, 6)], [sympy.Rational(1, 6), sympy.Rational(5, 6)]],
                         2, 0) is Truth.FALSE  # s = 5 > 2: the parametric FALSE has a witness
