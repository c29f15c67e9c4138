"""The writer in the window: its supervisor, status-bar line, news and writes claimed
(`feedback`), the Inbox of proposed memories (`inbox_panel`).
"""
