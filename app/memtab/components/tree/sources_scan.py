"""Other agents' memory in the Memory tab's scan: discovered and listed off the GUI thread."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from memtab.components.tree.nodes import SectionId, TreeNode
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.sources.codex.imports import ImportLinks, link_imports
from memtab.sources.config import SourceContext
from memtab.sources.discovery import is_shown, scan
from memtab.sources.layouts import PLANS, classify_file, is_team_memory, watch_targets
from memtab.sources.listing import list_source
from memtab.sources.model import Discovery, Source, SourceFile, SourceListing
from memtab.store.home import Home

ContextLoader = Callable[[Home], SourceContext]
"""Reads what discovery needs (settings, the home's overrides, the registry)."""

WatchTarget = tuple[str, bool]  # A directory to watch and whether recursively.


@dataclass(frozen=True)
class SourceChanges:
    """Files created, modified or gone since the previous scan of the sources."""

    changed: frozenset[MemoryFileRef] = frozenset()
    deleted: frozenset[MemoryFileRef] = frozenset()

    @property
    def empty(self) -> bool:
        return not self.changed and not self.deleted


@dataclass(frozen=True)
class SourcesScan:
    """Every other agent's source Memtab shows, as listed at one moment."""

    discovery: Discovery
    listings: tuple[SourceListing, ...]
    problems: tuple[str, ...] = ()  # Settings Memtab could not use (one line each).
    changes: SourceChanges = field(default_factory=SourceChanges)
    watch: tuple[WatchTarget, ...] = ()
    """The existing directories whose changes concern a source (`layouts.watch_targets`)."""
    duration_ms: float = 0.0

    @property
    def file_count(self) -> int:
        return sum(listing.file_count for listing in self.listings)

    @cached_property
    def imports(self) -> ImportLinks:
        """Codex's copies of Claude Code memory among the listings and their originals
        (`sources.codex.imports`: the tree's rows, the search and Quick open show each once)."""
        return link_imports(self.listings)

    def listing(self, source_id: str) -> SourceListing | None:
        return next((item for item in self.listings if item.source.id == source_id), None)

    def find(self, ref: MemoryFileRef) -> tuple[Source, SourceFile] | None:
        """The source and listed file `ref` names, or None (none listed: another
        agent's file gone since, or a mux file)."""
        listing = self.listing(ref.source_id)
        found = listing.file(ref.path) if listing is not None else None
        return (listing.source, found) if listing is not None and found is not None else None

    def opens_a_source(self, path: str) -> bool:
        """Whether a change of `path` may be a source discovery has not found yet (a project's first
        Claude Code folder, Codex's first memories, loki-mode's in a project: `Discovery.opens`;
        team memory appearing in an auto memory directory): the sources are found again."""
        if self.discovery.opens(path):
            return True
        source = self.discovery.source_containing(Path(path))
        if source is None:
            return False
        relative = os.path.relpath(path, source.root)
        segments = () if relative == "." else tuple(relative.split(os.sep))
        return is_team_memory(source.layout, segments)

    def affected_by(self, path: str) -> Source | None:
        """The source whose files a change of `path` may concern (a transcript or a
        settings file beside them does not), or None."""
        source = self.discovery.source_containing(Path(path))
        if source is None:
            return None
        relative = os.path.relpath(path, source.root)
        segments = () if relative == "." else tuple(relative.split(os.sep))
        return source if _concerns(source, segments) else None


def _concerns(source: Source, segments: tuple[str, ...]) -> bool:
    """Whether a changed path at `segments` inside the root of `source` can change its
    listing: one of its files, or a directory on the way to them."""
    if not segments or classify_file(source, segments) is not None:
        return True
    plan = PLANS[source.layout]
    for planned in (*plan.files, *source.context_names, *plan.directories):
        parts = tuple(planned.split("/")) if planned else ()
        depth = min(len(parts), len(segments))
        if parts[:depth] == segments[:depth]:
            return True
    # A session's directory (named by its id; the session's transcript beside it is
    # `<id>.jsonl`), on the way to its session-memory/summary.md.
    return plan.session_summaries and (
        (len(segments) == 1 and "." not in segments[0])
        or (len(segments) == 2 and segments[1] == "session-memory")
    )


def _stamps(listings: Collection[SourceListing]) -> dict[MemoryFileRef, tuple[int, int]]:
    return {
        file.ref: (file.size_bytes, file.modified_at_ms)
        for listing in listings
        for file in listing.files
    }


def _changes(previous: SourcesScan | None, listings: Collection[SourceListing]) -> SourceChanges:
    if previous is None:
        return SourceChanges()
    before, now = _stamps(previous.listings), _stamps(listings)
    changed = frozenset(key for key, stamp in now.items() if before.get(key) != stamp)
    deleted = frozenset(key for key in before if key not in now)
    return SourceChanges(changed, deleted)


def _watch(discovery: Discovery, home: Home) -> tuple[WatchTarget, ...]:
    """Existing directories to watch (those inside the home are watched with it already):
    every discovered source's, so a project's first Claude auto memory shows up too, and
    where a source may appear (`Discovery.openings`), not recursively."""
    home_root = str(home.root)
    targets: dict[str, bool] = {}
    wanted = [(opening.directory, False) for opening in discovery.openings]
    for source in discovery.sources:
        wanted.extend(watch_targets(source))
    for directory, recursive in wanted:
        text = str(directory)
        inside_home = text == home_root or text.startswith(home_root.rstrip(os.sep) + os.sep)
        if not inside_home and os.path.isdir(text):
            targets[text] = targets.get(text, False) or recursive
    return tuple(sorted(targets.items()))


def scan_sources(
    home: Home,
    previous: SourcesScan | None,
    changed_paths: frozenset[str] | None,
    load_context: ContextLoader | None = None,
) -> SourcesScan:
    """Discover and list the sources, or relist those `changed_paths` touch. Blocks on disk:
    run it on a worker."""
    started = time.perf_counter()
    if (
        previous is None
        or changed_paths is None
        or str(home.root) in changed_paths
        or any(previous.opens_a_source(path) for path in changed_paths)
    ):
        context = (load_context or SourceContext.load)(home)
        discovery, listings = scan(context)
        return SourcesScan(
            discovery,
            tuple(listings),
            context.problems,
            _changes(previous, listings),
            _watch(discovery, home),
            (time.perf_counter() - started) * 1000.0,
        )
    touched = {
        source for path in changed_paths if (source := previous.affected_by(path)) is not None
    }
    if not touched:
        return previous
    if any(not os.path.isdir(source.root) for source in touched):
        # A source went (its folder deleted or moved away): found again, without it.
        return scan_sources(home, previous, None, load_context)
    shown: Mapping[str, SourceListing] = {item.source.id: item for item in previous.listings}
    listings = []
    for source in previous.discovery.sources:
        listing = list_source(source) if source in touched else shown.get(source.id)
        if listing is not None and is_shown(listing):
            listings.append(listing)
    return SourcesScan(
        previous.discovery,
        tuple(listings),
        previous.problems,
        _changes(previous, listings),
        # A folder of a source found before may have appeared (Claude Code's `memory/` in
        # a project's folder at its first auto memory, `~/.claude/rules`, a project's
        # `.claude`): watched from now on, else what is written in it after never shows.
        _watch(previous.discovery, home),
        (time.perf_counter() - started) * 1000.0,
    )


# While other agents' memory holds at most this many files, a new section opens with its
# sources expanded too; above it, only the section.
EXPAND_SOURCES_MAX_FILES = 60


@dataclass(frozen=True)
class SourcesNews:
    """A sources scan's asks: open files to follow, directories to watch, problems to say."""

    follow: frozenset[MemoryFileRef]
    watch: tuple[WatchTarget, ...] | None
    say: str | None


class SourcesShown:
    """What the window did with the sources' scans so far, so each is acted on once: the
    targets handed to the watcher, the problems said, the sections opened."""

    def __init__(self) -> None:
        self.sources: SourcesScan | None = None
        self.targets: tuple[WatchTarget, ...] = ()
        self._problems: tuple[str, ...] = ()
        self._seen_sections: set[str] = set()

    def scanned(self, sources: SourcesScan | None) -> SourcesNews | None:
        """A scan landed with `sources`; None when they are the ones already followed."""
        if sources is None or sources is self.sources:
            return None
        self.sources = sources
        watch = None
        if sources.watch != self.targets:
            watch = self.targets = sources.watch
        say = "; ".join(sources.problems) if sources.problems != self._problems else None
        self._problems = sources.problems
        return SourcesNews(sources.changes.changed | sources.changes.deleted, watch, say or None)

    def to_expand(self, sections: Iterable[TreeNode]) -> list[TreeNode]:
        """The rows to expand among other agents' `sections` the tree shows: those seen for
        the first time, with their folders too while the sources hold few files."""
        few = self.sources is not None and self.sources.file_count <= EXPAND_SOURCES_MAX_FILES
        rows: list[TreeNode] = []
        for section in sections:
            if section.section is not SectionId.SOURCES or section.key in self._seen_sections:
                continue
            self._seen_sections.add(section.key)
            opened = section.walk() if few else iter([section])
            rows.extend(node for node in opened if node.is_container and node.children)
        return rows
