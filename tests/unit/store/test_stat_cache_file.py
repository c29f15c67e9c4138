"""History's `<key>.stat.json` (docs/formats.md §14.2): read leniently — it only saves
hashing, so an entry that does not read is dropped (the file is hashed again) and a file
that is not the cache at all reads as an empty one; what is written reads back the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memtab.store.catch_up.external import _load_stat_cache, _save_stat_cache


def load(tmp_path: Path, document: Any) -> tuple[dict[str, Any], dict[str, Any], int]:
    path = tmp_path / "global.stat.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return _load_stat_cache(path)


def test_good_entries_are_kept_and_bad_ones_dropped(tmp_path: Path) -> None:
    files, not_kept, verified_at = load(
        tmp_path,
        {
            "files": {
                "/memories/global/a.md": [12, 1700000000000000000, "ab" * 32],
                "/memories/global/b.md": [12, "yesterday", "ab" * 32],
                "/memories/global/c.md": [12, 17],
                "/memories/global/d.md": "12 17 ab",
            },
            "notKept": {"/memories/global/big.md": [20000000, 5], "/memories/global/e.md": [1]},
            "unknown": True,
            "verifiedAt": 1700000000000,
        },
    )
    assert verified_at == 1700000000000
    assert files == {"/memories/global/a.md": (12, 1700000000000000000, "ab" * 32)}
    assert not_kept == {"/memories/global/big.md": (20000000, 5)}


@pytest.mark.parametrize(
    "document",
    [[], "files", 3, None, {"files": "x", "notKept": 5}, {"files": [], "notKept": []}, {}],
)
def test_what_is_no_cache_reads_as_an_empty_one(tmp_path: Path, document: Any) -> None:
    assert load(tmp_path, document) == ({}, {}, 0)


def test_a_missing_or_corrupt_file_reads_as_an_empty_cache(tmp_path: Path) -> None:
    assert _load_stat_cache(tmp_path / "absent.stat.json") == ({}, {}, 0)
    corrupt = tmp_path / "corrupt.stat.json"
    corrupt.write_bytes(b'{"files": {"a": [1, 2')
    assert _load_stat_cache(corrupt) == ({}, {}, 0)


def test_one_section_read_without_the_other(tmp_path: Path) -> None:
    assert load(tmp_path, {"notKept": {"/memories/global/big.md": [1, 2]}}) == (
        {},
        {"/memories/global/big.md": (1, 2)},
        0,
    )
    assert load(tmp_path, {"files": {"/memories/global/a.md": [1, 2, "h"]}, "notKept": 5}) == (
        {"/memories/global/a.md": (1, 2, "h")},
        {},
        0,
    )


def test_what_is_saved_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "global.stat.json"
    cache = ({"/memories/global/a.md": (3, 4, "cd" * 32)}, {"/memories/global/big.md": (5, 6)}, 7)
    _save_stat_cache(path, ({}, {}, 0), cache)
    assert _load_stat_cache(path) == cache
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["files"] == {"/memories/global/a.md": [3, 4, "cd" * 32]}
    assert written["verifiedAt"] == 7


def test_an_unchanged_cache_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "global.stat.json"
    _save_stat_cache(path, ({}, {}, 0), ({}, {}, 0))
    assert not path.exists()
