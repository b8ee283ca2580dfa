"""The check memo keys certificates by their content, never by their name (exactdp.algebra.certificates.cache)."""

from __future__ import annotations

import dataclasses

import pytest

from exactdp.algebra import certificates
from exactdp.algebra.certificates import CertificateCheck, check
from exactdp.algebra.certificates.cache import CheckMemo, content_key
from exactdp.algebra.certificates.statements import SymbolicStatements
from exactdp.numbers.truth import Truth


def _square(name: str, rhs: str = "0") -> SymbolicStatements:
    """x² + 1 > rhs for every real x: TRUE for rhs = 0, FALSE for rhs = 5 (x = 0)."""
    return SymbolicStatements(name=name, parameters=("x",), assumptions=(("x", "real"),),
                              statements=(("square", "x**2 + 1", ">", rhs, ()),))


@pytest.fixture
def counted(monkeypatch):
    """A fresh memo and the number of checks actually computed per certificate name."""
    monkeypatch.setattr(certificates, "_CACHE", CheckMemo())
    runs: dict[str, int] = {}
    real = SymbolicStatements._check

    def counting(self):
        runs[self.name] = runs.get(self.name, 0) + 1
        return real(self)

    monkeypatch.setattr(SymbolicStatements, "_check", counting)
    return runs


def _renamed(cert: SymbolicStatements, name: str) -> SymbolicStatements:
    """``cert`` under another name (a certificate derives its name from its data, so only by force)."""
    out = dataclasses.replace(cert)
    object.__setattr__(out, "name", name)
    return out


def test_a_certificate_is_named_by_its_data_so_equal_content_is_checked_once(counted):
    a, b = _square("first name"), _square("second name")
    assert a.name == b.name == "x**2 + 1 > 0" and content_key(a) == content_key(b)
    ra, rb = check(a), check(b)
    assert ra.truth is Truth.TRUE and rb is ra
    assert counted == {"x**2 + 1 > 0": 1}


def test_different_content_is_checked_again(counted):
    assert check(_square("one")).truth is Truth.TRUE
    assert check(_square("two", rhs="5")).truth is Truth.FALSE  # x = 0: 1 > 5 fails
    assert counted == {"x**2 + 1 > 0": 1, "x**2 + 1 > 5": 1}


def test_a_result_naming_its_certificate_is_not_lent_to_another_name():
    memo = CheckMemo()
    a, b = _renamed(_square("alpha"), "alpha"), _renamed(_square("beta"), "beta")
    failing = CertificateCheck(Truth.FALSE, (), ("certificate alpha: unreadable data",))
    memo.put(a, failing)
    assert memo.get(a) is failing
    assert memo.get(b) is None  # its message names alpha: beta is checked from its own data
    plain = CertificateCheck(Truth.TRUE, ("square: x**2 + 1 > 0 -> TRUE",), ())
    memo.put(a, plain)
    assert memo.get(b) is plain


def test_the_memo_is_bounded():
    memo = CheckMemo(size=2)
    result = CertificateCheck(Truth.TRUE)
    for k in range(5):
        memo.put(_square(f"n{k}", rhs=str(-k)), result)
        assert len(memo) <= 2
    assert memo.get(_square("n4", rhs="-4")) is result


def test_a_binding_is_reduced_once_and_each_caller_gets_its_own_lists(monkeypatch):
    """statement_binding remembers the reduction by content; the engine's filing and check() each get copies."""
    from exactdp.numbers.memo import Memo
    from exactdp.theory.structural_lemmas import all_certificates

    monkeypatch.setattr(certificates, "_BINDINGS", Memo())
    calls = []
    real = certificates.binding
    monkeypatch.setattr(certificates, "binding", lambda *a, **k: calls.append(1) or real(*a, **k))
    cert = next(c for c in all_certificates() if c.statement is not None)
    first = certificates.statement_binding(cert)
    first.steps.append("a caller's own line")
    second = certificates.statement_binding(cert)
    assert len(calls) == 1 and not second.failures and not second.unbound
    assert second.steps == first.steps[:-1] and second.holds == first.holds
    assert second.statement == cert.statement
