"""What the check found, kept per memory file for where memory is recalled — the MCP
server's `view`, `search` and `list` answers and the search ranking (docs/formats.md
§19.8). No engine here: `memtab.check.recalled` checks and writes it; its readers only
read it, so an answer never waits for a check.
"""
