"""Memory paths go at most `MAX_PATH_DEPTH` levels below their scope (docs/formats.md §5):
nothing is created or moved past it, and a tree another program made deeper is listed,
viewed, recorded and changed to that depth, its deeper part left alone and said to be
there. (A thousand levels, past what Python recurses: the MCP server's and the
recorder's tests.)"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from memtab.store.catch_up.external import record_external
from memtab.store.errors import UnkeptChangeError
from memtab.store.history.versions import ScopeHistory
from memtab.store.paths import MAX_PATH_DEPTH, Scope, VirtualPath
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import MemoryTool
from support.memory_paths import vpath

from .helpers import G, err, ok, write

AT_THE_DEPTH = "/".join(["d"] * (MAX_PATH_DEPTH - 1))
DEEPER = MAX_PATH_DEPTH + 8
NOTED = re.escape(
    "Not listed, searched or recorded: the contents of /memories/global/d/d/…(26 more)…"
    f"/d/d/d/d are more than {MAX_PATH_DEPTH} levels deep"
)


def test_the_tool_creates_a_file_at_the_depth_and_refuses_one_deeper(tool: MemoryTool) -> None:
    ok(tool.execute({"command": "create", "path": f"{G}/{AT_THE_DEPTH}/x.md"}))
    refused = err(tool.execute({"command": "create", "path": f"{G}/{AT_THE_DEPTH}/d/x.md"}))
    assert refused == (
        "Cannot create /memories/global/d/d/…(27 more)…/d/d/d/x.md: it would be 33 levels "
        f"deep, and memory paths go at most {MAX_PATH_DEPTH} levels below their scope; "
        "choose a shallower place"
    )
    assert not (tool.store.root(Scope.GLOBAL).joinpath(*AT_THE_DEPTH.split("/"), "d")).exists()


def test_a_rename_that_would_put_files_past_the_depth_is_refused(tool: MemoryTool) -> None:
    ok(tool.execute({"command": "create", "path": f"{G}/a/b/c/x.md", "file_text": "x"}))
    shallow = "/".join(["s"] * (MAX_PATH_DEPTH - 3))
    ok(tool.execute({"command": "rename", "old_path": f"{G}/a", "new_path": f"{G}/{shallow}"}))
    deeper = f"u/{shallow}"
    refused = err(
        tool.execute(
            {"command": "rename", "old_path": f"{G}/{shallow}", "new_path": f"{G}/{deeper}"}
        )
    )
    assert refused.endswith(
        f"files in it would be 33 levels deep, and memory paths go at most {MAX_PATH_DEPTH} "
        "levels below their scope; choose a shallower place"
    )
    assert ok(tool.execute({"command": "view", "path": f"{G}/{shallow}/b/c/x.md"})) == "1\tx"


@pytest.mark.expect_log("memtab.store.files", "WARNING", NOTED)
def test_a_tree_deeper_than_memory_paths_is_listed_to_the_depth_and_said_to_go_deeper(
    store: MemoryStore, deep_tree: Callable[..., None]
) -> None:
    root = store.root(Scope.GLOBAL)
    deep_tree(root, "d", DEEPER)
    write(root / "fine.md", "fine\n")

    listing = store.list_scope(Scope.GLOBAL)

    assert [str(f.path) for f in listing.files] == [f"{G}/fine.md"]
    assert len(listing.directories) == MAX_PATH_DEPTH
    assert listing.too_deep == (VirtualPath(Scope.GLOBAL, ("d",) * MAX_PATH_DEPTH),)
    assert store.list_scope(Scope.GLOBAL).too_deep == listing.too_deep  # logged once


def test_view_of_the_folder_at_the_depth_says_what_it_does_not_list(
    tool: MemoryTool, deep_tree: Callable[..., None]
) -> None:
    deep_tree(tool.store.root(Scope.GLOBAL), "d", DEEPER)
    folder = "/".join(["d"] * MAX_PATH_DEPTH)
    assert ok(tool.execute({"command": "view", "path": f"{G}/{folder}"})) == (
        f"Directory: {G}/{folder}\n(not listed: the contents of /memories/global/d/d/…"
        f"(26 more)…/d/d/d/d are more than {MAX_PATH_DEPTH} levels deep)"
    )


@pytest.mark.expect_log("memtab.store.files", "WARNING", NOTED)
def test_outside_changes_are_recorded_to_the_depth(
    store: MemoryStore, deep_tree: Callable[..., None]
) -> None:
    root = store.root(Scope.GLOBAL)
    deep_tree(root, "d", DEEPER)
    write(root / "fine.md", "fine\n")

    report = record_external(store, scopes=(Scope.GLOBAL,))

    assert report.recorded == 1
    paths = ScopeHistory(store.home, store.history_key(Scope.GLOBAL)).newest_by_path()
    assert list(paths) == [f"{G}/fine.md"]


@pytest.mark.expect_log(
    "memtab.store.history.capture",
    "WARNING",
    r"^History cannot keep /memories/global/d(/d){31}: what it holds is more than 32 levels deep$",
)
@pytest.mark.expect_log(
    "memtab.store.scopes.memory",
    "WARNING",
    r"^/memories/global/e deleted without a copy in history: .* more than 32 levels deep$",
)
def test_a_tree_made_deeper_by_another_program_moves_and_is_deleted_only_when_told(
    store: MemoryStore, deep_tree: Callable[..., None]
) -> None:
    root = store.root(Scope.GLOBAL)
    deep_tree(root, "d", DEEPER)
    store.move(vpath(f"{G}/d"), vpath(f"{G}/e"))
    with pytest.raises(UnkeptChangeError, match="more than 32 levels deep"):
        store.delete(vpath(f"{G}/e"))  # history cannot keep what it cannot reach
    assert (root / "e").is_dir()
    store.delete(vpath(f"{G}/e"), allow_unkept=True)
    assert list(root.iterdir()) == []
