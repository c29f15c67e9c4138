"""A workspace's memory scopes: reading (ScopeView), writing (ScopeStore, MemoryStore), and the
memory tool."""
