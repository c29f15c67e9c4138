"""Memory files and listing (docs/formats.md §4): visibility, order, caps, descriptions in
listings."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memtab.store.description_cache import DescriptionCache
from memtab.store.files import (
    MAX_FILE_BYTES,
    MAX_FILES_PER_SCOPE,
    count_files,
    list_scope,
    sort_key,
)
from memtab.store.paths import Scope, parse_virtual_path
from memtab.store.scopes.memory import CapError, MemoryStore, NotEditableError
from memtab.store.scopes.tool import MemoryTool
from support.memory_paths import vpath

from .helpers import err, ok, read_meta, write

G = "/memories/global"

# --- listing ---------------------------------------------------------------------------


def _listing_paths(store: MemoryStore, scope: Scope = Scope.GLOBAL) -> list[str]:
    listing = store.list_scope(scope)
    return [f.path.relative for f in listing.files]


def test_descriptions_come_from_the_first_4_kib(store: MemoryStore) -> None:
    root = store.root(Scope.GLOBAL)
    filler = "".join(f"k{i}: v\n" for i in range(450))  # ~3.5 KiB, no key repeated
    more = filler.replace("k", "j")
    write(root / "within.md", f"---\n{filler}description: close enough\n---\nbody")
    write(root / "beyond.md", f"---\n{filler}{more}description: too late\n---\nbody")
    write(root / "unclosed.md", f"---\ndescription: x\n{filler}{filler}---\nbody")
    write(root / "long-body.md", "---\ndescription: short header\n---\n" + "x" * 50_000)
    found = {f.path.name: f.description for f in store.list_scope(Scope.GLOBAL).files}
    assert found == {
        "beyond.md": "",
        "long-body.md": "short header",
        "unclosed.md": "",
        "within.md": "close enough",
    }


def test_invalid_utf8_in_the_prefix_does_not_break_the_description(store: MemoryStore) -> None:
    root = store.root(Scope.GLOBAL)
    write(root / "a.md", b"---\ndescription: caf\xe9 ok\n---\n")
    # A multi-byte char cut by the 4 KiB boundary must not break anything either.
    write(root / "b.md", b"---\ndescription: fine\n---\n" + "é".encode() * 3000)
    found = {f.path.name: f.description for f in store.list_scope(Scope.GLOBAL).files}
    assert found == {"a.md": "caf\ufffd ok", "b.md": "fine"}


def test_listing_skips_dotfiles_links_and_invalid_names(store: MemoryStore) -> None:
    root = store.root(Scope.GLOBAL)
    for name in ["ok.md", "sub/inner.md", "with space.md", "ünï.md"]:
        write(root / name, "x")
    for name in [
        ".hidden.md",
        ".git/config",
        ".ok.md.1a2b3c4d.tmp",  # an atomic-write temp file
        "sub/.swp",
        "a~b.md",
        "x<y.md",
        'q"uote.md',
        "a..b.md",
        "%2e.md",
        "bs\\slash.md",
        "ctl\x01.md",
        "bad~dir/inside.md",
    ]:
        write(root / name, "x")
    (root / "link.md").symlink_to(root / "ok.md")
    (root / "linkdir").symlink_to(root / "sub")
    listing = store.list_scope(Scope.GLOBAL)
    assert [f.path.relative for f in listing.files] == [
        "ok.md",
        "sub/inner.md",
        "with space.md",
        "ünï.md",
    ]
    assert [d.relative for d in listing.directories] == ["sub"]
    assert count_files(root) == 4


@pytest.mark.parametrize("name", ["a.md ", "a.md\u00a0", "a.md\u3000"])
def test_names_that_trimming_would_change_are_not_listed(tool: MemoryTool, name: str) -> None:
    root = tool.store.root(Scope.GLOBAL)
    write(root / "a.md", "the real a.md")
    write(root / name, "a look-alike")
    assert [f.path.name for f in tool.store.list_scope(Scope.GLOBAL).files] == ["a.md"]
    assert ok(tool.execute({"command": "view", "path": G})) == f"Directory: {G}\n- a.md"
    assert count_files(root) == 1
    # Were it listed, its path would name the other file (deleting it would delete a.md).
    assert parse_virtual_path(f"{G}/{name}") == parse_virtual_path(f"{G}/a.md")


def test_sort_order_keys_directories_as_name_slash(store: MemoryStore) -> None:
    root = store.root(Scope.GLOBAL)
    for name in ["a-b.md", "a/x.md", "a.md", "B.md", "a0.md", "a-b/y.md"]:
        write(root / name, "x")
    listing = store.list_scope(Scope.GLOBAL)
    # '-' (0x2d) < '.' (0x2e) < '/' (0x2f) < '0' (0x30): `a/` sorts after `a.md`.
    assert [f.path.relative for f in listing.files] == [
        "B.md",
        "a-b.md",
        "a-b/y.md",
        "a.md",
        "a/x.md",
        "a0.md",
    ]
    assert [d.relative for d in listing.directories] == ["a-b", "a"]
    merged = sorted(
        [(sort_key(f.path.segments, is_dir=False), f.path.relative) for f in listing.files]
        + [(sort_key(d.segments, is_dir=True), d.relative + "/") for d in listing.directories]
    )
    assert [name for _, name in merged] == [
        "B.md",
        "a-b.md",
        "a-b/",
        "a-b/y.md",
        "a.md",
        "a/",
        "a/x.md",
        "a0.md",
    ]


def test_view_uses_the_same_order(tool: MemoryTool) -> None:
    root = tool.store.root(Scope.GLOBAL)
    for name in ["a-b.md", "a/x.md", "a.md", "a0.md"]:
        write(root / name, "x")
    assert ok(tool.execute({"command": "view", "path": G})) == (
        f"Directory: {G}\n- a-b.md\n- a.md\n- a/\n  - x.md\n- a0.md"
    )


def test_missing_root_is_an_empty_scope_and_is_not_created(store: MemoryStore) -> None:
    for scope in Scope:
        listing = store.list_scope(scope)
        assert (listing.files, listing.directories, listing.error) == ((), (), None)
        assert not store.root(scope).exists()
    assert list_scope(Scope.GLOBAL, None).files == ()


def test_unreadable_directory_lists_as_empty(store: MemoryStore) -> None:
    root = store.root(Scope.GLOBAL)
    write(root / "visible.md", "x")
    locked = root / "locked"
    write(locked / "hidden-by-permissions.md", "x")
    locked.chmod(0)
    try:
        if os.access(locked, os.R_OK):
            pytest.skip("running as a user who can read a chmod 000 directory (root)")
        assert _listing_paths(store) == ["visible.md"]
    finally:
        locked.chmod(0o755)


def test_listing_reports_size_mtime_and_nesting(store: MemoryStore) -> None:
    path = write(store.root(Scope.WORKSPACE) / "deep" / "er" / "a.md", "12345")
    os.utime(path, (1_700_000_000, 1_700_000_000.5))
    (entry,) = store.list_scope(Scope.WORKSPACE).files
    assert str(entry.path) == "/memories/workspace/deep/er/a.md"
    assert (entry.size_bytes, entry.modified_at_ms) == (5, 1_700_000_000_500)
    assert [d.relative for d in store.list_scope(Scope.WORKSPACE).directories] == [
        "deep",
        "deep/er",
    ]


def test_list_all_is_in_scope_order_and_unavailable_scopes_are_empty(
    store: MemoryStore, multi_store: MemoryStore
) -> None:
    assert [listing.scope for listing in store.list_all()] == [
        Scope.GLOBAL,
        Scope.PROJECT,
        Scope.WORKSPACE,
    ]
    write(store.root(Scope.GLOBAL) / "g.md", "x")
    listings = multi_store.list_all()
    assert [len(listing.files) for listing in listings] == [1, 0, 0]


# --- caps ------------------------------------------------------------------------------


OVER_CAP = "exceeds the 102400-byte memory file cap"


def test_file_over_the_cap_is_listed_but_not_editable(tool: MemoryTool) -> None:
    root = tool.store.root(Scope.GLOBAL)
    big = write(root / "big.md", "line\n" * (MAX_FILE_BYTES // 5 + 1))
    before = big.read_bytes()
    (entry,) = tool.store.list_scope(Scope.GLOBAL).files
    assert entry.over_cap and not entry.editable
    assert entry.not_editable_reason is not None
    assert OVER_CAP in err(
        tool.execute(
            {
                "command": "str_replace",
                "path": f"{G}/big.md",
                "old_str": "line\nline",
                "new_str": "x",
            }
        )
    )
    assert OVER_CAP in err(
        tool.execute(
            {"command": "insert", "path": f"{G}/big.md", "insert_line": 0, "insert_text": "x"}
        )
    )
    current = tool.store.read(vpath(f"{G}/big.md"))
    with pytest.raises(NotEditableError, match="cannot be edited"):
        tool.store.save(vpath(f"{G}/big.md"), "small now", current.sha256)
    assert big.read_bytes() == before


@pytest.mark.parametrize("call", [{}, {"limit": 1}, {"offset": 2, "limit": 1}])
def test_view_of_a_file_over_the_cap_is_refused_as_mux_does(
    tool: MemoryTool, call: dict[str, int]
) -> None:
    write(tool.store.root(Scope.GLOBAL) / "big.md", "line\n" * (MAX_FILE_BYTES // 5 + 1))
    assert err(tool.execute({"command": "view", "path": f"{G}/big.md", **call})) == (
        f"{G}/big.md exceeds the 102400-byte memory file cap (likely edited outside Xum, "
        "bypassing write caps); shrink or delete it"
    )
    assert read_meta(tool.store.home) == {}  # a refused view is not a read


def test_invalid_utf8_that_decodes_over_the_cap_is_over_it(tool: MemoryTool) -> None:
    # mux measures the decoded text: each invalid byte becomes a 3-byte U+FFFD.
    write(tool.store.root(Scope.GLOBAL) / "odd.md", b"\xff" * (MAX_FILE_BYTES // 2))
    assert OVER_CAP in err(tool.execute({"command": "view", "path": f"{G}/odd.md"}))
    assert tool.store.read(vpath(f"{G}/odd.md")).over_cap


def test_reads_stop_at_the_cap(tool: MemoryTool, monkeypatch: pytest.MonkeyPatch) -> None:
    huge = write(tool.store.root(Scope.GLOBAL) / "huge.md", b"x" * (8 * MAX_FILE_BYTES))
    asked: list[int] = []
    real_read = os.read

    def counting_read(fd: int, size: int) -> bytes:
        asked.append(size)
        return real_read(fd, size)

    monkeypatch.setattr(os, "read", counting_read)
    current = tool.store.read(vpath(f"{G}/huge.md"))
    assert err(tool.execute({"command": "view", "path": f"{G}/huge.md"}))
    monkeypatch.undo()
    assert sum(asked) <= 2 * (MAX_FILE_BYTES + 1)
    # The editor opens it read-only with what fits, and knows the whole size.
    assert current.over_cap and current.size_bytes == huge.stat().st_size
    assert current.content == "x" * MAX_FILE_BYTES


def test_create_at_exactly_the_cap_and_one_byte_over(tool: MemoryTool) -> None:
    ok(
        tool.execute(
            {"command": "create", "path": f"{G}/max.md", "file_text": "x" * MAX_FILE_BYTES}
        )
    )
    error = err(
        tool.execute(
            {"command": "create", "path": f"{G}/over.md", "file_text": "x" * (MAX_FILE_BYTES + 1)}
        )
    )
    assert error == (
        "Memory files are limited to 102400 bytes (got 102401); "
        "split the content into smaller files"
    )
    assert not (tool.store.root(Scope.GLOBAL) / "over.md").exists()


def test_cap_counts_utf8_bytes_not_characters(tool: MemoryTool) -> None:
    text = "é" * (MAX_FILE_BYTES // 2 + 1)  # fewer chars than the cap, more bytes
    assert "got 102402" in err(
        tool.execute({"command": "create", "path": f"{G}/e.md", "file_text": text})
    )


@pytest.mark.parametrize("command", ["str_replace", "insert"])
def test_an_edit_whose_result_exceeds_the_cap_fails_and_changes_nothing(
    tool: MemoryTool, command: str
) -> None:
    content = "x" * (MAX_FILE_BYTES - 10) + "\nEND"
    ok(tool.execute({"command": "create", "path": f"{G}/near.md", "file_text": content}))
    call: dict[str, object] = {"command": command, "path": f"{G}/near.md"}
    if command == "str_replace":
        call.update(old_str="END", new_str="END" * 10)
    else:
        call.update(insert_line=1, insert_text="y" * 20)
    assert "limited to 102400 bytes" in err(tool.execute(call))
    assert (tool.store.root(Scope.GLOBAL) / "near.md").read_text() == content


def _fill_scope(root: Path, count: int) -> None:
    for index in range(count):
        write(root / f"d{index % 10}" / f"f{index}.md", "x")


def test_scope_file_cap_on_create(tool: MemoryTool) -> None:
    root = tool.store.root(Scope.GLOBAL)
    _fill_scope(root, MAX_FILES_PER_SCOPE)
    assert err(
        tool.execute({"command": "create", "path": f"{G}/one-more.md", "file_text": ""})
    ) == ("The global memory scope is full (1000 files); delete unused files first")
    with pytest.raises(CapError):
        tool.store.save(vpath(f"{G}/one-more.md"), "x", None)
    assert not (root / "one-more.md").exists()
    # Editing and deleting still work in a full scope; then there is room again.
    ok(
        tool.execute(
            {"command": "str_replace", "path": f"{G}/d0/f0.md", "old_str": "x", "new_str": "y"}
        )
    )
    ok(tool.execute({"command": "delete", "path": f"{G}/d0/f0.md"}))
    ok(tool.execute({"command": "create", "path": f"{G}/one-more.md", "file_text": ""}))


def test_scope_file_cap_on_cross_scope_move(store: MemoryStore) -> None:
    _fill_scope(store.root(Scope.WORKSPACE), MAX_FILES_PER_SCOPE)
    write(store.root(Scope.GLOBAL) / "g.md", "g")
    with pytest.raises(CapError, match="workspace memory scope is full"):
        store.move(vpath(f"{G}/g.md"), vpath("/memories/workspace/g.md"))
    assert (store.root(Scope.GLOBAL) / "g.md").read_text() == "g"


def test_999_files_leave_room_for_one(tool: MemoryTool) -> None:
    root = tool.store.root(Scope.GLOBAL)
    _fill_scope(root, MAX_FILES_PER_SCOPE - 1)
    # Only listed files count: not dotfiles (temp files), invalid names or symlinks.
    write(root / ".last.md.0badf00d.tmp", "x")
    write(root / "a~b.md", "x")
    (root / "link.md").symlink_to(root / "d0" / "f0.md")
    ok(tool.execute({"command": "create", "path": f"{G}/last.md", "file_text": ""}))
    assert count_files(root) == MAX_FILES_PER_SCOPE


def test_file_with_nul_is_listed_as_binary_and_not_editable(tool: MemoryTool) -> None:
    path = write(tool.store.root(Scope.GLOBAL) / "blob.md", b"text\x00more\n")
    (entry,) = tool.store.list_scope(Scope.GLOBAL).files
    assert entry.binary and not entry.editable
    assert entry.description == ""
    assert "not a text file" in err(tool.execute({"command": "view", "path": f"{G}/blob.md"}))
    assert "not a text file" in err(
        tool.execute(
            {"command": "str_replace", "path": f"{G}/blob.md", "old_str": "text", "new_str": "x"}
        )
    )
    assert "not a text file" in err(
        tool.execute(
            {"command": "insert", "path": f"{G}/blob.md", "insert_line": 0, "insert_text": "x"}
        )
    )
    current = tool.store.read(vpath(f"{G}/blob.md"))
    assert current.binary
    with pytest.raises(NotEditableError):
        tool.store.save(vpath(f"{G}/blob.md"), "clean", current.sha256)
    assert path.read_bytes() == b"text\x00more\n"


def test_a_listing_without_reading_files_opens_none(
    store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = store.root(Scope.GLOBAL)
    write(root / "a.md", "---\ndescription: A\n---\nx\n")
    write(root / "sub" / "b.md", "b" * 200)
    described = store.list_scope(Scope.GLOBAL)
    opened: list[object] = []
    real_open = os.open
    monkeypatch.setattr(
        os, "open", lambda path, *args, **kw: opened.append(path) or real_open(path, *args, **kw)
    )
    bare = store.list_scope(Scope.GLOBAL, read_files=False)
    assert opened == []
    assert [(f.path, f.size_bytes, f.modified_at_ms) for f in bare.files] == [
        (f.path, f.size_bytes, f.modified_at_ms) for f in described.files
    ]
    assert [f.description for f in bare.files] == ["", ""]
    assert bare.directories == described.directories


@pytest.mark.parametrize("remembering", [False, True], ids=["first-listing", "with-cache"])
def test_a_file_deleted_between_the_listing_and_its_reading_is_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, remembering: bool
) -> None:
    """An agent deletes or moves a file while the tree's scan walks the scope: the scan
    lists the others (the next one reports the file gone) instead of failing whole."""
    root = tmp_path / "home" / "memory" / "global"
    write(root / "kept.md", "---\ndescription: Kept\n---\n")
    write(root / "going.md", "---\ndescription: Going\n---\n")
    cache = DescriptionCache(root.parent.parent, tmp_path / "descriptions.json")
    known = cache.for_root(root) if remembering else None
    real_open = os.open

    def deleted_just_before(path: str, *args: object, **kwargs: object) -> int:
        if os.fspath(path).endswith("going.md"):
            os.unlink(path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", deleted_just_before)
    listing = list_scope(Scope.GLOBAL, root, known=known)
    assert [(f.path.relative, f.description) for f in listing.files] == [("kept.md", "Kept")]
