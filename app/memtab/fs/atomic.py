"""Crash-safe writes.

Every file Memtab writes goes through `atomic_write_bytes`: the new content is written to a
hidden temp file in the same directory, fsynced, and renamed over the target, so a reader
(or a crash) only ever sees the old content or the new one. Read-modify-writes also hold a
lock from `memtab.fs.locks`.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import sys
from pathlib import Path
from typing import Any

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def encode_utf8(text: str) -> bytes:
    """`text` as UTF-8, each lone surrogate written as U+FFFD (as JavaScript encodes it).

    Python strings can hold lone surrogates (JSON `"\\ud800"`, undecodable file names);
    strict encoding would raise, so they are replaced like mux's encoder does.
    """
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _LONE_SURROGATE.sub("\ufffd", text).encode("utf-8")


def temp_name_for(target: Path) -> Path:
    """A hidden, unique temp path beside `target` (watchers and listings skip dotfiles)."""
    return target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")


def _fsync_directory(directory: Path) -> None:
    # Makes the rename itself durable; not possible (or needed) on Windows.
    if sys.platform == "win32":  # pragma: no cover
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_bytes(target: Path, data: bytes, *, mode: int | None = None) -> None:
    """Replace `target` with `data` atomically: temp file + fsync + rename in the same dir.

    Parent directories are created. On any failure the temp file is removed and the old
    content (if any) is untouched. `mode` sets the permissions (e.g. 0o600 for settings).
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = temp_name_for(target)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    fd = os.open(temp, flags, 0o666 if mode is None else mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temp, mode)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _fsync_directory(target.parent)


def atomic_write_text(target: Path, text: str, *, mode: int | None = None) -> None:
    """Replace `target` with UTF-8 `text` atomically (see `atomic_write_bytes`)."""
    atomic_write_bytes(target, encode_utf8(text), mode=mode)


def atomic_write_json(target: Path, value: Any, *, mode: int | None = None) -> None:
    """Write `value` as pretty-printed JSON (2-space indent, trailing newline) atomically."""
    text = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    atomic_write_text(target, text, mode=mode)
