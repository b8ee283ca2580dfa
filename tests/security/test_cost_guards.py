"""Cost guards before work starts (issue 14, part A): every size the user controls is estimated from the
sizes alone and refused above a documented limit with a message naming the limit; just under the limit the
exact value still comes out.  The big inputs of the issue are refused immediately (nothing of their size is
built), so they are tested as they are; the thresholds are tested with lowered limits."""

import json

import pytest
from flint import fmpq

from exactdp.cli import main
from exactdp.errors import ExactDPError
from exactdp.io import kernel_from_text, read_kernel
from exactdp.kernels import Kernel
from exactdp.limits import ResourceLimitError, limits
from exactdp.mechanisms import (
    grosse_integer_q,
    grosse_optimal_mechanism,
    grosse_pml_mechanism,
    randomized_response,
    unary_encoding,
)
from exactdp.measures.tensor import (
    delta_tensor_power,
    eta_hockey_stick_tensor_power,
    eta_tv_tensor_power,
    hockey_stick_product,
    phi_n,
    privacy_profile_tensor_power,
    tensor_search_cost,
)
from exactdp.theory.extremal import gamma_max, sup_eta_tv
from exactdp.algebra.lp import LinearProgram, lp_cost, solve

RR = [["3/4", "1/4"], ["1/4", "3/4"]]
K23 = [["1/2", "1/3", "1/6"], ["1/3", "1/3", "1/3"]]
ASYM = [["1/2", "1/2"], ["1/3", "2/3"]]


def _file(tmp_path, rows, name="K.json"):
    path = tmp_path / name
    path.write_text(json.dumps(rows))
    return str(path)


def _refused(capsys, limit_name):
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert limit_name in err and "Traceback" not in err
    return err


# -- tensor powers by type classes ------------------------------------------------------------------------

def test_tensor_cli_refuses_the_issue_case(tmp_path, capsys):
    """The asymmetric 2×2 at n = 10⁶: past the exact search and past the certified enclosure's budget."""
    assert main(["tensor", _file(tmp_path, ASYM), "--n", "1000000"]) == 2
    err = _refused(capsys, "max_work")
    assert "n = 1000000" in err and "EXACTDP_MAX_WORK" in err


@pytest.mark.parametrize("rows,n", [(RR, "1000000000000"), (K23, "10000")])
def test_tensor_cli_answers_past_the_exact_search_with_an_enclosure(tmp_path, capsys, rows, n):
    """η_TV of K^{⊗n} beyond the exact search's budget is a certified enclosure, not a refusal (and not a crash:
    RR at n = 10¹² used to form 10¹²-digit powers in the tie test of the binomial threshold)."""
    assert main(["tensor", _file(tmp_path, rows), "--n", n]) == 0
    out = capsys.readouterr().out
    assert f"n = {n}" in out and "certified enclosure" in out


def test_tensor_cli_refuses_gamma_powers_before_computing_them(tmp_path, capsys):
    # phi^n and gamma^n at n = 10^12 would be integers of 10^12 bits: refused from the sizes
    assert main(["tensor", _file(tmp_path, RR), "--n", "1000000000000", "--t", "3/2"]) == 2
    _refused(capsys, "max_work")


def test_delta_tensor_power_refuses_multi_class_kernels_at_large_n():
    with pytest.raises(ResourceLimitError, match=r"max_work.*EXACTDP_MAX_WORK") as exc:
        delta_tensor_power(Kernel(K23), 10_000, 2)
    assert "n = 10000 for a 2x3 kernel" in str(exc.value) and "type classes" in str(exc.value)
    with pytest.raises(ResourceLimitError, match="max_work.*certified filter|certified filter.*max_work"):
        eta_tv_tensor_power(Kernel(ASYM), 10**6)  # n = 10 000 fits since the certified filter (issue 15)


def test_tensor_estimate_is_honest_and_the_threshold_is_exact():
    K = randomized_response(2, 3)
    cost = tensor_search_cost([(K, 5)])
    assert (cost.terms, cost.evaluations, cost.rank) == (6, 1, 1)  # (3x + 1)^5: 6 coefficients
    assert cost.bits >= 5 * 2  # denominators 4^5
    with limits(max_work=cost.work):  # just under (at) the limit: the exact value
        assert eta_tv_tensor_power(K, 5) == fmpq(203, 256)
    with limits(max_work=cost.work - 1):
        with pytest.raises(ResourceLimitError, match="max_work"):
            eta_tv_tensor_power(K, 5)
    with limits(max_memory=cost.memory - 1):
        with pytest.raises(ResourceLimitError, match="max_memory"):
            eta_tv_tensor_power(K, 5)


def test_tensor_cases_that_run_in_seconds_stay_under_the_default_limits():
    # README: RR at n = 10 000 (0.2 s), the asymmetric 2x2 kernel at n = 1000 (2 s), 2x3 kernels to n ~ 100
    assert tensor_search_cost([(randomized_response(2, 3), 10_000)]).work <= 10**9
    assert tensor_search_cost([(Kernel([["1/2", "1/2"], ["1/4", "3/4"]]), 1000)]).work <= 10**9
    assert tensor_search_cost([(Kernel(K23), 100)]).work <= 10**9
    assert delta_tensor_power(randomized_response(2, 3), 10, 3**5) == fmpq(55647, 131072)


