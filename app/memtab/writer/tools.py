"""The writer's three tools over its one memory file: `memory_read`, `memory_write`
(compare-and-swap) and `no_new_memories` (docs/formats.md §10.2).

Writes go through `MemoryStore.save`, so caps, usage, atomic replacement and the scope
lock apply exactly as for an editor save. A write is a compare-and-swap twice over:
`old_string` must still be in the file (the model's view is current enough), and the
save is checked against the sha of the content the replacement was computed from, so a
change by mux, an editor or another Memtab in between is reported to the model as stale
instead of being overwritten. The model then re-reads and retries.

Lines a write adds are passed through secret redaction (docs/formats.md §12); lines already in the
file are left alone, so the user's own text is never rewritten.

`WriterTools` records what each attempt did (`AttemptTally`): whether it wrote, declared
no new memories, or had a write fail — the run's tool policy is decided from that.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memtab.fs.records import Record
from memtab.llm.types import ToolCall, ToolOutcome, ToolSpec
from memtab.redact import redact_secrets
from memtab.store.files import FileContent
from memtab.store.paths import PathError, VirtualPath
from memtab.store.scopes.memory import (
    MemoryStore,
    MemoryStoreError,
    NotFoundError,
    SaveConflictError,
)
from memtab.writer.prompts import tool_specs

logger = logging.getLogger(__name__)

MEMORY_READ = "memory_read"
MEMORY_WRITE = "memory_write"
NO_NEW_MEMORIES = "no_new_memories"

STALE_NOT_FOUND = (
    "old_string was not found in the memory file; it may have changed since you read it. "
    "Call memory_read and retry with text copied from the current content."
)
STALE_CHANGED = (
    "The memory file changed while this write was being applied (stale compare-and-swap); "
    "nothing was written. Call memory_read and retry with the current content."
)
EMPTY_OLD_STRING = (
    "old_string is empty but the memory file is not empty. Call memory_read and retry with "
    "old_string set to text copied from the current content (or the whole file)."
)
OLD_STRING_IN_EMPTY_FILE = (
    "The memory file is empty, so old_string cannot be in it. Call memory_write with "
    'old_string set to "" and new_string set to the whole new file.'
)


@dataclass
class AttemptTally:
    """What one attempt's tool calls did."""

    wrote: bool = False
    no_new_memories: bool = False
    write_failed: bool = False

    @property
    def satisfied(self) -> bool:
        """The tool policy: a successful write, or `no_new_memories` with no failed write
        in the same attempt (a failed write means the model still owes an update)."""
        return self.wrote or (self.no_new_memories and not self.write_failed)


