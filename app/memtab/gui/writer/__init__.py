"""The writer in the window: its status-bar line (`status`), its news and writes claimed
(`feedback`), the Inbox of proposed memories (`inbox_panel`).
"""
