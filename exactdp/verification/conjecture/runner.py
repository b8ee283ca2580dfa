r"""Running the chunks of a search in order, locally or on a Dask cluster, and merging them deterministically.

Three executors run the same pure function :func:`.search.run_chunk`:

* in-process (``workers=1``, the default);
* a local process pool (``workers=W > 1``, :class:`concurrent.futures.ProcessPoolExecutor`);
* a ``dask.distributed`` cluster (``scheduler="tcp://host:8786"``, or a ``distributed.Client`` /
  ``LocalCluster`` object); the workers must be able to import ``exactdp`` (``pip install exactdp[dask]``).

Chunks are consumed strictly in index order with a bounded window of outstanding futures.  The run stops at
the first chunk (in index order) holding a certified violation; later futures are cancelled.  Hence the
merged result — counterexample, closest approach, counts — is the same for the same (seed, budget) on any
executor.  The optional ``max_seconds`` cap is the one exception: it stops consuming chunks on the clock,
and the result then says that it may differ between runs.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor

from exactdp.numbers import loglin as V
from exactdp.verification.conjecture.search import ChunkResult, SearchSpec, better, key_from_str, run_chunk


class _Serial:
    """A trivial executor: futures that run when asked for their result."""

    class _F:
        def __init__(self, fn, args):
            self.fn, self.args = fn, args

        def result(self):
            return self.fn(*self.args)

        def cancel(self):
            return True

    def submit(self, fn, *args, **_):
        return self._F(fn, args)


class Merged:
    """The merge of chunk results in index order."""

    def __init__(self):
        self.kernels: dict = {}
        self.tried = 0
        self.instances = self.undecided = self.undefined = self.outside = 0
        self.best, self.best_score = None, None
        self.counterexample = None
        self.undecided_example = None
        self.undefined_reason = None
        self.chunks = 0

    def add(self, r: ChunkResult) -> None:
        self.chunks += 1
        for k, v in r.kernels.items():
            self.kernels[k] = self.kernels.get(k, 0) + v
        self.tried += r.tried
        self.instances += r.instances
        self.undecided += r.undecided
        self.undefined += r.undefined
        self.outside += r.outside
        if self.undecided_example is None:
            self.undecided_example = r.undecided_example
        if self.undefined_reason is None:
            self.undefined_reason = getattr(r, "undefined_reason", None)
        s = key_from_str(r.best_score)
        if r.best is not None and better(s, self.best_score):
            self.best, self.best_score = r.best, s
        if r.counterexample is not None and self.counterexample is None:
            self.counterexample = r.counterexample


def open_executor(scheduler, workers: int):
    """(executor, closer): a Dask client for ``scheduler``, a process pool for workers > 1, else serial.

    ``closer()`` shuts the executor down in order; ``closer(abort=True)`` (after an exception: Ctrl-C, the
    command line's SIGTERM exception, an error) stops a process pool's workers at once
    (:func:`stop_pool`), so that none outlives the run.
    Shared by the conjecture search and ``exactdp verify`` (:func:`exactdp.verification.engine.verify`)."""
    if scheduler is not None:
        from exactdp.errors import InputError

        try:
            import distributed
        except ImportError as exc:
            raise InputError(f"--scheduler: dask.distributed is not installed ({exc}); "
                               f"pip install 'exactdp[dask]'") from None
        if hasattr(scheduler, "submit") and hasattr(scheduler, "scheduler_info"):  # a Client
            wait_for_a_worker(scheduler, getattr(getattr(scheduler, "scheduler", None), "address", "the client's"))
            return scheduler, lambda abort=False: None
        if not hasattr(scheduler, "scheduler_address"):
            probe_scheduler(str(scheduler))  # a listener that is not a Dask scheduler: dask's handshake hangs
        try:
            if hasattr(scheduler, "scheduler_address"):  # a LocalCluster object
                client = distributed.Client(scheduler)
            else:
                client = distributed.Client(str(scheduler), timeout="5s")  # a dead address fails within 10 s
        except (OSError, TimeoutError, ValueError, TypeError) as exc:  # unreachable, or not an address
            from exactdp.limits import quote

            raise InputError(f"--scheduler: cannot connect to {quote(scheduler)}: {str(exc)[:200]} "
                               f"(expected an address like tcp://host:8786)") from None
        try:
            wait_for_a_worker(client, getattr(scheduler, "scheduler_address", scheduler))
        except InputError:
            client.close()
            raise
        return client, lambda abort=False: client.close()
    if workers > 1:
        pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_signals)

        def close(abort: bool = False) -> None:
            if abort:
                stop_pool(pool)
            else:
                pool.shutdown(cancel_futures=True)

        return pool, close
    return _Serial(), lambda abort=False: None


def _worker_signals() -> None:
    """In a worker process: SIGTERM kills (the parent's handler, inherited by ``fork``, would turn it into
    an exception that the pool's worker loop catches and survives)."""
    import signal

    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def stop_pool(pool: ProcessPoolExecutor, grace: float = 5.0) -> None:
    """Stop the worker processes of ``pool`` now: pending work cancelled, every worker sent SIGTERM (SIGKILL
    after ``grace`` seconds) and reaped, with SIGINT and SIGTERM held back meanwhile."""
    from exactdp.atomic_io import signals_held

    with signals_held():
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for p in processes:
            p.terminate()
        for p in processes:
            p.join(grace)
            if p.is_alive():  # pragma: no cover - a worker ignoring SIGTERM
                p.kill()
                p.join(grace)


#: seconds a scheduler address has to send the first bytes of dask's handshake (at most scheduler_wait)
HANDSHAKE_SECONDS = 10


def probe_scheduler(address: str) -> None:
    """Refuse a ``tcp://host:port`` address whose listener does not start dask's handshake: a Dask scheduler
    writes its handshake message (a frame count, a little-endian 64-bit integer below 2^16) as soon as a
    connection opens, while ``distributed.Client`` would wait for ever on a listener that accepts and says
    nothing (an HTTP server, a plain socket).  Waits at most min(:data:`HANDSHAKE_SECONDS`,
    ``scheduler_wait``) seconds; other schemes (``tls://``, ``inproc://``) are left to dask."""
    import socket

    from exactdp.errors import InputError
    from exactdp.limits import how_to_raise, limit, quote

    scheme, sep, rest = address.partition("://")
    if sep and scheme != "tcp":
        return
    host, _, port = (rest if sep else address).rpartition(":")
    if not host or not port.isdigit():
        return  # not host:port: distributed.Client reports it
    seconds = min(HANDSHAKE_SECONDS, limit("scheduler_wait"))
    first = b""
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=seconds) as sock:
            sock.settimeout(seconds)
            while len(first) < 8:
                chunk = sock.recv(8 - len(first))
                if not chunk:
                    break
                first += chunk
    except TimeoutError:
        pass
    except OSError as exc:  # refused, unreachable: distributed.Client reports it as it does today
        if not first:
            raise InputError(f"--scheduler: cannot connect to {quote(address)}: {str(exc)[:200]} "
                             f"(expected an address like tcp://host:8786)") from None
    if len(first) < 8 or not 0 < int.from_bytes(first, "little") < 2**16:
        what = "sent nothing" if not first else "answered with something else"
        raise InputError(f"--scheduler: {quote(address)} is not a Dask scheduler: it {what} within {seconds} s "
                         f"of connecting (a scheduler starts dask's handshake at once); the wait is the smaller "
                         f"of {HANDSHAKE_SECONDS} s and the limit scheduler_wait: {how_to_raise('scheduler_wait')}")


def result_of(ex, future):
    """``future.result()``, with a bounded wait on a Dask cluster that has lost every worker (see
    :func:`as_completed`)."""
    if not is_dask(ex):
        return future.result()
    for done in as_completed(ex, [future]):
        return done.result()


class WatchedClient:
    """A dask client for code that only calls ``submit(fn, *args)`` and ``future.result()`` (the tensor
    search's exhaustive phase): each result is awaited by :func:`result_of`, so losing every worker ends
    with a message and a bounded wait instead of a silent one."""

    def __init__(self, client):
        self.client = client

    def submit(self, fn, *args):
        future = submit(self.client, fn, *args)
        return _WatchedFuture(self.client, future)


class _WatchedFuture:
    def __init__(self, client, future):
        self.client, self.future = client, future

    def result(self):
        return result_of(self.client, self.future)

    def cancel(self):
        return self.future.cancel()


def _no_worker_left(ex, since: float | None) -> float | None:
    """Track how long the cluster of ``ex`` has had no worker: None while it has one; the moment it lost the
    last one (and a message on stderr) otherwise; past ``scheduler_wait`` seconds an error."""
    from exactdp.errors import InputError
    from exactdp.limits import how_to_raise, limit

    try:
        workers = len(ex.scheduler_info().get("workers", {}))
    except Exception:  # noqa: BLE001 - the scheduler itself went away: treat as no worker
        workers = 0
    if workers:
        return None
    now = time.monotonic()
    seconds = limit("scheduler_wait")
    if since is None:
        print(f"exactdp: every dask worker has left the scheduler; waiting up to {seconds} s for one to join",
              file=sys.stderr, flush=True)
        return now
    if now - since > seconds:
        raise InputError(f"--scheduler: every worker left the scheduler and none joined within {seconds} s; the "
                         f"wait is the limit scheduler_wait: {how_to_raise('scheduler_wait')}")
    return since


def wait_for_a_worker(client, address) -> None:
    """Return once at least one worker has joined the cluster of ``client``; a scheduler without workers
    would otherwise queue the tasks for ever.  Waits at most ``limit("scheduler_wait")`` seconds (default
    60), then raises :class:`~exactdp.errors.InputError` naming the address and how to wait longer."""
    from exactdp.errors import InputError
    from exactdp.limits import how_to_raise, limit, quote

    seconds = limit("scheduler_wait")
    try:
        client.wait_for_workers(1, timeout=seconds)
    except (TimeoutError, OSError):  # distributed's WorkerStartTimeoutError is a TimeoutError
        raise InputError(f"--scheduler: no worker joined the scheduler {quote(address)} within {seconds} s "
                         f"(start one: dask worker ADDRESS); the wait is the limit scheduler_wait: "
                         f"{how_to_raise('scheduler_wait')}") from None


def run_search(spec: SearchSpec, *, scheduler=None, workers: int = 1, progress=None,
               max_seconds: float | None = None) -> tuple[Merged, dict]:
    """Run every chunk of ``spec`` (stopping at the first refuting chunk); return (merged, run info)."""
    t0 = time.perf_counter()
    merged = Merged()
    ex, close = open_executor(scheduler, workers)
    window = 1 if isinstance(ex, _Serial) else max(2, 2 * max(workers, _n_workers(ex)))
    pending: dict = {}
    capped = finished = False
    try:
        nxt = 0
        for k in range(spec.n_chunks):
            while nxt < spec.n_chunks and nxt < k + window:
                pending[nxt] = submit(ex, run_chunk, spec, nxt)
                nxt += 1
            r = result_of(ex, pending.pop(k))
            merged.add(r)
            if progress is not None:
                progress(merged, spec)
            if merged.counterexample is not None:
                break
            if max_seconds is not None and time.perf_counter() - t0 > max_seconds:
                capped = True
                break
        finished = True
    finally:
        for f in pending.values():
            f.cancel()
        close(abort=not finished)
    info = {"seconds": round(time.perf_counter() - t0, 3), "executor": describe(scheduler, workers),
            "time_capped": capped}
    return merged, info


def submit(ex, fn, *args):
    """``ex.submit(fn, *args)``; on a dask Client with explicit keys, never cached across runs."""
    if is_dask(ex):
        return ex.submit(fn, *args, pure=False)
    return ex.submit(fn, *args)


def is_dask(ex) -> bool:
    """Whether the executor is a ``distributed.Client``."""
    return hasattr(ex, "scheduler_info")


def as_completed(ex, futures):
    """The futures of ``ex`` in the order they finish (dask's or concurrent.futures' ``as_completed``)."""
    if is_dask(ex):
        return _dask_as_completed(ex, futures)
    from concurrent.futures import as_completed as cf_as_completed

    return cf_as_completed(futures)


def _dask_as_completed(ex, futures, poll: float = 1.0):
    """Dask futures as they finish; when every worker has left, one line on stderr and at most
    ``scheduler_wait`` seconds for a worker to join (then an :class:`~exactdp.errors.InputError`): dask
    itself would keep the tasks queued for ever."""
    from distributed import wait

    pending, lost_since = list(futures), None
    while pending:
        try:
            done, _ = wait(pending, timeout=poll, return_when="FIRST_COMPLETED")
        except TimeoutError:  # nothing finished within poll seconds: is any worker left?
            lost_since = _no_worker_left(ex, lost_since)
            continue
        lost_since = None
        yield from (f for f in pending if f in done)
        pending = [f for f in pending if f not in done]


def _n_workers(ex) -> int:
    try:
        return max(1, len(ex.scheduler_info().get("workers", {})))
    except Exception:  # noqa: BLE001 - not a dask client
        return 1


def describe(scheduler, workers: int) -> str:
    if scheduler is not None:
        return f"dask ({getattr(scheduler, 'scheduler_address', scheduler)})"
    return f"{workers} local processes" if workers > 1 else "in-process"


def progress_bar(stream=None):
    """A progress callback drawing ``[#####.....] kernels  best slack`` on stderr."""
    stream = stream or sys.stderr

    def draw(merged: Merged, spec: SearchSpec):
        done = min(merged.chunks * spec.chunk_size, spec.budget)
        width = 30
        fill = int(width * done / max(spec.budget, 1))
        best = "-" if merged.best_score is None else _short(merged.best_score)
        flag = "  COUNTEREXAMPLE" if merged.counterexample is not None else ""
        stream.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {merged.tried} kernels "
                     f"(budget {spec.budget})  best slack {best}{flag}   ")
        if done >= spec.budget or merged.counterexample is not None:
            stream.write("\n")
        stream.flush()

    return draw


def _short(key) -> str:
    score = key[0]
    if isinstance(score, V.Inf):
        return str(score)
    from flint import arb

    return arb(score).str(5, radius=False)
