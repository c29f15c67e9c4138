"""Memory every agent can trust, in the window, off the GUI thread: the look for the three
questions in a child process (`WindowTrust`); what an action would write, read and proposed
for its review (`propose_combine`, `propose_move`), then written as accepted (`write`);
Compare's files (`read_compared`) and Ask the model (`ask_model`) — each place opened as its
file (`PlaceFiles`)."""

from __future__ import annotations

import functools
import logging
import multiprocessing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from pathlib import Path

from memtab.components.files.ops import OpResult
from memtab.components.files.undo import UndoStack
from memtab.components.jobs import JobContext
from memtab.components.merge import ThreeWayTexts, three_way_texts
from memtab.components.text_diff import DiffResult, compute_diff
from memtab.components.trust import changes
from memtab.components.trust.changes import (
    current_text,
    move_target,
    without_line,
    without_secret_line,
)
from memtab.components.trust.compare import (
    OFFLINE,
    Comparable,
    Compared,
    ComparedSide,
    Judged,
    compared_places,
)
from memtab.components.trust.review import (
    CombineChoice,
    CombineMember,
    FileKey,
    Proposal,
    ReadFile,
    Reviewed,
    combine_choices,
    file_key,
    files_review,
    lines_review,
    move_review,
    side_labels,
)
from memtab.consolidation.offline.combine import carry_into, keeper_rank
from memtab.consolidation.offline.describe import Description, with_description
from memtab.consolidation.offline.inputs import split_lines
from memtab.file_protocol.file_ref import MemoryFileRef, SourceError, parse_file_ref
from memtab.file_protocol.memory_file import MemoryFile, MemoryFileError, MuxFile
from memtab.fs.atomic import encode_utf8
from memtab.fs.config.settings_file import SettingsFileError
from memtab.llm.settings import resolve_provider_settings
from memtab.llm.types import ProviderError
from memtab.redact import redact_secrets
from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover
from memtab.sources.listing import find_file
from memtab.sources.model import Discovery, Source, SourceFile
from memtab.sources.open_file import open_memory_file
from memtab.store.home import Home, HomeError
from memtab.store.paths import PathError, Scope, parse_file_path
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
from memtab.trust.contradictions.records import ContradictionsReport
from memtab.trust.duplicates.kept import load_kept
from memtab.trust.duplicates.records import DuplicateGroup, DuplicatesReport
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


def write(
    home: Home, stack: UndoStack, reviewed: Reviewed, text: str | None, _ctx: JobContext
) -> OpResult:
    """Write what the user accepted in `reviewed` (`components.trust.changes.write_reviewed`;
    `text`: the edited file's text)."""
    files = PlaceFiles(home)
    try:
        return changes.write_reviewed(stack, reviewed, text, files.open, files.store_of)
    except HomeError as error:
        return OpResult.failed(f"{reviewed.action} failed", error)


def read_compared(home: Home, found: Comparable, _ctx: JobContext) -> Compared:
    """`found`'s places to compare (`compare.compared_places`), each file read now."""
    files = PlaceFiles(home)
    shown = compared_places(found)
    sides: list[ComparedSide] = []
    problems: list[str] = []
    for side in shown.sides:
        text: str | None = None
        try:
            file = files.open(side.place)
            if file is None:
                problems.append(f"{side.place.path} cannot be reached")
            else:
                text = file.read().content
        except (MemoryFileError, HomeError, OSError) as error:
            problems.append(f"{side.place.path}: {error}")
        sides.append(replace(side, text=text))
    return replace(shown, sides=tuple(sides), problem="; ".join(problems))


def configured_model(_ctx: JobContext) -> str:
    """The name of the model the user configured ("" when none is, or the settings cannot
    be read): what Ask the model asks."""
    try:
        settings = resolve_provider_settings()
    except (SettingsFileError, ProviderError):
        return ""
    return "" if settings.is_offline else settings.model


def ask_model(home: Home, found: Comparable, ctx: JobContext) -> Judged | OpResult:
    """What the user's model says of the candidate `found` (`trust.judging`: its answer kept
    by content, a model failing its control pairs not trusted), or why it was not asked."""
    try:
        settings = resolve_provider_settings()
    except (SettingsFileError, ProviderError) as error:
        return OpResult.failed("Cannot ask the model", error)
    if settings.is_offline:
        return OpResult("Cannot ask the model", error="no model is set (File → Settings)")
    said: dict[str, tuple[str, ...]] = {}
    if isinstance(found, DuplicateGroup) and not all(m.text for m in found.members):
        read = read_compared(home, found, ctx)  # whole files: their texts are what is judged
        if read.problem:
            return OpResult("Cannot ask the model", error=read.problem)
        said[found.key] = tuple(side.text or "" for side in read.sides)
    # lazy: the judge and the engines' readers it stands on (40 modules, 0.5 s of CPU
    # after the settled window's, at load 10) load in the window only once a user asks
    from memtab.trust.judging import asking, contradictions, duplicates

    judge = asking.ModelJudge(home, settings, cancel=ctx.cancel_event)
    yes: Sequence[Comparable]
    no: Sequence[Comparable]
    try:
        if isinstance(found, DuplicateGroup):
            report = DuplicatesReport(candidates=(found,))
            groups = duplicates.judge_duplicates(report, judge, said)
            yes, no, note = groups.groups, groups.dismissed, groups.judged
        else:
            asked = ContradictionsReport(candidates=(found,))
            pairs = contradictions.judge_contradictions(asked, judge)
            yes, no, note = pairs.contradictions, pairs.dismissed, pairs.judged
    finally:
        judge.close()
    for confirmed, judged in [*((True, one) for one in yes), *((False, one) for one in no)]:
        if judged.judged_by != OFFLINE:
            return Judged(found, confirmed, judged.reason, judged.judged_by, note)
    return Judged(found, None, model=settings.model, note=note)


