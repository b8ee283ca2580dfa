r"""The verification report as ONE self-contained HTML file: ``exactdp verify --format html``.

:func:`verify_report_html` is a pure function of the :class:`~exactdp.verification.engine.ClaimResult` list,
the seed and the run size (like :mod:`exactdp.output.report`): no timing, date or machine data unless
``timings=True``, so the same seed gives a byte-identical file.  The page needs no network: its CSS and its
small script are inline, no font or script is loaded from anywhere.

* **Formulas as MathML**, which browsers render natively.  A claim's statement is printed from its formulas'
  expressions (:attr:`~exactdp.verification.claims.Claim.formulas`, :func:`claim_statement_html`) by sympy's
  presentation MathML printer; a statement without mathematics (a finding about a paper's text) goes through
  ``latex2mathml`` (a converter of LaTeX *markup*: nothing is evaluated), shown as its LaTeX source in
  ``<code class="tex-fallback">`` if refused (:func:`statement_mathml`).  A structured derivation step
  (:class:`~exactdp.numbers.formula_text.DerivationStep`) shows its prose as text and its formulas and region
  as MathML, in the slots of an inline step, its certificate's name as code (:func:`step_html`).  Exact values of the evidence (a counterexample's ``"3/16"``, ``"log(3)"``)
  are read by the one safe reader (:func:`exactdp.numbers.reader.read_expression`) and printed the same way;
  anything the reader refuses (prose, a kernel) stays text.  The proof certificates of a check
  (:func:`certificate_html`) show their region, statements and conclusion as MathML, read by the
  certificate's own safe reader.  Summaries, details and the derivation lines written as text stay text.
* **A sortable, filterable claims table**: claim, items, statement, scope, verdict, instances, evidence.  A
  search box filters on the row's text, a select on the verdict; a click on a header sorts by that column
  (again: reversed).  The scope column says what the verdict covers: for *proved* "all parameters" with the
  hypotheses, otherwise the hypotheses and the instance families.
* **Evidence** of each claim behind ``<details>``: one entry per check (verdict, summary, families,
  derivation, counterexample, reason, details as JSON).
* **Contents and links**: a table of contents (the claims by group, each linked to its row with its
  verdict); under each claim "Rests on" and "Related" as links — to the claim's row when it is in the report,
  else to the page's reference list ("Cited results and claims outside this report", numbered by first
  mention), so every ``href="#…"`` resolves and every proved-modulo claim links to what it rests on.
* **Layout**: a fixed-layout table whose cells wrap (long words and code break anywhere), so the page never
  scrolls sideways at 1280 px with all evidence open; a formula longer than its cell scrolls inside its own
  box (MathML does not break lines).  A print stylesheet hides the controls and contents, repeats the table
  header and lifts the height cap of ``<pre>``; every ``<details>`` opens before printing (``beforeprint``).
  The page is built by string joins of escaped fragments (``_esc``) — a template engine would add a
  dependency without removing an escaping step.
* **Counterexamples with their kernel**: a counterexample entry that is a stochastic matrix (a
  :class:`~exactdp.kernels.Kernel` or rows of exact entries that the kernel validation accepts) is offered as
  a kernel file (``data:`` URL, the JSON that :func:`exactdp.io.read_kernel` and ``exactdp analyze`` read
  back).
"""

from __future__ import annotations

import json
import re
from urllib.parse import quote as url_quote

from exactdp.numbers import escape
from exactdp.verification.claims import REGISTRY, Verdict
from exactdp.output.verdicts import RECON_NOTE, summary_line, verdict_text
from exactdp.verification.engine import ClaimResult, summarize
from exactdp.verification.export import json_strings

#: evidence details longer than this many characters are cut in the page (the JSON report has them whole)
MAX_DETAILS = 20_000
#: a counterexample value longer than this is not read as a formula (shown as text)
MAX_FORMULA_TEXT = 200

_VERDICT_ORDER = {v.value: i for i, v in enumerate(
    (Verdict.REFUTED, Verdict.UNDECIDED, Verdict.PROVED, Verdict.PROVED_MODULO, Verdict.VERIFIED,
     Verdict.NOT_CHECKABLE))}

