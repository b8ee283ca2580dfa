"""The HTML verification report (issue 16 item 4): one self-contained file, MathML formulas, a filterable and
sortable claims table, expandable evidence, counterexample kernels as files; rendered in headless Chromium."""

from __future__ import annotations

import base64
import contextlib
import html
import re
import shutil
import struct
from urllib.parse import unquote

import pytest

from exactdp.io import kernel_from_text
from exactdp.output.html import statement_mathml, value_html, verify_report_html
from exactdp.verification.claims import load_all
from exactdp.verification.engine import verify

#: a refuted claim whose counterexample is a 4x4 kernel, one with a 2x2 kernel, two proved, one verified on instances
SELECTION = ("findings.fa01_phi_power", "findings.fg05_missing_hypothesis", "background.d11_xi",
             "asoodeh2021.a07_phi_vs_tight", "grosse2026.intro_example", "asoodeh2021.a11_mean_estimation",
             "asoodeh2021.a15_xu_raginsky")  # ... and one proved modulo cited results

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def results():
    return verify(SELECTION, seed=0, quick=True)


@pytest.fixture(scope="module")
def page_html(results):
    return verify_report_html(results, seed=0, quick=True)


def test_every_registered_statement_becomes_mathml():
    """No statement of the registry stays LaTeX source: each converts, with no backslash command left over."""
    claims = load_all()
    assert len(claims) > 50
    failed = [cid for cid, c in claims.items() if not statement_mathml(c.statement)[1]]
    assert failed == []
    markup, _ = statement_mathml(claims["grosse2026.thm1"].statement)
    assert markup.count("<mfrac>") == 1 and "<mo>min</mo>" in markup and ">{<" in markup and ">}<" in markup


def test_unconvertible_statement_is_shown_as_source():
    markup, ok = statement_mathml(r"\frac{1}{")
    assert not ok and markup.startswith('<code class="tex-fallback"') and r"\frac{1}{" in markup


def test_exact_values_as_mathml_and_prose_as_text():
    assert value_html("log(3)") == ('<math xmlns="http://www.w3.org/1998/Math/MathML"><mrow><mi>log</mi><mrow>'
                                    "<mo>(</mo><mn>3</mn><mo>)</mo></mrow></mrow></math>")
    assert "<mi>∞</mi>" in value_html("inf")
    assert value_html("binary RR, <b>") == "binary RR, &lt;b&gt;"
    assert value_html("__import__('os')") == "__import__(&#x27;os&#x27;)"  # the reader refuses; shown as text


def test_self_contained_and_deterministic(results, page_html):
    assert page_html.startswith("<!DOCTYPE html>") and page_html.rstrip().endswith("</html>")
    # no resource is loaded from anywhere: the only URLs are the MathML namespace and data: downloads
    urls = set(re.findall(r"https?://[^\s\"'<>]+", page_html))
    assert urls == {"http://www.w3.org/1998/Math/MathML"}
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=", page_html)
    assert page_html == verify_report_html(results, seed=0, quick=True)
    assert page_html.count('<tr id="c-') == len(SELECTION)
    assert page_html.count("<details><summary>") >= len(SELECTION)


def test_scope_names_what_a_proof_rests_on(results, page_html):
    from exactdp.numbers.formula_text import formula_mathml
    from exactdp.output.html import phrase_html

    modulo = [r for r in results if r.verdict.value == "proved-modulo"]
    assert modulo and all(r.rests_on for r in modulo)
    for r in modulo:
        row = page_html.split(f'<tr id="c-{r.claim.id}"', 1)[1].split("</tr>", 1)[0]
        cell = row.split('<td class="scope">', 1)[1].split("</td>", 1)[0]
        # the scope's prose as text and each of its formulas as MathML from its expression (issue 23)
        assert cell.startswith(phrase_html(r.scope_step)) and r.scope_step.math
        assert all(formula_mathml(f) in cell for f in r.scope_step.formulas())
        assert "rests on: " + ", ".join(r.rests_on) in html.unescape(cell)
    proved = next(r for r in results if r.claim.id == "background.d11_xi")
    assert proved.verdict.value == "proved" and proved.scope


def test_proof_certificates_state_their_formulas_as_mathml(results, page_html):
    """Each certificate behind a proved claim shows its region and statements as MathML (read by the
    certificate's own safe reader), not as text."""
    from exactdp.output.html import certificate_html

    certs = [c for r in results if r.verdict.value in ("proved", "proved-modulo") for c in r.certificates]
    assert len(certs) >= 3
    for cert in certs:
        item = certificate_html(cert)
        assert item.count("<math") >= 1 and "shown as text" not in item, cert.name
        assert item in page_html
    statements = [c for c in certs if getattr(c, "statements", ())]
    assert statements and all(certificate_html(c).count("<math") >= len(c.statements) for c in statements)


