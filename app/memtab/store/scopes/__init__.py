"""A workspace's three memory scopes: reading them (ScopeView), writing them (ScopeStore,
MemoryStore) and the memory tool over them.
"""
