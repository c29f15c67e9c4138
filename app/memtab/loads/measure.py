"""Measuring what an agent reads: lines, bytes and estimated tokens, whole and loaded."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memtab.fs.readable import read_readable_path
from memtab.loads.records import LoadedFile
from memtab.sources.claude.index import count_lines
from memtab.store.files import MAX_FILE_BYTES

BYTES_PER_TOKEN = 4
"""Codex's own estimate (`approx_token_count`); used for every agent alike."""
READ_LIMIT = 4 * MAX_FILE_BYTES

Identify = Callable[[str | Path], str | None]
"""A file's id in Memtab's sources (`claude-code:user:CLAUDE.md`), or None, by its path."""


def estimate_tokens(text: str) -> int:
    size = len(text.encode("utf-8", errors="surrogatepass"))
    return (size + BYTES_PER_TOKEN - 1) // BYTES_PER_TOKEN


def read_text(path: Path, notes: list[str] | None = None) -> str | None:
    """A file's text (at most `READ_LIMIT` bytes) by the readability rule, following a link as
    the agent does; None when missing or refused (why in `notes`)."""
    try:
        data = read_readable_path(path, limit=READ_LIMIT, follow_link=True)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        if notes is not None:
            notes.append(f"{path} is not read: {error.strerror or error}")
        return None
    return data.decode("utf-8", errors="replace")


def measured(
    text: str,
    *,
    loaded: str | None = None,
    loaded_lines: int | None = None,
    cut_at_line: int | None = None,
    **fields: object,
) -> LoadedFile:
    """The record of a file whose text is `text`, of which the agent reads `loaded` (None: all)
    up to `cut_at_line` (the lines before it read whole, unless `loaded_lines` says)."""
    read = text if loaded is None else loaded
    if loaded_lines is None:
        loaded_lines = count_lines(text) if cut_at_line is None else cut_at_line - 1
    return LoadedFile(
        lines=count_lines(text),
        bytes=len(text.encode("utf-8", errors="surrogatepass")),
        tokens=estimate_tokens(text),
        loaded_lines=loaded_lines,
        loaded_bytes=len(read.encode("utf-8", errors="surrogatepass")),
        loaded_tokens=estimate_tokens(read),
        cut_at_line=cut_at_line,
        **fields,  # type: ignore[arg-type]
    )


def on_demand(text: str, cut_reason: str | None = None, **fields: object) -> LoadedFile:
    """A file the agent reads only when pointed to it, none of it at the start (`cut_reason`:
    why not, shown as a cut at its first line)."""
    cut = 1 if cut_reason else None
    return measured(
        text,
        loaded="",
        loaded_lines=0,
        cut_at_line=cut,
        cut_reason=cut_reason,
        when="on demand",
        **fields,
    )


def named(path: str | Path, identify: Identify) -> dict[str, Any]:
    """How a file is named in the records: its id when a source holds it, else its path."""
    file_id = identify(path)
    physical = os.fspath(path)
    return {"id": file_id, "path": None if file_id else physical, "physical_path": physical}


def project_root(cwd: Path) -> Path:
    """The checkout holding `cwd` (the nearest folder with `.git`), else `cwd`."""
    return next((d for d in (cwd, *cwd.parents) if (d / ".git").exists()), cwd)


def line_of_byte(text: str, offset: int) -> int:
    """The 1-based line that holds UTF-8 byte `offset` of `text`."""
    return text.encode("utf-8", errors="surrogatepass")[:offset].count(b"\n") + 1