def test_counterexample_kernels_download_as_kernel_files(results, page_html):
    links = re.findall(r'<a class="download" download="([^"]+)" href="data:application/json;charset=utf-8,([^"]+)"',
                       page_html)
    by_name = {name: kernel_from_text(unquote(data)) for name, data in links}
    assert set(by_name) == {"findings.fa01_phi_power.power-reading-against-the-exact-eta_TV-RR-x-n.K.json",
                            "findings.fg05_missing_hypothesis.identity-witness.K.json"}
    rr2 = by_name["findings.fa01_phi_power.power-reading-against-the-exact-eta_TV-RR-x-n.K.json"]
    # binary RR at e^eps = 3 tensored with itself: the rows of (3/4, 1/4) (x) (3/4, 1/4)
    assert rr2.as_strings()[0] == ["9/16", "3/16", "3/16", "1/16"] and rr2.shape == (4, 4)
    assert by_name["findings.fg05_missing_hypothesis.identity-witness.K.json"].as_strings() == [["1", "0"], ["0", "1"]]


def _png_size(path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


def _visible_ids(page) -> list[str]:
    return page.eval_on_selector_all("#claims > tbody > tr", "rs => rs.filter(r => r.offsetParent !== null)"
                                                         ".map(r => r.cells[0].getAttribute('data-key'))")


@contextlib.contextmanager
def _chromium_page(page_html, tmp_path):
    """The report opened in headless Chromium at the 1280 x 800 viewport (skipped without playwright/chromium)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not shutil.which(CHROMIUM):
        pytest.skip("chromium is not installed")
    report = tmp_path / "report.html"
    report.write_text(page_html, encoding="utf-8")
    with sync_api.sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(str(tmp_path / "profile"), executable_path=CHROMIUM,
                                                    args=CHROMIUM_ARGS, headless=True, viewport=VIEWPORT)
        try:
            page = ctx.new_page()
            page.goto(report.as_uri())
            yield page
        finally:
            ctx.close()


@pytest.mark.slow
def test_renders_in_headless_chromium(results, page_html, tmp_path):
    shot = tmp_path / "first-screen.png"
    with _chromium_page(page_html, tmp_path) as page:
        page.screenshot(path=str(shot))  # the first screen, as a reader opens the file

        # evidence is collapsed until opened
        first = page.locator("#c-findings\\.fa01_phi_power td.ev details").first
        assert not first.locator(".ce").first.is_visible()
        first.locator("summary").first.click()
        assert first.locator(".ce").first.is_visible()

        # every formula rendered, the evidence's too: with every <details> open, each <math> has a size
        page.eval_on_selector_all("details", "ds => ds.forEach(d => { d.open = true; })")
        boxes = page.eval_on_selector_all(
            "math", "ms => ms.map(m => { const r = m.getBoundingClientRect(); return [r.width, r.height]; })")
        statements = page.eval_on_selector_all("td.stmt math", "ms => ms.length")
        with_maths = page.eval_on_selector_all("td.stmt", "cs => cs.filter(c => c.querySelector('math')).length")
        assert with_maths == len(SELECTION) and statements >= len(SELECTION)  # a statement has one or more
        assert len(boxes) > statements  # counterexample values (3/16, log 3, ...) are MathML too
        assert all(w > 0 and h > 0 for w, h in boxes), boxes
        # MathML layout, not text: a fraction is taller than a line of the table's text
        frac_h = page.eval_on_selector("#c-background\\.d11_xi td.stmt math", "m => m.getBoundingClientRect().height")
        assert frac_h > 20

        ids = _visible_ids(page)
        assert sorted(ids) == sorted(SELECTION)
        page.fill("#filter", "fa01")
        assert _visible_ids(page) == ["findings.fa01_phi_power"]
        assert page.inner_text("#shown") == f"1 of {len(SELECTION)} claims shown"
        page.fill("#filter", "")
        page.select_option("#verdict", "refuted")
        refuted = sorted(r.claim.id for r in results if r.verdict.value == "refuted")
        assert sorted(_visible_ids(page)) == refuted and len(refuted) == 3  # fa01, fg05, a11
        page.select_option("#verdict", "")
        assert len(_visible_ids(page)) == len(SELECTION)

        # sorting: Instances ascending, then descending; Claim reorders by id
        by_instances = {r.claim.id: r.instances for r in results}
        page.click("#claims thead th:nth-child(6)")
        counts = [by_instances[i] for i in _visible_ids(page)]
        assert counts == sorted(counts) and counts != list(reversed(counts))
        page.click("#claims thead th:nth-child(6)")
        assert [by_instances[i] for i in _visible_ids(page)] == sorted(counts, reverse=True)
        page.click("#claims thead th:nth-child(1)")
        assert _visible_ids(page) == sorted(SELECTION)
    assert _png_size(shot) == (VIEWPORT["width"], VIEWPORT["height"])


def test_png_size_reader():
    png = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
    import pathlib
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        p = pathlib.Path(d) / "x.png"
        p.write_bytes(png)
        assert _png_size(p) == (1, 1)


def test_verify_format_html_writes_the_page(tmp_path, capsys):
    from exactdp.cli import main

    out = tmp_path / "r.html"
    assert main(["verify", "background.d11_xi", "findings.fa01_phi_power", "--quick", "--format", "html",
                 "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.count('<tr id="c-') == 2
    assert page.count('<td class="stmt"><math') == 2 and 'download="findings.fa01_phi_power.' in page


def _row(page_html, claim_id):
    return page_html.split(f'<tr id="c-{claim_id}"', 1)[1].split("</tr>", 1)[0]


def test_links_toc_and_references_resolve(results, page_html):
    """Issue 23 item 5: a table of contents, "rests on" and "related" as links; every in-page link resolves
    (a claim of the report to its row, anything else to the reference list), ≥ 1 link per proved-modulo claim."""
    ids = set(re.findall(r'\bid="([^"]+)"', page_html))
    hrefs = [html.unescape(h) for h in re.findall(r'href="#([^"]*)"', page_html)]
    assert hrefs and all(h in ids for h in hrefs), sorted(set(hrefs) - ids)
    toc = page_html.split('<nav class="toc" id="toc">', 1)[1].split("</nav>", 1)[0]
    assert all(f'href="#c-{r.claim.id}"' in toc for r in results)
    modulo = [r for r in results if r.verdict.value == "proved-modulo"]
    assert modulo
    refs = page_html.split('<section class="refs" id="references">', 1)[1].split("</section>", 1)[0]
    for r in modulo:
        cell = _row(page_html, r.claim.id).split('<td class="claim"', 1)[1].split("</td>", 1)[0]
        assert cell.count('<a href="#') + cell.count('<a class="ref" href="#') >= len(r.rests_on) >= 1
        for name in r.rests_on:  # a claim not in this run or a cited theorem: in the reference list
            if name not in SELECTION:
                assert html.escape(name, quote=False) in refs
    # a related claim that is in the report links to its row
    related = [(r.claim.id, x) for r in results for x in r.claim.related if x in SELECTION]
    for cid, x in related:
        assert f'href="#c-{x}"' in _row(page_html, cid)


def test_print_stylesheet(page_html):
    style = page_html.split("<style>", 1)[1].split("</style>", 1)[0]
    media = style.split("@media print{", 1)[1]
    assert ".controls,nav.toc{display:none}" in media and "pre{max-height:none" in media
    assert "beforeprint" in page_html  # every <details> opens before printing


@pytest.mark.slow
def test_evidence_stays_inside_the_page_in_chromium(page_html, tmp_path):
    """At 1280 px with every <details> open the page does not scroll sideways, and every element lies inside
    the viewport except inside a formula's own scroll box (a long certificate formula scrolls within its
    cell); in print media the controls and the contents are hidden."""
    with _chromium_page(page_html, tmp_path) as page:
        page.eval_on_selector_all("details", "ds => ds.forEach(d => { d.open = true; })")
        width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert width[0] <= width[1] == VIEWPORT["width"], width
        outside = page.evaluate("""() => {
            const W = document.documentElement.clientWidth, out = [];
            const boxed = e => { for (let a = e.parentElement; a; a = a.parentElement) {
                const o = getComputedStyle(a).overflowX; if (o === 'auto' || o === 'scroll') return true; }
                return false; };
            for (const e of document.querySelectorAll('body *')) {
                const r = e.getBoundingClientRect();
                if (r.width > 0 && r.right > W + 0.5 && !boxed(e)) out.push(e.tagName + '.' + e.className);
            }
            return out; }""")
        assert outside == []
        # every in-page link resolves in the rendered document too
        missing = page.evaluate("""() => [...document.querySelectorAll('a[href^="#"]')]
            .map(a => decodeURIComponent(a.getAttribute('href').slice(1)))
            .filter(id => !document.getElementById(id))""")
        assert missing == []
        page.emulate_media(media="print")
        assert not page.locator(".controls").is_visible() and not page.locator("nav.toc").is_visible()
