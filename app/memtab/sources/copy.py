"""Copy to…: put one agent's memory into another agent's scope, in that agent's format.

A Claude Code topic file's `name`/`description`/`type` become mux's `description:` (the
name becomes the title when the body has none); a mux file becomes a Claude Code topic
file (`name` from the file name, `type` chosen by the caller), a Codex skill's SKILL.md,
or plain Markdown for instruction and rule files. A copy never overwrites anything: mux
targets go through the store (`MemoryStore.create_file`), other agents' through the
sources' own save, which refuses an existing file and read-only places alike.

A copy into mux is recorded in history by the store; a copy into another agent's memory
by `history` (`memtab.sources.versions`) when the caller gives one. `on_copied` tells the
caller what was written (how Edit → Undo takes it back).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from memtab.sources.content import read_source_file, save_source_file
from memtab.sources.layouts import classify
from memtab.sources.model import (
    FileKind,
    ReadOnlyError,
    Source,
    SourceError,
    SourceFile,
)
from memtab.sources.notes import CLAUDE_TOPIC_TYPES, Note
from memtab.sources.versions import SourceVersions
from memtab.store.memory import MemoryStore
from memtab.store.paths import VIRTUAL_ROOT

logger = logging.getLogger(__name__)

DEFAULT_TOPIC_TYPE = "project"
_UNSAFE_SEGMENT = re.compile(r'[\x00-\x1f\x7f\\<>":|?*~]')


@dataclass(frozen=True)
class CopyOrigin:
    """The text being copied, and what names it (a file id or a virtual path)."""

    label: str
    text: str
    stem: str

    @classmethod
    def from_source_file(cls, source: Source, file: SourceFile) -> CopyOrigin:
        content = read_source_file(source, file)
        if content.binary or content.over_cap:
            raise SourceError(f"{file.id} cannot be copied: only whole text files can")
        return cls(file.id, content.text, _stem(file.relative))

    @classmethod
    def from_mux(cls, store: MemoryStore, virtual_path: str) -> CopyOrigin:
        content = store.read(virtual_path)
        if content.binary or content.over_cap:
            raise SourceError(f"{virtual_path} cannot be copied: only whole text files can")
        return cls(virtual_path, content.content, _stem(virtual_path.rsplit("/", 1)[-1]))


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
    history: SourceVersions | None = None,
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


def target_file(source: Source, relative: str) -> SourceFile:
    """A new file at `relative` in `source`, if its layout lets Memtab write one there."""
    segments = tuple(relative.strip().strip("/").split("/"))
    bad = next(
        (
            s
            for s in segments
            if not s or s in (".", "..") or _UNSAFE_SEGMENT.search(s) or "%2" in s.lower()
        ),
        None,
    )
    if bad is not None:
        raise SourceError(f"Invalid path {relative!r} in {source.id}: bad segment {bad!r}")
    if any(s.startswith(".") and s != ".claude" for s in segments):
        raise SourceError(f"Invalid path {relative!r} in {source.id}: hidden names are not used")
    rule = classify(source.layout, segments)
    if rule is None:
        raise SourceError(
            f"{source.id} has no place for {relative!r} (see `memtab list --source {source.id}`)"
        )
    if rule.read_only_reason is not None or source.read_only_reason is not None:
        reason = rule.read_only_reason or source.read_only_reason
        raise ReadOnlyError(f"Cannot write {source.file_id(relative)}: {reason}")
    return SourceFile(
        source_id=source.id,
        relative="/".join(segments),
        physical=source.root.joinpath(*segments),
        kind=rule.kind,
        description="",
        size_bytes=0,
        modified_at_ms=0,
    )


def _stem(relative: str) -> str:
    """The name a note is known by: the file's stem, a skill's directory name."""
    path = Path(relative)
    if path.name == "SKILL.md" and path.parent.name:
        return path.parent.name
    return path.stem or path.name
