"""Recently deleted without Qt: what a file's and a burst's rows say, which groups a filter
shows, what the buttons may do for a selection (a file that cannot come back says why),
how Restore puts a file back, and what restoring a burst did in words."""

from __future__ import annotations

from dataclasses import replace

from memtab.components.history.deleted import BurstFiles, DeletedFile, TrashGroup
from memtab.components.history.trash_view import (
    Restore,
    TrashPresenter,
    burst_row,
    file_row,
    group_title,
    may_restore_to,
    restore_kind,
    restored_words,
    row_key,
    still_gone,
)
from memtab.store.history.versions import Version
from memtab.store.paths import Scope
from memtab.watch.events import ChangeEvent, EventRestore, LeftPath

AT = 1_767_261_600_000


def _version(number: int, path: str, **fields: object) -> Version:
    values: dict[str, object] = {
        "id": f"v{number:03d}",
        "at": AT + number,
        "path": path,
        "actor": "claude-code",
        "op": "delete",
        "sha256": "0" * 64,
        "size_bytes": 2048,
        "deleted": True,
    }
    values.update(fields)
    return Version(**values)  # type: ignore[arg-type]


def _file(number: int, name: str, **fields: object) -> DeletedFile:
    path = f"/memories/workspace/{name}"
    values: dict[str, object] = {
        "path": path,
        "version": _version(number, path),
        "key": "workspace-main",
        "actor": "claude-code",
        "at": AT + number,
    }
    values.update(fields)
    return DeletedFile(**values)  # type: ignore[arg-type]


def _burst(*files: DeletedFile) -> BurstFiles:
    event = ChangeEvent("workspace-main", "claude-code", tuple(f.version for f in files))
    return BurstFiles(event, tuple(replace(f, burst_id=event.id) for f in files))


def test_a_file_row_names_its_marks_and_why_it_cannot_come_back() -> None:
    pinned = _file(
        1, "notes.md", version=_version(1, "/memories/workspace/notes.md", meta={"pinned": True})
    )
    row = file_row(pinned)
    assert row.cells[0] == "notes.md · pinned" and row.cells[3] == "2.0 KiB"
    assert row.tooltips[0] == "/memories/workspace/notes.md\nPinned: the pin comes back with it"
    assert row.tooltips[2] == "" and not row.muted
    refused = file_row(_file(2, "x.md", cannot_restore="its folder is read-only"))
    assert refused.muted
    assert refused.tooltips[0].endswith("Cannot be restored: its folder is read-only")
    assert file_row(_file(3, "y.md", there_again=True)).cells[0] == "y.md · there again"


def test_a_burst_row_says_what_restore_all_puts_back() -> None:
    burst = _burst(_file(1, "a.md"), _file(2, "b.md"))
    row = burst_row(burst)
    assert row.tooltip.splitlines()[-1] == "Restore all puts back 2 files" and not row.muted
    back = _burst(_file(1, "a.md", there_again=True))
    assert burst_row(back).muted
    assert still_gone(burst) == {"/memories/workspace/a.md", "/memories/workspace/b.md"}


def test_the_filter_shows_one_group_and_the_selection_finds_its_burst() -> None:
    burst = _burst(_file(1, "a.md"), _file(2, "b.md"))
    alone = _file(3, "c.md")
    workspace = TrashGroup("Workspace", Scope.WORKSPACE, (alone,), (burst,))
    global_ = TrashGroup("Global", Scope.GLOBAL, ())
    presenter = TrashPresenter()
    presenter.take([workspace, global_])
    assert presenter.shown(None) == [workspace, global_]
    assert presenter.shown("global") == [global_]
    assert group_title(workspace) == "Workspace (3)"
    in_burst = burst.files[0]
    assert presenter.file(row_key(in_burst)) == in_burst and presenter.file("") is None
    assert presenter.burst_of(None, in_burst) == burst
    assert presenter.burst_of(burst.id, None) == burst
    assert presenter.burst_of(None, alone) is None
    assert presenter.bursts == [burst] and presenter.has_bursts


def test_the_buttons_offer_what_a_selection_allows() -> None:
    presenter = TrashPresenter()
    nothing = presenter.buttons(None, None)
    assert not (nothing.restore or nothing.restore_to or nothing.restore_all)
    mux_file = presenter.buttons(_file(1, "a.md"), None)
    assert mux_file.restore and mux_file.restore_to and mux_file.note is None
    rewritten = presenter.buttons(_file(1, "a.md", rewritten=True), None)
    assert rewritten.restore and not rewritten.restore_to
    orphan = presenter.buttons(_file(1, "a.md", orphan_dir="/gone"), None)
    assert orphan.restore and not orphan.restore_to
    refused = presenter.buttons(_file(1, "a.md", cannot_restore="read-only"), None)
    assert not refused.restore and refused.note == "Cannot be restored: read-only"
    burst = _burst(_file(1, "a.md"))
    assert presenter.buttons(None, burst).restore_all
    assert not may_restore_to(_file(1, "a.md", orphan_dir="/gone"))


def test_restore_puts_a_file_back_by_what_it_is_and_says_what_was_left() -> None:
    assert restore_kind(_file(1, "a.md", rewritten=True)) is Restore.BURST
    assert restore_kind(_file(1, "a.md")) is Restore.FROM_HISTORY
    left = (LeftPath(path="/memories/workspace/a.md", why="changed since"),) * 2
    result = EventRestore(event_id="v001", restored=("x",), left=left)
    assert restored_words(result) == "Restored 1 file; left a.md (changed since) and 1 more"
    assert restored_words(EventRestore(event_id="v001")) == "Restored 0 files"
