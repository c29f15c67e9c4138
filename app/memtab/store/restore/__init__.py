"""Bringing memory back from history: versions, the trash, a run reverted, many files at once,
orphaned projects."""
