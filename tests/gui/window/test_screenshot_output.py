"""`--screenshot FILE` writes into the file the user named: a FIFO (or `/dev/null`) is
written into and stays what it was, never replaced by a regular file
(docs/formats.md §16.1)."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from memtab.gui.first_paint.app import save_screenshot

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.mark.timeout(60)
def test_a_screenshot_is_written_into_a_fifo(qtbot: QtBot, tmp_path: Path) -> None:
    label = QLabel("memtab")
    qtbot.addWidget(label)
    fifo = tmp_path / "shot.png"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as handle:
            got.append(handle.read())

    reader = threading.Thread(target=read)
    reader.start()
    problem: str | None = "not tried"
    for _ in range(500):  # until the reader has it open (a FIFO nobody reads is refused)
        problem = save_screenshot(label, fifo)
        if problem is None:
            break
        threading.Event().wait(0.01)
    else:
        with open(fifo, "wb"):
            pass  # let the reader go
    reader.join()
    assert problem is None
    assert got[0].startswith(PNG_SIGNATURE)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_screenshot_into_a_directory_says_why_not(qtbot: QtBot, tmp_path: Path) -> None:
    label = QLabel("memtab")
    qtbot.addWidget(label)
    assert save_screenshot(label, tmp_path) == "it is a directory, not a file"
    regular = tmp_path / "shot.png"
    assert save_screenshot(label, regular) is None
    assert regular.read_bytes().startswith(PNG_SIGNATURE)
