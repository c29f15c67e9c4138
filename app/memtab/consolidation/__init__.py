"""Consolidation ("dream", docs/formats.md §9): tidy a workspace's memory with a model or
offline."""
