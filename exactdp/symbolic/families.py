r"""Closed forms for kernel families of *symbolic size* (k-ary randomized response, unary encodings).

A :class:`~exactdp.kernels.Kernel` has a fixed shape, so a symbolic alphabet size k is handled by
structure: when a permutation group acts transitively on ordered pairs of inputs (permuting outputs
accordingly), every pair (x, x') gives the same value and the two-point formulas (D-4, B-2) reduce to
one pair described by its *column types* — (multiplicity, K_x(y), K_x'(y)) — with multiplicities that
may be expressions in k:

    E_γ(K_x‖K_x') = Σ_types mult · (K_x(y) − γ K_x'(y))₊,
    e^{LDP} = max over column types of max/min of the column's values.

The positive parts and maxima are resolved by the exact prover on the region (k ≥ 2 is treated as a
real parameter; a closed form proved for all real k ≥ 2 holds for every integer k ≥ 2).

* k-ary randomized response, rows a = t/(t+k−1) on the diagonal and b = 1/(t+k−1) elsewhere: pair
  types (1, a, b), (1, b, a), (k−2, b, b); column values {a once, b k−1 times}.
* unary encodings: rows differ only in bits x and x'; the k−2 common independent bits factor out of
  E_γ (E_γ(P⊗R‖Q⊗R) = E_γ(P‖Q)), so every closed form is that of k = 2, for every k.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from exactdp.symbolic.closedforms import Derivation, exact_closed_form, positive_part, prune_piecewise, symbolic_max
from exactdp.algebra.prover import Region
from exactdp.numbers.reader import as_expr

k_symbol = sympy.Symbol("k", positive=True, integer=True)
t_symbol = sympy.Symbol("t", positive=True)


@dataclass(frozen=True)
class SymmetricFamily:
    """A kernel family described by one pair's column types and the column value sets.

    ``pair_types``: (multiplicity, K_x(y), K_x'(y)); ``columns``: tuples of the distinct values of one
    column (every column is a permutation of the same multiset here); ``region``: the parameters' region.
    """

    name: str
    pair_types: tuple
    columns: tuple
    region: Region

    def eta_hockey_stick(self, gamma, derivation: Derivation | None = None):
        g = as_expr(gamma)
        region = self.region.with_conditions(*[s >= 0 for s in g.free_symbols if s not in self.region.variables])
        total = sympy.Add(*[m * positive_part(p - g * q, region) for m, p, q in self.pair_types])
        value = exact_closed_form(prune_piecewise(sympy.piecewise_fold(total), region))
        if derivation is not None:
            derivation.add("one pair of inputs, a sum over column types weighted by their multiplicity "
                           "(all pairs are equivalent by symmetry)", value,
                           r"\eta_{E_\gamma}(K) = \sum_{(p, q)} m_{p,q} \left(p - \gamma q\right)_+")
            derivation.result = value
        return value

    def eta_tv(self, derivation: Derivation | None = None):
        return self.eta_hockey_stick(1, derivation)

    def ldp_ratio(self):
        ratios = []
        for values in self.columns:
            hi, _ = symbolic_max(values, self.region)
            lo, _ = symbolic_max(values, self.region, minimum=True)
            ratios.append(hi / lo)
        value, _ = symbolic_max(ratios, self.region)
        return exact_closed_form(value)


def randomized_response_family(k=None, t=None) -> SymmetricFamily:
    """k-ary randomized response with symbolic (or integer) k and t = e^ε ≥ 1.

    >>> randomized_response_family().eta_tv()
    (t - 1)/(k + t - 1)"""
    k = k_symbol if k is None else as_expr(k)
    t = t_symbol if t is None else as_expr(t)
    a, b = t / (t + k - 1), 1 / (t + k - 1)
    conds = [c for c in (t >= 1 if t.free_symbols else sympy.true, k >= 2 if k.free_symbols else sympy.true)
             if c is not sympy.true]
    region = Region.of(*conds, variables=sorted(t.free_symbols | k.free_symbols, key=str))
    return SymmetricFamily("RR_k", ((1, a, b), (1, b, a), (k - 2, b, b)), ((a, b),), region)


def unary_encoding_family(p, q, region_conditions=()) -> SymmetricFamily:
    """Unary encoding with bit probabilities p (own bit) and q (other bits), any k ≥ 2.

    The pair (x, x') sees bits (b_x, b_x') ~ Bern(p)⊗Bern(q) against Bern(q)⊗Bern(p); the other k−2
    bits are common and factor out.
    """
    p, q = as_expr(p), as_expr(q)
    cells = [(bx, bx2) for bx in (0, 1) for bx2 in (0, 1)]

    def prob(u, v, bits):
        return (u if bits[0] else 1 - u) * (v if bits[1] else 1 - v)

    types = tuple((1, sympy.expand(prob(p, q, b)), sympy.expand(prob(q, p, b))) for b in cells)
    # an output's likelihood ratio between rows x and x' is that of its 2-bit cell (common bits cancel)
    columns = tuple((u, v) for _, u, v in types)
    syms = sorted(p.free_symbols | q.free_symbols, key=str)
    region = Region.of(*region_conditions, variables=syms)
    return SymmetricFamily("UE", types, columns, region)
