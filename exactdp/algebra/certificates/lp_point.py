r"""The ``"lp-point"`` certificate: an exact LP at one rational parameter point, with primal and dual solutions.

Data (every number an exact string): the point (``point``: parameter = value), the LP
max c·x s.t. A_ub x ≤ b_ub, A_eq x = b_eq, x ≥ 0 (:mod:`exactdp.algebra.lp`), an optimal vertex x, dual
multipliers y_ub ≥ 0, y_eq and the value.  The check rebuilds the LP from the strings and re-checks, from the
data alone, x ≥ 0, A_ub x ≤ b_ub, A_eq x = b_eq, y_ub ≥ 0, A_ubᵀ y_ub + A_eqᵀ y_eq ≥ c and
c·x = b·y = value (:func:`exactdp.algebra.lp.certificate_failures`): then ``value`` is the optimum (weak
duality).  The LP's size is estimated and refused above ``max_work`` / ``max_memory`` before it is built.
"""

from __future__ import annotations

from typing import Any

from dataclasses import dataclass

from flint import fmpq

from exactdp.algebra.certificates import Certificate, CertificateCheck, register_kind
from exactdp.numbers.reader import read_rational
from exactdp.numbers.truth import Truth


@register_kind
@dataclass(frozen=True, kw_only=True)
class LPPoint(Certificate):
    """An exact LP and its optimality certificate at a rational point (module docstring)."""

    kind = "lp-point"
    point: tuple[tuple[str, str], ...] = ()
    c: tuple[str, ...]
    A_ub: tuple[tuple[str, ...], ...] = ()
    b_ub: tuple[str, ...] = ()
    A_eq: tuple[tuple[str, ...], ...] = ()
    b_eq: tuple[str, ...] = ()
    x: tuple[str, ...]
    y_ub: tuple[str, ...] = ()
    y_eq: tuple[str, ...] = ()
    value: str

    @classmethod
    def of(cls, lp: Any, sol: Any, *, name: str, point: Any = (), parameters: Any = (), scope: str = "") -> LPPoint:
        """From an :class:`~exactdp.algebra.lp.LinearProgram` and its optimal :class:`~exactdp.algebra.lp.LPSolution`."""
        if sol.status != "optimal":
            raise ValueError(f"{name}: an lp-point certificate needs an optimal solution, got {sol.status}")
        def row(v: Any) -> tuple[str, ...]:
            return tuple(str(a) for a in v)

        return cls(name=name, parameters=tuple(parameters) or tuple(str(k) for k, _ in point),
                   scope=scope or "the point " + ", ".join(f"{k} = {v}" for k, v in point),
                   point=tuple((str(k), str(v)) for k, v in point), c=row(lp.c),
                   A_ub=tuple(row(r) for r in lp.A_ub), b_ub=row(lp.b_ub), A_eq=tuple(row(r) for r in lp.A_eq),
                   b_eq=row(lp.b_eq), x=row(sol.x), y_ub=row(sol.y_ub), y_eq=row(sol.y_eq), value=str(sol.value))

    def _check(self) -> CertificateCheck:
        from exactdp.algebra.lp import LinearProgram, LPSolution, certificate_failures, require_lp_size

        n, rows = len(self.c), len(self.A_ub) + len(self.A_eq)
        require_lp_size(n, rows, 1, f"certificate {self.name}: re-checking the LP")
        def q(v: tuple[str, ...], what: str) -> tuple[fmpq, ...]:
            return tuple(read_rational(a, f"{self.name}: {what}") for a in v)

        for k, v in self.point:
            read_rational(v, f"{self.name}: point {k}")
        try:
            lp = LinearProgram(c=q(self.c, "c"), A_ub=tuple(q(r, "A_ub") for r in self.A_ub), b_ub=q(self.b_ub, "b_ub"),
                               A_eq=tuple(q(r, "A_eq") for r in self.A_eq), b_eq=q(self.b_eq, "b_eq"))
        except ValueError as exc:  # ShapeError
            return CertificateCheck(Truth.FALSE, (), (f"inconsistent LP data: {exc}",))
        sol = LPSolution("optimal", read_rational(self.value, f"{self.name}: value"), q(self.x, "x"),
                         q(self.y_ub, "y_ub"), q(self.y_eq, "y_eq"))
        bad = certificate_failures(lp, sol)
        steps = (f"LP with {n} variables, {len(self.A_ub)} inequality and {len(self.A_eq)} equality rows at "
                 f"{', '.join(f'{k} = {v}' for k, v in self.point) or 'fixed data'}",
                 "primal feasibility, dual feasibility and equal objectives re-checked exactly from the data"
                 + ("" if bad else f": the optimum is {self.value}"))
        return CertificateCheck(Truth.FALSE if bad else Truth.TRUE, steps, tuple(bad))
