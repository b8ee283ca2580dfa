"""Structural lemmas quoted as derivation steps, their formulas marked for the safe reader
(:func:`exactdp.numbers.formula_text.written_step`); the lemmas' certificates are carried by the outcomes that
quote them (:mod:`exactdp.theory.structural_lemmas`)."""

from __future__ import annotations

from exactdp.theory import structural_lemmas as SL

#: :data:`exactdp.theory.class_certificates.TWO_POINT` with its formulas marked (its certificates are listed
#: with the outcome's, not in the line)
TWO_POINT = (f"the lemma '{SL.TWO_POINT.name}' (its certificates are carried by the outcome): if "
             "`K_x(A) - K_xp(A) <= D` for all rows x, x' and sets A, then `TV(K*P, K*Q) <= D*TV(P, Q)` for all P, "
             "Q, so `eta_tv(K) <= D`, every N, M")

#: B-6, cited by name by [G] Thm 4, its corollaries and B-7's f form (not a claim of ours: the literature)
BINETTE = "Binette's reverse Pinsker inequality (O. Binette, A Note on Reverse Pinsker Inequalities, IEEE T-IT 65(7), 2019)"
