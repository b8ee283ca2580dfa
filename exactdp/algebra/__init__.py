"""Exact real algebra, below the privacy objects: the layer every decision rests on.

- :mod:`~exactdp.algebra.regions` — a ``Region`` of polynomial sign conditions on parameters (t = e^ε, c, δ, ...);
- :mod:`~exactdp.algebra.algebraic` — real algebraic numbers (isolating intervals, exact comparisons);
- :mod:`~exactdp.algebra.radicals` — square roots of parameters, decided in w = √v, and of expressions (r² = A, r ≥ 0);
- :mod:`~exactdp.algebra.prover` — the exact inequality prover: sign of a rational function on a region,
  identities, crossing points;
- :mod:`~exactdp.algebra.decision` — its answer (``Decision``) and its "cannot decide" exception;
- :mod:`~exactdp.algebra.cases` — its case split of Min/Max/Piecewise and the rational-function check;
- :mod:`~exactdp.algebra.projection` — real roots in one variable and the projection of a variable, shared
  with the cylindrical decision (:mod:`~exactdp.algebra.cylindrical`, :mod:`~exactdp.algebra.boolean`);
- :mod:`~exactdp.algebra.lp` — the exact simplex with re-checked dual certificates.

It imports only :mod:`exactdp.numbers`, :mod:`exactdp.errors` and :mod:`exactdp.limits` (import-linter
contract in ``pyproject.toml``).
"""
