"""``exactdp tensor FILE --n N [--t T | --eps EPS] [--delta D] [--format text|json|markdown|latex|html]
[-o FILE]``: n-fold products (``--profile [--eps-grid A:B:K]``: the certified privacy profile,
:mod:`exactdp.cli.tensor_profile`).

With ``--t T`` (or ``--eps EPS`` with e^ε rational): η_{E_T}(K^{⊗n}) = δ_n(T), φⁿ(T, δ) ([A] A-8) and
δ_n(Tⁿ).  With ``--eps EPS`` and e^ε irrational: δ_n(e^ε) exactly as A − B·e^ε.  With ``--delta D`` alone (no
``--t``/``--eps``): the least ε with δ_n(e^ε) ≤ D over all input sequences, ε = log t* with t* exact
(:func:`~exactdp.measures.profile_inversion.epsilon_tensor_power`).  Several ``FILE:N``: η_TV of the product and,
with ``--delta D``, the least ε, or with ``--t T`` (rational), δ(T) = η_{E_T} of the product with a maximizing pair.  ``--scheduler ADDRESS`` evaluates the pair compositions of the η searches
on a dask.distributed cluster (the same results; the ε-for-δ inversion and δ_n(e^ε) run in-process).
"""

from __future__ import annotations

from typing import Any

import contextlib

from exactdp.cli import _common
from exactdp.cli._document import DOCUMENT_FORMATS


def register(sub) -> None:
    p = sub.add_parser("tensor", help="eta_TV, eta_E_gamma and the privacy profile of K^(x n), exactly",
                       description="Read a kernel (JSON or CSV, exact entries) and compute the Dobrushin "
                                   "coefficient and the E_gamma coefficient (= delta_n(e^eps)) of its n-fold "
                                   "product by type classes, with a maximizing pair of input sequences, against "
                                   "phi^n(eps, delta) = 1 - e^(-n eps) (1-delta)^n ([A] A-8).")
    p.add_argument("file", metavar="FILE", nargs="+",
                   help="a kernel file (with --n), or FILE:N ... for the product K1^(x N1) x K2^(x N2) x ... of "
                        "several kernels (eta_TV and, with --delta, the least eps or, with --t, delta at t; no --n)")
    _common.add_csv_labels(p)
    p.add_argument("--at", action="append", default=None, metavar="NAME=VALUE", help="a parameter value of a parametric kernel file (JSON with \"parameters\"), exact; repeat for each")
    p.add_argument("--n", type=int, default=None, help="number of factors n >= 1 (one FILE without :N)")
    _common.add_privacy(p, what="with an irrational e^eps only delta_n(e^eps) = A - B e^eps is printed")
    _common.add_delta(p, "with --t/--eps: delta of the (eps, delta) level for phi^n (default: the tight delta = "
                         "eta_E_t(K)); alone: print the least eps with delta_n(e^eps) <= DELTA, eps = log t* exactly")
    p.add_argument("--max-evaluations", type=int, default=None, help="cap on the exact pair-type search")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="evaluate the pair compositions of the eta searches on a dask.distributed scheduler "
                        "(tcp://host:8786); the results are the same as in-process; needs exactdp[dask]")
    from exactdp.cli import tensor_profile  # deferred: start-up

    tensor_profile.add_arguments(p)
    _common.add_output(p, DOCUMENT_FORMATS)
    _common.add_no_progress(p)
    p.set_defaults(func=run)


def _resolve(args):
    """(rational t or None, eps text for δ_n(e^ε) or None) from --t / --eps."""
    import sympy

    t = _common.read_t(args)
    if t is None:
        return None, None
    if isinstance(t, sympy.Rational):
        return str(t), None
    # an irrational e^eps (--eps 1/2, --eps 0.5 or --t 'exp(1)'): delta_n(e^eps) = A - B e^eps, exact, at the
    # exact eps = log t (1/2 for --eps 0.5: the decimal is exact text)
    return None, sympy.log(t)


