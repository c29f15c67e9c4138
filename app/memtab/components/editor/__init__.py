"""The editor's open file and its rules, Qt-free: what it opens (`document`), the session's
decisions against the disk (`session`), line endings (`text_buffer`), the three-way merge
(`merge`), find/replace (`find`), an outside editor (`external`).
"""
