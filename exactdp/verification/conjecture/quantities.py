r"""The named quantities of a conjecture, evaluated exactly on one instance (K, parameters, P, Q).

Every quantity is computed by the core (:mod:`exactdp.measures`): η_TV, η_{E_γ}, LDP ratio, (ε,c)-PML
ratio, maximal leakage, TV, χ², KL, H².  Logs and square roots come back from the core as exact sympy
expressions and are read into the value domain of :mod:`.values` (exact ``LogLin`` for logs of rationals,
certified balls for roots), so an instance is decided exactly or certified, never by floats.  The built-in
quantities have routes of their own in that value domain (fast paths); every other quantity of the registry
(:mod:`exactdp.measures.registry`) is evaluated by its registered evaluators: ``exact`` at rational
arguments, ``ball`` at the others.

Parameters: ε = log γ with γ rational, so ``exp(eps)`` is exactly γ; δ and c are rationals; N, M are
the kernel's sizes; n an integer (used with ``eta_tv_tensor(n)``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy
from flint import fmpq

from exactdp.distributions import Distribution
from exactdp.kernels import Kernel
from exactdp.measures import registry
from exactdp.measures.contraction import eta_hockey_stick, eta_tv
from exactdp.measures.divergences import hockey_stick
from exactdp.measures.privacy import ldp_ratio, max_leakage_ratio, pml_ratio
from exactdp.numbers import loglin as V
from exactdp.numbers.reader import as_expr
from exactdp.verification.conjecture import kernel_terms

#: the divergences with a route of their own in the value domain below (the others, and every quantity
#: registered without a route here, are evaluated by their registration: ``InstanceEnv._registered``)
_DIVERGENCE_ROUTES = ("hellinger2", "hs")
#: largest tensor power size (rows or columns of K^{⊗n}) eta_tv_tensor evaluates
MAX_TENSOR_SIZE = 81


@dataclass
class Instance:
    """One point of the search: a kernel, its class parameters and (optionally) two inputs P, Q."""

    cls: str
    K: Kernel
    gamma: fmpq
    delta: fmpq | None = None
    c: fmpq | None = None
    n: int | None = None
    P: Distribution | None = None
    Q: Distribution | None = None
    K2: Kernel | None = None  # the second kernel of the class (when the conjecture names K2)
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    def record(self) -> dict:
        """Plain exact strings (picklable, JSON-ready)."""
        out = {"class": self.cls, "rows": self.K.as_strings(), "t": str(self.gamma)}
        for k in ("delta", "c", "n"):
            v = getattr(self, k)
            if v is not None:
                out[k] = str(v)
        if self.P is not None and self.Q is not None:
            out["P"], out["Q"] = self.P.as_strings(), self.Q.as_strings()
        if self.K2 is not None:
            out["rows2"] = self.K2.as_strings()
        return out

    @classmethod
    def from_record(cls, rec: dict) -> Instance:
        q = lambda s: fmpq(*map(int, s.split("/"))) if "/" in s else fmpq(int(s))
        K = Kernel.from_exact_rows([[q(v) for v in r] for r in rec["rows"]], False)
        P = Distribution.from_exact_probs(tuple(q(v) for v in rec["P"]), False) if "P" in rec else None
        Qd = Distribution.from_exact_probs(tuple(q(v) for v in rec["Q"]), False) if "Q" in rec else None
        K2 = Kernel.from_exact_rows([[q(v) for v in r] for r in rec["rows2"]], False) if "rows2" in rec else None
        return cls(rec["class"], K, q(rec["t"]), q(rec["delta"]) if "delta" in rec else None,
                   q(rec["c"]) if "c" in rec else None, int(rec["n"]) if "n" in rec else None, P, Qd, K2)

    def params_sympy(self) -> dict:
        """Exact sympy values of the parameters (ε = log t; γ, the order of E_γ, is t)."""
        r = lambda v: sympy.Rational(int(v.p), int(v.q))
        out = {"eps": sympy.log(r(self.gamma)), "t": r(self.gamma), "gamma": r(self.gamma),
               "N": sympy.Integer(self.K.N), "M": sympy.Integer(self.K.M)}
        if self.delta is not None:
            out["delta"] = r(self.delta)
        if self.c is not None:
            out["c"] = r(self.c)
        if self.n is not None:
            out["n"] = sympy.Integer(self.n)
        return out


def _from_sympy(expr):
    """A core result (fmpq, sympy.oo or an exact sympy expression) as a value of :mod:`.values`."""
    if isinstance(expr, fmpq):
        return expr
    return V.compile_expr(as_expr(expr))(_NO_ENV)


class _NoEnv(V.Env):
    def param(self, name):
        raise V.Undefined(f"unexpected symbol {name} in a core result")

    def quantity(self, name, args):
        raise V.Undefined(f"unexpected function {name} in a core result")


_NO_ENV = _NoEnv()


class InstanceEnv(V.Env):
    """Evaluates parameters and quantities of a conjecture on one :class:`Instance`.

    Exact results are cached on the instance (they do not depend on the working precision)."""

    def __init__(self, inst: Instance):
        self.inst = inst

    # -- parameters ---------------------------------------------------------------------------------
    def param(self, name: str):
        i = self.inst
        q = registry.quantity(name)
        if q is not None and q.arity == 0:
            return self.quantity(name, ())
        if name == "eps":
            return V.log_of(i.gamma)
        if name in ("t", "gamma"):  # gamma: the order of E_gamma at the class's level t = e^eps
            return i.gamma
        if name == "N":
            return fmpq(i.K.N)
        if name == "M":
            return fmpq(i.K.M)
        value = {"delta": i.delta, "c": i.c, "n": None if i.n is None else fmpq(i.n)}.get(name)
        if value is None:
            raise V.Undefined(f"parameter {name} is not defined for class {i.cls}")
        return value

    # -- distributions -------------------------------------------------------------------------------
    def dist(self, node) -> Distribution:
        i = self.inst
        if isinstance(node, sympy.Symbol):
            d = i.P if node.name == "P" else i.Q
            if d is None:
                raise V.Undefined(f"{node.name} is not sampled")
            return d
        name = node.func.__name__
        if name == "row":
            x = int(node.args[0])
            if not 0 <= x < i.K.N:
                raise V.Undefined(f"row({x}): the kernel has {i.K.N} rows (numbered 0..{i.K.N - 1})")
            return i.K.row(x)
        key = ("image", node.args[0].name)
        if key not in i._cache:
            i._cache[key] = i.K.apply(self.dist(node.args[0]))
        return i._cache[key]

    # -- quantities -----------------------------------------------------------------------------------
    def _cached(self, key, compute):
        c = self.inst._cache
        if key not in c:
            c[key] = compute()
        return c[key]

    def _rational_arg(self, node, what: str) -> fmpq:
        v = self.value(node)
        if not isinstance(v, fmpq):
            raise V.Undefined(f"{what} must be rational here, got {v}")
        return v

    def quantity(self, name: str, args: tuple):
        K = self.inst.K
        if args and kernel_terms.is_term(args[0]):
            return self._of_term(name, args[0], args[1:])
        if name == "eta_tv":
            return self._cached("eta_tv", lambda: eta_tv(K))
        if name == "ldp_eps":
            return self._cached("ldp_eps", lambda: _log_ratio(ldp_ratio(K)))
        if name == "max_leakage":
            return self._cached("max_leakage", lambda: _log_ratio(max_leakage_ratio(K)))
        if name in ("eta_chi2", "eta_kl"):
            if K.N != 2:  # N >= 3: the certified enclosure [two-input lower bound, eta_TV] as a ball
                return self._cached("eta_chi2", lambda: registry.eta_chi2_ball(K))
            r = self._cached("eta_chi2", lambda: _two_inputs(K))
            return r.value.lo if r.value.is_rational else _algebraic_ball(r.value)
        if name == "pml_eps":
            c = self._rational_arg(args[0], "pml_eps(c): c")
            if c <= 0 or c > fmpq(1, K.N):
                raise V.Undefined(f"pml_eps(c) needs c in (0, 1/N], got {c}")
            return self._cached(("pml_eps", c), lambda: _log_ratio(pml_ratio(K, c)))
        if name in ("eta_hs", "delta_K"):
            if name == "delta_K":
                e = self.value(args[0])
                if V.sign(e) == -1 or isinstance(e, V.Inf):
                    raise V.Undefined(f"delta(eps) needs a finite eps >= 0, got {str(e)[:80]}")
                from exactdp.limits import limit

                cap = limit("max_exp_argument")  # the core re-check refuses larger eps: so does the search
                if (e > cap) if isinstance(e, fmpq) else not (V.to_arb(e) < cap):
                    raise V.Undefined(f"delta(eps) needs eps <= {cap} (limit max_exp_argument), got {str(e)[:80]}")
                g = V.exp(e)
            else:
                g = self.value(args[0])
            return self._eta_hs(g)
        if name == "eta_tv_tensor":
            n = self._rational_arg(args[0], "eta_tv_tensor(n): n")
            if n.q != 1 or n < 1 or K.N ** int(n) > MAX_TENSOR_SIZE or K.M ** int(n) > MAX_TENSOR_SIZE:
                raise V.Undefined(f"eta_tv_tensor(n) needs an integer n >= 1 with N^n, M^n <= {MAX_TENSOR_SIZE}, "
                                  f"got n = {n}")
            k = int(n)
            return self._cached(("tensor", k), lambda: eta_tv(K.tensor_power(k)) if k > 1 else eta_tv(K))
        if name not in _DIVERGENCE_ROUTES:
            return self._registered(name, args)
        A, B = self.dist(args[0]), self.dist(args[1])
        if name == "hellinger2":
            return _hellinger2_value(A.probs, B.probs)
        key = (name, str(args[0]), str(args[1]))
        g = self.value(args[2])
        if isinstance(g, fmpq) and g >= 0:
            return self._cached(key + (str(g),), lambda: hockey_stick(A, B, g))
        return _hockey_stick_value(A.probs, B.probs, g)

    def _of_term(self, name: str, term, args: tuple):
        """A quantity of a product or power of K and K2 (:mod:`.kernel_terms`), at rational arguments (the
        exact evaluation of :func:`.kernel_terms.exact_value`, read into the value domain)."""
        i = self.inst
        if name == "delta_K":  # delta(eps) = eta_{E_{e^eps}} ([A] Thm 1): e^eps rational here
            g = V.exp(self.value(args[0]))
            if not isinstance(g, fmpq):
                raise V.Undefined(f"delta(term, eps) of a kernel term needs exp(eps) rational, got {str(g)[:80]}")
            name, values = "eta_hs", [g]
        else:
            values = [self._rational_arg(a, f"{name} of a kernel term: an argument") for a in args]
        key = ("term", name, str(term), *map(str, values))
        try:
            fs = kernel_terms.factors(term, i.K, i.K2, i.n)
            if name in kernel_terms.LEVELS:  # log of an exact ratio: LogLin, no sympy on the way
                return self._cached(key, lambda: _log_ratio(kernel_terms.level_ratio(name, fs, tuple(values))))
            return self._cached(key, lambda: _from_sympy(kernel_terms.exact_value(
                name, fs, tuple(_sympy_rational(v) for v in values), explicit=False)))
        except registry.Undefined as exc:
            raise V.Undefined(str(exc)) from None

    def _registered(self, name: str, args: tuple):
        """A quantity without a route of its own here: its registration's ``exact`` evaluator at rational
        arguments (read into the value domain like every core result), its ``ball`` evaluator at others."""
        q = registry.quantity(name)
        if q is None:
            raise V.Undefined(f"unknown quantity {name}")
        k = q.distributions
        first = [self.dist(a) for a in args[:k]] if k else [self.inst.K]
        values = [self.value(a) for a in args[k:]]
        why = None
        if all(isinstance(v, fmpq) for v in values) and q.exact is not None:
            key = (name, *map(str, args[:k]), *map(str, values))
            try:
                return self._cached(key, lambda: _from_sympy(q.exact(*first, *(_sympy_rational(v) for v in values if isinstance(v, fmpq)))))
            except registry.Undefined as exc:  # no exact value here: the ball route may still enclose it
                why = str(exc)
        if q.ball is not None:
            try:
                return q.ball(*first, *map(V.to_arb, values))
            except registry.Undefined as exc:
                raise V.Undefined(str(exc)) from None
        if why is not None:
            raise V.Undefined(why)
        raise V.Undefined(f"{name} has no evaluator at the arguments {', '.join(map(str, values))}")

    def _eta_hs(self, g):
        K = self.inst.K
        if isinstance(g, fmpq):
            if g < 0:
                raise V.Undefined(f"eta_hs(gamma) needs gamma >= 0, got {g}")
            return self._cached(("eta_hs", g), lambda: eta_hockey_stick(K, g))
        # irrational gamma: the two-point formula max_{x != x'} E_gamma(K_x || K_x') with certified terms
        best = fmpq(0)
        for i in range(K.N):
            for j in range(K.N):
                if i != j:
                    best = V.maximum(best, _hockey_stick_value(K[i], K[j], g))
        return best


def _hockey_stick_value(p, q, g):
    """E_g(p‖q) = Σ (p − g q)₊ for an irrational g, each positive part decided with certified signs."""
    total = fmpq(0)
    for a, b in zip(p, q):
        total = V.add(total, V.maximum(V.sub(a, V.mul(g, b)), fmpq(0)))
    return total


def _hellinger2_value(p, q):
    r"""H²(p, q) = Σ (√p − √q)² = 2 − 2 Σ √(p q) (rows sum to 1), roots exact when rational, else balls.

    The same quantity as :func:`exactdp.measures.divergences.hellinger2` (which the re-check of a
    counterexample uses), in the value domain of :mod:`.values` for speed."""
    total = fmpq(0)
    for a, b in zip(p, q):
        if a != 0 and b != 0:
            total = V.add(total, V.power(a * b, fmpq(1, 2)))
    return V.sub(fmpq(2), V.mul(fmpq(2), total))


def _two_inputs(K: Kernel):
    """η_χ²(K) of a two-input kernel (:func:`exactdp.measures.registry.eta_chi2_two_inputs`); Undefined for
    other sizes."""
    try:
        return registry.eta_chi2_two_inputs(K)
    except registry.Undefined as exc:
        raise V.Undefined(str(exc)) from None


def _sympy_rational(v: fmpq):
    return sympy.Rational(int(v.p), int(v.q))


def _algebraic_ball(r):
    """A ball of the working precision around an irrational real algebraic number (its interval refined)."""
    from flint import arb, ctx

    target = fmpq(1, 2 ** (ctx.prec + 8))
    while r.hi - r.lo > target:
        r.refine(16)
    return arb(r.lo).union(arb(r.hi))


def _log_ratio(r):
    return V.Inf(1) if r is sympy.oo or r == sympy.oo else V.log_of(r)


def evaluate_side(expr: sympy.Expr, inst: Instance):
    """The value of one side (or the slack) of a conjecture at an instance, at the working precision."""
    return V.compile_expr(expr)(InstanceEnv(inst))
