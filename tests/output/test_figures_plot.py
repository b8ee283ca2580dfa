"""``exactdp plot profile`` and ``exactdp plot bound`` (issue 16 item 2): exact values behind the curves,
breakpoints marked, 300-dpi PNG / vector PDF, legends off the data, one-line errors."""

from __future__ import annotations

import json
import math

import pytest

pytest.importorskip("matplotlib")

import sympy
from flint import fmpq

from exactdp.cli import main
from exactdp.io import kernel_from_text
from exactdp.measures.privacy import privacy_profile
from exactdp.mechanisms import randomized_response
from exactdp.numbers.rb import arb_eval
from exactdp.output import figstyle
from exactdp.output.plots import bound_curves, bounds_figure, profile_figure, profile_plot_data
from tests.output.test_figures_print import png_dpi, png_size

RR3 = {"name": "rr3", "rows": [["2/3", "1/6", "1/6"], ["1/6", "2/3", "1/6"], ["1/6", "1/6", "2/3"]]}


@pytest.fixture
def rr3_file(tmp_path):
    p = tmp_path / "rr3.json"
    p.write_text(json.dumps(RR3), encoding="utf-8")
    return p


def test_profile_data_is_the_exact_profile():
    """k-ary RR with e^ε = 4, k = 3: δ(γ) = (4 − γ)/6 on [1, 4], one breakpoint γ = 4 (ε = log 4), δ(0) = η_TV = 1/2."""
    prof = privacy_profile(randomized_response(3, 4))
    data = profile_plot_data(prof)
    assert data["at_zero"] == fmpq(1, 2) and data["at_infinity"] == 0
    assert data["breakpoints"] == [(4, sympy.log(4), 0)]
    assert data["eps"][0] == 0 and data["delta"][0] == 0.5 and data["delta"][-1] == 0
    assert sympy.log(4) in data["eps_exact"]
    # every plotted float is within one unit in the last place of the exact δ at the exact sample point:
    # (4 − e^ε)/6 on [0, log 4], 0 beyond (decided exactly by sympy; the float is only the plotting array)
    for x, y in zip(data["eps_exact"], data["delta"]):
        x = sympy.Rational(x.p, x.q) if isinstance(x, fmpq) else x
        exact = sympy.Max(0, (4 - sympy.exp(x)) / 6)
        assert sympy.N(abs(exact - sympy.Rational(y)) - sympy.Rational(math.ulp(max(y, 1e-300))), 60) <= 0, (x, y)


