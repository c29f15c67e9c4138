"""Settings as the window opens it: the Settings dialog (`SettingsDialog`)."""

from __future__ import annotations

from memtab.gui.settings.dialog import SettingsDialog

__all__ = ["SettingsDialog"]
