r"""The figures of ``exactdp plot``, in the print style of :mod:`exactdp.output.figstyle`.

* :func:`profile_plot_data` / :func:`profile_figure` — the exact privacy profile δ(ε) = η_{E_{e^ε}}(K) of a
  kernel ([A] Thm 1: K is (ε,δ)-LDP iff δ(ε) ≤ δ), every breakpoint marked;
* :func:`bound_curves` / :func:`bounds_figure` — bounds of the registry (:mod:`exactdp.bounds`) at exact
  values of one parameter (ε, t = e^ε, c or δ).

Values are computed exactly or as certified balls; floats appear only in the plotted arrays.
"""

from __future__ import annotations

from flint import fmpq

from exactdp.numbers import escape
from exactdp.output import figstyle


#: sample points drawn along the curved pieces of a profile against ε (per piece, at most)
PROFILE_SAMPLES = 600


def _mathtext_ok(text: str) -> bool:
    """Whether matplotlib's mathtext renders ``text`` (a label written from a registry's LaTeX)."""
    from matplotlib.mathtext import MathTextParser

    try:
        MathTextParser("path").parse(text)
    except ValueError:
        return False
    return True


def profile_plot_data(profile) -> dict:
    r"""The privacy profile δ(ε) = η_{E_{e^ε}}(K) of a :class:`~exactdp.measures.privacy.PrivacyProfile` for
    ε ≥ 0 ([A] Thm 1: K is (ε,δ)-LDP iff δ(ε) ≤ δ).  δ is the upper envelope of the profile's lines
    P_k − γQ_k, so δ(ε) = max_k (P_k − e^ε Q_k): each sample is that maximum over the piece found for it and
    its two neighbours, in 113-bit balls (the plotted float is the ball's midpoint, within one unit in the last
    place of the exact value).

    Returns ``{"eps", "delta"}`` (plotting arrays), ``"eps_exact"`` (the exact sample points: a rational grid
    and the breakpoints' log γ_k), ``"breakpoints"`` (the exact γ_k > 1 with ε_k = log γ_k and exact δ(γ_k)),
    ``"at_zero"`` (δ at ε = 0, i.e. η_TV) and ``"at_infinity"`` (the last piece's constant value, positive
    when some output has zero probability under one input only)."""
    import bisect

    import sympy
    from flint import arb, ctx

    from exactdp.numbers.qq import qq_to_sympy

    bps = [b for b in profile.breakpoints if b > 1]
    offset = len(profile.breakpoints) - len(bps)  # pieces left of γ = 1
    logs = [sympy.log(qq_to_sympy(b)) for b in bps]
    last_P, last_Q = profile.pieces[-1]
    at_inf = last_P if last_Q == 0 else None
    # the grid: 0 .. 1.15·(last breakpoint's ε) in n exact steps (at least 0.05; 1 without breakpoints)
    end = fmpq(max(int(figstyle.plotted(logs[-1]) * 1150) + 1, 50), 1000) if bps else fmpq(1)
    n = min(PROFILE_SAMPLES, 200 + 4 * len(bps))
    grid = [end * k / n for k in range(n + 1)]
    eps_bps = [figstyle.plotted(e) for e in logs]
    points = sorted([(float(x), x) for x in grid] + [(f, e) for f, e in zip(eps_bps, logs)], key=lambda p: p[0])
    xs, exact_xs, ys = [], [], []
    with ctx.workprec(113):
        for f, x in points:
            if isinstance(x, fmpq):
                ex = (arb(x.p) / x.q).exp()
            else:  # a breakpoint: e^ε = γ_k exactly
                g = bps[logs.index(x)]
                ex = arb(g.p) / g.q
            k = bisect.bisect_left(eps_bps, f) + offset
            lines = profile.pieces[max(0, k - 1):k + 2]
            best = max((arb(P.p) / P.q - ex * arb(Q.p) / Q.q for P, Q in lines), key=lambda v: v.mid())
            xs.append(f)
            exact_xs.append(x)
            ys.append(float(best.mid()))
    return {"eps": xs, "delta": ys, "eps_exact": exact_xs, "at_zero": profile(1), "at_infinity": at_inf,
            # δ(γ_k) on the piece ending at γ_k (no search per breakpoint: linear in their number)
            "breakpoints": [(b, e, profile.pieces[offset + j][0] - b * profile.pieces[offset + j][1])
                            for j, (b, e) in enumerate(zip(bps, logs))]}


def profile_figure(profile, title: str = ""):
    """One-column figure of :func:`profile_plot_data`: δ(ε) with every breakpoint marked, δ(∞) dashed."""
    data = profile_plot_data(profile)
    fig, ax = figstyle.figure(1, 1, height=2.5)
    with figstyle.style():
        ax.plot(data["eps"], data["delta"], color="#000000", linestyle="-", marker="",
                label=r"$\delta(\varepsilon)=\eta_{E_{e^{\varepsilon}}}(K)$")
        if data["breakpoints"]:
            ax.plot([figstyle.plotted(e) for _, e, _ in data["breakpoints"]], [float(d) for _, _, d in data["breakpoints"]],
                    linestyle="none", marker="o", color="#E69F00", markeredgecolor="#000000", markeredgewidth=0.5,
                    clip_on=False, label=f"breakpoints ({len(data['breakpoints'])})")
        if data["at_infinity"] is not None and data["at_infinity"] > 0:
            ax.axhline(float(data["at_infinity"]), color="#777777", linestyle="--", lw=0.8,
                       label=rf"$\delta(\infty) = {data['at_infinity']}$")
        ax.set_xlim(0, max(data["eps"]))
        ax.set_ylim(0, max(data["delta"]) * 1.08 or 1)
        if title:
            ax.set_title(escape.mathtext(title), loc="left")  # a kernel's name or --title: text, never mathtext
        figstyle.label(ax, r"privacy level $\varepsilon$ (nats)", r"$\delta$ (probability)")
        figstyle.place_legend(ax)
    return fig


