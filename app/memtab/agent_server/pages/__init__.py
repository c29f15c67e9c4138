"""Every answer of `memtab mcp` within the budget, paged with a cursor (docs/formats.md
§22.10): the budget and cursors (`paging`), each known client's own limit
(`client_limits`), the pages `list`, `search` and `view` answer (`answers`)."""