class WriterTools:
    """Executes the writer's tool calls against one memory file of a workspace store."""

    def __init__(self, store: MemoryStore, memory_path: VirtualPath) -> None:
        self.store = store
        self.memory_path = memory_path
        self.tally = AttemptTally()
        self.written: str | None = None  # the content of the last successful write

    def physical_path(self) -> Path:
        """Where the memory file lives on disk. Raises MemoryStoreError / PathError."""
        return self.store.physical(self.memory_path)

    @property
    def specs(self) -> list[ToolSpec]:
        """The tool specs offered to the model."""
        return list(tool_specs())

    def start_attempt(self) -> AttemptTally:
        """A fresh tally for the next attempt (earlier attempts' flags do not carry over)."""
        self.tally = AttemptTally()
        return self.tally

    def read_current(self) -> FileContent | None:
        """The memory file now, or None when it does not exist. Raises MemoryStoreError."""
        try:
            return self.store.read(self.memory_path)
        except NotFoundError:
            return None

    def execute(self, call: ToolCall) -> ToolOutcome:
        """Answer one tool call (errors come back as error outcomes, never raised)."""
        arguments = call.arguments or {}
        if call.name == MEMORY_READ:
            return self._read(call.id)
        if call.name == MEMORY_WRITE:
            outcome = self._write(call.id, arguments)
            if outcome.is_error:
                self.tally.write_failed = True
            else:
                self.tally.wrote = True
            return outcome
        if call.name == NO_NEW_MEMORIES:
            self.tally.no_new_memories = True
            return ToolOutcome(call.id, _answer(Succeeded()))
        return ToolOutcome(call.id, f"Unknown tool {call.name!r}", is_error=True)

    def _read(self, call_id: str) -> ToolOutcome:
        try:
            current = self.read_current()
        except (MemoryStoreError, PathError) as error:
            return ToolOutcome(call_id, str(error), is_error=True)
        if current is None:
            return ToolOutcome(call_id, _answer(MemoryRead(exists=False, content="")))
        return ToolOutcome(call_id, _answer(MemoryRead(exists=True, content=current.content)))

    def _write(self, call_id: str, arguments: dict[str, Any]) -> ToolOutcome:
        old_string = arguments.get("old_string")
        new_string = arguments.get("new_string")
        if not isinstance(old_string, str) or not isinstance(new_string, str):
            return ToolOutcome(
                call_id, "old_string and new_string are required strings", is_error=True
            )
        count = arguments.get("replace_count", 1)
        if count is None:
            count = 1
        if isinstance(count, bool) or not isinstance(count, int) or (count < 1 and count != -1):
            return ToolOutcome(
                call_id, "replace_count must be a positive integer or -1", is_error=True
            )
        try:
            current = self.read_current()
        except (MemoryStoreError, PathError) as error:
            return ToolOutcome(call_id, str(error), is_error=True)
        content = current.content if current is not None else ""
        replaced = replace_text(content, old_string, new_string, count)
        if isinstance(replaced, _Refusal):
            return ToolOutcome(call_id, replaced.message, is_error=True)
        new_content = redact_added_lines(content, replaced)
        try:
            self.store.save(
                self.memory_path, new_content, current.sha256 if current is not None else None
            )
        except SaveConflictError:
            logger.info("memory_write on %s lost a race; the model retries", self.memory_path)
            return ToolOutcome(call_id, STALE_CHANGED, is_error=True)
        except (MemoryStoreError, PathError, OSError) as error:
            return ToolOutcome(call_id, str(error), is_error=True)
        self.written = new_content
        return ToolOutcome(call_id, _answer(Succeeded()))


@dataclass(frozen=True)
class _Refusal:
    message: str


def replace_text(content: str, old: str, new: str, count: int) -> str | _Refusal:
    """`content` with `old` replaced by `new` as `memory_write` defines it, or why not.

    An empty `old` replaces a blank file whole. Otherwise `count` (default 1) is how many
    occurrences to replace, first ones first; 1 requires a unique match; -1 replaces all.
    """
    if old == "":
        if content.strip():
            return _Refusal(EMPTY_OLD_STRING)
        if count != 1:
            return _Refusal("When old_string is empty, replace_count must be 1")
        return new
    occurrences = content.count(old)
    if occurrences == 0:
        # A small model quotes the headings it means to write as the file's text.
        return _Refusal(OLD_STRING_IN_EMPTY_FILE if not content.strip() else STALE_NOT_FOUND)
    if count == 1 and occurrences > 1:
        return _Refusal(
            f"old_string occurs {occurrences} times in the memory file. Include more "
            f"surrounding text to make it unique, or set replace_count to {occurrences} or -1."
        )
    if count > occurrences:
        return _Refusal(
            f"replace_count is {count} but old_string occurs only {occurrences} time(s)."
        )
    return content.replace(old, new, -1 if count == -1 else count)


def redact_added_lines(before: str, after: str) -> str:
    """`after` with secrets redacted in the lines that `before` does not contain.

    Consecutive added lines are redacted as one block, so a multi-line secret (a PEM
    private key) is caught whole.
    """
    existing = set(before.split("\n"))
    output: list[str] = []
    added: list[str] = []
    for line in after.split("\n"):
        if line in existing:
            if added:
                output.append(redact_secrets("\n".join(added)))
                added = []
            output.append(line)
        else:
            added.append(line)
    if added:
        output.append(redact_secrets("\n".join(added)))
    return "\n".join(output)


class MemoryRead(Record, write_only=True):
    """`memory_read`'s answer (docs/formats.md §10.2): empty content when the file is
    missing."""

    exists: bool
    content: str


class Succeeded(Record, write_only=True):
    """The answer of a `memory_write` that saved, and of `no_new_memories` (§10.2)."""

    success: bool = True


def _answer(answer: Record) -> str:
    return json.dumps(answer.to_json(), ensure_ascii=False)
