"""Copy to…: put one agent's memory into another agent's scope, in that agent's format.

A Claude Code topic file's `name`/`description`/`type` become mux's `description:` (the
name becomes the title when the body has none); a mux file becomes a Claude Code topic
file (`name` from the file name, `type` chosen by the caller), a Codex skill's SKILL.md,
or plain Markdown for instruction and rule files. A copy never overwrites anything: mux
targets go through the store (`MemoryStore.create_file`), other agents' through the
sources' own save, which refuses an existing file and read-only places alike.

A copy into mux is recorded in history by the store; a copy into another agent's memory
by `history` (`memtab.sources.agent_file`) when the caller gives one. `on_copied` tells the
caller what was written (how Edit → Undo takes it back).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

from memtab.file_protocol.file_ref import MemoryFileRef, SourceError
from memtab.file_protocol.memory_file import MemoryFile
from memtab.sources.content import ChangeRecorder, save_source_file
from memtab.sources.listing import target_file
from memtab.sources.model import FileKind, Source
from memtab.sources.notes import CLAUDE_TOPIC_TYPES, Note
from memtab.store.paths import VIRTUAL_ROOT
from memtab.store.scopes.memory import MemoryStore

logger = logging.getLogger(__name__)

DEFAULT_TOPIC_TYPE = "project"


@dataclass(frozen=True)
class CopyOrigin:
    """The text being copied, and what names it (a file id or a virtual path)."""

    label: str
    text: str
    stem: str

    @classmethod
    def of(cls, file: MemoryFile) -> CopyOrigin:
        """What `file` holds, to copy: only a whole text file (SourceError otherwise;
        the protocol's errors when it cannot be read)."""
        content = file.read()
        if content.binary or content.over_cap:
            raise SourceError(f"{file.ref.key} cannot be copied: only whole text files can")
        return cls(file.ref.key, content.content, default_name(file.ref))


@dataclass(frozen=True)
class CopyResult:
    origin: str  # file id or virtual path
    target: str  # file id or virtual path
    sha256: str
    content: str


def copy_note(
    origin: CopyOrigin,
    target: str,
    *,
    store: MemoryStore | None = None,
    source: Source | None = None,
    topic_type: str | None = None,
    env: Mapping[str, str] | None = None,
    on_copied: Callable[[CopyResult], None] | None = None,
    history: ChangeRecorder | None = None,
) -> CopyResult:
    """Copy `origin` to `target`: a virtual path (`/memories/…`, through `store`) or a
    relative path inside `source`. Never overwrites; raises SourceError, ReadOnlyError
    or the store's errors with a one-line message."""
    note = Note.from_text(origin.text, fallback_name=origin.stem)
    if target.startswith(VIRTUAL_ROOT):
        if store is None:
            raise SourceError("Copying into mux memory needs a store")
        content = note.as_mux()
        saved = store.create_file(target, content)
        result = CopyResult(origin.label, str(saved.path), saved.sha256, content)
    else:
        if source is None:
            raise SourceError(f"No source to copy {target!r} into")
        file = target_file(source, target)
        content = convert_for(file.kind, note, topic_type, file.name)
        sha = save_source_file(source, file, content, None, env=env, history=history)
        result = CopyResult(origin.label, file.id, sha, content)
    logger.info("Copied %s to %s", result.origin, result.target)
    if on_copied is not None:
        on_copied(result)
    return result


def convert_for(kind: FileKind, note: Note, topic_type: str | None, name: str) -> str:
    """`note` in the format a file of `kind` has."""
    if kind is FileKind.AUTO_MEMORY_TOPIC:
        chosen = topic_type or note.topic_type or DEFAULT_TOPIC_TYPE
        if chosen not in CLAUDE_TOPIC_TYPES:
            raise SourceError(
                f"Unknown Claude Code memory type {chosen!r} (use {', '.join(CLAUDE_TOPIC_TYPES)})"
            )
        return note.as_claude_topic(chosen)
    if kind is FileKind.SKILL and name == "SKILL.md":
        return note.as_codex_skill()
    if kind in (FileKind.INSTRUCTIONS, FileKind.RULE, FileKind.AUTO_MEMORY_INDEX, FileKind.SKILL):
        return note.as_plain()
    return note.as_mux() if note.description else note.as_plain()


def default_name(ref: MemoryFileRef) -> str:
    """The name a copy of a file gets unless the user says otherwise: the file's name
    without `.md`, a Codex skill's folder's name."""
    path = PurePosixPath(ref.path)
    if path.name == "SKILL.md" and path.parent.name:
        return path.parent.name
    return path.stem or path.name
