"""Moving the lines of Claude Code's `MEMORY.md` past its cut into a topic file beside it
(docs/formats.md §17.6): the topic is created here, on the file-operations worker, never
over a file (Edit → Undo removes it while it holds what was written); the editor then puts
a link to it in the lines Claude Code reads (`sources.claude.index.move_past_cut`)."""

from __future__ import annotations

import os
from pathlib import PurePosixPath

from memtab.components.files.ops import OpResult
from memtab.components.files.steps import RemoveStep
from memtab.components.files.undo import UndoStack
from memtab.file_protocol.file_ref import MemoryFileRef, SourceError
from memtab.sources.agent_file import AgentFile, SourceVersions
from memtab.sources.claude.index import CONTINUED_STEM, CONTINUED_TOPIC
from memtab.sources.content import save_source_file
from memtab.sources.listing import target_file
from memtab.sources.model import Source
from memtab.store.errors import MemoryStoreError
from memtab.store.scopes.memory import MemoryStore

_MAX_TRIES = 100


def create_continued_topic(
    stack: UndoStack, store: MemoryStore, source: Source, index_relative: str, moved: str
) -> OpResult:
    """Create `MEMORY-continued.md` (else `-2`, `-3`…) beside the index `index_relative` of
    `source`, holding `moved`; `created` names it."""
    folder = PurePosixPath(index_relative).parent
    action = "Move the lines past the cut"
    try:
        for number in range(1, _MAX_TRIES + 1):
            name = f"{CONTINUED_STEM}{'' if number == 1 else f'-{number}'}.md"
            relative = str(folder / name) if str(folder) != "." else name
            file = target_file(source, relative)
            if not os.path.lexists(file.physical):
                break
        else:
            return OpResult(f"{action} failed", error="no free MEMORY-continued name")
        history = SourceVersions(store.home)
        sha = save_source_file(source, file, CONTINUED_TOPIC + moved, None, history=history)
    except (SourceError, MemoryStoreError) as error:
        return OpResult(f"{action} failed", error=str(error))
    except OSError as error:
        return OpResult(f"{action} failed", error=error.strerror or str(error))
    topic = AgentFile(source, file, history)
    stack.push(
        RemoveStep(store.workspace, f"move to {name}", topic, sha, 0, noun="topic", made="made")
    )
    return OpResult(
        f"Moved the lines past Claude Code's cut into {name}",
        created=MemoryFileRef(source.id, relative),
        touched=(str(file.physical),),
    )
