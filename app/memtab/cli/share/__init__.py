"""Commands that share the memory beyond this home: `memtab sync`, `conflicts`, and `mcp` for
agents."""
