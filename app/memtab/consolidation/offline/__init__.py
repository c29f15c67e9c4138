"""Memtab's offline consolidator: reads Markdown memory files and plans edits without a model."""
