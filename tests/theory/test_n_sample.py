"""n-sample suprema (exactdp.theory.n_sample): the issue's data point, closed forms, the n = 1 LPs, and brute
force over every vertex kernel of the class polytope (with an exact post-processing into the optimum)."""

import itertools

import pytest
import sympy
from flint import fmpq, fmpq_mat

from exactdp import Kernel, eta_tv, ldp_ratio, sup_eta_hockey_stick
from exactdp.errors import ParameterError
from exactdp.mechanisms import binary_randomized_response, optimal_binary_approx_ldp
from exactdp.measures.tensor import eta_hockey_stick_tensor_power, eta_tv_tensor_power, phi_n
from exactdp.theory.blackwell import blackwell_domination
from exactdp.theory.extremal import privacy_level_failures
from exactdp.theory.lp_programs import Entries, class_rows, dense
from exactdp.theory.n_sample import NSampleExtremal, approx_randomized_response, sup_eta_hockey_stick_tensor
from exactdp.verification.instances import grid_kernels

Q = fmpq


def class_vertices(N, M, t, delta):
    """Every vertex of the (eps,delta)-LDP polytope of N x M kernels, by brute force: each choice of n_vars
    tight constraints (class rows and v >= 0) with a unique feasible solution."""
    E = Entries(N, M, False)
    A, b = dense(class_rows(E, Q(t), None, Q(delta)), E.nvars)
    n = E.nvars
    A = A + [[Q(-1) if j == i else Q(0) for j in range(n)] for i in range(n)]
    b = b + [Q(0)] * n
    found = set()
    for rows in itertools.combinations(range(len(A)), n):
        mat = fmpq_mat([A[i] for i in rows])
        if mat.det() == 0:
            continue
        v = mat.solve(fmpq_mat([[b[i]] for i in rows]))
        v = [v[j, 0] for j in range(n)]
        if all(sum((a * x for a, x in zip(row, v)), Q(0)) <= rhs for row, rhs in zip(A, b)):
            found.add(tuple(v))
    out = []
    for v in sorted(found):
        rows = [list(v[x * (M - 1):(x + 1) * (M - 1)]) for x in range(N)]
        out.append(Kernel.from_exact_rows([r + [1 - sum(r, Q(0))] for r in rows], False))
    return out


def test_issue_data_point_beats_the_n1_optimum():
    """t = 3/2, delta = 1/4, n = 2 (issue 25): B-4's binary kernel gives 2/5, the optimum 11/20, phi^2 = 3/4."""
    r = sup_eta_hockey_stick_tensor(2, 2, t="3/2", delta="1/4")
    assert r.value == Q(11, 20) and r.certified()
    assert eta_tv_tensor_power(optimal_binary_approx_ldp("3/2", "1/4"), 2) == Q(2, 5)
    assert r.phi_n == Q(3, 4) and r.gap == Q(1, 5)
    assert r.envelope_points() == ((0, 1), (Q(2, 3), Q(1, 2)), (Q(3, 2), Q(1, 4)), ("inf", Q(1, 4)))
    assert r.kernel.rows == ((Q(1, 4), Q(9, 20), Q(3, 10), Q(0)), (Q(0), Q(3, 10), Q(9, 20), Q(1, 4)))


@pytest.mark.parametrize("t,delta", [("3/2", "1/4"), ("3", "1/10"), ("1", "1/3"), ("2", "0")])
@pytest.mark.parametrize("n,gamma", [(1, "1"), (2, "1"), (3, "1"), (2, "5/4"), (3, "2")])
def test_closed_form_through_the_revealing_event(t, delta, n, gamma):
    """(eps,delta)-RR = with probability delta a revealing output, else binary RR; the revealing event has the
    same law under both inputs and separates them, so E_gamma = 1 − (1−δ)^n + (1−δ)^n E_gamma(RR^{⊗n})."""
    t, d, g = Q(t), Q(delta), Q(gamma)
    r = sup_eta_hockey_stick_tensor(3, n, t=t, delta=d, gamma=g)
    keep = (1 - d) ** n
    assert r.value == 1 - keep + keep * eta_hockey_stick_tensor_power(binary_randomized_response(t), n, g)
    assert r.certified() and r.value <= r.phi_n


