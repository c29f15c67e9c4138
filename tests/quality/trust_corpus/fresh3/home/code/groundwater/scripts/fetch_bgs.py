"""Fetch borehole levels from the BGS API."""
