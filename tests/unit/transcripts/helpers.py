"""Shared helpers for the transcript tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def fixture_file(fixtures_dir: Path, fragment: str) -> Path:
    """The one shared fixture whose name contains `fragment`."""
    matches = [path for path in fixtures_dir.glob("*/*.jsonl") if fragment in path.name]
    assert len(matches) == 1, f"{fragment!r} matches {matches}"
    return matches[0]


def jsonl(*records: Any) -> bytes:
    """Records as JSONL bytes, one line each, newline-terminated."""
    return b"".join(json.dumps(record).encode() + b"\n" for record in records)


def append(path: Path, data: bytes) -> None:
    """Append raw bytes to a file, as an agent writing its transcript does."""
    with path.open("ab") as handle:
        handle.write(data)
