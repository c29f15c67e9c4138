"""File-sync tools' conflict copies: recognised, kept from agents, resolvable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.consolidation.engine.prompts import run_message
from memtab.consolidation.offline.inputs import collect_memory_files
from memtab.fs.atomic import atomic_write_json
from memtab.store import conflict_copies
from memtab.store.conflict_copies import find_copies, parse_copy_name
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.restore.from_history import trash
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import MemoryTool
from memtab.sync.conflicts.copies import (
    memory_copies,
    resolve_memory_copy,
    resolve_sidecar_copy,
    sidecar_copies,
)
from support.memory_paths import vpath

# The names each tool gives a copy of `x.md`, and the tool Memtab names.
COPY_NAMES = [
    ("x.sync-conflict-20261122-143000-ABCDEF7.md", "syncthing"),
    ("x (conflicted copy 2026-11-22).md", "dropbox"),
    ("x (Alice's conflicted copy 2026-11-22).md", "dropbox"),
    ("x (Alice's conflicted copy 2026-11-22 (1)).md", "dropbox"),
    ("x_conflict-20261122-143000.md", "owncloud"),
    ("x (conflicted copy 2026-11-22 143000).md", "nextcloud"),
    ("x (conflicted copy alice 2026-11-22 143000).md", "nextcloud"),
    ("x-DESKTOP-4J2K9QL.md", "onedrive"),
    ("x (1).md", "google-drive"),
]


@pytest.mark.parametrize(("name", "tool"), COPY_NAMES)
def test_each_tools_copy_names_its_original(name: str, tool: str) -> None:
    parsed = parse_copy_name(name)
    assert parsed is not None
    assert (parsed.original, parsed.tool) == ("x.md", tool)


@pytest.mark.parametrize(
    "name",
    ["x.md", "x-TODO.md", "notes-v2.md", "my (draft).md", "x (conflicted).md", ".x (1).md"],
)
def test_ordinary_names_are_not_copies(name: str) -> None:
    assert parse_copy_name(name) is None


@pytest.mark.parametrize(("name", "_tool"), COPY_NAMES)
def test_the_quick_look_for_a_copy_name_passes_every_tools_copies(name: str, _tool: str) -> None:
    # `parse_copy_name` looks at a name with the tools' patterns only when it holds one of
    # their marks; a pattern added without its mark would never match.
    assert conflict_copies._MAYBE_A_COPY.search(name) is not None


def test_a_copy_counts_only_beside_its_original() -> None:
    paths = [parse_file_path(f"/memories/global/{n}") for n in ("x (1).md", "y (1).md", "x.md")]
    copies = find_copies(paths)
    assert list(copies) == [paths[0]]
    assert str(copies[paths[0]].original) == "/memories/global/x.md"


@pytest.fixture
def home(tmp_path: Path) -> Home:
    home = Home(tmp_path / "home")
    root = home.global_root
    (root / "sub").mkdir(parents=True)
    (root / "x.md").write_text("a\nmine\nc\n")
    (root / "x.sync-conflict-20261122-143000-ABCDEF7.md").write_text("a\ntheirs\nc\n")
    (root / "sub" / "y.md").write_text("y\n")
    (root / "sub" / "y (conflicted copy 2026-11-22).md").write_text("y2\n")
    (root / "lonely (1).md").write_text("only copy left\n")
    return home


def test_list_json_names_the_original_of_each_copy(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--home", str(home.root), "list", "--json"]) == 0
    rows = {row["path"]: row["conflictOf"] for row in json.loads(capsys.readouterr().out)["files"]}
    assert rows == {
        "/memories/global/lonely (1).md": None,
        "/memories/global/sub/y (conflicted copy 2026-11-22).md": "/memories/global/sub/y.md",
        "/memories/global/sub/y.md": None,
        "/memories/global/x.md": None,
        "/memories/global/x.sync-conflict-20261122-143000-ABCDEF7.md": "/memories/global/x.md",
    }


def test_agents_and_the_consolidator_do_not_see_copies(home: Home) -> None:
    store = MemoryStore(home)
    tool = MemoryTool(store)
    listing = tool.execute({"command": "view", "path": "/memories"}).output
    assert "sync-conflict" not in listing and "x.md" in listing
    sub = tool.execute({"command": "view", "path": "/memories/global/sub"}).output
    assert "conflicted copy" not in sub and "y.md" in sub
    assert "lonely (1).md" in listing  # no original beside it: the only text left
    inputs = {file.path for file in collect_memory_files(store)}
    assert "/memories/global/x.sync-conflict-20261122-143000-ABCDEF7.md" not in inputs
    assert "/memories/global/x.md" in inputs
    message = run_message(store, trigger="manual", budget=5, dry_run=True)
    assert "sync-conflict" not in message and "/memories/global/x.md" in message


@pytest.mark.parametrize(
    ("keep", "merged", "expected"),
    [
        ("this", None, "a\ntheirs\nc\n"),
        ("mine", None, "a\nmine\nc\n"),
        ("both", None, "a\nmine\ntheirs\nc\n"),
        (None, b"a\nboth, by hand\nc\n", "a\nboth, by hand\nc\n"),
    ],
)
def test_a_copy_is_resolved_and_kept_in_history(
    home: Home, keep: str | None, merged: bytes | None, expected: str
) -> None:
    store = MemoryStore(home)
    copy = "/memories/global/x.sync-conflict-20261122-143000-ABCDEF7.md"
    resolve_memory_copy(store, copy, keep=keep, merged=merged)  # type: ignore[arg-type]
    assert store.read_text(vpath("/memories/global/x.md")) == expected
    assert store.read_whole(vpath(copy)) is None
    assert copy in {str(item.version.path) for item in trash(store)}
    assert [str(c.path) for c in memory_copies(store)] == [
        "/memories/global/sub/y (conflicted copy 2026-11-22).md"
    ]


def test_resolving_a_file_that_is_not_a_copy_is_refused(home: Home) -> None:
    from memtab.store.errors import NotFoundError

    with pytest.raises(NotFoundError, match="not a conflict copy"):
        resolve_memory_copy(MemoryStore(home), "/memories/global/lonely (1).md", keep="this")


def test_a_copy_of_memory_meta_is_merged_by_rule(home: Home) -> None:
    atomic_write_json(
        home.meta_path,
        {"entries": {"global:x.md": {"pinned": False, "accessCount": 5, "lastWriteAt": 10}}},
    )
    copy_path = home.root / "memory-meta.sync-conflict-20261122-143000-ABCDEF7.json"
    atomic_write_json(
        copy_path,
        {
            "entries": {
                "global:x.md": {"pinned": True, "accessCount": 3, "lastWriteAt": 20},
                "global:sub/y.md": {"pinned": True, "accessCount": 1},
            }
        },
    )
    [copy] = sidecar_copies(home)
    assert copy.mergeable and copy.original == home.meta_path
    aside = resolve_sidecar_copy(home, copy, "both")
    entries = MemoryStore(home).meta_entries()
    x, y = entries["global:x.md"], entries["global:sub/y.md"]
    assert (x.pinned, x.access_count, x.last_write_at) == (True, 5, 20)
    assert y.pinned and y.access_count == 1
    assert not copy_path.exists() and aside.read_bytes()  # set aside, not deleted
    assert aside.parent == home.memtab_dir / "conflict-copies"


def test_a_copy_of_the_registry_is_kept_or_dropped_not_merged(home: Home) -> None:
    atomic_write_json(home.config_path, {"projects": []})
    copy_path = home.root / "config (conflicted copy 2026-11-22 143000).json"
    atomic_write_json(copy_path, {"projects": [["/src/app", {"workspaces": []}]]})
    [copy] = sidecar_copies(home)
    from memtab.store.errors import MemoryStoreError

    with pytest.raises(MemoryStoreError, match="cannot be merged"):
        resolve_sidecar_copy(home, copy, "both")
    aside = resolve_sidecar_copy(home, copy, "this")
    assert json.loads(home.config_path.read_text())["projects"][0][0] == "/src/app"
    assert json.loads(aside.read_text()) == {"projects": []}


def test_the_conflicts_command_lists_and_resolves(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--home", str(home.root), "conflicts", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [c["conflictOf"] for c in listed["copies"]] == [
        "/memories/global/sub/y.md",
        "/memories/global/x.md",
    ]
    status = main(
        [
            "--home",
            str(home.root),
            "conflicts",
            "resolve",
            "/memories/global/sub/y (conflicted copy 2026-11-22).md",
            "--keep",
            "this",
        ]
    )
    assert status == 0
    assert (home.global_root / "sub" / "y.md").read_text() == "y2\n"
    capsys.readouterr()
    assert main(["--home", str(home.root), "conflicts"]) == 0
    out = capsys.readouterr().out
    assert "x.sync-conflict" in out and "conflicted copy" not in out


def test_resolving_a_copy_says_what_it_did_in_json(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    atomic_write_json(home.config_path, {"projects": []})
    sidecar = home.root / "config (conflicted copy 2026-11-22 143000).json"
    atomic_write_json(sidecar, {"projects": []})
    resolve = ["--home", str(home.root), "conflicts", "resolve", "--json"]
    capsys.readouterr()
    assert main([*resolve, str(sidecar), "--keep", "mine"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert list(said) == [
        "path", "conflictOf", "tool", "when", "by", "mergeable", "kept", "setAside"
    ]  # fmt: skip
    assert (said["mergeable"], said["kept"]) == (False, "mine")
    copy = "/memories/global/sub/y (conflicted copy 2026-11-22).md"
    assert main([*resolve, copy, "--keep", "this"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert list(said) == ["path", "conflictOf", "tool", "when", "by", "kept"]
    assert (said["path"], said["kept"]) == (copy, "this")
