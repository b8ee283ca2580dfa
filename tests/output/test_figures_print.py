"""Figures for print (issue 16 item 2): 300-dpi PNG + vector PDF, one column wide, legends and insets that
cover no plotted data (checked with matplotlib's renderer in display coordinates), labelled axes, mathtext,
grey-scale distinguishable series; the bump of [A] Fig. 1's Theorem 2 curve, explained and certified."""

from __future__ import annotations

import struct

import pytest

pytest.importorskip("matplotlib")

from flint import fmpq

from exactdp import bounds
from exactdp.numbers.rb import arb_eval
from exactdp.output import figstyle
from exactdp.output.figures import (
    ASOODEH_FIG1_CAPTION,
    GROSSE_FIG1_CAPTION,
    asoodeh_fig1,
    asoodeh_fig1_data,
    grosse_fig1,
    grosse_fig1_data,
    write_figures,
)
from exactdp.theory.estimation import bernoulli_bayes_point


def png_dpi(path) -> tuple[float, float]:
    """The resolution recorded in a PNG's pHYs chunk (pixels per metre → dots per inch)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos = 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"pHYs":
            x, y, unit = struct.unpack(">IIB", data[pos + 8:pos + 17])
            assert unit == 1  # metres
            return x * 0.0254, y * 0.0254
        pos += 12 + length
    raise AssertionError("no pHYs chunk")


def png_size(path) -> tuple[int, int]:
    return struct.unpack(">II", path.read_bytes()[16:24])


# -- the style module on small synthetic figures (fast) ---------------------------------------------------

def test_series_differ_in_colour_linestyle_and_marker():
    seen = [figstyle.series(i) for i in range(6)]
    for key in ("color", "linestyle", "marker"):
        assert len({str(s[key]) for s in seen}) == 6, key


def test_overlap_check_detects_a_covering_legend_and_place_legend_avoids_it():
    fig, ax = figstyle.figure()
    xs = [i / 50 for i in range(51)]
    ax.plot(xs, [0.5] * 51, label="flat line through the middle")
    ax.plot(xs, [x for x in xs], "o", label="diagonal points")
    forced = ax.legend(loc="center")
    assert figstyle.legend_overlaps(ax, forced) > 0  # the check sees data under a legend in the middle
    leg = figstyle.place_legend(ax)
    assert figstyle.legend_overlaps(ax, leg) == 0 and leg is ax.get_legend()
    # data everywhere: no free corner, the legend goes below the axes
    fig2, ax2 = figstyle.figure()
    for k in range(21):
        ax2.plot(xs, [k / 20] * 51, "-", label=f"level {k}" if k < 2 else None)
    leg2 = figstyle.place_legend(ax2)
    fig2.canvas.draw()
    assert figstyle.legend_overlaps(ax2, leg2) == 0
    assert leg2.get_window_extent().y1 <= ax2.get_window_extent().y0 + 1  # below the data area


def test_save_writes_300_dpi_png_and_vector_pdf(tmp_path):
    fig, ax = figstyle.figure(height=2.0)
    ax.plot([0, 1], [0, 1], **figstyle.series(0))
    png, pdf = figstyle.save(fig, tmp_path / "f")
    assert png_size(png) == (int(figstyle.COLUMN_WIDTH * figstyle.DPI), int(2.0 * figstyle.DPI))
    assert [round(d) for d in png_dpi(png)] == [300, 300]
    body = pdf.read_bytes()
    assert body.startswith(b"%PDF") and b"/Subtype /Image" not in body and b"CreationDate" not in body


def test_missing_matplotlib_names_the_extra(monkeypatch, capsys):
    import builtins
    import sys

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    for mod in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, mod)
    from exactdp.cli import main

    assert main(["figures", "--out", "unused-dir"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and 'pip install "exactdp[figures]"' in err and "Traceback" not in err


# -- [A] Fig. 1: the bump of the Theorem 2 curve ----------------------------------------------------------

def test_theorem2_bump_is_a_certified_interior_maximum_not_a_branch_switch():
    """Thm 2 = (1 − φⁿ I_{e^ε})₊² / (8e^ε): a local minimum in (0.22, 0.24) and a local maximum in
    (1.18, 1.20), certified by the balls at the bracketing points; the positive part is inactive."""
    p = {e: bernoulli_bayes_point(e, "1e-4", 20, bits=40) for e in ("0.22", "0.23", "0.24", "1.18", "1.19", "1.2")}
    # the caption's numbers: φⁿ(0, 10⁻⁴) = 1 − (1 − 10⁻⁴)²⁰ ≈ 0.002, and 1 − φⁿ(1) = e⁻²⁰(1 − 10⁻⁴)²⁰ < 10⁻⁸
    phi_n = bounds.get("phi_n")
    assert fmpq(1, 1000) < phi_n.evaluate(eps=0, delta="1/10000", n=20) < fmpq(3, 1000)
    assert 1 - arb_eval(phi_n.evaluate(eps=1, delta="1/10000", n=20)) < fmpq(1, 10**8)
    assert "0.002" in ASOODEH_FIG1_CAPTION and "within 10⁻⁸ of 1 by ε = 1" in ASOODEH_FIG1_CAPTION
    assert p["0.23"].thm2 < p["0.22"].thm2 and p["0.23"].thm2 < p["0.24"].thm2
    assert p["1.19"].thm2 > p["1.18"].thm2 and p["1.19"].thm2 > p["1.2"].thm2
    assert abs(p["1.19"].thm2 - fmpq(2638, 100000)) < fmpq(1, 100000)
    for q in p.values():
        assert 1 - q.phi_n * q.e_gamma_information > fmpq(43, 100)  # (·)₊ inactive: no branch switch
    assert 1 - p["1.18"].phi_n < fmpq(1, 10**9)  # φⁿ saturated: the ε-dependence is I_{e^ε} against 1/e^ε
    assert "(1.18, 1.20)" in ASOODEH_FIG1_CAPTION and "(0.22, 0.24)" in ASOODEH_FIG1_CAPTION


def test_grosse_exact_gamma_equals_lemma4_for_K2_and_for_K1_from_u_4_17():
    """The caption's statement, exactly: the hidden K₂ curve coincides with Lemma 4's (F-G2: e^{ε_c} = 1/(3c))."""
    data = grosse_fig1_data((fmpq(1, 100), fmpq(1, 5), fmpq(4, 17), fmpq(1, 2)))
    k1, k2 = (rows["exact"] for rows in data["kernels"].values())
    assert all(r["cor1"] == r["cor1_exact_gamma"] and r["cor2"] == r["cor2_exact_gamma"] for r in k2)
    assert [r["cor1"] == r["cor1_exact_gamma"] for r in k1] == [False, False, True, True]
    assert "4/17" in GROSSE_FIG1_CAPTION


# -- the two figures as written (slow: ~8 s of certified values) -----------------------------------------

@pytest.fixture(scope="module")
def asoodeh_data():
    return asoodeh_fig1_data()


@pytest.fixture(scope="module")
def grosse_data():
    return grosse_fig1_data()


@pytest.fixture(scope="module")
def figures(asoodeh_data, grosse_data):
    return {"asoodeh": asoodeh_fig1(asoodeh_data), "grosse": grosse_fig1(grosse_data)}


@pytest.mark.slow
def test_theorem2_positive_part_inactive_on_the_whole_grid(asoodeh_data):
    """The caption's "no branch switches": 1 − φⁿ I_{e^ε} > 0.43 at every plotted ε (certified balls)."""
    assert len(asoodeh_data["points"]) == len(asoodeh_data["eps"]) > 30
    assert all(1 - p.phi_n * p.e_gamma_information > fmpq(43, 100) for p in asoodeh_data["points"])
    assert "0.43" in ASOODEH_FIG1_CAPTION


