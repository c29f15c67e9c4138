"""Small helpers shared by the store tests (homes, files, snapshots, tool results)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memtab.store.home import Home
from memtab.store.scopes.tool import MemoryTool, ToolResult
from support.memory_paths import vpath

PROJECT = "/home/alice/proj"
WORKSPACE_ID = "a1b2c3d4e5"
SIBLING_ID = "f6e5d4c3b2"
MULTI_ID = "beefbeef00"
# The memory tool's properties: those of the hand-written schema models have been sent
# since the start, in its order.
TOOL_PROPERTIES = (
    "command",
    "path",
    "file_text",
    "old_str",
    "new_str",
    "insert_line",
    "insert_text",
    "old_path",
    "new_path",
    "offset",
    "limit",
)


class FakeClock:
    """A clock that moves one second per call, so every recorded time is distinct."""

    def __init__(self, start: int = 1_700_000_000_000) -> None:
        self.now = start

    def __call__(self) -> int:
        self.now += 1000
        return self.now


def write_config(home: Home, document: Any) -> None:
    """Write config.json as mux would (pretty JSON)."""
    home.root.mkdir(parents=True, exist_ok=True)
    home.config_path.write_text(json.dumps(document, indent=2), encoding="utf-8")


def write(path: Path, content: str | bytes) -> Path:
    """Create a file (and its parents) with `content`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every entry under `root` (files with their bytes, dirs and links as None)."""
    result: dict[str, bytes | None] = {}
    if not root.exists():
        return result
    for path in sorted(root.rglob("*")):
        relative = str(path.relative_to(root))
        if path.is_symlink() or path.is_dir():
            result[relative] = None
        else:
            result[relative] = path.read_bytes()
    return result


def ok(result: ToolResult) -> str:
    """The output of a successful tool call (fails the test otherwise)."""
    assert result.success, result.error
    return result.output


def err(result: ToolResult) -> str:
    """The error of a failed tool call (fails the test otherwise)."""
    assert not result.success, f"expected a failure, got: {result.output}"
    assert result.error
    return result.error


def read_meta(home: Home) -> dict[str, Any]:
    """The raw entries of memory-meta.json ({} when the file is absent)."""
    if not home.meta_path.exists():
        return {}
    entries: dict[str, Any] = json.loads(home.meta_path.read_text(encoding="utf-8"))["entries"]
    return entries


# The memory tool's scopes, as its calls name them.
G = "/memories/global"
W = "/memories/workspace"
P = "/memories/project"
S = "/memories/session"


def create(tool: MemoryTool, path: str, text: str) -> None:
    """Create `path` holding `text` through the memory tool (fails the test if refused)."""
    ok(tool.execute({"command": "create", "path": path, "file_text": text}))


def text_of(tool: MemoryTool, path: str) -> str:
    """The text of the memory file at `path`, as the tool's store reads it."""
    return tool.store.read(vpath(path)).content
