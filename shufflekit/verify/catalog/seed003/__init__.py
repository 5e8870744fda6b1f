"""Claims of seed 003 (summary of the Shvets series), one module per section or table."""
