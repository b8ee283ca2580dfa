"""The bounds registry: every bound of both papers, exact values from claims.md, proved orderings."""

import pytest
import sympy
from flint import fmpq

from exactdp.errors import ParameterError
from exactdp.numbers.truth import Truth
from exactdp import bounds as B

R = sympy.Rational

REQUIRED = ["phi", "phi_n", "effective_sample_size_phi", "effective_sample_size_duchi", "xi", "grosse_thm1",
            "gamma_max_lemma4", "gamma_min_lemma4", "gamma_max_exact", "gamma_min_exact", "grosse_cor1_kl",
            "grosse_cor2_h2", "ldp_dobrushin", "ldp_dobrushin_tight", "duchi_kl", "zamanlooy_asoodeh_egamma",
            "zamanlooy_asoodeh_kl", "binette_kl", "binette_h2", "lecam_private_tv", "fano_private", "bayes_thm2",
            "xu_raginsky_private"]


def test_registry_holds_every_required_bound_with_provenance():
    for name in REQUIRED:
        b = B.get(name)
        assert b.source.paper.key and b.source.label
        assert b.direction in ("upper", "lower", "equals", "definition")
        assert b.catalogue
    for name in ("lecam_private_tv", "fano_private", "bayes_thm2", "xu_raginsky_private",
                 "zamanlooy_asoodeh_kl"):
        assert B.get(name).reconstructed
    assert not B.get("phi").reconstructed


def test_unknown_bound_is_a_parameter_error():
    with pytest.raises(ParameterError, match="unknown bound"):
        B.get("no_such_bound")


def test_phi_table_A7():
    """claims.md A-7 test vectors: phi and the tight value (5 significant digits)."""
    phi, tight = B.get("phi"), B.get("ldp_dobrushin_tight")
    rows = [("1/2", "0", "0.39347", "0.24492"), ("1/2", "1/10", "0.45412", "0.32043"),
            ("1", "1/10000", "0.63216", "0.46217"), ("2", "3/10", "0.90527", "0.83312")]
    for eps, d, p, tt in rows:
        assert phi.evalf(5, eps=eps, delta=d) == p
        assert tight.evalf(5, eps=eps, delta=d) == tt


def test_phi_n_is_not_a_power_F_A1():
    """phi^2(eps,0) at E = 3 is 8/9, phi(eps,0)^2 = 4/9 < eta_TV(RR x RR) = 1/2."""
    assert B.get("phi_n").evaluate(t=3, delta=0, n=2) == fmpq(8, 9)
    assert B.get("phi").evaluate(t=3, delta=0) ** 2 == fmpq(4, 9)
    assert B.get("phi_n").evalf(5, t=3, delta=0, n=5) == "0.99588"


@pytest.mark.parametrize("N,E,c,value", [
    (2, 3, "1/4", "4/5"), (2, 2, "1/3", "3/5"), (3, 2, "1/4", "2/3"), (3, "5/2", "1/4", "12/13"),
    (3, "21/8", "1/4", "52/53"), (3, "8/3", "1/4", "1"), (3, 3, "1/4", "1"), (3, "33/10", "1/5", "115/116"),
    (4, "3/2", "1/8", "2/7"), (4, 3, "1/1000", "500/997"), (5, "19/5", "1/10", "28/29"), (4, "6/5", "1/4", "1/5"),
    (3, "11/10", "1/3", "1/10"),
])
def test_xi_matches_the_exact_LP_table_of_claims_section7(N, E, c, value):
    assert str(B.get("grosse_thm1").evaluate(N=N, t=E, c=c)) == value


@pytest.mark.parametrize("N,E,c,exact,lemma4", [
    (2, 3, "1/4", "7/3", "5/2"), (3, 2, "1/10", "15/8", "12/5"), (4, "3/2", "1/8", "7/5", "7/4"),
    (4, 3, "1/8", "5/2", "5/2"), (5, "13/10", "1/20", "41/32", "79/40"),
])
def test_gamma_max_exact_and_lemma4_G23(N, E, c, exact, lemma4):
    assert str(B.get("gamma_max_exact").evaluate(N=N, t=E, c=c)) == exact
    assert str(B.get("gamma_max_lemma4").evaluate(N=N, t=E, c=c)) == lemma4
    assert str(B.get("gamma_min_exact").evaluate(N=N, t=E, c=c)) == str(1 / fmpq(*map(int, exact.split("/")))
                                                                        if "/" in exact else fmpq(1, int(exact)))


def test_domain_violations_are_reported():
    with pytest.raises(ParameterError, match="domain"):
        B.get("phi").evaluate(t="1/2", delta=0)
    with pytest.raises(ParameterError, match="not a parameter"):
        B.get("phi").evaluate(t=2, zz=1)
    with pytest.raises(ParameterError, match="eps"):
        B.get("phi").evaluate(eps="-1", delta=0)


