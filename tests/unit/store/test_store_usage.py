"""Pins and usage in memory-meta.json (docs/formats.md §7): what counts, keys, and self-healing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from memtab.store.home import Home
from memtab.store.paths import Scope, parse_file_path
from memtab.store.scopes.memory import MemoryStore, NotFoundError, ScopeUnavailableError
from memtab.store.scopes.tool import MemoryTool
from memtab.store.sidecars.meta import (
    MetaEntry,
    MetaStore,
    escape_key_component,
    global_key,
    parse_meta_document,
    project_key,
    workspace_key,
)
from memtab.store.sidecars.registry import add_workspace, load_registry
from support.memory_paths import vpath

from .helpers import PROJECT, WORKSPACE_ID, FakeClock, ok, read_meta, write

G = "/memories/global"
W = "/memories/workspace"
P = "/memories/project"
WS_KEY = f"workspace:{WORKSPACE_ID}"


def _entry(home: Home, key: str) -> dict[str, Any]:
    entries = read_meta(home)
    assert key in entries, f"{key} not in {sorted(entries)}"
    entry: dict[str, Any] = entries[key]
    return entry


def _write_global(store: MemoryStore, name: str, text: str = "x\n") -> None:
    write(store.root(Scope.GLOBAL) / name, text)


# --- what counts -----------------------------------------------------------------------


def test_view_of_a_file_is_a_read(tool: MemoryTool, clock: FakeClock) -> None:
    _write_global(tool.store, "a.md")
    ok(tool.execute({"command": "view", "path": f"{G}/a.md"}))
    assert _entry(tool.store.home, "global:a.md") == {
        "pinned": False,
        "accessCount": 1,
        "lastAccessedAt": clock.now,
        "lastWriteAt": None,
    }
    ok(tool.execute({"command": "view", "path": f"{G}/a.md", "offset": 1}))
    assert _entry(tool.store.home, "global:a.md")["accessCount"] == 2


@pytest.mark.parametrize(
    "call",
    [
        {"command": "create", "path": f"{W}/new.md", "file_text": "n"},
        {"command": "str_replace", "path": f"{W}/a.md", "old_str": "one", "new_str": "1"},
        {"command": "insert", "path": f"{W}/a.md", "insert_line": 0, "insert_text": "top"},
    ],
    ids=["create", "str_replace", "insert"],
)
def test_agent_mutations_are_writes(
    tool: MemoryTool, clock: FakeClock, call: dict[str, Any]
) -> None:
    write(tool.store.root(Scope.WORKSPACE) / "a.md", "one\n")
    ok(tool.execute(call))
    key = f"{WS_KEY}:{call['path'].rsplit('/', 1)[-1]}"
    assert _entry(tool.store.home, key) == {
        "pinned": False,
        "accessCount": 1,
        "lastAccessedAt": clock.now,
        "lastWriteAt": clock.now,
    }


def test_a_write_after_a_read_keeps_counting(tool: MemoryTool, clock: FakeClock) -> None:
    _write_global(tool.store, "a.md", "one\n")
    ok(tool.execute({"command": "view", "path": f"{G}/a.md"}))
    read_at = clock.now
    ok(
        tool.execute(
            {"command": "insert", "path": f"{G}/a.md", "insert_line": 1, "insert_text": "2"}
        )
    )
    entry = _entry(tool.store.home, "global:a.md")
    assert entry["accessCount"] == 2
    assert entry["lastWriteAt"] == entry["lastAccessedAt"] == clock.now > read_at


def test_project_scope_keys_use_the_project_path(tool: MemoryTool) -> None:
    ok(tool.execute({"command": "create", "path": f"{P}/dir/p.md", "file_text": "p"}))
    assert list(read_meta(tool.store.home)) == [f"project:{PROJECT}:dir/p.md"]


@pytest.mark.parametrize(
    "call",
    [
        {"command": "view", "path": f"{G}/missing.md"},
        {"command": "view", "path": G},
        {"command": "view", "path": f"{G}/dir"},
        {"command": "view", "path": "/memories"},
        {"command": "view", "path": f"{G}/a.md", "offset": 99},
        {"command": "create", "path": f"{G}/a.md", "file_text": "exists"},
        {"command": "create", "path": f"{G}/big.md", "file_text": "x" * 200_000},
        {"command": "str_replace", "path": f"{G}/a.md", "old_str": "absent", "new_str": "x"},
        {"command": "str_replace", "path": f"{G}/a.md", "old_str": "o", "new_str": "x"},
        {"command": "insert", "path": f"{G}/a.md", "insert_line": 99, "insert_text": "x"},
        {"command": "delete", "path": f"{G}/missing.md"},
        {"command": "rename", "old_path": f"{G}/a.md", "new_path": f"{W}/a.md"},
        {"command": "rename", "old_path": f"{G}/a.md", "new_path": f"{G}/dir/b.md"},
        {"command": "view", "path": "/elsewhere"},
    ],
)
def test_failed_commands_and_directory_views_record_nothing(
    tool: MemoryTool, call: dict[str, Any]
) -> None:
    _write_global(tool.store, "a.md", "one two\n")
    _write_global(tool.store, "dir/b.md", "b")
    tool.execute(call)
    assert read_meta(tool.store.home) == {}


def test_listings_and_editor_reads_record_nothing(store: MemoryStore) -> None:
    _write_global(store, "a.md")
    store.list_all()
    store.read(vpath(f"{G}/a.md"))
    store.meta_entries()
    assert not store.home.meta_path.exists()


def test_editor_save_and_create_are_writes(store: MemoryStore, clock: FakeClock) -> None:
    store.create_file(vpath(f"{G}/a.md"), "v1")
    assert _entry(store.home, "global:a.md")["lastWriteAt"] == clock.now
    current = store.read(vpath(f"{G}/a.md"))
    store.save(vpath(f"{G}/a.md"), "v2", current.sha256)
    entry = _entry(store.home, "global:a.md")
    assert (entry["accessCount"], entry["lastWriteAt"]) == (2, clock.now)


def test_create_directory_records_nothing(store: MemoryStore) -> None:
    store.create_directory(vpath(f"{G}/dir"))
    assert read_meta(store.home) == {}


# --- pins ------------------------------------------------------------------------------


def test_pin_is_pinned_plus_one_use(store: MemoryStore, clock: FakeClock) -> None:
    _write_global(store, "a.md")
    store.set_pinned(vpath(f"{G}/a.md"), True)
    assert _entry(store.home, "global:a.md") == {
        "pinned": True,
        "accessCount": 1,
        "lastAccessedAt": clock.now,
        "lastWriteAt": None,
    }
    assert store.is_pinned(parse_file_path(f"{G}/a.md"))


def test_unpin_keeps_the_usage_stats(store: MemoryStore, clock: FakeClock) -> None:
    _write_global(store, "a.md")
    store.set_pinned(vpath(f"{G}/a.md"), True)
    pinned = _entry(store.home, "global:a.md")
    store.set_pinned(vpath(f"{G}/a.md"), False)
    assert _entry(store.home, "global:a.md") == {**pinned, "pinned": False}


def test_only_existing_files_can_be_pinned(store: MemoryStore) -> None:
    _write_global(store, "dir/a.md")
    with pytest.raises(NotFoundError, match="Only files can be pinned"):
        store.set_pinned(vpath(f"{G}/dir"), True)
    with pytest.raises(NotFoundError):
        store.set_pinned(vpath(f"{G}/missing.md"), True)
    assert read_meta(store.home) == {}


def test_project_pins_need_a_project_identity(multi_store: MemoryStore) -> None:
    with pytest.raises(ScopeUnavailableError):
        multi_store.set_pinned(vpath(f"{P}/a.md"), True)


def test_pinned_within_finds_pins_in_a_subtree(store: MemoryStore) -> None:
    for name in ["dir/a.md", "dir/sub/b.md", "dir2/c.md", "d.md"]:
        _write_global(store, name)
        store.set_pinned(vpath(f"{G}/{name}"), True)
    store.set_pinned(vpath(f"{G}/d.md"), False)
    assert sorted(store.pinned_within(parse_file_path(f"{G}/dir"))) == [
        "global:dir/a.md",
        "global:dir/sub/b.md",
    ]
    assert store.pinned_within(parse_file_path(f"{G}/d.md")) == []


# --- rename and delete move or drop the subtree ----------------------------------------


def test_rename_of_a_file_moves_its_entry_then_records_a_write(
    tool: MemoryTool, clock: FakeClock
) -> None:
    _write_global(tool.store, "a.md")
    tool.store.set_pinned(vpath(f"{G}/a.md"), True)
    ok(tool.execute({"command": "rename", "old_path": f"{G}/a.md", "new_path": f"{G}/b.md"}))
    entries = read_meta(tool.store.home)
    assert "global:a.md" not in entries
    assert entries["global:b.md"] == {
        "pinned": True,
        "accessCount": 2,
        "lastAccessedAt": clock.now,
        "lastWriteAt": clock.now,
    }


def test_rename_of_a_directory_moves_the_pins_inside_it(tool: MemoryTool, clock: FakeClock) -> None:
    for name in ["dir/a.md", "dir/sub/b.md", "dir2/c.md", "dir.md"]:
        _write_global(tool.store, name)
        tool.store.set_pinned(vpath(f"{G}/{name}"), True)
    ok(tool.execute({"command": "rename", "old_path": f"{G}/dir", "new_path": f"{G}/moved/dir"}))
    entries = read_meta(tool.store.home)
    assert sorted(k for k, e in entries.items() if e["pinned"]) == [
        "global:dir.md",  # a sibling whose key merely starts with "dir" stays
        "global:dir2/c.md",
        "global:moved/dir/a.md",
        "global:moved/dir/sub/b.md",
    ]
    # ...then the rename itself counts as a write of the new path.
    assert entries["global:moved/dir"]["lastWriteAt"] == clock.now


def test_delete_drops_the_subtree(tool: MemoryTool) -> None:
    for name in ["dir/a.md", "dir/sub/b.md", "dir2/c.md", "dir.md"]:
        _write_global(tool.store, name)
        tool.store.set_pinned(vpath(f"{G}/{name}"), True)
    ok(tool.execute({"command": "delete", "path": f"{G}/dir"}))
    assert sorted(read_meta(tool.store.home)) == ["global:dir.md", "global:dir2/c.md"]
    ok(tool.execute({"command": "delete", "path": f"{G}/dir.md"}))
    assert sorted(read_meta(tool.store.home)) == ["global:dir2/c.md"]


# --- keys --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("component", "escaped"),
    [("plain/path.md", "plain/path.md"), ("a:b", "a%3Ab"), ("50%", "50%25"), ("%3A", "%253A")],
)
def test_key_components_escape_percent_then_colon(component: str, escaped: str) -> None:
    assert escape_key_component(component) == escaped


def test_keys_escape_every_component() -> None:
    assert global_key("50%:off.md") == "global:50%25%3Aoff.md"
    assert project_key("C:\\repo%1", "a:b/c.md") == "project:C%3A\\repo%251:a%3Ab/c.md"
    assert workspace_key("ws:1%", "x.md") == "workspace:ws%3A1%25:x.md"


def test_tool_usage_keys_escape_file_names(tool: MemoryTool) -> None:
    ok(tool.execute({"command": "create", "path": f"{G}/50%:off.md", "file_text": "x"}))
    assert list(read_meta(tool.store.home)) == ["global:50%25%3Aoff.md"]


def test_project_path_with_colon_and_percent(home: Home, clock: FakeClock) -> None:
    add_workspace(home, "C:\\work\\100%", "w", workspace_id="0a0a0a0a0a")
    store = MemoryStore(home, load_registry(home).require_workspace("0a0a0a0a0a"), clock=clock)
    store.create_file(vpath(f"{P}/n.md"), "x")
    assert list(read_meta(home)) == ["project:C%3A\\work\\100%25:n.md"]


# --- self-healing ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["", "{bad json", "[]", '"text"', "null", '{"entries": []}', '{"entries": "x"}']
)
def test_malformed_meta_file_is_empty(home: Home, text: str) -> None:
    write(home.meta_path, text)
    assert MetaStore(home).load() == {}


@pytest.mark.parametrize(
    ("raw", "healed"),
    [
        ({"pinned": True}, MetaEntry(pinned=True)),
        ({"pinned": "true"}, None),
        ({"pinned": 1}, None),
        ({"accessCount": 3}, MetaEntry(access_count=3)),
        ({"accessCount": 2.9}, MetaEntry(access_count=2)),
        ({"accessCount": -4}, None),
        ({"accessCount": float("nan")}, None),
        ({"accessCount": float("inf")}, None),
        # An integer past a float's range is Infinity to mux's JavaScript: not a count.
        ({"accessCount": 10**400}, None),
        ({"lastWriteAt": 10**400}, None),
        ({"accessCount": "5"}, None),
        ({"accessCount": True}, None),
        ({"lastAccessedAt": 1_700_000_000_000}, MetaEntry(last_accessed_at=1_700_000_000_000)),
        ({"lastWriteAt": 1.5e12}, MetaEntry(last_write_at=1_500_000_000_000)),
        ({"lastWriteAt": -1}, None),
        ({"lastWriteAt": 0}, None),
        ({"lastWriteAt": "2026-01-01"}, None),
        ({"lastAccessedAt": float("nan")}, None),
        ({"pinned": False, "accessCount": 0, "lastAccessedAt": None, "lastWriteAt": None}, None),
        ("not an object", None),
        ([1, 2], None),
        (None, None),
        (
            {"pinned": "yes", "accessCount": 2, "lastWriteAt": "bad", "extra": 1},
            MetaEntry(access_count=2),
        ),
    ],
)
def test_entries_self_heal(raw: Any, healed: MetaEntry | None) -> None:
    entries = parse_meta_document({"entries": {"global:a.md": raw}})
    assert entries.get("global:a.md") == healed


def test_healed_file_is_rewritten_without_default_entries(home: Home, clock: FakeClock) -> None:
    write(
        home.meta_path,
        json.dumps(
            {
                "entries": {
                    "global:default.md": {"pinned": False, "accessCount": 0},
                    "global:string-pin.md": {"pinned": "true"},
                    "global:junk.md": 7,
                    "global:kept.md": {"pinned": True, "accessCount": -3, "lastWriteAt": "x"},
                }
            }
        ),
    )
    MetaStore(home, clock).record_read("global:new.md")
    assert read_meta(home) == {
        "global:kept.md": {
            "pinned": True,
            "accessCount": 0,
            "lastAccessedAt": None,
            "lastWriteAt": None,
        },
        "global:new.md": {
            "pinned": False,
            "accessCount": 1,
            "lastAccessedAt": clock.now,
            "lastWriteAt": None,
        },
    }


def test_meta_file_is_pretty_json(store: MemoryStore) -> None:
    _write_global(store, "a.md")
    store.set_pinned(vpath(f"{G}/a.md"), True)
    assert store.home.meta_path.read_text(encoding="utf-8").startswith(
        '{\n  "entries": {\n    "global:a.md": {\n      "pinned": true,'
    )


def test_meta_is_reread_before_every_write(store: MemoryStore, clock: FakeClock) -> None:
    _write_global(store, "a.md")
    _write_global(store, "b.md")
    store.set_pinned(vpath(f"{G}/a.md"), True)
    # Another process (mux, another Memtab) writes its own change in between.
    document = json.loads(store.home.meta_path.read_text(encoding="utf-8"))
    document["entries"]["global:external.md"] = {"pinned": True, "accessCount": 1}
    write(store.home.meta_path, json.dumps(document))
    store.set_pinned(vpath(f"{G}/b.md"), True)
    assert sorted(read_meta(store.home)) == ["global:a.md", "global:b.md", "global:external.md"]


def test_failed_pin_leaves_meta_untouched(store: MemoryStore) -> None:
    write(store.home.meta_path, '{"entries": {}, "unknown": true}')
    with pytest.raises(NotFoundError):
        store.set_pinned(vpath(f"{G}/missing.md"), True)
    assert store.home.meta_path.read_text(encoding="utf-8") == '{"entries": {}, "unknown": true}'


def test_several_entries_change_in_one_write_told_first_to_the_caller(home: Home) -> None:
    meta = MetaStore(home)
    meta.update_entries({key: lambda _entry: MetaEntry(pinned=True) for key in ("a", "b")})
    before = home.meta_path.read_bytes()
    told: list[tuple[dict[str, tuple[MetaEntry, MetaEntry]], bytes]] = []

    def note(changing: dict[str, tuple[MetaEntry, MetaEntry]]) -> None:
        told.append((changing, home.meta_path.read_bytes()))  # the file not written yet

    meta.update_entries(
        {
            "a": lambda entry: entry.replaced(access_count=entry.access_count + 2),
            "b": lambda entry: entry,  # unchanged: not told
            "c": lambda _entry: MetaEntry(access_count=1),
        },
        before_write=note,
    )

    [(changing, on_disk)] = told
    assert on_disk == before
    assert changing == {
        "a": (MetaEntry(pinned=True), MetaEntry(pinned=True, access_count=2)),
        "c": (MetaEntry(), MetaEntry(access_count=1)),
    }
    assert meta.load()["a"].access_count == 2
