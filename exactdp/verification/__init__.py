"""Verification: claims with checks and verdicts, the engine, instance families, conjecture search."""
