"""Measures: divergences, contraction coefficients and privacy functionals of exact kernels."""
