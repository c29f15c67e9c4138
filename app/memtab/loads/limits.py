"""xum's hot-set limits (docs/formats.md §17.6) and what its memory index needs of a note, apart
so the tree can warn at its first paint (stdlib only)."""

from __future__ import annotations

MAX_ITEM_BYTES = 16 * 1024
MAX_TOTAL_BYTES = 48 * 1024
MAX_TOTAL_TOKENS = 12_000
MAX_ITEMS = 8
MAX_SELECTION_ATTEMPTS = 64
DECAY_HALF_LIFE_MS = 7 * 24 * 60 * 60 * 1000

PINNED_PAST_ITEM_CUT = (
    "xum preloads only the first 16 KiB of a pinned file into a session: the rest is read "
    "only when the agent views it"
)


def pinned_cut_warning(pinned: bool, size_bytes: int) -> str | None:
    """The tree's warning for a pinned file xum cuts when it preloads it, else None."""
    return PINNED_PAST_ITEM_CUT if pinned and size_bytes > MAX_ITEM_BYTES else None


XUM_NO_DESCRIPTION = (
    "No description: xum lists every note in its memory index by its path and description, "
    "and its recall judges notes by them first, so an agent can hardly find this one"
)
XUM_NO_DESCRIPTION_LABEL = "no description"


def xum_recall_warning(description: str) -> str | None:
    """The tree's warning for a shared scope's note with no `description:`, else None."""
    return None if description.strip() else XUM_NO_DESCRIPTION
