"""A target's sync state: where it left off, and what waits for the user.

`<home>/memtab/sync/<target>/state.json` (docs/formats.md §18.4), the record
`sync.records.SyncState`, written atomically by the sync holding the target's lock:

- `head`: the commit this home's scopes were last reconciled with. A file whose content
  differs from its blob in `head` was changed here since (unless it is pending).
- `pending`: files whose live content is not `head`'s, by repository path. `conflict`: a
  same-line change, where the file keeps this machine's text (`local`, a sha256) and the
  repository the other side's (`remote`, a blob id) until the user decides; `base` is
  their common ancestor (a blob id, or null when both created the file). `unapplied`: a
  merge result that could not be written because the file changed meanwhile; `base` is
  what the file held when the merge was made, and the next sync merges again from it.
- `meta`: pins and usage as last reconciled, by scope folder, in the repository's form:
  what this machine's memory-meta.json adds to them is what it changed since.
- `historyAt`: per history index, the time of the newest version already exported.
- `lastSyncAt`, `lastAttemptAt`, `offlineSince`, `lastError`: how the last syncs went;
  `unpushed`: commits made here that no push has taken yet.

Beside it, while an import writes, `import.json` (the record `sync.records.ImportIntent`,
docs/formats.md §18.3): what the import is about to write, so a sync killed midway is
finished by the next (`sync.importer`).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import NamedTuple

from memtab.fs.atomic import (
    atomic_write_bytes,
    encode_utf8,
    json_document,
    make_directory_durably,
)
from memtab.fs.private import PRIVATE_FILE_MODE
from memtab.fs.records import RecordError
from memtab.fs.sidecar import keep_aside, read_sidecar
from memtab.sync.records import INTENT_VERSION, ImportIntent, SyncState

logger = logging.getLogger(__name__)


def load_state(path: Path) -> SyncState:
    """The state in `path`; an empty one when missing. A file that cannot be parsed is
    kept aside (docs/formats.md §16) and the sync starts over from the repository."""
    read = read_sidecar(path)
    if read.problem is not None:
        if read.raw is not None:
            keep_aside(path, read.raw, read.problem)  # says so (a warning, the listeners)
            logger.info("The sync of %s starts over from its repository", path.parent.name)
        return SyncState()
    return SyncState.read_or_raise(read.document)


def save_state(path: Path, state: SyncState, *, durable: bool = True) -> None:
    """Write the state atomically and durably; one the file holds already is not written
    again (a sync's last save after its import saved the same state): the file is only
    ever written so, so what it holds is on disk. Not `durable`: written atomically, and
    the caller makes it durable (`make_file_durable`) before it goes on — also when it was
    not written, as a sync killed before that left it so."""
    data = encode_utf8(json_document(state.to_json()))
    try:
        if path.read_bytes() == data:
            return
    except OSError:
        pass  # no state yet, or unreadable: written
    make_directory_durably(path.parent)
    atomic_write_bytes(path, data, durable=durable, mode=PRIVATE_FILE_MODE)  # names memory


class IntentRead(NamedTuple):
    """An import's intent as read: the intent, or why it cannot be used (None and None:
    there is none)."""

    intent: ImportIntent | None = None
    problem: str | None = None


def load_intent(path: Path) -> IntentRead:
    """The intent an import left in `path`. One that cannot be used (damaged, or written by
    another version of Memtab) is kept aside (docs/formats.md §16) and removed, and the
    problem says so in words."""
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
    """Write an import's intent durably (before the writes it names): compact, as it names
    every file a machine joining brings (thousands), and only a sync reads it. Not
    `durable`: the caller makes it durable before the first write (`restore_contents`'s
    `unflushed`)."""
    make_directory_durably(path.parent)
    document = json.dumps(intent.to_json(), ensure_ascii=False, separators=(",", ":"))
    atomic_write_bytes(path, encode_utf8(document + "\n"), durable=durable, mode=PRIVATE_FILE_MODE)


def clear_intent(path: Path) -> None:
    """The import is done (or its intent dropped): the intent goes, not flushed — a crash
    that brings it back brings what a kill right before its removal leaves (finished, or
    dropped, again by the next sync: nothing written twice), and the next save of the
    state, in this folder, makes its removal durable with it."""
    path.unlink(missing_ok=True)
