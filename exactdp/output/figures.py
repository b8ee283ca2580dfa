r"""The papers' figures, regenerated from exactdp's exact / certified values (matplotlib, Agg backend).

* :func:`asoodeh_fig1` — [A] Fig. 1 [RECON A-17]: the Bayes-risk lower bounds of Thm 2 (E_γ) and of the
  private Xu–Raginsky bound (15) against ε, uniform-prior Bernoulli, n = 20, δ = 10⁻⁴, absolute loss.
* :func:`grosse_fig1` — [G] Fig. 1, **reconstructed** (G-27, F-G9: the figure's axes, its N and its
  kernel K₂ are not stored): the Cor 1 (KL) and Cor 2 (H²) coefficients of δ = TV(P_X,Q_X) against
  u = Nc for N = 4, for K₁ of Example 2 and, standing in for the unknown K₂, the intro kernel with
  zeros ([G] §I, LDP = ∞); with the divergence ratio achieved at the vertex pair
  P = c𝟙 + (1−Nc)e₁, Q = c𝟙 + (1−Nc)e_N, the corollaries with the exact Γ_max instead of Lemma 4's
  (F-G2, registry ``gamma_max_exact``) and, for K₁, the c-free Zamanlooy–Asoodeh LDP bound.

The ``*_data`` functions return the certified values (arb balls) and their plotting midpoints; floats
appear only in the plotted arrays.  :func:`write_figures` writes 300-dpi PNG and vector PDF (``exactdp
figures``) in the one print style of :mod:`exactdp.output.figstyle` (one column wide, grey-scale line
styles and markers, legends that cover no data); :data:`ASOODEH_FIG1_CAPTION` and
:data:`GROSSE_FIG1_CAPTION` are the captions (the first explains the bump of the Theorem 2 curve).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flint import fmpq

from exactdp import mechanisms
from exactdp.errors import InputError
from exactdp.measures.divergences import hellinger2, kl, tv
from exactdp.measures.privacy import pml_ratio
from exactdp import bounds
from exactdp.output import figstyle
from exactdp.output.figstyle import MissingDependencyError  # noqa: F401 - re-exported
from exactdp.theory.estimation import (
    bernoulli_bayes_curve,
    grosse_hellinger_bound,
    grosse_kl_bound,
    zamanlooy_asoodeh_kl_coefficient,
)
from exactdp.numbers.reader import as_expr

#: the ε grid of [A] Fig. 1 (exact decimals), dense near 0 where Thm 2 has its advantage
ASOODEH_EPS = tuple(
    [f"0.{k:02d}" for k in range(1, 10)] + ["0.1", "0.15", "0.2", "0.25"] + [f"0.{k}" for k in range(3, 10)]
    + ["1", "1.1", "1.2", "1.3", "1.4", "1.5", "1.75", "2", "2.25", "2.5", "2.75", "3"]
)
#: u = Nc grid of the reconstructed [G] Fig. 1 (N = 4)
GROSSE_U = tuple([fmpq(1, 1000), fmpq(1, 500), fmpq(1, 200), fmpq(1, 100), fmpq(1, 50), fmpq(3, 100)]
                 + [fmpq(k, 20) for k in range(1, 20)])


def asoodeh_fig1_data(eps_values=ASOODEH_EPS, delta="1e-4", n: int = 20) -> dict:
    """{'eps', 'thm2', 'xu_raginsky', 'points'}: plotting arrays and the certified points."""
    points = bernoulli_bayes_curve(eps_values, delta, n)
    return {
        "eps": [float(fmpq(p.eps.p, p.eps.q)) for p in points],
        "thm2": [figstyle.plotted(p.thm2) for p in points],
        "xu_raginsky": [figstyle.plotted(p.xu_raginsky) for p in points],
        "points": points,
    }


def _vertex_pair(N: int, c: fmpq):
    base = [c] * N
    P, Q = list(base), list(base)
    P[0] += 1 - N * c
    Q[N - 1] += 1 - N * c
    return P, Q


def grosse_fig1_data(u_values=GROSSE_U, N: int = 4) -> dict:
    """Per kernel: Cor 1 / Cor 2 coefficients at the kernel's own (ε_c, c) and the achieved ratios."""
    kernels = {"K1 (Example 2)": mechanisms.grosse_example2_K1(N),
               "K2 (reconstructed: intro kernel with zeros)": mechanisms.grosse_intro_K1()}
    out: dict[str, Any] = {"u": [float(u) for u in u_values], "kernels": {}}
    for name, K in kernels.items():
        rows: dict[str, list] = {"cor1_kl": [], "cor2_h2": [], "kl_ratio": [], "h2_ratio": [], "cor1_exact_gamma": [],
                "cor2_exact_gamma": [], "exact": []}
        for u in u_values:
            c = fmpq(u) / N
            t = pml_ratio(K, c)  # e^{ε_c}: the kernel's exact (ε,c)-PML level
            P, Q = _vertex_pair(N, c)
            KP, KQ = K.apply(P), K.apply(Q)
            d_in = tv(P, Q)
            b1 = grosse_kl_bound(t, c, 1, N).value
            b2 = grosse_hellinger_bound(t, c, 1, N).value
            r1, r2 = as_expr(kl(KP, KQ)) / as_expr(d_in), \
                as_expr(hellinger2(KP, KQ)) / as_expr(d_in)
            # F-G2: Binette's coefficients at the exact Γ_max instead of Lemma 4's (the registry's closed forms)
            g = bounds.get("gamma_max_exact").evaluate(t=t, c=c, N=N)
            x = bounds.get("xi").evaluate(t=t, c=c, N=N)
            e1 = x * bounds.get("binette_kl").evaluate(M=g)
            e2 = x * bounds.get("binette_h2").evaluate(M=g)
            rows["exact"].append({"u": str(u), "t": str(t), "cor1": b1, "cor2": b2, "kl_ratio": r1, "h2_ratio": r2,
                                  "cor1_exact_gamma": e1, "cor2_exact_gamma": e2})
            for key, v in (("cor1_kl", b1), ("cor2_h2", b2), ("kl_ratio", r1), ("h2_ratio", r2),
                           ("cor1_exact_gamma", e1), ("cor2_exact_gamma", e2)):
                rows[key].append(figstyle.plotted(v))
        out["kernels"][name] = rows
    from exactdp.measures.privacy import ldp_ratio

    za = zamanlooy_asoodeh_kl_coefficient(ldp_ratio(kernels["K1 (Example 2)"]))  # (7/8)·log 15
    out["zamanlooy_asoodeh_K1"] = figstyle.plotted(za)
    out["zamanlooy_asoodeh_K1_exact"] = za
    return out


