"""Proof module names match claim ids (issue 13, item 5): ``proofs/<group>/<name>.py`` declares exactly the
claim ``<group>.<name>``; modules named ``_…`` declare none; catalogue numbers in ids are zero-padded to two
digits, so file names and ``exactdp verify`` list the claims in the same, numeric, order."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from exactdp.errors import ParameterError
from exactdp.verification.claims import load_all
from exactdp.verification.engine import select_claims

ROOT = Path(__file__).resolve().parents[2]
PROOFS = ROOT / "proofs"

# A fresh interpreter records which public module (not a shared ``_…`` helper) registers each claim.
_SITES = r"""
import json, sys
import exactdp.verification.claims as C
orig, sites = C.register, {}
def register(claim):
    f = sys._getframe(1)
    while f is not None and not (f.f_globals.get("__name__", "").startswith("exactdp_proofs.")
                                 and not f.f_globals["__name__"].rsplit(".", 1)[1].startswith("_")):
        f = f.f_back
    sites[claim.id] = f.f_globals["__name__"] if f is not None else None
    return orig(claim)
C.register = register
C.load_all()
print(json.dumps(sites))
"""


def _registration_sites() -> dict[str, str]:
    out = subprocess.run([sys.executable, "-c", _SITES], capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_each_module_declares_the_claim_it_is_named_after():
    sites = _registration_sites()
    assert set(sites) == set(load_all())
    wrong = {cid: mod for cid, mod in sites.items() if mod != "exactdp_proofs." + cid}
    assert not wrong, wrong
    modules = {".".join(p.relative_to(PROOFS).with_suffix("").parts) for p in PROOFS.glob("*/*.py")
               if p.stem != "__init__"}
    public = {m for m in modules if not m.split(".")[-1].startswith("_")}
    assert public == set(sites), (public ^ set(sites))


def test_catalogue_numbers_are_zero_padded_and_verify_lists_in_numeric_order():
    ids = [c.id for c in select_claims()]
    for cid in ids:
        m = re.match(r"^\w+\.(a|b|d|fa|fg|x|g)(\d+)_", cid)
        if m:
            assert len(m.group(2)) == 2, cid

    def natural(cid):
        return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", cid)]

    assert ids == sorted(ids, key=natural)
    files = sorted(f"{p.parent.name}.{p.stem}" for p in PROOFS.glob("*/*.py") if not p.stem.startswith("_"))
    assert files == sorted(ids)


def test_ids_before_zero_padding_are_unknown():
    """Nothing was released under the ids before the catalogue numbers were zero-padded: there is no rename
    table, and such an id is an unknown claim (one line naming it), not an alias."""
    registry = load_all()
    assert "asoodeh2021.a01_privacy_loss" in registry and "asoodeh2021.a1_privacy_loss" not in registry
    assert [c.id for c in select_claims(["asoodeh2021.a01_privacy_loss"])] == ["asoodeh2021.a01_privacy_loss"]
    with pytest.raises(ParameterError, match="unknown claim id, group or catalogue item 'asoodeh2021.a1_privacy_loss'"):
        select_claims(["asoodeh2021.a1_privacy_loss"])
