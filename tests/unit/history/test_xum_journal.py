"""xum's own undo journal read as provenance (xum's refinementJournal.ts; docs/formats.md
§14.6): blame and History name the xum tool call that wrote a line, and Memtab never
changes that journal."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from memtab.blame.records import XumToolCallSource
from memtab.blame.service import blame_memory_file
from memtab.cli.main import main
from memtab.components.history.history import load_file_history
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.fs.clock import now_ms
from memtab.sources.open_file import open_memory_file
from memtab.store.catch_up.external import record_external
from memtab.store.history.xum_journal import XumJournal, recent_edits
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from support.memory_paths import vpath

from .helpers import WS, new_home, store_for

NOTES = "/memories/workspace/notes.md"
CALL = "toolu_01XumCallOfTheAgent"


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return new_home(tmp_path / "home")


def _xum_writes(home: Home, text: str, *, ts: int, call: str | None = CALL, seq: int = 0) -> Path:
    """What xum's memory service does for an agent's str_replace: the file, then one
    refinement row in the acting workspace's journal (its real shape)."""
    physical = store_for(home).physical(parse_file_path(NOTES))
    physical.parent.mkdir(parents=True, exist_ok=True)
    physical.write_text(text)
    evidence = {"workspaceId": WS, "toolName": "memory", "actor": "agent"}
    if call is not None:
        evidence["toolCallId"] = call
    row = {
        "workspaceId": WS,
        "kind": "refinement",
        "data": {
            "kind": "memory",
            "action": {"op": "str_replace", "path": NOTES},
            "inverse": {"op": "restore-files", "files": [{"path": str(physical), "blobRef": "x"}]},
            "evidence": evidence,
            "postState": {
                "files": [
                    {"path": str(physical), "sha256": hashlib.sha256(text.encode()).hexdigest()}
                ]
            },
        },
        "v": 1,
        "seq": seq,
        "id": f"event-{seq}",
        "ts": ts,
    }
    journal = home.workspace_dir(WS) / "durable-events.jsonl"
    with journal.open("a") as handle:
        handle.write('{"kind":"turn-envelope","seq":99,"id":"t","ts":1,"v":1,"data":{}}\n')
        handle.write(json.dumps(row) + "\n")
    return journal


