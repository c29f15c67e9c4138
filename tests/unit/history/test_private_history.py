"""History and agents' proposals hold memory's text: private, whatever the umask
(docs/formats.md §16.2) — 0600 in 0700 folders from the home's own `memtab/` down, an
older Memtab's closed at the next write — while the memory files keep the modes they
have: they are the agent's."""

from __future__ import annotations

import os
from pathlib import Path

from memtab.store.history.blobs import BlobStore, sha256_of
from memtab.store.history.packs import PACK_MIN
from memtab.store.history.provenance import ProvenanceLog
from memtab.store.history.records import ProvenanceRecord
from memtab.store.history.runs import RunEntry, RunsLog
from memtab.store.home import Home
from memtab.store.proposals.queue import ProposalQueue, ToolCall
from memtab.store.scopes.tool import MemoryTool
from memtab.store.sidecars.registry import load_registry
from memtab.writer.inbox.suggestions import SuggestionQueue
from memtab.writer.offline.notes import Note
from support.memory_paths import vpath
from support.private_modes import mode_of, open_to_others

from .helpers import WS, new_home, store_for


def written_as_memtab_writes(home: Home) -> None:
    """A user's saves, a batch packed, a run, a provenance note, an agent's proposal
    and the writer's suggestion."""
    store = store_for(home)
    store.create_file(vpath("/memories/global/a.md"), "a secret of the user's\n")
    store.delete(vpath("/memories/global/a.md"))
    store.create_file(vpath("/memories/project/b.md"), "another\n")
    blobs = BlobStore(home.history_blobs_dir, own=home.memtab_dir)
    with blobs.batch() as batch:
        for index in range(PACK_MIN):
            batch.put(f"packed {index}\n".encode())
    RunsLog(home).append(RunEntry(id="r1", at=1, kind="sync", summary="a run's words"))
    ProvenanceLog(home).append(ProvenanceRecord(at=1, kind="writer-run", versions=("v1",)))
    workspace = load_registry(home).require_workspace(WS)
    call = ToolCall("create", {"path": "/memories/workspace/c.md", "file_text": "proposed\n"})
    ProposalQueue(home, workspace).propose(call, client="codex")
    note = Note(section="Decisions", text="a suggested memory")
    SuggestionQueue(home, WS).propose([note], memory_path="/memories/workspace/notes.md")


def test_history_and_proposals_are_private_whatever_the_umask(tmp_path: Path, umask: int) -> None:
    home = new_home(tmp_path / "home")
    written_as_memtab_writes(home)
    assert open_to_others(home.memtab_dir / "history") == []
    assert open_to_others(home.memtab_dir / "proposals") == []
    assert open_to_others(home.memtab_dir / "suggestions") == []
    assert mode_of(home.memtab_dir) == 0o700
    memory = store_for(home).physical(vpath("/memories/project/b.md"))
    assert mode_of(memory) == 0o666 & ~umask  # the agent's file: as any program makes it


def test_history_an_older_memtab_left_open_is_closed_at_the_next_write(tmp_path: Path) -> None:
    before = os.umask(0o022)
    try:
        home = new_home(tmp_path / "home")
        blob = home.history_blobs_dir / "ab" / "cdef.z"
        blob.parent.mkdir(parents=True)
        blob.write_bytes(b"an older Memtab's copy")
        (home.memtab_dir / "proposals").mkdir()
        (home.memtab_dir / "proposals" / "global.json").write_text("{}")
    finally:
        os.umask(before)
    assert mode_of(blob) == 0o644 and mode_of(home.memtab_dir) == 0o755
    store_for(home).create_file(vpath("/memories/global/new.md"), "x\n")
    assert open_to_others(home.memtab_dir / "history") == []
    assert open_to_others(home.memtab_dir / "proposals") == []
    assert blob.read_bytes() == b"an older Memtab's copy"


def test_a_memory_file_memtab_changes_keeps_the_mode_its_agent_gave_it(
    tmp_path: Path, umask: int
) -> None:
    home = new_home(tmp_path / "home")
    store = store_for(home)
    path = vpath("/memories/global/secret.md")
    store.create_file(path, "the vault code is hunter2\n")
    physical = store.physical(path)
    os.chmod(physical, 0o600)  # the agent keeps it to its user
    MemoryTool(store).execute(
        {"command": "str_replace", "path": str(path), "old_str": "2", "new_str": "3"}
    )
    assert physical.read_text() == "the vault code is hunter3\n"
    assert mode_of(physical) == 0o600
    os.chmod(physical, 0o664)  # a group's, by the agent's choice: kept too
    store.save(path, "new\n", sha256_of(b"the vault code is hunter3\n"))
    assert mode_of(physical) == 0o664


def test_a_memory_file_and_folder_memtab_makes_are_never_writable_by_every_user(
    tmp_path: Path,
) -> None:
    """Under umask 000 a memory file another user could write would put their words in every
    agent's context: Memtab's are as open as the umask says, less writing by all."""
    before = os.umask(0o000)
    try:
        home = new_home(tmp_path / "home")
        store = store_for(home)
        path = vpath("/memories/global/deep/er/note.md")
        store.create_file(path, "a rule\n")
        store.save(path, "a rule, edited\n", sha256_of(b"a rule\n"))
        physical = store.physical(path)
        made = [physical, physical.parent, physical.parent.parent]
    finally:
        os.umask(before)
    assert [mode_of(entry) for entry in made] == [0o664, 0o775, 0o775]
