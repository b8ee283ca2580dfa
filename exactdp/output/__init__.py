"""Reports and figures generated from exactdp objects (never hand-edited)."""
