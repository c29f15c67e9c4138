"""Members and committee roles."""