def _check_cost(K, args, t, kw) -> bool:
    """Refuse up front (one line, exit 2) when one of the searches this command runs exceeds max_work or
    max_memory: η_TV, and with a rational t the searches at t and at tⁿ and the powers of φⁿ.  Without t (η_TV
    alone, or ``--delta`` alone) an exact η_TV search over the limits is not refused: False says to print η_TV
    as a certified enclosure instead (:func:`~exactdp.measures.tensor_enclosure.delta_tensor_power_enclosure`,
    under its own guard), so that ε for δ is answered (a 2×3 or 3×3 kernel at n = 1000)."""
    from exactdp.errors import ParameterError
    from exactdp.limits import limit, require
    from exactdp.measures.tensor import power_cost, tensor_search_cost
    from exactdp.numbers.qq import ONE, to_qq

    if args.n < 1:
        raise ParameterError(f"--n: must be a positive integer, got {args.n}")
    costs = [tensor_search_cost([(K, args.n)], ONE, **kw)]
    if t is None and (costs[0].work > limit("max_work") or costs[0].memory > limit("max_memory")):
        return False
    if t is not None:
        g = to_qq(t, "--t")
        if g >= 1:  # (t < 1 is refused by the computation itself, with its own message)
            costs += [tensor_search_cost([(K, args.n)], g, **kw),
                      tensor_search_cost([(K, args.n)], g, gamma_power=args.n, **kw),
                      power_cost(g, args.n), power_cost(g, args.n)]
    # each search is one computation under the limits (max_work: "one exact computation"); their sum would refuse
    # commands whose every part fits (the asymmetric 2×2 at n = 10 000: three filtered searches of 0.6·10⁹ each)
    for c in costs:
        what = f"tensor --n {costs[0].n} for a {K.N}x{K.M} kernel: {c.describe()}"
        require("max_work", c.work, what)
        require("max_memory", c.memory, what)
    return True


def _tv_enclosure(factors):
    """``(witness, enclosure)`` of η_TV(K₁^{⊗n₁} ⊗ …) (``factors = [(K, n), ...]``) where the exact search is over
    the limits: the certified enclosure of relative width ≤ 10⁻⁶ (exact when it is a point; then the witness
    carries the value, else value None and no maximizer)."""
    from exactdp.measures.tensor import TensorWitness
    from exactdp.measures.tensor_enclosure import delta_tensor_product_enclosure
    from exactdp.measures.tensor_search import classify, normalize_factors

    enclosure = delta_tensor_product_enclosure(factors, 1)
    classes = len(classify(normalize_factors(factors))[0])
    return TensorWitness(enclosure.value, (), classes, 0), enclosure  # value None: only the enclosure is known


def _tv_enclosure_or_refusal(factors, invert: bool):
    """``(witness, enclosure, None)`` of :func:`_tv_enclosure`; with ``--delta`` alone (``invert``), where that is
    refused too, ``(witness of value None, None, the refusal's message)``: ε for δ has its own route (the corners'
    roots and the filter at γ*; a 2×5 pair at n = 100), so η_TV is reported as not computed, with its limit, instead
    of failing the command."""
    from exactdp.limits import ResourceLimitError
    from exactdp.measures.tensor import TensorWitness
    from exactdp.measures.tensor_search import classify, normalize_factors

    try:
        tv, enclosure = _tv_enclosure(factors)
    except ResourceLimitError as exc:
        if not invert:
            raise
        unknown: Any = None  # (as _tv_enclosure's value None: nothing is known)
        return TensorWitness(unknown, (), len(classify(normalize_factors(factors))[0]), 0), None, str(exc)
    return tv, enclosure, None


