"""Who made a change the recorder saw, as far as the agents' own records tell
(docs/formats.md §14.5).

- mux's scopes: `mux` when xum's own journal of its memory tool's changes (a workspace's
  `durable-events.jsonl`, `refinement` rows of kind `memory`) has a row written within
  `RECENT_MS` naming one of the changed files (by virtual path or where it is on disk),
  or when mux's consolidation journal (`memory-consolidation.json`) holds a run that
  ended within `RECENT_MS` and applied an op to one of them; otherwise `external` (an
  editor, a script).
- Claude Code's auto memory: `claude-code` while its consolidation ("auto-dream") holds
  `.consolidate-lock` (a live pid in it) or finished within `RECENT_MS` (the lock's mtime).
- Codex's memories (a git repository Codex rebuilds with one commit): `codex` when the
  repository's HEAD moved within `RECENT_MS` (`.git/logs/HEAD`, else `.git/index`).
- Anything else: `external`.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memtab.fs.clock import now_ms
from memtab.sources.claude_settings import CONSOLIDATE_LOCK
from memtab.sources.layouts import auto_memory_dir
from memtab.sources.model import Layout, Source
from memtab.store.home import Home
from memtab.store.journal import Journal

logger = logging.getLogger(__name__)

EXTERNAL = "external"
MUX = "mux"
CLAUDE_CODE = "claude-code"
CODEX = "codex"
RECENT_MS = 2 * 60 * 1000
"""How long after an agent's own record of a run its changes are still taken as its."""
DURABLE_EVENTS = "durable-events.jsonl"
"""xum's per-workspace journal (`src/node/utils/journal/durableEventJournal.ts`)."""
_TAIL_BYTES = 256 * 1024
_PID_BYTES = 64


def mux_actor(
    home: Home, paths: Sequence[str], physical: Sequence[str] = (), *, now: int | None = None
) -> str:
    """`mux` when its journals show it changed one of `paths` (virtual paths; `physical`:
    where they are on disk) just now (see the module doc), else `external`."""
    moment = now_ms() if now is None else now
    wanted = set(paths)
    if _in_durable_events(home, wanted | set(physical), moment):
        return MUX
    data = Journal(home).load()
    for record in (*data.workspaces.values(), *data.projects.values()):
        if moment - record.last_run_at > RECENT_MS:
            continue
        for op in record.ops:
            if op.applied and {op.path, op.new_path} & wanted:
                return MUX
    return EXTERNAL


def _in_durable_events(home: Home, wanted: set[str], moment: int) -> bool:
    """Whether a workspace's `durable-events.jsonl` has a recent `refinement` row of xum's
    memory tool naming one of `wanted` (its newest `_TAIL_BYTES` only)."""
    try:
        sessions = list(os.scandir(home.sessions_dir))
    except OSError:
        return False
    for session in sessions:
        journal = os.path.join(session.path, DURABLE_EVENTS)
        try:
            if moment - os.stat(journal).st_mtime_ns // 1_000_000 > RECENT_MS:
                continue
            with open(journal, "rb") as handle:
                handle.seek(max(os.fstat(handle.fileno()).st_size - _TAIL_BYTES, 0))
                tail = handle.read()
        except OSError:
            continue
        for line in tail.splitlines():
            if b'"refinement"' in line and _names(line, wanted, moment):
                return True
    return False


def _names(line: bytes, wanted: set[str], moment: int) -> bool:
    """Whether one journal row is a recent change of xum's memory tool to `wanted`."""
    try:
        row = json.loads(line)
    except ValueError:
        return False  # the first line of a tail, cut
    if not isinstance(row, dict) or row.get("kind") != "refinement":
        return False
    data, at = row.get("data"), row.get("ts")
    if not isinstance(data, dict) or data.get("kind") != "memory":
        return False
    if not isinstance(at, int | float) or moment - at > RECENT_MS:
        return False
    return bool(_row_paths(data) & wanted)


def _row_paths(data: dict[str, Any]) -> set[str]:
    """The paths a `refinement` row's inverse and post-state name."""
    found: set[str] = set()
    inverse = data.get("inverse")
    post = data.get("postState")
    if isinstance(inverse, dict):
        for key in ("from", "to"):
            if isinstance(inverse.get(key), str):
                found.add(inverse[key])
        paths = inverse.get("paths")
        if isinstance(paths, list):
            found |= {p for p in paths if isinstance(p, str)}
        files = inverse.get("files")
        if isinstance(files, list):
            found |= {
                f["path"] for f in files if isinstance(f, dict) and isinstance(f.get("path"), str)
            }
    if isinstance(post, dict) and isinstance(post.get("files"), list):
        found |= {
            f["path"]
            for f in post["files"]
            if isinstance(f, dict) and isinstance(f.get("path"), str)
        }
    return found


def source_actor(source: Source, *, now: int | None = None) -> str:
    """Who changed a file of `source` just now (see the module doc)."""
    moment = now_ms() if now is None else now
    memory_dir = auto_memory_dir(source)
    if memory_dir is not None and _claude_consolidating(memory_dir, moment):
        return CLAUDE_CODE
    if source.layout is Layout.CODEX_MEMORIES and _head_moved(source.root, moment):
        return CODEX
    return EXTERNAL


def _claude_consolidating(memory_dir: Path, moment: int) -> bool:
    lock = memory_dir / CONSOLIDATE_LOCK
    try:
        info = os.stat(lock, follow_symlinks=False)
        with open(lock, "rb") as handle:
            body = handle.read(_PID_BYTES).strip()
    except OSError:
        return False
    if moment - info.st_mtime_ns // 1_000_000 <= RECENT_MS:
        return True
    return body.isdigit() and _alive(int(body))


def _alive(pid: int) -> bool:
    if pid <= 0 or os.name == "nt":  # Windows' os.kill ends the process: not asked there
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, owned by someone else
    return True


def _head_moved(root: Path, moment: int) -> bool:
    for marker in (root / ".git" / "logs" / "HEAD", root / ".git" / "index"):
        try:
            changed = os.stat(marker, follow_symlinks=False).st_mtime_ns // 1_000_000
        except OSError:
            continue
        return moment - changed <= RECENT_MS
    return False
