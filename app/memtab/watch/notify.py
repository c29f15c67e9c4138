"""`memtab watch` tells the user of a mass change at once: a freedesktop notification over the
session D-Bus where there is one, and always a warning in its log (docs/formats.md §14.5)."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Collection, Mapping

from memtab.fs.clock import Clock, now_ms
from memtab.store.home import Home
from memtab.watch.guard import MassChange, mass_changes

logger = logging.getLogger(__name__)

APP_NAME = "Memtab"
SUMMARY = "Memtab: a mass change to your agents' memory"
NOTIFY_TIMEOUT_S = 2.0
"""How long the notification server may take to answer."""
EXPIRE_MS = 0
"""The notification stays until the user closes it (the spec's 0: never expires)."""

Notify = Callable[[str, str], bool]
"""Show a desktop notification (summary, body); whether one was shown."""


def desktop_notify(summary: str, body: str, env: Mapping[str, str] | None = None) -> bool:
    """Show a notification on the session bus; False, logged at info, when there is none."""
    environ = os.environ if env is None else env
    if not sys.platform.startswith("linux") or not environ.get("DBUS_SESSION_BUS_ADDRESS"):
        return False
    try:
        # lazy: jeepney is Linux's alone, and only a mass change needs it
        from jeepney import DBusAddress, new_method_call
        from jeepney.io.blocking import open_dbus_connection
    except ImportError as error:
        logger.info("No desktop notification: %s", error)
        return False
    server = DBusAddress(
        "/org/freedesktop/Notifications",
        bus_name="org.freedesktop.Notifications",
        interface="org.freedesktop.Notifications",
    )
    message = new_method_call(
        server, "Notify", "susssasa{sv}i", (APP_NAME, 0, "", summary, body, [], {}, EXPIRE_MS)
    )
    try:
        with open_dbus_connection(bus="SESSION") as connection:
            reply = connection.send_and_get_reply(message, timeout=NOTIFY_TIMEOUT_S)
    except Exception as error:  # no bus, no server, a timeout: the log says it instead
        logger.info("No desktop notification: %s", error)
        return False
    if reply.header.message_type.name == "error":
        logger.info("No desktop notification: %s", reply.body)
        return False
    return True


def body_of(change: MassChange) -> str:
    """What the notification says: what happened, and how to put it back whole."""
    return (
        f"{change.words()}. Put it back whole with Restore all in Memtab's window, or "
        f"`memtab restore --event {change.id}`."
    )


class MassNotices:
    """The mass changes `memtab watch` has told of (see the module doc)."""

    def __init__(self, home: Home, *, notify: Notify | None = None, clock: Clock = now_ms) -> None:
        self.home = home
        self._notify: Notify = notify or desktop_notify
        self._since = clock()
        self._told: set[str] = set()

    def look(self, keys: Collection[str] | None = None) -> list[MassChange]:
        """Tell of the mass changes (of the indexes `keys`) not told yet; those told."""
        told = []
        for change in mass_changes(self.home, since_ms=self._since, keys=keys):
            if change.id in self._told or not change.left_to_restore:
                continue
            self._told.add(change.id)
            body = body_of(change)
            logger.warning("Mass change: %s", body)
            self._notify(SUMMARY, body)
            told.append(change)
        return told
