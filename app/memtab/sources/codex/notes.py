"""Adding to Codex's memory the way Codex means it to be added: a note.

Codex regenerates its memory files (`MEMORY.md`, `memory_summary.md`, `raw_memories.md`,
`rollout_summaries/`…) from its own records at each consolidation, so an edit to one of
them is lost. Its sanctioned way in is one small note file per request in
`memories/extensions/ad_hoc/notes/` (its memory prompt: "where user-requested memory
updates should be written"; its `add_note` tool writes there, never into the memory files),
which its consolidation reads and folds in. Memtab writes the same: one new Markdown file
per note, named `<UTC time>-<words of the note>.md` (`2026-09-18T00-30-00-use-pnpm.md`),
never replacing anything, recorded in history like every save (docs/formats.md §17.3).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from memtab.file_protocol.file_ref import SourceError
from memtab.file_protocol.memory_file import MemoryFileError
from memtab.fs.clock import now_ms
from memtab.redact import redact_secrets
from memtab.sources.agent_file import AgentFile, SourceVersions
from memtab.sources.layouts import CODEX_NOTES_DIR
from memtab.sources.listing import target_file
from memtab.sources.model import Discovery, Layout, Source, SourceFile
from memtab.store.errors import SaveConflictError
from memtab.store.home import Home

MAX_NAME_WORDS = 6
MAX_SLUG_CHARS = 48
_NAME_TRIES = 20
_WORD = re.compile(r"[a-z0-9]+")


def codex_memories(discovery: Discovery) -> Source | None:
    """Codex's `memories/` folder among the sources found (None when it has none)."""
    return next((s for s in discovery.sources if s.layout is Layout.CODEX_MEMORIES), None)


def note_name(text: str, at_ms: int) -> str:
    """`<UTC time>-<first words>.md` for a note written at `at_ms`."""
    stamp = datetime.fromtimestamp(at_ms / 1000, UTC).strftime("%Y-%m-%dT%H-%M-%S")
    words = _WORD.findall(text.casefold())[:MAX_NAME_WORDS]
    slug = "-".join(words)[:MAX_SLUG_CHARS].strip("-") or "note"
    return f"{stamp}-{slug}.md"


def add_codex_note(
    home: Home, source: Source, text: str, *, at_ms: int | None = None
) -> SourceFile:
    """Write `text` (redacted, §12) as a new note in Codex's `memories/` `source`; returns
    the file written. SourceError when the note is empty, the source is not Codex's
    memories or cannot be written (a linked folder…), or no free name is found."""
    if source.layout is not Layout.CODEX_MEMORIES:
        raise SourceError(f"{source.id} is not Codex's memories folder")
    body = redact_secrets(text.strip())
    if not body:
        raise SourceError("The note is empty")
    name = note_name(body, now_ms() if at_ms is None else at_ms)
    stem = name.removesuffix(".md")
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
