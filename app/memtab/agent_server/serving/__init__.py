"""How a session of `memtab mcp` is served, on stdio or a host's socket (docs/formats.md §22):
its frames checked, the era its first request opens, Memtab's own session or the SDK's."""