def test_multi_class_search_under_a_lowered_limit_is_still_exact():
    K = Kernel([["2/9", "7/9"], ["1/2", "1/2"]])
    cost = tensor_search_cost([(K, 3)])
    with limits(max_work=cost.work):
        assert eta_tv_tensor_power(K, 3) == fmpq(5, 12)
    with limits(max_work=cost.work // 2):
        with pytest.raises(ResourceLimitError, match="max_work"):
            eta_tv_tensor_power(K, 3)


def test_profile_phi_and_products_are_guarded():
    with pytest.raises(ResourceLimitError, match="max_work"):
        phi_n(2, "1/10", 10**12)
    assert phi_n(1, 0, 10**12) == 0  # 1^n: nothing to compute
    with pytest.raises(ResourceLimitError, match="max_work"):
        hockey_stick_product([(["3/4", "1/4"], ["1/4", "3/4"], 10**12)], 1)
    assert hockey_stick_product([(["3/4", "1/4"], ["1/4", "3/4"], 2)], 1) == fmpq(1, 2)
    K = randomized_response(2, 3)
    with limits(max_work=20_000):  # classifying RR's two row pairs fits, 51 compositions do not
        with pytest.raises(ResourceLimitError, match="privacy_profile_tensor_power.*max_work"):
            privacy_profile_tensor_power(K, 50)
    assert eta_hockey_stick_tensor_power(K, 3, 2) == fmpq(17, 32)


# -- explicit kernels --------------------------------------------------------------------------------------

def test_explicit_tensor_power_is_refused_from_the_sizes():
    K = Kernel(RR)
    with pytest.raises(ResourceLimitError, match=r"2\^20 x 2\^20.*max_entries"):
        K.tensor_power(20)
    with pytest.raises(ResourceLimitError, match="max_entries"):
        K.tensor_power(10**12)  # (N*M)^n is never formed
    with limits(max_entries=64):  # 8 x 8 = 64 entries: exactly at the limit
        P = K.tensor_power(3)
        assert P.shape == (8, 8) and P[0, 0] == fmpq(27, 64)
        with pytest.raises(ResourceLimitError, match="max_entries"):
            K.tensor_power(4)
        with pytest.raises(ResourceLimitError, match="max_entries"):
            Kernel.identity(9)
        with pytest.raises(ResourceLimitError, match="max_entries"):
            Kernel([["1"] * 65])


def test_catalogue_constructors_are_refused_before_building_rows(capsys):
    assert main(["derive", "grosse_pml_mechanism", "N=1000"]) == 2
    _refused(capsys, "max_symbolic_entries")
    with pytest.raises(ResourceLimitError, match="max_entries"):
        randomized_response(10**6, 3)
    with pytest.raises(ResourceLimitError, match="max_entries"):
        unary_encoding(40, "1/2", "1/3")
    with pytest.raises(ResourceLimitError, match="max_entries"):
        grosse_optimal_mechanism(10**12, 3, fmpq(1, 10**13))
    import sympy

    g, c = sympy.symbols("g c", positive=True)
    assert grosse_pml_mechanism(6, g, c).shape == (6, 2)
    with pytest.raises(ResourceLimitError, match="max_symbolic_entries"):
        grosse_pml_mechanism(26, g, c)


def test_integer_q_closed_form_matches_the_definition():
    for N in range(2, 9):
        for g in (fmpq(1), fmpq(3, 2), fmpq(5, 2)):
            for c in (fmpq(1, N), fmpq(1, 2 * N), fmpq(1, 3 * N + 1)):
                expected = tuple(q for q in range(1, N) if g * c * q <= 1 and g * c * (N - q) <= 1)
                assert grosse_integer_q(N, g, c) == expected
    assert grosse_integer_q(10**12, 3, fmpq(1, 10**12)) == ()  # decided without a loop over N


# -- exact LPs ---------------------------------------------------------------------------------------------

def test_extremal_cli_refuses_the_issue_case(capsys):
    assert main(["extremal", "sup", "--N", "200", "--M", "50", "--t", "3", "--c", "1/1000"]) == 2
    err = _refused(capsys, "max_work")
    assert "9800 variables x 1990200 rows" in err


def test_extremal_ldp_subsets_and_huge_n_are_sized_without_building():
    with pytest.raises(ResourceLimitError, match="max_work"):
        sup_eta_tv(3, 100_000, t=3)  # 2^100000 - 2 subsets, never enumerated
    with pytest.raises(ResourceLimitError, match="max_work"):
        gamma_max(10**12, 3, 0)


def test_extremal_just_under_the_limit_is_exact():
    work, _ = lp_cost(3, 3 + 2 * 6, 1)  # N = 3, M = 2, PML: 3 variables x 15 rows, one LP
    with limits(max_work=work):
        assert sup_eta_tv(3, t="5/2", c="1/4").value == fmpq(12, 13)
    with limits(max_work=work - 1):
        with pytest.raises(ResourceLimitError, match="N = 3, M = 2.*max_work"):
            sup_eta_tv(3, t="5/2", c="1/4")


def test_solve_checks_its_tableau():
    lp = LinearProgram([1, 1], [[1, 0], [0, 1]], [1, 2])
    assert solve(lp).value == 3
    with limits(max_work=1):
        with pytest.raises(ResourceLimitError, match="solve.*max_work"):
            solve(lp)


# -- kernel files and analyze --------------------------------------------------------------------------------

def test_read_kernel_checks_file_size_and_entries_before_parsing(tmp_path, capsys):
    path = _file(tmp_path, RR)
    with limits(max_file_bytes=10):
        with pytest.raises(ResourceLimitError, match="max_file_bytes"):
            read_kernel(path)
    ragged = tmp_path / "ragged.json"  # 3 separators, but 2 rows of up to 3 entries: 6 > 5 after parsing
    ragged.write_text('[["1/2","1/2"],["1/3","1/3","1/3"]]')
    with limits(max_entries=5):
        with pytest.raises(ResourceLimitError, match="2 rows of up to 3 entries.*max_entries"):
            read_kernel(ragged)
    with limits(max_entries=3):
        with pytest.raises(ResourceLimitError, match="max_entries"):
            kernel_from_text("1/2,1/2\n1/3,2/3\n", "csv")
    with limits(max_entries=4):  # 4 entries, 3 separators: exactly at the limit
        assert read_kernel(path).rows[0] == (fmpq(3, 4), fmpq(1, 4))
    big = tmp_path / "big.json"
    big.write_text("[" + ",".join(['["1/2","1/2"]'] * 3000) + "]")
    with limits(max_entries=5000):  # counted by separators before json.loads
        with pytest.raises(ResourceLimitError, match="separators: about 6000 entries"):
            read_kernel(big)
    # a shape guard of the caller runs before the entries are parsed
    seen = []
    read_kernel(path, check_shape=lambda N, M: seen.append((N, M)))
    assert seen == [(2, 2)]


def test_binary_file_is_one_line(tmp_path, capsys):
    path = tmp_path / "bin.json"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(ExactDPError, match="not a text file"):
        read_kernel(path)
    assert main(["analyze", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "not a text file" in err


def test_analyze_guards_its_passes_and_reports_a_skipped_profile(tmp_path, capsys):
    from exactdp.analysis import analyze
    from exactdp.output.analysis_view import analysis_json, analysis_text

    K = Kernel([["1/2", "1/2"], ["1/3", "2/3"], ["1", "0"]])
    a = analyze(K, profile_limit=2)
    assert a.profile is None and "profile_limit = 2" in a.notes[0]
    assert "privacy_profile" not in analysis_json(a) and "profile_limit = 2" in analysis_json(a)["notes"][0]
    assert "note: privacy profile not computed" in analysis_text(a)
    assert not analyze(K).notes and "notes" not in analysis_json(analyze(K))
    assert analyze(K).eta_tv == fmpq(2, 3) and analysis_json(analyze(K))["eta_tv"]["value"] == "2/3"
    from exactdp.analysis import check_cost

    with limits(max_work=4):  # 1 pass x 3 x 3 pairs x 2 outputs / 4 = 4
        check_cost(3, 2)
        with pytest.raises(ResourceLimitError, match="3 passes.*max_work"):
            check_cost(3, 2, t=2)
    with limits(max_work=10**6):
        with pytest.raises(ResourceLimitError, match="analyze: 1 pass over the 300x300 row pairs"):
            analyze(Kernel.identity(300))


def test_pair_classification_is_guarded_by_kernel_size():
    from exactdp.measures.tensor import pair_classes

    K = Kernel([["1/2", "1/2"], ["1/3", "2/3"], ["1", "0"]])
    assert len(pair_classes(K, prune_dominated=False)) == 6
    with limits(max_work=6 * 2 * 2000):  # 6 ordered pairs x 2 outputs: classified
        assert len(pair_classes(K, prune_dominated=False)) == 6
    with limits(max_work=6 * 2 * 2000 - 1):
        with pytest.raises(ResourceLimitError, match="6 ordered row pairs of a 3x2 kernel.*max_work"):
            pair_classes(K)


def test_binomial_threshold_tie_test_forms_no_huge_power():
    """a^j b^k > g decided from prime exponents (exact ties) and rising-precision logs: j + k = 10¹² is instant."""
    from flint import fmpq

    from exactdp.measures.tensor_enclosure import _power_product_above as above

    assert not above(fmpq(3), 5, fmpq(1, 3), 5, fmpq(1))            # 3^5 3^-5 = 1: a tie is not above
    assert above(fmpq(3), 6, fmpq(1, 3), 5, fmpq(1))
    assert above(fmpq(3), 5 * 10**11 + 1, fmpq(1, 3), 5 * 10**11, fmpq(1))
    assert not above(fmpq(3), 5 * 10**11, fmpq(1, 3), 5 * 10**11 + 1, fmpq(1))
    assert [above(fmpq(2), 10, fmpq(3, 2), 0, fmpq(g)) for g in (1023, 1024, 1025)] == [True, False, False]
