"""Resource limits: every size a user controls is checked here before work starts.

One table of named limits, each with a documented default, an environment variable that raises it for a
whole process (``EXACTDP_MAX_DIGITS=200000 exactdp evalf ...``) and a scoped override for library users::

    >>> from exactdp.limits import limit, limits
    >>> limit("max_text_length")
    10000
    >>> with limits(max_text_length=50):
    ...     limit("max_text_length")
    50

Code that is about to do work whose size the user chose calls :func:`require` with its *estimate*; above
the limit it raises :class:`ResourceLimitError`, whose message names the limit, the estimate and how to
raise it.  The command line turns that into one line and exit status 2.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
from collections.abc import Iterator
from dataclasses import dataclass

from exactdp.errors import InputError


class ResourceLimitError(InputError):
    """A requested computation or input exceeds a configured limit (raise the limit to go on)."""


@dataclass(frozen=True)
class Limit:
    name: str
    default: int
    unit: str
    meaning: str
    cli: str | None = None  # a command-line option that also sets it, if any

    @property
    def env(self) -> str:
        return "EXACTDP_" + self.name.upper()


def _half_memory() -> int:
    """Half the machine's memory, or the address-space limit already in force (``ulimit -v``) if lower."""
    try:
        half = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        half = 8 * 2**30
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
        if soft != resource.RLIM_INFINITY:
            half = min(half, soft)
    except (ImportError, ValueError, OSError):  # pragma: no cover - not POSIX
        pass
    return half


#: every limit, by name (docs/security.md "Limits" lists the same table)
LIMITS: dict[str, Limit] = {lim.name: lim for lim in (
    Limit("max_text_length", 10_000, "characters", "length of one expression, entry, parameter or conjecture"),
    Limit("max_nesting", 100, "levels", "nesting depth of one expression (parentheses, calls, powers)"),
    Limit("max_call_nesting", 10, "levels", "function calls nested inside one another (exp(exp(...))): sympy's "
          "own evaluation of such towers takes time exponential in their height"),
    Limit("max_nodes", 20_000, "nodes", "operations and literals in one expression"),
    Limit("max_integer_digits", 10_000, "decimal digits",
          "size of an exact integer a reader builds: a literal, a decimal exponent (1e-999999999) or an "
          "integer power (10**10**10)"),
    Limit("max_degree", 100, "", "total degree of a symbolic expression read from text (t^10000/(t^10000+1)): "
          "sympy's cancellation and the prover's polynomial work grow quickly with it"),
    Limit("max_exp_argument", 10**6, "", "absolute value of a numeric argument of exp (and of the exponent of a "
          "non-integer power), so that exp(exp(exp(100))) is refused instead of hanging"),
    Limit("max_simplify_ops", 400, "operations", "size (sympy count_ops) of a difference that recheck hands to "
          "sympy's simplify, which has no bound of its own; a larger one is left UNDECIDED"),
    Limit("max_title_length", 1000, "characters", "title of a figure (plot --title): matplotlib's layout of a "
          "100 000-character title does not end"),
    Limit("max_file_bytes", 64 * 2**20, "bytes", "size of a kernel file"),
    Limit("max_entries", 2**20, "entries", "entries of one kernel (N x M)"),
    Limit("max_symbolic_entries", 50, "entries",
          "entries of one parametric (symbolic) kernel built by a catalogue constructor: every symbolic "
          "quantity costs sympy work quadratic in N"),
    Limit("max_digits", 100_000, "digits", "significant digits a command prints (evalf, bound --digits)"),
    Limit("max_prec", 1_000_000, "bits", "working precision of a certified evaluation (the most --max-prec or "
          "precision_cap may ask for)"),
    Limit("max_memory", _half_memory(), "bytes", "memory a command may allocate (default: half the machine's)",
          "--max-memory"),
    Limit("max_work", 10**9, "operations", "estimated elementary operations of one exact computation "
          "(tensor powers, LP sizes, profiles, derivations)"),
    Limit("scheduler_wait", 60, "seconds", "time --scheduler waits for a first dask worker to join the scheduler "
          "(a scheduler without workers would queue the tasks for ever)"),
)}

_overrides: contextvars.ContextVar[dict] = contextvars.ContextVar("exactdp_limits", default={})


