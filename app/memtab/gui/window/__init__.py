"""The window's features once it has painted: its own actions with the Keyboard shortcuts and
Add workspace… dialogs (`window_actions`), menus (`menus`), the command palette (`palette`).
The window itself starts in `memtab.gui.first_paint`.
"""
