"""The memory tool (docs/formats.md §5): every command's output, aliases, edge cases and fuzzing."""

from __future__ import annotations

from typing import Any

import pytest

from memtab.store.paths import Scope
from memtab.store.scopes.memory import PROJECT_UNAVAILABLE, MemoryStore
from memtab.store.scopes.tool import (
    MemoryTool,
    ToolResult,
    parse_tool_request,
)

from .helpers import G, P, S, W, create, err, ok, text_of, write

# --- view ------------------------------------------------------------------------------


def test_view_memories_root_lists_each_scope_one_level_deep(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "a")
    create(tool, f"{G}/sub/b.md", "b")
    create(tool, f"{P}/p.md", "p")
    write(tool.store.root(Scope.GLOBAL) / ".hidden.md", "h")
    assert ok(tool.execute({"command": "view", "path": "/memories"})) == (
        "Directory: /memories\n- global/\n  - a.md\n  - sub/\n- project/\n  - p.md\n- workspace/"
    )


def test_view_root_shows_an_unavailable_project_scope(multi_store: MemoryStore) -> None:
    tool = MemoryTool(multi_store)
    create(tool, f"{W}/w.md", "w")
    assert ok(tool.execute({"command": "view", "path": "/memories/"})) == (
        "Directory: /memories\n"
        "- global/\n"
        "- project/\n"
        "  (unavailable: multi-project workspaces have no single project identity)\n"
        "- workspace/\n"
        "  - w.md"
    )


def test_project_scope_is_unavailable_for_multi_project_workspaces(
    multi_store: MemoryStore,
) -> None:
    tool = MemoryTool(multi_store)
    for call in (
        {"command": "view", "path": P},
        {"command": "view", "path": f"{P}/a.md"},
        {"command": "create", "path": f"{P}/a.md", "file_text": "x"},
        {"command": "delete", "path": f"{P}/a.md"},
    ):
        assert err(tool.execute(call)) == PROJECT_UNAVAILABLE
    assert not multi_store.home.projects_root.exists()
    create(tool, f"{G}/still-works.md", "g")
    create(tool, f"{W}/still-works.md", "w")


def test_workspace_scope_needs_a_workspace(home: Any) -> None:
    tool = MemoryTool(MemoryStore(home))
    assert "no workspace" in err(tool.execute({"command": "view", "path": W}))
    create(tool, f"{G}/g.md", "g")
    assert "(unavailable:" in ok(tool.execute({"command": "view", "path": "/memories"}))


def test_view_directory_is_a_two_level_tree(tool: MemoryTool) -> None:
    for name in ["a.md", "deep/b.md", "deep/deeper/c.md", "deep/.hidden.md", ".dot/x.md", "z/"]:
        if name.endswith("/"):
            (tool.store.root(Scope.GLOBAL) / "notes" / name).mkdir(parents=True)
        else:
            write(tool.store.root(Scope.GLOBAL) / "notes" / name, "x")
    assert ok(tool.execute({"command": "view", "path": f"{G}/notes/"})) == (
        f"Directory: {G}/notes\n- a.md\n- deep/\n  - b.md\n  - deeper/\n- z/"
    )


def test_view_missing_scope_root_is_an_empty_directory(tool: MemoryTool) -> None:
    assert ok(tool.execute({"command": "view", "path": W})) == f"Directory: {W}"
    assert not tool.store.root(Scope.WORKSPACE).exists()


def test_view_file_numbers_lines(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "one\ntwo\n\nfour\n")
    assert ok(tool.execute({"command": "view", "path": f"{G}/a.md"})) == (
        "1\tone\n2\ttwo\n3\t\n4\tfour"
    )


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ({"offset": 2}, "2\tb\n3\tc\n4\td"),
        ({"offset": 2, "limit": 2}, "2\tb\n3\tc"),
        ({"limit": 1}, "1\ta"),
        ({"offset": 4, "limit": 10}, "4\td"),
        ({"offset": 1, "limit": 100}, "1\ta\n2\tb\n3\tc\n4\td"),
    ],
)
def test_view_file_offset_and_limit(tool: MemoryTool, extra: dict[str, int], expected: str) -> None:
    create(tool, f"{G}/a.md", "a\nb\nc\nd")
    assert ok(tool.execute({"command": "view", "path": f"{G}/a.md", **extra})) == expected


