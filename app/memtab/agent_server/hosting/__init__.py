"""The warm Memtab (docs/formats.md §22.8): one process hosting every agent session of a home behind
a Unix socket, the catalog and its index shared and kept warm."""
