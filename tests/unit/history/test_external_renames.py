"""A rename another program makes (`mv a.md b.md` in a scope folder) is recorded as the move
it is (issue 81 point 5): the file's history goes on at its new name, it is not a deletion
(not in Recently deleted, not a burst to restore), and its pins and usage go with it —
whichever pass finds it, the window's or `memtab watch`'s (`record_external`)."""

from __future__ import annotations

import os
from pathlib import Path

from memtab.store.catch_up.external import record_external
from memtab.store.restore.from_history import file_history, trash
from memtab.watch.events import change_events
from support.memory_paths import vpath

from .helpers import new_home, store_for, versions

OLD = "/memories/global/a.md"
NEW = "/memories/global/notes/b.md"
TEXT = "# A\n\n- kept as it is\n"


def test_a_file_another_program_renamed_is_moved_with_its_history_pins_and_usage(
    tmp_path: Path,
) -> None:
    home = new_home(tmp_path / "home")
    store = store_for(home)
    store.create_file(vpath(OLD), TEXT)
    store.set_pinned(vpath(OLD), True)
    for _ in range(3):
        store.record_read(vpath(OLD))
    uses = store.meta_entries()[store.meta_key(vpath(OLD))].access_count
    other = home.global_root / "other.md"
    other.write_text("# Other\n")  # and another file, gone for good
    record_external(store_for(home, actor="external"))
    (home.global_root / "notes").mkdir()
    os.rename(home.global_root / "a.md", home.global_root / "notes" / "b.md")
    other.unlink()

    report = record_external(store_for(home, actor="external"))

    recorded = versions(store)
    gone = [v for v in recorded if v.path == OLD][-1]
    arrived = [v for v in recorded if v.path == NEW][-1]
    assert (gone.path, gone.op, gone.deleted, gone.moved_to) == (OLD, "move", True, NEW)
    assert (arrived.path, arrived.op, arrived.moved_from) == (NEW, "move", OLD)
    assert arrived.sha256 == gone.sha256 and arrived.actor == "external"
    assert (report.moved, report.recorded, report.deleted) == (1, 0, 1)
    # Its history goes on at the new name, through the rename.
    assert [v.path for v in file_history(store, vpath(NEW))][:2] == [NEW, OLD]
    # Recently deleted and the bursts hold what was deleted, not what was renamed.
    assert [item.path for item in trash(store)] == ["/memories/global/other.md"]
    [event] = change_events(home)
    assert event.deleted == 1 and event.paths == ("/memories/global/other.md",)
    # Its pin and usage are the new name's.
    entries = store.meta_entries()
    assert store.meta_key(vpath(OLD)) not in entries
    moved = entries[store.meta_key(vpath(NEW))]
    assert moved.pinned and moved.access_count == uses
    # The next pass has nothing to add.
    again = record_external(store_for(home, actor="external"))
    assert not again.changed
