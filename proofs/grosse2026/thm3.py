r"""Grosse et al. 2026, Theorem 3 — the contraction regime ε < log(2/(Nc)).

Statement (G-18): if t = e^ε < 2/(Nc) then η_TV(ε,c) ≤ (t−1)/(t(1−Nc)+1) (< 1).

Checked:
* ``certificate`` (symbolic, all parameters) — the paper's key inequality is the (ε,c)-PML constraint
  of a binary kernel; adding the output-0 constraint for the pair (x, x') and the output-1 constraint for
  (x', x) gives, identically in a, b, S, t, c, N (sympy),
  [a − t(cS + (1−Nc)b)] + [(1−b) − t(c(N−S) + (1−Nc)(1−a))] = (a−b)(1 + t(1−Nc)) − (t−1),
  so a − b ≤ (t−1)/(1 + t(1−Nc)).  With Lemma 3 (merging outputs, G-17) this bounds every kernel.
* ``lp`` — on the grid below the switch, the exact LP supremum (M = 2, 3) equals (t−1)/(t(1−Nc)+1) < 1,
  with dual certificates; so no kernel in the regime has two rows of disjoint support (G-16 converse).

Not shown: irrational t.  The symbolic step proves the bound for binary kernels only; the reduction of
general kernels to binary ones is Lemma 3, checked (not proved) in lem3_binary_outputs.
"""

from __future__ import annotations

import sympy

from exactdp.sources import GROSSE2026, Source
from exactdp.theory.extremal import sup_eta_tv
from exactdp.verification.claims import Check, CheckContext, Claim, Outcome, Verdict, register

from ._instances import pml_grid


def check_certificate(ctx: CheckContext) -> Outcome:
    a, b, S, t, c, N = sympy.symbols("a b S t c N", real=True)
    out0 = a - t * (c * S + (1 - N * c) * b)  # <= 0: output 0, rows x (max) and x' (min)
    out1 = (1 - b) - t * (c * (N - S) + (1 - N * c) * (1 - a))  # <= 0: output 1, rows x' and x
    identity = sympy.expand(out0 + out1 - ((a - b) * (1 + t * (1 - N * c)) - (t - 1)))
    if identity != 0:
        return Outcome(Verdict.REFUTED, "the two PML constraints do not add up as claimed",
                       counterexample={"residual": str(identity)})
    return Outcome(Verdict.PROVED, "adding two (eps,c)-PML constraints gives the Theorem 3 bound for binary "
                   "kernels, for all t, c, N", derivation=(
                       "output 0, rows (x, x'): a <= t(cS + (1-Nc) b)",
                       "output 1, rows (x', x): 1-b <= t(c(N-S) + (1-Nc)(1-a))",
                       "sum - ((a-b)(1+t(1-Nc)) - (t-1)) expands to 0 (sympy)",
                       "1 + t(1-Nc) > 0 for c <= 1/N, so a - b <= (t-1)/(t(1-Nc)+1)",
                       "eta_TV of a binary kernel is max a - min b; Lemma 3 reduces M outputs to 2"))


def check_lp(ctx: CheckContext) -> Outcome:
    n = 0
    for N, t, c in pml_grid(ctx.quick):
        if t * N * c >= 2:
            continue
        bound = (t - 1) / (t * (1 - N * c) + 1)
        for M in (2, 3):
            r = sup_eta_tv(N, M, t=t, c=c)
            bad = r.failures()
            if r.value != bound or not bound < 1 or bad:
                return Outcome(Verdict.REFUTED, "LP supremum differs from the Theorem 3 bound", counterexample={
                    "N": str(N), "M": str(M), "t": str(t), "c": str(c), "lp_value": str(r.value),
                    "bound": str(bound), "kernel": r.kernel.as_strings(), "problems": bad})
            n += 1
    return Outcome(Verdict.VERIFIED, f"contraction regime: exact LP supremum = (t-1)/(t(1-Nc)+1) < 1 at {n} points",
                   instances=n, families=(("grid below t = 2/(Nc), M = 2, 3", n),))


CLAIM = register(Claim(
    id="grosse2026.thm3",
    catalogue=("G-18",),
    source=Source(GROSSE2026, "Theorem 3", section="III"),
    title="Contraction regime: eta_TV(eps,c) <= (e^eps - 1)/(e^eps(1-Nc)+1) for eps < log(2/(Nc))",
    statement=r"\varepsilon<\log\frac{2}{Nc}\Rightarrow\eta_{TV}(\varepsilon,c)\le"
              r"\frac{e^\varepsilon-1}{e^\varepsilon(1-Nc)+1}",
    hypotheses="N >= 2, c in (0, 1/N], 0 <= eps < log(2/(Nc))",
    checks=(Check("certificate", check_certificate, "symbolic: sum of two PML constraints"),
            Check("lp", check_lp, "exact LP supremum below the switch")),
    expected=Verdict.VERIFIED,
))
