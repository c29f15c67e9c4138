"""File operations from the window: run on a worker (`op_tasks`), asked for in dialogs
(`dialogs`).
"""
