"""The ``--max-seconds`` alarm (exactdp.cli): it stops a run even where a library swallows one
TimeLimitError, and it does not cut the cleanups of a run it stops."""
from __future__ import annotations

import signal
import threading
import time

import pytest

from exactdp.atomic_io import signals_held
from exactdp.cli import TimeLimitError, _start_alarm, _stop_alarm


@pytest.fixture
def alarm():
    """Arm the command line's alarm at 0.05 s; disarm it and restore the SIGALRM handler afterwards."""
    previous = signal.getsignal(signal.SIGALRM)
    try:
        yield lambda: _start_alarm(0.05)
    finally:
        _stop_alarm()
        signal.signal(signal.SIGALRM, previous)


def test_an_alarm_swallowed_by_a_bare_except_is_raised_again(alarm):
    """A bare ``except:`` (mpmath's import of gmpy2 has one) catches the first TimeLimitError; a one-shot
    alarm then let the run finish (``exactdp --max-seconds 1 verify`` exited 0 once in CI)."""
    assert alarm() == 0.05
    swallowed = []
    with pytest.raises(TimeLimitError):
        try:
            time.sleep(5)
        except BaseException as exc:  # noqa: BLE001 - what the library does
            swallowed.append(type(exc))
        time.sleep(5)
    assert swallowed == [TimeLimitError]


def test_the_repeats_leave_the_cleanups_of_a_stopped_run_alone(alarm):
    """While the TimeLimitError unwinds, the repeats (every ALARM_REPEAT s) raise nothing: a cleanup
    longer than two repeats runs to its end and the error is the first one (no second in its context)."""
    assert alarm() == 0.05
    steps = []
    with pytest.raises(TimeLimitError) as info:
        try:
            time.sleep(5)
        finally:
            time.sleep(0.6)
            steps.append("cleaned")
    assert steps == ["cleaned"]
    assert info.value.__context__ is None


def test_signals_held_holds_the_alarm_until_the_block_ends(alarm):
    """A few renames that must happen together (atomic_io.signals_held) are not cut by the time limit:
    the alarm is delivered when the block ends — also with a second thread running (a process pool's
    manager thread): blocking the signal in the main thread only let that thread take it."""
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, args=(5,))
    other.start()
    try:
        assert alarm() == 0.05
        steps = []
        with pytest.raises(TimeLimitError):
            with signals_held():
                time.sleep(0.3)
                steps.append("renamed")
            steps.append("after")  # not reached: the held alarm is delivered on leaving the block
        assert steps == ["renamed"]
    finally:
        stop.set()
        other.join()