_MATHML_NS = "http://www.w3.org/1998/Math/MathML"


def _esc(text) -> str:
    return escape.html(text, keep="\n\t")


def statement_mathml(latex: str) -> tuple[str, bool]:
    r"""``(markup, is_mathml)``: the claim statement ``latex`` as an inline ``<math>`` element, or — when the
    converter refuses it — its LaTeX source in ``<code class="tex-fallback">`` (``is_mathml`` False).

    >>> m, ok = statement_mathml(r"\Xi(\varepsilon,c)=\min\Big\{\frac{e^\varepsilon-1}{e^\varepsilon(1-Nc)+1},1\Big\}")
    >>> ok, m.startswith("<math"), "<mfrac>" in m, "\\" in m
    (True, True, True, False)
    """
    import latex2mathml.converter

    text = str(latex).strip()
    try:
        markup = latex2mathml.converter.convert(text, xmlns=_MATHML_NS, display="inline")
    except Exception:  # noqa: BLE001 - any refusal of the converter: show the source, say so
        return f'<code class="tex-fallback" title="LaTeX source (not converted)">{_esc(text)}</code>', False
    # latex2mathml keeps the escaped brace of a sized delimiter (\Big\{) as the two characters "\{"
    markup = markup.replace(">\\{<", ">{<").replace(">\\}<", ">}<")
    if re.search(r">[^<]*\\[A-Za-z{}]", markup):  # a command it passed through unconverted
        return f'<code class="tex-fallback" title="LaTeX source (not converted)">{_esc(text)}</code>', False
    return markup, True


def claim_statement_html(claim) -> tuple[str, bool]:
    """``(markup, is_mathml)``: the claim's statement as MathML printed from its formulas' expressions
    (:func:`exactdp.numbers.formula_text.formula_mathml`), ``;`` between them; a statement without mathematics
    (no :attr:`~exactdp.verification.claims.Claim.formulas`) through :func:`statement_mathml`."""
    from exactdp.numbers.formula_text import formula_mathml
    from exactdp.verification.claims import statement_formulas

    if not claim.formulas:
        return statement_mathml(claim.statement)
    return '<span class="sep">; </span>'.join(formula_mathml(f) for f in statement_formulas(claim)), True


def step_html(step) -> str:
    """A derivation step: a :class:`~exactdp.numbers.formula_text.DerivationStep`'s prose as text and its
    formulas and region as MathML printed from the expressions
    (:func:`~exactdp.numbers.formula_text.formula_mathml`); a text line of the engine in ``<code>``."""
    from exactdp.numbers.formula_text import DerivationStep, formula_mathml

    if not isinstance(step, DerivationStep):
        return f"<code>{_esc(step)}</code>"
    return step.render(_esc, formula_mathml, outcome=lambda o: f" → <b>{_esc(o)}</b>",
                       label=lambda name: f"<code>[{_esc(name)}]</code> ")


def value_html(value) -> str:
    """An evidence value: MathML when the safe reader reads it as an exact number or formula (not a plain
    integer), ``∞`` for ``inf``, escaped text otherwise.

    >>> value_html("3/16")
    '<math xmlns="http://www.w3.org/1998/Math/MathML"><mfrac><mn>3</mn><mn>16</mn></mfrac></math>'
    >>> value_html("sample mean"), value_html("7")
    ('sample mean', '7')
    """
    from sympy import Integer

    from exactdp.errors import ExactDPError
    from exactdp.numbers.reader import read_expression

    text = str(value).strip()
    if text in ("inf", "oo", "+inf"):
        return f'<math xmlns="{_MATHML_NS}"><mi>∞</mi></math>'
    if text in ("-inf", "-oo"):
        return f'<math xmlns="{_MATHML_NS}"><mo>−</mo><mi>∞</mi></math>'
    if not text or len(text) > MAX_FORMULA_TEXT or not re.fullmatch(r"[0-9A-Za-z_+\-*/^().,\s]+", text):
        return _esc(text)
    try:
        expr = read_expression(text, name="evidence value")
    except (ExactDPError, ValueError, TypeError):
        return _esc(text)
    if isinstance(expr, Integer):
        return _esc(text)
    return _math(expr)


