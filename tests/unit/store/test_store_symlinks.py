"""Symlink containment (docs/formats.md §3.3): a link inside a scope never lets a read or write
escape."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memtab.store.files import list_scope
from memtab.store.paths import PathError, Scope, parse_file_path
from memtab.store.scopes.memory import MemoryStore, NotFoundError
from memtab.store.scopes.tool import MemoryTool
from support.memory_paths import vpath

from .helpers import err, ok, read_meta, snapshot, write

ESCAPE = "path escapes the memory root"
G = "/memories/global"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory beside the home that must never be read or changed through the store."""
    directory = tmp_path / "outside"
    write(directory / "secret.md", "TOP SECRET\nline two\n")
    write(directory / "sub" / "deep.md", "deep secret")
    return directory


@pytest.fixture
def linked_store(store: MemoryStore, outside: Path) -> MemoryStore:
    """The global scope holds links out: a dir, a file, and dangling file and dir links."""
    root = store.root(Scope.GLOBAL)
    write(root / "real.md", "real content\n")
    write(root / "inside" / "note.md", "inside\n")
    (root / "linkdir").symlink_to(outside)
    (root / "linkfile.md").symlink_to(outside / "secret.md")
    (root / "dangling.md").symlink_to(outside / "not-yet.md")
    (root / "danglingdir").symlink_to(outside / "newdir")
    (root / "inside" / "relative-up").symlink_to("../../../../outside")
    return store


ToolCall = dict[str, object]

_ESCAPING_TOOL_CALLS: list[ToolCall] = [
    {"command": "view", "path": f"{G}/linkfile.md"},
    {"command": "view", "path": f"{G}/linkdir"},
    {"command": "view", "path": f"{G}/linkdir/secret.md"},
    {"command": "view", "path": f"{G}/linkdir/sub"},
    {"command": "view", "path": f"{G}/inside/relative-up/secret.md"},
    {"command": "view", "path": f"{G}/dangling.md"},
    {"command": "create", "path": f"{G}/linkdir/new.md", "file_text": "x"},
    {"command": "create", "path": f"{G}/linkdir/sub/new.md", "file_text": "x"},
    {"command": "create", "path": f"{G}/dangling.md", "file_text": "x"},
    {"command": "create", "path": f"{G}/danglingdir/x.md", "file_text": "x"},
    {"command": "create", "path": f"{G}/linkfile.md", "file_text": "x"},
    {"command": "str_replace", "path": f"{G}/linkfile.md", "old_str": "TOP", "new_str": "x"},
    {"command": "str_replace", "path": f"{G}/linkdir/secret.md", "old_str": "TOP", "new_str": "x"},
    {"command": "insert", "path": f"{G}/linkfile.md", "insert_line": 0, "insert_text": "x"},
    {"command": "insert", "path": f"{G}/linkdir/secret.md", "insert_line": 1, "insert_text": "x"},
    {"command": "delete", "path": f"{G}/linkfile.md"},
    {"command": "delete", "path": f"{G}/linkdir"},
    {"command": "delete", "path": f"{G}/linkdir/secret.md"},
    {"command": "delete", "path": f"{G}/linkdir/sub"},
    {"command": "delete", "path": f"{G}/dangling.md"},
    {"command": "rename", "old_path": f"{G}/linkfile.md", "new_path": f"{G}/stolen.md"},
    {"command": "rename", "old_path": f"{G}/linkdir/secret.md", "new_path": f"{G}/stolen.md"},
    {"command": "rename", "old_path": f"{G}/linkdir", "new_path": f"{G}/stolen"},
    {"command": "rename", "old_path": f"{G}/real.md", "new_path": f"{G}/linkdir/real.md"},
    {"command": "rename", "old_path": f"{G}/real.md", "new_path": f"{G}/dangling.md"},
    {"command": "rename", "old_path": f"{G}/inside", "new_path": f"{G}/danglingdir/inside"},
]


@pytest.mark.parametrize(
    "call",
    _ESCAPING_TOOL_CALLS,
    ids=[f"{c['command']}-{n}" for n, c in enumerate(_ESCAPING_TOOL_CALLS)],
)
def test_tool_calls_through_a_link_out_are_rejected(
    linked_store: MemoryStore, outside: Path, call: ToolCall
) -> None:
    before_outside = snapshot(outside)
    before_scope = snapshot(linked_store.root(Scope.GLOBAL))
    error = err(MemoryTool(linked_store).execute(call))
    assert ESCAPE in error
    assert "SECRET" not in error
    assert snapshot(outside) == before_outside
    assert snapshot(linked_store.root(Scope.GLOBAL)) == before_scope
    assert read_meta(linked_store.home) == {}


