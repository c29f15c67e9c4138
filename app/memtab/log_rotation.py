"""The log file's rotation: `start_rotating()` hands Memtab's log file to a rotating handler.

`memtab.logs.setup_logging` appends to the log file plainly, so nothing logged early is
lost and the window's start does not import `logging.handlers` (sockets, pickle, queues:
~7 ms). Rotation starts here: at once for the commands (`memtab.cli.main`) and the
consolidation job, right after the first paint for the window (`memtab.gui.first_paint.boundary`).
"""

from __future__ import annotations

import logging
import logging.handlers

from memtab import logs


class SharedRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """A rotating log several processes (the window, the CLI, a second Memtab) append to.

    Rotation renames the file; when another process holds it open where that is refused
    (Windows), this process keeps appending and leaves the rotation to a later write.
    """

    def doRollover(self) -> None:
        try:
            super().doRollover()
        except OSError:
            if self.stream is None:
                self.stream = self._open()


def start_rotating() -> None:
    """Replace the plain handler of the log file by a rotating one (once; nothing when
    the log file could not be opened)."""
    target = logs.log_file()
    plain = [
        handler
        for handler in logs.own_handlers()
        if type(handler) is logging.FileHandler and handler.baseFilename == str(target)
    ]
    if target is None or not plain:
        return
    try:
        rotating = SharedRotatingFileHandler(
            target, maxBytes=logs.MAX_LOG_BYTES, backupCount=logs.KEPT_LOG_FILES, encoding="utf-8"
        )
    except OSError as error:  # the plain handler goes on appending
        logging.getLogger(__name__).warning("The log %s does not rotate: %s", target, error)
        return
    # Added before the plain one goes: a record logged meanwhile by another thread may be
    # written twice, never lost.
    logs.install_handler(rotating, level=plain[0].level)
    for handler in plain:
        logging.getLogger().removeHandler(handler)
        handler.close()
