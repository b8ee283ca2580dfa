r"""Pointwise maximal leakage of a product kernel K₁ ⊗ … ⊗ K_n over product priors ([G] Def. 2, D-8, D-9).

[G]'s (ε,c)-PML level of a kernel is the largest leakage ℓ_{K×P}(X→y) = log max_x K(y|x)/(K∘P)(y) over the
priors of Q_X(c) = {P : min_x P(x) ≥ c}.  For a product kernel K₁ ⊗ K₂ (independent uses on independent inputs)
two prior classes offer themselves:

* the **product class** :class:`ProductPrior` (c₁, …, c_n): the priors P₁ ⊗ … ⊗ P_n with P_i ∈ Q(c_i) on the
  i-th alphabet;
* the **floor class** Q(c₁⋯c_n) on the product alphabet: every prior whose least mass is ≥ c₁⋯c_n.  It
  contains the product class (P₁(x₁)P₂(x₂) ≥ c₁c₂) and much more (correlated priors).

:func:`pml_ratio_product_priors` computes the first exactly from the definition: the explicit product kernel,
the explicit joint prior P₁ ⊗ … ⊗ P_n at every product of vertices of the Q(c_i) (for a fixed output y the
probability (K∘P)(y) = Π_i (K_i∘P_i)(y_i) is, in each factor P_i, a positive multiple of a linear function,
so its least value over the product class is at a vertex of every factor: D-9's vertex argument factor by
factor) and D-8's maximum over the support.  The theorem of :mod:`exactdp.theory.product_pml_certificates`
says the value is the product of the factors' levels, e^{ε*} = Π_i pml_ratio(K_i, c_i) (PROVED there by
certificate; the claim findings.fg11_product_prior_pml files it, and findings.fg12_floor_class_composition
refutes the same statement for the floor class Q(c₁c₂) with an exact witness; docs/claims.md F-G11, F-G12).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from flint import fmpq

from exactdp.distributions import Distribution
from exactdp.errors import ParameterError
from exactdp.kernels import Kernel, as_kernel
from exactdp.limits import require
from exactdp.numbers.qq import to_qq


@dataclass(frozen=True)
class ProductPrior:
    """The product class Q(c₁) × … × Q(c_n): priors P₁ ⊗ … ⊗ P_n on N₁ × … × N_n inputs (index x₁·N₂ + x₂, as
    :meth:`exactdp.Kernel.tensor`) with min_x P_i(x) ≥ c_i, each c_i ∈ (0, 1/N_i].

    >>> ProductPrior((2, 3), ("1/4", "1/6")).floor
    1/24
    """

    sizes: tuple[int, ...]
    floors: tuple[fmpq, ...]

    def __init__(self, sizes: Any, floors: Any) -> None:
        sizes, floors = tuple(sizes), tuple(floors)
        if not sizes or len(sizes) != len(floors):
            raise ParameterError(f"ProductPrior: sizes and floors must be non-empty and of one length, got "
                                 f"{len(sizes)} sizes and {len(floors)} floors")
        checked = []
        for i, (N, c) in enumerate(zip(sizes, floors)):
            if not isinstance(N, int) or isinstance(N, bool) or N < 1:
                raise ParameterError(f"ProductPrior: sizes[{i}] must be an integer >= 1, got {N!r}")
            cc = to_qq(c, f"floors[{i}]")
            if cc <= 0 or cc * N > 1:
                raise ParameterError(f"ProductPrior: floors[{i}] must lie in (0, 1/N] = (0, 1/{N}], got {cc}")
            checked.append(cc)
        object.__setattr__(self, "sizes", sizes)
        object.__setattr__(self, "floors", tuple(checked))

    @property
    def floor(self) -> fmpq:
        """c₁⋯c_n: the least mass of every prior of the class (the floor class Q(c₁⋯c_n) contains it)."""
        out = fmpq(1)
        for c in self.floors:
            out *= c
        return out

    def factor_vertices(self, i: int) -> tuple[Distribution, ...]:
        """The vertices c_i·𝟙 + (1 − N_i c_i)e_x of Q(c_i) (one per input x; a single point when N_i c_i = 1)."""
        N, c = self.sizes[i], self.floors[i]
        rest = 1 - N * c
        points = {tuple(c + (rest if k == x else 0) for k in range(N)) for x in range(N)}
        return tuple(Distribution.from_exact_probs(p) for p in sorted(points))

    def joint(self, factors: Any) -> Distribution:
        """P₁ ⊗ … ⊗ P_n for factor distributions in the class (checked)."""
        factors = tuple(factors)
        if len(factors) != len(self.sizes):
            raise ParameterError(f"ProductPrior.joint: {len(factors)} factors for {len(self.sizes)} alphabets")
        probs = [fmpq(1)]
        for i, P in enumerate(factors):
            p = P.probs
            if len(p) != self.sizes[i] or any(v < self.floors[i] for v in p):
                raise ParameterError(f"ProductPrior.joint: factor {i} is not in Q({self.floors[i]}) on "
                                     f"{self.sizes[i]} inputs")
            probs = [a * b for a in probs for b in p]
        return Distribution.from_exact_probs(probs)

    def contains(self, P: Any) -> bool:
        """Whether the joint prior P (on N₁⋯N_n inputs) is P₁ ⊗ … ⊗ P_n with P_i ∈ Q(c_i): its marginals are in
        the Q(c_i) and their product is P, exactly."""
        P = P if isinstance(P, Distribution) else Distribution(P)
        p = P.probs
        total = 1
        for N in self.sizes:
            total *= N
        if len(p) != total:
            return False
        marginals = []
        for i, N in enumerate(self.sizes):
            inner = 1
            for M in self.sizes[i + 1:]:
                inner *= M
            m = [sum((p[k] for k in range(total) if (k // inner) % N == x), fmpq(0)) for x in range(N)]
            if any(v < self.floors[i] for v in m):
                return False
            marginals.append(Distribution.from_exact_probs(m))
        return self.joint(marginals).probs == tuple(p)


@dataclass(frozen=True)
class ProductLeakage:
    """e^{ε*} of a product kernel over a :class:`ProductPrior`: the exact ratio, a worst output (index in the
    product kernel) and a worst prior (its factors), and the factors' own levels pml_ratio(K_i, c_i)."""

    ratio: fmpq
    output: int
    prior: tuple[Distribution, ...]
    factor_ratios: tuple[fmpq, ...]


