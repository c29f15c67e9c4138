"""Build the Darwin Core archive."""
