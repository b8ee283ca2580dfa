r"""``exactdp.verify(...)``: the claims of both papers checked from Python, as one result object.

:func:`verify` runs the same engine as ``exactdp verify`` (:func:`exactdp.verification.engine.verify`) and
returns a :class:`VerifyResult`: a sequence of :class:`~exactdp.verification.engine.ClaimResult`\ s in claim
order that is also indexed by claim id, with the verdict counts (``counts``), the claims whose verdict
differs from the expected one (``mismatches``) and a pandas table (``to_frame()``).

>>> r = verify("grosse2026.def3_eta_tv_eps_c")               # doctest: +SKIP
>>> r["grosse2026.def3_eta_tv_eps_c"].verdict.value           # doctest: +SKIP
'proved'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

from exactdp.errors import ParameterError
from exactdp.verification.engine import ClaimResult, summarize
from exactdp.verification.engine import verify as run_verify


class VerifyResult(Sequence[ClaimResult]):
    """The results of a verification run: ``r[0]``, ``r["asoodeh2021.thm1"]``, ``len(r)``, ``r.counts``."""

    def __init__(self, results: Iterable[ClaimResult]) -> None:
        self._results = tuple(results)
        self._by_id = {r.claim.id: r for r in self._results}
        s = summarize(list(self._results))
        #: verdict name → number of claims with that verdict (every verdict listed, zeros included)
        self.counts: dict[str, int] = dict(s.counts)
        #: the ids of the claims whose verdict differs from the one the catalogue expects
        self.mismatches: tuple[str, ...] = tuple(s.mismatches)

    @overload
    def __getitem__(self, key: int) -> ClaimResult: ...

    @overload
    def __getitem__(self, key: slice) -> Sequence[ClaimResult]: ...

    @overload
    def __getitem__(self, key: str) -> ClaimResult: ...

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            try:
                return self._by_id[key]
            except KeyError:
                raise KeyError(f"no claim {key!r} in this run ({len(self)} claims)") from None
        return self._results[key]

    def __len__(self) -> int:
        return len(self._results)

    def __iter__(self) -> Iterator[ClaimResult]:
        return iter(self._results)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(self._by_id)

    def verdicts(self) -> dict[str, str]:
        """claim id → verdict name."""
        return {r.claim.id: r.verdict.value for r in self._results}

    def rows(self) -> list[dict[str, Any]]:
        """One plain dict per claim: id, verdict, expected, scope, rests_on, instances, matches."""
        return [{"id": r.claim.id, "verdict": r.verdict.value, "expected": r.claim.expected.value,
                 "scope": r.scope, "rests_on": ", ".join(r.rests_on), "instances": r.instances,
                 "matches": r.matches} for r in self._results]

    def to_frame(self):
        """The :meth:`rows` as a pandas DataFrame indexed by claim id (pandas is imported here, on use)."""
        import pandas as pd  # optional: only this method needs it

        return pd.DataFrame(self.rows()).set_index("id")

    def __repr__(self) -> str:
        counts = ", ".join(f"{n} {v}" for v, n in self.counts.items() if n)
        return (f"VerifyResult({len(self)} claims: {counts}; "
                f"{len(self.mismatches)} differ from expected)")


def verify(*selectors: str, seed: int = 0, quick: bool = False, jobs: int = 1) -> VerifyResult:
    """Check the selected claims (all when none is given) and return a :class:`VerifyResult`.

    ``selectors`` are what ``exactdp verify`` takes: claim ids (``"asoodeh2021.thm1"``), a paper or group
    (``"grosse2026"``) or catalogue items; ``seed`` fixes the random instances (same seed, same results);
    ``quick`` runs the smaller instance sets; ``jobs > 1`` uses worker processes.
    """
    for name, value, low in (("seed", seed, 0), ("jobs", jobs, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ParameterError(f"{name}: must be an integer >= {low}, got {value!r}")
    for s in selectors:
        if not isinstance(s, str):
            raise ParameterError(f"selectors: each must be a claim id, paper or catalogue item (a string), got {s!r}")
    return VerifyResult(run_verify(selectors, seed=seed, quick=quick, jobs=jobs))
