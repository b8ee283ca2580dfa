"""Compatibility name: the bounds registry lives in :mod:`exactdp.bounds` (below the measures, so that every
layer can evaluate the papers' formulas from the one registry).  ``exactdp.theory.bounds`` is that module."""

import sys

from exactdp import bounds as _bounds

sys.modules[__name__] = _bounds
