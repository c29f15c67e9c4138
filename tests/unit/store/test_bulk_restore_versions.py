"""A restore of versions through `bulk_restore` is recorded as a single restore records it:
`op` restore, the version it came from (`restoredFrom`), the pins of a deleted file given
back — what `memtab history --json`, `memtab events --json` and blame read (formats §14)."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

from memtab.cli.main import main
from memtab.store.catch_up.external import record_external
from memtab.store.history.blobs import sha256_of
from memtab.store.history.versions import Version
from memtab.store.home import Home
from memtab.store.paths import Scope, VirtualPath
from memtab.store.restore.bulk_restore import Restore, restore_contents
from memtab.store.restore.from_history import content_of, file_history, restore
from memtab.store.scopes.memory import MemoryStore
from memtab.watch.events import change_events
from support.memory_paths import vpath

GONE = vpath("/memories/global/gone.md")
KEPT = vpath("/memories/global/kept.md")
SAME = vpath("/memories/global/same.md")
NEW = vpath("/memories/global/new.md")


def _burst(home: Home) -> tuple[MemoryStore, Version, Version]:
    """A pinned note deleted and another rewritten by another program in one go; the
    deletion and the version before the rewrite (what a restore puts back)."""
    store = MemoryStore(home, None)
    store.create_file(GONE, "# Gone\n\n- the deploy runs from CI\n")
    store.create_file(KEPT, "# Kept\n\n- port 8080\n")
    store.create_file(SAME, "# Same\n")
    store.set_pinned(GONE, True)
    root = store.root(Scope.GLOBAL)
    (root / "gone.md").unlink()
    (root / "kept.md").write_text("# merged\n", "utf-8")
    (root / "same.md").unlink()
    record_external(store, scopes=(Scope.GLOBAL,))
    deleted = file_history(store, GONE)[0]
    before = file_history(store, KEPT)[1]
    assert deleted.deleted and deleted.meta and deleted.meta["pinned"] is True
    assert before.op == "create"
    return store, deleted, before


def _printed(*args: str) -> Any:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(list(args)) == 0
    return json.loads(out.getvalue())


def _history(home: Home, path: VirtualPath) -> list[dict[str, Any]]:
    """`memtab history PATH --json`, each version id as its place in the list (the ids
    and times of two homes differ; nothing else may)."""
    versions = _printed("--home", str(home.root), "history", str(path), "--json")["versions"]
    place = {version["id"]: index for index, version in enumerate(versions)}
    return [
        {
            **version,
            "id": place[version["id"]],
            "at": None,
            "restoredFrom": place.get(version["restoredFrom"], version["restoredFrom"]),
        }
        for version in versions
    ]


def _indexed(store: MemoryStore, path: VirtualPath) -> dict[str, Any]:
    """The newest version as history's index holds it, but for the ids and times (and the
    stat: its mtime)."""
    newest = file_history(store, path)[0].to_json()
    assert isinstance(newest, dict)
    return {
        key: value
        for key, value in newest.items()
        if key not in ("id", "at", "stat", "restoredFrom")
    }


def test_a_bulk_restore_of_versions_is_recorded_as_single_restores_are(tmp_path: Path) -> None:
    one = Home(tmp_path / "one")
    single, deleted_one, before_one = _burst(one)
    restore(single, GONE, deleted_one.id)
    restore(single, KEPT, before_one.id)

    many = Home(tmp_path / "many")
    store, deleted, before = _burst(many)
    kept_now = store.read_whole(KEPT)
    assert kept_now is not None
    done = restore_contents(
        store,
        Scope.GLOBAL,
        [
            Restore(GONE, content_of(many, deleted), None, deleted.id, deleted.meta),
            Restore(KEPT, content_of(many, before), sha256_of(kept_now), before.id),
            Restore(NEW, b"# New\n", None),  # a sync's write in the same batch
        ],
    )

    assert done.written == [GONE, KEPT, NEW] and not done.changed and not done.failed
    newest = file_history(store, NEW)[0]
    assert (newest.op, newest.restored_from) == ("create", None)  # not a restore
    for path in (GONE, KEPT):
        assert _history(many, path) == _history(one, path)  # byte for byte but ids and times
        assert _indexed(store, path) == _indexed(single, path)
    newest = file_history(store, GONE)[0]
    assert (newest.op, newest.restored_from) == ("restore", deleted.id)
    assert file_history(store, KEPT)[0].restored_from == before.id
    assert store.is_pinned(GONE)  # its pin came back with it, as with a single restore
    assert single.is_pinned(GONE)
    (event,) = change_events(many)
    (event_one,) = change_events(one)
    assert event.restored == event_one.restored == 2  # of its three files
    listed = _printed("events", "--home", str(many.root), "--json", "--days", "0")["events"]
    listed_one = _printed("events", "--home", str(one.root), "--json", "--days", "0")["events"]
    assert [(e["restored"], e["deleted"], e["rewritten"]) for e in listed] == [(2, 2, 1)]
    assert [(e["restored"], e["deleted"], e["rewritten"]) for e in listed_one] == [(2, 2, 1)]


def test_pins_given_back_to_a_file_not_brought_back_are_taken_back(tmp_path: Path) -> None:
    there = b"an agent wrote it meanwhile\n"
    store, deleted, _before = _burst(Home(tmp_path / "home"))
    (store.root(Scope.GLOBAL) / "gone.md").write_bytes(there)  # before the restore looks

    done = restore_contents(
        store,
        Scope.GLOBAL,
        [Restore(GONE, content_of(store.home, deleted), None, deleted.id, deleted.meta)],
    )

    assert done.changed == [GONE] and not done.written
    assert store.read_whole(GONE) == there
    assert not store.is_pinned(GONE)  # not the new file's pin: it was never given back
