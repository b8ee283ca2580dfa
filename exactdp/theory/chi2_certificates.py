r"""Certificate: Asoodeh–Zhang's η_χ²(K) ≤ ((t − 1)/(t + 1))² for t-LDP kernels with two inputs (B-8, N = 2).

Two inputs, P = (α, 1 − α), Q = (β, 1 − β), rows a_y = K_0(y), b_y = K_1(y), m_y = αa_y + (1 − α)b_y.
Per output, KQ(y) − KP(y) = (β − α)(a_y − b_y) and χ²(Q‖P) = (β − α)²/(α(1 − α)), so

    χ²(KQ‖KP) / χ²(Q‖P) = α(1 − α) Σ_y (a_y − b_y)²/m_y = Σ_y [(a_y + b_y) − a_y b_y/m_y − m_y]
                        = 1 − Σ_y b_y φ_α(r_y),   φ_α(r) = r/(αr + 1 − α),  r_y = a_y/b_y,

whatever β ≠ α: η_χ²(K) = sup_α of it.  t-LDP puts every r_y in [1/t, t] (and a_y = 0 ⟺ b_y = 0: such outputs
drop out).  φ_α is concave, so it lies above its chord λ_α on [1/t, t] (its slope (φ_α(t) − φ_α(1/t))/(t − 1/t)
simplifies to t(1 − α)/((αt + 1 − α)(α + t − αt)), so the chord is written for every t ≥ 1, t = 1 included: ε = 0
forces equal rows and η_χ² = 0); λ_α is affine, so
Σ_y b_y λ_α(r_y) = λ_α(1)·Σ b_y + slope·(Σ a_y − Σ b_y) = λ_α(1).  Hence the ratio is ≤ 1 − λ_α(1), which is the
same ratio for binary randomized response, and that is ≤ ((t − 1)/(t + 1))² with equality at α = 1/2.

Each step is a statement the prover decides (:class:`~exactdp.algebra.certificates.statements.SymbolicStatements`):
per-output identities (the sums over y use only Σ_y a_y = Σ_y b_y = 1), the chord inequality on
0 < α < 1, t ≥ 1, 1/t ≤ r ≤ t, and the randomized-response inequality.  Scope: N = 2 inputs, every M.
"""

from __future__ import annotations

from exactdp.algebra.certificates.statements import SymbolicStatements

_PHI = "r/(alpha*r + 1 - alpha)"
#: the chord's slope (φ_α(t) − φ_α(1/t))/(t − 1/t), simplified so that it is defined at t = 1 too
_SLOPE = "t*(1 - alpha)/((alpha*t + 1 - alpha)*(alpha + t - alpha*t))"
_CHORD = f"1/(alpha + t - alpha*t) + {_SLOPE}*(r - 1/t)"
_RR = "alpha*(1 - alpha)*(t - 1)**2/((alpha*t + 1 - alpha)*(alpha + t - alpha*t))"


def asoodeh_zhang_two_inputs() -> SymbolicStatements:
    """The statements of the module docstring's proof (B-8 for N = 2, every M)."""
    chord_at = lambda x: _CHORD.replace("(r - 1/t)", f"({x} - 1/t)")  # noqa: E731
    return SymbolicStatements(
        name="B-8 for two inputs: eta_chi2(K) <= ((t-1)/(t+1))^2 for t-LDP K",
        parameters=("alpha", "beta", "a", "b", "r", "t"), sizes="N = 2",
        region=("alpha > 0", "alpha < 1", "t >= 1"),
        statements=(
            ("per output: KQ(y) - KP(y) = (beta - alpha)(a - b), squared over KP(y) = m; summed and divided by "
             "chi2(Q||P) = (beta - alpha)^2/(alpha (1 - alpha)), beta != alpha, the ratio is alpha (1 - alpha) sum (a - b)^2/m",
             "((beta*a + (1 - beta)*b) - (alpha*a + (1 - alpha)*b))**2/(alpha*a + (1 - alpha)*b)"
             " / ((beta - alpha)**2/(alpha*(1 - alpha)))",
             "==", "alpha*(1 - alpha)*(a - b)**2/(alpha*a + (1 - alpha)*b)", ("a > 0", "b > 0")),
            ("per output: alpha (1 - alpha)(a - b)^2/m = (a + b) - a b/m - m; summed (sum a = sum b = sum m = 1): "
             "1 - sum_y a b/m",
             "alpha*(1 - alpha)*(a - b)**2/(alpha*a + (1 - alpha)*b)", "==",
             "(a + b) - a*b/(alpha*a + (1 - alpha)*b) - (alpha*a + (1 - alpha)*b)", ("a > 0", "b > 0")),
            ("per output: a b/m = b phi_alpha(a/b)", "a*b/(alpha*a + (1 - alpha)*b)", "==",
             f"b*Subs({_PHI}, r, a/b)", ("a > 0", "b > 0")),
            ("chord: phi_alpha(r) >= lambda_alpha(r) for 1/t <= r <= t (t-LDP: a/b in [1/t, t])",
             _PHI, ">=", _CHORD, ("r >= 1/t", "r <= t")),
            ("per output: b lambda_alpha(a/b) = b lambda_alpha(1) + slope (a - b); summed (sum a = sum b = 1): "
             "sum_y b lambda_alpha(r_y) = lambda_alpha(1)",
             f"b*Subs({_CHORD}, r, a/b)", "==",
             f"b*Subs({_CHORD}, r, 1) + (a - b)*{_SLOPE}", ("a > 0", "b > 0")),
            ("1 - lambda_alpha(1) is the ratio of binary randomized response at alpha", f"1 - ({chord_at('1')})",
             "==", _RR, ()),
            ("randomized response: its ratio <= ((t - 1)/(t + 1))^2 for every alpha (equality at 1/2)",
             _RR, "<=", "((t - 1)/(t + 1))**2", ()),
        ))
