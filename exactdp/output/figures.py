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
appear only in the plotted arrays.  :func:`write_figures` writes PNG and PDF (``exactdp figures``).
"""

from __future__ import annotations

from pathlib import Path

from flint import fmpq

from exactdp import mechanisms
from exactdp.errors import InputError
from exactdp.measures.divergences import hellinger2, kl, tv
from exactdp.measures.privacy import pml_ratio
from exactdp import bounds
from exactdp.numbers.rb import arb_eval
from exactdp.theory.estimation import (
    bernoulli_bayes_curve,
    grosse_hellinger_bound,
    grosse_kl_bound,
    zamanlooy_asoodeh_kl_coefficient,
)
from exactdp.numbers.reader import as_expr

#: the ε grid of [A] Fig. 1 (exact decimals), dense near 0 where Thm 2 has its advantage
ASOODEH_EPS = tuple(
    [f"0.{k:02d}" for k in range(1, 10)] + [f"0.{k}" for k in range(1, 10)]
    + ["1", "1.25", "1.5", "1.75", "2", "2.25", "2.5", "2.75", "3"]
)
#: u = Nc grid of the reconstructed [G] Fig. 1 (N = 4)
GROSSE_U = tuple([fmpq(1, 1000), fmpq(1, 100)] + [fmpq(k, 20) for k in range(1, 20)])


def _mid(x) -> float:
    return float(arb_eval(x).mid())


def asoodeh_fig1_data(eps_values=ASOODEH_EPS, delta="1e-4", n: int = 20) -> dict:
    """{'eps', 'thm2', 'xu_raginsky', 'points'}: plotting arrays and the certified points."""
    points = bernoulli_bayes_curve(eps_values, delta, n)
    return {
        "eps": [float(fmpq(p.eps.p, p.eps.q)) for p in points],
        "thm2": [_mid(p.thm2) for p in points],
        "xu_raginsky": [_mid(p.xu_raginsky) for p in points],
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
    out = {"u": [float(u) for u in u_values], "kernels": {}}
    for name, K in kernels.items():
        rows = {"cor1_kl": [], "cor2_h2": [], "kl_ratio": [], "h2_ratio": [], "cor1_exact_gamma": [],
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
                rows[key].append(_mid(v))
        out["kernels"][name] = rows
    from exactdp.measures.privacy import ldp_ratio

    za = zamanlooy_asoodeh_kl_coefficient(ldp_ratio(kernels["K1 (Example 2)"]))  # (7/8)·log 15
    out["zamanlooy_asoodeh_K1"] = _mid(za)
    out["zamanlooy_asoodeh_K1_exact"] = za
    return out


class MissingDependencyError(InputError):
    """An optional dependency (an extra of the package) is not installed."""


def _pyplot():
    """pyplot, on the non-interactive Agg backend unless pyplot is already set up (a notebook's inline).

    Raises :class:`MissingDependencyError` (one line on the command line) naming the extra to install
    when matplotlib is missing."""
    import sys

    try:
        import matplotlib
    except ImportError:
        raise MissingDependencyError('figures need matplotlib, which is not installed; install it with '
                                     'pip install "exactdp[notebooks]" (or pip install matplotlib)') from None

    if "matplotlib.pyplot" not in sys.modules:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def asoodeh_fig1(data: dict | None = None):
    """[A] Fig. 1 (reconstructed setting): a matplotlib Figure."""
    plt = _pyplot()
    data = data or asoodeh_fig1_data()
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(data["eps"], data["thm2"], "o-", ms=3, label=r"Theorem 2 ($E_\gamma$, $\gamma=e^\varepsilon$)")
    ax.plot(data["eps"], data["xu_raginsky"], "s--", ms=3, label="private Xu–Raginsky, bound (15)")
    ax.set_xlabel(r"$\varepsilon$")
    ax.set_ylabel(r"lower bound on Bayes risk $R_B$ (absolute loss)")
    ax.set_title(r"[A] Fig. 1 (reconstructed): Bernoulli, $\theta\sim U[0,1]$, $n=20$, $\delta=10^{-4}$",
                 fontsize=9)
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def grosse_fig1(data: dict | None = None):
    """[G] Fig. 1, reconstructed (see the module docstring): a matplotlib Figure with two panels."""
    plt = _pyplot()
    data = data or grosse_fig1_data()
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
    u = data["u"]
    for (name, rows), style in zip(data["kernels"].items(), ("-", "--")):
        a1.plot(u, rows["cor1_kl"], style, label=f"Cor 1 bound, {name}")
        a1.plot(u, rows["kl_ratio"], style, marker="o", ms=3, label=f"KL/TV at vertex pair, {name}")
        a1.plot(u, rows["cor1_exact_gamma"], style, lw=0.8, label=f"Cor 1 with exact Γ_max, {name}")
        a2.plot(u, rows["cor2_h2"], style, label=f"Cor 2 bound, {name}")
        a2.plot(u, rows["h2_ratio"], style, marker="o", ms=3, label=f"H²/TV at vertex pair, {name}")
        a2.plot(u, rows["cor2_exact_gamma"], style, lw=0.8, label=f"Cor 2 with exact Γ_max, {name}")
    a1.axhline(data["zamanlooy_asoodeh_K1"], color="gray", lw=1, ls=":", label="Zamanlooy–Asoodeh (LDP), K1")
    a1.set_ylabel(r"coefficient of $\delta=\mathrm{TV}(P_X,Q_X)$")
    for ax, title in ((a1, "KL (Cor 1)"), (a2, r"squared Hellinger (Cor 2, no $\frac{1}{2}$)")):
        ax.set_xlabel(r"$u = Nc$  ($N = 4$)")
        ax.set_title(f"[G] Fig. 1 (reconstructed): {title}", fontsize=9)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6)
    fig.tight_layout()
    return fig


def write_figures(out_dir, formats=("png", "pdf")) -> list[Path]:
    """Write both figures as ``asoodeh2021_fig1.{png,pdf}`` and ``grosse2026_fig1.{png,pdf}``."""
    plt = _pyplot()
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        from exactdp.limits import quote

        raise InputError(f"--out: {quote(out_dir)} exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for stem, make in (("asoodeh2021_fig1", asoodeh_fig1), ("grosse2026_fig1", grosse_fig1)):
        fig = make()
        for fmt in formats:
            p = out / f"{stem}.{fmt}"
            fig.savefig(p)
            paths.append(p)
        plt.close(fig)
    return paths
