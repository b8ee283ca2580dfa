"""Multi-parametric exact LP (exactdp.theory.parametric) and its "parametric-lp" certificate (issue 12 item 2).

Values are checked three ways: per region against the papers' closed forms (decided by the prover on the
region), against the exact rational LP at a rational grid of parameter points (brute force), and through the
certificate's own re-check, which must reject tampered data (a widened region, a perturbed dual, a coverage
gap, a leaf declared empty that is not).
"""

from __future__ import annotations

import dataclasses
import functools

import pytest
import sympy
from flint import fmpq

from exactdp.algebra.certificates import Certificate, check
from exactdp.algebra.certificates.parametric_lp import ParametricLPCertificate
from exactdp.algebra.prover import Region, decide
from exactdp.errors import ParameterError
from exactdp.limits import ResourceLimitError, limits
from exactdp.numbers.qq import CoercionError
from exactdp.numbers.truth import Truth
from exactdp.theory import extremal, parametric
from exactdp.formulas import xi

t, c, d, g = sympy.symbols("t c delta gamma", positive=True)


def xi_closed(N):
    return sympy.Min((t - 1) / (t * (1 - N * c) + 1), 1)


@functools.lru_cache(maxsize=None)
def eta3():
    return parametric.sup_eta_tv(3, t=t, c=c)


@functools.lru_cache(maxsize=None)
def gamma2():
    return parametric.gamma_max(2, t, c)


def _on_every_region(sol, closed, domain):
    """closed ≤ value and value ≤ closed, decided by the prover on domain ∩ region, for every region."""
    for r in sol.regions:
        region = Region.of(*domain, *r.conditions, variables=(t, c))
        v = r.value + sol.problem.offset
        for rel in (sympy.LessThan(v, closed, evaluate=False), sympy.GreaterThan(v, closed, evaluate=False)):
            assert decide(rel, region).truth is Truth.TRUE, (rel, r.conditions)


def _at(expr, **point):
    return expr.subs({sympy.Symbol(k, positive=True): sympy.Rational(v) for k, v in point.items()})


def test_eta_tv_n3_equals_xi_closed_form_region_by_region():
    r = eta3()
    assert r.certified(), r.failures()
    sol = r.solutions[0]
    assert len(sol.regions) >= 3  # the odd-N gap 1/(2c) <= t < 2/(3c) needs its own basis
    _on_every_region(sol, xi_closed(3), (t >= 1, c <= sympy.Rational(1, 3)))
    values = {sympy.cancel(reg.value + sol.problem.offset) for reg in sol.regions}
    assert values == {sympy.Integer(1), sympy.cancel((t - 1) / (t * (1 - 3 * c) + 1))}


@pytest.mark.parametrize("tt", ["1", "6/5", "2", "5/2", "4", "9", "40"])
@pytest.mark.parametrize("cc", ["1/30", "1/9", "1/5", "1/4", "1/3"])
def test_eta_tv_n3_piecewise_matches_exact_lp_on_a_grid(tt, cc):
    value = _at(eta3().value, t=tt, c=cc)
    exact = extremal.sup_eta_tv(3, t=tt, c=cc).value
    assert value == sympy.Rational(str(exact))
    assert exact == xi(tt, cc, 3)


def test_lifted_kernels_are_in_the_class_and_attain_the_value():
    """At rational grid points inside each region the lifted kernel is (eps,c)-PML and its eta_TV is Xi."""
    r = eta3()
    q = lambda v: fmpq(int(v.p), int(v.q))  # noqa: E731
    seen = 0
    for conds, rows in r.kernels():
        for tt in ("1", "3/2", "11/5", "3", "7"):
            for cc in ("1/20", "1/6", "1/4", "1/3"):
                pt = {t: sympy.Rational(tt), c: sympy.Rational(cc)}
                if not all(bool(cond.xreplace(pt)) for cond in conds):
                    continue
                K = extremal.Kernel.from_exact_rows([[q(sympy.Rational(e.xreplace(pt))) for e in row] for row in rows],
                                                    False)
                assert extremal.privacy_level_failures(K, fmpq(tt), fmpq(cc)) == []
                assert extremal.eta_hockey_stick(K, 1) == xi(tt, cc, 3)
                seen += 1
    assert seen >= 15


def test_every_certificate_rechecks_and_round_trips_through_json():
    for res in (eta3(), gamma2()):
        for cert in res.certificates:
            assert check(cert).truth is Truth.TRUE
            again = Certificate.from_json(cert.to_json())
            assert again == cert and check(again).truth is Truth.TRUE
            steps = " ".join(map(str, check(cert).steps))
            assert "coverage" in steps and "region 0" in steps and "Boolean decision" in steps


