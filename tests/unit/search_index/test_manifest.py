"""What the index holds of each root, in one document committed with the files' own
(docs/formats.md §22.11): read back as written (no stamp, names that are no UTF-8), what
a listing is compared with — no file's number computed, no document read — always what
the documents are after a budget's partial commit, damaged → the index rebuilt; the index
of version 3 removed when it holds tantivy's files alone."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest
import tantivy

from memtab.fs.memo import Stamp
from memtab.search_index import index as index_module
from memtab.search_index.documents import IndexedFile
from memtab.search_index.index import CHUNK_FILES, SearchIndex, index_file_for
from memtab.search_index.opening import (
    MANIFEST_FIELD,
    STAMPS_FIELD,
    ManifestDamagedError,
    decode,
    encode,
    writing,
)
from support.indexed import indexed_count


def _files(root: str, stamps: dict[str, Stamp | None]) -> list[IndexedFile]:
    return [IndexedFile(root, key, key, None, stamp) for key, stamp in stamps.items()]


def test_rows_are_read_back_as_written() -> None:
    rows: dict[str, Stamp | None] = {
        "/memories/global/a.md": (12, -5, 1_764_000_000_123_456_789, 2**63 + 7),
        "/memories/global/racy.md": None,
        "/memories/global/caf\udce9.md": (0, 0, 0, 0),  # a name that is no UTF-8
    }
    assert decode(encode(rows)) == rows
    assert decode(encode({})) == {}


@pytest.mark.parametrize("blob", [b"", b"\x05" + b"\0" * 7 + b"abc", b"\xff" * 20])
def test_a_blob_that_is_no_manifest_says_so(blob: bytes) -> None:
    with pytest.raises(ManifestDamagedError, match="corrupt"):
        decode(blob)


def test_a_listing_is_compared_without_a_files_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stamps: dict[str, Stamp | None] = {f"k{n}": (n, n, n, n) for n in range(50)}
    SearchIndex(tmp_path / "index").refresh(_files("r", stamps), ["r"])
    numbered: list[str] = []
    original = index_module.file_number

    def counting(root: str, key: str) -> int:
        numbered.append(key)
        return original(root, key)

    monkeypatch.setattr(index_module, "file_number", counting)
    index = SearchIndex(tmp_path / "index")  # a fresh process's
    assert index.stale_by_root({"r": stamps}) == (set(), [])
    changed = dict(stamps, k3=(9, 9, 9, 9))
    del changed["k4"]
    assert index.stale_by_root({"r": changed}) == ({("r", "k3")}, [("r", "k4")])
    assert numbered == []


def test_a_budgets_partial_commit_leaves_the_manifest_as_the_documents_are(
    tmp_path: Path,
) -> None:
    ticks = iter(range(1000))
    index = SearchIndex(tmp_path / "index", clock=lambda: float(next(ticks)))
    stamps: dict[str, Stamp | None] = {f"k{n:04d}": (n, n, n, n) for n in range(CHUNK_FILES * 3)}
    refreshed = index.update(_files("r", stamps), (), budget_s=0.5)  # spent by a chunk
    assert refreshed.pending == CHUNK_FILES * 2
    stale, gone = SearchIndex(tmp_path / "index").stale_by_root({"r": stamps})
    assert len(stale) == CHUNK_FILES * 2 and gone == []
    assert indexed_count(index) == CHUNK_FILES


@pytest.mark.expect_log("memtab.search_index.index", logging.WARNING, "rebuilt")
def test_a_damaged_manifest_has_the_index_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "index"
    index = SearchIndex(path)
    index.refresh(_files("r", {"a": (1, 1, 1, 1)}), ["r"])
    with writing(index) as writer:  # a manifest damaged on disk
        writer.delete_documents_by_query(
            tantivy.Query.term_query(index.schema, MANIFEST_FIELD, "r")
        )
        damaged = tantivy.Document()
        damaged.add_text(MANIFEST_FIELD, "s")
        damaged.add_bytes(STAMPS_FIELD, b"\x09" + b"\0" * 7)
        writer.add_document(damaged)
        writer.commit()
    generation = index.generation
    assert index.stale_by_root({"s": {}}) == (set(), [])
    assert index.generation == generation + 1  # rebuilt
    assert indexed_count(index) == 0


@pytest.mark.parametrize("version", [3, 4])
def test_an_index_of_an_older_version_is_removed_unless_it_holds_another_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: int
) -> None:
    monkeypatch.setenv("MEMTAB_CONFIG_DIR", os.fspath(tmp_path / "config"))
    homes = [tmp_path / "one", tmp_path / "two"]
    older = []
    for home in homes:
        name = index_file_for(home).name
        folder = index_file_for(home).with_name(f"search-v{version}-{name.rpartition('-')[2]}")
        folder.mkdir(parents=True)
        (folder / "meta.json").write_text("{}")
        (folder / "0123456789abcdef0123456789abcdef.store").write_bytes(b"x")
        (folder.parent / f".{folder.name}.lock").write_bytes(b"")
        older.append(folder)
    (older[1] / "notes.txt").write_text("the user's")
    for home in homes:
        SearchIndex.of_home(home).close()
    assert not older[0].exists() and not (older[0].parent / f".{older[0].name}.lock").exists()
    assert sorted(entry.name for entry in older[1].iterdir())[-1] == "notes.txt"
