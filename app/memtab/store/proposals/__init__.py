"""Changes agents proposed through `memtab mcp --writes inbox`, waiting for the user
(docs/formats.md §22.5)."""
