"""Claims: findings."""
