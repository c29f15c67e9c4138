def test_refresh() -> None:
    """Two refreshes at once: one rotation, no 401."""
