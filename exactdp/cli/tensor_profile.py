"""``exactdp tensor FILE --n N --profile [--eps-grid A:B:K]`` (or ``FILE:N ...``): the certified privacy profile.

δ_n(e^ε) over all pairs of input sequences of K^{⊗n} (or K₁^{⊗n₁} ⊗ …) as a certified piecewise object
(:func:`~exactdp.measures.profile_grid.certified_profile`, docs/claims.md B-10, D-7; [A] Thm 1): at each grid ε an
enclosure [lower, upper] with exact rational ends (a point where e^ε is rational and the search exact), and between
two grid points the envelope lower_{i+1} ≤ δ_n(e^ε) ≤ a − b·e^ε (monotonicity and the chord of the convex curve,
:meth:`~exactdp.measures.profile_grid.CertifiedProfile.pieces`).  The grid ``A:B:K`` is K equally spaced ε from A to
B, both exact (read by the safe reader: ``0``, ``5/2``, ``log(3)``); without it, nine ε = log(r^m) with r the
largest likelihood ratio of the kernels' rows and m = ⌊j·n/8⌋ (j = 0 … 8): every e^ε rational, every point exact
where the search fits.
"""

from __future__ import annotations

from typing import Any

from exactdp.cli import _common

#: most grid points of ``--eps-grid`` (each costs one or two enclosures)
MAX_GRID = 200


def add_arguments(p) -> None:
    """``--profile`` and ``--eps-grid`` of ``exactdp tensor``."""
    p.add_argument("--profile", action="store_true",
                   help="print the certified privacy profile delta_n(e^eps) over all input sequences: exact "
                        "rational bounds at a grid of eps and the certified envelope between grid points")
    p.add_argument("--eps-grid", default=None, metavar="A:B:K",
                   help="with --profile: K equally spaced eps from A to B (exact, e.g. 0:log(9):5); default nine "
                        "eps = log(r^m), r the largest likelihood ratio, m = floor(j n / 8)")


def _grid(text: str | None, factors) -> list[Any]:
    """The ε of the grid: ``A:B:K`` read exactly (A ≤ B, 2 ≤ K ≤ :data:`MAX_GRID`, or K = 1 with A = B), or the
    default of the module docstring."""
    import sympy

    from exactdp.errors import ParameterError
    from exactdp.limits import quote
    from exactdp.numbers.reader import read_expression

    if text is None:
        return _default_grid(factors)
    parts = str(text).split(":")
    if len(parts) != 3 or not parts[2].strip().isdigit():
        raise ParameterError(f"--eps-grid: expected A:B:K (two exact eps and a count), got {quote(text)}")
    a, b = (read_expression(x, name="--eps-grid") for x in parts[:2])
    k = int(parts[2])
    for x, label in ((a, parts[0]), (b, parts[1])):
        if x.free_symbols or not x.is_real or x.is_negative:
            raise ParameterError(f"--eps-grid: eps must be exact real numbers >= 0, got {quote(label)}")
    if not 1 <= k <= MAX_GRID or (k == 1) != bool(sympy.simplify(b - a) == 0):
        raise ParameterError(f"--eps-grid: K must be 2..{MAX_GRID} grid points (1 when A = B), got {quote(text)}")
    if k > 1 and not bool(sympy.simplify(b - a).is_positive):
        raise ParameterError(f"--eps-grid: A must be less than B, got {quote(text)}")
    return [a] if k == 1 else [a + (b - a) * sympy.Rational(j, k - 1) for j in range(k)]


