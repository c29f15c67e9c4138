"""An index that cannot be used says why in plain words where an agent and the user read
them (docs/formats.md §22.11): round 5, row 4 — on a full disk the search note quoted
tantivy's Rust debug text ("Failed to open file for write: 'IoError { io_error: Custom {
kind: StorageFull, … }'"). The debug text stays for the log."""

from __future__ import annotations

import errno
import logging
from pathlib import Path

import pytest

from memtab.search_index.index import SearchIndex
from memtab.search_index.opening import (
    IndexUnusableError,
    debug_words,
    is_unusable,
    why_unusable,
)

# tantivy's words, as the verifier's full tmpfs gave them and as Rust's std spells others.
FULL = (
    "Failed to open file for write: 'IoError { io_error: Custom { kind: StorageFull, error: "
    'PathError { path: "/c/search-v4-ab/.tmpX", err: Os { code: 28, kind: StorageFull, '
    'message: "No space left on device" } } }, filepath: "ab.fieldnorm" }\''
)
SAID = {
    FULL: "the cache's disk is full: free some space on it, and the next search builds the "
    "index again",
    "An IO error occurred: 'Read-only file system (os error 30) at path \"/c/x\"'": (
        "the cache's disk is read-only"
    ),
    "Failed to open file: 'IoError { kind: PermissionDenied }'": (
        "Memtab may not write in the cache folder (permission denied)"
    ),
    "An IO error occurred: 'Disk quota exceeded (os error 122)'": (
        "the disk quota of the cache's disk is used up: free some space, and the next search "
        "builds the index again"
    ),
}


@pytest.mark.parametrize("text", list(SAID))
def test_tantivys_text_of_a_disk_error_is_said_in_plain_words(text: str) -> None:
    assert why_unusable(ValueError(text)) == SAID[text]
    wrapped = IndexUnusableError(why_unusable(ValueError(text)))
    wrapped.__cause__ = ValueError(text)
    assert why_unusable(wrapped) == SAID[text]
    assert text in debug_words(wrapped)  # the log keeps tantivy's own


@pytest.mark.parametrize("text", list(SAID))
def test_every_disk_error_said_in_plain_words_is_one_the_index_cannot_be_used_with(
    text: str,
) -> None:
    # One list of the disk's errors: tantivy's `kind: PermissionDenied` with no OS error
    # number was said in plain words, yet not known as a disk the index cannot use.
    assert is_unusable(ValueError(text))


def test_an_oserror_is_said_by_its_number() -> None:
    full = OSError(errno.ENOSPC, "No space left on device", "/c/meta.json")
    assert why_unusable(full).startswith("the cache's disk is full")
    assert why_unusable(OSError(errno.ENOENT, "No such file")) == "No such file"


@pytest.mark.expect_log("memtab.search_index", "WARNING", "cannot be used")
def test_a_full_disk_met_while_writing_is_a_plain_note_and_a_debug_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    index = SearchIndex(tmp_path / "search-v4-ab")
    try:
        index._recover(ValueError(FULL))  # what a write that met tantivy's error does
        assert index.problem == (
            f"the search index {tmp_path / 'search-v4-ab'} cannot be used (the cache's disk is "
            "full: free some space on it, and the next search builds the index again)"
        )
    finally:
        index.close()
    logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(logged) == 1 and "kind: StorageFull" in logged[0], logged