@pytest.mark.parametrize(
    "extra",
    [
        {"offset": 0},
        {"offset": -1},
        {"limit": 0},
        {"offset": "2"},
        {"limit": 1.5},
        {"offset": True},
    ],
)
def test_view_rejects_bad_offset_and_limit(tool: MemoryTool, extra: dict[str, object]) -> None:
    create(tool, f"{G}/a.md", "a\nb")
    error = err(tool.execute({"command": "view", "path": f"{G}/a.md", **extra}))
    assert "must be an integer" in error


def test_view_offset_past_the_end(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "a\nb")
    assert err(tool.execute({"command": "view", "path": f"{G}/a.md", "offset": 3})) == (
        f"offset 3 is beyond the end of {G}/a.md (2 lines)"
    )


def test_view_offset_as_xum_counts_lines(tool: MemoryTool) -> None:
    """xum's `view` (memoryService.ts `renderFileView`) counts the empty line after a final
    newline, and refuses any offset past the end, of an empty file too: an agent paging
    through a file gets the same answers here."""
    create(tool, f"{G}/a.md", "a\nb\n")
    create(tool, f"{G}/e.md", "")
    view = {"command": "view", "path": f"{G}/a.md"}
    assert (
        ok(tool.execute({**view, "offset": 3})) == f"(no lines from offset 3: {G}/a.md has 2 lines)"
    )
    assert "beyond the end" in err(tool.execute({**view, "offset": 4}))
    assert ok(tool.execute({**view, "offset": 2, "limit": 5})) == "2\tb"
    empty = {"command": "view", "path": f"{G}/e.md"}
    assert ok(tool.execute({**empty, "offset": 1})) == f"(empty file: {G}/e.md)"
    assert err(tool.execute({**empty, "offset": 2})) == (
        f"offset 2 is beyond the end of {G}/e.md (0 lines)"
    )


def test_view_empty_file(tool: MemoryTool) -> None:
    create(tool, f"{G}/e.md", "")
    assert ok(tool.execute({"command": "view", "path": f"{G}/e.md"})) == f"(empty file: {G}/e.md)"


def test_view_missing_path(tool: MemoryTool) -> None:
    assert err(tool.execute({"command": "view", "path": f"{G}/nope.md"})) == (
        f"No memory file or directory at {G}/nope.md"
    )


# --- create ----------------------------------------------------------------------------


def test_create_writes_the_file_and_its_parents(tool: MemoryTool) -> None:
    assert ok(
        tool.execute({"command": "create", "path": f"{W}/a/b/c.md", "file_text": "hello\n"})
    ) == (f"Created {W}/a/b/c.md")
    assert (tool.store.root(Scope.WORKSPACE) / "a" / "b" / "c.md").read_text() == "hello\n"


def test_create_without_text_makes_an_empty_file(tool: MemoryTool) -> None:
    ok(tool.execute({"command": "create", "path": f"{G}/empty.md"}))
    assert text_of(tool, f"{G}/empty.md") == ""


def test_create_fails_on_an_existing_file(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "original")
    assert err(tool.execute({"command": "create", "path": f"{G}/a.md", "file_text": "new"})) == (
        f"A file already exists at {G}/a.md. To overwrite a file, delete it first, then create it."
    )
    assert text_of(tool, f"{G}/a.md") == "original"


def test_create_fails_on_an_existing_directory(tool: MemoryTool) -> None:
    create(tool, f"{G}/dir/a.md", "a")
    assert "already exists" in err(
        tool.execute({"command": "create", "path": f"{G}/dir", "file_text": "x"})
    )
    assert (tool.store.root(Scope.GLOBAL) / "dir").is_dir()


def test_create_under_a_file_fails(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "a")
    assert "is a file, not a directory" in err(
        tool.execute({"command": "create", "path": f"{G}/a.md/b.md", "file_text": "x"})
    )


def test_create_with_a_lone_surrogate_writes_a_replacement_char(tool: MemoryTool) -> None:
    ok(tool.execute({"command": "create", "path": f"{G}/s.md", "file_text": "a\ud800b"}))
    assert (tool.store.root(Scope.GLOBAL) / "s.md").read_bytes() == "a\ufffdb".encode()


# --- aliases ---------------------------------------------------------------------------


@pytest.mark.parametrize("alias", ["file_path", "filePath"])
def test_path_aliases(tool: MemoryTool, alias: str) -> None:
    ok(tool.execute({"command": "create", alias: f"{G}/a.md", "content": "via aliases"}))
    assert ok(tool.execute({"command": "view", alias: f"{G}/a.md"})) == "1\tvia aliases"


