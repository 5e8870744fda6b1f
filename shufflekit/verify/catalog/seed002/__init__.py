"""Claims of Su-Cheng-Wang 2026 (Su-Cheng-Wang), one module per section or table."""
