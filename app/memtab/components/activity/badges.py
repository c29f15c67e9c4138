"""The "agent edited" badges: which memory files changed on disk by someone else's hand,
and whose."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Annotated, Any

from memtab import humanize
from memtab.components.activity.own_writes import OwnWrites
from memtab.components.tree.scan import HomeScan
from memtab.fs.clock import Clock, now_ms
from memtab.fs.records import AtLeast, Key, OmitNone, OrNone, Record
from memtab.store.actors import actor_name
from memtab.store.errors import ScopeUnavailableError
from memtab.store.files import FileEntry
from memtab.store.paths import VirtualPath
from memtab.store.scopes.scope_view import ScopeView

CLAIM_TTL_MS = 60_000
"""How long a claim by one of Memtab's jobs names the actor of a change to its file."""
META_WRITE_SLACK_MS = 5_000
"""How close a memory-meta.json `lastWriteAt` must be to the file's time to be that write."""


class Actor(enum.StrEnum):
    """Who changed a badged file."""

    WRITER = "writer"
    CONSOLIDATOR = "consolidator"
    MUX = "mux"
    SYNC = "sync"
    OUTSIDE = "outside"
    AGENT = "agent"
    """An agent's change the user accepted in the Inbox (the badge's `agent` says whose)."""


class Badge(Record):
    """A file's badge: who changed it, and when it was seen; in ui-state.json by physical path
    as `{"actor", "at", "agent"?}` (docs/formats.md §15.2: a bad actor or time is not restored).
    `agent`: an agent's change, by its history actor (`mcp:codex-mcp-client`)."""

    actor: Actor
    at_ms: Annotated[int, Key("at"), AtLeast(1)]
    agent: Annotated[OrNone[str], OmitNone] = None

    @property
    def _who(self) -> str:
        """The actor as history names it (`memtab.store.actors` words them all)."""
        outside = self.actor in (Actor.OUTSIDE, Actor.AGENT)  # an agent's: by `agent`
        return self.agent or ("external" if outside else self.actor.value)

    @property
    def label(self) -> str:
        """The short text on the badge ("memory writer", "codex")."""
        return actor_name(self._who, how=False).lower()

    def sentence(self, now: int | None = None) -> str:
        """The tooltip line: `mux changed it 5 min ago, since you last opened it`."""
        when = humanize.relative_time(self.at_ms, now)
        return f"{actor_name(self._who)} changed it {when}, since you last opened it"