def _tampered(cert, **changes):
    return dataclasses.replace(cert, **changes)


def test_widened_region_is_rejected():
    cert = eta3().certificates[0]
    k = next(i for i, conds in enumerate(cert.region_conditions_) if conds)
    widened = list(cert.region_conditions_)
    widened[k] = widened[k][:-1]  # drop the region's last defining inequality
    bad = check(_tampered(cert, region_conditions_=tuple(widened)))
    assert bad.truth is Truth.FALSE
    assert any("differ from its cell" in f or "false on the region" in f for f in bad.failures)


def test_region_widened_consistently_in_the_tree_is_rejected_by_the_sign_conditions():
    """One region claimed on the whole domain (tree and conditions agree): only the LP sign conditions object."""
    cert = eta3().certificates[0]
    for k in range(len(cert.region_value)):
        whole = _tampered(cert, region_conditions_=((),), region_x=(cert.region_x[k],),
                          region_y_ub=(cert.region_y_ub[k],), region_y_eq=(cert.region_y_eq[k],),
                          region_value=(cert.region_value[k],), tree=("region", "0"))
        bad = check(whole)
        assert bad.truth is Truth.FALSE
        assert any("false on the region" in f for f in bad.failures)


def test_perturbed_dual_is_rejected():
    cert = eta3().certificates[0]
    k, i = next((k, i) for k, ys in enumerate(cert.region_y_ub) for i, y in enumerate(ys) if y != "0")
    ys = list(cert.region_y_ub[k])
    ys[i] = f"({ys[i]})*(1001/1000)"
    dual = list(cert.region_y_ub)
    dual[k] = tuple(ys)
    bad = check(_tampered(cert, region_y_ub=tuple(dual)))
    assert bad.truth is Truth.FALSE
    assert any("duality gap" in f or "reduced" in f for f in bad.failures)


def test_coverage_gap_and_false_empty_leaf_are_rejected():
    cert = eta3().certificates[0]

    def replace_last_leaf(node, leaf):
        if node[0] == "split":
            return ("split", node[1], node[2], replace_last_leaf(node[3], leaf))
        return leaf

    gap = check(_tampered(cert, tree=replace_last_leaf(cert.tree, ("open",))))
    assert gap.truth is not Truth.TRUE
    assert any("coverage gap" in f for f in gap.failures)
    # only the first region kept, the rest of the domain left open: the Boolean decision finds an uncovered point
    assert cert.tree[0] == "split" and cert.tree[2] == ("region", "0") and cert.region_conditions_[0] == (cert.tree[1],)
    one = _tampered(cert, tree=("split", cert.tree[1], ("region", "0"), ("open",)),
                    **{f: getattr(cert, f)[:1] for f in ("region_conditions_", "region_x", "region_y_ub",
                                                         "region_y_eq", "region_value")})
    missing = check(one)
    assert missing.truth is Truth.FALSE
    assert any("uncovered point" in f for f in missing.failures)
    empty = check(_tampered(cert, tree=replace_last_leaf(cert.tree, ("empty",))))
    assert empty.truth is Truth.FALSE
    assert any("not decided empty" in f for f in empty.failures)


def test_gamma_max_closed_form_n2():
    """G-23 for N = 2: (t(1−2c)+c)/(1−c) for t ≤ 1/c, and (1−c)/c beyond (every kernel qualifies)."""
    r = gamma2()
    assert r.certified(), r.failures()
    sol = r.solutions[0]
    first = (t * (1 - 2 * c) + c) / (1 - c)
    _on_every_region(sol, sympy.Piecewise((first, t * c <= 1), ((1 - c) / c, True)),
                     (t >= 1, c <= sympy.Rational(1, 2)))
    for tt, cc in (("1", "1/5"), ("3", "1/4"), ("4", "1/4"), ("9", "1/3"), ("7/3", "1/2")):
        assert _at(r.value, t=tt, c=cc) == sympy.Rational(str(extremal.gamma_max(2, tt, cc).value))
        assert extremal.gamma_max(2, tt, cc).value == extremal.gamma_max_closed_form(2, tt, cc)


