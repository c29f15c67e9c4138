"""xum's notes that are not the user's or an agent's own (docs/formats.md §2.5, §3.1): notes adopted
from a sub-agent's old notebook under `imported/<child>/`, and the session scope."""

from __future__ import annotations

from memtab.fs.lazy_re import LazyPattern
from memtab.store.paths import Scope, VirtualPath

IMPORTED_DIR = "imported"
SESSION_SCOPE_WORDS = (
    "xum's session scope: this workspace's agent keeps its own checkpoint here in "
    "token-budget mode, to carry its work into its next context window; host-local, deleted "
    "with its workspace, never consolidated or synced"
)
SESSION_SCOPE_UNOFFERED = "an agent's own checkpoint: consolidation never reads or changes it"
_ESCAPE = LazyPattern(r"=([0-9A-F]{2})")


def adopted_child(path: VirtualPath) -> str | None:
    """The sub-agent whose old notebook a note below `imported/<child>/` came from, else None."""
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


def xum_note_sentence(path: VirtualPath) -> str | None:
    """What a row is, in the tree's words, when xum made it for a purpose of its own."""
    if path.scope is Scope.SESSION:
        if path.is_scope_root:
            return SESSION_SCOPE_WORDS  # xum's name is lower case, first in a sentence too
        return "In xum's session scope: an agent's own checkpoint, never consolidated or synced"
    if path.scope is Scope.WORKSPACE and path.segments == (IMPORTED_DIR,):
        return "Notes xum adopted from sub-agents' old private notebooks"
    child = adopted_child(path)
    if child is None:
        return None
    return f"Adopted by xum from sub-agent {child}'s old private notebook"
