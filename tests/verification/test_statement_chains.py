"""The ``instantiation`` and ``cases`` certificates (issue 25 item 1): a statement in u = N*c instantiated at u = N*c
for every integer N >= 3, and joined with its N = 2 part into every integer N >= 2 — on a small model of the every-N
PML proof (a <= u under a <= u), so that every tampering is decided in well under a second; the real proof's chain
is tested in tests/verification/test_pml_every_n_split.py."""

from __future__ import annotations

import dataclasses
import json

import pytest
import sympy

from exactdp.algebra.certificates import Certificate, check
from exactdp.algebra.certificates.instantiation import Cases, Instantiation, citation_failures
from exactdp.algebra.certificates.linear_combination import LinearCombination
from exactdp.claim_statement import ClaimStatement, restating, same_value, step_of
from exactdp.numbers.truth import Truth
from exactdp.recheck import OK, REJECTED, _with_uses_met, recheck_certificate

#: the target: for every integer N >= low, 0 < c, N*c <= 1 and every a with N*c - a >= 0: N*c - a >= 0
TARGET = dict(claim="check", sizes="all N, M", parameters=("c", "N"), variables=("a",),
              hypotheses=("N*c - a >= 0",), conclusions=("N*c - a >= 0",))


def _target(low: int, **kw) -> ClaimStatement:
    return ClaimStatement(**{**TARGET, "domain": ("c > 0", f"N >= {low}", "N*c <= 1"), **kw})


def _source() -> LinearCombination:
    """u - a >= 0 under u - a >= 0 on 0 < c, 3c <= u <= 1 (the N >= 3 part's statement in u), a step of the proof."""
    x = LinearCombination(parameters=("c", "u"), assumptions=(("c", "real"), ("u", "real")), sizes="all N, M",
                          region=("c > 0", "u >= 3*c", "u <= 1"), variables=("a",), constraints=(("a <= u", "u - a"),),
                          multipliers=("1",), conclusion="u - a", slack="0")
    return x.bound_to(restating(step_of("check"), x.to_json(), x.region))


def _two() -> LinearCombination:
    """The N = 2 part: 2c - a >= 0 under 2c - a >= 0 on 0 < c, 2c <= 1 (sizes N = 2), the claim at N = 2."""
    x = LinearCombination(parameters=("c",), assumptions=(("c", "real"),), sizes="N = 2", region=("c > 0", "2*c <= 1"),
                          variables=("a",), constraints=(("a <= 2c", "2*c - a"),), multipliers=("1",),
                          conclusion="2*c - a", slack="0")
    return x.bound_to(restating("check", x.to_json(), x.region))


def _instance(src=None, low: int = 3, **kw) -> Instantiation:
    src = src or _source()
    st = _target(low)
    fields = dict(parameters=("c", "N"), assumptions=(("N", "real"), ("c", "real")), region=st.domain,
                  sizes="all N, M", variables=("a",), source=src.name, source_statement=src.statement,
                  substitution=(("u", "N*c"),))
    return Instantiation(**{**fields, **kw}).bound_to(st)


def _join(parts=None) -> Cases:
    two, three = _two(), _instance()
    st = _target(2)
    parts = parts if parts is not None else [(two, "2", "2"), (three, "3", "")]
    return Cases(parameters=("c", "N"), assumptions=(("N", "real"), ("c", "real")), region=st.domain, sizes="all N, M",
                 variables=("a",), size="N", hypotheses=st.hypotheses, conclusions=st.conclusions,
                 parts=tuple((x.name, lo, hi) for x, lo, hi in parts),
                 part_statements=tuple(x.statement for x, _, _ in parts)).bound_to(st)


def _both(cert: Certificate) -> tuple:
    """(engine truth through a JSON round trip, recheck status)."""
    d = json.loads(json.dumps(cert.to_json()))
    return check(Certificate.from_json(d)).truth, recheck_certificate(d, claim="check").status


def _proof_rechecks(certs) -> list:
    return [r.status for r in _with_uses_met([recheck_certificate(c.to_json(), claim="check") for c in certs])]


def test_the_chain_checks_in_the_engine_and_in_recheck():
    """The source (in u), its instance at u = N*c for N >= 3, the N = 2 part and the join for every integer N >= 2:
    each TRUE and OK, the chain's citations met in the proof (engine and recheck), and the JSON round trip exact."""
    src, two, inst, join = _source(), _two(), _instance(), _join()
    for x in (src, two, inst, join):
        assert _both(x) == (Truth.TRUE, OK), x.name
        assert Certificate.from_json(json.loads(json.dumps(x.to_json()))) == x
    assert inst.name == "u - a >= 0 at u = N*c"
    assert join.name == "N*c - a >= 0 by the cases N = 2, N >= 3"
    assert citation_failures([src, two, inst, join]) == []
    assert _proof_rechecks([src, two, inst, join]) == [OK] * 4
    r = recheck_certificate(inst.to_json(), claim="check")
    assert any("u >= 3*c at u = N*c: N*c >= 3*c on the region" in s for s in r.steps)
    r = recheck_certificate(join.to_json(), claim="check")
    assert any("consecutive integer ranges from 2 on" in s for s in r.steps)


