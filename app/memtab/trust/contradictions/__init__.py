"""Lines of two memories a session sees together that state different values for one
thing (`memtab contradictions`, docs/formats.md §19.6)."""