def test_str_replace_aliases(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "old text")
    ok(
        tool.execute(
            {
                "command": "str_replace",
                "path": f"{G}/a.md",
                "old_string": "old",
                "new_string": "new",
            }
        )
    )
    assert text_of(tool, f"{G}/a.md") == "new text"


def test_path_is_the_rename_source_when_old_path_is_absent(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "a")
    assert ok(
        tool.execute({"command": "rename", "path": f"{G}/a.md", "new_path": f"{G}/b.md"})
    ) == (f"Renamed {G}/a.md to {G}/b.md")


def test_canonical_names_win_over_aliases(tool: MemoryTool) -> None:
    request = parse_tool_request(
        {"command": "create", "file_path": "/alias", "path": "/canonical", "content": "c1"}
    )
    assert request.path == "/canonical"
    assert request.args.command == "create" and request.args.file_text == "c1"
    request = parse_tool_request({"command": "create", "path": "/canonical", "filePath": "/alias"})
    assert request.path == "/canonical"
    request = parse_tool_request(
        {"command": "create", "path": "/p", "file_text": "t", "content": "c"}
    )
    assert request.args.command == "create" and request.args.file_text == "t"


def test_old_path_wins_over_path_for_rename(tool: MemoryTool) -> None:
    request = parse_tool_request(
        {"command": "rename", "path": "/p", "old_path": "/o", "new_path": "/n"}
    )
    assert (request.path, request.new_path) == ("/o", "/n")


# --- str_replace -----------------------------------------------------------------------


def test_str_replace_once(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "alpha beta\ngamma\n")
    assert (
        ok(
            tool.execute(
                {"command": "str_replace", "path": f"{G}/a.md", "old_str": "beta", "new_str": "B"}
            )
        )
        == f"Edited {G}/a.md"
    )
    assert text_of(tool, f"{G}/a.md") == "alpha B\ngamma\n"


def test_str_replace_not_found(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "alpha")
    assert (
        err(
            tool.execute(
                {"command": "str_replace", "path": f"{G}/a.md", "old_str": "zeta", "new_str": "x"}
            )
        )
        == f"No replacement was performed: old_str was not found in {G}/a.md"
    )
    assert text_of(tool, f"{G}/a.md") == "alpha"


def test_str_replace_several_matches_lists_their_lines(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "todo one\nother\ntodo two\n\nand todo three")
    assert err(
        tool.execute(
            {"command": "str_replace", "path": f"{G}/a.md", "old_str": "todo", "new_str": "x"}
        )
    ) == (
        f"No replacement was performed: old_str matches 3 locations (lines 1, 3, 5) in {G}/a.md. "
        "Provide a longer, unique old_str."
    )
    assert text_of(tool, f"{G}/a.md").count("todo") == 3


def test_str_replace_two_matches_of_a_multiline_needle(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "x\na\nb\ny\na\nb\n")
    error = err(
        tool.execute(
            {"command": "str_replace", "path": f"{G}/a.md", "old_str": "a\nb", "new_str": "z"}
        )
    )
    assert "matches 2 locations (lines 2, 5)" in error


@pytest.mark.parametrize(
    ("content", "old", "error"),
    [
        ("aaa", "aa", "matches 2 locations (lines 1)"),
        ("xabababx", "abab", "matches 2 locations (lines 1)"),
        ("aa\naaa", "aa", "matches 3 locations (lines 1, 2)"),
    ],
)
def test_str_replace_counts_overlapping_matches_as_mux_does(
    tool: MemoryTool, content: str, old: str, error: str
) -> None:
    # mux searches again one character after each match start, so overlaps count.
    create(tool, f"{G}/a.md", content)
    message = err(
        tool.execute(
            {"command": "str_replace", "path": f"{G}/a.md", "old_str": old, "new_str": "X"}
        )
    )
    assert error in message
    assert text_of(tool, f"{G}/a.md") == content


@pytest.mark.parametrize("replacement", ["$&", "$1", "\\1", "\\g<0>", "$$", "\\n", "$'"])
def test_str_replace_replacement_is_literal(tool: MemoryTool, replacement: str) -> None:
    create(tool, f"{G}/a.md", "before (target) after")
    ok(
        tool.execute(
            {
                "command": "str_replace",
                "path": f"{G}/a.md",
                "old_str": "(target)",
                "new_str": replacement,
            }
        )
    )
    assert text_of(tool, f"{G}/a.md") == f"before {replacement} after"


