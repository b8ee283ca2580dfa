"""The claims filed for product priors (F-G11 proved, F-G12 refuted with its exact witness), B-7's E_γ form
(proved) and f form (proved, Binette's inequality a structural lemma), all N, M, and B-8's proof (all N, M) bound
to their claims' statements, each claim's scope saying what is proved."""

from __future__ import annotations

from exactdp.claim_statement import binding, files_under
from exactdp.verification.claims import CheckContext, Verdict, load_all
from exactdp.verification.engine import run_claim


def _run(cid):
    return run_claim(load_all()[cid], CheckContext(quick=True))


def _bound_to(res, cid):
    certs = res.certificates
    assert certs
    for c in certs:
        if c.statement.claim.startswith("lemma: "):
            continue
        assert files_under(c.statement.claim, cid) and c.statement.bound  # the claim's own, or a step of its proof
        b = binding(c.to_json(), cid)
        assert not b.failures and not b.unbound, (c.name, b.failures, b.unbound)


def test_product_prior_pml_is_proved_and_bound():
    cid = "findings.fg11_product_prior_pml"
    res = _run(cid)
    assert res.verdict is Verdict.PROVED and res.scope == "all N, M (each factor); t1, t2 >= 1"
    _bound_to(res, cid)
    # the written statement (u1 u2 <= v1 v2, the leakages and levels) is carried by the bounded-product certificate
    own = [c for c in res.certificates if c.statement.claim == cid]
    assert [c.kind for c in own] == ["linear-combination"] and own[0].statement.conclusions == ("u1*u2 <= v1*v2",)


def test_floor_class_composition_is_refuted_by_the_exact_witness():
    res = _run("findings.fg12_floor_class_composition")
    assert res.verdict is Verdict.REFUTED
    ce = res.checks[0].outcome.counterexample
    assert (ce["floor_level"], ce["product"], ce["prior"]) == ("36/7", "4", ["1/16", "1/16", "1/16", "13/16"])


def test_b08_is_proved_for_all_n_and_bound():
    """B-8: proved for every N, M (the instance checks supporting); the written statement is carried by the
    final linear combination, the summand and pair-coefficient certificates are steps of its proof."""
    cid = "background.b08_asoodeh_zhang"
    res = _run(cid)
    assert res.verdict is Verdict.PROVED
    assert res.scope == "all N, M; t >= 1"
    assert [c.outcome.verdict for c in res.checks] == [Verdict.PROVED, Verdict.VERIFIED, Verdict.VERIFIED]
    assert [c.check.supporting for c in res.checks] == [False, True, True]
    assert res.checks[0].outcome.rests_on == ()
    _bound_to(res, cid)
    own = {c.statement.conclusions[0]: c.kind for c in res.certificates if c.statement.claim == cid}
    assert own == {"Y <= ((t - 1)/(t + 1))**2*X": "linear-combination"}


def test_b07_both_forms_are_bound_and_the_scope_says_so():
    """B-7: the E_gamma form and the f form proved (Binette's inequality the structural lemma), every N, M; the
    instance checks stay as supporting evidence; each written part is carried by the certificate that proves it."""
    from exactdp.theory import structural_lemmas as SL

    cid = "background.b07_zamanlooy_asoodeh"
    res = _run(cid)
    assert res.verdict is Verdict.PROVED
    assert res.scope == "all N, M; t >= 1, gamma >= 1"
    assert [c.outcome.verdict for c in res.checks] == [Verdict.PROVED, Verdict.PROVED, Verdict.VERIFIED,
                                                        Verdict.VERIFIED]
    assert [c.check.supporting for c in res.checks] == [False, False, True, True]
    assert res.checks[1].outcome.rests_on == ()
    assert set(SL.BINETTE.uses) <= {c.name for c in res.checks[1].outcome.certificates}
    _bound_to(res, cid)
    own = {c.statement.conclusions[0]: c.kind for c in res.certificates if c.statement.claim == cid}
    assert own == {"Bp - gamma*Bn - (gamma - 1)*W <= Max(t - gamma, 0)/(t + 1)*d": "linear-combination",
                   "p <= t*q": "linear-combination", "a - b <= (t - 1)/(t + 1)": "linear-combination",
                   "(t - 1)/(t + 1)*(f(1/t)/(1 - 1/t) + f(t)/(t - 1)) == (f(t) + t*f(1/t))/(t + 1)":
                       "symbolic-statements"}


def test_b07_report_row_rests_on_nothing():
    """The Markdown row of B-7: proved, resting on no cited result (Binette's inequality is a structural lemma)."""
    from exactdp.output import report

    md = report.to_markdown([_run("background.b07_zamanlooy_asoodeh")], seed=0, quick=True)
    (row,) = [line for line in md.splitlines() if line.startswith("| `background.b07_zamanlooy_asoodeh`")]
    cells = [c.strip() for c in row.split("|")]
    assert cells[4] == "**proved (reconstructed statement)**"
    assert cells[5] == "all N, M; t >= 1, gamma >= 1"
