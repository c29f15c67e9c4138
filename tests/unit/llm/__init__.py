"""Tests of memtab.llm (providers, tool loop, settings) and the fake model server."""