def limit(name: str) -> int:
    """The value in force: a scoped override, else ``$EXACTDP_<NAME>``, else the default."""
    over = _overrides.get()
    if name in over:
        return over[name]
    spec = LIMITS[name]
    raw = os.environ.get(spec.env)
    if raw:
        try:
            value = int(raw.replace("_", ""))
        except ValueError:
            raise ResourceLimitError(f"{spec.env}: must be a positive integer, got {raw[:40]!r}") from None
        if value <= 0:
            raise ResourceLimitError(f"{spec.env}: must be a positive integer, got {raw[:40]!r}")
        return value
    return spec.default


@contextlib.contextmanager
def limits(**values: int) -> Iterator[None]:
    """Raise (or lower) limits within a ``with`` block: ``with limits(max_integer_digits=10**6): ...``."""
    for name, value in values.items():
        if name not in LIMITS:
            raise ResourceLimitError(f"limits: unknown limit {name!r}; known: {', '.join(LIMITS)}")
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ResourceLimitError(f"limits: {name} must be a positive integer, got {value!r}")
    token = _overrides.set({**_overrides.get(), **values})
    try:
        yield
    finally:
        _overrides.reset(token)


def how_to_raise(name: str) -> str:
    spec = LIMITS[name]
    via = f"{spec.cli}, " if spec.cli else ""
    return f"raise it with {via}${spec.env} or exactdp.limits.limits({name}=...)"


def require(name: str, estimate: int, what: str) -> None:
    """Refuse ``what`` when ``estimate`` exceeds the limit ``name``; the message says how to raise it.

    >>> require("max_nesting", 3, "nesting")
    >>> require("max_nesting", 10**6, "nesting of EXPR")
    Traceback (most recent call last):
    ...
    exactdp.limits.ResourceLimitError: nesting of EXPR: about 1000000 levels exceeds the limit max_nesting = 100 levels; raise it with $EXACTDP_MAX_NESTING or exactdp.limits.limits(max_nesting=...)
    """
    cap = limit(name)
    if estimate > cap:
        unit = LIMITS[name].unit
        raise ResourceLimitError(
            f"{what}: about {fmt_estimate(estimate)}{' ' + unit if unit else ''} exceeds the limit {name} = "
            f"{fmt_estimate(cap)}{' ' + unit if unit else ''}; {how_to_raise(name)}")


_meter: contextvars.ContextVar[list | None] = contextvars.ContextVar("exactdp_work_meter", default=None)


@contextlib.contextmanager
def work_meter(what: str) -> Iterator[None]:
    """Charge the many small computations of one task to one ``max_work`` budget.

    A task such as certificate synthesis runs hundreds of prover decisions, each within its own estimate;
    their number is what can run for an hour.  Within the block :func:`charge` adds to a running total and
    refuses (naming ``what`` and the limit) once the total exceeds ``max_work``; outside any block it does
    nothing."""
    token = _meter.set([0, what])
    try:
        yield
    finally:
        _meter.reset(token)


def charge(units: int, what: str) -> None:
    """Add ``units`` to the running total of the enclosing :func:`work_meter`, if any; refuse beyond
    ``max_work``."""
    meter = _meter.get()
    if meter is None:
        return
    meter[0] += units
    require("max_work", meter[0], f"{meter[1]} (all its steps together; the last one: {what})")


#: cost estimates are capped here (``min(estimate, ESTIMATE_CAP)``): estimating never multiplies unbounded
#: integers, and the cap is far above every limit, so a capped estimate is still refused
ESTIMATE_CAP = 10**300


def fmt_estimate(n, exact_below: int = 10**12) -> str:
    """A short decimal of an estimate of any size: exact below ``exact_below``, then ``1.23e+15``, and
    ``2^k`` beyond floats (a message never formats a number with thousands of digits).

    >>> fmt_estimate(12345), fmt_estimate(5 * 10**15), fmt_estimate(2**5000), fmt_estimate(10**8, 10**7)
    ('12345', '5e+15', '2^5000', '1e+08')
    """
    n = int(n)
    if abs(n) < exact_below:
        return str(n)
    if n.bit_length() < 1000:
        return f"{float(n):.3g}"
    return f"2^{n.bit_length() - 1}"


#: characters of a file path an error message shows whole (a path is the user's own, and its end names the file)
PATH_WIDTH = 1024


def quote(text, width: int = 80) -> str:
    """``repr`` of user input cut to ``width`` characters, so an error never echoes a huge input back."""
    s = str(text)
    if len(s) <= width:
        return repr(s)
    return repr(s[:width]) + f"... ({len(s)} characters)"