def test_evaluate_with_eps_gives_exact_transcendental_values():
    v = B.get("ldp_dobrushin").evaluate(eps="1/2")
    assert sympy.cancel(v - (sympy.exp(R(1, 2)) - 1) / (sympy.exp(R(1, 2)) + 1)) == 0
    assert B.get("binette_kl").evaluate(M=4) == sympy.log(4)
    assert B.get("grosse_cor1_kl").evalf(6, N=4, t=3, c="1/8") == str(sympy.N(R(4, 5) * sympy.log(R(5, 2)), 6))


def test_compare_tight_vs_phi_proved_with_crossings():
    cmp = B.get("ldp_dobrushin_tight").compare(B.get("phi"))
    assert cmp.le.truth is Truth.TRUE
    assert cmp.ge.truth is Truth.FALSE
    assert cmp.crossings == [sympy.Eq(B.delta, 1), sympy.Eq(B.t, 1)]  # equality iff delta = 1 or eps = 0


def test_compare_grosse_eta_vs_phi_crossing_at_t_equal_1_over_Nc():
    """Grosse's eta_TV(eps,c) <= phi(eps,0) exactly when N c e^eps <= 1 (here N = 4)."""
    cmp = B.get("grosse_thm1").compare(B.get("phi"), at={"N": 4, "delta": 0})
    assert cmp.le.truth is Truth.FALSE and cmp.ge.truth is Truth.FALSE
    assert sympy.Eq(B.t, 1 / (4 * B.c)) in cmp.crossings
    ce = cmp.le.counterexample
    assert 4 * ce[B.c] * ce[B.t] > 1


def test_compare_effective_sample_sizes_F_A3():
    cmp = B.get("effective_sample_size_phi").compare(B.get("effective_sample_size_duchi"), at={"n": 1, "delta": 0})
    assert cmp.le.truth is Truth.FALSE and cmp.ge.truth is Truth.FALSE
    assert {B.t: R(1, 2) + sympy.sqrt(2) / 2} in cmp.crossings
    # phi(eps,0) n >= 4(e^eps - 1)^2 n exactly for e^eps <= (1 + sqrt 2)/2: [A]'s size is larger for small eps
    assert cmp.ge_where == [B.t <= R(1, 2) + sympy.sqrt(2) / 2]
    assert cmp.le_where == [B.t >= R(1, 2) + sympy.sqrt(2) / 2]


def test_compare_gamma_max_exact_below_lemma4():
    cmp = B.get("gamma_max_exact").compare(B.get("gamma_max_lemma4"), at={"N": 3})
    assert cmp.le.truth is Truth.TRUE
    assert cmp.ge.truth is Truth.FALSE  # Lemma 4 is loose (F-G2)


def test_compare_with_logs_is_undecided_not_guessed():
    cmp = B.get("grosse_cor1_kl").compare(B.get("zamanlooy_asoodeh_kl"), at={"N": 4, "c": "1/8"})
    assert cmp.le.truth is Truth.UNKNOWN and cmp.le.reason


def test_cli_bound(capsys):
    from exactdp.cli import main

    assert main(["bound", "--list"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in REQUIRED)
    assert main(["bound", "--list", "--format", "markdown"]) == 0
    table = capsys.readouterr().out
    assert table.count("\n| `") == len(B.names()) and "| `phi` |" in table
    assert all(line.count(" | ") == 3 for line in table.splitlines()[2:])  # no stray | inside a formula
    assert main(["bound", "xi", "--t", "3", "--c", "1/4", "--N", "2"]) == 0
    assert "value at t = 3, c = 1/4, N = 2: 4/5" in capsys.readouterr().out
    assert main(["bound", "xi", "--at", "t=3,c=1/4,N=2"]) == 2  # a parameter with its own flag: one line naming it
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "--at: t has its own flag; give it as --t" in err
    assert main(["bound", "phi", "--eps", "1/2", "--delta", "0", "--digits", "8"]) == 0
    assert "0.39346934" in capsys.readouterr().out  # 1 - e^(-1/2)
    assert main(["bound", "xi", "--format", "latex", "--t", "3", "--c", "1/4", "--N", "2"]) == 0
    assert capsys.readouterr().out.strip() == r"\Xi(\varepsilon,c) = \frac{4}{5}"
    assert main(["bound", "ldp_dobrushin_tight", "--compare", "phi"]) == 0
    assert "ldp_dobrushin_tight ≤ phi: true" in capsys.readouterr().out
    assert main(["bound", "nope"]) == 2
    assert "unknown bound" in capsys.readouterr().err
    assert main(["bound", "phi", "--t", "0.5", "--delta", "0"]) == 2  # "0.5" is read exactly as 1/2 < 1
    assert "violate the domain condition t >= 1" in capsys.readouterr().err


def test_compare_reports_where_each_ordering_is_proved():
    """[G] eta_TV(eps,c) <= phi(eps,0) exactly where e^eps <= 1/(Nc) (N = 4), >= beyond."""
    cmp = B.get("grosse_thm1").compare(B.get("phi"), at={"N": 4, "delta": 0})
    assert cmp.le_where == [B.t <= 1 / (4 * B.c)]
    assert cmp.ge_where == [B.t >= 1 / (4 * B.c)]
    assert "grosse_thm1 <= phi proved where: t <= 1/(4*c)" in cmp.summary()
