"""Claims: asoodeh2021."""
