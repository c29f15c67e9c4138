"""Where Memtab writes its log (one private file, docs/formats.md §16.2, appended to plainly until
rotation starts) and the warnings it keeps out of the terminal."""

from __future__ import annotations

import io
import logging
import os
import sys
import warnings
from pathlib import Path

import platformdirs

from memtab.fs.private import clear_entry, open_private_append, private_dir

logger = logging.getLogger(__name__)

LOG_FILE_NAME = "memtab.log"
LOG_DIR_VARIABLE = "MEMTAB_LOG_DIR"
MAX_LOG_BYTES = 1_000_000
KEPT_LOG_FILES = 3
LOG_FORMAT = "%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"
# Loggers whose DEBUG lines drown Memtab's own below -vv: every lock taken and let go
# (`memtab.fs.locking.locks.LOCK_TRACE`), and filelock's on Windows.
CHATTY_LOGGERS = ("memtab.lock_trace", "filelock")

_log_file: Path | None = None


def log_dir() -> Path:
    """The directory of Memtab's log (not created here)."""
    override = os.environ.get(LOG_DIR_VARIABLE, "").strip()
    if override:
        return Path(os.path.abspath(os.path.expanduser(override)))
    return Path(platformdirs.user_log_dir("memtab", appauthor=False))


def log_file() -> Path | None:
    """The file this process logs to, or None when it could not be opened."""
    return _log_file


def own_handlers() -> list[logging.Handler]:
    """The root logger's handlers `setup_logging` (or `start_rotating`) installed."""
    return [
        handler for handler in logging.getLogger().handlers if getattr(handler, "_memtab", False)
    ]


class PrivateFileHandler(logging.FileHandler):
    """Appends to a private log file: 0600 whatever the umask, never through a link."""

    def _open(self) -> io.TextIOWrapper:
        handle = open_private_append(Path(self.baseFilename))
        try:
            return open(handle, "a", encoding=self.encoding, errors=self.errors)
        except BaseException:
            os.close(handle)
            raise


def install_handler(handler: logging.Handler, *, level: int = logging.NOTSET) -> None:
    """Add `handler` to the root logger as one of Memtab's own (see `own_handlers`)."""
    handler.setLevel(level)
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    handler._memtab = True  # type: ignore[attr-defined]
    logging.getLogger().addHandler(handler)


def setup_logging(*, verbosity: int = 0) -> Path | None:
    """Log INFO and above to the log file (everything to stderr with `verbosity`; 2 or more the
    chatty libraries too); the log file, or None when it could not be opened. Safe to call
    again."""
    global _log_file
    root = logging.getLogger()
    for handler in own_handlers():
        root.removeHandler(handler)
        handler.close()
    root.setLevel(logging.DEBUG if verbosity else logging.INFO)
    for chatty in CHATTY_LOGGERS:
        logging.getLogger(chatty).setLevel(logging.NOTSET if verbosity > 1 else logging.WARNING)
    target = log_dir() / LOG_FILE_NAME
    try:
        private_dir(target.parent)
        for index in range(1, KEPT_LOG_FILES + 1):  # the rotated ones, an older Memtab's
            clear_entry(target.with_name(f"{LOG_FILE_NAME}.{index}"))
        file_handler = PrivateFileHandler(target, encoding="utf-8")
    except OSError as error:
        _log_file = None
        print(f"memtab: cannot write the log {target}: {error.strerror or error}", file=sys.stderr)
    else:
        _log_file = target
        install_handler(file_handler)
    if verbosity or _log_file is None:
        level = logging.DEBUG if verbosity else logging.WARNING
        install_handler(logging.StreamHandler(sys.stderr), level=level)
    # Warnings (from libraries) go to the log, not the terminal.
    logging.captureWarnings(True)
    return _log_file


def _not_stopping_inotify(record: logging.LogRecord) -> bool:
    """Drops watchdog's ERROR for an event read while its observer stops on purpose (nothing
    lost): by its exact message, the format before arguments."""
    return record.msg != "InotifyEmitter.queue_events() called when the thread is inactive"


def quiet_library_warnings() -> None:
    """Keep known, harmless library warnings out of the terminal and the log (watchdog's
    re-added watch, its event read while stopping)."""
    warnings.filterwarnings(
        "ignore", message=r"Callback with id .* already exists", category=RuntimeWarning
    )
    logging.getLogger("watchdog.observers.inotify").addFilter(_not_stopping_inotify)
