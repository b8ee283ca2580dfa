"""Claims: background."""