@pytest.mark.slow
def test_legends_and_inset_cover_no_data(figures):
    a = figures["asoodeh"]
    (ax,) = a.axes
    assert ax.get_legend() is not None and figstyle.legend_overlaps(ax) == 0
    g = figures["grosse"]
    a1, a2 = g.axes[:2]
    (leg,) = g.legends
    assert figstyle.covered_points(a1, leg) == 0 and figstyle.covered_points(a2, leg) == 0
    assert figstyle.covered_points(a1, g._exactdp_inset) == 0
    g.canvas.draw()
    assert leg.get_window_extent().y1 < a2.get_window_extent().y0  # below both panels


@pytest.mark.slow
def test_labels_mathtext_and_distinguishable_series(figures):
    (ax,) = figures["asoodeh"].axes
    assert "(nats)" in ax.get_xlabel() and ax.get_ylabel()
    a1, a2 = figures["grosse"].axes[:2]
    assert a1.get_ylabel() and a2.get_ylabel() and "$u = Nc$" in a2.get_xlabel()
    labels = [t.get_text() for t in figures["grosse"].legends[0].get_texts()]
    assert sum(r"$\Gamma_{\max}$" in t for t in labels) == 4 and not any("Γ_max" in t for t in labels)
    lines = a1.get_lines()[:6]  # K1's three, K2's three (panel a)
    looks = {(ln.get_color(), str(ln.get_linestyle()), ln.get_marker(), str(ln.get_markerfacecolor()))
             for ln in lines}
    assert len(looks) == 6
    k1 = {(str(ln.get_linestyle()), str(ln.get_markerfacecolor())) for ln in lines[:3]}
    assert len(k1) == 3  # in grey scale too: line style and marker fill differ
    hidden = lines[4]  # K2 with the exact Γ_max, equal to lines[3]: hollow markers drawn on top
    assert hidden.get_markerfacecolor() == "white" and hidden.get_zorder() >= lines[3].get_zorder()


@pytest.mark.slow
def test_write_figures_300_dpi_one_column(tmp_path, monkeypatch, asoodeh_data, grosse_data):
    import exactdp.output.figures as figures_module

    # the certified values once per module (the figures' data are tested above); here only the files
    monkeypatch.setattr(figures_module, "asoodeh_fig1_data", lambda: asoodeh_data)
    monkeypatch.setattr(figures_module, "grosse_fig1_data", lambda: grosse_data)
    paths = write_figures(tmp_path)
    assert sorted(p.name for p in paths) == ["asoodeh2021_fig1.pdf", "asoodeh2021_fig1.png",
                                             "grosse2026_fig1.pdf", "grosse2026_fig1.png"]
    for p in paths:
        if p.suffix == ".png":
            assert [round(d) for d in png_dpi(p)] == [300, 300]
            assert png_size(p)[0] == int(figstyle.COLUMN_WIDTH * figstyle.DPI)
        else:
            body = p.read_bytes()
            assert body.startswith(b"%PDF") and b"/Subtype /Image" not in body
