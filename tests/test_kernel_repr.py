"""Kernel repr/str: whole (and evaluable) for small kernels, numpy-style summaries for large ones."""

from exactdp import Kernel
from exactdp.kernels import REPR_EDGE, REPR_FULL
from exactdp.mechanisms import randomized_response


def test_small_kernel_repr_evaluates_back():
    K = randomized_response(3, t=3)
    assert repr(K) == "Kernel([['3/5', '1/5', '1/5'], ['1/5', '3/5', '1/5'], ['1/5', '1/5', '3/5']])"
    assert eval(repr(K), {"Kernel": Kernel}) == K  # test-only: the repr is Python for a small kernel


def test_large_kernel_repr_is_summarised():
    K = randomized_response(30, t=3)
    r = repr(K)
    assert r.endswith("], N=30, M=30)") and len(r) < 600
    first = r[len("Kernel([["):r.index("]")]
    assert first == "'3/32', '1/32', '1/32', ..., '1/32', '1/32', '1/32'"
    assert r.count("[") == 1 + 2 * REPR_EDGE  # the outer list and 2·edge rows; the rows left out are one "..."
    assert "1/32']], ..., [[" not in r and "], ..., ['" in r
    lines = str(K).splitlines()
    assert lines[0] == "RR_30 (30×30, QQ)" and len(lines) == 1 + 2 * REPR_EDGE + 1
    assert lines[REPR_EDGE + 1].split() == ["..."] * (2 * REPR_EDGE + 1)


def test_threshold():
    K = Kernel([["1/2", "1/2"]] * (REPR_FULL // 2))
    assert "..." not in repr(K)
    K = Kernel([["1/2", "1/2"]] * (REPR_FULL // 2 + 1))
    assert repr(K).endswith(f"N={REPR_FULL // 2 + 1}, M=2)") and "..." in repr(K)
