"""`memtab mcp`'s thin side (docs/formats.md §22.8): what runs in every agent session's own
process when a warm Memtab hosts the sessions — the bridge between the agent's stdio and
the host's socket, where that socket is and who may use it, and the ids of the frames
that pass. Standard library only: a session's process imports none of the SDK, the store
or the records (`tests/unit/agent_server/test_bridge_imports.py` holds it).
"""