def _result(out: dict, eps) -> dict:
    """The ``result`` of ``--format json`` (``exactdp/schemas/tensor.json``): exact values as strings, counts
    and indices as integers, decisions as booleans."""
    doc = {"n": int(out["n"]), "eta_tv": out["eta_tv"], "pair_classes": int(out["pair_classes"]),
           "evaluations": int(out["evaluations"]), "discarded": int(out["discarded"]),
           "eta_tv_maximizer": [{"x": int(m["x"]), "x_prime": int(m["x_prime"]), "count": int(m["count"])}
                                for m in out["eta_tv_maximizer"]]}
    if "eta_tv_enclosure" in out:
        doc["eta_tv_enclosure"] = out["eta_tv_enclosure"]
    if "eta_tv_refused" in out:
        doc["eta_tv_refused"] = out["eta_tv_refused"]
    if "t" in out:
        doc.update({k: out[k] == "true" if k == "eta_tv_le_phi_n" else out[k] for k in
                    ("t", "delta", "eta_e_t", "phi_n", "eta_tv_le_phi_n", "delta_n_at_t_n", "composition_bound")})
    if "delta_n_at_exp_eps" in out:
        doc.update({"eps": str(eps), "delta_n_at_exp_eps": out["delta_n_at_exp_eps"],
                    "delta_n_at_exp_eps_decimal": out["delta_n_at_exp_eps_decimal"]})
    if "epsilon_for_delta" in out:
        inv = out["epsilon_for_delta"]
        doc["epsilon_for_delta"] = {
            "delta": inv["delta"], "t_star": inv["t_star"], "epsilon": inv["epsilon"], "decimal": inv["decimal"],
            "evaluations": int(inv["evaluations"]),
            "maximizer": [{"x": int(m["x"]), "x_prime": int(m["x_prime"]), "count": int(m["count"])}
                          for m in inv["maximizer"]]}
    return doc


def _epsilon_for_delta(factors, args, kw) -> dict:
    """``--delta D`` alone: the least ε with δ(e^ε) ≤ D over all input sequences of the product ``factors``
    (``[(K, n)]`` for K^{⊗n}; exact t* = e^ε, or none when a composition's P-only mass keeps δ above D for every
    ε); the maximizer names the kernel of each pair (``factor``) when there are several."""
    from exactdp.measures.profile_inversion import epsilon_tensor_product

    r = epsilon_tensor_product(factors, _common.read_delta(args), **kw)
    several = len(factors) > 1
    out = {"delta": str(r.delta), "t_star": None if r.t is None else str(r.t),
           "epsilon": "inf" if r.t is None else str(r.epsilon),
           "decimal": None if r.t is None else _common.decimal(r.epsilon),
           "evaluations": str(r.evaluations),
           "maximizer": [dict({"factor": str(f)} if several else {}, x=str(x), x_prime=str(xp), count=str(c))
                         for f, x, xp, c in r.composition]}
    if r.t_lower is not None and r.t is not None:  # t* in (t_lower, t]: a certified enclosure
        import sympy

        from exactdp.numbers.qq import qq_to_sympy

        lower = sympy.log(qq_to_sympy(r.t_lower))
        out["t_lower"] = str(r.t_lower)
        out["epsilon_lower"] = str(lower)
        out["decimal_lower"] = _common.decimal(lower)
    return out


@contextlib.contextmanager
def _scheduler(args):
    """The dask client of ``--scheduler`` (closed on exit), or None: the conjecture search's client."""
    if args.scheduler is None:
        yield None
        return
    from exactdp.verification.conjecture.runner import WatchedClient, open_executor

    client, close = open_executor(args.scheduler, 1)
    try:
        yield WatchedClient(client)  # a lost cluster: one line and a bounded wait, not a silent one
    finally:
        close()


def _factor_specs(args) -> list[tuple[str, int]]:
    """``[(path, n), ...]`` of the FILE arguments: one FILE with ``--n N``, or every one written FILE:N (N a
    positive integer) without ``--n``."""
    from exactdp.errors import ParameterError

    specs: list[tuple[str, int | None]] = []
    for text in args.file:
        path, colon, count = text.rpartition(":")
        specs.append((path, int(count)) if colon and count.isdigit() and path else (text, None))
    if all(n is None for _, n in specs) and len(specs) == 1:
        if args.n is None:
            raise ParameterError("--n: required with one FILE (or write FILE:N)")
        return [(specs[0][0], args.n)]
    if any(n is None for _, n in specs):
        bad = next(path for path, n in specs if n is None)
        raise ParameterError(f"FILE: with several kernels every one is written FILE:N (N >= 1), got {bad!r}")
    if args.n is not None:
        raise ParameterError("--n: not with FILE:N (the multiplicity of each kernel is written after its file)")
    out = [(path, n) for path, n in specs if n is not None]
    for path, n in out:
        if n < 1:
            raise ParameterError(f"FILE:N: N must be a positive integer, got {path}:{n}")
    return out


