"""Desktop notifications: through freedesktop's bus, asynchronously, else a tray message,
else only logged (a missing notification is never an error)."""

from __future__ import annotations

import logging
import sys

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QSystemTrayIcon

logger = logging.getLogger(__name__)

APP_NAME = "Memtab"
EXPIRE_MS = 8000
_FREEDESKTOP = ("org.freedesktop.Notifications", "/org/freedesktop/Notifications")


class DesktopNotifier(QObject):
    """Shows desktop notifications (see the module docstring)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tray: QSystemTrayIcon | None = None

    def notify(self, title: str, body: str) -> bool:
        """Show a notification; False when this desktop has no way to show one."""
        if sys.platform.startswith(("linux", "freebsd", "openbsd")) and self._notify_dbus(
            title, body
        ):
            return True
        return self._notify_tray(title, body)

    def _notify_dbus(self, title: str, body: str) -> bool:
        try:
            # lazy: platform — a Qt build may lack D-Bus
            from PySide6.QtDBus import QDBus, QDBusConnection, QDBusInterface
        except ImportError:  # a Qt build without D-Bus
            return False
        bus = QDBusConnection.sessionBus()
        if not bus.isConnected():
            return False
        service, path = _FREEDESKTOP
        interface = QDBusInterface(service, path, service, bus)
        if not interface.isValid():
            return False
        interface.call(
            QDBus.CallMode.NoBlock,
            "Notify",
            APP_NAME,
            0,
            "memtab",
            title,
            body,
            [],
            {},
            EXPIRE_MS,
        )
        return True

    def _notify_tray(self, title: str, body: str) -> bool:
        if not QSystemTrayIcon.isSystemTrayAvailable():
            logger.info("No desktop notifications here: %s — %s", title, body)
            return False
        if self._tray is None:
            self._tray = QSystemTrayIcon(QApplication.windowIcon(), self)
        self._tray.show()
        self._tray.showMessage(title, body, QSystemTrayIcon.MessageIcon.Information, EXPIRE_MS)
        return True
