"""A same-size rewrite in the clock tick of history's last look keeps the file's stat (git's
"racily clean"): `record_external` reads a file modified within `RACY_MARGIN_NS` of when its
stat was recorded, and trusts the stat of an older one without reading it."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from memtab.store.catch_up import external
from memtab.store.catch_up.external import record_external
from memtab.store.history.blobs import BlobStore
from memtab.store.home import Home

from .helpers import HOUR_NS, new_home, passes_at, store_for, versions


@pytest.fixture
def home(tmp_path: Path) -> Home:
    home = new_home(tmp_path / "home")
    home.global_root.mkdir(parents=True, exist_ok=True)
    return home


def rewrite_keeping_stat(path: Path, text: str) -> None:
    """What a coarse clock does: new content of the same size under the same mtime."""
    before = path.stat()
    assert len(text.encode()) == before.st_size
    path.write_text(text)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def contents(home: Home) -> list[bytes]:
    blobs = BlobStore(home.history_blobs_dir)
    return [blobs.get(version.sha256) for version in versions(store_for(home))]


def first_seen(
    home: Home, monkeypatch: pytest.MonkeyPatch, *names: str, later_ns: int = 0, aged: bool = False
) -> list[Path]:
    """`names` written ("- <name>"; `aged`: an hour's mtime, so a new write changes it), then
    recorded by passes `later_ns` after."""
    paths = [home.global_root / name for name in names]
    old = time.time_ns() - HOUR_NS
    for path in paths:
        path.write_text(f"- {path.name}\n")
        if aged:
            os.utime(path, ns=(old, old))
    passes_at(monkeypatch, later_ns=later_ns)
    assert record_external(store_for(home)).recorded == len(names)
    return paths


def test_a_same_size_rewrite_under_the_recorded_stat_is_recorded(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    (notes,) = first_seen(home, monkeypatch, "notes.md")
    rewrite_keeping_stat(notes, "+ notes.md\n")
    report = record_external(store_for(home))
    assert report.recorded == 1
    assert contents(home) == [b"- notes.md\n", b"+ notes.md\n"]


def test_an_unchanged_content_read_too_soon_is_not_cached_by_its_stat(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    (notes,) = first_seen(home, monkeypatch, "notes.md", aged=True)
    notes.write_text("- notes.md\n")  # touched: a new mtime, the same content
    touched = record_external(store_for(home))
    assert (touched.hashed, touched.recorded) == (1, 0)
    rewrite_keeping_stat(notes, "+ notes.md\n")
    assert record_external(store_for(home)).recorded == 1
    assert contents(home) == [b"- notes.md\n", b"+ notes.md\n"]


def test_an_old_unchanged_file_is_not_read_again(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    first_seen(home, monkeypatch, "notes.md", later_ns=HOUR_NS)
    again = record_external(store_for(home))
    assert (again.scanned, again.hashed, again.recorded) == (1, 0, 0)


def test_a_file_read_too_soon_is_read_until_it_is_old_then_cached(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    first_seen(home, monkeypatch, "notes.md")
    soon = record_external(store_for(home))
    assert (soon.hashed, soon.recorded) == (1, 0)  # modified as the version was recorded
    passes_at(monkeypatch, later_ns=HOUR_NS)
    settled = record_external(store_for(home))
    assert (settled.hashed, settled.recorded) == (1, 0)  # settled by now: cached by its stat
    assert record_external(store_for(home)).hashed == 0


def test_a_pass_that_read_every_unsettled_file_needs_no_entry_for_each(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    first_seen(home, monkeypatch, "a.md", "b.md")
    passes_at(monkeypatch, later_ns=HOUR_NS)
    assert record_external(store_for(home)).hashed == 2  # changed as recorded: read once more
    cache = json.loads((home.history_index_dir / "global.stat.json").read_text())
    assert cache["files"] == {} and cache["verifiedAt"] > 0
    assert record_external(store_for(home)).hashed == 0


def test_a_pass_cut_short_does_not_vouch_for_what_it_left(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    for path in first_seen(home, monkeypatch, "a.md", "b.md"):
        rewrite_keeping_stat(path, f"+ {path.name}\n")
    monkeypatch.setattr(external, "INDEX_BATCH", 1)
    passes_at(monkeypatch, later_ns=HOUR_NS)
    asked = iter([False])  # the scope started, then cancelled between two batches
    cut = record_external(store_for(home), cancel=lambda: next(asked, True))
    assert (cut.recorded, cut.cancelled) == (1, True)
    assert record_external(store_for(home)).recorded == 1
    assert sorted(contents(home)) == [b"+ a.md\n", b"+ b.md\n", b"- a.md\n", b"- b.md\n"]
