"""Sync in the window: git sync in the background (`service`, jobs in `jobs`), its corner
of the status bar (`status`), Sync now and Resolve conflicts… (`feature`), and the
conflicts dialog (`conflicts_dialog`, its worker side in `conflicts`).
"""
