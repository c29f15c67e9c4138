"""Settings shared by every environment."""
