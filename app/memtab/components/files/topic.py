"""Moving the lines of Claude Code's `MEMORY.md` past its cut into a topic file beside it
(docs/formats.md §17.6), on the file-operations worker: the topic is created, never over a
file, holding the lines from the last one Claude Code reads to the end; then the index is
saved with a one-line entry pointing at it in their place
(`sources.claude.index.move_past_cut`) — sha-checked against what the editor read, the
topic removed again when that save is refused. Both are recorded in history, and Edit →
Undo takes them back as one step (`TogetherStep`: the index's text comes back, the topic
goes while they hold what was written)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import PurePosixPath

from memtab.components.files.ops import OpResult
from memtab.components.files.steps import (
    RemoveStep,
    RestoreStep,
    TogetherStep,
    UndoStep,
    physical_paths,
)
from memtab.components.files.undo import UndoStack
from memtab.file_protocol.file_ref import SourceError
from memtab.file_protocol.memory_file import MemoryFile, MemoryFileError
from memtab.humanize import plural
from memtab.sources.agent_file import AgentFile, SourceVersions
from memtab.sources.claude.index import CONTINUED_STEM, CONTINUED_TOPIC, move_past_cut
from memtab.sources.content import save_source_file
from memtab.sources.listing import target_file
from memtab.sources.model import Source
from memtab.store.errors import MemoryStoreError, SaveConflictError, UnkeptChangeError
from memtab.store.history.versions import Version
from memtab.store.scopes.memory import MemoryStore

_MAX_TRIES = 100


@dataclass(frozen=True)
class MovedPastCut(OpResult):
    """The move's result, and what the index holds now (the editor's buffer takes it)."""

    index_text: str = ""


def move_lines_past_cut(
    stack: UndoStack,
    store: MemoryStore,
    source: Source,
    index: MemoryFile,
    text: str,
    expected_sha256: str | None,
) -> OpResult:
    """Move the lines of `text` (the index `index` of `source` as the editor holds it, the
    file on disk expected to hold `expected_sha256`) past Claude Code's cut into
    `MEMORY-continued.md` (else `-2`, `-3`…) beside it, and save the index with a link to it
    in their place (`MovedPastCut`: what it holds now)."""
    folder = PurePosixPath(index.ref.path).parent
    action = "Moving the lines past Claude Code's cut"
    try:
        for number in range(1, _MAX_TRIES + 1):
            name = f"{CONTINUED_STEM}{'' if number == 1 else f'-{number}'}.md"
            relative = str(folder / name) if str(folder) != "." else name
            file = target_file(source, relative)
            if not os.path.lexists(file.physical):
                break
        else:
            return OpResult(f"{action} failed", error="no free MEMORY-continued name")
        split = move_past_cut(text, name)
        if split is None:
            return OpResult(f"{action} failed", error="Claude Code reads the whole index")
        kept, moved = split
        history = SourceVersions(store.home)
        topic_sha = save_source_file(source, file, CONTINUED_TOPIC + moved, None, history=history)
    except (SourceError, MemoryStoreError) as error:
        return OpResult(f"{action} failed", error=str(error))
    except OSError as error:
        return OpResult(f"{action} failed", error=error.strerror or str(error))
    topic = AgentFile(source, file, history)
    description = f"move of the lines past the cut to {name}"
    made = RemoveStep(store.workspace, description, topic, topic_sha, 0, noun="topic", made="made")
    try:
        index_sha = index.save(kept, expected_sha256)
        before = _version_of(index, expected_sha256)
    except SaveConflictError:
        made.apply(store)  # nothing is moved: the topic goes again
        said = f"{index.name} changed on disk since it was read; nothing was moved"
        return OpResult(f"{action} failed", error=said)
    except (UnkeptChangeError, MemoryFileError) as error:
        made.apply(store)
        return OpResult.failed(f"{action} failed", error)
    steps: tuple[UndoStep, ...] = (made,)
    if before is not None:
        steps = (RestoreStep(store.workspace, description, index, before, index_sha), made)
    stack.push(TogetherStep(store.workspace, description, steps=steps))
    lines, link = plural(moved.count("\n"), "line"), kept.count("\n")
    return MovedPastCut(
        f"Moved the last {lines} of {index.name} into {name}; line {link} links to it",
        touched=(str(file.physical), *physical_paths(index)),
        index_text=kept,
    )


def _version_of(file: MemoryFile, sha256: str | None) -> Version | None:
    """The version history keeps of what `file` held (`sha256`) before a save."""
    if sha256 is None:
        return None
    return next((v for v in file.versions() if v.sha256 == sha256 and not v.deleted), None)
