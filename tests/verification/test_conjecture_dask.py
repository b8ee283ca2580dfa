"""Determinism of the chunked search across executors (issue 9): in-process, local processes and a local
multi-worker dask.distributed cluster give the same result for the same seed and budget."""

import pytest

from exactdp.verification.conjecture import check

distributed = pytest.importorskip("distributed")


def _comparable(r):
    d = r.to_dict()
    d["stats"] = {k: v for k, v in d["stats"].items() if k not in ("seconds", "executor")}
    return d


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None,
                                  silence_logs=50) as cl:
        yield cl


@pytest.mark.slow
@pytest.mark.parametrize("text, cls, N, M, verdict", [
    # no counterexample: every chunk runs
    ("kl(K(P),K(Q)) <= eps*(exp(eps)-1)/(exp(eps)+1)*tv(P,Q)", "ldp", "2..3", "2..3", "no-counterexample"),
    # refuted in a late chunk (a random + climb one), while later chunks were already running
    ("kl(K(P),K(Q)) <= eps*(exp(eps)-1)/(exp(eps)+1)*tv(P,Q)*9/10", "ldp", 3, 3, "refuted"),
])
def test_same_result_on_one_process_and_on_a_local_cluster(cluster, text, cls, N, M, verdict):
    serial = check(text, cls, N=N, M=M, budget=400 if verdict == "refuted" else 160, seed=7, chunk_size=20)
    on_dask = check(text, cls, N=N, M=M, budget=400 if verdict == "refuted" else 160, seed=7, chunk_size=20,
                    scheduler=cluster)
    assert serial.verdict == verdict
    assert _comparable(serial) == _comparable(on_dask)
    assert on_dask.stats["executor"].startswith("dask")
    assert serial.stats["chunks"] == on_dask.stats["chunks"] >= 1


def test_local_process_pool_matches():
    t = "eta_tv <= eps"  # true for eps-LDP (eta_tv <= tanh(eps/2)), outside the prover's rational fragment
    a = check(t, "ldp", budget=120, seed=2, chunk_size=20)
    b = check(t, "ldp", budget=120, seed=2, chunk_size=20, workers=2)
    assert _comparable(a) == _comparable(b) and a.verdict == "no-counterexample"
    assert a.stats["chunks"] == 6


def test_unreachable_scheduler_is_a_clear_error(monkeypatch):
    from exactdp.errors import ExactDPError

    def refuse(*args, **kwargs):
        raise OSError("Timed out trying to connect to tcp://127.0.0.1:9")

    monkeypatch.setattr(distributed, "Client", refuse)
    with pytest.raises(ExactDPError, match="--scheduler: cannot connect"):
        check("eta_tv <= 1", budget=10, scheduler="tcp://127.0.0.1:9")
