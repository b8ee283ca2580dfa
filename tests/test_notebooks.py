"""Execute every notebook in notebooks/ (nbclient + ipykernel) and assert the numbers they show.

The printed values are compared with the papers' / claims.md's numbers (the same numbers that
tests/reference/test_paper_numbers.py certifies), so a notebook that drifts from the papers fails here.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

if os.environ.get("CI"):  # CI installs ".[test]": a missing notebook dependency must fail, not skip
    import ipykernel  # noqa: F401
    import matplotlib  # noqa: F401
    import nbclient
    import nbformat
else:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"

#: text each notebook must print (values from claims.md A-16/A-17, G-27, F-A1, F-A4)
EXPECTED = {
    "01_asoodeh_fig1.ipynb": [
        "I(theta; X^20) = 1.14721 nats",
        "eps = 0.02: Thm 2 (17) = 0.0767   bound (15) = 0.0337",
        "Thm 2 rounds to 0.08: true | bound (15) rounds to 0.03: true",
        " 0.01  0.183  0.0444  0.0967",
        " 0.05  0.633  0.0199  0.0437",
        "  0.1  0.865  0.0135  0.0255",
        "  0.5  1.000  0.0109  0.0216",
        "    1  1.000  0.0109  0.0258",
        "    2  1.000  0.0109  0.0160",
        "    3  1.000  0.0109  0.0062",
    ],
    "02_grosse_fig1.ipynb": [
        "u = 1/10: e^eps_c = 150/17  Cor 1 = 1.9168  Cor 2 = 0.8728",
        "u = 1/4: e^eps_c = 60/11  Cor 1 = 1.4240  Cor 2 = 0.6752",
        "u = 1/2: e^eps_c = 10/3  Cor 1 = 0.8582  Cor 2 = 0.4207",
        "u = 3/4: e^eps_c = 12/5  Cor 1 = 0.4113  Cor 2 = 0.2047",
        "Zamanlooy-Asoodeh (LDP, c-free) for K1: 2.3695",
        "eta_TV: 7/8",
    ],
    "03_tour.ipynb": [
        "LDP ratio e^eps  : 3",
        "eta_TV           : 2/5",
        "eps = log(3) = 1.09861228866810969139524523692",
        "n = 2: eta_TV(RR^n) = 1/2   phi^n = 8/9   phi(eps,0)^n = 4/9   power reading violated: true",
        "n = 10000: reported lower bound 1/100  >  achieved risk 1/10000: true",
        "verdict:    REFUTED",
        "eta_TV = (t - 1)/(t*(1 - 3*c) + 1)",
        "phi >= ldp_dobrushin_tight: true",
    ],
    "04_exact_vs_float.ipynb": [
        "exact E_2 = 1/25   float64 E_2 = 0.04000000000000001   float64 says (log 2, 0.04)-LDP: false",
        "exact decision (log 2, 1/25)-LDP: true",
        "float64: 0.0\n",
        "exact LDP ratio: oo",
        "= 2.00000000000e-19",
    ],
}


#: rich displays (HTML / LaTeX / Markdown of exactdp objects) a notebook must show
EXPECTED_RICH = {
    "03_tour.ipynb": [r"\frac{3}{5}", "✗ FALSE", "<b>Privacy profile</b>", "all certificates re-checked ✓",
                      "<b>REFUTED</b>", "<details>"],
}


def _rich(nb) -> str:
    out = []
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            for mime in ("text/html", "text/latex", "text/markdown"):
                if mime in o.get("data", {}):
                    out.append(o["data"][mime])
    return "\n".join(out)


def _texts(nb) -> str:
    out = []
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            if o.get("output_type") == "stream":
                out.append(o.get("text", ""))
            elif "data" in o and "text/plain" in o["data"]:
                out.append(o["data"]["text/plain"])
    return "\n".join(out)


def test_every_notebook_is_listed():
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == sorted(EXPECTED)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_notebook_executes_and_shows_the_papers_numbers(name, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(ROOT)}})
    client.execute()
    text = _texts(nb)
    for expected in EXPECTED[name]:
        assert expected in text, f"{name}: expected output {expected!r} not found"
    rich = _rich(nb)
    for expected in EXPECTED_RICH.get(name, ()):
        assert expected in rich, f"{name}: expected rich display {expected!r} not found"
    import re

    assert not re.search(r"\d{50}", text + rich), f"{name}: shows a number of 50 or more digits"
    assert any("image/png" in o.get("data", {}) for c in nb.cells for o in c.get("outputs", [])) or name in (
        "03_tour.ipynb", "04_exact_vs_float.ipynb")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_notebooks_define_no_algorithms(name):
    """Notebooks demonstrate exactdp: no function or class definitions in their code cells."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            for line in cell.source.splitlines():
                assert not line.lstrip().startswith(("def ", "class ", "async def ")), f"{name}: {line}"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_notebooks_use_the_public_api(name):
    """No private module or name is imported (``exactdp._x``, ``from m import _x``)."""
    import re

    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            for line in cell.source.splitlines():
                if re.match(r"\s*(from|import)\s", line):
                    assert not re.search(r"(^|[\s.,])_[A-Za-z]", line.split("#")[0]), f"{name}: {line}"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_section_is_explained(name):
    """Every heading is followed by explanatory text (in its cell or the next markdown cell) before code."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    cells = nb.cells
    for k, cell in enumerate(cells):
        if cell.cell_type != "markdown" or not cell.source.lstrip().startswith("#"):
            continue
        prose = [ln for ln in cell.source.splitlines()[1:] if ln.strip()]
        if not prose and k + 1 < len(cells) and cells[k + 1].cell_type == "markdown":
            prose = [ln for ln in cells[k + 1].source.splitlines() if ln.strip() and not ln.startswith("#")]
        assert prose, f"{name}: section {cell.source.splitlines()[0]!r} has no text"
