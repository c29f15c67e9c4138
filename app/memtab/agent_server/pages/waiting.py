"""What waits in the user's Inbox, as a session's answers say it (docs/formats.md §22.5): the
changes agents proposed through Memtab (`--writes inbox`) that the user has not accepted or
rejected yet. They are no memory until accepted, so they are never listed or found as files;
but a session must not act as if nothing was said: `list` and `search` count those it would
see once accepted, `search` shows those its words find, marked not accepted, and `view` of a
file a proposal would make or change says so.

A session sees its workspace's queue whole and the proposals for global memory of every queue
(global memory is every project's). Queues are read again only when their file changed, and the
folder of queues listed again only when it changed (a search stats the folder and each queue).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path

from memtab.fs.memo import RACY_MARGIN_NS, Stamp, stamp_of
from memtab.fs.records import Record
from memtab.humanize import plural
from memtab.search_index.ranking import best_line
from memtab.store.actors import MCP_PREFIX, actor_name
from memtab.store.home import Home
from memtab.store.paths import PathError, Scope, parse_file_path
from memtab.store.proposals.queue import (
    GLOBAL_QUEUE,
    pending_in,
    proposal_target,
    proposal_text,
    proposals_path,
    proposing_workspaces,
)
from memtab.store.proposals.records import AgentProposal

MAX_SHOWN = 3
"""The proposals a search shows at most (the count says how many wait)."""
SHOWN_CHARS = 300
"""Of a proposal's text, what an answer shows."""
NOT_ACCEPTED = "not accepted yet"


class WaitingProposal(Record, write_only=True):
    """A proposal a search found, as its answer shows it (`waiting`, docs/formats.md §22.2)."""

    id: str
    path: str
    command: str
    text: str
    """What it would write (cut to `SHOWN_CHARS`), or the call in words for a delete or rename."""
    proposed_by: str
    created_at: int
    status: str = NOT_ACCEPTED


class Waiting:
    """The proposals one session's answers speak of (see the module doc)."""

    def __init__(self, home: Home) -> None:
        self.home = home
        self._read: dict[str, tuple[Stamp, list[AgentProposal]]] = {}
        self._folder = os.fspath(proposals_path(home, GLOBAL_QUEUE).parent)
        self._paths: dict[str, Path] = {}  # each queue's file
        self._listed: tuple[Stamp, list[str]] | None = None  # the queues, as the folder was

    def pending(self, workspace_id: str | None, scope: str | None = None) -> list[AgentProposal]:
        """What waits for a session of `workspace_id` (None: without one), oldest first; `scope`:
        only the proposals for that scope's memory (another agent's: none)."""
        found: list[AgentProposal] = []
        for key in [*self._workspaces(), GLOBAL_QUEUE]:
            for proposal in self._queue(key):
                target = _scope_of(proposal)
                if target is None or (key != workspace_id and target is not Scope.GLOBAL):
                    continue
                if scope is None or scope == target.value:
                    found.append(proposal)
        return sorted(found, key=lambda proposal: proposal.created_at)

    def _workspaces(self) -> list[str]:
        """`proposing_workspaces`, listed again when the folder changed (or changed too lately for
        its stamp to tell a change in the same clock tick)."""
        try:
            info = os.stat(self._folder)
        except OSError:
            return []
        stamp = stamp_of(info)
        if self._listed is not None and self._listed[0] == stamp:
            return self._listed[1]
        workspaces = proposing_workspaces(self.home)
        settled = info.st_mtime_ns < time.time_ns() - RACY_MARGIN_NS
        self._listed = (stamp, workspaces) if settled else None
        return workspaces

    def _queue(self, key: str) -> list[AgentProposal]:
        path = self._paths.get(key)
        if path is None:
            path = self._paths[key] = proposals_path(self.home, key)
        stamp = _stamp(path)
        kept = self._read.get(key)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        proposals = pending_in(self.home, key) if stamp is not None else []
        if stamp is not None:
            self._read[key] = (stamp, proposals)
        return proposals


def found_by(proposals: Sequence[AgentProposal], query: str) -> list[WaitingProposal]:
    """The proposals whose text or path holds a word of `query`, at most `MAX_SHOWN`, newest
    first: each with its text cut around the line that matches best."""
    found = []
    for proposal in reversed(proposals):
        text = proposal_text(proposal)
        line = best_line(text, query)
        if line is None and best_line(proposal_target(proposal), query) is None:
            continue
        found.append(shown(proposal, text if line is None else _around(text, line)))
        if len(found) == MAX_SHOWN:
            break
    return found


def shown(proposal: AgentProposal, text: str) -> WaitingProposal:
    """`proposal` as an answer shows it, `text` cut to `SHOWN_CHARS`."""
    cut = text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"
    return WaitingProposal(
        id=proposal.id,
        path=proposal_target(proposal),
        command=proposal.command,
        text=cut,
        proposed_by=actor_name(MCP_PREFIX + proposal.client),
        created_at=proposal.created_at,
    )


def count_note(count: int, found: int | None = None) -> str | None:
    """What `list` (`found` None) or `search` says of the `count` proposals waiting."""
    if not count:
        return None
    they = "it" if count == 1 else "them"
    said = (
        f"{plural(count, 'change')} proposed through Memtab {'waits' if count == 1 else 'wait'} "
        f"in the user's Memtab Inbox, {NOT_ACCEPTED}: no memory until the user accepts {they} "
        "(in Memtab's Inbox or `memtab inbox`)."
    )
    if found is None:
        return f"{said} `search` shows those its words find, under `waiting`."
    if not found:
        return f"{said} None of {they} holds these words."
    which = "The one" if found == 1 else f"The {found}"
    return (
        f"{said} {which} these words find {'is' if found == 1 else 'are'} under `waiting`: "
        "say it is not accepted yet if you rely on it."
    )


def view_note(proposals: Sequence[AgentProposal], path: str) -> str | None:
    """What `view` of `path` says of the proposals that would make or change it (None: none)."""
    mine = [p for p in proposals if path in _paths_of(p)]
    if not mine:
        return None
    newest = mine[-1]
    text = shown(newest, proposal_text(newest)).text
    more = f" ({plural(len(mine) - 1, 'more')} before it)" if len(mine) > 1 else ""
    return (
        f"(A change to {path} waits in the user's Memtab Inbox, {NOT_ACCEPTED}: {newest.id}, "
        f"{newest.command} by {actor_name(MCP_PREFIX + newest.client)}{more}: {text!r})"
    )


def _paths_of(proposal: AgentProposal) -> set[str]:
    """The memory paths `proposal` would make, change or move, as `view` names them."""
    named = (proposal.arguments.get(key) for key in ("path", "old_path", "new_path"))
    paths = set()
    for raw in named:
        if isinstance(raw, str):
            try:
                paths.add(str(parse_file_path(raw)))
            except PathError:
                continue
    return paths


def _scope_of(proposal: AgentProposal) -> Scope | None:
    try:
        return parse_file_path(proposal_target(proposal)).scope
    except PathError:
        return None


def _around(text: str, line: tuple[int, str]) -> str:
    """`text` when short, else from the line that matches on."""
    if len(text) <= SHOWN_CHARS:
        return text
    lines = text.splitlines()
    return "\n".join(lines[line[0] - 1 :])


def _stamp(path: Path) -> Stamp | None:
    try:
        return stamp_of(os.stat(path))
    except OSError:
        return None
