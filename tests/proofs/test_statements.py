"""A certificate proves the statement it is filed under, or nothing (issue 21, item 5).

Every proved or proved-modulo claim's statement is written once from the paper (:attr:`Claim.written`,
``proofs/_statements.py``), in the variables of the reduction its certificates use, and never copied from a
certificate: the registry of written statements has no gap, and no written part is the text of a certificate's own
relations (the export-wide count is in tests/proofs/test_recheck.py).  A certificate that proves less than the
written statement carries none of it: the engine leaves the claim UNDECIDED, and bound to the written part it is
FALSE for the engine and REJECTED by ``recheck`` (the SMT path: tests/proofs/test_smt.py, through
tests/proofs/test_tamper.py's binding tamperings)."""

from __future__ import annotations

import dataclasses

from exactdp.algebra.certificates import check
from exactdp.claim_statement import ClaimStatement, files_under, is_step, restates, step_of
from exactdp.numbers.truth import Truth
from exactdp.recheck import OK, REJECTED, recheck_certificate
from exactdp.theory import class_certificates as CC
from exactdp.verification.claims import Check, Verdict, proved

PROVED = (Verdict.PROVED, Verdict.PROVED_MODULO)


def _claims():
    from exactdp.verification.engine import select_claims

    return select_claims()


def _claim(cid):
    from exactdp.verification.engine import select_claims

    return select_claims([cid])[0]


def test_every_proved_claim_has_its_statement_written():
    """The registry: every claim expected proved or proved-modulo writes its statement (no gap, so none is filed
    as a copy of its certificates), each part a bound statement of that claim with at least one conclusion."""
    proved_claims = [c for c in _claims() if c.expected in PROVED]
    assert len(proved_claims) >= 41
    assert [c.id for c in proved_claims if not c.written] == []
    for c in proved_claims:
        for part in c.written:
            assert isinstance(part, ClaimStatement) and part.claim == c.id and part.bound and part.conclusions, c.id


def test_the_reduction_is_part_of_the_statement_text():
    """A statement in reduced variables says what they stand for (the quantifier over rows and sets)."""
    part = _claim("asoodeh2021.a07_phi_lemma").written[0]
    assert part.conclusions == ("a - b <= 1 - (1 - delta)/t",)  # phi as [A] A-7 writes it, not the tight value
    assert "every pair of rows x, x' and every output set A" in part.text()
    assert ClaimStatement.from_json(part.to_json()) == part


def test_restates_detects_a_copied_statement():
    cert = CC.pml_tv()
    written = _claim("grosse2026.thm3").written[0]
    assert not restates(written, cert.to_json())
    copied = cert.states("grosse2026.thm3", "t >= 1", "c > 0", "u >= 2*c", "u <= 1").statement
    assert restates(copied, cert.to_json())


def test_steps_bind_to_their_claim_only():
    assert files_under(step_of("grosse2026.thm3"), "grosse2026.thm3") and is_step(step_of("grosse2026.thm3"))
    assert not files_under(step_of("grosse2026.thm3"), "grosse2026.thm4")
    assert not files_under("grosse2026.thm3", "grosse2026.thm4")


def _weaker():
    """[G] Thm 3's Farkas certificate made to prove a - b <= (t-1)/(t(1-u)+1) + 1/2 (the same combination, slack 1/2):
    a true certificate of a weaker bound than the written statement."""
    good = CC.pml_tv()
    return dataclasses.replace(good, conclusion=f"{good.conclusion} + 1/2", slack="1/2")


def test_the_weaker_certificate_is_itself_true():
    assert check(_weaker()).truth is Truth.TRUE


def _in_u(written: ClaimStatement) -> ClaimStatement:
    """[G] Thm 3's written part (in N) as it reads in u = N*c on the certificate's region: what pml_tv proves as a
    step of the proof."""
    return dataclasses.replace(written, parameters=("t", "c", "u"), domain=("t >= 1", "c > 0", "u >= 2*c", "u <= 1",
                                                                            "t*u < 2"),
                               hypotheses=("a <= t*(c*S + (1 - u)*b)", "1 - b <= t*(u - c*S + (1 - u)*(1 - a))"),
                               conclusions=("a - b <= (t - 1)/(t*(1 - u) + 1)",))


def test_a_weaker_certificate_does_not_prove_the_written_statement():
    """In u, the weaker certificate bound to the statement is FALSE / REJECTED (the genuine one TRUE / OK); in N
    (the written part), the weaker one's instance at u = N*c is not the stated bound (FALSE / REJECTED, and the
    engine finds no instance of it), the genuine one's is (TRUE / OK)."""
    from exactdp.verification.engine import instantiating

    written = _claim("grosse2026.thm3").written[0]
    assert "N" in written.parameters and "u" not in written.parameters
    bound = _weaker().bound_to(_in_u(written))
    result = check(bound)
    assert result.truth is Truth.FALSE, result.steps
    assert any("-1/2 >= 0" in f or "is >= 0 on the stated domain" in f for f in result.failures), result.failures
    r = recheck_certificate(bound.to_json(), claim="grosse2026.thm3")
    assert r.status == REJECTED and "to the certificate's conclusion is >= 0 on the stated domain" in r.reasons[0]
    genuine = CC.pml_tv().bound_to(_in_u(written))
    assert check(genuine).truth is Truth.TRUE
    assert recheck_certificate(genuine.to_json(), claim="grosse2026.thm3").status == OK
    assert instantiating(_weaker(), (written,), "grosse2026.thm3") is None
    _, inst = instantiating(CC.pml_tv(), (written,), "grosse2026.thm3")
    weak_step = _weaker().states(step_of("grosse2026.thm3"))
    weak_inst = dataclasses.replace(inst, source=weak_step.name, source_statement=weak_step.statement)
    assert check(weak_inst).truth is not Truth.TRUE
    assert recheck_certificate(weak_inst.to_json(), claim="grosse2026.thm3").status == REJECTED
    assert check(inst).truth is Truth.TRUE
    assert recheck_certificate(inst.to_json(), claim="grosse2026.thm3").status == OK


def test_the_engine_leaves_a_claim_proved_by_a_weaker_certificate_undecided():
    """Filed under a claim, a certificate that implies none of the written parts is a step; the claim's written
    statement is then carried by nothing and its proving check is UNDECIDED, naming the part."""
    from exactdp.verification.claims import CheckContext
    from exactdp.verification.engine import run_claim

    base = _claim("grosse2026.thm3")

    def with_certs(*certs):
        return dataclasses.replace(base, checks=(Check("proof", lambda ctx: proved(
            "thm3", certs, "all N, M", derivation=("the certificates",))),))

    ctx = CheckContext(seed=0, quick=True)
    good = run_claim(with_certs(CC.pml_tv(), CC.trivial_tv(), CC.xi_statements()), ctx)
    assert good.verdict is Verdict.PROVED
    carried = {c.statement for c in good.certificates if c.statement is not None and not is_step(c.statement.claim)}
    assert set(base.written) <= carried
    weak = run_claim(with_certs(_weaker(), CC.trivial_tv(), CC.xi_statements()), ctx)
    assert weak.verdict is Verdict.UNDECIDED
    reason = weak.checks[0].outcome.reason
    assert "no certificate implies the written statement part" in reason and "a - b <= (t - 1)/(t*(1 - N*c) + 1)" in reason
