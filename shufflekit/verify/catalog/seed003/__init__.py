"""Claims of the Shvets summary (summary of the Shvets series), one module per section or table."""