def _math(expr) -> str:
    """A sympy expression or relation as a ``<math>`` element (sympy's presentation MathML printer)."""
    from sympy import mathml

    return f'<math xmlns="{_MATHML_NS}">{mathml(expr, printer="presentation")}</math>'


def certificate_html(cert) -> str:
    """One certificate (:class:`exactdp.algebra.certificates.Certificate`) as a list item: its name, kind and
    scope, and as MathML what it states — the region's inequalities, each symbolic statement ``lhs ⋈ rhs``,
    a linear combination's conclusion ``h ≥ 0`` — read from its strings by the certificate's own safe reader
    (:meth:`~exactdp.algebra.certificates.Certificate.read`); a string it cannot read stays text."""
    import sympy

    from exactdp.errors import ExactDPError
    from exactdp.numbers.formula_text import scope_step

    name = getattr(cert, "name", str(cert))
    head = (f"<li><b>{_esc(name)}</b> <small>({_esc(getattr(cert, 'kind', ''))})</small>"
            + (f" — scope: {phrase_html(scope_step(cert.scope))}" if getattr(cert, "scope", "") else ""))
    maths = []
    rels = {"==": sympy.Eq, ">=": sympy.Ge, "<=": sympy.Le, ">": sympy.Gt, "<": sympy.Lt, "!=": sympy.Ne}
    try:
        syms = cert.symbols(tuple(getattr(cert, "variables", ())))
        region = [_math(rel) for rel in cert.region_conditions(syms)]
        if region:
            maths.append("region: " + ", ".join(region))
        for st in getattr(cert, "statements", ()):
            label, lhs, op, rhs = st[:4]
            if op in rels:
                a, b = cert.read(lhs, syms, "lhs"), cert.read(rhs, syms, "rhs")
                maths.append(f"{_esc(label)}: " + _math(rels[op](a, b, evaluate=False)))
        if getattr(cert, "conclusion", None):
            h = cert.read(cert.conclusion, syms, "conclusion")
            maths.append("conclusion: " + _math(sympy.Ge(h, 0, evaluate=False)))
    except (ExactDPError, ValueError, TypeError, AttributeError):
        maths.append("<small>(its statements are shown as text in the JSON report)</small>")
    body = "".join(f"<div class=\"cm\">{m}</div>" for m in maths)
    return head + body + "</li>"


def _kernel_json(value) -> str | None:
    """The kernel-file JSON of ``value`` when it is a kernel (or rows a :class:`Kernel` accepts), else None."""
    from exactdp.errors import ExactDPError
    from exactdp.io import kernel_to_json
    from exactdp.kernels import Kernel

    if isinstance(value, Kernel):
        return kernel_to_json(value)
    if not (isinstance(value, (list, tuple)) and value and all(isinstance(r, (list, tuple)) and r for r in value)):
        return None
    if not all(isinstance(x, (str, int)) or type(x).__name__ in ("fmpq", "fmpz", "Rational", "Integer")
               for r in value for x in r):
        return None
    try:
        K = Kernel([[x if isinstance(x, (str, int)) else str(x) for x in r] for r in value])
    except (ExactDPError, ValueError, TypeError):
        return None
    return kernel_to_json(K)


def _download_link(doc: str, filename: str, label: str) -> str:
    href = "data:application/json;charset=utf-8," + url_quote(doc, safe="")
    return f'<a class="download" download="{_esc(filename)}" href="{href}">{_esc(label)}</a>'


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", str(text)).strip("-") or "x"


