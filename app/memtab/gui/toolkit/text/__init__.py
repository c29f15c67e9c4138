"""Text widgets more than one feature uses: the source editor, find bar, line margin, line
numbers, diff view, rich text and fields' keys, and the three-way view every hand-resolved
conflict uses (`three_way`: sync's, a file-sync tool's conflict copy, the editor's draft
against the file on disk).
"""