def test_a_tampered_instance_is_rejected():
    """u -> (N - 1)*c (then 3c <= (N - 1)c fails at N = 3), the target domain widened to N >= 2 (3c <= 2c fails),
    the copied source statement edited (its instance is then not the stated conclusion), the target conclusion
    strengthened (N*c - a - c >= 0 is not the instance) and the substitution left out: FALSE in the engine (or
    refused), REJECTED by recheck."""
    src, inst = _source(), _instance()
    st = inst.statement
    edited = dataclasses.replace(src.statement, conclusions=("u - a - c >= 0",))
    cases = {
        "substitution (N - 1)*c": dataclasses.replace(inst, substitution=(("u", "(N - 1)*c"),)),
        "target domain widened to N >= 2": _instance(low=2),
        "source statement edited": dataclasses.replace(inst, source_statement=edited).bound_to(st),
        "target conclusion strengthened": inst.bound_to(dataclasses.replace(st, conclusions=("N*c - a - c >= 0",))),
        "no substitution": dataclasses.replace(inst, substitution=()),
    }
    for what, x in cases.items():
        truth, status = _both(x)
        assert truth is not Truth.TRUE and status == REJECTED, what
    # the edited copy checks on its own (it is a consistent instance of the edited statement), but no certificate of
    # the proof carries that statement: the chain is refused by the engine's proof check and by recheck
    bad = dataclasses.replace(inst, source_statement=edited).bound_to(
        dataclasses.replace(st, conclusions=("N*c - a - c >= 0",)))
    assert citation_failures([src, bad]) and _proof_rechecks([src, bad])[1] == REJECTED


def test_an_instance_of_a_missing_source_is_refused_by_the_proof_checks():
    """The source's name pointing at no certificate of the proof (renamed, or the source left out)."""
    src, inst = _source(), _instance()
    renamed = dataclasses.replace(inst, source="u - a + 1 >= 0")
    assert _both(renamed) == (Truth.TRUE, OK)  # as data it is consistent; the proof does not carry its source
    assert citation_failures([src, renamed]) and _proof_rechecks([src, renamed])[1] == REJECTED
    assert citation_failures([inst]) and _proof_rechecks([inst]) == [REJECTED]


def test_a_tampered_join_is_rejected():
    """The join without its N = 2 part (the region's N >= 2 does not give N >= 3), with a gap (N = 2 and N >= 4),
    with the N = 2 part moved to N = 3 (its sizes say N = 2), a bounded last case, and a stronger conclusion: not
    TRUE in the engine, REJECTED by recheck; and the proof without the N = 2 certificate is refused."""
    two, inst = _two(), _instance()
    st = _join().statement
    cases = {
        "no N = 2 part": _join([(inst, "3", "")]),
        "a gap at N = 3": _join([(two, "2", "2"), (inst, "4", "")]),
        "the N = 2 part at N = 3": _join([(two, "3", "3"), (inst, "4", "")]),
        "a bounded last case": _join([(two, "2", "2"), (inst, "3", "100")]),
        "a stronger conclusion": _join().bound_to(dataclasses.replace(st, conclusions=("N*c - a - c >= 0",))),
    }
    for what, x in cases.items():
        truth, status = _both(x)
        assert truth is not Truth.TRUE and status == REJECTED, what
    join = _join()
    assert citation_failures([inst, join]) and _proof_rechecks([_source(), inst, join])[2] == REJECTED


def test_same_value_compares_min_and_max_term_by_term():
    """Min(1, (t - 1)/(t*(1 - N*c) + 1)) and Min((1 - t)/(N*c*t - t - 1), 1) agree term by term (N*c/c cancelled,
    the arguments in any order); with the second argument's numerator changed they do not."""
    t, c, N = sympy.symbols("t c N", real=True)
    u = sympy.Symbol("u", real=True)
    F = sympy.Min(1, (t - 1) / (t * (1 - N * c) + 1)) + 2 * (N - 2) * c * t
    Fu = sympy.Min((1 - t) / (t * u - t - 1), 1) + 2 * (u / c - 2) * c * t
    assert same_value(F, Fu.xreplace({u: N * c}))
    assert not same_value(F, Fu.xreplace({u: (N - 1) * c}))
    assert not same_value(F, (Fu + sympy.Max(t, 0) - t).xreplace({u: N * c}))


def test_recheck_smt_confirms_the_chain_and_refutes_a_wrong_substitution():
    """`recheck --smt`: the instance and the join CONFIRMED by z3 and cvc5 (their relations and their binding);
    the instance at u = (N - 1)*c REFUTED (3c <= (N - 1)c fails at N = 3)."""
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    from exactdp.smt import CONFIRMED, REFUTED, smt_check_certificate

    inst = _instance()
    for x in (inst, _join()):
        r = smt_check_certificate(x.to_json(), claim="check")
        assert r.status == CONFIRMED, r.line()
    r = smt_check_certificate(dataclasses.replace(inst, substitution=(("u", "(N - 1)*c"),)).to_json(), claim="check")
    assert r.status == REFUTED, r.line()
