"""Issue 13 item 3: one formula, one place; one registry; one certified sign routine; no float gets in.

(1) a source scan: the papers' closed forms (Ξ, φ, φⁿ, Γ_max, the tight LDP value) are written once, in the
    bounds registry (exactdp/bounds.py); every other function of those names is a thin wrapper that
    evaluates a registry entry; one certified sign routine (exactdp/numbers/rb.py);
(2) the registry equals the closed forms written from the papers, on a grid of exact parameters, in the
    exact domain and (certified balls of the evaluation forms) in the ball domain;
(3) every public entry point refuses a Python float and a ``numpy.float64`` with ``CoercionError``.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import re
from pathlib import Path

import numpy as np
import pytest
import sympy
from flint import fmpq

import exactdp
import exactdp.certified as C
from exactdp.errors import CoercionError
from exactdp.numbers.rb import RB, certified_compare
from exactdp.numbers.truth import Truth
from exactdp import bounds as B
from exactdp.theory import estimation as E
from exactdp.theory import extremal as X
from exactdp import formulas as F

#: source-tree scans, one per formula: the full run keeps them, the quick run skips them
pytestmark = pytest.mark.slow

ROOT = Path(exactdp.__file__).resolve().parent
REGISTRY_FILE = ROOT / "bounds.py"


def _trees():
    for path in sorted(ROOT.rglob("*.py")):
        try:
            yield path, ast.parse(path.read_text(encoding="utf-8"))
        except FileNotFoundError:  # pragma: no cover - a file moved while scanning
            continue


def _defs(name):
    return [(p, node) for p, tree in _trees() for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and node.name == name]


def _flat(node) -> str:
    return re.sub(r"\s+", "", ast.unparse(node))


# -- (1) the source scan ------------------------------------------------------------------------------

#: the formulas' shapes, as ast.unparse prints them without spaces (any variable names)
_XI = re.compile(r"^\(?\w+-1\)?/\(\w+\*\(1-\w+\*\w+\)\+1\)$")                # (t-1)/(t(1-Nc)+1)
_PHI = re.compile(r"^1-\(1-\w+\)(\*\*\w+)?/\w+(\*\*\w+)?$")                  # 1-(1-δ)^n/t^n
_GAMMA = re.compile(r"^\(\w+\*\(1-\w+\*\w+\)\+\w+\)/\(1-\(\w+-1\)\*\w+\)$")  # (t(1-Nc)+c)/(1-(N-1)c)


@pytest.mark.parametrize("shape", [_XI, _PHI, _GAMMA], ids=["Xi", "phi", "Gamma_max"])
def test_each_closed_form_is_written_once(shape):
    hits = [(p.relative_to(ROOT).as_posix(), _flat(n)) for p, tree in _trees() for n in ast.walk(tree)
            if isinstance(n, ast.BinOp) and shape.match(_flat(n))]
    assert len(hits) == 1 and hits[0][0] == "bounds.py", hits


WRAPPERS = ("xi", "phi", "phi_n", "xi_first", "lemma4_gamma_max", "lemma4_bound",
            "gamma_max_closed_form", "tight_ldp_eta", "phi_n_complement")
_REGISTRY_CALL = re.compile(r"(\bget\(|\.at\(|exact_at\(|\b_at\(|_registry_rb\(|\bphi_n\()")


def test_one_public_xi_and_phi_n_per_domain():
    """One public ``xi`` and one ``phi_n`` per domain, privacy level first, then (c, N) / (delta, n): the exact
    domains (QQ, SR) in formulas.py, the QQ power with its cost guard in measures/tensor.py, the
    certified balls in certified/stable.py; every one ``(t, ..., *, eps)``: t = e^ε first, ε by keyword."""
    homes = {"xi": {"formulas.py", "certified/stable.py"},
             "phi_n": {"formulas.py", "certified/stable.py", "measures/tensor.py"}}
    rest = {"xi": ["c", "N"], "phi_n": ["delta", "n"]}
    for name, want in homes.items():
        found = _defs(name)
        assert {p.relative_to(ROOT).as_posix() for p, _ in found} == want, name
        for p, node in found:
            args = [a.arg for a in node.args.args]
            assert args == ["t", *rest[name]], (p, args)
            assert [a.arg for a in node.args.kwonlyargs] == ["eps"], (p, args)
    assert F.xi(eps="log(3)", c="1/4", N=2) == F.xi(3, "1/4", 2) == fmpq(4, 5)
    assert F.phi_n(eps="log(3)", n=2) == exactdp.measures.tensor.phi_n(eps="log(3)", n=2) == fmpq(8, 9)
    # the balls: the same call at t and at eps = log t encloses the same exact value
    for ball in (C.xi(3, "1/4", 2), C.xi(eps="log(3)", c="1/4", N=2)):
        assert C.certified_compare(ball, "==", fmpq(4, 5)) is Truth.TRUE
    for ball in (C.phi_n(3, 0, 2), C.phi_n(eps="log(3)", n=2)):
        assert C.certified_compare(ball, "==", fmpq(8, 9)) is Truth.TRUE


@pytest.mark.parametrize("name", WRAPPERS)
def test_other_definitions_are_registry_wrappers(name):
    """Outside the registry a function named after a formula evaluates the registry entry (no min, no
    formula of its own)."""
    found = _defs(name)
    assert found, name
    for path, node in found:
        body = "\n".join(ast.unparse(s) for s in node.body
                         if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)))
        where = f"{path.relative_to(ROOT)}:{node.lineno} {name}"
        assert _REGISTRY_CALL.search(body), f"{where} does not evaluate a registry entry"
        assert "Min(" not in body and "min((" not in body, f"{where} writes its own min"


def test_one_registry():
    """estimation.SPECS is a view of the registry: every spec is a registry entry's presentation."""
    assert set(E.SPECS) == {p.id for p in B.PRESENTATIONS.values()}
    for spec in E.SPECS.values():
        assert spec.registry in B.REGISTRY and B.PRESENTATIONS[spec.registry].id == spec.id
    assert not _defs("_spec")


