"""POST /auth/refresh: rotates the refresh token under a row lock."""
