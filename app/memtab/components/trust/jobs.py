"""Memory every agent can trust, in the window, off the GUI thread: the look for the three
questions in a child process (`WindowTrust`), and the actions on what they find — Combine
into…, Keep, Move — each place opened as its file (`PlaceFiles`)."""

from __future__ import annotations

import logging
import multiprocessing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from pathlib import Path

from memtab.components.files.ops import OpResult
from memtab.components.files.undo import UndoStack
from memtab.components.jobs import JobContext
from memtab.components.merge import ThreeWayTexts, three_way_texts
from memtab.components.trust import changes
from memtab.components.trust.changes import (
    CombineChoice,
    CombineMember,
    CombineProposal,
    current_text,
)
from memtab.consolidation.offline.combine import carry_into, keeper_rank
from memtab.consolidation.offline.describe import Description, with_description
from memtab.consolidation.offline.inputs import split_lines
from memtab.file_protocol.file_ref import MemoryFileRef, SourceError, parse_file_ref
from memtab.file_protocol.memory_file import MemoryFile, MemoryFileError, MuxFile
from memtab.fs.atomic import encode_utf8
from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover
from memtab.sources.listing import find_file
from memtab.sources.model import Discovery, Source, SourceFile
from memtab.sources.open_file import open_memory_file
from memtab.store.home import Home, HomeError
from memtab.store.paths import PathError
from memtab.store.scopes.memory import MemoryStore, MemoryStoreError, SaveConflictError
from memtab.store.sidecars.registry import Registry, Workspace, load_registry
from memtab.store.text.content_lines import content_lines
from memtab.store.text.frontmatter import (
    description_from_text,
    description_prefix,
    find_frontmatter,
    full_description,
)
from memtab.store.text.line_merge import merge_union
from memtab.trust.contradictions.records import Contradiction
from memtab.trust.duplicates.kept import load_kept
from memtab.trust.duplicates.records import DuplicateGroup
from memtab.trust.leaks.records import Leak
from memtab.trust.records import MemoryPlace
from memtab.trust.report import TrustReport

logger = logging.getLogger(__name__)

_POLL_S = 0.1
_JOIN_S = 5.0


@dataclass(frozen=True)
class NotRead:
    """Why the memory could not be read (the registry cannot be, the child failed)."""

    message: str


class WindowTrust:
    """The window's looks at its home, each in a spawned child: the engines' memory (~20 MiB
    for 3,000 files) and their interpreter-lock-bound work end with it. Each look works out
    only the files changed since the last (docs/formats.md §19.10); a cancel ends the child."""

    def __init__(self, home: Home, *, env: Mapping[str, str] | None = None) -> None:
        self._home = home
        self._env = dict(env) if env is not None else None

    def find(self, ctx: JobContext) -> TrustReport | NotRead | None:
        """The home's duplicates (but those kept as they are), contradictions and leaks;
        None when cancelled."""
        spawn = multiprocessing.get_context("spawn")
        receive, send = spawn.Pipe(duplex=False)
        child = spawn.Process(
            target=_look,
            args=(str(self._home.root), self._env, send),
            name="memtab-trust",
            daemon=True,
        )
        child.start()
        send.close()  # the child's end: its closing tells the parent when it dies
        try:
            while not receive.poll(_POLL_S):
                if ctx.is_cancelled():
                    return None
                if not child.is_alive() and not receive.poll(0):
                    child.join(_JOIN_S)
                    return NotRead(f"the look at the memory ended ({child.exitcode})")
            try:
                answer = receive.recv()
            except EOFError:
                child.join(_JOIN_S)
                return NotRead(f"the look at the memory ended ({child.exitcode})")
        finally:
            receive.close()
            if child.is_alive():
                child.terminate()
            child.join(_JOIN_S)
        return answer if isinstance(answer, TrustReport | NotRead) else NotRead(str(answer))


