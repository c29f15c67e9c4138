"""Virtual paths (docs/formats.md §3): the grammar, every rejection, and containment under
fuzzing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtab.store.home import Home
from memtab.store.paths import (
    PathError,
    Scope,
    VirtualPath,
    is_within_directory,
    parse_file_path,
    parse_virtual_path,
)
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import MemoryTool
from memtab.store.sidecars.registry import add_workspace, load_registry
from support.memory_paths import vpath
from support.property_examples import examples

from .helpers import PROJECT, WORKSPACE_ID, err, snapshot, write

# --- the grammar --------------------------------------------------------------------


@pytest.mark.parametrize("raw", ["/memories", "/memories/", "  /memories//  ", "\t/memories\n"])
def test_memories_root(raw: str) -> None:
    path = parse_virtual_path(raw)
    assert path.is_root
    assert str(path) == "/memories"


@pytest.mark.parametrize("scope", list(Scope))
def test_scope_roots(scope: Scope) -> None:
    path = parse_virtual_path(f"/memories/{scope.value}/")
    assert (path.scope, path.segments, path.is_scope_root) == (scope, (), True)
    assert str(path) == f"/memories/{scope.value}"


def test_entry_path_segments_and_string_form() -> None:
    path = parse_virtual_path("/memories/project/notes/deep/a.md")
    assert path.scope is Scope.PROJECT
    assert path.segments == ("notes", "deep", "a.md")
    assert path.relative == "notes/deep/a.md"
    assert path.name == "a.md"
    assert str(path) == "/memories/project/notes/deep/a.md"
    assert path.parent == VirtualPath(Scope.PROJECT, ("notes", "deep"))


@pytest.mark.parametrize(
    "raw",
    [
        "  /memories/global/a.md  ",
        "/memories/global/a.md/",
        "/memories/global/a.md///",
        "\n\t/memories/global/a.md\r\n",
        "\ufeff/memories/global/a.md\u00a0",  # JavaScript's trim removes these too
    ],
)
def test_path_is_trimmed_and_trailing_slashes_stripped(raw: str) -> None:
    assert parse_virtual_path(raw) == VirtualPath(Scope.GLOBAL, ("a.md",))


@pytest.mark.parametrize(
    "name",
    ["with space.md", "a.b.c", "ünïcode.md", "日本語.md", "emoji🚀.md", "50%.md", "a:b.md", "-x"],
)
def test_ordinary_names_are_accepted(name: str) -> None:
    assert parse_virtual_path(f"/memories/global/{name}").segments == (name,)


# --- rejections (message names the path and the rule) -------------------------------

_REJECTIONS: list[tuple[str, str]] = [
    ("", "must start with /memories/"),
    ("   ", "must start with /memories/"),
    ("memories/global/a.md", "must start with /memories/"),
    ("/memoriesx/global/a.md", "must start with /memories/"),
    ("/Memories/global/a.md", "must start with /memories/"),
    ("/mem", "must start with /memories/"),
    ("global/a.md", "must start with /memories/"),
    ("/memories/globals/a.md", "unknown scope"),
    ("/memories/Global/a.md", "unknown scope"),
    ("/memories//global/a.md", "unknown scope"),
    ("/memories/../global", "unknown scope"),
    ("/memories/global//a.md", "empty path segments"),
    ("/memories/global/./a.md", "'.' segments"),
    ("/memories/global/.", "'.' segments"),
    ("/memories/global/../a.md", "'..' is not allowed"),
    ("/memories/global/..", "'..' is not allowed"),
    ("/memories/global/a/../../x", "'..' is not allowed"),
    ("/memories/global/a..b.md", "'..' is not allowed"),
    ("/memories/global/...", "'..' is not allowed"),
    # Not a whole `..`, still refused as mux refuses it: the message says so.
    ("/memories/global/dots...md", "'..' is not allowed, inside a name either (mux refuses"),
    ("/memories/global/~", "'~'"),
    ("/memories/global/a~b.md", "'~'"),
    ("/memories/global/a\\b.md", "'\\\\'"),
    ("/memories/global/..\\x", "'..'"),
    ("/memories/global/a<b.md", "'<'"),
    ("/memories/global/a>b.md", "'>'"),
    ('/memories/global/a"b.md', "'\"'"),
    # Memtab removes stray temp files of this pattern: a memory file must not be one.
    ("/memories/global/.notes.md.0123abcd.tmp", "Memtab's temporary files"),
    ("/memories/global/dir/.x.deadbeef.tmp", "Memtab's temporary files"),
]
_REJECTIONS += [
    (f"/memories/global/x{code}y.md", "percent-encoded")
    for code in ("%2e", "%2E", "%2f", "%2F", "%5c", "%5C")
]
_REJECTIONS += [
    (f"/memories/global/a{chr(code)}b.md", "control characters") for code in [*range(0x20), 0x7F]
]
# Control chars that Python's str.strip() would trim but JavaScript's trim() keeps.
_REJECTIONS += [
    (f"/memories/global/a.md{chr(code)}", "control characters") for code in (0x1C, 0x1D, 0x1F)
]


@pytest.mark.parametrize(("raw", "rule"), _REJECTIONS)
def test_rejection_names_the_path_and_the_rule(raw: str, rule: str) -> None:
    with pytest.raises(PathError) as failure:
        parse_virtual_path(raw)
    message = str(failure.value)
    assert rule in message
    assert repr(raw) in message


@pytest.mark.parametrize("raw", [None, 42, ["/memories/global/a.md"], b"/memories/global/a.md"])
def test_non_string_paths_are_rejected(raw: object) -> None:
    with pytest.raises(PathError, match="string"):
        parse_virtual_path(raw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "raw",
    ["/memories", "/memories/", "/memories/global", "/memories/workspace/", " /memories/project "],
)
def test_file_paths_reject_roots(raw: str) -> None:
    with pytest.raises(PathError, match="expected a path inside a scope"):
        parse_file_path(raw)


@pytest.mark.parametrize(
    "call",
    [
        {"command": "create", "file_text": "x"},
        {"command": "str_replace", "old_str": "a", "new_str": "b"},
        {"command": "insert", "insert_line": 0, "insert_text": "x"},
        {"command": "delete"},
    ],
    ids=["create", "str_replace", "insert", "delete"],
)
@pytest.mark.parametrize("root", ["/memories", "/memories/global", "/memories/workspace/"])
def test_commands_needing_a_file_reject_roots(
    tool: MemoryTool, call: dict[str, object], root: str
) -> None:
    assert "expected a path inside a scope" in err(tool.execute({**call, "path": root}))


@pytest.mark.parametrize("root", ["/memories", "/memories/global"])
def test_rename_rejects_roots_on_either_side(tool: MemoryTool, root: str) -> None:
    tool.store.create_file(vpath("/memories/global/a.md"), "a")
    err(tool.execute({"command": "rename", "old_path": root, "new_path": "/memories/global/b"}))
    err(tool.execute({"command": "rename", "old_path": "/memories/global/a.md", "new_path": root}))
    assert tool.store.kind_of(parse_file_path("/memories/global/a.md")) == "file"


def test_is_within() -> None:
    notes = VirtualPath(Scope.GLOBAL, ("notes",))
    assert VirtualPath(Scope.GLOBAL, ("notes", "a.md")).is_within(notes)
    assert notes.is_within(notes)
    assert not VirtualPath(Scope.GLOBAL, ("notes2",)).is_within(notes)
    assert not VirtualPath(Scope.PROJECT, ("notes",)).is_within(notes)
    assert notes.is_within(VirtualPath(None))


def test_child_is_validated() -> None:
    notes = VirtualPath(Scope.GLOBAL, ("notes",))
    assert notes.child("a.md") == VirtualPath(Scope.GLOBAL, ("notes", "a.md"))
    with pytest.raises(PathError):
        notes.child("..")


def test_is_within_directory_is_not_a_string_prefix_test() -> None:
    assert is_within_directory("/a/b", "/a/b")
    assert is_within_directory("/a/b/c", "/a/b")
    assert not is_within_directory("/a/bc", "/a/b")
    assert is_within_directory("/x", "/")


# --- fuzzing: nothing ever resolves outside its scope root --------------------------


@pytest.fixture(scope="module")
def fuzz_world(tmp_path_factory: pytest.TempPathFactory) -> tuple[MemoryStore, Path]:
    """A home whose scopes hold symlinks out to `outside/`, plus real files and dirs."""
    base = tmp_path_factory.mktemp("fuzz")
    outside = base / "outside"
    write(outside / "secret.md", "secret")
    home = Home(base / "home")
    add_workspace(home, PROJECT, "main", workspace_id=WORKSPACE_ID)
    store = MemoryStore(home, load_registry(home).require_workspace(WORKSPACE_ID))
    for scope in Scope:
        root = store.root(scope)
        write(root / "sub" / "a.md", "a")
        (root / "link_out").symlink_to(outside)
        (root / "file_out.md").symlink_to(outside / "secret.md")
        (root / "dangling").symlink_to(outside / "not-there")
        (root / "up").symlink_to("..")
        (root / "sub" / "link_in").symlink_to(root / "sub")
    return store, outside


_SEGMENTS = st.one_of(
    st.sampled_from(
        [
            "..",
            ".",
            "",
            "...",
            "a.md",
            "sub",
            "link_out",
            "file_out.md",
            "dangling",
            "up",
            "link_in",
            "%2e%2e",
            "%2E%2e%2F",
            "%5c",
            "..%2f",
            "~",
            "\\",
            "..\\..",
            "x..",
            " ",
            "\x00",
            "\u202e",
            "a/b",
            "/",
            "//",
        ]
    ),
    st.text(max_size=6),
)
_CRAFTED = st.builds(
    lambda prefix, scope, segments, suffix: prefix + scope + "/".join(segments) + suffix,
    st.sampled_from(["/memories/", " /memories/", "/memories//", "memories/", "/memories/../"]),
    st.sampled_from(["global/", "project/", "workspace/", "", "global", "../"]),
    st.lists(_SEGMENTS, max_size=6),
    st.sampled_from(["", "/", "  ", "/..", "\n"]),
)


def _assert_contained(store: MemoryStore, raw: str) -> None:
    try:
        path = parse_virtual_path(raw)
    except PathError:
        return
    if path.scope is None:
        return
    root = os.path.realpath(store.root(path.scope))
    # Validation alone keeps the lexical path inside the root...
    lexical = os.path.normpath(os.path.join(root, *path.segments))
    assert is_within_directory(lexical, root), raw
    # ...and resolution keeps the real path inside, through every symlink.
    try:
        physical = store.physical(path)
    except PathError as error:
        assert "path escapes the memory root" in str(error)
        return
    assert is_within_directory(os.path.realpath(physical), root), raw


@pytest.mark.slow
@settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(raw=st.one_of(st.text(), _CRAFTED))
def test_fuzzed_paths_never_resolve_outside_the_scope_root(
    fuzz_world: tuple[MemoryStore, Path], raw: str
) -> None:
    store, _ = fuzz_world
    _assert_contained(store, raw)


@pytest.mark.slow
@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(raw=_CRAFTED, content=st.text(max_size=20))
def test_fuzzed_tool_calls_never_touch_anything_outside(
    fuzz_world: tuple[MemoryStore, Path], raw: str, content: str
) -> None:
    store, outside = fuzz_world
    before = snapshot(outside)
    tool = MemoryTool(store)
    for call in (
        {"command": "view", "path": raw},
        {"command": "create", "path": raw, "file_text": content},
        {"command": "insert", "path": raw, "insert_line": 0, "insert_text": content},
        {"command": "str_replace", "path": raw, "old_str": "secret", "new_str": content},
    ):
        result = tool.execute(call)
        assert "secret" not in result.output
        assert "Internal error" not in result.error
    assert snapshot(outside) == before
