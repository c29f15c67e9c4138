"""The review queue of suggested memories: propose, list, accept (edited or not), dismiss —
safe across processes, tolerant of a broken file, never inside a memory scope."""

from __future__ import annotations

import json
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from memtab.fs.sidecar import KeptAside, on_kept_aside
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore, SaveConflictError
from memtab.store.sidecars.meta import MetaStore
from memtab.store.sidecars.registry import Workspace
from memtab.writer.config import DEFAULT_MEMORY_PATH
from memtab.writer.inbox.suggestions import (
    SuggestionError,
    SuggestionQueue,
    queue_path,
    suggestion_id,
)
from memtab.writer.offline.notes import COMMANDS, DIRECTIVES, Note

NOTES = [
    Note(DIRECTIVES, "Always use pnpm, never npm."),
    Note(COMMANDS, "`pnpm test` (tests)"),
]


@pytest.fixture
def queue(home: Home, workspace: Workspace) -> SuggestionQueue:
    return SuggestionQueue(home, workspace.id, clock=lambda: 1_700_000_000_000)


def notes_file(home: Home, workspace: Workspace) -> Path:
    return home.workspace_root(workspace.id) / "notes.md"


def test_proposed_notes_wait_in_memtabs_folder_never_in_a_scope(
    home: Home, workspace: Workspace, queue: SuggestionQueue
) -> None:
    added = queue.propose(NOTES, memory_path=DEFAULT_MEMORY_PATH)
    assert [s.text for s in added] == [note.text for note in NOTES]
    assert queue.path == home.memtab_dir / "suggestions" / f"{workspace.id}.json"
    assert not queue.path.is_relative_to(home.root / "memory")
    assert not queue.path.is_relative_to(home.workspace_root(workspace.id))
    assert queue.pending() == added
    assert queue.propose(NOTES, memory_path=DEFAULT_MEMORY_PATH) == []  # once each
    document = json.loads(queue.path.read_text())
    assert document["version"] == 1 and document["workspaceId"] == workspace.id
    assert document["suggestions"][0] == {
        "id": suggestion_id(DIRECTIVES, "Always use pnpm, never npm."),
        "section": "Directives",
        "text": "Always use pnpm, never npm.",
        "memoryPath": DEFAULT_MEMORY_PATH,
        "source": "offline-writer",
        "createdAt": 1_700_000_000_000,
        "status": "pending",
    }


def test_accept_writes_through_the_store_as_a_write(
    home: Home, workspace: Workspace, queue: SuggestionQueue
) -> None:
    first, second = queue.propose(NOTES, memory_path=DEFAULT_MEMORY_PATH)
    result = queue.accept([second.id], workspace=workspace)
    assert [s.status for s in result.suggestions] == ["accepted"]
    text = notes_file(home, workspace).read_text()
    assert text.endswith("## Commands that work\n\n- `pnpm test` (tests)\n")
    assert "pnpm, never npm" not in text
    entry = MetaStore(home).load()[f"workspace:{workspace.id}:notes.md"]
    assert entry.last_write_at is not None
    assert queue.pending() == [first]
    with pytest.raises(SuggestionError, match=f"No pending suggestion with id {second.id}"):
        queue.accept([second.id], workspace=workspace)


def test_edit_then_accept_writes_the_edited_text(
    home: Home, workspace: Workspace, queue: SuggestionQueue
) -> None:
    first, _ = queue.propose(NOTES, memory_path=DEFAULT_MEMORY_PATH)
    notes_file(home, workspace).parent.mkdir(parents=True, exist_ok=True)
    notes_file(home, workspace).write_text("# My notes\n\nWritten by hand.\n")
    queue.accept([first.id], workspace=workspace, text="- Use pnpm  (never npm) here.")
    assert notes_file(home, workspace).read_text() == (
        "# My notes\n\nWritten by hand.\n\n## Directives\n\n- Use pnpm (never npm) here.\n"
    )
    with pytest.raises(SuggestionError, match="one suggestion at a time"):
        queue.accept(["a", "b"], workspace=workspace, text="x")
    with pytest.raises(SuggestionError, match="empty"):
        queue.accept([queue.pending()[0].id], workspace=workspace, text="  - ")


