r"""[G] Def. 1 and Prop. 1 (G-6, G-7, D-8): pointwise maximal leakage and its closed form.

Statement: ℓ_{K×P}(X→y) = log sup_g sup_{P_W|Y} E[g(X,W)|Y=y] / max_w E[g(X,w)]  (Def. 1, gain functions)
           = log max_{x∈supp P} K(y|x)/(K∘P)(y) = D_∞(P_{X|Y=y} ‖ P_X)  (Prop. 1).
Checked:   the closed form (``pml``) equals max_x P(x|y)/P(x) computed through Bayes' rule, exactly; for
           random finite non-negative gain matrices the gain ratio never exceeds the closed form, and
           the "guess x" gain g(x, w) = 1{x = w}/P(x) attains it.
Not shown: Def. 1 over all gain functions and all 𝒲 (an operational definition): only finite 𝒲 and
           sampled gains; the Prop. 1 value is an upper bound for each and attained by one.
"""

from flint import fmpq

from exactdp.measures.privacy import pml
from exactdp.sources import GROSSE2026, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register
from exactdp.verification.quantities import gain_leakage_ratio, pml_by_bayes


def _instances(ctx, salt):
    rng = ctx.rng(salt)
    for k in range(ctx.size(20, 150)):
        K = inst.random_kernel(rng, 2 + k % 3, 2 + k % 3)
        P = inst.random_distribution(rng, K.N)
        out = K.apply(P)
        y = next(y for y in range(K.M) if out[y] != 0)
        yield rng, K, P, y


def _bayes(ctx):
    def test(x):
        _, K, P, y = x
        a, b = pml(K, P, y).ratio, pml_by_bayes(K, P, y)
        return a == b, exact_data(K=K, P=P, y=y, closed_form=a, bayes=b)

    return check_instances([("random (K, P, y)", _instances(ctx, "p1"))], test, claim="Prop. 1 = D_inf via Bayes")


def _gains(ctx):
    def test(x):
        rng, K, P, y = x
        value = pml(K, P, y).ratio
        ident = [[(1 / P[a] if a == b and P[a] != 0 else fmpq(0)) for b in range(K.N)] for a in range(K.N)]
        if gain_leakage_ratio(K, P, y, ident) != value:
            return False, exact_data(K=K, P=P, y=y, closed_form=value, guess_x_gain="does not attain")
        for _ in range(4):
            W = rng.randint(1, 4)
            G = [[fmpq(rng.randint(0, 5)) for _ in range(W)] for _ in range(K.N)]
            if max(sum((P[x] * G[x][w] for x in range(K.N)), fmpq(0)) for w in range(W)) == 0:
                continue  # the gain is 0 P-almost surely: the ratio is undefined
            r = gain_leakage_ratio(K, P, y, G)
            if r > value:
                return False, exact_data(K=K, P=P, y=y, gain=G, gain_ratio=r, closed_form=value)
        return True, {}

    return check_instances([("random (K, P, y) x 4 gain matrices", _instances(ctx, "p1g"))], test,
                           claim="gain ratios <= Prop. 1 value, attained by the guess-x gain")


register(Claim(
    id="grosse2026.prop1_pml",
    catalogue=("D-8", "G-6", "G-7"),
    source=Source(GROSSE2026, "Definition 1 and Proposition 1", section="II-B"),
    title="Pointwise maximal leakage: gain-function definition and closed form",
    statement=r"\ell_{K\times P_X}(X\to y)=\log\frac{\max_{x\in\mathrm{supp}P_X}K_{Y|X=x}(y)}{(K\circ P_X)(y)}=D_\infty(P_{X|Y=y}\|P_X)",
    hypotheses="finite alphabets, `KP(y) > 0` for the output distribution `KP`",
    checks=(Check("Bayes form", _bayes), Check("gain functions", _gains)),
    expected=Verdict.VERIFIED,
    formulas=("pml(K, P, y) = log(max_supp_K_y/K_P_y)", "log(max_supp_K_y/K_P_y) = D_inf(P_X_given_y, P_X)"),
))
