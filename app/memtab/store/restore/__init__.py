"""Bringing memory back from history: versions, the trash, reverting a run, many files at once,
orphaned project memory.
"""