@pytest.mark.parametrize("name,home", [("certified_difference_sign", "numbers/rb.py"),
                                        ("certified_compare", "numbers/rb.py"),
                                        ("decide_le", "numbers/rb.py"),
                                        ("ball_sign", "numbers/rb.py"),
                                        ("coprime_basis", "numbers/exact_zero.py")])
def test_one_definition(name, home):
    found = [p.relative_to(ROOT).as_posix() for p, _ in _defs(name)]
    assert found == [home], found


def test_one_sign_routine():
    """``certified_sign`` is defined in numbers/rb.py; the conjecture layer's ``certified_sign(evaluate)``
    is its evaluation loop (re-running a compiled value at higher precision), whose ball test is
    ``rb.ball_sign``; the deleted adapters stay deleted."""
    found = sorted(p.relative_to(ROOT).as_posix() for p, _ in _defs("certified_sign"))
    assert found == ["numbers/loglin.py", "numbers/rb.py"], found
    assert not (ROOT / "theory" / "_certify.py").exists()
    assert not (ROOT / "verification" / "certify.py").exists()
    assert "ball_sign" in (ROOT / "numbers" / "loglin.py").read_text(encoding="utf-8")


# -- (2) the registry equals the papers' closed forms ----------------------------------------------------

T = [fmpq(1), fmpq(3, 2), fmpq(3), fmpq(10)]
D = [fmpq(0), fmpq(1, 10), fmpq(1, 2), fmpq(1)]
NS = [1, 2, 5]


def _xi_paper(t, c, N):
    return min((t - 1) / (t * (1 - N * c) + 1), fmpq(1))  # [G] §IV: Ξ = min{(t−1)/(t(1−Nc)+1), 1}


def _phi_n_paper(t, d, n):
    return 1 - (1 - d) ** n / t**n  # [A] §III: φⁿ = 1 − e^{−nε}(1−δ)ⁿ, φ = φ¹


def _gamma_paper(t, c, N):
    return (t * (1 - N * c) + c) / (1 - (N - 1) * c) if t * (N - 1) * c < 1 else (1 - N * c) * t + 1


@pytest.mark.parametrize("N", [2, 3, 5])
def test_xi_and_gamma_on_a_grid(N):
    for t, k in itertools.product(T, (1, 2, 3)):
        c = fmpq(k, 3 * N)
        want = _xi_paper(t, c, N)
        assert B.get("xi").evaluate(t=t, c=c, N=N) == want
        assert B.get("xi").at(t=t, c=c, N=N) == want
        assert F.xi(t, c, N) == want
        if t * c <= 1:
            assert B.get("gamma_max_exact").evaluate(t=t, c=c, N=N) == _gamma_paper(t, c, N)
            assert X.gamma_max_closed_form(N, t, c) == _gamma_paper(t, c, N)


