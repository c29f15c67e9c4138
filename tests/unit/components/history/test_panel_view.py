"""The History panel without Qt: its rows (versions with their size change, then the
agent's own commits), and what selecting one offers — no Restore for the version the file
holds now nor for a commit, and the diff's sides (a deleted version, no file now)."""

from __future__ import annotations

import hashlib

from memtab.components.history.history import (
    COMMIT_NOT_RESTORED,
    COMMIT_PREFIX,
    HOLDS_IT,
    NO_VERSIONS,
    RESTORE_TIP,
    FileHistory,
    history_note,
    panel_rows,
    selected,
    version_rows,
)
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.file_protocol.memory_file import Commit
from memtab.store.history.versions import Version

AT = 1_767_261_600_000
PATH = "/memories/workspace/notes.md"
NOW = b"# Notes\n\n- two\n"


def _version(number: int, content: bytes, **fields: object) -> Version:
    values: dict[str, object] = {
        "id": f"v{number}",
        "at": AT + number,
        "path": PATH,
        "actor": "user",
        "op": "edit",
        "sha256": hashlib.sha256(content).hexdigest(),
        "size_bytes": len(content),
    }
    values.update(fields)
    return Version(**values)  # type: ignore[arg-type]


def _history(
    current: bytes | None, *versions: Version, commits: tuple[Commit, ...] = ()
) -> FileHistory:
    ref = MemoryFileRef("mux", PATH)
    return FileHistory(ref, tuple(version_rows(versions)), current, commits)


NEWEST = _version(2, NOW)
OLDER = _version(1, b"# Notes\n")
COMMIT = Commit(sha="a" * 40, committed_at_ms=AT, subject="memories: update")


def test_the_rows_say_each_versions_size_change_then_the_commits() -> None:
    rows = panel_rows(_history(NOW, NEWEST, OLDER, commits=(COMMIT,)))
    assert [row.id for row in rows] == ["v2", "v1", COMMIT_PREFIX + "a" * 40]
    assert rows[0].cells[3] == "15 B (+7 B)"
    assert rows[2].cells[1:] == ("Its agent (git)", "Commit: memories: update", "")
    assert rows[2].tooltip.endswith(" · commit aaaaaaaaaa\nmemories: update")
    assert history_note(_history(None)) == NO_VERSIONS
    assert history_note(_history(NOW, NEWEST)) == ""


def test_the_version_the_file_holds_now_is_not_restored() -> None:
    history = _history(NOW, NEWEST, OLDER)
    now = selected(history, "v2")
    assert now is not None and not now.restore and now.restore_tip == HOLDS_IT
    older = selected(history, "v1")
    assert older is not None and older.restore and older.restore_tip == RESTORE_TIP
    assert older.version == OLDER and older.sides[1] == "the file now"
    assert older.sides[0].startswith("this version (")
    assert selected(history, "v9") is None and selected(None, "v1") is None
    assert selected(history, None) is None


def test_a_deleted_file_and_a_commit_are_shown_never_restored_from_a_commit() -> None:
    gone = _version(3, b"", deleted=True, op="delete")
    history = _history(None, gone, OLDER, commits=(COMMIT,))
    deleted = selected(history, "v3")
    assert deleted is not None and not deleted.restore  # no file now: it holds the deletion
    assert deleted.sides == (deleted.sides[0], "no file now")
    assert deleted.sides[0].startswith("what was deleted (")
    commit = selected(history, COMMIT_PREFIX + COMMIT.sha)
    assert commit is not None and commit.commit == COMMIT and commit.version is None
    assert not commit.restore and commit.restore_tip == COMMIT_NOT_RESTORED
    assert commit.sides[0].startswith("commit aaaaaaaaaa (")
