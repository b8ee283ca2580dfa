"""ASCII mathematics in stored texts, typeset (exactdp/output/ascii_math.py): the exact LaTeX of the claims'
own phrases, prose left as prose, and every title, hypothesis, note and scope of the registry free of ASCII
maths once typeset (issue 23 item 5)."""

import re

import pytest

from exactdp.output.ascii_math import formula_latex, prose_html, prose_in_math, prose_latex, segments

CASES = [
    # (stored text, its LaTeX)
    ("t = e^eps >= 1, delta in [0, 1]", r"$t = e^{\varepsilon} \geq 1, \delta \in [0, 1]$"),
    ("eta_f(K) <= eta_TV(K) <= phi(eps,delta) = 1 - e^{-eps}(1-delta) for (eps,delta)-LDP K",
     r"$\eta_{f}(K) \leq \eta_{\mathrm{TV}}(K) \leq \varphi(\varepsilon,\delta) = 1 - e^{-\varepsilon}(1-\delta)$"
     r" for $(\varepsilon,\delta)$-LDP $K$"),
    ("phi exceeds the tight (eps, delta)-LDP Dobrushin value by (1-delta)(E-1)/(E(E+1)) >= 0",
     r"$\varphi$ exceeds the tight $(\varepsilon, \delta)$-LDP Dobrushin value by "
     r"$(1-\delta)(E-1)/(E(E+1)) \geq 0$"),
    ("phi(eps,0) n >= 4(e^eps - 1)^2 n iff e^eps <= (1 + sqrt 2)/2",
     r"$\varphi(\varepsilon,0) n \geq 4(e^{\varepsilon} - 1)^{2} n \iff e^{\varepsilon} \leq (1 + \sqrt{2})/2$"),
    ("N >= 2, c in (0, 1/N], eps >= 0", r"$N \geq 2, c \in (0, 1/N], \varepsilon \geq 0$"),
    ("Gilbert-Varshamov packing in {-1,+1}^k", r"Gilbert-Varshamov packing in $\{-1,+1\}^{k}$"),
    # catalogue codes, claim ids, counts and words stay prose
    ("modulo B-3 (cited); see background.b01_dobrushin", r"modulo B-3 (cited); see "
     r"\texttt{background.\allowbreak{}b01\_\allowbreak{}dobrushin}"),
    ("informal description, I-C, p.1-2; for findings.fa03_small_eps_direction",
     r"informal description, I-C, p.1-2; for \texttt{findings.\allowbreak{}fa03\_\allowbreak{}small\_\allowbreak{}"
     r"eps\_\allowbreak{}direction}"),
    ("holds on all 40 instances.", "holds on all 40 instances."),
    ("a REFUTED outcome", "a REFUTED outcome"),
    ("the statement with 0.22398 in place of eps* is false",
     r"the statement with 0.22398 in place of $\varepsilon^{*}$ is false"),
    ("claim: 1 - (2*delta + t - 1)/(t + 1) >= 0 on (t >= 1) & (delta <= 1)",
     r"claim: $1 - (2\cdot\delta + t - 1)/(t + 1) \geq 0$ on $(t \geq 1) \wedge (\delta \leq 1)$"),
]


@pytest.mark.parametrize("text, tex", CASES)
def test_claim_phrases_typeset_exactly(text, tex):
    assert prose_latex(text) == tex


def test_segments_concatenate_to_the_text_and_keep_the_tokens():
    for text, _ in CASES:
        pieces = segments(text)
        assert "".join(p for _, p in pieces) == text
        assert all(a != b for (a, _), (b, _) in zip(pieces, pieces[1:]))  # alternating prose and formulas


def test_the_exponent_is_one_operand_and_nothing_is_regrouped():
    assert formula_latex("e^(-n eps)") == r"e^{-n \varepsilon}"
    assert formula_latex("2^-k + x^2y") == r"2^{-k} + x^{2}y"  # the exponent stops after its operand
    assert formula_latex("(sqrt(e^eps)-1)^2/(e^eps+1)") == r"(\sqrt{e^{\varepsilon}}-1)^{2}/(e^{\varepsilon}+1)"
    assert formula_latex("log(2/(Nc))") == r"\log(2/(Nc))"
    assert formula_latex("kl(P,Q) <= eta_tv**2*hockey_stick(P,Q,2)") == (
        r"\mathrm{kl}(P,Q) \leq \eta_{\mathrm{tv}}^{2}\cdot\mathrm{hockey\_stick}(P,Q,2)")


def test_prose_text_is_data_not_latex():
    tex = prose_latex(r"\input{/etc/passwd} $x$ 50% & #1 ~ eps <= 1")
    assert r"\input" not in tex.replace(r"\textbackslash{}input", "")
    assert r"\$$x$\$" in tex and tex.endswith(r"\% \& \#$1 \sim \varepsilon \leq 1$")


def test_inside_maths_and_html():
    assert prose_in_math("all n >= 1; eps") == r"\text{all }n \geq 1\text{; }\varepsilon"
    assert prose_html("x <= 1 holds") == '<span style="white-space:nowrap">$x \\leq 1$</span> holds'
    html = prose_html("x <= 1, <script>alert(1)</script>")
    assert "<script" not in html and "</script" not in html and "alert" in html  # every < escaped


#: ASCII maths that must not be left in typeset text: <=, >=, the words eps and delta, and ^
ASCII_MATHS = re.compile(r"<=|>=|\^|(?<![A-Za-z\\])(?:eps|delta)(?![A-Za-z])")


def text_outside_formulas(tex: str) -> str:
    """The text-mode part of a LaTeX string: every $…$ formula and every escaped identifier removed."""
    tex = re.sub(r"(?<!\\)\$(.+?)(?<!\\)\$", " ", tex)
    return tex.replace(r"\_\allowbreak{}", "_")


def test_every_text_of_the_registry_typesets_without_ascii_maths():
    """The fast form of the report's check: each title, hypothesis and note of every claim."""
    from exactdp.verification.claims import load_all

    registry = load_all()
    assert len(registry) > 50
    left = []
    for c in registry.values():
        for field in (c.title, c.hypotheses, c.notes):
            text = text_outside_formulas(prose_latex(field))
            # claim ids (findings.fa03_small_eps_direction) are identifiers, not maths
            text = re.sub(r"[A-Za-z0-9]+(?:[._][A-Za-z0-9]+)*[._][A-Za-z0-9_.]+", " ", text)
            if ASCII_MATHS.search(text.replace(r"\^{}", "^")):
                left.append((c.id, field, text))
    assert left == []