def _default_grid(factors) -> list[Any]:
    """ε_j = log(r^{m_j}), m_j = ⌊j·n/8⌋ (distinct), r the largest likelihood ratio of any two rows of any factor
    (δ_n(e^ε) = 0 from ε = n·log r on); refused when a ratio is infinite (an output one row reaches and another not)."""
    import sympy

    from exactdp.errors import ParameterError
    from exactdp.measures.tensor_search import pair_classes
    from exactdp.numbers.qq import ONE, qq_to_sympy

    r, n = ONE, sum(k for _, k in factors)
    for K, _ in factors:
        for c in pair_classes(K):
            if c.loss.p_only > 0:
                raise ParameterError("--eps-grid: required here (a likelihood ratio of the kernel is infinite: "
                                     "delta_n(e^eps) > 0 for every eps)")
            if c.loss.classes:
                r = max(r, c.loss.classes[0][0])
    if r == 1:
        return [sympy.Integer(0)]
    ms = sorted({j * n // 8 for j in range(9)})
    return [sympy.log(qq_to_sympy(r) ** m) if m else sympy.Integer(0) for m in ms]


def directed(q, up: bool, digits: int = 7) -> str:
    """A rational q ≥ 0 as a decimal of ``digits`` significant digits rounded down (``up`` False) or up: the printed
    number is a bound of q in the stated direction (integer arithmetic only), e.g. ``1.234568e-5``."""
    from flint import fmpq

    q = fmpq(q)
    if q == 0:
        return "0"
    p_, d_ = int(q.p), int(q.q)
    e = len(str(p_ // d_)) - 1 if p_ >= d_ else -len(str(d_ // p_))  # 10^e <= q < 10^(e+2)
    while p_ * 10 ** max(-e, 0) < d_ * 10 ** max(e, 0):
        e -= 1
    while p_ * 10 ** max(-(e + 1), 0) >= d_ * 10 ** max(e + 1, 0):
        e += 1
    shift = digits - 1 - e  # q·10^shift in [10^(digits-1), 10^digits)
    num, den = p_ * 10 ** max(shift, 0), d_ * 10 ** max(-shift, 0)
    m, rem = divmod(num, den)
    if up and rem:
        m += 1
    if m == 10**digits:
        m, e = 10 ** (digits - 1), e + 1
    text = str(m)
    return f"{text[0]}.{text[1:]}e{e}" if digits > 1 else f"{text}e{e}"


def _short(q, up: bool) -> str:
    """q exactly when short, else :func:`directed` to 12 digits (up or down, as the bound it is part of needs)."""
    text = str(q)
    return text if len(text) <= 24 else directed(q, up, 12)


def run_profile(args, specs: list[tuple[str, int]]) -> int:
    """The ``--profile`` output of ``exactdp tensor`` for the factors ``specs`` (``[(path, n), ...]``)."""
    from exactdp.analysis import load_kernel
    from exactdp.errors import ParameterError
    from exactdp.measures.profile_grid import certified_profile

    if args.t is not None or args.eps is not None or args.delta is not None:
        raise ParameterError("--profile: not with --t/--eps/--delta (the profile gives delta_n at a grid of eps; "
                             "set the grid with --eps-grid A:B:K)")
    _common.check_output_path(args.output)
    factors = [(load_kernel(path, at=args.at, header=args.header, row_labels=args.row_labels,
                            report=_common.note), n) for path, n in specs]
    grid = _grid(args.eps_grid, factors)
    kw = {} if args.max_evaluations is None else {"max_evaluations": args.max_evaluations}
    shape = " x ".join(f"{K.N}x{K.M}^(x {n})" for K, n in factors)
    with _common.progress(args, 1, f"tensor profile {shape}") as bar:
        prof = certified_profile(factors, grid, **kw)
        bar.advance()
    points = [{"eps": str(p.epsilon), "gamma_lower": str(p.gamma_lo), "gamma_upper": str(p.gamma_hi),
               "lower": str(p.lower), "upper": str(p.upper), "exact": p.exact,
               "decimal_lower": directed(p.lower, False), "decimal_upper": directed(p.upper, True)}
              for p in prof.points]
    pieces = [{"eps_lower": str(c.eps_lo), "eps_upper": str(c.eps_hi), "lower": str(c.lower), "a": str(c.a),
               "b": str(c.b)} for c in prof.pieces()]
    if args.format == "json":
        _common.emit_json(args, "tensor", {"n": prof.n, "profile": {
            "factors": [{"file": path, "n": n, "inputs": K.N, "outputs": K.M}
                        for (path, n), (K, _) in zip(specs, factors)],
            "relative_width": str(prof.rel_width), "points": points, "pieces": pieces}})
        return 0
    lines = [f"K: {shape}, n = {prof.n}: certified privacy profile delta_n(e^eps) over all input sequences, "
             f"{len(points)} grid points (each enclosure exact or of relative width <= {prof.rel_width})"]
    for p, q in zip(prof.points, points):
        value = (f"= {_common.abbreviate(p.lower)} (exact)" if p.exact
                 else f"in [{_short(p.lower, False)}, {_short(p.upper, True)}] (exact rational ends in --format json)")
        lines.append(f"  eps = {_common.shown(p.epsilon, 6)}: delta_n {value}")
    if pieces:
        lines.append("  between grid points, eps_i <= eps <= eps_(i+1): lower <= delta_n(e^eps) <= a - b e^eps")
    for c in prof.pieces():  # a rounded up and b down: the printed line stays an upper bound (exact in json)
        lines.append(f"  [{_common.shown(c.eps_lo, 6)}, {_common.shown(c.eps_hi, 6)}]: "
                     f"{_short(c.lower, False)} <= delta_n(e^eps) <= {_short(c.a, True)} - {_short(c.b, False)} e^eps")
    _common.emit(args, "\n".join(lines))
    return 0