#: the caption of [A] Fig. 1 (README, notebook 01): what is drawn, and why the Theorem 2 curve is not monotone
ASOODEH_FIG1_CAPTION = (
    "[A] Fig. 1 (reconstructed setting, A-16/A-17): lower bounds on the Bayes risk R_B of estimating θ ~ U[0,1] "
    "from n = 20 (ε, δ = 10⁻⁴)-LDP views of Bernoulli(θ) samples, absolute loss. Theorem 2 is "
    "(1 − φⁿ(ε,δ)·I_{e^ε}(θ;Xⁿ))₊² / (8e^ε) (L(ζ) = 2ζ); bound (15) is the private Xu–Raginsky bound. "
    "The Theorem 2 curve is not monotone and no branch switches: the positive part (·)₊ is never active "
    "(1 − φⁿI_{e^ε} > 0.43 at every ε of the grid). Three factors compete: φⁿ(ε,δ) = 1 − e^{−20ε}(1 − 10⁻⁴)²⁰ "
    "rises from 0.002 to within 10⁻⁸ of 1 by ε = 1 (the bound falls), I_{e^ε}(θ;Xⁿ) decreases in ε because "
    "E_γ decreases in γ (the bound rises once φⁿ ≈ 1), and the factor 1/(8e^ε) decreases. Hence a local "
    "minimum in (0.22, 0.24) and a local maximum — the bump — in (1.18, 1.20), value 0.02638: certified "
    "values at ε = 0.22, 0.23, 0.24 and 1.18, 1.19, 1.20 bracket them (continuity); with φⁿ = 1 the maximum "
    "is where −2·dI_{e^ε}/dε = 1 − I_{e^ε}."
)


