"""A ``parametric-lp`` / ``lp-point`` certificate bound to the statement it is filed under (issue 21, item 5;
:func:`exactdp.claim_statement.binding`): the LP's optimum V_k on each region, with the regions covering the
certificate's domain, proves "s ≥ 0 for every feasible x" on a stated domain inside that domain when
s + c·x = G is free of the variables and G − V_k ≥ 0 on each region.  The genuine binding is accepted by the
engine, ``recheck`` and the SMT path; each tampering — a region removed from the cover, a shrunk domain, a changed
multiplier, the certificate moved to another claim, a stronger conclusion, a dropped hypothesis — is rejected by
all three."""

from __future__ import annotations

import copy
import dataclasses
import json

import pytest

from exactdp.algebra.certificates import Certificate, check
from exactdp.claim_statement import ClaimStatement, certificate_name, lp_statement
from exactdp.errors import ParameterError
from exactdp.numbers.truth import Truth
from exactdp.recheck import OK, REJECTED, recheck_certificate
from exactdp.scopes import scope_text

# max x  s.t.  x <= p, x <= 1 (x >= 0), on p >= 0: x = p (p <= 1) or x = 1 (p > 1)
PLP = {"kind": "parametric-lp", "parameters": ["p"], "region": ["p >= 0"], "c": ["1"],
       "A_ub": [["1"], ["1"]], "b_ub": ["p", "1"], "region_conditions_": [["p <= 1"], ["p > 1"]],
       "region_x": [["p"], ["1"]], "region_y_ub": [["1", "0"], ["0", "1"]], "region_y_eq": [[], []],
       "region_value": ["p", "1"], "tree": ["split", "p <= 1", ["region", "0"], ["region", "1"]]}

#: "for every p >= 0 and every x in [0, min(p, 1)]: x <= 1", i.e. 1 - x >= 0 (G = 1 >= p on p <= 1, = 1 beyond)
STATEMENT = ClaimStatement(claim="demo.claim", parameters=("p",), variables=("x",), domain=("p >= 0",),
                           hypotheses=("p - x >= 0", "1 - x >= 0", "x >= 0"), conclusions=("1 - x >= 0",))


def _json(d, statement=STATEMENT):
    """``d`` with ``statement`` and the name its data give (a tampered certificate keeps a consistent name, so the
    checkers answer the tampering, not the name)."""
    d = {**copy.deepcopy(d), "statement": statement.to_json() if statement is not None else None}
    d["name"] = certificate_name(d)
    d["scope"] = scope_text(d.get("sizes", ""), [tuple(a) for a in d.get("assumptions", ())], d.get("region", ()),
                            [tuple(p) for p in d.get("point", ())])
    return d


def _engine(d, claim="demo.claim") -> Truth:
    """The engine's answer: the certificate read back and checked (the data, then the binding by the prover), and
    the statement's claim the one it is filed under (:func:`exactdp.verification.engine.filed_under`'s rule)."""
    try:
        cert = Certificate.from_json(copy.deepcopy(d))
    except ParameterError:
        return Truth.FALSE
    if cert.statement is not None and cert.statement.claim != claim:
        return Truth.FALSE
    return check(cert).truth


def _smt(d, claim="demo.claim"):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    from exactdp.smt import smt_check_certificate

    return smt_check_certificate(copy.deepcopy(d), timeout=20, claim=claim)


def _removed_region(d):
    """The last region dropped from the certificate and its leaf declared empty: the cover has a gap."""
    d = copy.deepcopy(d)
    for key in ("region_conditions_", "region_x", "region_y_ub", "region_y_eq", "region_value"):
        d[key] = d[key][:-1]
    d["tree"] = ["split", "p <= 1", ["region", "0"], ["empty"]]
    return d


def _tamperings() -> dict:
    """name -> (the tampered certificate's JSON, the claim it is filed under, what recheck's rejection says)."""
    shrunk = copy.deepcopy(PLP)
    shrunk["region"] = ["p >= 1/2"]  # the LP's domain no longer contains the stated p >= 0
    multiplier = copy.deepcopy(PLP)
    multiplier["region_y_ub"][0] = ["1/2", "0"]
    return {
        "region removed from the cover": (_json(_removed_region(PLP)), "demo.claim", "coverage"),
        "shrunk domain": (_json(shrunk), "demo.claim", "region condition p >= 1/2 on the stated domain"),
        "changed multiplier": (_json(multiplier), "demo.claim", "region 0"),
        "moved to another claim": (_json(PLP), "demo.other", "it is filed under demo.other"),
        "stronger conclusion": (_json(PLP, dataclasses.replace(STATEMENT, conclusions=("1/2 - x >= 0",))),
                                "demo.claim", "in region 0"),
        "hypothesis dropped": (_json(PLP, dataclasses.replace(STATEMENT, hypotheses=("1 - x >= 0", "x >= 0"))),
                               "demo.claim", "is not a hypothesis of the statement"),
    }


def test_a_parametric_lp_proves_a_bound_on_the_stated_domain_in_every_checker():
    d = _json(PLP)
    result = check(Certificate.from_json(copy.deepcopy(d)))
    assert result.truth is Truth.TRUE, result.failures
    steps = " ".join(map(str, result.steps))
    # region 0 (p <= 1): 1 - p >= 0 is decided; region 1: G = 1 is the LP's optimum there
    assert "in region 0: 1 >= the LP's optimum p on the stated domain -> true" in steps
    assert "the conclusion 1 - x >= 0 in region 1: the LP's optimum there" in steps
    r = recheck_certificate(d, claim="demo.claim")
    assert r.status == OK and not r.trusted, (r.reasons, r.trusted)
    assert any("in region 0" in s and "exact" in s for s in map(str, r.steps))


