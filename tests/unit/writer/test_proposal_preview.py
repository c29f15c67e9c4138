"""What an agent's proposal would write, against the file as it is now (the Inbox's
review): the file a create makes, a replacement's or an insert's text, a delete, a
rename — and why the memory tool would refuse it now. Nothing is written."""

from __future__ import annotations

import pytest

from memtab.store.files import content_sha256
from memtab.store.home import Home
from memtab.store.proposals.preview import preview_pending
from memtab.store.proposals.queue import ProposalError, ProposalQueue, ToolCall
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import Workspace
from support.memory_paths import vpath

NOTES = "/memories/workspace/notes.md"
TODAY = "# Notes\n\n- Squash before merging.\n- Rebase, never merge.\n"


def proposed(
    home: Home,
    workspace: Workspace,
    command: str,
    expected_sha256: str | None = None,
    **args: object,
) -> str:
    call = ToolCall(command, args, expected_sha256)
    return ProposalQueue(home, workspace).propose(call, client="codex-mcp-client").id


@pytest.fixture
def notes(home: Home, workspace: Workspace) -> MemoryStore:
    store = MemoryStore(home, workspace)
    store.create_file(vpath(NOTES), TODAY)
    return store


def test_each_command_is_shown_as_the_text_it_leaves(
    home: Home, workspace: Workspace, notes: MemoryStore
) -> None:
    replace = proposed(
        home, workspace, "str_replace", path=NOTES, old_str="Squash", new_str="Always squash"
    )
    preview = preview_pending(home, workspace, replace)
    assert (preview.before, preview.problem) == (TODAY, None)
    assert preview.after == TODAY.replace("Squash", "Always squash")
    insert = proposed(home, workspace, "insert", path=NOTES, insert_line=2, insert_text="- Pnpm.")
    assert preview_pending(home, workspace, insert).after == (
        "# Notes\n\n- Pnpm.\n- Squash before merging.\n- Rebase, never merge.\n"
    )
    create = proposed(home, workspace, "create", path="/memories/global/new.md", file_text="a\n")
    made = preview_pending(home, workspace, create)
    assert (made.path, made.before, made.after) == ("/memories/global/new.md", None, "a\n")
    delete = proposed(home, workspace, "delete", path=NOTES)
    assert (preview_pending(home, workspace, delete).after, notes.read_text(vpath(NOTES))) == (
        None,
        TODAY,
    )
    rename = proposed(
        home, workspace, "rename", old_path=NOTES, new_path="/memories/workspace/kept.md"
    )
    moved = preview_pending(home, workspace, rename)
    assert (moved.path, moved.new_path, moved.after) == (
        NOTES,
        "/memories/workspace/kept.md",
        TODAY,
    )
    assert notes.read_text(vpath(NOTES)) == TODAY  # nothing written


def test_a_change_the_tool_would_refuse_now_says_why(
    home: Home, workspace: Workspace, notes: MemoryStore
) -> None:
    gone = proposed(home, workspace, "str_replace", path=NOTES, old_str="Squash", new_str="x")
    read = content_sha256(TODAY)
    stale = proposed(
        home, workspace, "insert", path=NOTES, insert_line=0, insert_text="x", expected_sha256=read
    )
    exists = proposed(home, workspace, "create", path=NOTES, file_text="x")
    notes.edit_text(vpath(NOTES), lambda text: text.replace("Squash", "Fold"))
    refused = {key: preview_pending(home, workspace, key).problem for key in (gone, stale, exists)}
    assert refused[gone] == f"No replacement was performed: old_str was not found in {NOTES}"
    assert "changed since it was read" in (refused[stale] or "")
    assert refused[exists] == f"A file already exists at {NOTES}"
    with pytest.raises(ProposalError):
        preview_pending(home, workspace, "p0000000000")
