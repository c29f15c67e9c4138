def test_rotation() -> None:
    """A used refresh token is never valid again."""
