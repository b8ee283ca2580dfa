"""The theory layer: bounds, exact suprema and estimation risk bounds built on the measures."""