def test_a_dismissed_suggestion_is_never_proposed_again(queue: SuggestionQueue) -> None:
    first, second = queue.propose(NOTES, memory_path=DEFAULT_MEMORY_PATH)
    assert [s.status for s in queue.dismiss([first.id])] == ["dismissed"]
    assert queue.propose(NOTES, memory_path=DEFAULT_MEMORY_PATH) == []
    assert queue.pending() == [second]


def test_accept_retries_when_the_notes_file_changes_meanwhile(
    home: Home, workspace: Workspace, queue: SuggestionQueue, monkeypatch: pytest.MonkeyPatch
) -> None:
    [first, _] = queue.propose(NOTES, memory_path=DEFAULT_MEMORY_PATH)
    path = notes_file(home, workspace)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# Notes\n")
    real_save = MemoryStore.save
    calls = []

    def save_after_mux_wrote(self: MemoryStore, *args: object) -> object:
        if not calls:
            calls.append(1)
            path.write_text("# Notes\n\n- Added by mux meanwhile.\n")
            raise SaveConflictError("changed", "changed since it was loaded")
        return real_save(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(MemoryStore, "save", save_after_mux_wrote)
    queue.accept([first.id], workspace=workspace)
    assert path.read_text() == (
        "# Notes\n\n- Added by mux meanwhile.\n\n## Directives\n\n- Always use pnpm, never npm.\n"
    )


@pytest.mark.expect_log(
    "memtab.fs.sidecar", "WARNING", r"^a1b2c3d4e5\.json could not be used \(not valid JSON"
)
@pytest.mark.expect_log(
    "memtab.writer.inbox.suggestions",
    "WARNING",
    r"^Suggested memories: cannot use .*a1b2c3d4e5\.json: not valid JSON",
)
def test_a_corrupt_queue_is_kept_aside_and_unknown_entries_are_kept(
    home: Home, workspace: Workspace, queue: SuggestionQueue
) -> None:
    queue.path.parent.mkdir(parents=True)
    queue.path.write_text('{"suggestions": [ broken')
    assert queue.pending() == []  # reading never fails
    queue.propose(NOTES[:1], memory_path=DEFAULT_MEMORY_PATH)
    [aside] = queue.path.parent.glob(f"{workspace.id}.json.corrupt-*")
    assert aside.read_text() == '{"suggestions": [ broken'
    document = json.loads(queue.path.read_text())
    document["suggestions"].append({"id": "zzz", "future": True})
    document["suggestions"].append(
        {**document["suggestions"][0], "id": "g1", "memoryPath": "/memories/global/x.md"}
    )
    queue.path.write_text(json.dumps(document))
    assert [s.id for s in queue.pending()] == [document["suggestions"][0]["id"]]
    queue.propose(NOTES[1:], memory_path=DEFAULT_MEMORY_PATH)
    kept = json.loads(queue.path.read_text())["suggestions"]
    assert {"id": "zzz", "future": True} in kept
    assert any(entry.get("id") == "g1" for entry in kept)  # a global target is never used


def test_an_entry_keeps_the_fields_this_version_does_not_know(queue: SuggestionQueue) -> None:
    [suggestion] = queue.propose(NOTES[:1], memory_path=DEFAULT_MEMORY_PATH)
    document = json.loads(queue.path.read_text())
    document["suggestions"][0]["future"] = {"kept": True}
    queue.path.write_text(json.dumps(document))
    queue.dismiss([suggestion.id])
    [entry] = json.loads(queue.path.read_text())["suggestions"]
    assert entry["status"] == "dismissed" and entry["future"] == {"kept": True}


@pytest.mark.expect_log(
    "memtab.fs.sidecar", "WARNING", r"^a1b2c3d4e5\.json could not be used \(not valid JSON"
)
def test_a_corrupt_queue_is_kept_aside_by_the_sidecar_rule_and_said_once(
    workspace: Workspace, queue: SuggestionQueue
) -> None:
    told: list[KeptAside] = []
    stop = on_kept_aside(told.append)
    try:
        queue.path.parent.mkdir(parents=True)
        queue.path.write_bytes(b'{"suggestions": [ broken')
        queue.propose(NOTES[:1], memory_path=DEFAULT_MEMORY_PATH)
        queue.propose(NOTES[1:], memory_path=DEFAULT_MEMORY_PATH)
    finally:
        stop()
    [aside] = queue.path.parent.glob(f"{workspace.id}.json.corrupt-*")
    assert re.fullmatch(rf"{workspace.id}\.json\.corrupt-\d{{8}}T\d{{6}}Z", aside.name)
    assert aside.read_bytes() == b'{"suggestions": [ broken'
    assert stat.S_IMODE(aside.stat().st_mode) == 0o600  # a sidecar copy is private
    assert [(kept.original, kept.backup) for kept in told] == [(queue.path, aside)]
    assert len(queue.pending()) == 2


@pytest.mark.expect_log(
    "memtab.fs.sidecar",
    "WARNING",
    r"^a1b2c3d4e5\.json could not be used \(its suggestions are not a list\)",
)
@pytest.mark.expect_log(
    "memtab.writer.inbox.suggestions",
    "WARNING",
    r"^Suggested memories: cannot use .*a1b2c3d4e5\.json: its suggestions are not a list",
)
def test_a_queue_of_the_wrong_shape_is_kept_aside_and_its_other_fields_stay(
    workspace: Workspace, queue: SuggestionQueue
) -> None:
    queue.path.parent.mkdir(parents=True)
    queue.path.write_text('\ufeff{"suggestions": {"a": 1}, "future": [1, 2]}')
    assert queue.pending() == []
    queue.propose(NOTES[:1], memory_path=DEFAULT_MEMORY_PATH)
    [aside] = queue.path.parent.glob(f"{workspace.id}.json.corrupt-*")
    assert json.loads(aside.read_text(encoding="utf-8-sig"))["suggestions"] == {"a": 1}
    document = json.loads(queue.path.read_text())
    assert document["future"] == [1, 2] and len(document["suggestions"]) == 1


def test_secrets_are_redacted_before_a_suggestion_is_stored(queue: SuggestionQueue) -> None:
    leak = Note(DIRECTIVES, "Always export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz012345")
    [suggestion] = queue.propose([leak], memory_path=DEFAULT_MEMORY_PATH)
    assert "sk-proj-abcdef" not in suggestion.text
    assert "sk-proj-abcdef" not in queue.path.read_text()


def test_bad_workspace_ids_never_make_a_path(home: Home) -> None:
    for bad in ("../x", ".hidden", "a/b", ""):
        with pytest.raises(SuggestionError):
            queue_path(home, bad)


PROPOSER = r"""
import sys
from pathlib import Path
from memtab.fs.sidecar import KeptAside, on_kept_aside
from memtab.store.home import Home
from memtab.writer.offline.notes import Note
from memtab.writer.inbox.suggestions import SuggestionQueue
home, workspace, tag = Home(Path(sys.argv[1])), sys.argv[2], sys.argv[3]
queue = SuggestionQueue(home, workspace)
for n in range(25):
    queue.propose([Note("Findings", f"{tag} finding number {n} about `x{n}`.")],
                  memory_path="/memories/workspace/notes.md")
"""


# slow: starts other processes (two processes proposing at once; ~0.5 s of CPU or more)
@pytest.mark.slow
def test_two_processes_proposing_at_once_lose_nothing(
    home: Home, workspace: Workspace, queue: SuggestionQueue
) -> None:
    workers = [
        subprocess.Popen([sys.executable, "-c", PROPOSER, str(home.root), workspace.id, tag])
        for tag in ("first", "second")
    ]
    assert [worker.wait(timeout=60) for worker in workers] == [0, 0]
    assert len(queue.pending()) == 50
