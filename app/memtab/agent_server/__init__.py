"""Memtab's memory for every agent: the MCP server (`memtab mcp`, docs/formats.md §22).

`server` speaks MCP (the official SDK) over stdio, `tools` declares the tools, `service`
runs them against the store, `catalog` lists the files and ranks them by the home's search
index (`memtab.search_index`). No Qt: an import-linter contract keeps the window out.
"""
