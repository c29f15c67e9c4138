"""The agents' own configuration files `memtab mcp install` edits (docs/formats.md §22.6):
read only when regular and within a cap, changed only in Memtab's own entry (a JSON member
spliced in at its span, `json_members`; a TOML table set in tomlkit's document,
`toml_edits`), and replaced only while they still hold what was read (`checked_replace`);
Gemini CLI's settings and the policy file that is Memtab's own (`gemini_settings`); and
xum's tool hooks, which install says Memtab's writes bypass (`xum_hooks`).
"""

from typing import Literal

# What an edit did to the file: `unchanged` writes nothing.
EditStatus = Literal["added", "updated", "unchanged"]


class ConfigFileError(Exception):
    """A file Memtab will not change; the message says why in words."""