def test_blame_and_history_name_the_xum_tool_call(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    store_for(home).create_file(vpath(NOTES), "# Notes\n")
    journal = _xum_writes(home, "# Notes\n- use pnpm\n", ts=now_ms() + 1)
    before = journal.read_bytes()
    record_external(store_for(home))

    blame = blame_memory_file(store_for(home), NOTES)
    assert [(line.text, line.actor) for line in blame.lines] == [
        ("# Notes", "user"),
        ("- use pnpm", "xum"),
    ]
    source = blame.lines[1].source
    assert source is not None and source.kind == "xum-tool-call"
    assert (source.tool_call_id, source.op, source.workspace_id, source.actor) == (
        CALL,
        "str_replace",
        WS,
        "agent",
    )
    assert blame.to_json()["lines"][1]["source"]["toolCallId"] == CALL

    file = open_memory_file(
        MemoryFileRef.of_mux(parse_file_path(NOTES)), home, store=store_for(home)
    )
    assert file is not None
    newest = load_file_history(file).rows[0]
    assert newest.who == f"xum's memory tool (str_replace, call {CALL}, workspace {WS})"

    assert main(["--home", str(home.root), "blame", NOTES, "--workspace", WS]) == 0
    assert f"xum {CALL}" in capsys.readouterr().out
    assert journal.read_bytes() == before  # read, never written


def test_a_change_no_row_describes_stays_another_programs(home: Home) -> None:
    store_for(home).create_file(vpath(NOTES), "# Notes\n")
    # xum journaled other content: this file's content now is an editor's.
    _xum_writes(home, "# Notes\n- journaled\n", ts=1)
    store_for(home).physical(parse_file_path(NOTES)).write_text("# Notes\n- an editor's\n")
    record_external(store_for(home))
    assert [line.actor for line in blame_memory_file(store_for(home), NOTES).lines] == [
        "user",
        "external",
    ]


def test_the_journal_is_read_leniently(home: Home) -> None:
    journal = home.workspace_dir(WS) / "durable-events.jsonl"
    journal.parent.mkdir(parents=True, exist_ok=True)
    journal.write_text(
        "not json\n"
        '{"kind":"refinement","id":"a","ts":5}\n'  # no data
        '{"kind":"refinement","id":"b","ts":"x","data":{}}\n'
        '{"kind":"refinement","id":"c","ts":7,"data":{"kind":"skill","action":{"op":"write","path":"s"}}}\n'
        '{"kind":"refinement","id":"d","ts":9,"data":{"kind":"memory",'
        '"action":{"op":"create","path":"/memories/global/a.md"},"evidence":7}}\n'
    )
    [edit] = XumJournal(home).edits
    assert (edit.event_id, edit.op, edit.workspace_id, edit.tool_call_id) == (
        "d",
        "create",
        WS,
        None,
    )


def test_a_change_the_recorder_gave_to_mux_names_its_tool_call_too(home: Home) -> None:
    """`memtab watch` records a change xum's memory tool made as `mux` (formats §14.5):
    blame and History still name the call that made it."""
    store_for(home).create_file(vpath(NOTES), "# Notes\n")
    text = "# Notes\n- use pnpm\n"
    store_for(home, actor="mux").edit_text(vpath(NOTES), lambda _: text)
    _xum_writes(home, text, ts=now_ms(), seq=1)
    [_, line] = blame_memory_file(store_for(home), NOTES).lines
    assert line.actor == "xum" and line.source is not None
    assert line.source.kind == "xum-tool-call" and line.source.tool_call_id == CALL
    file = open_memory_file(
        MemoryFileRef.of_mux(parse_file_path(NOTES)), home, store=store_for(home)
    )
    assert file is not None
    assert f"call {CALL}" in load_file_history(file).rows[0].who


CHILD = "c1c1c1c1c1"


def _migrated(home: Home, text: str, *, made_at: int, copied_at: int) -> tuple[Path, Path]:
    """A sub-agent's change of the shared notebook and xum's copy of its row in the owner's
    journal, as coder/shux's `sharedMemoryRowMigration.ts` appends it before the child's
    session dir is deleted: `migratedFrom` `<child>:<row id>`, the owner's evidence, the
    copy's own `ts`, the source's `sourceTs` and origin (`durableEvent.ts`)."""
    physical = store_for(home).physical(parse_file_path(NOTES))
    physical.parent.mkdir(parents=True, exist_ok=True)
    physical.write_text(text)
    sha = hashlib.sha256(text.encode()).hexdigest()
    data: dict[str, Any] = {
        "kind": "memory",
        "action": {"op": "str_replace", "path": NOTES},
        "inverse": {"op": "restore-files", "files": [{"path": str(physical), "blobRef": "x"}]},
        "evidence": {"workspaceId": CHILD, "toolName": "memory", "toolCallId": CALL},
        "postState": {"files": [{"path": str(physical), "sha256": sha}]},
        "sourceTs": made_at,
    }
    source: dict[str, Any] = {"workspaceId": CHILD, "kind": "refinement", "data": data}
    source.update({"v": 1, "seq": 3, "id": "child-row", "ts": made_at})
    copy_data = {**data, "evidence": {**data["evidence"], "workspaceId": WS}}
    copy_data.update({"migratedFrom": f"{CHILD}:child-row", "originJournal": CHILD, "originSeq": 3})
    copy: dict[str, Any] = {"workspaceId": WS, "kind": "refinement", "data": copy_data}
    copy.update({"v": 1, "seq": 40, "id": "owner-copy", "ts": copied_at})
    journals = []
    for workspace, row in ((CHILD, source), (WS, copy)):
        journal = home.workspace_dir(workspace) / "durable-events.jsonl"
        journal.parent.mkdir(parents=True, exist_ok=True)
        journal.write_text(json.dumps(row) + "\n")
        journals.append(journal)
    return journals[0], journals[1]


def test_a_migrated_row_is_the_sub_agents_change_once(home: Home) -> None:
    made_at, copied_at = 1_767_225_600_000, 1_767_312_000_000
    child_journal, _ = _migrated(
        home, "# Notes\n- from the task\n", made_at=made_at, copied_at=copied_at
    )

    [edit] = XumJournal(home).edits  # the child's row; its copy is the same change
    assert (edit.event_id, edit.workspace_id, edit.at) == ("child-row", CHILD, made_at)

    child_journal.unlink()  # xum deletes the child's session dir after the copy
    [edit] = XumJournal(home).edits
    assert (edit.event_id, edit.workspace_id, edit.at) == ("owner-copy", CHILD, made_at)
    assert edit.words == f"xum's memory tool (str_replace, call {CALL}, workspace {CHILD})"


def test_a_migrated_row_is_no_change_made_just_now(home: Home) -> None:
    now = now_ms()
    _migrated(home, "# Notes\n- from the task\n", made_at=now - 86_400_000, copied_at=now)
    (home.workspace_dir(CHILD) / "durable-events.jsonl").unlink()

    assert list(recent_edits(home, now - 60_000, 1 << 20)) == []


def test_blame_names_the_sub_agent_once_its_journal_is_gone(home: Home) -> None:
    store_for(home).create_file(vpath(NOTES), "# Notes\n")
    now = now_ms()
    child_journal, _ = _migrated(home, "# Notes\n- from the task\n", made_at=now, copied_at=now + 5)
    child_journal.unlink()
    record_external(store_for(home))

    [_, line] = blame_memory_file(store_for(home), NOTES).lines
    assert line.actor == "xum" and isinstance(line.source, XumToolCallSource)
    assert (line.source.tool_call_id, line.source.workspace_id) == (CALL, CHILD)
