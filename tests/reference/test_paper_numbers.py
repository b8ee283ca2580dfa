"""The numbers the papers (and claims.md's reconstructions) print, asserted to the printed digits with
certified values (rounds_to is TRUE only when the whole ball rounds to the printed decimal)."""

from __future__ import annotations

import pytest
import sympy
from flint import fmpq

from exactdp import mechanisms
from exactdp.measures.divergences import hellinger2, kl, tv
from exactdp.measures.privacy import pml_ratio
from exactdp.numbers.truth import Truth
from exactdp.numbers.rb import rounds_to
from exactdp.theory.bernoulli import bernoulli_e_gamma_information, bernoulli_mutual_information
from exactdp.theory.estimation import (
    bayes_e_gamma,
    bernoulli_bayes_point,
    effective_sample_size_crossovers,
    grosse_hellinger_bound,
    grosse_kl_bound,
    xu_raginsky,
    zamanlooy_asoodeh_kl_coefficient,
)

#: claims.md A-17 table (n = 20, δ = 10⁻⁴): ε, φⁿ, bound (15), Thm 2 (γ = e^ε)
A17_TABLE = [
    ("0.01", "0.183", "0.0444", "0.0967"),
    ("0.05", "0.633", "0.0199", "0.0437"),
    ("0.1", "0.865", "0.0135", "0.0255"),
    ("0.5", "1.000", "0.0109", "0.0216"),
    ("1", "1.000", "0.0109", "0.0258"),
    ("2", "1.000", "0.0109", "0.0160"),
    ("3", "1.000", "0.0109", "0.0062"),
]


@pytest.mark.parametrize("eps,phi_n,xr,thm2", A17_TABLE)
def test_asoodeh_fig1_table(eps, phi_n, xr, thm2):
    p = bernoulli_bayes_point(eps, "1e-4", 20)
    assert rounds_to(p.phi_n, phi_n) is Truth.TRUE
    assert rounds_to(p.xu_raginsky, xr) is Truth.TRUE
    assert rounds_to(p.thm2, thm2) is Truth.TRUE


def test_asoodeh_bernoulli_0_08_versus_0_03():
    """[A] §V: Thm 2 / bound (17) gives 0.08, bound (15) gives 0.03 — reproduced at ε = 0.02 (F-A10:
    the paper's ε is not stored), with the A-16 neighbours ε = 0.01 and 0.025."""
    p = bernoulli_bayes_point("0.02", "1e-4", 20)
    assert rounds_to(p.thm2, "0.08") is Truth.TRUE and rounds_to(p.xu_raginsky, "0.03") is Truth.TRUE
    assert rounds_to(p.thm2, "0.0767") is Truth.TRUE and rounds_to(p.xu_raginsky, "0.0337") is Truth.TRUE
    q = bernoulli_bayes_point("0.01", "1e-4", 20)
    assert rounds_to(q.thm2, "0.097") is Truth.TRUE and rounds_to(q.xu_raginsky, "0.044") is Truth.TRUE
    r = bernoulli_bayes_point("0.025", "1e-4", 20)
    assert rounds_to(r.thm2, "0.069") is Truth.TRUE and rounds_to(r.xu_raginsky, "0.030") is Truth.TRUE


def test_e_gamma_information_guaranteed_digits():
    """RB form of I_γ: 25 guaranteed digits at γ = e^0.01 agree with the 100-bit ball."""
    from exactdp.theory.bernoulli import bernoulli_e_gamma_information_rb
    from exactdp.parameters import t_value

    x = bernoulli_e_gamma_information_rb(20, t_value(eps="0.01"))
    digits = x.evalf(25)
    assert digits.startswith("0.63381147680303")
    assert rounds_to(bernoulli_e_gamma_information(20, t_value(eps="0.01")), digits[:16]) is Truth.TRUE


def test_mutual_information_n20():
    assert rounds_to(bernoulli_mutual_information(20), "1.14721") is Truth.TRUE


def test_nonprivate_values():
    """claims.md A-16: non-private Xu–Raginsky 0.01087 (n = 20); n = 1: E_γ 0.0740 (= 2/27 = 0.074074…,
    which the catalogue truncates) and Xu–Raginsky 0.0457."""
    assert rounds_to(xu_raginsky(bernoulli_mutual_information(20), 1, 1, 20).value, "0.01087") is Truth.TRUE
    assert rounds_to(xu_raginsky(bernoulli_mutual_information(1), 1, 1, 1).value, "0.0457") is Truth.TRUE
    Ig = bernoulli_e_gamma_information(1, "4/3")
    assert rounds_to(bayes_e_gamma(Ig, "4/3", 1, 1).value, "0.07407") is Truth.TRUE


def test_effective_sample_size_crossovers():
    """F-A3: φ(ε,0) < 4(e^ε−1)² only for ε > 0.18823, φ(ε,0) < 4ε² only for ε > 0.22398."""
    x = effective_sample_size_crossovers()
    assert rounds_to(x["phi_vs_4(e^eps-1)^2"], "0.18823") is Truth.TRUE
    assert rounds_to(x["phi_vs_4eps^2"], "0.22398") is Truth.TRUE


#: claims.md G-27 table for K₁ of [G] Example 2: u = Nc, true KL/TV, Cor 1, true H²/TV, Cor 2
G27_TABLE = [
    ("1/1000000", "2.3695", "2.4260", "1.0318", "1.0500"),
    ("1/10", "1.8634", "1.9168", "0.8526", "0.8728"),
    ("1/4", "1.3758", "1.4240", "0.6546", "0.6752"),
    ("1/2", "0.8210", "0.8582", "0.4031", "0.4207"),
    ("3/4", "0.3891", "0.4113", "0.1938", "0.2047"),
]


@pytest.mark.parametrize("u,kl_ratio,cor1,h2_ratio,cor2", G27_TABLE)
def test_grosse_example2_K1_table(u, kl_ratio, cor1, h2_ratio, cor2):
    N = 4
    K = mechanisms.grosse_example2_K1(N)
    c = fmpq(*map(int, u.split("/"))) / N
    t = pml_ratio(K, c)
    assert t == 15 / (1 + 7 * N * c)
    P = [c + (1 - N * c) / 2] * 2 + [c] * 2  # the extreme pair p_A = 1 − u/2 versus u/2
    Q = [c] * 2 + [c + (1 - N * c) / 2] * 2
    d = sympy.Rational(str(tv(P, Q)))
    assert rounds_to(sympy.sympify(kl(K.apply(P), K.apply(Q))) / d, kl_ratio) is Truth.TRUE
    assert rounds_to(sympy.sympify(hellinger2(K.apply(P), K.apply(Q))) / d, h2_ratio) is Truth.TRUE
    assert rounds_to(grosse_kl_bound(t, c, 1, N).value, cor1) is Truth.TRUE
    assert rounds_to(grosse_hellinger_bound(t, c, 1, N).value, cor2) is Truth.TRUE


def test_zamanlooy_asoodeh_K1():
    assert rounds_to(zamanlooy_asoodeh_kl_coefficient(15), "2.3695") is Truth.TRUE