def _one_composition(factors) -> bool:
    """Whether every kernel of the product has at most one pair class (so the search has one composition)."""
    from exactdp.measures.tensor_search import classify, normalize_factors

    return all(len(members) == 1 for members in classify(normalize_factors(factors))[1])


def _run_product(args, specs) -> int:
    """Several FILE:N: η_TV of K₁^{⊗N₁} ⊗ K₂^{⊗N₂} ⊗ … and, with ``--delta D``, the least ε with δ(e^ε) ≤ D over
    all pairs of input sequences, or with ``--t T`` (e^ε rational) δ(T) = η_{E_T} of the product with a maximizing
    pair (exact; the pair-type search over every factor's pair compositions, refused up front over the limits; with
    ``--delta`` the search is refused up front where it has one composition, which the inversion must evaluate)."""
    from exactdp.analysis import load_kernel
    from exactdp.errors import ParameterError
    from exactdp.limits import limit, require
    from exactdp.measures.tensor import eta_hockey_stick_tensor_product_witness, tensor_search_cost
    from exactdp.numbers.qq import ONE, to_qq

    t, eps = _resolve(args)
    if eps is not None:
        raise ParameterError("--eps: for a product of several kernels e^eps must be rational (give --t T)")
    if t is not None and args.delta is not None:
        raise ParameterError("--delta: for a product of several kernels give --t T (delta at T) or --delta D "
                             "(the least eps), not both")
    _common.check_output_path(args.output)
    factors = [(load_kernel(path, at=args.at, header=args.header, row_labels=args.row_labels,
                               report=_common.note), n) for path, n in specs]
    kw = {} if args.max_evaluations is None else {"max_evaluations": args.max_evaluations}
    shape = " x ".join(f"{K.N}x{K.M}^(x {n})" for K, n in factors)
    g = None
    if t is not None:  # delta(T) = eta_{E_T} of the product: its search refused up front when over the limits
        g = to_qq(t, "--t")
        if g < 1:
            raise ParameterError(f"--t: must be >= 1 (t = e^eps), got {g}")
        at_cost = tensor_search_cost(factors, g, **kw)
        for name, value in (("max_work", at_cost.work), ("max_memory", at_cost.memory)):
            require(name, value, f"tensor {shape} --t {g}: {at_cost.describe()}")
    cost = tensor_search_cost(factors, ONE, **kw)
    exact_tv = cost.work <= limit("max_work") and cost.memory <= limit("max_memory")
    if args.delta is not None and not exact_tv and _one_composition(factors):
        # one pair class per kernel (RR, k-RR, unary encodings): the only composition is evaluated exactly at every
        # step of the inversion, at this estimate — refused now, not after the η_TV enclosure
        for name, value in (("max_work", cost.work), ("max_memory", cost.memory)):
            require(name, value, f"tensor {shape} --delta {args.delta}: {cost.describe()}")
    total = sum(n for _, n in factors)
    enclosure = None
    at_t = None
    with _common.progress(args, 1 + (args.delta is not None or g is not None), f"tensor {shape}") as bar:
        if exact_tv:
            tv = eta_hockey_stick_tensor_product_witness(factors, 1, **kw)
        else:  # a certified enclosure of relative width <= 1e-6 (under its own guard), as for one kernel
            tv, enclosure = _tv_enclosure(factors)
        bar.advance()
        inv = _epsilon_for_delta(factors, args, kw) if args.delta is not None else None
        if g is not None:
            at_t = eta_hockey_stick_tensor_product_witness(factors, g, **kw)
        if inv is not None or at_t is not None:
            bar.advance()
    maximizer = [{"factor": f, "x": x, "x_prime": xp, "count": c} for f, x, xp, c in tv.composition]
    if args.format == "json":
        doc = {"n": total, "factors": [{"file": path, "n": n, "inputs": K.N, "outputs": K.M}
                                       for (path, n), (K, _) in zip(specs, factors)],
               "eta_tv": None if tv.value is None else str(tv.value), "pair_classes": tv.classes,
               "evaluations": tv.evaluations, "discarded": tv.discarded, "eta_tv_maximizer": maximizer}
        if enclosure is not None and not enclosure.exact:
            doc["eta_tv_enclosure"] = {"lower": str(enclosure.lower), "upper": str(enclosure.upper),
                                       "relative_width": str(enclosure.relative_width)}
        if at_t is not None:
            doc["at_t"] = {"t": str(g), "delta": str(at_t.value), "evaluations": at_t.evaluations,
                           "maximizer": [{"factor": f, "x": x, "x_prime": xp, "count": c}
                                         for f, x, xp, c in at_t.composition]}
        if inv is not None:
            doc["epsilon_for_delta"] = dict(inv, evaluations=int(inv["evaluations"]), maximizer=[
                {k: int(v) for k, v in m.items()} for m in inv["maximizer"]])
        _common.emit_json(args, "tensor", doc)
        return 0
    pairs = ", ".join(f"{c} x ({x},{xp}) of kernel {f + 1}" for f, x, xp, c in tv.composition) or "none"
    lines = [f"K: {shape}, n = {total}: {tv.classes} pair classes, {tv.evaluations} exact evaluations, "
             f"{tv.discarded} compositions ruled out by the certified filter",
             f"  eta_TV(product) in {enclosure}" if tv.value is None else
             f"  eta_TV(product) = {_common.shown(tv.value)}"]
    if tv.value is not None:
        lines.append(f"  eta_TV maximizer: {pairs} (other coordinates equal)")
    if at_t is not None:
        at_pairs = ", ".join(f"{c} x ({x},{xp}) of kernel {f + 1}" for f, x, xp, c in at_t.composition) or "none"
        lines += [f"  delta(t) at t = {g}: {_common.shown(at_t.value)} ({at_t.evaluations} exact evaluations)",
                  f"  delta(t) maximizer: {at_pairs} (other coordinates equal)"]
    if inv is not None:
        lines += _inversion_lines(inv)
    _common.emit(args, "\n".join(lines))
    return 0


