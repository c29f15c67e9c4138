"""Helpers shared by the test suites (fake servers, builders)."""
