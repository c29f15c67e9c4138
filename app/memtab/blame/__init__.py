"""Blame: which change introduced each line of a memory file, and where it came from
(docs/formats.md §20.2); no Qt, for the CLI and the window's workers."""
