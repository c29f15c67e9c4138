"""The one readability rule (`fs/readable.py`, docs/formats.md §3.3): a file is read only
when, opened without blocking or following a link, it is a regular file with no other
hard link (but a temp file of Memtab's own beside it), and never past the cap."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from memtab.fs.atomic import Directory, temp_name_for
from memtab.fs.readable import (
    HardLinkedFileError,
    open_readable_path,
    read_readable,
    read_readable_path,
)
from support.hostile_files import answers_within, fifo_at


def test_a_regular_file_is_read_up_to_the_cap(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_bytes(b"0123456789")
    assert read_readable_path(tmp_path / "a.md", limit=4) == b"0123"
    with Directory.open(tmp_path) as folder:
        data, info = read_readable(folder, "a.md", limit=None)
    assert (data, info.st_size) == (b"0123456789", 10)


def test_a_fifo_is_refused_at_once_in_words(tmp_path: Path) -> None:
    fifo = fifo_at(tmp_path / "pipe.md")
    with pytest.raises(OSError, match=r"it is a FIFO \(named pipe\), not a regular file"):
        answers_within(10, lambda: read_readable_path(fifo, limit=100), fifo)


def test_a_socket_a_folder_and_a_device_are_refused(tmp_path: Path) -> None:
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(tmp_path / "sock.md"))
        with pytest.raises(OSError, match="it is a socket, not a regular file"):
            read_readable_path(tmp_path / "sock.md", limit=100)
    (tmp_path / "folder.md").mkdir()
    with pytest.raises(IsADirectoryError):
        read_readable_path(tmp_path / "folder.md", limit=100)
    with pytest.raises(OSError, match="it is a device, not a regular file"):
        read_readable_path("/dev/null", limit=100)


def test_a_link_is_refused_unless_followed_as_an_agent_does(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_text("agents\n")
    (tmp_path / "CLAUDE.md").symlink_to("AGENTS.md")
    with pytest.raises(OSError, match="it is a symbolic link"):
        read_readable_path(tmp_path / "CLAUDE.md", limit=100)
    assert read_readable_path(tmp_path / "CLAUDE.md", limit=100, follow_link=True) == b"agents\n"


def test_another_hard_link_is_refused_with_the_stat_a_listing_shows(tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("secret\n")
    os.link(tmp_path / "secret.txt", tmp_path / "note.md")
    with pytest.raises(HardLinkedFileError) as refused:
        open_readable_path(str(tmp_path / "note.md"))
    assert refused.value.info is not None and refused.value.info.st_size == 7
    assert "other hard links" in str(refused.value.strerror)


def test_a_link_to_memtab_s_own_temp_file_beside_it_is_read(tmp_path: Path) -> None:
    (tmp_path / "note.md").write_text("half published\n")
    os.link(tmp_path / "note.md", tmp_path / temp_name_for("note.md"))
    assert read_readable_path(tmp_path / "note.md", limit=100) == b"half published\n"
