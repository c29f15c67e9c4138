"""The three-way view every hand-resolved conflict uses (`three_way`): sync's, a file-sync
tool's conflict copy, the editor's draft against the file on disk.
"""
