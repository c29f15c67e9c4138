"""The description cache (docs/formats.md §15.4): a start reads only the files changed since
the last one, and never shows what a file said before mux, an agent or an editor changed it."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from memtab.store.description_cache import (
    CACHE_VERSION,
    DescriptionCache,
    KnownFiles,
    cache_file_for,
)
from memtab.store.files import ScopeListing, list_scope
from memtab.store.paths import Scope

from .helpers import write

LATER_NS = time.time_ns() + 3600 * 10**9  # a reading long after every file's last change


@pytest.fixture
def root(tmp_path: Path) -> Path:
    scope_root = tmp_path / "home" / "memory" / "global"
    write(scope_root / "git.md", "---\ndescription: Git habits\n---\nbody")
    write(scope_root / "tools" / "make.md", "---\ndescription: >\n  Make,\n  folded\n---\n")
    write(scope_root / "heading.md", "# What it calls itself\n")
    write(scope_root / "blob.bin", "a\x00b")
    return scope_root


@pytest.fixture
def cache_file(tmp_path: Path) -> Path:
    return tmp_path / "config" / "cache" / "descriptions.json"


def listed(root: Path, cache_file: Path, *, read_at_ns: int = LATER_NS) -> tuple[ScopeListing, int]:
    """One start's listing of `root` with the cache, and how many files it read."""
    cache = DescriptionCache(root.parent.parent, cache_file, now_ns=lambda: read_at_ns)
    known = cache.for_root(root)
    listing = list_scope(Scope.GLOBAL, root, known=known)
    cache.save()
    return listing, known.read_again


def stamps_text(*stamps: tuple[int, int, int, int]) -> str:
    """The `stamps` field of a root holding files of these stamps (docs/formats.md §15.4)."""
    return base64.b64encode(b"".join(struct.pack("<qqqQ", *stamp) for stamp in stamps)).decode()


def root_entries(document: dict[str, object], root: Path) -> dict[str, list[object]]:
    """A root's files as `[size, mtime_ns, ctime_ns, inode, description, heading, binary]`
    by path, from the cache file's fields."""
    fields = document["roots"][str(root)]  # type: ignore[index]
    stamps = list(struct.iter_unpack("<qqqQ", base64.b64decode(fields["stamps"])))
    return {
        path: [*stamps[index], fields["descriptions"][index], fields["headings"][index],
               fields["binary"][index]]
        for index, path in enumerate(fields["paths"])
    }  # fmt: skip


def with_entries(document: dict[str, object], root: Path, entries: dict[str, list[object]]) -> str:
    """The cache file's text with `root`'s files set to `entries` (`root_entries`'s form)."""
    document["roots"][str(root)] = {  # type: ignore[index]
        "paths": list(entries),
        "stamps": stamps_text(*(tuple(entry[:4]) for entry in entries.values())),  # type: ignore[misc]
        "descriptions": [entry[4] for entry in entries.values()],
        "headings": [entry[5] for entry in entries.values()],
        "binary": [entry[6] for entry in entries.values()],
    }
    return json.dumps(document)


def shown(listing: ScopeListing) -> dict[str, tuple[str, str, bool, int]]:
    return {
        entry.path.relative: (entry.description, entry.heading, entry.binary, entry.size_bytes)
        for entry in listing.files
    }


def test_a_second_start_reads_no_file_and_lists_the_same(root: Path, cache_file: Path) -> None:
    first, read = listed(root, cache_file)
    assert read == 4 and cache_file.is_file()
    second, read_again = listed(root, cache_file)
    assert read_again == 0
    assert second == first == list_scope(Scope.GLOBAL, root)
    assert shown(second)["tools/make.md"][0] == "Make, folded"
    assert shown(second)["heading.md"][1] == "What it calls itself"
    assert shown(second)["blob.bin"][2] is True