def test_profile_of_tensor_power_via_cli(rr3_file, tmp_path, capsys):
    """RR^{⊗3}: likelihood ratios 4, 16, 64 are the breakpoints above 1."""
    out = tmp_path / "p3.png"
    assert main(["plot", "profile", str(rr3_file), "--n", "3", "-o", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [str(out), "3 breakpoints at e^eps > 1: 4, 16, 64"]
    assert [round(d) for d in png_dpi(out)] == [300, 300] and png_size(out)[0] == 1050


def test_profile_cli_writes_png_and_pdf_for_a_stem(rr3_file, tmp_path, capsys):
    stem = tmp_path / "profile"
    assert main(["plot", "profile", str(rr3_file), "-o", str(stem)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{stem}.png", f"{stem}.pdf", "1 breakpoint at e^eps > 1: 4"]
    assert (tmp_path / "profile.pdf").read_bytes().startswith(b"%PDF")
    assert [round(d) for d in png_dpi(tmp_path / "profile.png")] == [300, 300]


def test_profile_figure_marks_every_breakpoint_and_keeps_the_legend_off_the_data():
    K = kernel_from_text(json.dumps({"rows": [["1/2", "1/4", "1/8", "1/8"], ["1/8", "1/2", "1/4", "1/8"],
                                              ["1/16", "1/16", "3/8", "1/2"]]}))  # breakpoints 1/8, 1/4, 1, 4, 8
    prof = privacy_profile(K)
    fig = profile_figure(prof, "three inputs")
    (ax,) = fig.axes
    marks = [ln for ln in ax.get_lines() if ln.get_linestyle() == "None"]
    # one marker per breakpoint γ > 1, at ε = log γ (the certified ball's midpoint) and height δ(γ) exactly
    above = [b for b in prof.breakpoints if b > 1]
    assert above == [4, 8] and len(marks) == 1
    assert list(marks[0].get_xdata()) == [float(arb_eval(sympy.log(sympy.Rational(b.p, b.q))).mid()) for b in above]
    assert list(marks[0].get_ydata()) == [float(prof(b)) for b in above]
    assert figstyle.legend_overlaps(ax) == 0
    assert "(nats)" in ax.get_xlabel() and "probability" in ax.get_ylabel()


def test_bound_curves_are_the_registry_values():
    curves = bound_curves(["phi", "xi"], "eps", fmpq(0), fmpq(3), 31, {"delta": "1/10", "c": "1/10", "N": "4"})
    phi, xi = curves["phi"], curves["xi"]
    assert phi["x"][0] == 0 and phi["x"][-1] == 3 and len(phi["x"]) == 31 and phi["skipped"] == 0
    assert phi["y"][0] == 0.1  # φ(0, 1/10) = 1/10
    assert phi["y"][-1] == float(arb_eval(1 - sympy.exp(-3) * sympy.Rational(9, 10)).mid())
    # Ξ(ε, 1/10) with N = 4 reaches 1 exactly where e^ε = 2/(Nc) = 5: every x ≥ log 5 plots 1
    assert all(y == 1.0 for x, y in zip(xi["x"], xi["y"]) if x >= 1.61) and xi["y"][0] == 0
    fig = bounds_figure(curves, "eps", "delta = 1/10")
    assert figstyle.legend_overlaps(fig.axes[0]) == 0


def test_bound_cli_domain_points_left_out_and_counted(tmp_path, capsys):
    out = tmp_path / "b.png"
    argv = ["plot", "bound", "grosse_example3_minimax", "--vs", "c", "--t", "8", "--N", "4", "--n", "10",
            "--at", "Phi=1,TV=1/2", "--from", "1/100", "--to", "1/4", "-o", str(out)]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    # t·c ≤ 1 (Example 3's extra domain): c = 1/100 + k/250 ≤ 1/8 for k ≤ 28, so 32 of 61 values are left out
    assert lines == [str(out), "grosse_example3_minimax: 32 of 61 values of c outside its domain (left out)"]
    assert [round(d) for d in png_dpi(out)] == [300, 300]


@pytest.mark.parametrize("argv, words", [
    (["plot", "bound", "phi", "--eps", "1"], "eps is the swept parameter"),
    (["plot", "bound", "phi"], "phi: give delta"),
    (["plot", "bound", "binette_kl"], "does not depend on eps"),
    (["plot", "bound", "phi", "--delta", "2"], "delta <= 1"),
    (["plot", "bound", "phi", "--delta", "0.1e400000"], "too large"),
    (["plot", "bound", "nosuchbound", "--delta", "0"], "unknown bound"),
    (["plot", "bound", "xi", "--vs", "c", "--eps", "1"], "--vs c: give --N"),
    (["plot", "bound", "phi", "--delta", "0", "--points", "1"], "--points"),
    (["plot", "bound", "phi", "--delta", "0", "--at", "zeta=1"], "zeta: not a parameter"),
    (["plot", "profile", "no-such-file.json"], "no such file"),
    (["plot"], "KIND"),
])
def test_bad_input_is_one_line_exit_2(argv, words, tmp_path, capsys):
    assert main(argv + ["-o", str(tmp_path / "x.png")] if argv != ["plot"] else argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "Traceback" not in err
    assert not (tmp_path / "x.png").exists()


def test_output_folder_checked_before_work(rr3_file, tmp_path, capsys):
    assert main(["plot", "profile", str(rr3_file), "-o", str(tmp_path / "missing" / "p.png")]) == 2
    assert "does not exist" in capsys.readouterr().err
