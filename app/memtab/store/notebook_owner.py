"""Whose notebook `/memories/workspace` is, as xum resolves it: a task tree shares its root's
(docs/formats.md §2.5)."""

from collections.abc import Mapping

from memtab.fs.slotted import Slotted

MAX_CHAIN_DEPTH = 32


class OwnerLinks(Slotted):
    """What a workspace's registry entry says about whose notebook it uses."""

    __slots__ = ("parent_id", "pinned_owner_id", "side_chat_parent_id")

    parent_id: str | None
    side_chat_parent_id: str | None
    pinned_owner_id: str | None

    def __init__(
        self,
        parent_id: str | None = None,
        side_chat_parent_id: str | None = None,
        pinned_owner_id: str | None = None,
    ) -> None:
        self.parent_id = parent_id
        self.side_chat_parent_id = side_chat_parent_id
        self.pinned_owner_id = pinned_owner_id


def notebook_owner(links: Mapping[str, OwnerLinks], workspace_id: str) -> str:
    """The workspace whose `<sessions>/<id>/memory` is `workspace_id`'s workspace scope."""
    current = workspace_id
    visited: set[str] = set()
    for _ in range(MAX_CHAIN_DEPTH):
        if current in visited:
            return workspace_id  # a cycle
        visited.add(current)
        entry = links.get(current)
        if entry is None:
            return workspace_id  # unknown, or a parent that is not registered
        parent = entry.parent_id or entry.side_chat_parent_id
        if not (parent and parent in links):
            pinned = entry.pinned_owner_id
            if pinned and pinned in links:
                return pinned
        if not parent:
            return current
        current = parent
    return workspace_id  # deeper than xum follows
