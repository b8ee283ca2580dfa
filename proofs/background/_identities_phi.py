r"""[A] §III — the φ and φⁿ identities (D-13, B-10, A-7, A-8; docs/claims.md §7 "Symbolic identities").

Statements (t = e^ε ≥ 1, δ ∈ [0, 1], n ≥ 1):
* ``background.phi_n_identity``: φⁿ(ε,δ) = 1 − e^{−nε}(1−δ)ⁿ equals φ(nε, 1−(1−δ)ⁿ), i.e. tensorization
  and KOV composition give the same constant; φⁿ is a label, not a power (F-A1).
* ``asoodeh2021.a07_phi_vs_tight``: φ(ε,δ) − (e^ε−1+2δ)/(e^ε+1) = (1−δ)(e^ε−1)/(e^ε(e^ε+1)) ≥ 0, with
  equality exactly on t = 1 or δ = 1 (the crossing curves reported by the prover).
Checked: exact identities (cancellation in ℚ(t, δ) with symbolic n) and the exact two-parameter
decision of the inequality on t ≥ 1, 0 ≤ δ ≤ 1.
Not shown: that the tight value (B-4) is the supremum (that is an LP claim of another module).
"""


from exactdp.bounds import delta, t

tight = (t - 1 + 2 * delta) / (t + 1)
gap = (1 - delta) * (t - 1) / (t * (t + 1))