def run(args) -> int:
    from exactdp.analysis import load_kernel

    specs = _factor_specs(args)
    if getattr(args, "profile", False):
        from exactdp.cli import tensor_profile  # deferred: start-up

        if args.format not in ("text", "json"):
            from exactdp.errors import ParameterError

            raise ParameterError(f"--format: --profile writes text or json, got {args.format}")
        return tensor_profile.run_profile(args, specs)
    if getattr(args, "eps_grid", None) is not None:
        from exactdp.errors import ParameterError

        raise ParameterError("--eps-grid: only with --profile")
    if len(specs) > 1:
        return _run_product(args, specs)
    args.file, args.n = specs[0]
    from exactdp.limits import ResourceLimitError
    from exactdp.measures.contraction import eta_hockey_stick
    from exactdp.measures.tensor import delta_tensor_power_eps, eta_hockey_stick_tensor_product_witness, phi_n
    from exactdp.numbers.qq import to_qq

    t, eps = _resolve(args)
    invert = args.delta is not None and t is None  # --delta alone: epsilon for delta
    if invert and eps is not None:
        from exactdp.errors import ParameterError

        raise ParameterError("--delta: with --eps, e^eps must be rational (delta is the level of phi^n(t, delta)); "
                             "give --delta alone for the least eps with delta_n(e^eps) <= delta")
    _common.check_output_path(args.output)
    K = load_kernel(args.file, at=args.at, header=args.header, row_labels=args.row_labels,
                    report=_common.note)
    kw = {} if args.max_evaluations is None else {"max_evaluations": args.max_evaluations}
    exact_tv = _check_cost(K, args, t, kw) or eps is not None
    steps = 1 + (3 if t is not None else 0) + (1 if eps is not None else 0) + (1 if invert else 0)
    with _common.progress(args, steps, f"tensor n={args.n}") as bar, _scheduler(args) as ex:
        wkw = dict(kw, executor=ex)
        tv_refused = None
        if exact_tv:
            try:
                tv = eta_hockey_stick_tensor_product_witness([(K, args.n)], 1, **wkw)
            except ResourceLimitError:  # the estimate fit, the filter left too much: --delta alone goes on
                if not invert:
                    raise
                exact_tv = False
        if not exact_tv:
            tv, enclosure, tv_refused = _tv_enclosure_or_refusal([(K, args.n)], invert)
        bar.advance()
        out: dict[str, Any] = {"n": str(args.n), "eta_tv": str(tv.value),
               "eta_tv_maximizer": [{"x": str(x), "x_prime": str(xp), "count": str(c)}
                                    for _, x, xp, c in tv.composition],
               "pair_classes": str(tv.classes), "evaluations": str(tv.evaluations), "discarded": str(tv.discarded)}
        values: dict[str, Any] = {"eta_TV(K^(x n))": tv.value}
        if tv_refused is not None:
            out["eta_tv"], out["eta_tv_refused"] = None, tv_refused
            values = {"eta_TV(K^(x n))": f"not computed: {tv_refused}"}
        elif not exact_tv and not enclosure.exact:
            out["eta_tv"] = None
            out["eta_tv_enclosure"] = {"lower": str(enclosure.lower), "upper": str(enclosure.upper),
                                       "relative_width": str(enclosure.relative_width)}
            values = {"eta_TV(K^(x n)) in": str(enclosure)}
        if t is not None:
            g = to_qq(t, "--t")
            eg = eta_hockey_stick_tensor_product_witness([(K, args.n)], g, **wkw)
            bar.advance()
            d = eta_hockey_stick(K, g) if args.delta is None else _common.read_delta(args)
            bound, composed = phi_n(g, d, args.n), 1 - (1 - d) ** args.n
            bar.advance()
            delta_n = eta_hockey_stick_tensor_product_witness([(K, args.n)], g**args.n, **wkw).value
            bar.advance()
            out.update({"t": str(g), "delta": str(d), "eta_e_t": str(eg.value), "phi_n": str(bound),
                        "eta_tv_le_phi_n": str(tv.value <= bound).lower(), "delta_n_at_t_n": str(delta_n),
                        "composition_bound": str(composed)})
            values.update({f"eta_E_t(K^(x n)) = delta_n({g})": eg.value, f"phi^n(t={g}, delta={d})": bound,
                           "delta_n(t^n), composition": delta_n, "1-(1-delta)^n": composed})
        if eps is not None:
            exact = delta_tensor_power_eps(K, args.n, eps)
            out["delta_n_at_exp_eps"] = str(exact)
            out["delta_n_at_exp_eps_decimal"] = _common.decimal(exact)
            values[f"delta_n(e^({eps}))"] = exact
            bar.advance()
        if invert:
            inv = out["epsilon_for_delta"] = _epsilon_for_delta([(K, args.n)], args, kw)
            bar.advance()
    if args.format == "json":
        _common.emit_json(args, "tensor", _result(out, eps))
        return 0
    pairs = ", ".join(f"{c} x ({x},{xp})" for _, x, xp, c in tv.composition) or (
        "none (identical rows)" if exact_tv else "none (eta_TV not computed)" if tv_refused is not None
        else "none (eta_TV enclosed, not searched)")
    if args.format != "text":
        from exactdp.cli import _document  # deferred: start-up

        rows: list[tuple[str, Any]] = [*values.items(), ("eta_TV maximizer (other coordinates equal)", pairs)]
        if invert:
            rows += [(f"least eps with delta_n(e^eps) <= {inv['delta']}", inv["epsilon"]),
                     ("t* = e^eps (exact)", inv["t_star"] or "none (no finite eps)")]
        if t is not None:
            rows.append(("eta_TV(K^(x n)) <= phi^n", out["eta_tv_le_phi_n"]))
        _document.emit(args, f"exactdp tensor: {K.N}x{K.M} kernel, n = {args.n}",
                       [("matrix", "$K$", K.as_strings()), ("rows", [(_math_label(k), v) for k, v in rows])])
        return 0
    lines = [f"K: {K.N}x{K.M}, n = {args.n}: {tv.classes} pair classes, {tv.evaluations} exact evaluations, "
             f"{tv.discarded} compositions ruled out by the certified filter"]
    lines += [f"  {label} {v}" if isinstance(v, str) else f"  {label} = {_common.shown(v)}" for label, v in values.items()]
    if exact_tv:
        lines.append(f"  eta_TV maximizer: {pairs} (other coordinates equal)")
    if t is not None:
        lines.append(f"  eta_TV(K^(x n)) <= phi^n: {out['eta_tv_le_phi_n']}")
    if invert:
        lines += _inversion_lines(inv)
    _common.emit(args, "\n".join(lines))
    return 0




