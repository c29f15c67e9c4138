"""Views through the test client."""