def pml_ratio_product_priors(kernels: Any, prior: ProductPrior) -> ProductLeakage:
    """sup over P ∈ ``prior`` of max_y ℓ_{K×P}(X→y) for K = K₁ ⊗ … ⊗ K_n, exactly (module docstring): D-8 on the
    explicit product kernel at every product of vertices of the Q(c_i).

    >>> from exactdp.mechanisms import randomized_response
    >>> K = randomized_response(2, 3)
    >>> r = pml_ratio_product_priors([K, K], ProductPrior((2, 2), ("1/4", "1/4")))
    >>> r.ratio, r.factor_ratios
    (4, (2, 2))
    """
    from exactdp.measures.privacy import pml_ratio  # deferred: start-up

    ks: list[Kernel] = [as_kernel(K) for K in kernels]
    if len(ks) != len(prior.sizes) or any(K.N != N for K, N in zip(ks, prior.sizes)):
        raise ParameterError(f"pml_ratio_product_priors: kernels with {[K.N for K in ks]} inputs for a prior "
                             f"class on {list(prior.sizes)} inputs")
    if any(K.symbolic for K in ks):
        raise ParameterError("pml_ratio_product_priors: kernels must have rational entries (domain QQ)")
    N = M = V = 1
    for i, K in enumerate(ks):
        N, M, V = N * K.N, M * K.M, V * len(prior.factor_vertices(i))
    require("max_work", V * N * M, "pml_ratio_product_priors (vertices x inputs x outputs)")
    product = ks[0]
    for K in ks[1:]:
        product = product.tensor(K)
    rows = product.rows
    top = [max(rows[x][y] for x in range(N)) for y in range(M)]  # every prior of the class has full support
    best: tuple[fmpq, int, tuple[Distribution, ...]] | None = None
    for factors in itertools.product(*(prior.factor_vertices(i) for i in range(len(ks)))):
        P = prior.joint(factors).probs
        for y in range(M):
            out = sum((P[x] * rows[x][y] for x in range(N) if rows[x][y] != 0), fmpq(0))
            if out == 0:
                continue
            r = top[y] / out
            if best is None or r > best[0]:
                best = (r, y, tuple(factors))
    assert best is not None  # a stochastic kernel has an output of positive probability
    return ProductLeakage(best[0], best[1], best[2], tuple(pml_ratio(K, c) for K, c in zip(ks, prior.floors)))