#: the parameters ``exactdp plot bound --vs`` can sweep, and their default ranges (exact text)
SWEEPS = {"eps": ("0", "3"), "t": ("1", "20"), "c": (None, None), "delta": ("0", "1")}
#: axis labels (with units) of a sweep
SWEEP_LABELS = {"eps": r"privacy level $\varepsilon$ (nats)", "t": r"$t = e^{\varepsilon}$",
                "c": r"minimum prior mass $c$", "delta": r"$\delta$ (probability)"}


#: estimated operations of one exact evaluation of a bound and its certified ball (a sympy substitution and
#: a ball at 53 bits): the default max_work admits 2500 points of one bound
POINT_WORK = 4 * 10**5


def bound_curves(names, vs: str, lo, hi, points: int, values: dict) -> dict:
    """Registry bounds (:mod:`exactdp.bounds`) at ``points`` equally spaced exact values of the parameter
    ``vs`` in [lo, hi], the others fixed by ``values`` (text or exact, as
    :meth:`~exactdp.bounds.Bound.evaluate` takes them).  Per bound: ``{"x", "y"}`` plotting arrays
    (certified balls' midpoints), ``"skipped"`` (x outside the bound's domain, e.g. c > 1/N), ``"bound"``.
    The work is checked against ``max_work`` first (:data:`POINT_WORK` operations a point)."""
    from exactdp import bounds
    from exactdp.errors import ExactDPError, ParameterError
    from exactdp.limits import require

    if vs not in SWEEPS:
        raise ParameterError(f"--vs: expected one of {', '.join(SWEEPS)}, got {vs!r}")
    if not 2 <= points <= 10_000:
        raise ParameterError(f"--points: must be an integer in 2..10000, got {points}")
    require("max_work", points * len(names) * POINT_WORK, f"plot bound: {len(names)} bound(s) at {points} points")
    if hi <= lo:
        raise ParameterError(f"--to: must exceed --from ({lo}), got {hi}")
    if vs == "eps":  # every point evaluates e^eps: the sweep's range is an exp argument
        far = max(abs(fmpq(lo)), abs(fmpq(hi)))
        require("max_exp_argument", int(far.p) // int(far.q), f"plot bound --vs eps up to |eps| = {far}"
                if len(str(far)) < 40 else "plot bound --vs eps: the range")
    sym = "t" if vs == "eps" else vs
    chosen = [bounds.get(name) for name in names]
    known = {str(p) for b in chosen for p in b.parameters} | ({"eps"} if any(
        "t" in {str(p) for p in b.parameters} for b in chosen) else set())
    for key in values:
        if key not in known:
            raise ParameterError(f"{key}: not a parameter of {', '.join(names)} (their parameters: "
                                 f"{', '.join(sorted(known - {'eps'}))})")
    out = {}
    for b in chosen:
        params = {str(p) for p in b.parameters}
        if sym not in params:
            raise ParameterError(f"NAME: {b.name} does not depend on {vs} (its parameters: {', '.join(sorted(params))})")
        own = {k: v for k, v in values.items() if (k in params or (k == "eps" and "t" in params)) and k not in (vs, sym)}
        missing = sorted(params - {sym} - {"t" if k == "eps" else k for k in own})
        if missing:
            raise ParameterError(f"{b.name}: give {', '.join(missing)} (flags --c, --delta, --n, --N, --eps/--t, or "
                                 f"--at NAME=VALUE); only {vs} is swept")
        b.substitutions(own)  # each fixed value in its domain: one clear error before the sweep
        xs, ys, skipped = [], [], 0
        for k in range(points):
            x = lo + (hi - lo) * k / (points - 1)
            try:
                y = figstyle.plotted(b.evaluate(**{**own, vs: x}))
            except (ExactDPError, ValueError, TypeError, ZeroDivisionError):  # x outside the bound's domain
                skipped += 1
                continue
            xs.append(float(x))
            ys.append(y)
        out[b.name] = {"x": xs, "y": ys, "skipped": skipped, "bound": b}
    return out


def bounds_figure(curves: dict, vs: str, fixed: str = ""):
    """One-column figure of :func:`bound_curves`: one grey-scale distinguishable series per bound."""
    fig, ax = figstyle.figure(1, 1, height=2.6)
    with figstyle.style():
        for i, (name, c) in enumerate(curves.items()):
            b = c["bound"]
            label = f"{name}: ${b.symbol_latex}$"
            if not _mathtext_ok(label):
                label = name
            ax.plot(c["x"], c["y"], **figstyle.series(i), markevery=max(1, len(c["x"]) // 12), label=label)
        if fixed:
            ax.set_title(escape.mathtext(fixed), loc="left", fontsize=7)
        figstyle.label(ax, SWEEP_LABELS[vs], "value of the bound")
        figstyle.place_legend(ax)
    return fig
