"""The window's small shared parts: style, icons, widgets, dialogs' layout, UI state, the clock,
crash reports."""
