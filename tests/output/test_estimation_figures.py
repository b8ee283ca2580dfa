"""``exactdp figures --out DIR`` and the figure data behind it."""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")

from exactdp.cli import main
from exactdp.numbers.truth import Truth
from exactdp.output.figures import asoodeh_fig1_data, grosse_fig1_data
from exactdp.numbers.rb import rounds_to


@pytest.mark.slow
def test_cli_writes_png_and_pdf(tmp_path, capsys):
    assert main(["figures", "--out", str(tmp_path / "figs")]) == 0
    names = sorted(p.name for p in (tmp_path / "figs").iterdir())
    assert names == ["asoodeh2021_fig1.pdf", "asoodeh2021_fig1.png", "grosse2026_fig1.pdf", "grosse2026_fig1.png"]
    for name in names:
        head = (tmp_path / "figs" / name).read_bytes()[:8]
        assert head.startswith(b"\x89PNG") if name.endswith("png") else head.startswith(b"%PDF")
    assert "asoodeh2021_fig1.png" in capsys.readouterr().out


def test_cli_requires_out(capsys):
    assert main(["figures"]) == 2  # main returns argparse's exit status (issue 14)
    assert "--out" in capsys.readouterr().err


def test_asoodeh_figure_points_are_the_certified_values():
    data = asoodeh_fig1_data(("0.01", "3"))
    first, last = data["points"]
    assert rounds_to(first.thm2, "0.0967") is Truth.TRUE and rounds_to(last.xu_raginsky, "0.0109") is Truth.TRUE
    assert data["eps"] == [0.01, 3.0]
    assert data["thm2"][0] > data["xu_raginsky"][0] and data["thm2"][1] < data["xu_raginsky"][1]


def test_grosse_figure_K1_values():
    from flint import fmpq

    data = grosse_fig1_data((fmpq(1, 10),))
    row = data["kernels"]["K1 (Example 2)"]["exact"][0]
    assert row["t"] == "150/17"
    assert rounds_to(row["cor1"], "1.9168") is Truth.TRUE and rounds_to(row["kl_ratio"], "1.8634") is Truth.TRUE
    assert rounds_to(data["zamanlooy_asoodeh_K1_exact"], "2.3695") is Truth.TRUE


def test_grosse_figure_exact_gamma_recovers_zamanlooy_asoodeh():
    """F-G2: with the exact Γ_max, Cor 1 for K1 tends to (7/8) log 15 = 2.3695 as u → 0 (Lemma 4 gives 2.4260)."""
    from flint import fmpq

    row = grosse_fig1_data((fmpq(1, 10**6),))["kernels"]["K1 (Example 2)"]["exact"][0]
    assert rounds_to(row["cor1_exact_gamma"], "2.3695") is Truth.TRUE
    assert rounds_to(row["cor1"], "2.4260") is Truth.TRUE