def _look(root: str, env: Mapping[str, str] | None, send: Connection) -> None:
    """In the child: the look, its answer sent back (a failure in words)."""
    # lazy: in the child only — the engines, ~20 MiB of a 3,000-file window settled,
    # never load in the window
    from memtab.trust.together import TrustEngines

    home = Home(Path(root))
    try:
        answer: TrustReport | NotRead = TrustEngines(home, env=env).find(kept=load_kept(home))
    except HomeError as error:
        answer = NotRead(str(error))
    except Exception as error:
        logger.exception("The look at the memory failed")
        answer = NotRead(f"{type(error).__name__}: {error}")
    send.send(answer)
    send.close()


class PlaceFiles:
    """Each place's memory file — a mux file through a store of its workspace, another
    agent's through its source as discovered now — the registry and sources read once."""

    def __init__(self, home: Home, env: Mapping[str, str] | None = None) -> None:
        self._home = home
        self._env = env
        self._registry: Registry | None = None
        self._discovery: Discovery | None = None

    @property
    def registry(self) -> Registry:
        if self._registry is None:
            self._registry = load_registry(self._home)
        return self._registry

    def workspace_of(self, project: str | None) -> Workspace | None:
        """A workspace of `project` (None: any, for global memory)."""
        workspaces = self.registry.workspaces
        if project is None:
            return workspaces[0] if workspaces else None
        return next((w for w in workspaces if w.project_path == project), None)

    def store_of(self, project: str | None) -> MemoryStore | None:
        workspace = self.workspace_of(project)
        if workspace is None and project is not None:
            return None
        return MemoryStore(self._home, workspace)

    def open(self, place: MemoryPlace) -> MemoryFile | None:
        try:
            ref = parse_file_ref(place.path)
        except (PathError, SourceError):
            return None
        store = None
        if place.agent == "mux":
            workspace = (
                self.registry.workspace(place.workspace)
                if place.workspace
                else self.workspace_of(place.project if place.scope == "project" else None)
            )
            if workspace is None and place.scope != "global":
                return None
            store = MemoryStore(self._home, workspace)
        return open_memory_file(ref, self._home, store=store, find_agent_file=self._find)

    def _find(self, wanted: MemoryFileRef) -> tuple[Source, SourceFile] | None:
        if self._discovery is None:
            self._discovery = discover(SourceContext.load(self._home, env=self._env))
        try:
            return find_file(self._discovery, wanted.key)
        except SourceError:
            return None


def combine_lines(
    home: Home, stack: UndoStack, group: DuplicateGroup, choice: CombineChoice, _ctx: JobContext
) -> OpResult:
    """Combine a rule `group` into `choice` (`components.trust.changes.combine_lines`)."""
    files = PlaceFiles(home)
    try:
        return changes.combine_lines(stack, group, choice, files.open)
    except HomeError as error:
        return OpResult.failed("Combining failed", error)


def combine_files(
    home: Home,
    stack: UndoStack,
    proposal: CombineProposal,
    choice: CombineChoice,
    text: str,
    _ctx: JobContext,
) -> OpResult:
    """Combine `proposal`'s files into `choice`, given the `text` the user accepted
    (`components.trust.changes.combine_files`)."""
    files = PlaceFiles(home)
    try:
        return changes.combine_files(
            stack, proposal.members, choice, text, files.open, files.store_of(None)
        )
    except HomeError as error:
        return OpResult.failed("Combining failed", error)


def move(home: Home, stack: UndoStack, leak: Leak, _ctx: JobContext) -> OpResult:
    """Move `leak` where it belongs (`components.trust.changes.move`)."""
    files = PlaceFiles(home)
    try:
        return changes.move(stack, leak, files.open, files.store_of)
    except HomeError as error:
        return OpResult.failed("Moving failed", error)


@dataclass(frozen=True)
class SideBySide:
    """The two files of a contradiction as they are now (None: unreadable, and why)."""

    contradiction: Contradiction
    first: str | None
    second: str | None
    problem: str = ""


def read_side_by_side(home: Home, found: Contradiction, _ctx: JobContext) -> SideBySide:
    """Read both files of `found`."""
    files = PlaceFiles(home)
    texts: list[str | None] = []
    problems: list[str] = []
    for side in (found.first, found.second):
        try:
            file = files.open(side.place)
            texts.append(file.read().content if file is not None else None)
            if file is None:
                problems.append(f"{side.place.path} cannot be reached")
        except (MemoryFileError, HomeError, OSError) as error:
            texts.append(None)
            problems.append(f"{side.place.path}: {error}")
    return SideBySide(found, texts[0], texts[1], "; ".join(problems))


