"""Output: LaTeX, reports and figures."""