def test_phi_on_a_grid():
    for t, d, n in itertools.product(T, D, NS):
        want = _phi_n_paper(t, d, n)
        assert B.get("phi_n").evaluate(t=t, delta=d, n=n) == want
        assert F.phi_n(t, d, n) == exactdp.measures.tensor.phi_n(t, d, n) == want
        if n == 1:
            assert B.get("phi").evaluate(t=t, delta=d) == F.phi(t, d) == want


def test_ball_forms_enclose_the_registry_values():
    """The certified evaluators (balls of the registry's evaluation forms) contain the exact value."""
    for e, d, n in itertools.product([fmpq(0), fmpq(1, 3), fmpq(2)], D[:3], NS):
        t = sympy.exp(sympy.Rational(int(e.p), int(e.q)))
        exact = B.get("phi_n").evaluate(t=t, delta=d, n=n)
        assert certified_compare(C.phi_n(eps=e, delta=d, n=n), "==", exact) is Truth.TRUE
        assert certified_compare(C.phi_n_complement(eps=e, delta=d, n=n), "==", 1 - RB(exact)) is Truth.TRUE
    for e, N, k in itertools.product([fmpq(1, 3), fmpq(2)], (2, 3), (1, 2, 3)):
        c = fmpq(k, 3 * N)
        t = sympy.exp(sympy.Rational(int(e.p), int(e.q)))
        exact = sympy.Min(B.exact_at(B.xi_raw, {"t": t, "c": c, "N": N}), 1)
        assert certified_compare(C.xi(eps=e, c=c, N=N), "==", exact) is Truth.TRUE


def test_stable_at_the_extremes():
    assert C.phi_n(eps="1e-30", n=10**6).evalf(5) == "1.0000e-24"
    gap = C.phi_n_complement(eps="1e-30", delta=1 - fmpq(1, 10**30), n=10**6)
    assert gap.sign().sign is not None and int(gap.sign().sign) == 1


# -- (3) no float result anywhere ---------------------------------------------------------------------

K2 = [["3/4", "1/4"], ["1/4", "3/4"]]
P2, Q2 = ["1/2", "1/2"], ["1/4", "3/4"]
FLOAT = object()  # marks the numeric argument the float goes into