def test_str_replace_treats_old_str_literally(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "a.b a*b")
    ok(
        tool.execute(
            {"command": "str_replace", "path": f"{G}/a.md", "old_str": "a*b", "new_str": "S"}
        )
    )
    assert text_of(tool, f"{G}/a.md") == "a.b S"


def test_str_replace_empty_old_str_is_refused(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "abc")
    assert "must not be empty" in err(
        tool.execute({"command": "str_replace", "path": f"{G}/a.md", "old_str": "", "new_str": "x"})
    )
    assert text_of(tool, f"{G}/a.md") == "abc"


def test_str_replace_without_new_str_deletes_the_match(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "keep DROP keep")
    ok(tool.execute({"command": "str_replace", "path": f"{G}/a.md", "old_str": " DROP"}))
    assert text_of(tool, f"{G}/a.md") == "keep keep"


def test_str_replace_on_a_missing_file(tool: MemoryTool) -> None:
    assert "No memory file" in err(
        tool.execute(
            {"command": "str_replace", "path": f"{G}/none.md", "old_str": "a", "new_str": "b"}
        )
    )


def test_str_replace_on_a_directory(tool: MemoryTool) -> None:
    create(tool, f"{G}/dir/a.md", "a")
    assert "No memory file" in err(
        tool.execute({"command": "str_replace", "path": f"{G}/dir", "old_str": "a", "new_str": "b"})
    )


# --- insert ----------------------------------------------------------------------------


def _insert(tool: MemoryTool, line: object, text: str, path: str = f"{G}/a.md") -> ToolResult:
    return tool.execute(
        {"command": "insert", "path": path, "insert_line": line, "insert_text": text}
    )


def test_insert_at_the_top(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "one\ntwo")
    assert ok(_insert(tool, 0, "zero")) == f"Inserted 1 line(s) into {G}/a.md after line 0"
    assert text_of(tool, f"{G}/a.md") == "zero\none\ntwo"


def test_insert_after_the_last_line(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "one\ntwo")
    ok(_insert(tool, 2, "three"))
    assert text_of(tool, f"{G}/a.md") == "one\ntwo\nthree"


def test_insert_in_the_middle_multi_line(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "one\nfour")
    assert ok(_insert(tool, 1, "two\nthree")) == f"Inserted 2 line(s) into {G}/a.md after line 1"
    assert text_of(tool, f"{G}/a.md") == "one\ntwo\nthree\nfour"


def test_insert_drops_a_trailing_empty_element(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "one\ntwo")
    assert ok(_insert(tool, 1, "mid\n")) == f"Inserted 1 line(s) into {G}/a.md after line 1"
    assert text_of(tool, f"{G}/a.md") == "one\nmid\ntwo"


def test_insert_past_the_end_is_an_error(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "one\ntwo")
    assert err(_insert(tool, 3, "x")) == (
        "insert_line must be between 0 and 2 (0 inserts at the top; N inserts after line N)"
    )
    assert text_of(tool, f"{G}/a.md") == "one\ntwo"


def test_insert_counts_a_trailing_newline_as_an_empty_last_line(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "one\ntwo\n")
    ok(_insert(tool, 2, "three"))
    assert text_of(tool, f"{G}/a.md") == "one\ntwo\nthree\n"
    assert "between 0 and 4" in err(_insert(tool, 5, "x"))


def test_insert_into_an_empty_file(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "")
    assert err(_insert(tool, 1, "x")).startswith("insert_line must be between 0 and 0 ")
    assert ok(_insert(tool, 0, "first\nsecond\n")) == (
        f"Inserted 2 line(s) into {G}/a.md after line 0"
    )
    assert text_of(tool, f"{G}/a.md") == "first\nsecond"


@pytest.mark.parametrize("line", [-1, "1", 1.0, True, None])
def test_insert_line_must_be_a_non_negative_integer(tool: MemoryTool, line: object) -> None:
    create(tool, f"{G}/a.md", "one")
    assert "insert_line" in err(_insert(tool, line, "x"))
    assert text_of(tool, f"{G}/a.md") == "one"


