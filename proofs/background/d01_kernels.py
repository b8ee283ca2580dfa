r"""D-1, [G] §II notation (G-4): Markov kernels, output and joint distributions.

Statement: K ∈ 𝒮_{N,M} (row-stochastic), (K∘P)(y) = Σ_x P(x)K(y|x), (K×P)(x,y) = K(y|x)P(x).
Checked:   the exact validator accepts every random exact kernel and rejects matrices with a row sum
           ≠ 1, a negative entry, an entry > 1 or ragged rows; K∘P and K×P are distributions whose
           marginals agree, recomputed from the definition.
Not shown: nothing beyond finite alphabets.
"""

from flint import fmpq

from exactdp.errors import InvalidKernelError
from exactdp.kernels import Kernel
from exactdp.sources import GROSSE2026, Source
from exactdp.verification import instances as inst
from exactdp.verification.checking import check_instances, exact_data
from exactdp.verification.claims import Check, Claim, Verdict, register

BAD = [
    [["1/2", "1/3"], ["1/2", "1/2"]],  # row sum 5/6
    [["3/2", "-1/2"], ["1/2", "1/2"]],  # negative entry / entry > 1
    [["1/2", "1/2"], ["1"]],  # ragged
    [],  # empty
]


def _validation(ctx):
    def rejects(rows):
        try:
            Kernel(rows)
        except InvalidKernelError:
            return True, {"rows": rows, "rejected": "yes"}
        return False, {"rows": rows, "rejected": "no"}

    def accepts(K):
        return Kernel(K.as_strings()) == K, exact_data(K=K)

    rng = ctx.rng("d1")
    return check_instances([("invalid matrices", BAD), ("random exact kernels",
                            (inst.random_kernel(rng, 1 + k % 4, 1 + k % 5) for k in range(ctx.size(10, 60))))],
                           lambda x: rejects(x) if isinstance(x, list) else accepts(x),
                           claim="the validator accepts exactly the row-stochastic matrices")


def _outputs(ctx):
    rng = ctx.rng("d1-out")

    def test(i):
        K = inst.random_kernel(rng, 2 + i % 3, 2 + i % 4)
        P = inst.random_distribution(rng, K.N)
        out = K.apply(P)
        manual = [sum((P[x] * K[x, y] for x in range(K.N)), fmpq(0)) for y in range(K.M)]
        joint = [[K[x, y] * P[x] for y in range(K.M)] for x in range(K.N)]
        ok = (list(out.probs) == manual and sum(out.probs, fmpq(0)) == 1
              and sum((v for r in joint for v in r), fmpq(0)) == 1
              and [sum((joint[x][y] for x in range(K.N)), fmpq(0)) for y in range(K.M)] == manual)
        return ok, exact_data(K=K, P=P, output=out.probs)

    return check_instances([("random (K, P)", range(ctx.size(20, 200)))], test,
                           claim="K∘P and K×P are distributions with matching marginals")


register(Claim(
    id="background.d01_kernels",
    catalogue=("D-1", "G-4"),
    source=Source(GROSSE2026, "notation", section="II"),
    title="Markov kernels, output and joint distributions",
    statement=r"K\in\mathcal S_{N,M},\quad (K\circ P)(y)=\sum_x P(x)K(y|x),\quad (K\times P)(x,y)=K(y|x)P(x)",
    hypotheses="finite alphabets, exact rational entries",
    checks=(Check("validation", _validation, "exact validator vs invalid and random matrices"),
            Check("output and joint", _outputs, "K∘P and K×P recomputed from the definition")),
    expected=Verdict.VERIFIED,
    kind="definition",
    formulas=("K_P(y) = sum_x_P_K(y)", "K_times_P(x, y) = K(y, x)*P(x)"),
))
