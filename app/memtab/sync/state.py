"""A target's sync state (`state.json`, docs/formats.md §18.4) and an import's intent
(`import.json`, §18.3), written by the sync holding the target's lock."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import NamedTuple

from memtab.fs.atomic import atomic_write_bytes, encode_utf8, json_document, make_directory_durably
from memtab.fs.private import PRIVATE_FILE_MODE
from memtab.fs.records import RecordError
from memtab.fs.sidecar import keep_aside, read_sidecar
from memtab.sync.records import INTENT_VERSION, ImportIntent, SyncState

logger = logging.getLogger(__name__)


def load_state(path: Path) -> SyncState:
    """The state in `path` (empty when missing); an unparsable one kept aside (formats §16)."""
    read = read_sidecar(path)
    if read.problem is not None:
        if read.raw is not None:
            keep_aside(path, read.raw, read.problem)  # says so (a warning, the listeners)
            logger.info("The sync of %s starts over from its repository", path.parent.name)
        return SyncState()
    return SyncState.read_or_raise(read.document)


def save_state(path: Path, state: SyncState, *, durable: bool = True) -> None:
    """Write the state atomically, durably unless not `durable` (the caller flushes); the same state
    is not written again."""
    data = encode_utf8(json_document(state.to_json()))
    try:
        if path.read_bytes() == data:
            return
    except OSError:
        pass  # no state yet, or unreadable: written
    make_directory_durably(path.parent)
    atomic_write_bytes(path, data, durable=durable, mode=PRIVATE_FILE_MODE)  # names memory


class IntentRead(NamedTuple):
    """An import's intent as read, or why it cannot be used."""

    intent: ImportIntent | None = None
    problem: str | None = None


def load_intent(path: Path) -> IntentRead:
    """The intent an import left; an unusable one kept aside (docs/formats.md §16) and removed, the
    problem in words."""
    read = read_sidecar(path)
    if read.raw is None and read.problem is None:
        return IntentRead()
    problem = read.problem
    intent = None
    if problem is None:
        version = read.document.get("version")
        if version != INTENT_VERSION:
            problem = f"written by another version of Memtab (version {version!r})"
        else:
            try:
                intent = ImportIntent.read_or_raise(read.document)
            except RecordError as error:
                problem = f"not an import's record ({error})"
    if intent is not None:
        return IntentRead(intent)
    assert problem is not None
    where = ""
    if read.raw is not None:
        try:
            kept = keep_aside(path, read.raw, problem)
        except OSError as error:  # not copied: not removed either
            logger.warning("Cannot keep %s aside: %s", path, error)
        else:
            where = f" (kept as {kept.backup.name})"
            clear_intent(path)
    return IntentRead(problem=f"{path} could not be used: {problem}{where}")


def save_intent(path: Path, intent: ImportIntent, *, durable: bool = True) -> None:
    """Write an import's intent compactly, durably unless the caller flushes it first."""
    make_directory_durably(path.parent)
    document = json.dumps(intent.to_json(), ensure_ascii=False, separators=(",", ":"))
    atomic_write_bytes(path, encode_utf8(document + "\n"), durable=durable, mode=PRIVATE_FILE_MODE)


def clear_intent(path: Path) -> None:
    """The intent goes, not flushed: the next state save makes its removal durable."""
    path.unlink(missing_ok=True)
