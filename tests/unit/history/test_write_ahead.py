"""History is written ahead: what a change replaces or removes is kept before the change
touches the disk, so a crash between the change and its record loses nothing.

The crash is simulated by making the step right after the unlink/replace (recording the
change) raise; then a fresh store, as after a restart, finds the replaced content in
`memtab trash` / `memtab history`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from memtab.cli.main import main
from memtab.fs.atomic import Directory
from memtab.store.history.blobs import BlobStore, sha256_of
from memtab.store.home import Home
from memtab.store.paths import Scope, parse_file_path
from memtab.store.restore.from_history import file_history, restore, trash
from memtab.store.scopes.memory import MemoryStore
from support.memory_paths import vpath

from .helpers import WS, disk, new_home, store_for, versions


class SimulatedCrash(BaseException):
    """Power loss right after the change reached the disk."""


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return new_home(tmp_path / "home")


def _crash(*_args: object, **_kwargs: object) -> None:
    raise SimulatedCrash


@contextmanager
def crash_after_the_change() -> Iterator[None]:
    """The change in the block crashes right after it reached the disk (when recording
    it); the block must crash."""
    with pytest.MonkeyPatch.context() as patch, pytest.raises(SimulatedCrash):
        patch.setattr(MemoryStore, "record_changes", _crash)
        yield


def edited_outside(store: MemoryStore, path: str, text: str) -> None:
    """A file Memtab made, then changed by mux or an editor (not synced since)."""
    store.create_file(vpath(path), "as memtab wrote it\n")
    store.physical(parse_file_path(path)).write_text(text)


def cli_json(capsys: pytest.CaptureFixture[str], home: Home, *args: str) -> Any:
    status = main(["--home", str(home.root), *args, "--workspace", WS, "--json"])
    out = capsys.readouterr().out
    assert status == 0, out
    return json.loads(out)


def stored(home: Home, sha: str) -> bytes:
    return BlobStore(home.history_blobs_dir).get(sha)


def test_a_crash_after_deleting_a_file_edited_outside_keeps_the_edit(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    store = store_for(home)
    edited_outside(store, "/memories/global/a.md", "their edit\n")
    with crash_after_the_change():
        store.delete(vpath("/memories/global/a.md"))
    assert disk(store, "/memories/global/a.md") is None

    listed = cli_json(capsys, home, "trash")
    (item,) = listed["files"]
    assert item["path"] == "/memories/global/a.md"
    (version,) = [v for v in versions(store) if v.id == item["version"]]
    assert stored(home, version.sha256) == b"their edit\n"
    restore(store_for(home), vpath(item["path"]), item["version"])
    assert disk(store, "/memories/global/a.md") == b"their edit\n"


def test_a_crash_after_saving_over_a_file_edited_outside_keeps_the_edit(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    store = store_for(home)
    edited_outside(store, "/memories/global/a.md", "their edit\n")
    with crash_after_the_change():
        store.save(vpath("/memories/global/a.md"), "ours\n", sha256_of(b"their edit\n"))
    assert disk(store, "/memories/global/a.md") == b"ours\n"

    listed = cli_json(capsys, home, "history", "/memories/global/a.md")
    shas = [v["sha256"] for v in listed["versions"]]
    assert [stored(home, sha) for sha in shas] == [
        b"ours\n",
        b"their edit\n",
        b"as memtab wrote it\n",
    ]


def test_a_crash_after_a_tool_edit_of_a_file_never_seen_keeps_it(home: Home) -> None:
    store = store_for(home, actor="agent-tool")
    never_seen = store.physical(parse_file_path("/memories/global/new.md"))
    never_seen.parent.mkdir(parents=True)
    never_seen.write_text("written by mux\n")
    with crash_after_the_change():
        store.edit_text(vpath("/memories/global/new.md"), lambda text: text.upper())
    contents = [
        stored(home, v.sha256)
        for v in file_history(store_for(home), vpath("/memories/global/new.md"))
    ]
    assert b"written by mux\n" in contents


def test_a_crash_after_a_move_across_scopes_keeps_the_edit_in_the_source_scope(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    store = store_for(home)
    edited_outside(store, "/memories/workspace/a.md", "their edit\n")
    with crash_after_the_change():
        store.move(vpath("/memories/workspace/a.md"), vpath("/memories/global/a.md"))
    assert disk(store, "/memories/workspace/a.md") is None

    listed = cli_json(capsys, home, "trash")
    (item,) = listed["files"]
    assert item["path"] == "/memories/workspace/a.md"
    (version,) = [v for v in versions(store, Scope.WORKSPACE) if v.id == item["version"]]
    assert stored(home, version.sha256) == b"their edit\n"


def test_a_crash_after_a_restore_keeps_what_it_replaced(home: Home) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/global/a.md"), "first\n")
    first = versions(store)[0]
    store.physical(parse_file_path("/memories/global/a.md")).write_text("their edit\n")
    with crash_after_the_change():
        restore(store, vpath("/memories/global/a.md"), first.id)
    assert disk(store, "/memories/global/a.md") == b"first\n"
    assert b"their edit\n" in [stored(home, v.sha256) for v in versions(store)]


def test_no_version_is_added_when_the_replaced_content_is_already_the_newest(
    home: Home,
) -> None:
    store = store_for(home)
    saved = store.create_file(vpath("/memories/global/a.md"), "one\n")
    saved = store.save(vpath("/memories/global/a.md"), "two\n", saved.sha256)
    store.edit_text(vpath("/memories/global/a.md"), lambda text: text + "three\n")
    store.move(vpath("/memories/global/a.md"), vpath("/memories/workspace/a.md"))
    store.delete(vpath("/memories/workspace/a.md"))
    ops = [(v.op, v.actor) for v in versions(store) + versions(store, Scope.WORKSPACE)]
    assert ops == [
        ("create", "user"),
        ("edit", "user"),
        ("edit", "user"),
        ("move", "user"),
        ("move", "user"),
        ("delete", "user"),
    ]


def test_an_outside_edit_is_recorded_once_before_the_change(home: Home) -> None:
    store = store_for(home)
    edited_outside(store, "/memories/global/a.md", "their edit\n")
    store.delete(vpath("/memories/global/a.md"))
    made, external, deleted = versions(store)
    assert (external.actor, external.op) == ("external", "edit")
    assert external.prev_sha256 == made.sha256
    assert deleted.op == "delete" and deleted.sha256 == external.sha256


def test_a_restored_file_has_its_pins_before_it_appears(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/global/a.md"), "keep me\n")
    store.set_pinned(vpath("/memories/global/a.md"), True)
    store.delete(vpath("/memories/global/a.md"))
    (item,) = trash(store)
    pinned_when_created: list[bool] = []
    real_create = Directory.create_new

    def create_new(directory: Directory, name: str, data: bytes) -> None:
        # What a rescan at this moment would see.
        pinned_when_created.append(store.is_pinned(parse_file_path(item.path)))
        real_create(directory, name, data)

    monkeypatch.setattr(Directory, "create_new", create_new)
    restore(store, vpath(item.path), item.version.id)
    assert pinned_when_created == [True]
    assert store.is_pinned(parse_file_path(item.path))


def test_a_restore_that_cannot_create_the_file_drops_the_pins_again(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = store_for(home)
    store.create_file(vpath("/memories/global/a.md"), "keep me\n")
    store.set_pinned(vpath("/memories/global/a.md"), True)
    store.delete(vpath("/memories/global/a.md"))
    (item,) = trash(store)

    def no_room(directory: Directory, name: str, data: bytes) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Directory, "create_new", no_room)
    with pytest.raises(Exception, match="No space left on device"):
        restore(store, vpath(item.path), item.version.id)
    assert disk(store, item.path) is None
    assert store.meta.load().get(store.meta_key(parse_file_path(item.path))) is None


@pytest.mark.expect_log(
    "memtab.store.history.recorder",
    "WARNING",
    r"^/memories/global/a\.md deleted without a copy in history: the disk holding .* is full",
)
def test_a_delete_made_without_a_copy_still_records_every_content_it_can(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = store_for(home)
    edited_outside(store, "/memories/global/a.md", "their edit\n")
    real_put, failures = BlobStore.put, [OSError(28, "disk full")]

    def put_failing_once(blobs: BlobStore, data: bytes, sha256: str | None = None) -> str:
        if failures:
            raise failures.pop()
        return real_put(blobs, data, sha256)

    monkeypatch.setattr(BlobStore, "put", put_failing_once)
    store.delete(vpath("/memories/global/a.md"), allow_unkept=True)  # the user chose to
    assert [stored(home, v.sha256) for v in versions(store)] == [
        b"as memtab wrote it\n",
        b"their edit\n",
        b"their edit\n",
    ]
