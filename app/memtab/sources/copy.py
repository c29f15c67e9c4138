"""Copy to…: one agent's memory into another agent's scope, in that agent's format, never
overwriting; and a note to Codex, one new file in its ad-hoc notes (docs/formats.md §17.3)."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

from memtab.file_protocol.file_ref import MemoryFileRef, SourceError
from memtab.file_protocol.memory_file import MemoryFile, MemoryFileError
from memtab.fs.clock import now_ms
from memtab.fs.terminal_text import without_controls
from memtab.redact import redact_secrets
from memtab.sources.agent_file import AgentFile, SourceVersions
from memtab.sources.content import ChangeRecorder, save_source_file
from memtab.sources.layouts import CODEX_NOTES_DIR
from memtab.sources.listing import target_file
from memtab.sources.model import Discovery, FileKind, Layout, Source, SourceFile
from memtab.sources.notes import CLAUDE_TOPIC_TYPES, Note
from memtab.store.errors import SaveConflictError
from memtab.store.home import Home
from memtab.store.paths import VIRTUAL_ROOT, parse_file_path
from memtab.store.scopes.memory import MemoryStore

logger = logging.getLogger(__name__)

DEFAULT_TOPIC_TYPE = "project"
MAX_NAME_WORDS = 6
MAX_SLUG_CHARS = 48
_NAME_TRIES = 20
_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class CopyOrigin:
    """The text being copied, and what names it (a file id or a virtual path)."""

    label: str
    text: str
    stem: str

    @classmethod
    def of(cls, file: MemoryFile) -> CopyOrigin:
        """What `file` holds, to copy: only a whole text file (SourceError otherwise)."""
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
    """Copy `origin` to `target` (a virtual path, or a path inside `source`); never overwrites.
    SourceError, ReadOnlyError, the store's errors."""
    note = Note.from_text(without_controls(origin.text), fallback_name=origin.stem)
    if target.startswith(VIRTUAL_ROOT):
        if store is None:
            raise SourceError("Copying into mux memory needs a store")
        content = note.as_mux()
        saved = store.create_file(parse_file_path(target), content)
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
    """The name a copy gets by default: the file's name without `.md`, a skill's folder's."""
    path = PurePosixPath(ref.path)
    if path.name == "SKILL.md" and path.parent.name:
        return path.parent.name
    return path.stem or path.name


# --- a note to Codex ----------------------------------------------------------------------


def codex_memories(discovery: Discovery) -> Source | None:
    """Codex's `memories/` folder among the sources found (None when it has none)."""
    return next((s for s in discovery.sources if s.layout is Layout.CODEX_MEMORIES), None)


def note_name(text: str, at_ms: int) -> str:
    """`<UTC time>-<first words>.md` for a note written at `at_ms`."""
    stamp = time.strftime("%Y-%m-%dT%H-%M-%S", time.gmtime(at_ms // 1000))
    words = _WORD.findall(text.casefold())[:MAX_NAME_WORDS]
    slug = "-".join(words)[:MAX_SLUG_CHARS].strip("-") or "note"
    return f"{stamp}-{slug}.md"


def add_codex_note(
    home: Home, source: Source, text: str, *, at_ms: int | None = None
) -> SourceFile:
    """Write `text` (redacted, §12) as a new note in Codex's `memories/`; the file written.
    SourceError."""
    if source.layout is not Layout.CODEX_MEMORIES:
        raise SourceError(f"{source.id} is not Codex's memories folder")
    body = redact_secrets(without_controls(text).strip())
    if not body:
        raise SourceError("The note is empty")
    stem = note_name(body, now_ms() if at_ms is None else at_ms).removesuffix(".md")
    for attempt in range(1, _NAME_TRIES + 1):
        relative = f"{CODEX_NOTES_DIR}/{stem if attempt == 1 else f'{stem}-{attempt}'}.md"
        file = target_file(source, relative)
        try:
            AgentFile(source, file, SourceVersions(home)).save(body + "\n", None)
        except SaveConflictError:
            continue  # a note of the same second and words: the next name
        except MemoryFileError as error:
            raise SourceError(str(error)) from None
        return file
    raise SourceError(f"No free name for the note in {source.root / CODEX_NOTES_DIR}")
