"""Claims: grosse2026."""