class _Links:
    """In-page links for claim ids and cited results: a claim of this report links to its row
    (``#c-ID``); anything else named in "rests on" or "related" (a cited theorem, a claim not run) links to its
    entry in the page's reference list (``#ref-K``, numbered by first mention, so the page stays deterministic)."""

    def __init__(self, results: list[ClaimResult]):
        self.rows = {r.claim.id for r in results}
        self.refs: dict[str, int] = {}
        for r in results:
            for name in (*r.rests_on, *r.claim.related):
                if name not in self.rows and name not in self.refs:
                    self.refs[name] = len(self.refs) + 1

    def link(self, name: str) -> str:
        if name in self.rows:
            return f'<a href="#c-{_esc(_slug(name))}"><span class="cid">{_esc(name)}</span></a>'
        return f'<a class="ref" href="#ref-{self.refs[name]}">{_esc(name)}</a>'

    def line(self, label: str, names) -> str:
        names = list(dict.fromkeys(names))
        return f'<p class="links">{label}: ' + ", ".join(self.link(n) for n in names) + "</p>" if names else ""

    def section(self) -> str:
        """The reference list: every linked name that has no row in this report."""
        items = []
        for name, k in self.refs.items():
            what = ("a registered claim not in this run (<code>exactdp verify " + _esc(name) + "</code>)"
                    if name in REGISTRY else "a cited result")
            items.append(f'<li id="ref-{k}">{_esc(name)} — {what}</li>')
        return ('<section class="refs" id="references"><h2>Cited results and claims outside this report</h2>'
                + (f"<ol>{''.join(items)}</ol>" if items else "<p>none</p>") + "</section>")


def _toc_html(results: list[ClaimResult]) -> str:
    """The table of contents: the claims by group (the id's prefix), each linked to its row with its verdict."""
    groups: dict[str, list[ClaimResult]] = {}
    for r in results:
        groups.setdefault(r.claim.id.split(".")[0], []).append(r)
    parts = ['<nav class="toc" id="toc"><h2>Contents</h2>',
             '<p><a href="#claims">Claims table</a> · <a href="#references">Cited results</a></p>']
    for group, rs in groups.items():
        parts.append(f"<b>{_esc(group)}</b><ul>" + "".join(
            f'<li><a href="#c-{_esc(_slug(r.claim.id))}">{_esc(r.claim.id.split(".", 1)[-1])}</a> '
            f'<span class="v v-{_esc(r.verdict.value)}">{_esc(r.verdict.value)}</span></li>' for r in rs) + "</ul>")
    return "".join(parts) + "</nav>"


def _counterexample_html(ce: dict, claim_id: str, check_name: str) -> str:
    rows, links = [], []
    for key, value in ce.items():
        doc = _kernel_json(value)
        if doc is not None:
            n_rows = len(json.loads(doc)["rows"])
            fname = f"{_slug(claim_id)}.{_slug(check_name)}.{_slug(key)}.json"
            links.append(_download_link(doc, fname, f"kernel {key} ({n_rows} rows) as a kernel file"))
            shown = "<br>".join(", ".join(value_html(x) for x in r) for r in json_strings(value))
        elif isinstance(value, (list, tuple)):
            shown = _esc(json.dumps(json_strings(value), ensure_ascii=False))
        else:
            shown = value_html(json_strings(value))
        rows.append(f"<tr><th>{_esc(key)}</th><td>{shown}</td></tr>")
    out = '<div class="ce"><b>Counterexample</b><table class="kv">' + "".join(rows) + "</table>"
    if links:
        out += ('<p class="files">' + " ".join(links) + ' — read back by <code>exactdp analyze FILE</code></p>')
    return out + "</div>"


def phrase_html(step) -> str:
    """A phrase of prose and formulas (a claim's hypotheses, a verdict's scope:
    :class:`~exactdp.numbers.formula_text.DerivationStep`): the prose as text, each formula as MathML printed
    from its expression (:func:`~exactdp.numbers.formula_text.formula_mathml`)."""
    from exactdp.numbers.formula_text import formula_mathml

    return step.render(_esc, formula_mathml)