#: the text labels → the labels of the documents (LaTeX maths between $)
_MATH_LABELS = (
    (r"eta_TV\(K\^\(x n\)\) <= phi\^n", r"$\\eta_{\\mathrm{TV}}(K^{\\otimes n}) \\le \\varphi^n$"),
    (r"eta_TV\(K\^\(x n\)\)", r"$\\eta_{\\mathrm{TV}}(K^{\\otimes n})$"),
    (r"eta_E_t\(K\^\(x n\)\) = delta_n\((.+)\)", r"$\\eta_{E_t}(K^{\\otimes n}) = \\delta_n(t)$ at $t = \1$"),
    (r"phi\^n\(t=(.+), delta=(.+)\)", r"$\\varphi^n(t, \\delta)$ at $t = \1$, $\\delta = \2$"),
    (r"delta_n\(t\^n\), composition", r"$\\delta_n(t^n)$, composition"),
    (r"1-\(1-delta\)\^n", r"$1 - (1 - \\delta)^n$"),
    (r"delta_n\(e\^\((.+)\)\)", r"$\\delta_n(e^\\varepsilon)$ at $\\varepsilon = \1$"),
    (r"eta_TV maximizer", r"$\\eta_{\\mathrm{TV}}$ maximizer"),
    (r"least eps with delta_n\(e\^eps\) <= (.+)", r"least $\\varepsilon$ with $\\delta_n(e^\\varepsilon) \\le \1$"),
    (r"t\* = e\^eps \(exact\)", r"$t^* = e^\\varepsilon$ (exact)"),
)


