"""The writer in the window: its status-bar line (`status`), its news and writes claimed
(`feedback`), the suggested memories (`suggestions_panel`).
"""
