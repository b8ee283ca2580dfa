"""Every core quantity of one kernel, as exact values: what ``exactdp analyze`` reports.

:func:`analyze` returns an :class:`Analysis` of exact values (``fmpq``, sympy expressions, ``Truth``, the
:class:`~exactdp.measures.privacy.PrivacyProfile`); :mod:`exactdp.output.analysis_view` turns it into the
JSON document (exact strings next to certified decimals) and the text report.  Values are never re-parsed
from strings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from flint import fmpq

from exactdp.errors import ParameterError
from exactdp.kernels import Kernel
from exactdp.limits import require
from exactdp.measures import registry
from exactdp.measures.contraction import eta_hockey_stick_witness, eta_tv_witness
from exactdp.measures.privacy import (
    PrivacyProfile,
    is_ldp,
    ldp_ratio_witness,
    max_leakage_ratio,
    pml_ratio_witness,
    privacy_profile,
)
from exactdp.numbers.deferred import is_sympy
from exactdp.numbers.infinity import is_infinite
from exactdp.numbers.loglin import log_of as _log_of_rational
from exactdp.numbers.qq import to_qq
from exactdp.numbers.truth import Truth
from exactdp.parameters import check_delta, t_value

if TYPE_CHECKING:
    import sympy
else:
    from exactdp.numbers.deferred import sympy  # deferred: analyze of a rational kernel never needs it

#: cost units (``max_work``) of one (pair of rows, output) step of a vectorized pairwise maximum
#: (η_TV, η_{E_γ}, is_ldp each make one pass over the N² row pairs and M outputs)
_PAIR_ENTRY = 1 / 4
#: cost units of one (ordered pair of rows, output) step of the privacy profile's sweep (a sort, two prefix
#: sums and the hull filter per entry: about 16 pairwise-pass steps; calibrated by benchmarks/bench_profile.py)
_PROFILE_ENTRY = 4


def check_cost(N: int, M: int, *, t=None, profile: bool = False) -> None:
    """Refuse an analysis of an N x M kernel whose pairwise passes (and, with ``profile``, the privacy
    profile's sweep) exceed ``max_work`` (sizes only, so a reader can call it before parsing the entries:
    ``read_kernel(path, check_shape=...)``).  ``t``: the privacy level t = e^ε, if one is asked for (two more
    passes: η_{E_t} and the LDP decision).  :func:`analyze` checks with ``profile=True``."""
    passes = 1 if t is None else 3
    work = passes * N * N * M * _PAIR_ENTRY + (N * N * M * _PROFILE_ENTRY if profile else 0)
    require("max_work", int(work),
            f"analyze: {passes} pass{'es' if passes > 1 else ''} over the {N}x{N} row pairs of a {N}x{M} kernel"
            + (" and the privacy profile's sweep" if profile else ""))


def load_kernel(path, *, at=None, check_shape=None, report=None, header=None, row_labels=None) -> Kernel:
    """The kernel of a file for ``analyze``, ``plot`` and ``tensor``: :func:`exactdp.io.read_kernel`'s formats,
    and a parametric JSON file (with ``"parameters"``, as ``derive --file`` reads) evaluated at ``at``.

    ``at``: ``"NAME=VALUE"`` strings (``--at t=3``), every declared parameter given once, each VALUE exact
    (read by the safe reader: ``3``, ``5/2``, ``0.25``); the values must satisfy the file's ``"region"``
    (decided exactly after substitution) and give a valid kernel.  ``at`` with a file without parameters is
    refused.  Errors name ``--at``, the parameter and the rule.  ``header`` / ``row_labels``: a CSV file's
    labels (:func:`exactdp.io.kernel_from_text`; ``None`` detects them)."""
    import json
    from pathlib import Path

    from exactdp.io import kernel_from_text, read_text_file

    p = Path(path)
    text = read_text_file(p)
    data = None
    if p.suffix.lower() != ".csv" and '"parameters"' in text:  # parsed twice only when it may be parametric
        require("max_entries", text.count(",") + 1, "kernel file: entries counted by their separators")
        try:
            data = json.loads(text, parse_float=str)  # only to look for "parameters"; floats are refused below
        except json.JSONDecodeError:
            data = None  # kernel_from_text reports the JSON error
    if not (isinstance(data, dict) and data.get("parameters")):
        if at:
            raise ParameterError(f"--at: {p.name} declares no parameters (a JSON kernel file with \"parameters\" "
                                 f"takes --at NAME=VALUE)")
        return kernel_from_text(text, "csv" if p.suffix.lower() == ".csv" else "json", name=p.stem,
                                check_shape=check_shape, report=report, header=header, row_labels=row_labels)
    if header is not None or row_labels is not None:
        raise ParameterError(f"{'--header' if header is not None else '--row-labels'}: only for a CSV kernel file; "
                             f"{p.name} is a parametric JSON file")
    from exactdp.numbers.reader import read_expression, substitute
    from exactdp.symbolic.derive import parametric_kernel_from_json

    rows = data.get("rows")
    if check_shape is not None and isinstance(rows, list) and rows and all(isinstance(r, list) for r in rows):
        check_shape(len(rows), max(len(r) for r in rows))
    K = parametric_kernel_from_json(text, name=p.stem)  # validates "parameters", "region" and the entries
    names = sorted(str(k) for k in data["parameters"])
    if not at:
        raise ParameterError(f"{p.name}: a parametric kernel (parameters {', '.join(names)}); give each a value with "
                             f"--at NAME=VALUE (e.g. --at {names[0]}=2), or derive its closed forms with "
                             f"exactdp derive --file {p.name}")
    symbols = {str(s): s for s in K.free_symbols}
    values: dict = {}
    for item in at:
        name, sep, value = str(item).partition("=")
        name = name.strip()
        if not sep or not name or not value.strip():
            raise ParameterError(f"--at: expected NAME=VALUE, got {item!r}")
        if name not in names:
            raise ParameterError(f"--at: {name!r} is not a parameter of {p.name} (parameters: {', '.join(names)})")
        if name in values:
            raise ParameterError(f"--at: {name} given twice")
        values[name] = read_expression(value.strip(), name=f"--at {name}", symbols={})
    missing = [n for n in names if n not in values]
    if missing:
        raise ParameterError(f"--at: no value for {', '.join(missing)} (every parameter of {p.name} needs one)")
    exact = {symbols[n]: v for n, v in values.items() if n in symbols}
    for cond in K.region:
        if substitute(cond, exact, "--at") is not sympy.true:
            raise ParameterError(f"--at: {', '.join(f'{n}={values[n]}' for n in names)} lies outside the file's "
                                 f"region {cond}")
    return K.subs(exact).with_name(f"{p.stem}({', '.join(f'{n}={values[n]}' for n in names)})")


@dataclass(frozen=True)
class Analysis:
    """The exact quantities of one kernel (``None`` where not requested or not computed; see ``notes``)."""

    kernel: Kernel
    eta_tv: object  # η_TV(K), exact
    eta_tv_pair: tuple  # rows (x, x') attaining it
    ldp_ratio: object  # e^ε of the tightest ε-LDP level (+∞ with zeros: exactdp.numbers.infinity.INF)
    ldp_output: object  # output y attaining it
    ldp_inputs: tuple  # rows (x, x') attaining it
    max_leakage_ratio: object  # Σ_y max_x K(y|x) = e^{maximal leakage}
    profile: PrivacyProfile | None = None
    t: object = None  # the privacy level t = e^ε asked for: η_{E_γ} is taken at γ = t, (ε,δ)-LDP decided at t
    eta_hockey_stick: object = None
    eta_hockey_stick_pair: tuple | None = None
    delta: object = None
    is_ldp: Truth | None = None
    c: object = None
    pml_ratio: object = None
    pml_output: object = None
    pml_prior: object = None  # a worst prior in Q_X(c) (a Distribution)
    notes: tuple = field(default=())
    #: (quantity, exact value) of every other registered quantity with a JSON key (:func:`registered_values`)
    registered: tuple = field(default=())


#: the keys of the analyze document that its own views write (``exactdp.output.analysis_view``): the
#: built-in quantities with their witnesses (rows, outputs, worst prior) and the kernel's description
VIEW_KEYS = frozenset({"name", "N", "M", "domain", "rows", "eta_tv", "ldp", "max_leakage", "privacy_profile",
                       "eta_hockey_stick", "is_ldp", "pml", "epsilon_for_delta", "notes"})


def registered_values(K: Kernel) -> tuple[tuple, list[str]]:
    """((quantity, exact value), ...) of every registered quantity without arguments whose JSON key the
    views do not write themselves (:mod:`exactdp.measures.registry`), and a note for each without a value here."""
    out, notes = [], []
    for q in registry.quantities():
        if q.arity or q.json_key is None or q.json_key in VIEW_KEYS or q.exact is None:
            continue
        try:
            out.append((q, q.exact(K)))
        except registry.Undefined as exc:
            notes.append(f"{q.name}: no value for this kernel ({exc})")
    return tuple(out), notes


def log_of(ratio):
    """log of an exact ratio ≥ 1: ``log(3/2)``, 0 for 1, +∞ for +∞ (in its own form).  A rational ratio gives an exact
    :class:`~exactdp.numbers.loglin.LogLin` (printed as sympy prints log r, certified digits by
    :func:`exactdp.numbers.digits.evalf`, no sympy import); a sympy ratio (irrational kernel entries) a sympy log."""
    if isinstance(ratio, fmpq):
        return _log_of_rational(ratio)
    if is_infinite(ratio):  # +∞: the project's INF stays INF (no sympy import), sympy.oo stays sympy.oo
        return ratio
    r = ratio if is_sympy(ratio) else sympy.Rational(int(ratio.p), int(ratio.q))
    return sympy.Integer(0) if r == 1 else sympy.log(r)


def analyze(K: Kernel, *, t=None, eps=None, c=None, delta=0, profile_limit: int | None = None) -> Analysis:
    """The exact η_TV, η_{E_γ}, LDP level, privacy profile, maximal leakage and (ε,c)-PML level of ``K``.

    The privacy level is ``t`` = e^ε or ``eps`` = ε (at most one; exact, :class:`~exactdp.parameters.PrivacyLevel`'s
    rule): with it, η_{E_γ}(K) at the order γ = t and the (ε,δ)-LDP decision η_{E_t}(K) ≤ δ ([A] Thm 1).  An
    irrational t (``eps="1/2"``) keeps the values exact (A − B·t) and decides the comparisons with certified
    balls (three-valued: UNKNOWN when undecided).  The privacy profile is computed for every kernel whose
    cost passes the guard (512×512 does at the default ``max_work``); ``profile_limit`` optionally skips it above that many
    inputs, and ``notes`` then says so (never silently).  The pairwise passes (η_TV, and with a level η_{E_t}
    and is_ldp) and the profile's sweep are estimated first, passes·N²·M/4 + 4·N²·M (profile) against
    ``max_work``.

    >>> a = analyze(Kernel([["3/4", "1/4"], ["1/4", "3/4"]]), t=2, c="1/4")
    >>> a.eta_tv, a.ldp_ratio, a.eta_hockey_stick, a.is_ldp, a.pml_ratio
    (1/2, 3, 1/4, <Truth.FALSE: 'false'>, 2)
    >>> analyze(Kernel([["3/4", "1/4"], ["1/4", "3/4"]]), eps="log(3)").is_ldp
    <Truth.TRUE: 'true'>
    """
    d = check_delta(delta)
    if c is not None:
        c = to_qq(c, "c")
    level = None if t is None and eps is None else t_value(t, eps)
    with_profile = profile_limit is None or K.N <= profile_limit
    check_cost(K.N, K.M, t=level, profile=with_profile)
    v, x, x2 = eta_tv_witness(K)
    r, y, xa, xb = ldp_ratio_witness(K)
    values: dict = {"kernel": K, "eta_tv": v, "eta_tv_pair": (x, x2), "ldp_ratio": r, "ldp_output": y,
                    "ldp_inputs": (xa, xb), "max_leakage_ratio": max_leakage_ratio(K)}
    notes: list[str] = []
    if with_profile:
        values["profile"] = privacy_profile(K)
    else:
        notes.append(f"privacy profile not computed: N = {K.N} inputs exceeds profile_limit = {profile_limit} "
                     f"(exactdp.analysis.analyze(K, profile_limit=...)); eta_E_gamma at one gamma = e^eps: --t or --eps")
    if isinstance(level, fmpq):
        v, x, x2 = eta_hockey_stick_witness(K, level)
        # (ε,δ)-LDP ⟺ η_{E_t}(K) ≤ δ ([A] Thm 1): decided from the value just computed
        values.update(t=level, eta_hockey_stick=v, eta_hockey_stick_pair=(x, x2), delta=d,
                      is_ldp=Truth.of(v <= d) if not K.symbolic else is_ldp(K, t=level, delta=d))
    elif level is not None:  # irrational t: exact values A − B·t, comparisons of t with rationals certified
        v, x, x2 = eta_hockey_stick_witness(K, level)
        values.update(t=level, eta_hockey_stick=v, eta_hockey_stick_pair=(x, x2), delta=d,
                      is_ldp=is_ldp(K, t=level, delta=d))
    if c is not None:
        r, y, prior = pml_ratio_witness(K, c)
        values.update(c=c, pml_ratio=r, pml_output=y, pml_prior=prior)
    values["registered"], undefined = registered_values(K)
    return Analysis(**values, notes=tuple(notes + undefined))
