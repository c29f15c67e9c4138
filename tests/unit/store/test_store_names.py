"""Names no listing would show are refused; names other programs wrote that no virtual path
can reach are shown with a warning and kept in history (docs/formats.md §4.2)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memtab.cli.main import main
from memtab.components.tree.nodes import MessageKind, SectionId, unaddressable_key
from memtab.components.tree.tree import build_tree
from memtab.store.catch_up.external import record_external
from memtab.store.history.blobs import BlobStore
from memtab.store.history.versions import ScopeHistory
from memtab.store.home import Home
from memtab.store.paths import PathError, Scope, is_addressable_name, parse_virtual_path
from memtab.store.scope_walk import is_hidden_name, is_listable_name
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import MemoryTool
from support.memory_home import scanned, write_registry
from support.memory_paths import vpath

from .helpers import WORKSPACE_ID

# --- refused: a name no listing shows ---------------------------------------------------------


@pytest.mark.parametrize("name", [".md", ".notes.md", ".hidden/a.md"])
def test_a_hidden_name_is_refused_on_create(
    tool: MemoryTool, store: MemoryStore, name: str
) -> None:
    path = f"/memories/global/{name}"
    result = tool.execute({"command": "create", "path": path, "file_text": "lost\n"})
    assert not result.success
    assert result.error.startswith(f"Cannot create {path}: ")
    assert "listed" in result.error or "listing" in result.error
    assert result.error.endswith("choose another name")
    assert not store.root(Scope.GLOBAL).exists() or not os.listdir(store.root(Scope.GLOBAL))


def test_an_empty_name_says_so(tool: MemoryTool) -> None:
    result = tool.execute({"command": "create", "path": "/memories/global/.md", "file_text": ""})
    assert result.error == (
        "Cannot create /memories/global/.md: '.md' has no name before the extension, and a "
        "name starting with '.' is hidden: no listing would show it; choose another name"
    )


def test_a_rename_to_a_hidden_name_and_a_hidden_folder_are_refused(
    tool: MemoryTool, store: MemoryStore
) -> None:
    store.create_file(vpath("/memories/global/a.md"), "kept\n")
    result = tool.execute(
        {
            "command": "rename",
            "old_path": "/memories/global/a.md",
            "new_path": "/memories/global/.a.md",
        }
    )
    assert not result.success and "hidden names are never listed" in result.error
    assert store.read_text(vpath("/memories/global/a.md")) == "kept\n"
    with pytest.raises(PathError, match=r"Cannot create /memories/global/\.cache"):
        store.create_directory(vpath("/memories/global/.cache"))


# --- shown with a warning, kept in history: names no path can reach --------------------------

ODD_NAMES = {
    b"line\nbreak.md": "/memories/global/line\\nbreak.md",
    b"not-utf8-\xff.md": "/memories/global/not-utf8-\\xff.md",
    b"back\\slash.md": "/memories/global/back\\\\slash.md",
}


def write_odd_files(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for raw, _shown in ODD_NAMES.items():
        with open(os.path.join(os.fsencode(root), raw), "wb") as handle:
            handle.write(b"written by another program: " + raw + b"\n")
    (root / "plain.md").write_text("plain\n")


def test_they_are_in_the_listing_json_with_the_reason(
    home: Home, store: MemoryStore, capsys: pytest.CaptureFixture[str]
) -> None:
    write_odd_files(store.root(Scope.GLOBAL))
    assert main(["--home", str(home.root), "list", "--workspace", WORKSPACE_ID, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [row["path"] for row in listed["files"]] == ["/memories/global/plain.md"]
    assert listed["files"][0]["notEditable"] is None
    assert {row["path"]: row["reason"] for row in listed["unaddressable"]} == {
        "/memories/global/back\\\\slash.md": "its name holds a backslash",
        "/memories/global/line\\nbreak.md": (
            "its name holds a control character (a line break, a tab…)"
        ),
        "/memories/global/not-utf8-\\xff.md": "its name is not valid UTF-8",
    }
    for row in listed["unaddressable"]:
        assert row["kind"] == "file" and row["scope"] == "global"
        with pytest.raises(PathError):  # never mistaken for a path Memtab could write
            parse_virtual_path(row["path"])

    assert main(["--home", str(home.root), "list", "--workspace", WORKSPACE_ID]) == 0
    warnings = capsys.readouterr().err.splitlines()
    assert (
        "warning: /memories/global/not-utf8-\\xff.md is not listed: its name is not valid "
        "UTF-8; rename it outside Memtab to see and edit it"
    ) in warnings


def test_the_tree_shows_a_warning_row(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    write_registry(home)
    write_odd_files(home.global_root)
    section = build_tree(scanned(home)).children[0]
    (warning,) = [
        child for child in section.children if child.key == unaddressable_key(SectionId.GLOBAL)
    ]
    assert warning.message_kind is MessageKind.ERROR
    assert warning.name.startswith("⚠ Cannot open back\\\\slash.md, line\\nbreak.md")
    assert "/memories/global/not-utf8-\\xff.md: its name is not valid UTF-8" in warning.subtitle


def test_history_keeps_them_under_their_shown_name(home: Home, store: MemoryStore) -> None:
    write_odd_files(store.root(Scope.GLOBAL))
    report = record_external(store)
    assert report.problems == []
    versions = ScopeHistory(home, store.history_key(Scope.GLOBAL)).newest_by_path()
    blobs = BlobStore(home.history_blobs_dir)
    for raw, shown in ODD_NAMES.items():
        assert blobs.get(versions[shown].sha256) == b"written by another program: " + raw + b"\n"
    assert record_external(store).recorded == 0  # seen once, not again


# --- which names a listing shows: the walk's one-regex path and the rules agree -------------

_NAMES = [
    "notes.md", "a b.md", "a.md ", "a-b_c.d.e", "environment.md.1a2b3c4d5e6f",
    "environment.md.1A2B3C4D5E6F", "environment.md.1a2b3c4d5e6", "x.1a2b3c4d5e6f0",
    ".1a2b3c4d5e6f", ".md", ".notes.md.1a2b3c4d.tmp", "a..b", "a.", "-a", "_", "é.md",
    "a\tb", "a~b", "100%2e", "a.md\u00a0",
]  # fmt: skip


@pytest.mark.parametrize("name", _NAMES)
def test_a_name_is_listed_by_the_rules_whichever_way_it_is_told(name: str) -> None:
    assert is_listable_name(name) == (not is_hidden_name(name) and is_addressable_name(name))


@given(st.text(alphabet=st.sampled_from("aZ09 ._-~%éf"), max_size=24))
def test_any_name_is_listed_by_the_rules_whichever_way_it_is_told(name: str) -> None:
    assert is_listable_name(name) == (not is_hidden_name(name) and is_addressable_name(name))