def test_a_remembered_file_is_not_opened(
    root: Path, cache_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    listed(root, cache_file)
    opened: list[str] = []
    real_open = os.open

    def open_spy(path: str, *args: object, **kwargs: object) -> int:
        if str(path).startswith(str(root)):
            opened.append(path)
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", open_spy)
    listed(root, cache_file)
    assert opened == []


def test_a_file_rewritten_with_its_old_size_and_mtime_is_read_again(
    root: Path, cache_file: Path
) -> None:
    """An editor (or mux) that keeps the size and puts the mtime back still changes the
    ctime: the cache is not fooled."""
    listed(root, cache_file)
    target = root / "git.md"
    before = target.stat()
    target.write_text("---\ndescription: Git HABITS\n---\nbody", encoding="utf-8")
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert target.stat().st_size == before.st_size
    assert target.stat().st_mtime_ns == before.st_mtime_ns
    listing, read = listed(root, cache_file)
    assert read == 1
    assert shown(listing)["git.md"][0] == "Git HABITS"


def test_a_file_renamed_over_or_deleted_or_added_is_seen(root: Path, cache_file: Path) -> None:
    listed(root, cache_file)
    write(root / "new.md", "---\ndescription: Was written later\n---\n")
    replacement = root.parent / "replacement.md"
    write(replacement, "---\ndescription: Renamed in\n---\n")
    os.replace(replacement, root / "git.md")  # as mux's atomic writes do
    (root / "heading.md").unlink()
    listing, read = listed(root, cache_file)
    assert read == 2
    assert shown(listing)["git.md"][0] == "Renamed in"
    assert shown(listing)["new.md"][0] == "Was written later"
    assert "heading.md" not in shown(listing)
    again, read = listed(root, cache_file)
    assert read == 0 and again == listing


def test_a_file_changed_just_before_its_reading_is_not_remembered(
    root: Path, cache_file: Path
) -> None:
    """Its next write could keep the same mtime (a coarse clock): read again next time."""
    listed(root, cache_file, read_at_ns=time.time_ns())  # every file is a moment old
    _listing, read = listed(root, cache_file)
    assert read == 4


@pytest.mark.parametrize(
    "text",
    [
        "not json {",
        "[]",
        '{"version": 99, "home": "HOME", "roots": {}}',
        '{"version": 2, "home": "/another/home", "roots": {}}',
        '{"version": 2, "home": "HOME", "roots": []}',
    ],
)
def test_a_cache_that_cannot_be_read_is_ignored_and_rewritten(
    root: Path, cache_file: Path, text: str
) -> None:
    home = root.parent.parent
    cache_file.parent.mkdir(parents=True)
    cache_file.write_text(text.replace("HOME", str(home)), encoding="utf-8")
    listing, read = listed(root, cache_file)
    assert read == 4 and listing == list_scope(Scope.GLOBAL, root)
    document = json.loads(cache_file.read_text(encoding="utf-8"))
    assert document["version"] == 2 and document["home"] == str(home)
    assert listed(root, cache_file)[1] == 0


def test_a_cache_of_the_first_version_is_read_again_once_and_rewritten(
    root: Path, cache_file: Path
) -> None:
    """Version 1 held each file's identity as four JSON integers: its files are read
    once more, and the cache written in version 2."""
    home = root.parent.parent
    info = (root / "git.md").stat()
    entry = [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, "Old", "", False]
    old = {"version": 1, "home": str(home), "roots": {str(root): {"git.md": entry}}}
    cache_file.parent.mkdir(parents=True)
    cache_file.write_text(json.dumps(old), encoding="utf-8")
    listing, read = listed(root, cache_file)
    assert read == 4 and shown(listing)["git.md"][0] == "Git habits"
    document = json.loads(cache_file.read_text(encoding="utf-8"))
    assert document["version"] == 2
    assert root_entries(document, root)["git.md"][4] == "Git habits"
    assert listed(root, cache_file)[1] == 0


def _spoilt_start(root: Path, cache_file: Path, other: Path, spoil: object) -> tuple[int, int]:
    """How many files of `root` and of `other` a start reads after a first, its cache's
    `root` fields spoilt by `spoil`."""
    write(other / "kept.md", "---\ndescription: Kept\n---\n")
    cache = DescriptionCache(root.parent.parent, cache_file, now_ns=lambda: LATER_NS)
    list_scope(Scope.GLOBAL, root, known=cache.for_root(root))
    list_scope(Scope.PROJECT, other, known=cache.for_root(other))
    cache.save()
    document = json.loads(cache_file.read_text(encoding="utf-8"))
    spoil(document["roots"][str(root)])  # type: ignore[operator]
    cache_file.write_text(json.dumps(document), encoding="utf-8")
    again = DescriptionCache(root.parent.parent, cache_file, now_ns=lambda: LATER_NS)
    known, known_other = again.for_root(root), again.for_root(other)
    assert list_scope(Scope.GLOBAL, root, known=known) == list_scope(Scope.GLOBAL, root)
    list_scope(Scope.PROJECT, other, known=known_other)
    return known.read_again, known_other.read_again


@pytest.mark.parametrize(
    "spoil",
    [
        lambda fields: fields["headings"].pop(),  # one file short
        lambda fields: fields["paths"].__setitem__(0, ["a list"]),
        lambda fields: fields.__setitem__("stamps", fields["stamps"][:-8]),
        lambda fields: fields.__setitem__("stamps", "not base64!"),
        lambda fields: fields.__setitem__("stamps", "é" * 4),
        lambda fields: fields.__setitem__("stamps", 7),
        lambda fields: fields.pop("paths"),
    ],
)
def test_a_root_whose_lists_do_not_line_up_is_read_again_and_the_others_used(
    root: Path, cache_file: Path, tmp_path: Path, spoil: object
) -> None:
    other = tmp_path / "home" / "memory" / "projects" / "p"
    assert _spoilt_start(root, cache_file, other, spoil) == (4, 0)


@pytest.mark.parametrize(
    "spoil",
    [
        lambda fields: fields["descriptions"].__setitem__(0, 42),  # not text
        lambda fields: fields["headings"].__setitem__(0, None),
        lambda fields: fields["binary"].__setitem__(0, "yes"),
        lambda fields: fields["binary"].__setitem__(0, 1),
    ],
)
def test_a_file_of_the_wrong_types_is_read_again_alone(
    root: Path, cache_file: Path, tmp_path: Path, spoil: object
) -> None:
    other = tmp_path / "home" / "memory" / "projects" / "p"
    assert _spoilt_start(root, cache_file, other, spoil) == (1, 0)


def test_a_trusted_but_wrong_entry_would_show_so_the_identity_is_all_of_it(
    root: Path, cache_file: Path
) -> None:
    """What the cache says is used only for the exact size, mtime, ctime and inode."""
    listed(root, cache_file)
    document = json.loads(cache_file.read_text(encoding="utf-8"))
    entries = root_entries(document, root)
    entry = entries["git.md"]
    entry[4] = "From the cache"
    cache_file.write_text(with_entries(document, root, entries), encoding="utf-8")
    assert shown(listed(root, cache_file)[0])["git.md"][0] == "From the cache"
    for field in range(4):  # any part of the identity off: read from the file
        changed = [*entry]
        changed[field] += 1  # type: ignore[operator]
        text = with_entries(document, root, {**entries, "git.md": changed})
        cache_file.write_text(text, encoding="utf-8")
        assert shown(listed(root, cache_file)[0])["git.md"][0] == "Git habits"


def test_a_file_whose_times_do_not_fit_the_cache_is_not_remembered() -> None:
    """A time before 1678 takes more than 64 bits in nanoseconds (a file system that
    keeps it): read every time, never written."""
    known = KnownFiles({}, read_at_ns=LATER_NS)
    early = SimpleNamespace(st_size=5, st_mtime_ns=-(2**63) - 1, st_ctime_ns=1, st_ino=7)
    known.learn("old.md", early, ("Old", "", False))  # type: ignore[arg-type]
    fits = SimpleNamespace(st_size=5, st_mtime_ns=-(2**63), st_ctime_ns=1, st_ino=7)
    known.learn("fits.md", fits, ("Fits", "", False))  # type: ignore[arg-type]
    assert known.read_again == 2 and list(known.seen) == ["fits.md"]


def test_nothing_is_written_when_nothing_changed(root: Path, cache_file: Path) -> None:
    listed(root, cache_file)
    before = cache_file.stat()
    listed(root, cache_file)
    assert cache_file.stat().st_mtime_ns == before.st_mtime_ns
    assert cache_file.stat().st_ino == before.st_ino


@pytest.mark.expect_log("memtab.store.description_cache", "WARNING", r"Could not write")
def test_an_unwritable_cache_is_logged_and_the_listing_is_whole(root: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("", encoding="utf-8")
    listing, read = listed(root, blocker / "cache.json")
    assert read == 4 and listing == list_scope(Scope.GLOBAL, root)


def test_each_home_has_its_own_cache_file_in_the_config_dir(tmp_path: Path) -> None:
    env = {"MEMTAB_CONFIG_DIR": str(tmp_path / "config")}
    one, two = cache_file_for(Path("/a/home"), env), cache_file_for(Path("/b/home"), env)
    assert one != two and one.parent == two.parent == tmp_path / "config" / "cache"


def test_the_cache_files_name_holds_its_version_so_two_versions_keep_their_own(
    tmp_path: Path,
) -> None:
    """A server of version 1, still running, reads and writes `descriptions-<hex>.json`;
    version 2's file is another, so neither replaces the other's at each of its scans."""
    env = {"MEMTAB_CONFIG_DIR": str(tmp_path / "config")}
    home = Path("/a/home")
    digest = hashlib.sha256(os.fsencode(str(home))).hexdigest()[:20]
    assert cache_file_for(home, env).name == f"descriptions-v{CACHE_VERSION}-{digest}.json"
    assert CACHE_VERSION == 2  # a new version: a new name, and formats §15.4 says which


@pytest.mark.skipif(sys.platform != "linux", reason="XDG's cache dir")
def test_without_a_chosen_config_dir_the_cache_is_the_users_cache_not_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MEMTAB_CONFIG_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = cache_file_for(Path("/a/home"))
    assert path.parent == tmp_path / "cache" / "memtab"  # a dotfiles repo of ~/.config: not here


def test_known_files_remember_only_what_was_seen() -> None:
    known = KnownFiles({}, read_at_ns=LATER_NS)
    assert not known.changed
    assert known.recall("x.md", os.stat(__file__)) is None


@pytest.mark.parametrize(
    "text",
    [
        '{"version": "1", "home": "HOME", "roots": {}}',
        '{"home": "HOME", "roots": {}}',
        '{"version": 1, "home": 7, "roots": {}}',
        '{"version": 1, "roots": {}}',
        '{"version": 1, "home": "HOME", "roots": null}',
        '{"version": 1, "home": "HOME"}',
        "null",
    ],
)
def test_a_cache_of_another_shape_is_not_used(root: Path, cache_file: Path, text: str) -> None:
    listed(root, cache_file)
    cache_file.write_text(text.replace("HOME", str(root.parent.parent)), encoding="utf-8")
    assert listed(root, cache_file)[1] == 4


def _second_start(root: Path, cache_file: Path, roots: dict[str, object]) -> int:
    """How many files a start reads after the first, its cache given `roots` more (an
    unknown field too)."""
    listed(root, cache_file)
    document = json.loads(cache_file.read_text(encoding="utf-8"))
    document["roots"] = {**roots, **document["roots"]}
    document["unknown"] = {"a": 1}
    cache_file.write_text(json.dumps(document), encoding="utf-8")
    return listed(root, cache_file)[1]


def test_a_root_that_is_no_object_is_dropped_and_the_others_used(
    root: Path, cache_file: Path
) -> None:
    assert _second_start(root, cache_file, {"/gone": [1], "/also": "x", "/none": None}) == 0


def test_the_cache_is_written_compact_in_its_order_with_every_root_listed_or_kept(
    root: Path, cache_file: Path
) -> None:
    another = {
        "paths": ["a.md"],
        "stamps": stamps_text((1, 2, 3, 4)),
        "descriptions": ["d"],
        "headings": ["h"],
        "binary": [False],
    }
    assert _second_start(root, cache_file, {"/another/root": another}) == 0
    (root / "new.md").write_text("# New\n", encoding="utf-8")
    os.utime(root / "new.md", ns=(1, 1))
    listed(root, cache_file)
    text = cache_file.read_text(encoding="utf-8")
    written = json.loads(text)
    assert list(written) == ["version", "home", "roots"] and ": " not in text
    assert list(written["roots"]) == [str(root), "/another/root"]  # the listed first
    assert written["roots"]["/another/root"] == another
    assert list(written["roots"][str(root)]) == [
        "paths", "stamps", "descriptions", "headings", "binary"
    ]  # fmt: skip
    entries = root_entries(written, root)
    assert set(entries) == {"git.md", "tools/make.md", "heading.md", "blob.bin", "new.md"}
    info = (root / "new.md").stat()
    assert entries["new.md"] == [
        info.st_size, 1, info.st_ctime_ns, info.st_ino, "", "New", False
    ]  # fmt: skip
    assert entries["blob.bin"][4:] == ["", "", True]
    assert text == json.dumps(written, ensure_ascii=False, separators=(",", ":"))
