"""The memories the engines read (through `MemoryEngine`, their base), who sees them
together, and where each one is in words.

Every memory Memtab sees, read as `memtab check` reads it (`check.documents.collect`):
the global scope once, each registered project's scope once, each workspace's scope
once, and every other agent's file (Claude Code, Codex, loki-mode) with the project it
belongs to — or, with a workspace, what that workspace's sessions see.

A session *sees two memories together* (`check.documents.seen_together`) when one
workspace's sessions load both: global memory with everything, a project's with its
workspaces', a workspace's only with its own.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from memtab.check.documents import Collected, Document, Listed, collect, list_memory
from memtab.fs.memo import RACY_MARGIN_NS
from memtab.fs.records import Record
from memtab.kept.per_file import KeptAnswer, NotAsMadeError, PerFile
from memtab.kept.reports import KeptPrinted, KeptReport, kept_printed, report_key
from memtab.kept.texts import KeptTexts
from memtab.sources.codex.imports import shown_once
from memtab.sources.config import SourceContext
from memtab.store.home import Home
from memtab.store.sidecars.registry import load_registry
from memtab.trust.records import MemoryPlace

logger = logging.getLogger(__name__)
T = TypeVar("T")
R = TypeVar("R", bound=Record)
E = TypeVar("E", bound="MemoryEngine")

AGENT_NAMES = {
    "mux": "mux",
    "claude-code": "Claude Code",
    "codex": "Codex",
    "loki": "loki-mode",
    "gemini": "Gemini CLI",
}


def read_memories(
    home: Home,
    workspace_id: str | None = None,
    *,
    sources: bool = True,
    env: Mapping[str, str] | None = None,
    texts: KeptTexts | None = None,
) -> Collected:
    """Every memory of the home (or what `workspace_id`'s sessions see), other agents'
    too unless not `sources`; with `texts`, mux's files still as they were last read are
    not read again (and what was read is kept there). HomeError for an unusable registry
    or unknown workspace."""
    registry = load_registry(home)
    context = SourceContext.load(home, env=env, registry=registry) if sources else None
    collected = collect(home, registry, workspace_id, sources=context, texts=texts)
    if texts is not None:
        texts.finish(everything=workspace_id is None)
    return collected


class MemoryEngine:
    """What every trust engine shares: the home whose memory it reads (other agents' too
    unless not `sources`), each file's text kept between runs (`KeptTexts`), and its
    report kept for a run in which nothing changed (`kept.reports`)."""

    now_ns: Callable[[], int] = staticmethod(time.time_ns)
    """When a run lists the memory: a file changed within git's racy margin before it is
    read before its report is reused or kept (tests: another moment)."""

    def __init__(
        self, home: Home, *, env: Mapping[str, str] | None = None, sources: bool = True
    ) -> None:
        self.home = home
        self._env = env
        self._sources = sources
        self._texts = KeptTexts(home)
        self._listing: tuple[str | None, Listed, bool] | None = None
        """What `printed` listed, for the run that follows it to list no more."""
        self._kept: KeptReport[Any] | None = None  # where the last report was kept

    def memories(self, workspace_id: str | None = None) -> tuple[Collected, bool]:
        """The memories (`read_memories`), and whether they are every memory the engine
        reads (what it keeps of others is then forgotten)."""
        listed, everything = self._listed(workspace_id)
        return self._collected(listed, workspace_id), everything

    def continue_from(self, other: MemoryEngine) -> None:
        """Take on what `other` (a light engine that answered `printed` with None) listed and
        recalled: the run that follows lists the memory no more."""
        self._listing, other._listing = other._listing, None
        self._texts = other._texts

    def followed_by(self, make: Callable[[], E]) -> Callable[[], E]:
        """The engine `make` makes, made once when first asked and taking on what this one
        listed (`continue_from`): a warm `--json` run asks only this light engine (`printed`),
        so the engine and its readers (~0.1–0.5 s of imports) are imported by a run that
        finds alone, in `make`."""

        @functools.cache
        def engine() -> E:
            made = make()
            made.continue_from(self)
            return made

        return engine

    def _listed(self, workspace_id: str | None) -> tuple[Listed, bool]:
        listing, self._listing = self._listing, None
        if listing is not None and listing[0] == workspace_id:
            return listing[1], listing[2]
        registry = load_registry(self.home)
        context = (
            SourceContext.load(self.home, env=self._env, registry=registry)
            if self._sources
            else None
        )
        listed = list_memory(self.home, registry, workspace_id, sources=context, texts=self._texts)
        return listed, workspace_id is None and self._sources

    def _collected(self, listed: Listed, workspace_id: str | None) -> Collected:
        collected = listed.collect(self._texts)
        self._texts.finish(everything=workspace_id is None)
        return collected

    def printed(
        self, workspace_id: str | None, command: str, context: Callable[[Listed], object]
    ) -> KeptPrinted | None:
        """What `command` printed of the report kept for a run over the same files in the same
        `context` (`reported`), none opened; None when a file changed or none was kept. Light:
        the engine's own modules need not be imported to answer it."""
        listed, everything = self._listed(workspace_id)
        key = self._report_key(listed, everything, context)
        printed = None if key is None else kept_printed(self.home, command, key)
        if printed is not None:
            self._texts.finish(everything=False)  # the other agents' texts it recalled
        else:
            self._listing = (workspace_id, listed, everything)  # the run that follows
        return printed

    def printed_of(self, report: Any) -> KeptPrinted | None:
        """What its command prints of `report` when it is the one the last run kept
        (`KeptReport.printed_of`): made once, for the memo and stdout alike."""
        return None if self._kept is None else self._kept.printed_of(report)

    def reported(
        self,
        workspace_id: str | None,
        kept: KeptReport[R] | None,
        context: Callable[[Listed], object],
        make: Callable[[Collected, bool], tuple[R, bool]],
    ) -> R:
        """The report `make` makes of the memories (and whether they are every memory the
        engine reads), with what could not be read; with `kept`, the report kept for a run
        over the same files in the same `context` (plain data: what else the report depends
        on), none opened; `make` says whether its report may be kept."""
        listed, everything = self._listed(workspace_id)
        key = None
        if kept is not None:
            key = self._report_key(listed, everything, context)
            report = kept.get(key) if key is not None else None
            if report is not None:
                self._texts.finish(everything=False)  # the other agents' texts it recalled
                return report
        collected = self._collected(listed, workspace_id)
        report, keep = make(collected, everything)
        report = report.replaced(problems=collected.problems)
        if key is not None and keep:
            kept.put(key, report)  # type: ignore[union-attr]  # a key is kept's
            self._kept = kept
        return report

    def _report_key(
        self, listed: Listed, everything: bool, context: Callable[[Listed], object]
    ) -> bytes | None:
        """The key of a report over `listed` (`kept.reports`), None when a file changed
        within git's racy margin before now (only its read tells)."""
        stamps = listed.stamps(self.now_ns() - RACY_MARGIN_NS)
        return None if stamps is None else report_key(stamps, (everything, context(listed)))


def anew(what: str, work: Callable[[], T], kept: Iterable[PerFile[Any] | KeptAnswer]) -> T:
    """What `work` returns; when what was `kept` is found at its use not to be what the
    engine makes (`NotAsMadeError`), forgotten and the work done again."""
    try:
        return work()
    except NotAsMadeError as error:
        logger.info("The %s' cache is not what they make (%s): worked out anew", what, error)
        for each in kept:
            each.forget()
        return work()


def copies_of(documents: Sequence[Document]) -> dict[str, str]:
    """The documents that are Codex's copies of a Claude Code memory file among
    `documents`, each (by key) with its original's key: shown once, on the original
    (`sources.codex.imports.shown_once`). A copy differs from its original only where one
    changed since Codex imported it: what the copy alone says is its own."""
    original_of = {d.key: d.original for d in documents if d.original is not None}
    return shown_once((d.key for d in documents), original_of) if original_of else {}


def place_of(document: Document, line: int | None = None, text: str = "") -> MemoryPlace:
    """Where a memory (and one of its lines) is, as the records say it."""
    return MemoryPlace(
        path=document.path,
        agent=document.agent,
        scope=document.scope,
        line=line,
        text=text,
        project=document.project,
        workspace=document.workspace,
        modified_at=document.modified_ms,
        imported=document.imported or "",
    )


def where_in_words(place: MemoryPlace) -> str:
    """ "mux, global", "Claude Code, project /src/acme-api", "mux, workspace a1b2c3",
    "Codex, imported from Claude Code (cwd /src/acme-api)"."""
    agent = AGENT_NAMES.get(place.agent, place.agent)
    if place.imported:
        return f"{agent}, {place.imported}"
    if place.scope == "workspace" and place.workspace:
        return f"{agent}, workspace {place.workspace}"
    if place.scope == "project":
        return f"{agent}, project {place.project}" if place.project else f"{agent}, a project"
    return f"{agent}, global"
