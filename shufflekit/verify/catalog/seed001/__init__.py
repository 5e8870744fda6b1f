"""Claims of Shvets 2026 (Shvets), one module per section or table."""