@pytest.mark.parametrize("t,delta,gamma", [("3/2", "1/4", "1"), ("3", "1/10", "2"), ("2", "0", "3/2"), ("3", "0", "1")])
def test_n1_equals_the_class_lp(t, delta, gamma):
    """Independent route at n = 1: the exact LP over 2 x 4 and 3 x 4 kernels (exactdp.theory.extremal)."""
    for N in (2, 3):
        lp = sup_eta_hockey_stick(N, 4, gamma=gamma, t=t, delta=delta)
        assert sup_eta_hockey_stick_tensor(N, 1, t=t, delta=delta, gamma=gamma).value == lp.value


def test_binary_rr_values_are_the_catalogue():
    """delta = 0: the optimum is binary RR; t = 3 gives claims.md §7's 1/2, 1/2, 11/16, 203/256."""
    assert [sup_eta_hockey_stick_tensor(4, n, t=3).value for n in (1, 2, 3, 5)] == \
        [Q(1, 2), Q(1, 2), Q(11, 16), Q(203, 256)]


@pytest.mark.parametrize("M", [2, 3])
def test_every_vertex_of_the_binary_class_is_a_garbling_of_the_optimum(M):
    """Brute force over the vertex kernels of the 2 x M (eps,delta)-LDP polytope (t = 3/2, delta = 1/4): each is
    R·W for an exact W, so every class kernel is (convex combinations of the W), and each has
    eta_TV(K⊗K) <= 11/20, the largest at a vertex being exact."""
    R = approx_randomized_response("3/2", "1/4")
    vertices = class_vertices(2, M, "3/2", "1/4")
    assert len(vertices) >= (4 if M == 2 else 10)
    best = Q(0)
    for K in vertices:
        assert privacy_level_failures(K, Q(3, 2), None, Q(1, 4)) == []
        d = blackwell_domination(R, K)
        assert d.dominates and d.certified()
        best = max(best, eta_tv_tensor_power(K, 2))
    # M = 2: the vertex [[1/4, 3/4], [0, 1]] (1 − (3/4)²) beats B-4's binary kernel (2/5); M = 3 already attains it
    assert best == {2: Q(7, 16), 3: Q(11, 20)}[M]


def test_three_input_vertices_stay_below_the_binary_value():
    """N = 3, M = 2: the N-reduction of the theorem; every vertex has eta_TV(K^{⊗2}) and eta_E_2(K^{⊗3}) below the
    optimum, and every pair of its rows is a garbling of the (eps,delta)-RR."""
    t, d = Q(3), Q(1, 10)
    R = approx_randomized_response(t, d)
    two = sup_eta_hockey_stick_tensor(3, 2, t=t, delta=d).value
    three = sup_eta_hockey_stick_tensor(3, 3, t=t, delta=d, gamma=2).value
    vertices = class_vertices(3, 2, t, d)
    assert len(vertices) > 10
    for K in vertices:
        assert eta_tv_tensor_power(K, 2) <= two and eta_hockey_stick_tensor_power(K, 3, 2) <= three
        for a, b in itertools.permutations(range(3), 2):
            assert blackwell_domination(R, Kernel.from_exact_rows([K.rows[a], K.rows[b]])).dominates


def test_three_outputs_attain_the_value_by_a_merge_when_the_vertices_do():
    """M = 3 < 4 at n = 2: merging outputs 0 and 1 of the (eps,delta)-RR attains 11/20, the largest value at a vertex
    of the 2 x 3 polytope (brute force above); at n = 3 no merge does, and the interval is reported."""
    r = sup_eta_hockey_stick_tensor(2, 2, M=3, t="3/2", delta="1/4")
    assert r.value == Q(11, 20) and r.certified() and r.kernel.M == 3
    assert r.kernel.rows == ((Q(7, 10), Q(3, 10), Q(0)), (Q(3, 10), Q(9, 20), Q(1, 4)))
    assert "3 or more outputs" in r.scope
    with pytest.raises(ParameterError, match=r"lies in \[2569/4000, 703/1000\]"):
        sup_eta_hockey_stick_tensor(2, 3, M=3, t="3/2", delta="1/4")