def propose_combine(home: Home, group: DuplicateGroup, ctx: JobContext) -> Proposal | OpResult:
    """What Combine proposes for `group`, a review for each place it can be kept, or why it
    cannot (a file changed since the finding): for a rule, each file without the lines that
    say the kept line's text; for whole files, the combined text (kept by default: the file
    Consolidate now keeps) and the others removed — none of them read-only."""
    files = PlaceFiles(home)
    read: dict[FileKey, ReadFile] = {}
    members: list[CombineMember] = []
    try:
        for place in group.members:
            file = files.open(place)
            if file is None:
                return OpResult("Cannot combine", error=f"{place.path} cannot be reached")
            refused = file.read_only_reason or ""
            if refused and group.kind != "rule":
                return OpResult("Cannot combine", error=f"{place.path}: {refused}")
            text, sha = current_text(file, place)
            read.setdefault(file_key(place), ReadFile(text, sha, refused))
            if group.kind != "rule":
                pinned, uses = _usage(file)
                described = bool(description_from_text(description_prefix(text)))
                members.append(CombineMember(place, text, sha, described, uses, pinned))
    except (SaveConflictError, MemoryFileError, MemoryStoreError, HomeError, OSError) as error:
        return OpResult.failed("Cannot combine", error)
    if group.kind == "rule":
        return lines_proposal(group, read, ctx)
    return proposal_of(group, members, ctx)


def lines_proposal(
    group: DuplicateGroup, read: Mapping[FileKey, ReadFile], ctx: JobContext | None = None
) -> Proposal:
    """Combine's reviews of the rule `group` (`review.lines_review`), one for each member
    kept: first the one that takes out most lines with fewest sessions losing one."""
    differ = _differ(ctx)
    reviews = [
        lines_review(group, kept, read, without_line, differ) for kept in range(len(group.members))
    ]
    reviews.sort(key=lambda r: (bool(r.refused), -_changed(r), len(r.moves)))
    return Proposal("Combine duplicates", group, tuple(reviews))


def _changed(reviewed: Reviewed) -> int:
    return sum(change.changes for change in reviewed.files)


def _differ(ctx: JobContext | None) -> Callable[[str, str], DiffResult]:
    """The differences shown in a review, each pair of texts worked out once."""
    return functools.lru_cache(maxsize=None)(functools.partial(_diff, ctx))


def _diff(ctx: JobContext | None, old: str, new: str) -> DiffResult:
    return compute_diff(old, new, ctx)


def propose_move(home: Home, leak: Leak, ctx: JobContext) -> Proposal | OpResult:
    """What Move proposes for `leak` (`review.move_review`), or why it cannot: its file
    changed since the finding, or cannot be reached."""
    place = leak.place
    if move_target(leak) is None:  # another agent's memory, or nowhere in mux's to go
        return OpResult("Cannot move", error=f"{place.path}: nowhere Memtab can move it")
    files = PlaceFiles(home)
    try:
        file = files.open(place)
        if file is None:
            return OpResult("Cannot move", error=f"{place.path} cannot be reached")
        text, sha = current_text(file, place)
        target: MemoryPlace | None = None
        after: str | None = None
        if leak.kind == "secret":
            after = without_secret_line(text, place)
        else:
            relative = parse_file_path(place.path).relative
            target = MemoryPlace(
                path=f"/memories/{Scope.PROJECT.value}/{relative}",
                agent="mux",
                scope="project",
                project=leak.belongs_to,
            )
    except (
        SaveConflictError,
        MemoryFileError,
        MemoryStoreError,
        HomeError,
        PathError,
        OSError,
    ) as error:
        return OpResult.failed("Cannot move", error)
    differ = _differ(ctx)
    if leak.kind == "secret":  # its line shown as the finding shows it: redacted
        differ = functools.partial(_redacted_diff, differ)
    reviewed = move_review(
        leak, ReadFile(text, sha, file.read_only_reason or ""), after, target, differ
    )
    title = "Take the secret's line out" if leak.kind == "secret" else "Move to its project"
    return Proposal(title, leak, (reviewed,))


def _redacted_diff(differ: Callable[[str, str], DiffResult], old: str, new: str) -> DiffResult:
    found = differ(old, new)
    lines = tuple(replace(line, text=redact_secrets(line.text)) for line in found.lines)
    return replace(found, lines=lines)


def proposal_of(
    group: DuplicateGroup, members: Sequence[CombineMember], ctx: JobContext | None = None
) -> Proposal:
    """What Combine proposes for `group`'s whole files as read (`members`): a review for each
    place to keep them, the file Consolidate now keeps first."""
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
    differ = _differ(ctx)
    removals = [differ(member.text, "") for member in members]
    choices = combine_choices(group)
    for index, member in enumerate(members):
        choices[index] = CombineChoice(f"{choices[index].label} · {member.facts()}", index)
    order = [keeper, *(i for i in range(len(choices)) if i != keeper)]
    reviews = []
    for choice in (choices[i] for i in order):
        texts = _review(members, keeper if choice.member is None else choice.member)
        labelled = replace(texts, labels=side_labels(members, choice, keeper))
        reviews.append(files_review(group, members, choice, labelled, removals))
    return Proposal("Combine duplicates", group, tuple(reviews))


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
