"""The agents' own configuration files `memtab mcp install` edits (docs/formats.md §22.6): read when
regular and capped, changed only in Memtab's entry, replaced only while they hold what was read."""

from typing import Literal

# What an edit did to the file: `unchanged` writes nothing.
EditStatus = Literal["added", "updated", "unchanged"]


class ConfigFileError(Exception):
    """A file Memtab will not change; the message says why in words."""
