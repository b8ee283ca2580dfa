"""Output: LaTeX, reports and figures generated from exactdp objects."""
