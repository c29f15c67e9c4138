"""Searching memories by name, description and content (`search`), off the GUI thread."""
