"""Initial schema."""
