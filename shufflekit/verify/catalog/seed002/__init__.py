"""Claims of seed 002 (Su-Cheng-Wang), one module per section or table."""
