r"""The one two-point maximum of a contraction coefficient, over any number domain (B-2; [A] Thm 3).

η_{E_γ}(K) = max_{x≠x'} E_γ(K_x‖K_{x'}) (Asoodeh–Diaz–Calmon; γ = 1 is Dobrushin's η_TV), every
comparison decided by the number domain ``D`` (:mod:`exactdp.numbers.domain`): QQ exactly, RB by certified
balls, SR on a parameter region.  :mod:`exactdp.measures.contraction` (kernels with parameters) and
:mod:`exactdp.measures.irrational_gamma` (irrational constant entries) both take it from here.
"""

from __future__ import annotations

from typing import Any, Callable

from exactdp.kernels import Kernel
from exactdp.measures.divergences import hockey_stick_in
from exactdp.numbers.domain import Domain

#: what the one maximum of a measure (:func:`eta_in`, :func:`exactdp.measures.privacy.column_ratio_in`) reports
#: to an observer such as a derivation (:mod:`exactdp.measures.derivations`): ``observe(kind, value, where)``
Observer = Callable[[str, Any, Any], None]


def eta_in(D: Domain[Any], K: Kernel, gamma: Any,
           observe: Observer | None = None) -> tuple[object, int | None, int | None]:
    """``(η, x, x')``: max_{x≠x'} E_γ(K_x‖K_x') in the number domain ``D`` (B-2), the first maximizing pair
    (None, None when it changes over an SR region); every comparison decided by ``D``
    (:class:`~exactdp.errors.UndecidedError` when one is not; SR splits the region instead).
    ``observe("pair", E_γ(K_x‖K_x'), (x, x'))`` and ``observe("max", η, None)`` see the steps."""
    pairs = [(i, j) for i in range(K.N) for j in range(K.N) if i != j]
    if not pairs:
        return D.result(D.zero), 0, 0
    values = [hockey_stick_in(D, K.rows[i], K.rows[j], gamma) for i, j in pairs]
    if observe is not None:
        for pair, v in zip(pairs, values):
            observe("pair", D.result(v), pair)
    value, k = D.max(values)
    value = D.result(value)
    if observe is not None:
        observe("max", value, None)
    if k is None:
        return value, None, None
    return value, pairs[k][0], pairs[k][1]