def test_garblings_make_the_blackwell_step_explicit_for_a_user_kernel():
    """A 3 x 4 (eps,delta)-LDP kernel: every ordered row pair is (R0 W, R1 W) for an exact W; a kernel outside the
    class (the identity, t = 3/2, delta = 1/4) has a row pair that is not, with a re-checked separating loss."""
    r = sup_eta_hockey_stick_tensor(3, 2, t="3/2", delta="1/4")
    K = Kernel([["1/4", "1/4", "1/4", "1/4"], ["1/8", "3/8", "1/4", "1/4"], ["1/5", "1/5", "2/5", "1/5"]])
    assert privacy_level_failures(K, Q(3, 2), None, Q(1, 4)) == []
    pairs = r.garblings(K)
    assert len(pairs) == 6 and all(d.dominates and d.certified() for d in pairs.values())
    assert eta_tv_tensor_power(K, 2) <= r.value
    outside = r.garblings(Kernel([["1", "0"], ["0", "1"], ["1", "0"]]))
    assert not outside[(0, 1)].dominates and outside[(0, 1)].certified() and outside[(0, 2)].dominates


def test_objective_is_not_convex_so_vertices_are_not_enough():
    """K_p = [[p, 1−p], [0, 1]] (in the (eps,delta) class for p <= delta): eta_TV(K_p⊗K_p) = 2p − p², strictly
    concave, so the supremum of an n-sample coefficient is not a vertex search."""
    for p in (Q(1, 4), Q(1, 2), Q(3, 4)):
        assert eta_tv_tensor_power(Kernel.from_exact_rows([[p, 1 - p], [Q(0), Q(1)]]), 2) == 2 * p - p * p


@pytest.mark.parametrize("t,c", [("3", "1/4"), ("3/2", "1/4"), ("6/5", "1/3"), ("2", "1/2"), ("5", "0")])
def test_pml_with_two_inputs_is_an_ldp_class(t, c):
    """N = 2: (eps,c)-PML = t'-LDP with t' = t(1−c)/(1−tc) (every kernel when tc >= 1), on every 2 x 2 and 2 x 3
    grid kernel; the n = 1 value is the PML LP's, and n = 2, 3 are those of binary RR(t')."""
    t, c = Q(t), Q(c)
    tp = None if t * c >= 1 else t * (1 - c) / (1 - t * c)
    for K in list(grid_kernels(2, 2, 8)) + list(grid_kernels(2, 3, 4)):
        assert (privacy_level_failures(K, t, c) == []) == (tp is None or _at_most(ldp_ratio(K), tp))
    assert sup_eta_hockey_stick_tensor(2, 1, t=t, c=c).value == sup_eta_hockey_stick(2, 2, t=t, c=c).value
    for n in (2, 3):
        r = sup_eta_hockey_stick_tensor(2, n, t=t, c=c)
        expected = 1 if tp is None else eta_tv_tensor_power(binary_randomized_response(tp), n)
        assert r.value == expected and r.certified() and r.gap is None


def _at_most(ratio, bound):
    return ratio is not sympy.oo and ratio <= bound


def test_wrong_certificates_are_caught():
    r = sup_eta_hockey_stick_tensor(2, 2, t="3/2", delta="1/4")
    wrong_value = NSampleExtremal(Q(1, 2), r.kernel, r.dominating, r.params, r.phi_n)
    assert any("!= value 1/2" in f for f in wrong_value.failures())
    b4 = optimal_binary_approx_ldp("3/2", "1/4")
    weak = NSampleExtremal(Q(2, 5), b4, b4, r.params, r.phi_n)
    assert any("not a breakpoint" in f or "!= U(" in f for f in weak.failures())
    assert eta_tv(b4) == Q(2, 5)


def test_bad_arguments_name_the_rule():
    with pytest.raises(ParameterError, match="N: .*PML.* N = 2 only"):
        sup_eta_hockey_stick_tensor(3, 2, t=2, c="1/4")
    with pytest.raises(ParameterError, match=r"M: with M = 2 outputs the n-sample supremum lies in \[7/16, 11/20\]"):
        sup_eta_hockey_stick_tensor(2, 2, M=2, t="3/2", delta="1/4")
    with pytest.raises(ParameterError, match="delta: the .*PML class has no delta"):
        sup_eta_hockey_stick_tensor(2, 2, t=2, c="1/4", delta="1/4")
    with pytest.raises(ParameterError, match="n: must be a positive integer"):
        sup_eta_hockey_stick_tensor(2, 0, t=2)
    with pytest.raises(ParameterError, match="gamma: must be >= 1"):
        sup_eta_hockey_stick_tensor(2, 2, t=2, gamma="1/2")


def test_phi_n_gap_is_reported_for_ldp():
    for n in (1, 2, 4):
        r = sup_eta_hockey_stick_tensor(2, n, t=2, delta="1/5")
        assert r.phi_n == phi_n(2, "1/5", n) and r.gap == r.phi_n - r.value and r.gap >= 0