def _math_label(label: str) -> str:
    """A value's text label as the label of ``--format markdown|latex|html`` (its maths between ``$``)."""
    import re

    for pattern, tex in _MATH_LABELS:
        m = re.fullmatch(pattern, label) or re.match(pattern + r"(?= )", label)
        if m:
            return m.expand(tex) + label[m.end():]
    return label


def _inversion_lines(inv: dict) -> list[str]:
    """The text lines of ``--delta D`` alone (ε for δ)."""
    where = ", ".join(f"{m['count']} x ({m['x']},{m['x_prime']})" + (f" of kernel {int(m['factor']) + 1}" if "factor" in m
                                                                       else "") for m in inv["maximizer"]) or "none"
    if inv["t_star"] is None:
        return [f"  least eps with delta_n(e^eps) <= {inv['delta']}: none (delta_n stays above it for every eps; "
                f"{inv['evaluations']} profile evaluations, maximizer {where})"]
    if "t_lower" in inv:  # a certified enclosure of t*
        return [f"  least eps with delta_n(e^eps) <= {inv['delta']}: eps in ({inv['decimal_lower']}, {inv['decimal']}] "
                f"(certified enclosure: delta_n(e^eps) > delta at the left end, <= delta at the right end, "
                f"t* in ({_common.abbreviate(inv['t_lower'])}, {_common.abbreviate(inv['t_star'])}]; "
                f"{inv['evaluations']} profile evaluations)",
                f"  delta_n maximizer at the right end: {where} (other coordinates equal)"]
    # eps = log t* exactly; where t* is too long to print, the line names it and t* is shown abbreviated
    exact = inv["epsilon"] if len(inv["epsilon"]) <= _common.MAX_SHOWN else "log t*"
    eps = exact + (f" ≈ {inv['decimal']}" if inv["decimal"] else "")
    return [f"  least eps with delta_n(e^eps) <= {inv['delta']}: eps = {eps}, "
            f"t* = e^eps = {_common.abbreviate(inv['t_star'])} (exact; {inv['evaluations']} profile evaluations)",
            f"  delta_n maximizer at t*: {where} (other coordinates equal)"]
