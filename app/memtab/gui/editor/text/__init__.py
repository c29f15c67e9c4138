"""The editor's text: its widgets and mechanics, highlighting, preview and the description field."""