#: a valid call of each public function, with FLOAT in one numeric argument
CALLS = {
    "gamma_max": lambda x: exactdp.gamma_max(2, x, "1/4"),
    "gamma_min": lambda x: exactdp.gamma_min(2, 3, x),
    "sup_eta_hockey_stick": lambda x: exactdp.sup_eta_hockey_stick(2, gamma=x, t=3, c="1/4"),
    "sup_eta_tv": lambda x: exactdp.sup_eta_tv(2, t=x, c="1/4"),
    "chi2": lambda x: exactdp.chi2([x, 1 - x] if not isinstance(x, str) else P2, Q2),
    "eta_hockey_stick": lambda x: exactdp.eta_hockey_stick(K2, x),
    "eta_hockey_stick_witness": lambda x: exactdp.eta_hockey_stick_witness(K2, x),
    "eta_tv": lambda x: exactdp.eta_tv([[x, 1 - x], [0, 1]]),
    "eta_chi2": lambda x: exactdp.eta_chi2([[x, 1 - x], ["1/2", "1/2"]]),
    "eta_kl": lambda x: exactdp.eta_kl([[x, 1 - x], ["1/2", "1/2"]]),
    "eta_hellinger2": lambda x: exactdp.eta_hellinger2([[x, 1 - x], ["1/2", "1/2"]]),
    "eta_chi2_prior": lambda x: exactdp.eta_chi2_prior([x, 1 - x], [["3/4", "1/4"], ["1/2", "1/2"]]),
    "eta_tv_witness": lambda x: exactdp.eta_tv_witness([[x, 1 - x], [0, 1]]),
    "f_divergence": lambda x: exactdp.f_divergence([x, 1 - x], Q2, sympy.Lambda(sympy.Symbol("u"), (sympy.Symbol("u") - 1) ** 2)),
    "hellinger2": lambda x: exactdp.hellinger2(P2, [x, 1 - x]),
    "hockey_stick": lambda x: exactdp.hockey_stick(P2, Q2, x),
    "is_ldp": lambda x: exactdp.is_ldp(K2, 3, x),
    "kl": lambda x: exactdp.kl([x, 1 - x], Q2),
    "ldp_epsilon": lambda x: exactdp.ldp_epsilon([[x, 1 - x], ["1/4", "3/4"]]),
    "ldp_ratio": lambda x: exactdp.ldp_ratio([[x, 1 - x], ["1/4", "3/4"]]),
    "ldp_ratio_witness": lambda x: exactdp.ldp_ratio_witness([[x, 1 - x], ["1/4", "3/4"]]),
    "max_leakage": lambda x: exactdp.max_leakage([[x, 1 - x], [0, 1]]),
    "max_leakage_ratio": lambda x: exactdp.max_leakage_ratio([[x, 1 - x], [0, 1]]),
    "pml": lambda x: exactdp.pml(K2, [x, 1 - x], 0),
    "pml_epsilon": lambda x: exactdp.pml_epsilon(K2, x),
    "pml_ratio": lambda x: exactdp.pml_ratio(K2, x),
    "pml_ratio_witness": lambda x: exactdp.pml_ratio_witness(K2, x),
    "privacy_profile": lambda x: exactdp.privacy_profile([[x, 1 - x], [0, 1]]),
    "to_qq": lambda x: exactdp.to_qq(x),
    "tv": lambda x: exactdp.tv(P2, [x, 1 - x]),
    "certified_compare": lambda x: exactdp.certified_compare(x, "<", 1),
    "certified_sign": lambda x: exactdp.certified_sign(x),
    "evalf": lambda x: exactdp.evalf(x),
    "renyi": lambda x: exactdp.renyi(P2, Q2, x),
    "delta_tensor_power": lambda x: exactdp.delta_tensor_power(K2, 2, x),
    "delta_tensor_power_batch": lambda x: exactdp.delta_tensor_power_batch(K2, 2, [2, x]),
    "delta_tensor_power_eps": lambda x: exactdp.delta_tensor_power_eps(K2, 2, x),
    "epsilon_tensor_power": lambda x: exactdp.epsilon_tensor_power(K2, 2, x),
    "eta_hockey_stick_tensor_power": lambda x: exactdp.eta_hockey_stick_tensor_power(K2, 2, x),
    "eta_hockey_stick_tensor_product": lambda x: exactdp.eta_hockey_stick_tensor_product([(K2, 2)], x),
    "eta_tv_tensor_power": lambda x: exactdp.eta_tv_tensor_power([[x, 1 - x], [0, 1]], 2),
    "hockey_stick_product": lambda x: exactdp.hockey_stick_product([(P2, Q2, 2)], x),
    "privacy_profile_tensor_power": lambda x: exactdp.privacy_profile_tensor_power([[x, 1 - x], [0, 1]], 2),
    "check": lambda x: exactdp.check("eta_tv <= 1", t=(x, 2)),
    # exactdp.certified
    "C.certified_difference_sign": lambda x: C.certified_difference_sign(x, 1),
    "C.as_rb": lambda x: C.as_rb(x),
    "C.eta_hockey_stick_certified": lambda x: C.eta_hockey_stick_certified(K2, x),
    "C.is_ldp_certified": lambda x: C.is_ldp_certified(K2, 3, x),
    "C.evaluate_at": lambda x: C.evaluate_at(sympy.Symbol("e") + 1, e=x),
    "C.exp_eps": lambda x: C.exp_eps(x),
    "C.phi": lambda x: C.phi(eps=x, delta=0),
    "C.phi_n": lambda x: C.phi_n(eps=1, delta=x, n=2),
    "C.phi_n_complement": lambda x: C.phi_n_complement(eps=x, delta=0, n=2),
    "C.tight_ldp_eta": lambda x: C.tight_ldp_eta(eps=1, delta=x),
    "C.xi": lambda x: C.xi(eps=1, c=x, N=2),
    "C.xi_regime": lambda x: C.xi_regime(eps=x, c="1/4", N=2),
    "C.xi_threshold": lambda x: C.xi_threshold(x, 2),
    "C.certified_bracket": lambda x: C.certified_bracket(lambda v: v - 3, x, 4),
    # the registry and the formula wrappers
    "bounds.evaluate": lambda x: B.get("xi").evaluate(t=3, c=x, N=2),
    "bounds.at": lambda x: B.get("xi").at(t=3, c=x, N=2),
    "bounds.evalf": lambda x: B.get("phi").evalf(t=x, delta=0),
    "formulas.xi": lambda x: F.xi(3, x, 2),
    "formulas.phi_n": lambda x: F.phi_n(x, 0, 2),
    "formulas.xi eps": lambda x: F.xi(eps=x, c="1/4", N=2),
    "formulas.phi_n eps": lambda x: F.phi_n(eps=x, delta=0, n=2),
    "tensor.phi_n": lambda x: exactdp.measures.tensor.phi_n(3, x, 2),
    "latex": lambda x: exactdp.latex(x),  # the LaTeX to paste: exact values only
}
#: public names that take no number (classes, modules, context managers with an int argument, the float reader)
NOT_NUMERIC = {"QQ", "CoercionError", "Distribution", "ExactDPError", "InvalidDistributionError",
               "InvalidKernelError", "InputError", "InternalError", "Kernel", "Leakage", "ParameterError",
               "PrivacyProfile", "ShapeError", "Sign", "Truth", "UndecidedError", "mechanisms", "RB",
               "precision_cap", "from_float", "verify", "VerifyResult",  # verify: claim ids and a seed (int), no numbers
               "Quantity", "quantities", "register_quantity", "unregister_quantity",  # the registry: names, no numbers
               "C.precision_cap", "C.current_cap", "C.RB", "C.Bracket", "C.SignResult", "C.DEFAULT_MAX_PREC",
               "C.evalf", "C.certified_compare", "C.certified_sign"}


