"""Who changed a file, by xum's journal (docs/formats.md §14.5): the recorder asks the one
reader of `durable-events.jsonl` (store/history/xum_journal.py), so every row shape xum
writes (`RefinementInverseSchema`, a rollback's action) names its files."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from memtab.fs.clock import now_ms
from memtab.sources.gemini.inbox import EXTRACTION_LOCK, EXTRACTION_STATE
from memtab.sources.model import Layout, Source
from memtab.store.history.xum_journal import JOURNAL_NAME
from memtab.store.home import Home
from memtab.watch.sources import EXTERNAL, GEMINI, RECENT_MS, XUM, mux_actor, source_actor

WS = "ws-acting"
VIRTUAL = "/memories/global/pnpm.md"


def _journal(home: Home, *rows: dict[str, Any]) -> None:
    journal = home.workspace_dir(WS) / JOURNAL_NAME
    journal.parent.mkdir(parents=True, exist_ok=True)
    lines = ['{"kind":"turn-envelope","seq":1,"id":"t","ts":1,"v":1,"data":{}}']
    lines += [json.dumps(row) for row in rows]
    journal.write_text("\n".join(lines) + "\n", "utf-8")


def _row(
    action: dict[str, Any], inverse: dict[str, Any], *, at: int, kind: str = "memory"
) -> dict[str, Any]:
    return {
        "workspaceId": WS,
        "kind": "refinement",
        "v": 1,
        "seq": 2,
        "id": "evt-2",
        "ts": at,
        "data": {
            "kind": kind,
            "action": action,
            "inverse": inverse,
            "evidence": {"workspaceId": WS, "toolName": "memory", "actor": "agent"},
        },
    }


@pytest.mark.parametrize(
    ("action", "inverse", "physical"),
    [
        # a delete: the row's virtual path names it, the inverse a blob
        ({"op": "delete", "path": VIRTUAL}, {"op": "restore-files", "files": []}, False),
        # a forced rollback: the file it created is in the inverse's deletePaths
        (
            {"op": "rollback", "of": "evt-1"},
            {"op": "restore-files", "files": [], "deletePaths": ["PHYSICAL"]},
            True,
        ),
        # a rename back: the inverse's from/to
        (
            {"op": "rename", "path": "/memories/global/old.md", "newPath": VIRTUAL},
            {"op": "rename", "from": "PHYSICAL", "to": "/elsewhere/old.md"},
            True,
        ),
    ],
    ids=["virtual-path", "rollback-delete-paths", "rename"],
)
def test_a_row_of_xums_memory_tool_naming_the_file_makes_it_xums(
    tmp_path: Path, action: dict[str, Any], inverse: dict[str, Any], physical: bool
) -> None:
    home = Home(tmp_path / "home")
    on_disk = str(home.root / "memory" / "pnpm.md")
    inverse = json.loads(json.dumps(inverse).replace("PHYSICAL", on_disk))
    _journal(home, _row(action, inverse, at=now_ms()))
    assert mux_actor(home, [VIRTUAL], [on_disk] if physical else []) == XUM
    assert mux_actor(home, ["/memories/global/other.md"], []) == EXTERNAL


def test_old_rows_skill_rows_and_a_cut_line_are_not_xums_change(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    old = _row({"op": "delete", "path": VIRTUAL}, {"op": "delete-files", "paths": ["x"]}, at=1)
    skill = _row(
        {"op": "write", "skillName": "pnpm"},
        {"op": "delete-files", "paths": [VIRTUAL]},
        at=now_ms(),
        kind="skill",
    )
    _journal(home, old, skill)
    with (home.workspace_dir(WS) / JOURNAL_NAME).open("a") as handle:
        handle.write('{"kind":"refinement","data":{"kind":"memory","action":{"op":"del')
    assert mux_actor(home, [VIRTUAL], []) == EXTERNAL


def test_gemini_cli_s_extraction_is_who_changed_its_private_memory(tmp_path: Path) -> None:
    memory = tmp_path / ".gemini" / "tmp" / "app" / "memory"
    memory.mkdir(parents=True)
    source = Source(
        id="gemini:memory-app", agent="gemini", layout=Layout.GEMINI_MEMORY, root=memory, label=""
    )
    moment = now_ms()
    assert source_actor(source, now=moment) == EXTERNAL  # the user, an editor, Gemini's tools
    started = "2026-11-26T07:00:00.000Z"
    lock = memory / EXTRACTION_LOCK
    lock.write_text(json.dumps({"pid": os.getpid(), "startedAt": started}))
    at_start = 1_795_676_400_000  # 2026-11-26T07:00:00Z: within its 35 minutes
    assert source_actor(source, now=at_start + 60_000) == GEMINI
    lock.unlink()  # the run ended: its state was written just now
    (memory / EXTRACTION_STATE).write_text('{"runs": []}')
    assert source_actor(source, now=now_ms()) == GEMINI
    assert source_actor(source, now=now_ms() + RECENT_MS + 1000) == EXTERNAL
