"""Every answer of `memtab mcp` within the budget, paged with a cursor (docs/formats.md
§22.10): the budget and cursors (`paging`), the pages `list`, `search` and `view` answer
(`answers`)."""
