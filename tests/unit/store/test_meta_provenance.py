"""xum's provenance marker on memory-meta.json entries, `carriesProjectSkillContent`
(src/node/services/memoryMeta.ts; docs/formats.md §7): Memtab never sets it, and every
change it makes keeps it as it is — it moves with its entry, keeps an entry that holds
nothing else, and comes back with a file restored from history."""

from __future__ import annotations

import json
from typing import Any

import pytest

from memtab.store.home import Home
from memtab.store.restore.from_history import restore, trash
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.meta import PROVENANCE_FIELD, MetaEntry, MetaStore, global_key
from support.memory_paths import vpath

from .helpers import FakeClock

A, B = "/memories/global/a.md", "/memories/global/b.md"


def _entries(home: Home) -> dict[str, Any]:
    entries: dict[str, Any] = json.loads(home.meta_path.read_text())["entries"]
    return entries


def _mark(home: Home, key: str, value: bool, **fields: Any) -> None:
    entries = _entries(home) if home.meta_path.exists() else {}
    entries[key] = {**entries.get(key, {}), PROVENANCE_FIELD: value, **fields}
    home.root.mkdir(parents=True, exist_ok=True)
    home.meta_path.write_text(json.dumps({"entries": entries}))


@pytest.fixture
def store(home: Home) -> MemoryStore:
    store = MemoryStore(home, None, clock=FakeClock())
    store.create_file(vpath(A), "one\n")
    return store


@pytest.mark.parametrize("value", [True, False])
def test_every_change_keeps_the_marker_as_it_is(store: MemoryStore, value: bool) -> None:
    home, key = store.home, global_key("a.md")
    _mark(home, key, value)
    store.set_pinned(vpath(A), True)
    store.edit_text(vpath(A), lambda text: text + "two\n")
    store.set_pinned(vpath(A), False)
    store.meta.record_read(key)
    assert _entries(home)[key][PROVENANCE_FIELD] is value
    # An entry left with nothing but the marker is kept.
    store.meta.update_entries({key: lambda _entry: None})
    assert _entries(home)[key] == {**MetaEntry().to_json(), PROVENANCE_FIELD: value}


def test_the_marker_moves_with_its_file_and_a_stale_one_at_the_destination_goes(
    store: MemoryStore,
) -> None:
    home = store.home
    _mark(home, global_key("a.md"), True)
    store.move(vpath(A), vpath(B))
    assert _entries(home)[global_key("b.md")][PROVENANCE_FIELD] is True
    assert global_key("a.md") not in _entries(home)
    # A file with no entry renamed where a stale "verified clean" entry was left: that
    # entry does not describe it (xum's renameKeys clears the destination first).
    store.create_file(vpath(A), "other\n")
    _mark(home, global_key("c.md"), False, pinned=True)
    store.move(vpath(A), vpath("/memories/global/c.md"))
    assert PROVENANCE_FIELD not in _entries(home).get(global_key("c.md"), {})


def test_a_file_restored_from_history_gets_its_marker_back(store: MemoryStore) -> None:
    home = store.home
    _mark(home, global_key("a.md"), False)
    store.delete(vpath(A))
    assert global_key("a.md") not in _entries(home)
    [item] = trash(store)
    restore(store, vpath(item.path), item.version.id)
    assert _entries(home)[global_key("a.md")][PROVENANCE_FIELD] is False


def test_the_marker_is_no_pin_or_use(home: Home) -> None:
    _mark(home, global_key("a.md"), True)
    assert MetaStore(home).load() == {}
    assert MetaStore(home).snapshot() == {
        global_key("a.md"): {**MetaEntry().to_json(), PROVENANCE_FIELD: True}
    }
