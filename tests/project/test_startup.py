"""Start-up: exact rational work does not import sympy (exactdp/numbers/deferred.py).

``from exactdp import Kernel, eta_tv`` and η_TV, η_{E_γ}, the LDP and PML ratios and maximal leakage of a
rational kernel need only python-flint and numpy; sympy loads with the first symbolic object.  Checked in a fresh interpreter (this one has sympy
loaded by other tests)."""

import subprocess
import sys

_RATIONAL = """
import sys
from fractions import Fraction
from exactdp import Kernel, eta_tv, eta_hockey_stick, ldp_ratio, max_leakage_ratio, pml_ratio
K = Kernel([["1/2", "1/2"], ["1/3", "2/3"]])
big = Kernel([[f"{(i * j) % 7 + 1}/{sum((i * k) % 7 + 1 for k in range(20))}" for j in range(20)] for i in range(20)])
print(eta_tv(K), eta_hockey_stick(K, Fraction(1, 2)), ldp_ratio(K), max_leakage_ratio(K), pml_ratio(K, "1/4"),
      eta_tv(big), pml_ratio(big, Fraction(1, 40)), max_leakage_ratio(big))
print("sympy" in sys.modules)
"""


def _run(code: str) -> list[str]:
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return r.stdout.split()


def test_measures_of_a_rational_kernel_leave_sympy_unimported():
    *values, loaded = _run(_RATIONAL)
    # TV(K_0, K_1) = |1/2 - 1/3| = 1/6; E_{1/2}(K_1 || K_0) = (1/3 - 1/4)_+ + (2/3 - 1/4)_+ = 1/2;
    # LDP ratio max(3/2, 4/3); max leakage 1/2 + 2/3; PML at c = 1/4: (1/2) / (5/24 + 1/6) = 4/3 > 16/13
    assert values[:5] == ["1/6", "1/2", "3/2", "7/6", "4/3"]
    assert loaded == "False"


def test_the_check_can_fail():
    """A symbolic value does import sympy: the check above is not vacuous."""
    *_, loaded = _run(_RATIONAL.replace('max_leakage_ratio(big))', 'max_leakage_ratio(big), Kernel([["1/2", "1/2"], ["1/3", "2/3"]]).to_sympy())'))
    assert loaded == "True"


_ANALYZE = """
import json, sys, tempfile, pathlib
from exactdp.cli import main
path = pathlib.Path(tempfile.mkdtemp()) / "k.json"
path.write_text(json.dumps({"rows": [["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/4", "1/4", "1/2"]]}))
code = main(["analyze", str(path), "--t", "3/2", "--c", "1/6", "--format", "FORMAT", "--no-progress"])
print("SYMPY", "sympy" in sys.modules, code)
"""


def test_analyze_of_a_rational_kernel_leaves_sympy_unimported():
    """``exactdp analyze`` of a kernel with rational entries and finite levels (issue 24 item 3): the levels
    log r print and round without sympy.  LDP ratio 2 (1/2 over 1/4), maximal leakage 3 · 1/2, PML at c = 1/6:
    (1/2) / (1/6 · 1 + 1/2 · 1/4) = 12/7."""
    out = subprocess.run([sys.executable, "-c", _ANALYZE.replace("FORMAT", "json")], capture_output=True,
                         text=True, check=True).stdout
    doc, _, tail = out.rpartition("SYMPY")
    assert tail.split() == ["False", "0"]
    import json

    result = json.loads(doc)["result"]
    assert result["eta_tv"]["value"] == "1/4"
    assert (result["ldp"]["ratio"], result["ldp"]["epsilon"], result["ldp"]["decimal"]) == \
        ("2", "log(2)", "0.693147180560")
    assert (result["max_leakage"]["nats"], result["max_leakage"]["decimal"]) == ("log(3/2)", "0.405465108108")
    assert (result["pml"]["ratio"], result["pml"]["epsilon"]) == ("12/7", "log(12/7)")
    text = subprocess.run([sys.executable, "-c", _ANALYZE.replace("FORMAT", "text")], capture_output=True,
                          text=True, check=True).stdout
    assert "eps = log(2) ≈ 0.693147180560" in text and text.split()[-2:] == ["False", "0"]


def test_analyze_of_a_kernel_with_zeros_leaves_sympy_unimported():
    """A column mixing 0 and > 0 makes e^{LDP} infinite: the project's exact +∞ (exactdp/numbers/infinity.py),
    printed "inf", needs no sympy (issue 24 item 3).  Rows (1/2, 1/2, 0), (0, 1/3, 2/3): column 0 mixes 1/2 and 0
    (LDP ratio ∞ at output 0, rows 0 vs 1); δ(γ) ≥ 2/3 for every γ, so no finite γ has δ = 0; maximal
    leakage 1/2 + 1/2 + 2/3 = 5/3; PML at c = 1/2 (Q_X(c) is the uniform prior): column 2 gives
    (2/3) / (1/2 · 2/3) = 2, above column 0's and 1's (1/2) / (1/4) = 2 and (1/2) / (5/12) = 6/5: 2."""
    code = _ANALYZE.replace('[["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/4", "1/4", "1/2"]]',
                            '[["1/2", "1/2", "0"], ["0", "1/3", "2/3"]]').replace('"1/6"', '"1/2"')
    out = subprocess.run([sys.executable, "-c", code.replace("FORMAT", "json")], capture_output=True,
                         text=True, check=True).stdout
    doc, _, tail = out.rpartition("SYMPY")
    assert tail.split() == ["False", "0"]
    import json

    result = json.loads(doc)["result"]
    assert (result["ldp"]["ratio"], result["ldp"]["epsilon"], result["ldp"]["decimal"]) == ("inf", "inf", "inf")
    assert (result["ldp"]["output"], result["ldp"]["inputs"]) == (0, [0, 1])
    assert result["privacy_profile"]["least_gamma_for_delta_0"] == "inf"
    assert result["max_leakage"]["ratio"] == "5/3" and result["pml"]["ratio"] == "2"
    text = subprocess.run([sys.executable, "-c", code.replace("FORMAT", "text")], capture_output=True,
                          text=True, check=True).stdout
    assert "LDP: e^eps = inf, eps = inf" in text and text.split()[-2:] == ["False", "0"]
