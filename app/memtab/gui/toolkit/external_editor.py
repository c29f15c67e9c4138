"""Opening the file on disk in the user's editor (`components.editor.external.editor_launch`)
or the desktop default, detached from Memtab, its exit watched for a few seconds so an
editor failing at once is reported."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QObject, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices

from memtab.components.editor.external import editor_launch
from memtab.gui.toolkit.clock import qtimer

logger = logging.getLogger(__name__)

WATCH_EXIT_MS = 4000  # an editor failing at once fails within this
_POLL_MS = 200


class _Launched:
    """A started editor process whose early exit is still watched."""

    def __init__(self, process: subprocess.Popen[bytes], name: str, ticks: int) -> None:
        self.process = process
        self.name = name
        self.ticks_left = ticks


class ExternalOpener(QObject):
    """Opens files in the user's editor; `opened(str)` says what opened it, `failed(str)` why
    nothing (lasting) did."""

    opened = Signal(str)
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._watched: list[_Launched] = []
        # Editors still running once no longer watched: kept so they are not collected
        # (a collected Popen of a live process warns), reaped as they exit.
        self._detached: list[subprocess.Popen[bytes]] = []
        self._timer = qtimer(self, self._on_timer_timeout, _POLL_MS, single_shot=False)

    def open(self, path: Path) -> None:
        """Open `path` in the user's editor (or the desktop's default application)."""
        launch = editor_launch(path, os.environ, linux_desktop=sys.platform.startswith("linux"))
        if launch.problem is not None:
            self.failed.emit(f"Cannot open {path.name} in an external editor: {launch.problem}.")
            return
        if launch.argv is None:
            if QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))):
                self.opened.emit(launch.name)
            else:
                self.failed.emit(
                    f"No application is set up to open {path.name}. Set $VISUAL or $EDITOR "
                    "to the editor you want Memtab to use."
                )
            return
        try:
            process = subprocess.Popen(
                launch.argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # the editor outlives Memtab
                close_fds=True,
            )
        except OSError as error:
            self.failed.emit(f"Could not start {launch.name}: {error.strerror or error}.")
            return
        logger.info("Opened %s with %s (pid %d)", path, launch.name, process.pid)
        self._watched.append(_Launched(process, launch.name, WATCH_EXIT_MS // _POLL_MS))
        self._timer.start()
        self.opened.emit(launch.name)

    def stop(self) -> None:
        """Stop watching (the editors keep running)."""
        self._timer.stop()
        self._detached += [launched.process for launched in self._watched]
        self._watched = []

    @Slot()
    def _on_timer_timeout(self) -> None:
        still: list[_Launched] = []
        for launched in self._watched:
            status = launched.process.poll()
            if status is not None and status != 0:
                self.failed.emit(f"{launched.name} exited with status {status} at once.")
            elif status is None and launched.ticks_left > 1:
                launched.ticks_left -= 1
                still.append(launched)
            elif status is None:
                self._detached.append(launched.process)
        self._watched = still
        self._detached = [process for process in self._detached if process.poll() is None]
        if not still:
            self._timer.stop()
