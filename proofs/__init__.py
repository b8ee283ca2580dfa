"""One verification module per claim of the two papers (see docs/claims.md for the item numbers).

Installed as the package ``exactdp_proofs`` and registered in the ``exactdp.claims`` entry-point group
(pyproject.toml); the engine imports every module of a registered package, it never imports this one by
name.  The module ``<group>/<name>.py`` declares the claim ``<group>.<name>`` (catalogue numbers
zero-padded to two digits, so file names and ``exactdp verify`` list claims in the same order); modules
whose names start with ``_`` hold checks and instance families shared by several claims; ``_statements.py``
holds the papers' statements in machine form, written once from docs/claims.md (``Claim.written``).

Modules declare :class:`exactdp.verification.claims.Claim` objects and their instance families; they
hold no algorithms (everything reusable is in ``exactdp``).  Sub-packages: ``asoodeh2021``,
``grosse2026``, ``background`` (companion results used as oracles), ``findings`` (docs/claims.md §6).
"""