class AgentEdits:
    """The badged files by physical path."""

    def __init__(self, own_writes: OwnWrites, clock: Clock = now_ms) -> None:
        """Changes `own_writes` claims are Memtab's own and get no badge."""
        self._own_writes = own_writes
        self._clock = clock
        self._badges: dict[str, Badge] = {}
        self._claims: dict[str, tuple[Actor, int, str | None]] = {}
        self._content_claims: dict[str, tuple[Actor, int]] = {}  # by content sha-256
        self._badged_contents: dict[str, str] = {}  # physical → the sha its badge saw
        self.consolidating = False
        """Whether this window's consolidation runs on the shown workspace right now."""

    @property
    def paths(self) -> frozenset[str]:
        """The badged physical paths."""
        return frozenset(self._badges)

    @property
    def badges(self) -> Mapping[str, Badge]:
        """Each badged physical path's badge (a copy)."""
        return dict(self._badges)

    def badge(self, physical: str | None) -> Badge | None:
        """The badge of one file, if it has one."""
        return self._badges.get(physical) if physical is not None else None

    def count_in(self, scan: HomeScan) -> bool:
        """Count `scan`'s changes in; True when a badge came, went or changed (the file open
        in the editor is badged like any other: the editor shows it)."""
        changes = scan.changes
        if changes.empty:
            return False
        before = dict(self._badges)
        anything_own = len(self._own_writes) > 0
        for path in changes.deleted:
            physical = _physical(scan, path)
            if physical is not None:
                self._badges.pop(physical, None)
        entries = _entries(scan, changes.changed)
        meta_keys = _MetaKeys(scan)
        for path in changes.changed:
            physical = _physical(scan, path)
            if physical is None:
                continue
            if anything_own and self._is_own_change(physical, path, changes.shas.get(path)):
                self._badges.pop(physical, None)  # the user's own save: nothing to point out
                continue
            sha = changes.shas.get(path)
            actor, agent = self._actor(scan, meta_keys, path, physical, entries.get(path), sha)
            self._badges[physical] = Badge(actor=actor, at_ms=self._clock(), agent=agent)
            if sha is not None:
                self._badged_contents[physical] = sha
        return self._badges != before

    def claim(self, physical: str, actor: Actor, agent: str | None = None) -> bool:
        """One of Memtab's jobs wrote `physical` (just now, or in a moment): its change is
        that job's — or, `Actor.AGENT`, the change of the agent `agent` names (its history
        actor) the user accepted. True when a badge already shown changed its actor."""
        now = self._clock()
        self._claims = {p: c for p, c in self._claims.items() if c[1] > now}
        self._claims[physical] = (actor, now + CLAIM_TTL_MS, agent)
        badge = self._badges.get(physical)
        if badge is None or now - badge.at_ms > CLAIM_TTL_MS:
            return False
        if badge.actor is actor and badge.agent == agent:
            return False
        self._badges[physical] = Badge(actor=actor, at_ms=badge.at_ms, agent=agent)
        return True

    def claim_content(self, sha256: str, actor: Actor) -> bool:
        """A run of Memtab in another process wrote a file's content `sha256` (just now,
        or in a moment): a change to that content is the run's. True when a badge already
        shown changed its actor."""
        now = self._clock()
        self._content_claims = {c: v for c, v in self._content_claims.items() if v[1] > now}
        self._content_claims[sha256] = (actor, now + CLAIM_TTL_MS)
        shown = self._badges
        self._badged_contents = {p: c for p, c in self._badged_contents.items() if p in shown}
        changed = False
        for physical, content in self._badged_contents.items():
            badge = shown[physical]
            if content == sha256 and badge.actor is not actor and now - badge.at_ms <= CLAIM_TTL_MS:
                shown[physical] = Badge(actor=actor, at_ms=badge.at_ms)
                changed = True
        return changed

    def written_by_user(self, physical: Iterable[str]) -> bool:
        """A file operation of this window (a restore, its undo or redo) wrote these files:
        their badges go, also one a scan gave meanwhile (it took the change for mux's or another
        program's). True if any went."""
        return self._drop([p for p in physical if p in self._badges])

    def clear(self, physical: str | None) -> bool:
        """Drop the badge of the file at `physical` (opened); True if it had one."""
        return self._drop([physical] if physical in self._badges else [])

    def drop_under(self, scan: HomeScan | None, old: VirtualPath) -> bool:
        """Drop the badges at or under `old` (moved away); True if any went."""
        prefix = _physical(scan, old) if scan is not None else None
        if prefix is None:
            return False
        return self._drop([p for p in self._badges if p == prefix or p.startswith(prefix + "/")])

    def forget_missing(self, scan: HomeScan) -> bool:
        """Drop the badges of files a scan shows are gone (say, deleted while Memtab was
        closed); badges of other workspaces' files stay. True if any went."""
        roots = [str(s.root) + "/" for s in scan.scopes if s.root is not None and not s.unavailable]
        listed = {
            physical
            for scope in scan.scopes
            for entry in scope.listing.files
            if (physical := scope.physical(entry.path)) is not None
        }
        return self._drop(
            [p for p in self._badges if p not in listed and any(p.startswith(r) for r in roots)]
        )

    def _drop(self, gone: list[str]) -> bool:
        for physical in gone:
            del self._badges[physical]
        return bool(gone)

    def saved(self) -> dict[str, Any]:
        """The badges as ui-state.json keeps them: each `Badge` by physical path."""
        return {physical: badge.to_json() for physical, badge in self._badges.items()}

    def restore(self, data: Any) -> None:
        """Take back badges `saved` gave (entries not understood are skipped)."""
        if not isinstance(data, dict):
            return
        for physical, raw in data.items():
            badge = Badge.read(raw)
            if badge is not None:
                self._badges.setdefault(physical, badge)

    def _actor(
        self,
        scan: HomeScan,
        meta_keys: _MetaKeys,
        path: VirtualPath,
        physical: str,
        entry: FileEntry | None,
        sha: str | None,
    ) -> tuple[Actor, str | None]:
        """Who made the change, and the agent when it is an agent's."""
        now = self._clock()
        claim = self._claims.get(physical)
        if claim is not None and claim[1] > now:
            return claim[0], claim[2]
        content = self._content_claims.get(sha or "")
        if content is not None and content[1] > now:
            return content[0], None
        if self.consolidating:
            return Actor.CONSOLIDATOR, None
        key = meta_keys.of(path)
        meta = scan.meta.get(key) if key is not None else None
        written = meta.last_write_at if meta is not None else None
        changed_at = entry.modified_at_ms if entry is not None else None
        if written is not None and changed_at is not None:
            by_tool = abs(written - changed_at) <= META_WRITE_SLACK_MS
            return (Actor.MUX if by_tool else Actor.OUTSIDE), None
        return Actor.OUTSIDE, None

    def _is_own_change(self, physical: str, path: VirtualPath, sha: str | None) -> bool:
        own = self._own_writes
        if own.is_own(path, sha) or own.is_own(physical, sha):
            return True
        ancestor = path.parent
        while not ancestor.is_root:  # a folder Memtab created or moved
            if own.is_own(ancestor):
                return True
            ancestor = ancestor.parent
        return False


class _MetaKeys:
    """memory-meta.json keys of a scan's paths, from one view made on first need (a
    view per changed file made a storm of 1000 outside writes cost 50 ms of GUI time)."""

    def __init__(self, scan: HomeScan) -> None:
        self._scan = scan
        self._view: ScopeView | None = None

    def of(self, path: VirtualPath) -> str | None:
        if self._view is None:
            self._view = self._scan.view()
        try:
            return self._view.meta_key(path)
        except ScopeUnavailableError:
            return None


def _entries(scan: HomeScan, paths: Iterable[VirtualPath]) -> dict[VirtualPath, FileEntry]:
    """The listing entries of `paths` (for their times)."""
    wanted = set(paths)
    scopes = {path.scope for path in wanted}
    return {
        entry.path: entry
        for scope in scan.scopes
        if scope.scope in scopes
        for entry in scope.listing.files
        if entry.path in wanted
    }


def _physical(scan: HomeScan, path: VirtualPath) -> str | None:
    shown = scan.scope_if_shown(path.scope) if path.scope is not None else None
    return shown.physical(path) if shown is not None else None
