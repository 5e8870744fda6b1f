"""Claims of seed 001 (Shvets), one module per section or table."""
