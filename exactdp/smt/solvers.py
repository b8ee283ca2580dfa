r"""Running one SMT-LIB problem through z3 and cvc5 (both optional: ``pip install "exactdp[smt]"``).

Each solver gets the problem as SMT-LIB 2 text (z3 through ``Solver.from_string``, cvc5 through its
``InputParser``) in a forked process limited in CPU time (:func:`run_isolated`), and answers ``sat`` (with the values of the
problem's own symbols as the model), ``unsat`` or ``unknown`` (time limit, incompleteness, or an error the
solver reports, with its reason).  Nothing else is shared between the two runs.  The logic the problem
declares picks each solver's procedure: for QF_NRA z3's ``SolverFor`` runs nlsat and cvc5 its cylindrical
algebraic coverings (``nl-cov``, on by default for that logic), both complete for real arithmetic; for
QF_NIRA (integer parameters, asked after the real relaxation) both are incomplete.
"""

from __future__ import annotations

import importlib

from dataclasses import dataclass, field

from exactdp.errors import ParameterError

SOLVERS = ("z3", "cvc5")


class SolversMissing(ParameterError):
    """z3 or cvc5 is not installed."""


@dataclass
class Answer:
    """One solver's answer: ``sat`` / ``unsat`` / ``unknown``, the model (name -> exact text) and a reason."""

    solver: str
    result: str
    model: dict = field(default_factory=dict)
    reason: str = ""
    #: which encoding of the obligation gave this answer (set by the caller)
    encoding: str = ""
    #: the CPU time the solver's process used, in seconds (all encodings asked)
    seconds: float = 0.0


def require_solvers() -> None:
    """Raise :class:`SolversMissing` naming what to install when z3 or cvc5 cannot be imported."""
    missing = []
    for name, module in (("z3-solver", "z3"), ("cvc5", "cvc5")):
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(name)
    if missing:
        raise SolversMissing(f"--smt: the SMT solver package(s) {', '.join(missing)} are not installed "
                             f"(pip install \"exactdp[smt]\" installs z3-solver and cvc5)")


def run_z3(text: str, shown, timeout_ms: int) -> Answer:
    import z3

    logic = text.split("(set-logic ", 1)[1].split(")", 1)[0] if "(set-logic " in text else None
    s = z3.SolverFor(logic) if logic else z3.Solver()
    s.set("timeout", int(timeout_ms))
    try:
        s.from_string(text)
        r = s.check()
    except z3.Z3Exception as exc:
        return Answer("z3", "unknown", reason=f"error: {str(exc)[:200]}")
    if r == z3.unsat:
        return Answer("z3", "unsat")
    if r == z3.sat:
        m = s.model()
        model = {}
        for dcl in m.decls():
            if dcl.name() in shown:
                model[dcl.name()] = _z3_value(m[dcl])
        return Answer("z3", "sat", model)
    return Answer("z3", "unknown", reason=str(s.reason_unknown()))


def _z3_value(v) -> str:
    import z3

    if z3.is_rational_value(v) or z3.is_int_value(v):
        return str(v.as_fraction()) if z3.is_rational_value(v) else str(v.as_long())
    return v.sexpr()  # an algebraic number as z3 writes it (root-obj ...)


def run_cvc5(text: str, shown, timeout_ms: int) -> Answer:
    import cvc5

    tm = cvc5.TermManager()
    s = cvc5.Solver(tm)
    s.setOption("produce-models", "true")
    s.setOption("tlimit-per", str(int(timeout_ms)))
    sm = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(s, sm)
    try:
        parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "obligation")
        while True:
            cmd = parser.nextCommand()
            if cmd.isNull():
                break
            cmd.invoke(s, sm)
        r = s.checkSat()
    except RuntimeError as exc:  # cvc5's parser and solver errors
        return Answer("cvc5", "unknown", reason=f"error: {str(exc)[:200]}")
    if r.isUnsat():
        return Answer("cvc5", "unsat")
    if r.isSat():
        model = {}
        for t in sm.getDeclaredTerms():
            name = t.getSymbol()
            if name in shown:
                model[name] = _cvc5_value(s.getValue(t))
        return Answer("cvc5", "sat", model)
    return Answer("cvc5", "unknown", reason=str(r.getUnknownExplanation()))


def _cvc5_value(v) -> str:
    try:
        if v.isIntegerValue():
            return str(v.getIntegerValue())
        if v.isRealValue():
            return str(v.getRealValue())
    except RuntimeError:
        pass
    return str(v)


RUNNERS = {"z3": run_z3, "cvc5": run_cvc5}


#: a solver's own (wall-clock) limit and the parent's wait, as multiples of the CPU-time limit: on a loaded
#: machine a process gets a fraction of a core, so the limit that decides is the child's CPU time
WALL_FACTOR = 20
#: seconds the parent waits beyond that
GRACE = 5


def _child(conn, name: str, text: str, shown, timeout_ms: int) -> None:
    import math
    import resource

    cpu = math.ceil(timeout_ms / 1000)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))  # SIGXCPU ends the child at the limit
    try:
        conn.send(RUNNERS[name](text, shown, timeout_ms * WALL_FACTOR))
    except Exception as exc:  # noqa: BLE001 - reported as the solver's unknown, never raised in the parent
        conn.send(Answer(name, "unknown", reason=f"error: {type(exc).__name__}: {str(exc)[:200]}"))
    finally:
        conn.close()


def run_isolated(name: str, text: str, shown, timeout_ms: int) -> Answer:
    """One solver in a forked child process limited to ``timeout_ms`` of CPU time (so the answer does not
    depend on how loaded the machine is, and a solver that does not notice its own limit inside a long
    polynomial computation is still stopped)."""
    import multiprocessing
    import resource

    try:
        ctx = multiprocessing.get_context("fork")
    except ValueError:  # no fork on this platform: in-process, relying on the solver's own (wall-clock) limit
        return RUNNERS[name](text, shown, timeout_ms)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    answer = _in_child(ctx, name, text, shown, timeout_ms)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    answer.seconds = round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 3)
    return answer


def _in_child(ctx, name: str, text: str, shown, timeout_ms: int) -> Answer:
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(send, name, text, shown, timeout_ms), daemon=True)
    proc.start()
    send.close()
    limit = f"no answer within {timeout_ms / 1000:g} s of CPU time"
    try:
        if recv.poll(timeout_ms / 1000 * WALL_FACTOR + GRACE):
            return recv.recv()
        return Answer(name, "unknown", reason=f"timeout: {limit} (stopped)")
    except EOFError:
        proc.join()
        return Answer(name, "unknown", reason=f"timeout: {limit}" if proc.exitcode == -24 else
                      f"the solver process ended without an answer (exit {proc.exitcode})")
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        recv.close()


def ask(text: str, shown, timeout_ms: int, solvers=SOLVERS) -> list[Answer]:
    """Every solver's answer to the problem ``text``, each in its own process."""
    return [run_isolated(name, text, set(shown), timeout_ms) for name in solvers]
