"""``exactdp tensor FILE --n N [--gamma G] [--delta D] [--json]``: n-fold products of a kernel, exactly."""

from __future__ import annotations

import json

#: exact values longer than this are shown rounded (the exact string is in --json)
_WIDTH = 60


def register(sub) -> None:
    p = sub.add_parser("tensor", help="eta_TV, eta_E_gamma and the privacy profile of K^(x n), exactly",
                       description="Read a kernel (JSON or CSV, exact entries) and compute the Dobrushin "
                                   "coefficient and the E_gamma coefficient (= delta_n(gamma)) of its n-fold product "
                                   "by type classes, with a maximizing pair of input sequences, against "
                                   "phi^n(eps, delta) = 1 - gamma^-n (1-delta)^n ([A] A-8).")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--n", type=int, required=True, help="number of factors n >= 1")
    p.add_argument("--gamma", default=None, help="gamma = e^eps >= 1 (exact, e.g. 3/2)")
    p.add_argument("--delta", default=None,
                   help="delta of the (eps, delta) level for phi^n (default: the tight delta = eta_E_gamma(K))")
    p.add_argument("--eps", default=None,
                   help="also print delta_n(e^eps) exactly as A - B*exp(eps) for an exact eps >= 0 (e.g. 1/2)")
    p.add_argument("--max-evaluations", type=int, default=None, help="cap on the exact pair-type search")
    p.add_argument("--json", action="store_true", help="print every exact value as a JSON string")
    p.set_defaults(func=run)


def _show(value) -> str:
    from exactdp.numbers.digits import round_significant

    text = str(value)
    if len(text) <= _WIDTH or isinstance(value, str):
        return text
    shown = f"1 - ≈{round_significant(1 - value, 6)}" if value > 1 - value else f"≈{round_significant(value, 6)}"
    return f"{shown} (exact: {len(text)} characters, see --json)"


def _check_cost(K, args, kw) -> None:
    """Refuse up front (one line, exit 2) when the searches this command runs together exceed max_work or
    max_memory: η_TV, and with --gamma the searches at γ and at γ^n and the powers of φ^n."""
    from exactdp.errors import ParameterError
    from exactdp.limits import require
    from exactdp.measures.tensor import power_cost, tensor_search_cost
    from exactdp.numbers.qq import ONE, to_qq

    if args.n < 1:
        raise ParameterError(f"--n: must be a positive integer, got {args.n}")
    costs = [tensor_search_cost([(K, args.n)], ONE, **kw)]
    if args.gamma is not None:
        g = to_qq(args.gamma, "gamma")
        if g >= 1:  # (γ < 1 is refused by the computation itself, with its own message)
            costs += [tensor_search_cost([(K, args.n)], g, **kw),
                      tensor_search_cost([(K, args.n)], g, gamma_power=args.n, **kw),
                      power_cost(g, args.n), power_cost(g, args.n)]
    work, memory = sum(c.work for c in costs), max(c.memory for c in costs)
    what = f"tensor --n {costs[0].n} for a {K.N}x{K.M} kernel: {costs[0].describe()}"
    require("max_work", work, what)
    require("max_memory", memory, what)


def run(args) -> int:
    from exactdp.io import read_kernel
    from exactdp.measures.contraction import eta_hockey_stick
    from exactdp.measures.tensor import delta_tensor_power_eps, eta_hockey_stick_tensor_product_witness, phi_n
    from exactdp.numbers.qq import to_qq

    K = read_kernel(args.file)
    kw = {} if args.max_evaluations is None else {"max_evaluations": args.max_evaluations}
    _check_cost(K, args, kw)
    tv = eta_hockey_stick_tensor_product_witness([(K, args.n)], 1, **kw)
    out = {"n": str(args.n), "eta_tv": str(tv.value),
           "eta_tv_maximizer": [{"x": str(x), "x_prime": str(xp), "count": str(c)} for _, x, xp, c in tv.composition],
           "pair_classes": str(tv.classes), "evaluations": str(tv.evaluations)}
    values = {"eta_TV(K^(x n))": tv.value}
    if args.gamma is not None:
        g = to_qq(args.gamma, "gamma")
        eg = eta_hockey_stick_tensor_product_witness([(K, args.n)], g, **kw)
        d = eta_hockey_stick(K, g) if args.delta is None else to_qq(args.delta, "delta")
        bound, composed = phi_n(g, d, args.n), 1 - (1 - d) ** args.n
        delta_n = eta_hockey_stick_tensor_product_witness([(K, args.n)], g**args.n, **kw).value
        out.update({"gamma": str(g), "delta": str(d), "eta_gamma": str(eg.value), "phi_n": str(bound),
                    "eta_tv_le_phi_n": str(tv.value <= bound).lower(), "delta_n_at_gamma_n": str(delta_n),
                    "composition_bound_1-(1-delta)^n": str(composed)})
        values.update({f"eta_E_gamma(K^(x n)) = delta_n({g})": eg.value, f"phi^n(gamma={g}, delta={d})": bound,
                       "delta_n(gamma^n), composition": delta_n, "1-(1-delta)^n": composed})
    if args.eps is not None:
        out["delta_n_at_exp_eps"] = str(delta_tensor_power_eps(K, args.n, args.eps))
        values[f"delta_n(e^{args.eps})"] = out["delta_n_at_exp_eps"]
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"K: {K.N}x{K.M}, n = {args.n}: {tv.classes} pair classes, {tv.evaluations} exact evaluations")
    for label, v in values.items():
        print(f"  {label} = {_show(v)}")
    pairs = ", ".join(f"{c} x ({x},{xp})" for _, x, xp, c in tv.composition) or "none (identical rows)"
    print(f"  eta_TV maximizer: {pairs} (other coordinates equal)")
    if args.gamma is not None:
        print(f"  eta_TV(K^(x n)) <= phi^n: {out['eta_tv_le_phi_n']}")
    return 0
