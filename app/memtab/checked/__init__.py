"""What the check found, kept per memory file for the MCP server's answers and the search ranking
(docs/formats.md §19.8); read only, so an answer never waits for a check."""
