"""The main window: the application start (`app`), the window (`main_window`), its menus
(`menus`), shortcuts (`shortcuts_dialog`), geometry (`geometry`), home dialogs
(`home_dialogs`).
"""