#: the caption of the reconstructed [G] Fig. 1 (README, notebook 02)
GROSSE_FIG1_CAPTION = (
    "[G] Fig. 1, reconstructed (G-27, F-G9): coefficients of δ = TV(P_X, Q_X) in Corollary 1 (KL, panel a) and "
    "Corollary 2 (squared Hellinger without ½, panel b) against u = Nc, N = 4, each kernel at its own exact "
    "(ε_c, c)-PML level; K₁ of Example 2 (black circles) and, for the unstored K₂, the intro kernel with zeros "
    "(orange squares). Solid: the corollary with Lemma 4's Γ_max ≤ (1 − Nc)e^ε + 1; dashed, hollow markers: "
    "with the exact Γ_max (F-G2) — equal to the solid curve for K₂ at every u (its e^{ε_c} = 1/((N−1)c) makes "
    "Lemma 4 tight) and for K₁ at u ≥ 4/17; dotted: the ratio achieved at the vertex pair P = c𝟙 + (1−Nc)e₁, "
    "Q = c𝟙 + (1−Nc)e_N. For K₁ the exact-Γ_max curve and the achieved ratio both tend to the c-free "
    "Zamanlooy–Asoodeh LDP bound (7/8)·log 15 = 2.3695 (dash-dotted) as u → 0; the inset enlarges them."
)


def _pyplot():
    """pyplot on Agg (see :func:`exactdp.output.figstyle.pyplot`: a missing matplotlib is one line naming the extra)."""
    return figstyle.pyplot()


def _local_extrema(xs, ys) -> tuple[list[int], list[int]]:
    """Indices of the interior strict local minima and maxima of a sampled curve."""
    lows = [i for i in range(1, len(ys) - 1) if ys[i - 1] > ys[i] < ys[i + 1]]
    highs = [i for i in range(1, len(ys) - 1) if ys[i - 1] < ys[i] > ys[i + 1]]
    return lows, highs


def asoodeh_fig1(data: dict | None = None):
    """[A] Fig. 1 (reconstructed setting), one column wide: both lower bounds against ε, the local maximum of
    the Theorem 2 curve marked (explained in :data:`ASOODEH_FIG1_CAPTION`)."""
    data = data or asoodeh_fig1_data()
    fig, ax = figstyle.figure(1, 1, height=2.5)
    with figstyle.style():
        eps, thm2 = data["eps"], data["thm2"]
        ax.plot(eps, thm2, **figstyle.series(0), markevery=2,
                label=r"Theorem 2 ($E_\gamma$, $\gamma = e^{\varepsilon}$)")
        ax.plot(eps, data["xu_raginsky"], **figstyle.series(1), markevery=2,
                label="private Xu–Raginsky, bound (15)")
        _, highs = _local_extrema(eps, thm2)
        for i in highs:
            ax.annotate(rf"local max near $\varepsilon \approx {eps[i]:.1f}$", xy=(eps[i], thm2[i]),
                        xytext=(eps[i] + 0.35, thm2[i] + 0.025), fontsize=7,
                        arrowprops={"arrowstyle": "->", "lw": 0.6})
        ax.set_xlim(0, max(eps) * 1.02)
        ax.set_ylim(0, max(max(thm2), max(data["xu_raginsky"])) * 1.08)
        figstyle.label(ax, r"privacy level $\varepsilon$ (nats)", r"lower bound on $R_B$ (absolute loss)")
        figstyle.place_legend(ax)
    return fig


#: how each of the three [G] Fig. 1 quantities is drawn: (data key per panel, label, line style, hollow marker)
_GROSSE_QUANTITIES = (
    (("cor1_kl", "cor2_h2"), r"Cor. with Lemma 4's $\Gamma_{\max}$", "-", False),
    (("cor1_exact_gamma", "cor2_exact_gamma"), r"Cor. with exact $\Gamma_{\max}$", "--", True),
    (("kl_ratio", "h2_ratio"), "achieved at vertex pair", ":", False),
)
#: per kernel: colour and marker (K₁ black circles, K₂ orange squares)
_GROSSE_KERNELS = (("#000000", "o"), ("#E69F00", "s"))


