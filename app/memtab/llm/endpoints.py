"""Default endpoints of the providers, importable without loading httpx (settings need them
at start-up; the providers themselves are loaded only when a model is called)."""

DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com"
DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1"