def propose_combine(
    home: Home, group: DuplicateGroup, _ctx: JobContext
) -> CombineProposal | OpResult:
    """What Combine proposes for `group`'s files, or why it cannot (a file changed since the
    finding, or one Memtab may not change); kept by default: the one Consolidate now keeps."""
    files = PlaceFiles(home)
    members: list[CombineMember] = []
    try:
        for place in group.members:
            file = files.open(place)
            if file is None:
                return OpResult("Cannot combine", error=f"{place.path} cannot be reached")
            if file.read_only_reason is not None:
                return OpResult("Cannot combine", error=f"{place.path}: {file.read_only_reason}")
            text, sha = current_text(file, place)
            pinned, uses = _usage(file)
            described = bool(description_from_text(description_prefix(text)))
            members.append(CombineMember(place, text, sha, described, uses, pinned))
    except (SaveConflictError, MemoryFileError, MemoryStoreError, HomeError, OSError) as error:
        return OpResult.failed("Cannot combine", error)
    return proposal_of(group, members)


def proposal_of(group: DuplicateGroup, members: Sequence[CombineMember]) -> CombineProposal:
    """What Combine proposes for `group`'s files as read (`members`): the one kept by
    default and, for each kept, the review's texts."""
    keeper = min(
        range(len(members)),
        key=lambda i: keeper_rank(
            path=members[i].place.path,
            pinned=members[i].pinned,
            described=members[i].described,
            uses=members[i].uses or 0,
            content_count=len(content_lines(members[i].text)),
        ),
    )
    reviews = tuple(_review(members, kept) for kept in range(len(members)))
    return CombineProposal(group, tuple(members), keeper, reviews)


def combined_text(kept: str, others: Sequence[str]) -> str:
    """`kept` with every content line `others` hold that it lacks, once: Consolidate now's
    merge (`carry_into`) unless it would drop a line of theirs, else every line of each
    under `kept`'s frontmatter (`merge_union`); and their first description if it has none."""
    text = _carried(kept, others)
    if not description_from_text(description_prefix(kept)):
        said = next((d for o in others if (d := full_description(o))), "")
        if said:
            described = with_description(list(split_lines(text)), Description(said, "its copy"))
            if described is not None:
                text = "\n".join(described) + ("\n" if text.endswith("\n") else "")
    return text


def _carried(kept: str, others: Sequence[str]) -> str:
    carried = carry_into(split_lines(kept), [split_lines(other) for other in others])
    if carried is not None:
        text = "\n".join(carried.lines) + ("\n" if kept.endswith("\n") or not kept else "")
        held = content_lines(text)
        if all(content_lines(other) <= held for other in others):
            return text
    span = find_frontmatter(kept)
    head, body = (kept[: span.end], kept[span.end :]) if span is not None else ("", kept)
    for other in others:
        other_span = find_frontmatter(other)
        body = merge_union(body, other[other_span.end :] if other_span is not None else other)
    return head + body


def _review(members: Sequence[CombineMember], kept: int) -> ThreeWayTexts:
    """The review's texts with `kept` kept: it as "mine", the others as "theirs" (one after
    another, each under its name, when there are several), the combined text to keep."""
    others = [m for i, m in enumerate(members) if i != kept]
    if len(others) == 1:
        theirs = others[0].text
    else:
        theirs = "\n".join(f"──── {m.name} ────\n{m.text.rstrip()}\n" for m in others)
    texts = three_way_texts(None, encode_utf8(members[kept].text), encode_utf8(theirs))
    draft = combined_text(members[kept].text, [m.text for m in others])
    return replace(texts, draft=draft, clean=True, both=draft)


def _usage(file: MemoryFile) -> tuple[bool, int | None]:
    """A mux file's pin and uses (memory-meta.json); another agent's has neither (its uses
    are not counted: None)."""
    if not isinstance(file, MuxFile):
        return False, None
    entry = file.store.meta_entries().get(file.store.meta_key(file.path))
    return (entry.pinned, entry.access_count) if entry is not None else (False, 0)