def scope_html(res: ClaimResult) -> str:
    """What the verdict covers: *proved* / *proved-modulo* — the proved checks' scope
    (:attr:`~exactdp.verification.engine.ClaimResult.scope`, e.g. "all N, M") under the hypotheses, and for
    *proved-modulo* the cited results it rests on; *verified* — the hypotheses and the instance families
    checked (with their counts); otherwise the hypotheses.  Scope and hypotheses with their formulas as MathML
    (:func:`phrase_html`)."""
    from exactdp.numbers.formula_text import scope_step

    c = res.claim
    hyp = phrase_html(c.hypotheses_step) if c.hypotheses.strip() else ""
    if res.verdict in (Verdict.PROVED, Verdict.PROVED_MODULO):
        text = phrase_html(scope_step(res.scope or "all parameters")) + (f"; hypotheses: {hyp}" if hyp else "")
        if res.rests_on:
            text += "; rests on: " + _esc(", ".join(res.rests_on))
        return text
    families = [f"{f} ({n})" for o in res.outcomes for f, n in o.families]
    parts = [hyp] if hyp else []
    if families:
        parts.append(_esc("instances: " + "; ".join(families)))
    elif res.instances:
        parts.append(f"{res.instances} instances")
    return ". ".join(parts) if parts else "—"


