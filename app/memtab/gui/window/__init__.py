"""The window's features once it has painted: its own actions (`window_actions`), menus (`menus`),
the command palette (`palette`), shortcuts (`shortcuts_dialog`) and home dialogs
(`home_dialogs`). The window itself starts in `memtab.gui.first_paint`.
"""
