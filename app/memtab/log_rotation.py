"""The log file's rotation: `start_rotating()` hands Memtab's log file to a rotating handler
(at once for commands, after the first paint for the window), without importing
`logging.handlers`."""

from __future__ import annotations

import logging
import os

from memtab import logs


class SharedRotatingFileHandler(logs.PrivateFileHandler):
    """A log several processes append to, rotated once a record would take it past `max_bytes`
    (`memtab.log.1`…); where a rename is refused, rotation waits for a later write."""

    def __init__(self, path: os.PathLike[str], *, max_bytes: int, backups: int) -> None:
        super().__init__(path, encoding="utf-8")
        self.max_bytes = max_bytes
        self.backups = backups

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if self._is_due(record):
                self.roll_over()
        except RecursionError:
            raise
        except Exception:  # as logging's own handlers: a record that fails is reported
            self.handleError(record)
            return
        super().emit(record)

    def _is_due(self, record: logging.LogRecord) -> bool:
        if self.stream is None:
            self.stream = self._open()
        # Where the file ends now: other processes' appends moved it past this stream's.
        written = self.stream.seek(0, os.SEEK_END)
        # Written to already, and the record would pass the size (a non-regular file never
        # rotates).
        return (
            written > 0
            and written + len(self.format(record)) + 1 >= self.max_bytes
            and os.path.isfile(self.baseFilename)
        )

    def roll_over(self) -> None:
        """Rename the log to `.1` (the older ones one further), and start a new one."""
        if self.stream is not None:
            self.stream.close()
            self.stream = None  # logging's own way to say closed
        try:
            for index in range(self.backups - 1, 0, -1):
                older = f"{self.baseFilename}.{index}"
                if os.path.exists(older):
                    os.replace(older, f"{self.baseFilename}.{index + 1}")
            if self.backups > 0:
                os.replace(self.baseFilename, f"{self.baseFilename}.1")
        except OSError:  # renaming an open file refused: rotated by a later write
            pass
        self.stream = self._open()


def start_rotating() -> None:
    """Replace the log file's plain handler by a rotating one (once; nothing if unopened)."""
    target = logs.log_file()
    plain = [
        handler
        for handler in logs.own_handlers()
        if type(handler) is logs.PrivateFileHandler and handler.baseFilename == str(target)
    ]
    if target is None or not plain:
        return
    try:
        rotating = SharedRotatingFileHandler(
            target, max_bytes=logs.MAX_LOG_BYTES, backups=logs.KEPT_LOG_FILES
        )
    except OSError as error:  # the plain handler goes on appending
        logging.getLogger(__name__).warning("The log %s does not rotate: %s", target, error)
        return
    # Added before the plain one goes: a record logged meanwhile may be written twice, never
    # lost.
    logs.install_handler(rotating, level=plain[0].level)
    for handler in plain:
        logging.getLogger().removeHandler(handler)
        handler.close()
