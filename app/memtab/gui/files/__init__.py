"""File operations from the window: the tree's actions (`file_actions`: new, rename, move,
delete, pin, Copy to…, undo) and the dialogs that ask for them (`dialogs`); they run on
the file-operation worker (`gui/tasks/file_ops.py`).
"""
