r"""Discrete Bayes problems: the exact Bayes risk and [A]'s Thm 2 / private Xu–Raginsky bounds on them.

θ ~ π on a finite Θ, Xⁿ i.i.d. given θ, Z_i = K(X_i) non-interactively, a loss on a finite action set.
The Bayes risk is exact (fmpq), so the reconstructed bounds of docs/claims.md A-14 and A-15 can be checked
against it: R_B ≥ bound must hold for every instance.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy
from flint import fmpq

from exactdp.errors import ParameterError
from exactdp.kernels import Kernel
from exactdp.numbers.qq import to_qq
from exactdp.numbers.sr import as_sympy
from exactdp.formulas import phi_n
from exactdp.theory.estimation import LOG2, SPECS, RiskBound, exact_or_symbolic, exact_t, mutual_information, psi_coefficient


def _rows_power(rows, n: int):
    """Rows of P_{Xⁿ|θ}: the n-fold Kronecker power of each row (X_i i.i.d. given θ)."""
    out = [list(r) for r in rows]
    for _ in range(n - 1):
        out = [[a * b for a in r for b in row] for r, row in zip(out, rows)]
    return out


@dataclass(frozen=True)
class DiscreteBayesProblem:
    r"""θ ~ ``prior`` on a finite Θ, Xⁿ i.i.d. ``model``(·|θ), Z_i = K(X_i) non-interactively, loss ℓ(θ,a).

    ``loss[θ][a]`` over a finite action set.  Everything is exact (fmpq)."""

    prior: tuple
    model: Kernel
    mechanism: Kernel
    loss: tuple
    n: int = 1

    def joint_rows(self):
        """Rows of P_{Zⁿ|θ} = P_{Xⁿ|θ} ∘ K^{⊗n}."""
        X = Kernel(_rows_power(self.model.rows, self.n))
        return (X @ self.mechanism.tensor_power(self.n)).rows if self.n > 1 else (X @ self.mechanism).rows

    def bayes_risk(self) -> fmpq:
        """R_B = Σ_z min_a Σ_θ π(θ) P(z|θ) ℓ(θ,a) — the exact Bayes risk of observing Zⁿ."""
        rows = self.joint_rows()
        total = fmpq(0)
        for z in range(len(rows[0])):
            total += min(sum((self.prior[th] * rows[th][z] * self.loss[th][a] for th in range(len(self.prior))),
                             fmpq(0)) for a in range(len(self.loss[0])))
        return total

    def small_ball(self):
        """[(ζ, L(ζ))]: at each distinct positive loss value ζ, L(ζ) = max_a P_θ(ℓ(θ,a) < ζ)."""
        values = sorted({v for row in self.loss for v in row if v > 0})
        return [(z, max(sum((self.prior[th] for th in range(len(self.prior)) if self.loss[th][a] < z), fmpq(0))
                        for a in range(len(self.loss[0])))) for z in values]

    def x_information(self, gamma=None):
        """I_γ(θ;Xⁿ) = E_γ(P_{θXⁿ}‖P_θ⊗P_{Xⁿ}) exact (γ given), or I(θ;Xⁿ) exact (γ None)."""
        from exactdp.measures.divergences import hockey_stick

        X = Kernel(_rows_power(self.model.rows, self.n))
        if gamma is None:
            return mutual_information(self.prior, X)
        marg = X.apply(self.prior)
        joint = [self.prior[th] * X.rows[th][x] for th in range(X.N) for x in range(X.M)]
        prod = [self.prior[th] * marg[x] for th in range(X.N) for x in range(X.M)]
        return hockey_stick(joint, prod, gamma)


def discrete_thm2_bound(problem: DiscreteBayesProblem, t, delta) -> RiskBound:
    r"""[A] Thm 2 [RECON A-14] on a discrete problem: max over the loss values ζ of
    ζ[1 − t·L(ζ) − ψ_n I_t(θ;Xⁿ)]₊ (L is constant between consecutive loss values, so these ζ suffice)."""
    T = exact_t(t)
    if not T.is_Rational:
        raise ParameterError(f"t: the discrete Thm 2 bound needs a rational t = e^eps, got {T}")
    psi = psi_coefficient(t, delta, problem.n)
    Ig = as_sympy(problem.x_information(to_qq(T)))
    best = sympy.Integer(0)
    for z, L in problem.small_ball():
        best = sympy.Max(best, as_sympy(z) * (1 - T * as_sympy(L) - psi * Ig))
    v, kind = exact_or_symbolic(best)
    return RiskBound(SPECS["thm2_bayes"], v, kind, {"n": problem.n})


def discrete_xu_raginsky_bound(problem: DiscreteBayesProblem, t, delta) -> RiskBound:
    r"""Private Xu–Raginsky [RECON A-15] on a discrete problem: max over loss values ζ with L(ζ) < 1 of
    ζ[1 − (φⁿ I(θ;Xⁿ) + log 2)/log(1/L(ζ))]₊ (a symbolic maximum; evaluate with a certified ball)."""
    a = as_sympy(phi_n(t, delta, problem.n)) * problem.x_information() + LOG2
    terms = [sympy.Integer(0)] + [as_sympy(z) * (1 - a / sympy.log(1 / as_sympy(L)))
                                  for z, L in problem.small_ball() if 0 < L < 1]
    return RiskBound(SPECS["xu_raginsky"], sympy.Max(*terms, evaluate=False), "symbolic", {"n": problem.n})
