"""Settings for local runs (copy to .env to override)."""
