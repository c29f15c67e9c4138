"""Sync in the window: git sync in the background (`service`), its corner of the status
bar, the editor's conflict bars, Sync now and Resolve conflicts… (`feature`), the conflicts
dialog (`conflicts_dialog`) and sync's setup (`setup_dialog`).
"""