def test_every_public_name_is_covered():
    public = set(exactdp.__all__) | {f"C.{n}" for n in C.__all__}
    assert public - set(CALLS) - NOT_NUMERIC == set()


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("bad", [0.25, np.float64(0.25)], ids=["float", "numpy.float64"])
def test_floats_are_refused(name, bad):
    with pytest.raises(CoercionError):
        CALLS[name](bad)


def test_the_table_is_valid_with_exact_numbers():
    """The same calls with an exact 1/4 (or 2 where γ ≥ 1 is needed) succeed: the float is what is refused."""
    quarter_ok = {"gamma_max", "sup_eta_tv", "sup_eta_hockey_stick", "eta_hockey_stick",
                  "eta_hockey_stick_witness", "hockey_stick", "renyi", "delta_tensor_power", "delta_tensor_power_batch",
                  "delta_tensor_power_eps", "eta_hockey_stick_tensor_power", "eta_hockey_stick_tensor_product",
                  "hockey_stick_product", "check", "C.eta_hockey_stick_certified", "C.certified_bracket",
                  "formulas.phi_n", "bounds.evalf", "C.exp_eps", "C.phi", "C.xi_regime", "C.phi_n_complement"}
    for name, call in CALLS.items():
        if name in ("check",):
            continue  # a search: covered by its own tests
        call(fmpq(2) if name in quarter_ok else fmpq(1, 4))


@pytest.mark.slow
def test_one_positive_part():
    """(a)₊ is decided in one place, ``exactdp.numbers.truth.positive_part``, from a domain's sign; the
    balls' sum, the symbolic (region) form and the one-parameter cells call it with their sign."""
    home = ROOT / "numbers" / "truth.py"
    assert [p for p, _ in _defs("positive_part") if p == home] == [home]
    for name in ("positive_part", "_positive_part", "positive_part_pieces", "positive_part_sum"):
        for path, node in _defs(name):
            if path == home:
                continue
            body = "\n".join(ast.unparse(s) for s in node.body)
            assert re.search(r"\b(_?positive_part|_positive)\(", body), f"{path.relative_to(ROOT)} {name}"
            assert "Max(" not in body and "max(" not in body


def test_one_cap_policy():
    """The scoped cap (precision_cap) bounds the conjecture evaluator's ladder as it bounds RB.sign."""
    from math import isqrt

    from exactdp.numbers.rb import precision_cap
    from exactdp.numbers import loglin as V

    r = fmpq(isqrt(2 * 4**100), 2**100)  # within 2^-100 of sqrt(2): 64-bit balls cannot separate them

    def value():
        return V.sub(V.power(fmpq(2), fmpq(1, 2)), r)

    assert V.certified_sign(value)[0] == 1
    with precision_cap(64):
        assert V.certified_sign(value)[0] is None
        assert RB(sympy.sqrt(2) - sympy.Rational(int(r.p), int(r.q))).sign().sign is None
