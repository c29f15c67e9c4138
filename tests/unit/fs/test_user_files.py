"""Files named from outside: read boundedly and only when regular, written into when they
are a FIFO or a device, never replaced (docs/formats.md §16.1)."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from memtab.fs.user_files import read_regular_file, read_stream, write_output_file


def _read_fifo_in_background(fifo: Path) -> tuple[threading.Thread, list[bytes]]:
    """A reader of `fifo` (as `cat` would be), and what it will have read."""
    got: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as handle:
            got.append(handle.read())

    reader = threading.Thread(target=read)
    reader.start()
    return reader, got


@pytest.mark.timeout(30)
def test_a_fifo_a_device_and_a_directory_are_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # nothing writes to it: an open for reading would wait forever
    with pytest.raises(OSError, match="it is a FIFO") as error:
        read_regular_file(fifo, limit=10)
    assert error.value.strerror == "it is a FIFO (named pipe), not a regular file"
    with pytest.raises(OSError, match="it is a device, not a regular file"):
        read_regular_file("/dev/zero", limit=10)
    with pytest.raises(IsADirectoryError, match="it is a directory"):
        read_regular_file(tmp_path, limit=10)


def test_a_file_is_read_up_to_its_cap(tmp_path: Path) -> None:
    file = tmp_path / "text"
    file.write_bytes(b"x" * 11)
    with pytest.raises(OSError, match=r"^\[Errno \d+\] it holds more than 10 bytes: "):
        read_regular_file(file, limit=10)
    assert read_regular_file(file, limit=10, truncate=True) == b"x" * 10
    assert read_regular_file(file, limit=11) == b"x" * 11
    link = tmp_path / "link"
    link.symlink_to(file)
    assert read_regular_file(link, limit=11) == b"x" * 11
    with pytest.raises(OSError):
        read_regular_file(link, limit=11, follow_links=False)


def test_standard_input_is_read_up_to_its_cap(tmp_path: Path) -> None:
    file = tmp_path / "text"
    file.write_bytes(b"abc")
    with file.open("rb") as stream:
        assert read_stream(stream, limit=3) == b"abc"
    with file.open("rb") as stream, pytest.raises(OSError, match="more than 2 bytes"):
        read_stream(stream, limit=2)


@pytest.mark.timeout(30)
def test_an_output_fifo_is_written_into_never_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "out"
    os.mkfifo(fifo)
    reader, got = _read_fifo_in_background(fifo)
    # The reader may not have opened it yet: a FIFO nothing reads is refused, so retry.
    for _ in range(200):
        try:
            write_output_file(fifo, b"the plan\n")
            break
        except OSError as error:
            assert "nothing reads" in str(error)
            threading.Event().wait(0.01)
    reader.join()
    assert got == [b"the plan\n"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_an_output_fifo_nothing_reads_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "out"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="it is a FIFO nothing reads from"):
        write_output_file(fifo, b"x")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_an_output_file_is_replaced_and_a_link_writes_the_file_it_names(tmp_path: Path) -> None:
    target = tmp_path / "plan.json"
    write_output_file(target, b"one")
    write_output_file(target, b"two")
    assert target.read_bytes() == b"two"
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_output_file(link, b"three")
    assert link.is_symlink() and target.read_bytes() == b"three"
    with pytest.raises(IsADirectoryError):
        write_output_file(tmp_path, b"x")
