"""Settings from the environment (pydantic-settings)."""
