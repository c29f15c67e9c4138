"""`memtab mcp`'s thin side in every agent session (docs/formats.md §22.8): the stdio-to-socket
bridge to a warm Memtab, standard library only
(`tests/unit/agent_server/hosting/test_bridge_imports.py`)."""