def test_insert_needs_insert_text(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "one")
    assert "insert_text" in err(
        tool.execute({"command": "insert", "path": f"{G}/a.md", "insert_line": 0})
    )


# --- delete ----------------------------------------------------------------------------


def test_delete_a_file(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "a")
    assert ok(tool.execute({"command": "delete", "path": f"{G}/a.md"})) == f"Deleted {G}/a.md"
    assert not (tool.store.root(Scope.GLOBAL) / "a.md").exists()


def test_delete_a_directory_recursively(tool: MemoryTool) -> None:
    create(tool, f"{G}/dir/a.md", "a")
    create(tool, f"{G}/dir/sub/b.md", "b")
    create(tool, f"{G}/keep.md", "k")
    assert ok(tool.execute({"command": "delete", "path": f"{G}/dir/"})) == f"Deleted {G}/dir"
    assert [f.path.relative for f in tool.store.list_scope(Scope.GLOBAL).files] == ["keep.md"]


@pytest.mark.parametrize("root", ["/memories", G, P, W, S])
def test_delete_never_removes_a_scope_root(tool: MemoryTool, root: str) -> None:
    create(tool, f"{G}/a.md", "a")
    create(tool, f"{P}/a.md", "a")
    create(tool, f"{W}/a.md", "a")
    create(tool, f"{S}/a.md", "a")
    err(tool.execute({"command": "delete", "path": root}))
    assert all(tool.store.root(scope).is_dir() for scope in Scope)
    assert all(len(tool.store.list_scope(scope).files) == 1 for scope in Scope)


def test_delete_missing(tool: MemoryTool) -> None:
    assert err(tool.execute({"command": "delete", "path": f"{G}/none"})) == (
        f"No memory file or directory at {G}/none"
    )


# --- rename ----------------------------------------------------------------------------


def test_rename_within_a_scope_creates_parents(tool: MemoryTool) -> None:
    create(tool, f"{P}/a.md", "content")
    assert (
        ok(
            tool.execute(
                {"command": "rename", "old_path": f"{P}/a.md", "new_path": f"{P}/x/y/b.md"}
            )
        )
        == f"Renamed {P}/a.md to {P}/x/y/b.md"
    )
    assert text_of(tool, f"{P}/x/y/b.md") == "content"
    assert not (tool.store.root(Scope.PROJECT) / "a.md").exists()


def test_rename_a_directory(tool: MemoryTool) -> None:
    create(tool, f"{G}/old/a.md", "a")
    ok(tool.execute({"command": "rename", "old_path": f"{G}/old", "new_path": f"{G}/new"}))
    assert [f.path.relative for f in tool.store.list_scope(Scope.GLOBAL).files] == ["new/a.md"]


def test_rename_across_scopes_is_refused(tool: MemoryTool) -> None:
    create(tool, f"{W}/a.md", "a")
    assert err(
        tool.execute({"command": "rename", "old_path": f"{W}/a.md", "new_path": f"{G}/a.md"})
    ) == (
        f"Cannot rename across memory scopes ({W}/a.md -> {G}/a.md); "
        "create the file in the target scope instead"
    )
    assert text_of(tool, f"{W}/a.md") == "a"
    assert not (tool.store.root(Scope.GLOBAL) / "a.md").exists()


def test_rename_onto_an_existing_destination_is_refused(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "a")
    create(tool, f"{G}/b.md", "b")
    assert "already exists" in err(
        tool.execute({"command": "rename", "old_path": f"{G}/a.md", "new_path": f"{G}/b.md"})
    )
    assert (text_of(tool, f"{G}/a.md"), text_of(tool, f"{G}/b.md")) == ("a", "b")


def test_rename_a_directory_into_itself_is_refused(tool: MemoryTool) -> None:
    create(tool, f"{G}/d/a.md", "a")
    assert "into itself" in err(
        tool.execute({"command": "rename", "old_path": f"{G}/d", "new_path": f"{G}/d/sub"})
    )
    assert text_of(tool, f"{G}/d/a.md") == "a"


def test_rename_missing_source(tool: MemoryTool) -> None:
    assert "No memory file" in err(
        tool.execute({"command": "rename", "old_path": f"{G}/none", "new_path": f"{G}/x"})
    )


def test_rename_needs_new_path(tool: MemoryTool) -> None:
    create(tool, f"{G}/a.md", "a")
    assert "new_path" in err(tool.execute({"command": "rename", "old_path": f"{G}/a.md"}))
