"""xum's notes that are not the user's or an agent's own (docs/formats.md §2.5): notes xum
adopted from a sub-agent's old private notebook, and an agent's rollover checkpoint.

Before a task tree shared one notebook, each sub-agent kept `/memories/workspace` in its
own `sessions/<child>/memory`. xum now copies those notes into the owner's notebook
(`src/node/services/memoryLegacyAdoption.ts`, `adoptLegacyPrivateStore` in
`memoryService.ts`): a note goes to the same path when that is free or already holds the
same text, else under `imported/<child>/`. The child id is that directory's name as it is
when the path grammar admits it; otherwise every byte of its UTF-8 outside
`[A-Za-z0-9_-]` is written `=XX` (hex, capitals), and a name that holds `=` is always of
that form. Memtab names such notes for what they are and never writes that manifest.

An agent running in xum's token-budget mode keeps a rollover checkpoint — what it must
carry into its next context window — in `context-notes.md` (`CONTEXT_NOTES_MEMORY_PATH`,
`src/common/constants/contextBudget.ts`): `/memories/workspace/context-notes.md`, or, in
xum's newest layout, its own `session` scope, kept beside the workspace notebook for the
acting workspace alone (`sessionMemoryStorePath` in `memoryService.ts`).
"""

from __future__ import annotations

from memtab.fs.lazy_re import LazyPattern
from memtab.store.paths import Scope, VirtualPath

IMPORTED_DIR = "imported"
CHECKPOINT_NAME = "context-notes.md"
_ESCAPE = LazyPattern(r"=([0-9A-F]{2})")


def adopted_child(path: VirtualPath) -> str | None:
    """The sub-agent whose old notebook a workspace note (or folder) below
    `imported/<child>/` was adopted from, else None."""
    segments = path.segments
    if path.scope is not Scope.WORKSPACE or len(segments) < 2 or segments[0] != IMPORTED_DIR:
        return None
    return child_id(segments[1])


def child_id(segment: str) -> str:
    """The workspace id an `imported/` folder is named after (see the module doc)."""
    if "=" not in segment:
        return segment
    data = bytearray()
    position = 0
    for match in _ESCAPE.finditer(segment):
        data += segment[position : match.start()].encode("utf-8")
        data.append(int(match.group(1), 16))
        position = match.end()
    data += segment[position:].encode("utf-8")
    return data.decode("utf-8", "replace")


def is_checkpoint(path: VirtualPath) -> bool:
    """Whether a workspace note is an agent's rollover checkpoint."""
    return path.scope is Scope.WORKSPACE and path.segments == (CHECKPOINT_NAME,)


def xum_note_sentence(path: VirtualPath) -> str | None:
    """What a row is, in the tree's words, when xum made it for a purpose of its own."""
    if is_checkpoint(path):
        return (
            "An agent's rollover checkpoint: what it keeps to carry its work into its next "
            "context window (xum rewrites it before each rollover)"
        )
    if path.scope is Scope.WORKSPACE and path.segments == (IMPORTED_DIR,):
        return "Notes xum adopted from sub-agents' old private notebooks"
    child = adopted_child(path)
    if child is None:
        return None
    return f"Adopted by xum from sub-agent {child}'s old private notebook"
