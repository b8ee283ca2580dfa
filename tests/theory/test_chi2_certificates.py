"""B-8 for two inputs: the certificate checks TRUE, and edited versions of it are FALSE with a witness."""

import dataclasses
import json

from exactdp.algebra.certificates import Certificate
from exactdp.cli import main
from exactdp.numbers.truth import Truth
from exactdp.theory.chi2_certificates import asoodeh_zhang_two_inputs


def test_the_certificate_checks():
    cert = asoodeh_zhang_two_inputs()
    assert cert.check().truth is Truth.TRUE
    assert cert.scope.startswith("N = 2")
    assert Certificate.from_json(json.loads(json.dumps(cert.to_json()))) == cert


def _edited(i: int, **change):
    cert = asoodeh_zhang_two_inputs()
    sts = list(cert.statements)
    label, lhs, op, rhs, conds = sts[i]
    sts[i] = (label, change.get("lhs", lhs), change.get("op", op), change.get("rhs", rhs), change.get("conds", conds))
    return dataclasses.replace(cert, statements=tuple(sts))


def test_a_stronger_bound_is_rejected():
    """((t−1)/(t+1))³ is below RR's value at α = 1/2: the last step fails."""
    assert _edited(6, rhs="((t - 1)/(t + 1))**3").check().truth is Truth.FALSE


def test_the_chord_needs_the_ldp_range():
    """Without r ≤ t the concave φ_α falls below its chord (r > t): FALSE; with no range at all the
    denominators change sign and the step is not accepted either."""
    assert _edited(3, conds=("r >= 1/t",)).check().truth is Truth.FALSE
    assert _edited(3, conds=()).check().truth is not Truth.TRUE


def test_check_uses_the_exact_coefficient(capsys):
    """`check` evaluates eta_chi2 / eta_kl exactly: the cube of the bound is refuted by binary RR at e^eps = 2."""
    code = main(["check", "eta_kl <= ((exp(eps)-1)/(exp(eps)+1))^3", "--class", "ldp", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)["result"]
    assert code == 1 and doc["verdict"] == "refuted"
    ce = doc["counterexample"]
    assert ce["rows"] == [["2/3", "1/3"], ["1/3", "2/3"]] and (ce["lhs"], ce["rhs"]) == ("1/9", "1/27")
    code = main(["check", "eta_chi2 <= ((exp(eps)-1)/(exp(eps)+1))^2", "--class", "ldp", "--format", "json",
                 "--budget", "60"])
    doc = json.loads(capsys.readouterr().out)["result"]
    assert code == 0 and doc["verdict"] == "no-counterexample"
