"""One exception hierarchy (issue 13, item 7): bad input, undecided, internal — and the CLI's exit status for each."""

import pytest

import exactdp
from exactdp.cli import EXIT_UNDECIDED, main
from exactdp.errors import (
    CoercionError,
    ExactDPError,
    InputError,
    InternalError,
    InvalidDistributionError,
    InvalidKernelError,
    ParameterError,
    ShapeError,
    UndecidedError,
)
from exactdp.limits import ResourceLimitError
from exactdp.numbers.reader import ReadError
from exactdp.numbers.truth import Truth

BAD_INPUT = (CoercionError, InvalidKernelError, InvalidDistributionError, ParameterError, ShapeError,
             ResourceLimitError, ReadError)


def test_root_is_not_a_value_error():
    assert issubclass(ExactDPError, Exception) and not issubclass(ExactDPError, ValueError)


@pytest.mark.parametrize("cls", BAD_INPUT)
def test_bad_input_is_an_input_error_and_still_a_value_error(cls):
    assert issubclass(cls, InputError) and issubclass(cls, ExactDPError) and issubclass(cls, ValueError)
    assert not issubclass(cls, UndecidedError) and not issubclass(cls, InternalError)


def test_coercion_error_is_also_a_type_error():
    assert issubclass(CoercionError, TypeError) and issubclass(ReadError, TypeError)


def test_undecided_is_not_bad_input():
    assert issubclass(UndecidedError, ExactDPError)
    assert not issubclass(UndecidedError, (ValueError, InputError, InternalError))


def test_internal_error_is_neither_input_nor_undecided():
    assert issubclass(InternalError, ExactDPError)
    assert not issubclass(InternalError, (ValueError, InputError, UndecidedError))
    assert issubclass(InternalError, RuntimeError)  # what internal checks raised before


def test_the_other_undecided_exceptions_are_undecided_errors():
    from exactdp.algebra.decision import ProverUndecided
    from exactdp.numbers import loglin as values

    assert issubclass(ProverUndecided, UndecidedError)
    assert issubclass(values.Undecided, UndecidedError)
    assert issubclass(values.Undecided, ArithmeticError)  # behaviour kept: the search still catches it as before
    assert not issubclass(values.Undefined, UndecidedError)  # no value at all is a definite answer


def test_other_project_errors_are_bad_input():
    from exactdp.output.figures import MissingDependencyError
    from exactdp.verification.conjecture.parser import ConjectureSyntaxError

    assert issubclass(MissingDependencyError, InputError)
    assert issubclass(ConjectureSyntaxError, InputError)


def test_public_names():
    for name in ("ExactDPError", "InputError", "UndecidedError", "InternalError"):
        assert name in exactdp.__all__ and getattr(exactdp, name) is getattr(exactdp.errors, name)


def test_an_unknown_truth_used_as_a_bool_is_undecided_not_a_value_error():
    with pytest.raises(UndecidedError):
        bool(Truth.UNKNOWN)
    try:
        bool(Truth.UNKNOWN)
    except ValueError:  # pragma: no cover - the old behaviour
        pytest.fail("an undecided comparison was reported as bad input")
    except UndecidedError:
        pass


def test_library_bad_input_is_input_error():
    with pytest.raises(InputError):
        exactdp.Kernel([["1/2", "1/3"]])
    with pytest.raises(ValueError):  # user code catching ValueError keeps working
        exactdp.Kernel([["1/2", "1/3"]])
    with pytest.raises(ParameterError, match="unknown bound"):
        from exactdp.bounds import get

        get("no-such-bound")


def test_file_errors_are_input_errors(tmp_path):
    from exactdp.io import read_kernel

    with pytest.raises(InputError, match="no such file"):
        read_kernel(str(tmp_path / "missing.json"))


# -- the command line: one line, and the exit status of each kind ---------------------------------------------------

def _run(capsys, monkeypatch, exc):
    import exactdp.cli.show as show

    def boom(args):
        raise exc

    monkeypatch.setattr(show, "run", boom)
    monkeypatch.delenv("EXACTDP_DEBUG", raising=False)
    rc = main(["show", "x"])
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.endswith("\n") and "Traceback" not in err + out, err
    return rc, err


@pytest.mark.parametrize("exc", [ParameterError("c: must be > 0"), InvalidKernelError("row 1 sums to 5/6, not 1"),
                                 CoercionError("x: a float"), ResourceLimitError("too big"), ReadError("EXPR: bad"),
                                 InputError("plain bad input")])
def test_cli_bad_input_is_exit_2(capsys, monkeypatch, exc):
    rc, err = _run(capsys, monkeypatch, exc)
    assert rc == 2 and "error:" in err and str(exc) in err


@pytest.mark.parametrize("exc", [UndecidedError("sign of x - y not certified at 8192 bits"),
                                 "prover", "conjecture"])
def test_cli_undecided_is_exit_3_with_a_clear_message(capsys, monkeypatch, exc):
    if exc == "prover":
        from exactdp.algebra.decision import ProverUndecided

        exc = ProverUndecided("2 irrational critical values")
    elif exc == "conjecture":
        from exactdp.numbers.loglin import Undecided

        exc = Undecided("the sign of v is not certified at 1024 bits")
    rc, err = _run(capsys, monkeypatch, exc)
    assert rc == EXIT_UNDECIDED == 3
    assert "undecided:" in err and str(exc) in err
    assert "--max-prec" in err and "precision_cap" in err
    assert "internal error" not in err


def test_cli_undecided_truth_used_as_bool_is_exit_3(capsys, monkeypatch):
    rc, err = _run(capsys, monkeypatch, _bool_unknown())
    assert rc == 3 and "undecided:" in err


def _bool_unknown():
    try:
        bool(Truth.UNKNOWN)
    except UndecidedError as exc:
        return exc
    raise AssertionError("bool(UNKNOWN) must raise")  # pragma: no cover


def test_cli_internal_error_is_exit_1(capsys, monkeypatch):
    rc, err = _run(capsys, monkeypatch, InternalError("invariant broken: rows changed"))
    assert rc == 1 and "internal error: InternalError: invariant broken" in err and "please report" in err


def test_cli_unexpected_exception_is_exit_1(capsys, monkeypatch):
    rc, err = _run(capsys, monkeypatch, RuntimeError("boom"))
    assert rc == 1 and "internal error: RuntimeError: boom" in err


def test_cli_internal_error_reraises_in_debug(monkeypatch):
    import exactdp.cli.show as show

    def boom(args):
        raise InternalError("bug")

    monkeypatch.setattr(show, "run", boom)
    monkeypatch.setenv("EXACTDP_DEBUG", "1")
    with pytest.raises(InternalError):
        main(["show", "x"])