_ESCAPING_EDITOR_CALLS: list[tuple[str, Callable[[MemoryStore], object]]] = [
    ("read file link", lambda s: s.read(vpath(f"{G}/linkfile.md"))),
    ("read through dir link", lambda s: s.read(vpath(f"{G}/linkdir/secret.md"))),
    ("save over file link", lambda s: s.save(vpath(f"{G}/linkfile.md"), "x", "0" * 64)),
    ("save new through dir link", lambda s: s.save(vpath(f"{G}/linkdir/new.md"), "x", None)),
    ("save new over dangling link", lambda s: s.save(vpath(f"{G}/dangling.md"), "x", None)),
    ("create through dir link", lambda s: s.create_file(vpath(f"{G}/linkdir/new.md"), "x")),
    ("mkdir through dir link", lambda s: s.create_directory(vpath(f"{G}/linkdir/newdir"))),
    ("mkdir through dangling dir link", lambda s: s.create_directory(vpath(f"{G}/danglingdir/x"))),
    ("delete file link", lambda s: s.delete(vpath(f"{G}/linkfile.md"))),
    ("delete dir link", lambda s: s.delete(vpath(f"{G}/linkdir"))),
    (
        "move file link out",
        lambda s: s.move(vpath(f"{G}/linkfile.md"), vpath("/memories/workspace/x.md")),
    ),
    ("move into dir link", lambda s: s.move(vpath(f"{G}/real.md"), vpath(f"{G}/linkdir/real.md"))),
    (
        "move across into link",
        lambda s: s.move(vpath(f"{G}/real.md"), vpath(f"{G}/danglingdir/r.md")),
    ),
    ("pin file link", lambda s: s.set_pinned(vpath(f"{G}/linkfile.md"), True)),
    ("pin through dir link", lambda s: s.set_pinned(vpath(f"{G}/linkdir/secret.md"), True)),
]


@pytest.mark.parametrize(
    "action", [a for _, a in _ESCAPING_EDITOR_CALLS], ids=[n for n, _ in _ESCAPING_EDITOR_CALLS]
)
def test_editor_operations_through_a_link_out_are_rejected(
    linked_store: MemoryStore, outside: Path, action: Callable[[MemoryStore], object]
) -> None:
    before_outside = snapshot(outside)
    before_scope = snapshot(linked_store.root(Scope.GLOBAL))
    with pytest.raises(PathError, match=ESCAPE):
        action(linked_store)
    assert snapshot(outside) == before_outside
    assert snapshot(linked_store.root(Scope.GLOBAL)) == before_scope
    assert read_meta(linked_store.home) == {}


def test_links_are_not_listed(linked_store: MemoryStore) -> None:
    listing = list_scope(Scope.GLOBAL, linked_store.root(Scope.GLOBAL))
    assert [str(f.path) for f in listing.files] == [f"{G}/inside/note.md", f"{G}/real.md"]
    assert [str(d) for d in listing.directories] == [f"{G}/inside"]


def test_links_are_not_shown_by_view(linked_store: MemoryStore) -> None:
    tool = MemoryTool(linked_store)
    assert ok(tool.execute({"command": "view", "path": G})) == (
        f"Directory: {G}\n- inside/\n  - note.md\n- real.md"
    )
    root_view = ok(tool.execute({"command": "view", "path": "/memories"}))
    assert "link" not in root_view
    assert "dangling" not in root_view


def test_a_link_that_stays_inside_is_neither_listed_nor_followed_as_a_file(
    store: MemoryStore,
) -> None:
    root = store.root(Scope.GLOBAL)
    write(root / "target.md", "t")
    (root / "alias.md").symlink_to(root / "target.md")
    assert [f.path.name for f in store.list_scope(Scope.GLOBAL).files] == ["target.md"]
    with pytest.raises(NotFoundError):
        store.read(vpath(f"{G}/alias.md"))
    assert store.kind_of(parse_file_path(f"{G}/alias.md")) is None


def test_moving_a_directory_across_scopes_keeps_links_as_links(
    store: MemoryStore, outside: Path
) -> None:
    root = store.root(Scope.GLOBAL)
    write(root / "dir" / "a.md", "a")
    (root / "dir" / "out").symlink_to(outside)
    before_outside = snapshot(outside)
    store.move(vpath(f"{G}/dir"), vpath("/memories/workspace/dir"))
    moved = store.root(Scope.WORKSPACE) / "dir"
    assert (moved / "out").is_symlink()
    assert [f.path.name for f in store.list_scope(Scope.WORKSPACE).files] == ["a.md"]
    assert snapshot(outside) == before_outside


def test_read_many_reads_what_read_reads_and_never_through_a_link(
    linked_store: MemoryStore,
) -> None:
    wanted = ["real.md", "linkfile.md", "linkdir/secret.md", "inside/note.md", "gone.md"]
    paths = [parse_file_path(f"{G}/{name}") for name in wanted]
    found = dict(linked_store.read_many(paths))
    assert set(found) == set(paths)  # every path answered, one bad file stopping nothing
    real, link, through_dir, inside, gone = (found[path] for path in paths)
    assert not isinstance(real, Exception) and real.content == "real content\n"
    assert real == linked_store.read(vpath(f"{G}/real.md"))
    assert not isinstance(inside, Exception) and inside.content == "inside\n"
    assert isinstance(link, NotFoundError)
    assert isinstance(through_dir, PathError)
    assert isinstance(gone, NotFoundError)
    assert not any("SECRET" in str(value) for value in found.values())