def grosse_fig1(data: dict | None = None):
    """[G] Fig. 1, reconstructed (see the module docstring): two panels stacked in one column, (a) KL /
    Cor 1 and (b) squared Hellinger / Cor 2, u = Nc on a log axis; each kernel has a colour and a marker,
    each quantity a line style (the exact-Γ_max curve hollow markers, so where it equals the Lemma 4 curve —
    all u for K₂, whose e^{ε_c} = 1/((N−1)c) makes Lemma 4 tight (F-G2), and u ≥ 4/17 for K₁ — it stays
    visible); an inset enlarges K₁'s three curves at small u; one legend below both panels."""
    data = data or grosse_fig1_data()
    fig, (a1, a2) = figstyle.figure(2, 1, height=5.6, sharex=True)
    u = data["u"]
    handles, labels = [], []
    with figstyle.style():
        for panel, ax in enumerate((a1, a2)):
            for k, (name, rows) in enumerate(data["kernels"].items()):
                color, marker = _GROSSE_KERNELS[k % len(_GROSSE_KERNELS)]
                short = "$K_1$" if k == 0 else "$K_2$"
                for q, (keys, text, ls, hollow) in enumerate(_GROSSE_QUANTITIES):
                    (line,) = ax.plot(u, rows[keys[panel]], color=color, linestyle=ls, marker=marker,
                                      markevery=(q + 1, 3), markerfacecolor="white" if hollow else color,
                                      markersize=4.2 if hollow else 3.2, lw=1.0 if q != 1 else 1.3)
                    if panel == 0:
                        handles.append(line)
                        labels.append(f"{short}: {text}")
        za = a1.axhline(data["zamanlooy_asoodeh_K1"], color="#777777", lw=0.9, ls="-.")
        # the legend fills column by column: K₁'s three curves and its LDP bound, then K₂'s three
        handles.insert(3, za)
        labels.insert(3, r"$K_1$: Zamanlooy–Asoodeh (LDP, no $c$)")
        a1.set_title("(a) KL divergence, Corollary 1", loc="left")
        a2.set_title(r"(b) squared Hellinger (no $\frac{1}{2}$), Corollary 2", loc="left")
        figstyle.label(a1, "", r"coefficient of $\delta$ (nats)")
        figstyle.label(a2, r"$u = Nc$ ($N = 4$, log scale)", r"coefficient of $\delta$")
        a1.set_xscale("log")
        a1.set_ylim(0, max(max(r["cor1_kl"]) for r in data["kernels"].values()) * 1.06)
        a2.set_ylim(0, None)
        # K₁'s three curves differ by a few per cent at small u: enlarged in an inset of (a) (empty region)
        k1 = next(iter(data["kernels"].values()))
        small = [i for i, x in enumerate(u) if x <= 0.3]
        ins = a1.inset_axes([0.6, 0.6, 0.38, 0.34])
        for q, (keys, _text, ls, hollow) in enumerate(_GROSSE_QUANTITIES):
            ins.plot([u[i] for i in small], [k1[keys[0]][i] for i in small], color="#000000", linestyle=ls,
                     marker="o", markevery=(q, 2), markerfacecolor="white" if hollow else "#000000",
                     markersize=3.6 if hollow else 2.8, lw=1.0 if q != 1 else 1.3)
        ins.axhline(data["zamanlooy_asoodeh_K1"], color="#777777", lw=0.9, ls="-.")
        ins.set_xscale("log")
        ins.tick_params(labelsize=6)
        ins.set_title("$K_1$, $u \\leq 0.3$", fontsize=6, pad=2)
        fig.legend(handles, labels, loc="outside lower center", ncol=2, fontsize=6.5)
    fig._exactdp_inset = ins  # the inset, for the check that it covers no data of panel (a)
    return fig


def write_figures(out_dir, formats=("png", "pdf")) -> list[Path]:
    """Write both figures as ``asoodeh2021_fig1.{png,pdf}`` and ``grosse2026_fig1.{png,pdf}`` (300 dpi PNG,
    vector PDF; :mod:`exactdp.output.figstyle`)."""
    plt = _pyplot()
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        from exactdp.limits import quote

        raise InputError(f"--out: {quote(out_dir)} exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for stem, make in (("asoodeh2021_fig1", asoodeh_fig1), ("grosse2026_fig1", grosse_fig1)):
        fig = make()
        paths += figstyle.save(fig, out / stem, formats)
        plt.close(fig)
    return paths

