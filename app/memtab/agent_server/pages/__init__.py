"""Every answer of `memtab mcp` within the budget, paged with a cursor (docs/formats.md §22.10)."""