@pytest.mark.parametrize("what", list(_tamperings()))
def test_a_tampered_lp_binding_is_rejected_by_the_engine_and_recheck(what):
    d, claim, why = _tamperings()[what]
    assert _engine(d, claim) is not Truth.TRUE
    r = recheck_certificate(d, claim=claim)
    assert r.status == REJECTED and why in r.reasons[0], r.reasons


@pytest.mark.slow
def test_the_smt_path_confirms_the_binding_and_refutes_every_tampering():
    from exactdp.smt import CONFIRMED, REFUTED

    good = _smt(_json(PLP))
    assert good.status == CONFIRMED, good.line()
    assert any("in region 0" in r.label for r in good.results)
    for what, (d, claim, _) in _tamperings().items():
        r = _smt(d, claim)
        assert r.status == REFUTED, (what, r.line())


def test_a_region_bound_only_on_its_own_cases_needs_no_other_region():
    """A conclusion stated "when p <= 1" follows from region 0 alone (its conditions are the conclusion's), one
    "when p > 1" from region 1."""
    st = dataclasses.replace(STATEMENT, conclusions=("p - x >= 0 when p <= 1", "1 - x >= 0 when p > 1"))
    d = _json(PLP, st)
    result = check(Certificate.from_json(copy.deepcopy(d)))
    assert result.truth is Truth.TRUE, result.failures
    assert sum("the LP's optimum there" in s for s in map(str, result.steps)) == 2
    assert recheck_certificate(d, claim="demo.claim").status == OK


def test_a_parametric_lp_filed_without_a_statement_states_its_own_optimum():
    """Filed under a claim with no hand-written statement (:meth:`Certificate.states`): its columns named x0, …,
    per region value_k − c·x ≥ 0 when R_k, on the claim's domain."""
    cert = Certificate.from_json({**copy.deepcopy(PLP), "name": certificate_name(PLP)}).states("demo.claim",
                                                                                               "p >= 0")
    st = cert.statement
    assert st.variables == ("x0",) and st.conclusions == ("(p) - ((1)*x0) >= 0 when p <= 1",
                                                          "(1) - ((1)*x0) >= 0 when p > 1")
    assert check(cert).truth is Truth.TRUE
    assert recheck_certificate(json.loads(json.dumps(cert.to_json())), claim="demo.claim").status == OK
    # the domain widened beyond the LP's (p >= -1): the region condition p >= 0 fails on it
    wide = cert.bound_to(dataclasses.replace(st, domain=("p >= -1",)))
    assert check(wide).truth is Truth.FALSE
    assert recheck_certificate(wide.to_json(), claim="demo.claim").status == REJECTED


def test_an_lp_point_is_bound_at_its_point():
    """max x1 + x2 s.t. x1 + 2 x2 <= 4, 3 x1 + x2 <= 6 has optimum 14/5 (at 8/5, 6/5): "x1 + x2 <= 3" follows at
    the point t = 2 it is stated for; "x1 + x2 <= 13/5" does not, nor a statement on t >= 1."""
    lp = {"kind": "lp-point", "parameters": ["t"], "point": [["t", "2"]], "c": ["1", "1"],
          "A_ub": [["1", "2"], ["3", "1"]], "b_ub": ["4", "6"], "x": ["8/5", "6/5"], "y_ub": ["2/5", "1/5"],
          "value": "14/5"}
    st = lp_statement("demo.claim", lp, ("x1", "x2"), ("t >= 2", "t <= 2"), ("3*t/2 - x1 - x2 >= 0",))
    assert st.hypotheses == ("(4) - ((1)*x1 + (2)*x2) >= 0", "(6) - ((3)*x1 + (1)*x2) >= 0", "x1 >= 0", "x2 >= 0")
    good = _json(lp, st)
    assert _engine(good) is Truth.TRUE
    assert recheck_certificate(good, claim="demo.claim").status == OK
    for bad in (dataclasses.replace(st, conclusions=("13/5 - x1 - x2 >= 0",)),
                dataclasses.replace(st, domain=("t >= 1",))):
        d = _json(lp, bad)
        assert _engine(d) is Truth.FALSE
        assert recheck_certificate(d, claim="demo.claim").status == REJECTED


def test_the_binding_zero_test_agrees_with_cancellation():
    """claim_statement._zero: a difference non-zero at one rational point is not cancelled, with the same answer."""
    import sympy

    from exactdp.claim_statement import _zero

    x, y = sympy.symbols("x y", real=True)
    zero = [(x + 1) ** 2 - x**2 - 2 * x - 1, (x**2 - 1) / (x - 1) - x - 1, (x * y + y) / (x + 1) - y]
    nonzero = [x - 1, (x**2 - 1) / (x - 1) - x, x * y - y * x + 1 / (y - sympy.Rational(53, 13))]
    assert [_zero(e) for e in zero] == [True, True, True]
    assert [_zero(e) for e in nonzero] == [False, False, False]
    assert all(sympy.cancel(sympy.together(e)) == 0 for e in zero)
