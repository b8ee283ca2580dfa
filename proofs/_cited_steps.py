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

#: the convexity of x log x on x > 0 (its second derivative is 1/x), cited by [G] Cor 1: the convexity instances
#: Binette's lemma combines are, for KL, facts about logarithms outside the prover's fragment (for H^2 and chi^2
#: the lemma checks them as chord statements)
KL_CONVEX = ("the convexity of x log x on x > 0 (T. M. Cover, J. A. Thomas, Elements of Information Theory, 2nd ed., "
             "2006, Sec. 2.6: convex since its second derivative 1/x is positive)")
