"""The window, without Qt: its features and the phase each is built in (`phases`)."""