def test_ldp_delta_and_hockey_stick_closed_forms():
    for N, M in ((2, 2), (3, 2), (2, 3)):  # B-4: (t - 1 + 2 delta)/(t + 1) on t >= 1, 0 <= delta <= 1
        r = extremal.sup_eta_tv(N, M, t=t, delta=d)
        assert r.certified(), (N, M)
        assert sympy.cancel(r.value - (t - 1 + 2 * d) / (t + 1)) == 0
        assert r.value.subs({t: 3, d: sympy.Rational(1, 10)}) == sympy.Rational(str(
            extremal.sup_eta_tv(N, M, t=3, delta="1/10").value))
    h = extremal.sup_eta_hockey_stick(2, t=t, gamma=g)  # B-7: (t − γ)/(t + 1) for t ≥ γ, else 0
    assert h.certified()
    for tt, gg in (("3", "2"), ("2", "3"), ("5/2", "5/2"), ("1", "1"), ("7", "3/2")):
        expected = max(sympy.Rational(tt) - sympy.Rational(gg), 0) / (sympy.Rational(tt) + 1)
        assert h.value.subs({t: sympy.Rational(tt), g: sympy.Rational(gg)}) == expected
        assert extremal.sup_eta_hockey_stick(2, t=tt, gamma=gg).value == fmpq(expected.p, expected.q)


def test_one_parameter_and_rational_path_unchanged():
    r = extremal.sup_eta_tv(3, t=t, c=sympy.Rational(1, 4))
    assert r.certified()
    assert r.value.subs(t, sympy.Rational(5, 2)) == sympy.Rational(12, 13)
    assert extremal.sup_eta_tv(3, t="5/2", c="1/4").value == fmpq(12, 13)  # the exact path: an ExtremalResult
    assert isinstance(extremal.sup_eta_tv(3, t="5/2", c="1/4"), extremal.ExtremalResult)


def test_bad_input_is_refused_with_one_clear_error():
    with pytest.raises(ParameterError, match="N: must be an integer >= 2"):
        parametric.sup_eta_tv(1, t=t, c=c)
    with pytest.raises(CoercionError):
        parametric.sup_eta_tv(2, t=t, c=0.25)
    with pytest.raises(ParameterError, match="c: must lie in"):
        parametric.sup_eta_tv(2, t=t, c="2/3")
    with pytest.raises(ParameterError, match="plain sympy Symbol"):
        parametric.sup_eta_tv(2, t=t * c, c=c)
    with pytest.raises(ParameterError, match="no parameter is a sympy Symbol"):
        parametric.sup_eta_tv(2, t=2, c="1/4")
    with limits(max_symbolic_entries=10), pytest.raises(ResourceLimitError, match="max_symbolic_entries"):
        parametric.sup_eta_tv(6, t=t, c=c)


def test_certificate_data_is_read_by_the_safe_reader():
    cert = eta3().certificates[0]
    evil = _tampered(cert, region_value=("__import__('os')",) + cert.region_value[1:])
    res = check(evil)
    assert res.truth is Truth.FALSE and "unreadable" in res.failures[0]
    assert isinstance(ParametricLPCertificate.from_json(cert.to_json()), ParametricLPCertificate)


@pytest.mark.slow
def test_thm1_lem3_and_gamma_closed_form_are_proved_for_every_n_and_cross_checked_by_parametric_lps():
    from exactdp.verification.claims import CheckContext, Verdict, load_all

    registry = load_all()
    ctx = CheckContext(seed=0, quick=False)
    for cid, scope in (("grosse2026.thm1", "≤: all N, M; =: all N"), ("grosse2026.lem3", "all N, M"),
                       ("grosse2026.lem4_gamma_max_closed_form", "all N, M")):
        claim = registry[cid]
        outcome = next(ch for ch in claim.checks if ch.name == "certificates").run(ctx)
        assert outcome.verdict is Verdict.PROVED and outcome.scope == scope
        assert "parametric-lp" not in {cert.kind for cert in outcome.certificates}  # no per-N proof
        assert all(check(cert).truth is Truth.TRUE for cert in outcome.certificates)
    thm1 = next(ch for ch in registry["grosse2026.thm1"].checks if ch.name == "parametric_lp")
    assert thm1.supporting
    cross = thm1.run(ctx)
    assert cross.verdict is Verdict.VERIFIED and cross.details["regions"] == {2: 2}  # the full run cross-checks N = 2 only
    gamma = next(ch for ch in registry["grosse2026.lem4_gamma_max_closed_form"].checks if ch.name == "parametric_lp")
    assert gamma.supporting and gamma.run(ctx).verdict is Verdict.VERIFIED


def test_an_uncovered_domain_is_reported_not_claimed():
    """A region budget too small to cover the domain: no proof, the gap named, no default piece."""
    r = parametric.sup_eta_tv(3, t=t, c=c, max_regions=1)
    assert not r.certified()
    assert any("coverage gap" in f for f in r.failures())
    assert isinstance(r.value, sympy.Piecewise) and all(cond is not sympy.true for _, cond in r.value.args)
    inside = {t: 2, c: sympy.Rational(1, 10)}  # t*c = 1/5 <= 1/2: the first region, value Xi = 1/(2*7/10 + 1)
    assert r.value.subs(inside) == sympy.Rational(5, 12)
