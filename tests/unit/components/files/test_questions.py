"""What the tree's file dialogs show and ask, without Qt (`components.files.questions`): the
reason under a name as it is typed, the button's words, the name selected at first, and what
each confirmation says."""

from __future__ import annotations

from memtab.components.files.ops import DeletionCount
from memtab.components.files.questions import (
    MoveForm,
    NewItemForm,
    NewKind,
    cross_scope_question,
    delete_orphan_question,
    delete_question,
    without_copy_question,
)
from memtab.store.paths import Scope, VirtualPath, parse_file_path
from memtab.store.scopes.memory import MemoryStore

NOTES = parse_file_path("/memories/global/tools/notes.md")


def test_a_new_file_is_named_with_md_and_the_reason_waits_for_a_name(store: MemoryStore) -> None:
    form = NewItemForm(store, VirtualPath(Scope.GLOBAL), NewKind.FILE)
    assert form.title == "New memory file" and form.asks_description
    empty = form.state("  ")
    assert empty.path is None and empty.reason == ""  # nothing typed: no reproach yet
    named = form.state("sub/notes")
    assert named.path == parse_file_path("/memories/global/sub/notes.md")
    assert named.reason == "" and named.button == "C&reate"
    hidden = form.state(".md")
    assert hidden.path is None and "no listing would show it" in hidden.reason
    folder = NewItemForm(store, VirtualPath(Scope.GLOBAL), NewKind.FOLDER)
    assert folder.title == "New folder" and not folder.asks_description
    assert folder.state("sub").path == parse_file_path("/memories/global/sub")


def test_a_move_is_a_rename_in_its_folder_and_a_move_elsewhere(store: MemoryStore) -> None:
    form = MoveForm(store, NOTES)
    assert form.title == "Rename or move notes.md"
    assert form.name_selection() == (len("/memories/global/tools/"), len("notes"))
    unchanged = form.state(str(NOTES))
    assert unchanged.path is None and unchanged.reason == ""  # said once it changes
    assert form.state("/memories/global/tools/other.md").button == "&Rename"
    moved = form.state("/memories/global/other.md")
    assert moved.path == parse_file_path("/memories/global/other.md") and moved.button == "&Move"
    bad = form.state("/memories/global/.hidden.md")
    assert bad.path is None and "hidden names" in bad.reason and bad.button == "&Rename"
    folder = MoveForm(store, parse_file_path("/memories/global/tools"))
    assert folder.state("/memories/global/tools/inner").reason.startswith("Cannot move")
    dotted = MoveForm(store, parse_file_path("/memories/global/.env"))
    assert dotted.name_selection() == (len("/memories/global/"), len(".env"))


def test_a_delete_says_what_goes_with_it() -> None:
    one = delete_question(["notes.md"], DeletionCount(1, 1, 0), True, loses_draft=False)
    assert one.text == "Delete notes.md?" and one.action == "Delete"
    assert "search filter" not in one.detail and "unsaved" not in one.detail
    hidden = delete_question(["tools"], DeletionCount(1, 2, 1), False, loses_draft=True)
    assert hidden.text == "Delete tools — 2 files, 1 of them hidden by the search filter?"
    assert "search filter hides" in hidden.detail and "unsaved changes" in hidden.detail
    assert delete_question(["a", "b"], DeletionCount(2, 0, 0), False, False).text == (
        "Delete 2 items — no files inside?"
    )


def test_the_other_confirmations_name_what_they_ask_about() -> None:
    drop = cross_scope_question(["a.md", "b.md"], "the project's memory")
    assert drop.text == "Move 2 items to the project's memory?" and drop.action == "Move"
    refused = without_copy_question("History's folder is full", "restored")
    assert refused.text == "History's folder is full"
    assert refused.action == "Restore without a copy"
    assert without_copy_question("x", "merged").action == "Go on without a copy"
    orphan = delete_orphan_question("proj-1a2b", 3)
    assert orphan.text == "proj-1a2b will be deleted." and "3 files" in orphan.detail
    assert "memtab trash --orphan proj-1a2b" in orphan.detail
