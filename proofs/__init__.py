"""One verification module per claim of the two papers (see shared/claims.md for the item numbers).

Modules declare :class:`exactdp.verification.claims.Claim` objects and their instance families; they
hold no algorithms (everything reusable is in ``exactdp``).  Sub-packages: ``asoodeh2021``,
``grosse2026``, ``background`` (companion results used as oracles), ``findings`` (claims.md §6).
"""