def _evidence_html(res: ClaimResult, links: _Links) -> str:
    from exactdp.numbers.formula_text import scope_step

    items = []
    for cr in res.checks:
        o = cr.outcome
        parts = [f'<p><b>{_esc(cr.check.name)}</b> <span class="v v-{_esc(o.verdict.value)}">'
                 f"{_esc(o.verdict.value)}</span> — {_esc(o.summary)}</p>"]
        if cr.check.description:
            parts.append(f'<p class="desc">{_esc(cr.check.description)}</p>')
        if o.scope:
            parts.append(f"<p>Scope: {phrase_html(scope_step(o.scope))}</p>")
        if o.rests_on:
            parts.append(links.line("Rests on", o.rests_on))
        if o.certificates:
            parts.append('<div class="certs"><b>Certificates</b> (re-checked when the outcome was built)<ul>'
                         + "".join(certificate_html(k) for k in o.certificates) + "</ul></div>")
        if o.families:
            parts.append("<p>Families: " + _esc(", ".join(f"{f} ({n})" for f, n in o.families)) + "</p>")
        if o.derivation:
            parts.append("<ol class=\"deriv\">" + "".join(f"<li>{step_html(s)}</li>" for s in o.derivation)
                         + "</ol>")
        if o.counterexample:
            parts.append(_counterexample_html(o.counterexample, res.claim.id, cr.check.name))
        if o.reason:
            parts.append(f"<p>Reason: {_esc(o.reason)}</p>")
        if o.details:
            text = json.dumps(json_strings(o.details), indent=1, ensure_ascii=False)
            if len(text) > MAX_DETAILS:
                text = text[:MAX_DETAILS] + f"\n… ({len(text) - MAX_DETAILS} more characters in the JSON report)"
            parts.append(f"<details><summary>details</summary><pre>{_esc(text)}</pre></details>")
        items.append("<li>" + "".join(parts) + "</li>")
    n = len(res.checks)
    return (f"<details><summary>{n} check{'s' if n != 1 else ''}</summary><ul class=\"ev\">"
            + "".join(items) + "</ul></details>")


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.2em;color:#111;background:#fff}
h1{font-size:1.35em;margin:.2em 0}
.meta{color:#444;margin:.2em 0 .8em}
.controls{position:sticky;top:0;background:#fff;padding:.4em 0;z-index:1;border-bottom:1px solid #ccc}
.controls input{width:22em;padding:.25em}
table.claims{border-collapse:collapse;width:100%;font-size:.9em}
table.claims th,table.claims td{border-bottom:1px solid #ddd;padding:.3em .4em;vertical-align:top;text-align:left}
table.claims thead th{cursor:pointer;user-select:none;background:#f3f3f3;white-space:nowrap}
table.claims thead th[aria-sort=ascending]::after{content:" \\25B2"}
table.claims thead th[aria-sort=descending]::after{content:" \\25BC"}
table.claims{table-layout:fixed}
table.claims td{overflow-wrap:anywhere}
col.c-claim{width:15%}col.c-items{width:7%}col.c-stmt{width:23%}col.c-scope{width:16%}col.c-verdict{width:9%}
col.c-inst{width:6%}col.c-ev{width:24%}
td.stmt math,td.ev math{display:inline-block;max-width:100%;overflow-x:auto;vertical-align:middle}
math{font-size:1.12em}
td.ev code,ol.deriv code{white-space:pre-wrap;overflow-wrap:anywhere}
table.kv{table-layout:fixed;width:100%}table.kv td{overflow-wrap:anywhere}
div.ce,div.certs,ul.ev,ol.deriv{max-width:100%;box-sizing:border-box}
td.num{text-align:right}
nav.toc{columns:3 16em;font-size:.9em;margin:.4em 0 .8em}
nav.toc h2,section.refs h2{font-size:1.1em;margin:.3em 0;column-span:all}
nav.toc ul{margin:.1em 0 .4em;padding-left:1.1em}
nav.toc li{break-inside:avoid}
a.ref{font-size:.92em}
section.refs li{margin:.2em 0}
.links{margin:.2em 0;font-size:.9em}
.cid{font-family:ui-monospace,monospace;font-size:.92em}
.title{color:#333}
.v{font-weight:600;padding:0 .3em;border-radius:3px}
.v-proved{background:#cdeccd}.v-proved-modulo{background:#d9ecc4}.v-verified{background:#e3f1e3}.v-refuted{background:#f7d0d0}
.v-undecided{background:#f7ecc0}.v-not-checkable{background:#e6e6e6}
.mismatch{color:#a00;font-weight:600}
ul.ev{padding-left:1.1em}ul.ev li{margin-bottom:.5em}
.desc{color:#555;margin:.1em 0}
table.kv th{text-align:right;font-weight:500;padding-right:.6em;vertical-align:top}
pre{white-space:pre-wrap;max-height:24em;overflow:auto;background:#f8f8f8;padding:.4em}
code.tex-fallback{background:#fff3e0}
a.download{font-weight:600}
div.cm{margin:.15em 0 .15em .8em;overflow-x:auto}
tr.hidden{display:none}
@media print{
 .controls,nav.toc{display:none}
 body{margin:0;font-size:10pt}
 table.claims thead{display:table-header-group}
 table.claims tr{break-inside:avoid}
 pre{max-height:none;overflow:visible}
 a{color:inherit;text-decoration:none}
 .v{border:1px solid #888}
}
"""

_JS = """
(function(){
  var table=document.getElementById('claims'), body=table.tBodies[0];
  var box=document.getElementById('filter'), sel=document.getElementById('verdict');
  var shown=document.getElementById('shown');
  function apply(){
    var q=box.value.toLowerCase().trim(), v=sel.value, n=0;
    Array.prototype.forEach.call(body.rows,function(r){
      var ok=(!v||r.getAttribute('data-verdict')===v)&&(!q||r.textContent.toLowerCase().indexOf(q)>=0);
      r.classList.toggle('hidden',!ok); if(ok){n++;}
    });
    shown.textContent=n+' of '+body.rows.length+' claims shown';
  }
  box.addEventListener('input',apply); sel.addEventListener('change',apply);
  Array.prototype.forEach.call(table.tHead.rows[0].cells,function(th,i){
    th.addEventListener('click',function(){
      var asc=th.getAttribute('aria-sort')!=='ascending', num=th.getAttribute('data-type')==='num';
      Array.prototype.forEach.call(table.tHead.rows[0].cells,function(h){h.removeAttribute('aria-sort');});
      th.setAttribute('aria-sort',asc?'ascending':'descending');
      var rows=Array.prototype.slice.call(body.rows);
      rows.sort(function(a,b){
        var x=a.cells[i].getAttribute('data-key')||a.cells[i].textContent.trim();
        var y=b.cells[i].getAttribute('data-key')||b.cells[i].textContent.trim();
        var c=num?(parseFloat(x)-parseFloat(y)):x.localeCompare(y,undefined,{numeric:true});
        return asc?c:-c;
      });
      rows.forEach(function(r){body.appendChild(r);});
    });
  });
  apply();
  window.addEventListener('beforeprint',function(){
    Array.prototype.forEach.call(document.querySelectorAll('details'),function(d){d.open=true;});
  });
})();
"""

_COLUMNS = (("Claim", "", "claim"), ("Items", "", "items"), ("Statement", "", "stmt"), ("Scope", "", "scope"),
            ("Verdict", "", "verdict"), ("Instances", "num", "inst"), ("Evidence", "", "ev"))


def verify_report_html(results: list[ClaimResult], *, seed: int = 0, quick: bool = False,
                       timings: bool = False) -> str:
    """The report page (a complete HTML5 document, UTF-8) of a verification run; see the module docstring."""
    from exactdp import __version__

    s = summarize(results)
    links = _Links(results)
    fallbacks = 0
    body = []
    for r in results:
        c = r.claim
        stmt, ok = claim_statement_html(c)
        fallbacks += not ok
        mark = "" if r.matches else f' <span class="mismatch" title="differs from the expected verdict">' \
                                    f"(expected {_esc(c.expected.value)})</span>"
        secs = f"<br><small>{r.seconds:.2f} s</small>" if timings else ""
        body.append(
            f'<tr id="c-{_esc(_slug(c.id))}" data-verdict="{_esc(r.verdict.value)}">'
            f'<td class="claim" data-key="{_esc(c.id)}"><span class="cid">{_esc(c.id)}</span><br>'
            f'<span class="title">{_esc(c.title)}</span><br><small>{_esc(c.source)}</small>'
            f'{links.line("Rests on", r.rests_on)}{links.line("Related", c.related)}</td>'
            f"<td>{_esc(', '.join(c.catalogue))}</td>"
            f'<td class="stmt">{stmt}</td>'
            f'<td class="scope">{scope_html(r)}</td>'
            f'<td data-key="{_VERDICT_ORDER.get(r.verdict.value, 9)}-{_esc(r.verdict.value)}">'
            f'<span class="v v-{_esc(r.verdict.value)}">{_esc(verdict_text(r))}</span>{mark}{secs}</td>'
            f'<td class="num" data-key="{r.instances}">{r.instances}</td>'
            f'<td class="ev">{_evidence_html(r, links)}</td></tr>')
    head = "".join(f'<th scope="col" data-type="{t or "text"}">{name}</th>' for name, t, _ in _COLUMNS)
    cols = "".join(f'<col class="c-{key}">' for _, _, key in _COLUMNS)
    options = "".join(f'<option value="{_esc(v)}">{_esc(v)} ({n})</option>' for v, n in s.counts.items() if n)
    command = f"exactdp verify{' --quick' if quick else ''} --seed {seed}"
    note = "" if not fallbacks else (f" {fallbacks} statement{'s' if fallbacks != 1 else ''} could not be "
                                     f"converted to MathML and {'are' if fallbacks != 1 else 'is'} shown as LaTeX source.")
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>exactdp verification report</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>exactdp: verdicts for the claims of Asoodeh–Aliakbarpour–Calmon (ISIT 2021) and "
        "Grosse–Saeidian–Oechtering–Skoglund (arXiv 2601.09498)</h1>",
        f'<p class="meta">Generated by <code>{_esc(command)}</code> (exactdp {_esc(__version__)}). '
        f"{_esc(summary_line(results))}. Verdicts: <b>proved</b> (checked certificates over the stated scope), "
        f"<b>proved-modulo</b> (likewise, resting on the cited results named in the scope), <b>verified</b> "
        f"(every instance checked exactly or certified), <b>refuted</b> (exact counterexample), <b>undecided</b>, "
        f"<b>not-checkable</b> (statement not stored); “{_esc(RECON_NOTE)}” marks statements reconstructed in "
        f"docs/claims.md.{_esc(note)}</p>",
        _toc_html(results),
        '<div class="controls"><input id="filter" type="search" placeholder="filter: id, item, text…" '
        'aria-label="filter claims"> <select id="verdict" aria-label="verdict"><option value="">all verdicts'
        f'</option>{options}</select> <span id="shown"></span></div>',
        f'<table class="claims" id="claims"><colgroup>{cols}</colgroup><thead><tr>{head}</tr></thead><tbody>',
        *body,
        "</tbody></table>",
        links.section(),
        f"<script>{_JS}</script>",
        "</body></html>",
        "",
    ])
