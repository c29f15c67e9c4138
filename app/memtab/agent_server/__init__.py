"""Memtab's memory for every agent: the MCP server (`memtab mcp`, docs/formats.md §22); no Qt (an
import contract)."""
