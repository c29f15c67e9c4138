"""Blame a file, mux's or another agent's, for the CLI and the window's workers; the walk over
versions is cached per file and newest version, so blaming again costs only the attribution: who a
version is, in blame's words (docs/formats.md §20.2)."""

from __future__ import annotations

import bisect
import functools
import hashlib
import math
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from memtab.blame.lines import carry, carry_from, lines_of, normalized, step
from memtab.blame.records import (
    MUX,
    UNKNOWN,
    XUM,
    AdHocNote,
    AdHocNoteSource,
    Blame,
    BlameLine,
    ConsolidationSource,
    TranscriptSource,
    XumToolCallSource,
)
from memtab.blame.records import Source as BlameSource
from memtab.file_protocol.file_ref import SourceError
from memtab.file_protocol.memory_file import MemoryFile, MuxFile
from memtab.fs.clock import now_ms
from memtab.sources.agent_file import AgentFile, SourceVersions
from memtab.sources.config import SourceContext
from memtab.sources.content import read_source_file
from memtab.sources.discovery import discover
from memtab.sources.layouts import CODEX_NOTES_DIR
from memtab.sources.listing import MAX_FILES_PER_SOURCE, find_file, source_file
from memtab.sources.model import Layout, Source, SourceFile
from memtab.store.actors import BEFORE_MEMTAB, EXTERNAL
from memtab.store.errors import NotFoundError
from memtab.store.history.blobs import BlobError, BlobStore
from memtab.store.history.provenance import ProvenanceLog
from memtab.store.history.records import KeptFrom, NoteOrigin, ProvenanceRecord, RunEntry
from memtab.store.history.runs import MUX_SOURCE, RunsLog
from memtab.store.history.versions import Version
from memtab.store.history.xum_journal import XumJournal
from memtab.store.home import Home
from memtab.store.paths import PathError, Scope, parse_file_path
from memtab.store.restore.from_history import file_history, text_of
from memtab.store.scopes.memory import MemoryStore
from memtab.traces.names import parse_trace_file_name, trace_file_name

OLDER = -1
"""The owner of lines older than the history Memtab still keeps."""
_BROUGHT_BACK = ("restore", "revert")


@dataclass(frozen=True)
class Owners:
    """Each line of a text and the chain index of the version that introduced it (`OLDER`, or
    `pending` for a change history has not recorded yet)."""

    lines: tuple[str, ...]
    owners: tuple[int, ...]
    pending: int


def _targets(chain: Sequence[Version]) -> dict[int, int]:
    """For each restore or revert in the chain, the index of the version it brought back."""
    by_id = {version.id: index for index, version in enumerate(chain)}
    targets: dict[int, int] = {}
    for index, version in enumerate(chain):
        if version.op not in _BROUGHT_BACK or version.deleted:
            continue
        target: int | None = None
        if version.restored_from is not None:
            target = by_id.get(version.restored_from)
        elif version.revert_of is not None:
            first = next((i for i in range(index) if chain[i].run_id == version.revert_of), None)
            target = first - 1 if first is not None and first > 0 else None
        if target is None or target >= index or chain[target].sha256 != version.sha256:
            target = next(
                (
                    i
                    for i in range(index - 1, -1, -1)
                    if chain[i].sha256 == version.sha256 and not chain[i].deleted
                ),
                None,
            )
        if target is not None:
            targets[index] = target
    return targets


def owners_of(
    chain: Sequence[Version], load: Callable[[str], str | None], current: str | None = None
) -> Owners:
    """The owners of the lines of the file's text now; `load(sha256)` gives a version's
    `normalized` text (None: lost)."""
    targets = _targets(chain)
    saved: dict[int, tuple[list[str], list[int]]] = {}
    wanted = set(targets.values())
    text: str | None = None
    lines: list[str] = []
    owners: list[int] = []
    for index, version in enumerate(chain):
        if version.deleted:
            if index in wanted and text is not None:
                saved[index] = (lines, owners)  # a restore from the trash brings this back
            text, lines, owners = None, [], []
            continue
        loaded = load(version.sha256)
        if loaded is None:
            continue
        target = saved.get(targets[index]) if index in targets else None
        if text is not None and target is None:
            lines, owners = step(text, lines, owners, loaded, index)
        else:
            new = lines_of(loaded)
            if text is None and index == 0 and (version.prev_sha256 or version.op == "move"):
                before = load(version.prev_sha256) if version.prev_sha256 else None
                base = lines_of(before) if before is not None else new
                owners = carry(base, [OLDER] * len(base), new, index)
            elif target is not None and text is not None:
                owners = carry_from(target, (lines, owners), new, index)
            elif target is not None:
                owners = carry(target[0], target[1], new, index)
            else:
                owners = [index] * len(new)
            lines = new
        text = loaded
        if index in wanted:
            saved[index] = (lines, owners)
    pending = len(chain)
    if current is not None and current != text:
        if text is None:
            lines = lines_of(current)
            owners = [pending] * len(lines)
        else:
            lines, owners = step(text, lines, owners, current, pending)
    return Owners(tuple(lines), tuple(owners), pending)


MAX_RUN_MS = 60 * 60 * 1000
"""The longest a consolidation run of mux's is taken to last (its changes fall within)."""
CLOCK_SLACK_MS = 5_000
"""How far a file's time may be past its run's end (clocks, the journal written last)."""
_MANUAL_TRIGGER = "manual"


@dataclass(frozen=True)
class FileContext:
    """What attribution knows of the file besides its versions."""

    agent: str | None = None
    """The agent that owns another agent's file (None: a mux memory file)."""
    workspace_id: str | None = None
    project_path: str | None = None
    mtime_ms: int | None = None
    """The file's modification time now."""


@dataclass(frozen=True)
class _Origin:
    """What one owner (a version, `OLDER` or pending) says about the lines it owns."""

    actor: str
    at: int
    run_id: str | None = None
    version: str | None = None
    source: BlameSource | None = None
    notes: dict[str, _Noted] = field(default_factory=dict)
    """Lines a note wrote, by their text: each line's own attribution."""


@dataclass(frozen=True)
class _Noted:
    actor: str
    run_id: str | None
    source: BlameSource | None
    at: int | None = None
    """When its author wrote it, when that is not the version's time."""


class Attributor:
    """Says who each owner of a file's lines is (see the module doc)."""

    def __init__(self, home: Home, chain: Sequence[Version], context: FileContext) -> None:
        self.home = home
        self.chain = chain
        self.context = context
        self._origins: dict[int, _Origin] = {}
        self._dumps: dict[tuple[str | None, str | None, str | None], str | None] = {}

    def lines(self, owned: Owners) -> list[BlameLine]:
        """Every line with who introduced it."""
        result: list[BlameLine] = []
        for number, (text, owner) in enumerate(zip(owned.lines, owned.owners, strict=True), 1):
            origin = self._origin(owner, owned.pending)
            noted = origin.notes.get(text)
            result.append(
                BlameLine(
                    line=number,
                    text=text,
                    actor=noted.actor if noted else origin.actor,
                    at=noted.at if noted and noted.at is not None else origin.at,
                    run_id=noted.run_id if noted else origin.run_id,
                    version=origin.version,
                    source=noted.source if noted else origin.source,
                )
            )
        return result

    # --- owners -------------------------------------------------------------------------

    def _origin(self, owner: int, pending: int) -> _Origin:
        if owner not in self._origins:
            self._origins[owner] = self._describe(owner, pending)
        return self._origins[owner]

    def _describe(self, owner: int, pending: int) -> _Origin:
        agent = self.context.agent
        if owner == OLDER:
            return _Origin(UNKNOWN, self.chain[0].at if self.chain else self._file_time())
        if owner == pending:
            return _Origin(agent or EXTERNAL, self._file_time())
        version = self.chain[owner]
        if version.actor == MUX and agent is None:  # the recorder's word for xum's tool (§14.5)
            return self._xum_call(version) or self._with_provenance(version)
        if version.actor == EXTERNAL:
            if agent is not None:
                return _Origin(agent, self._found_at(owner), version=version.id)
            return self._external(owner)
        if version.actor == "consolidator":
            source = self._consolidation(version)
            return _Origin(version.actor, version.at, version.run_id, version.id, source)
        return self._with_provenance(version)

    def _file_time(self) -> int:
        return self.context.mtime_ms if self.context.mtime_ms is not None else now_ms()

    def _first_sight(self, owner: int) -> bool:
        """Whether the version is what a file held when Memtab first saw it."""
        version = self.chain[owner]
        return version.op == "seen" or (owner == 0 and version.prev_sha256 is None)

    def _found_at(self, owner: int) -> int:
        """When an `external` version's lines were written: its time, but no newer than the
        file's mtime when first seen (docs/formats.md §14.2)."""
        version = self.chain[owner]
        if not self._first_sight(owner) or version.stat is None:
            return version.at
        mtime_ms = version.stat[1] // 1_000_000
        return min(version.at, mtime_ms) if mtime_ms >= 1 else version.at

    # --- consolidation ------------------------------------------------------------------

    @functools.cached_property
    def _runs(self) -> dict[str, RunEntry]:
        return {run.id: run for run in RunsLog(self.home).file.records()}

    def _consolidation(self, version: Version) -> ConsolidationSource | None:
        if version.run_id is None:
            return None
        run = self._runs.get(version.run_id)
        for index, op in enumerate(run.ops if run is not None else ()):
            if any(file.after_version == version.id for file in op.files):
                return ConsolidationSource(
                    run_id=version.run_id,
                    op=op.command,
                    op_index=index,
                    path=op.path,
                    reason=op.note,
                )
        return ConsolidationSource(run_id=version.run_id)

    @functools.cached_property
    def _xum(self) -> XumJournal:
        return XumJournal(self.home)

    def _xum_call(self, version: Version) -> _Origin | None:
        """The xum tool call xum's own undo journal says left this version, if any."""
        if version.deleted:
            return None
        edit = self._xum.edit_for(version.path, version.sha256, version.at)
        if edit is None:
            return None
        called = XumToolCallSource(
            workspace_id=edit.workspace_id,
            op=edit.op,
            event_id=edit.event_id,
            tool_name=edit.tool_name,
            tool_call_id=edit.tool_call_id,
            actor=edit.actor,
        )
        return _Origin(XUM, edit.at, version=version.id, source=called)

    def _external(self, owner: int) -> _Origin:
        version = self.chain[owner]
        called = self._xum_call(version)
        if called is not None:
            return called
        first_sight = self._first_sight(owner)
        found = self._mux_run(owner, first_sight=first_sight)
        if found is not None:
            run, index = found
            op = run.ops[index]
            source = ConsolidationSource(
                run_id=run.id, by="mux", op=op.command, op_index=index, path=op.path, reason=op.note
            )
            return _Origin(MUX, run.at, run.id, version.id, source)
        actor = BEFORE_MEMTAB if first_sight else EXTERNAL
        return _Origin(actor, self._found_at(owner), version=version.id)

    @functools.cached_property
    def _mux_runs(self) -> tuple[list[int], list[RunEntry]]:
        """mux's consolidation runs, oldest first, and their times (to bisect)."""
        runs = sorted(
            (
                r
                for r in self._runs.values()
                if r.source == MUX_SOURCE and r.kind == "consolidation"
            ),
            key=lambda run: run.at,
        )
        return [run.at for run in runs], runs

    def _mux_run(self, owner: int, *, first_sight: bool) -> tuple[RunEntry, int] | None:
        """mux's consolidation run (and the index of its op) that made this version."""
        version = self.chain[owner]
        after = self.chain[owner - 1].at if owner > 0 else None
        mtime = version.stat[1] // 1_000_000 if version.stat is not None else None
        times, runs = self._mux_runs
        start = bisect.bisect_right(times, after) if after is not None else 0
        best: tuple[RunEntry, int] | None = None
        for run in runs[start : bisect.bisect_right(times, version.at)]:
            if mtime is not None and not run.at - MAX_RUN_MS <= mtime <= run.at + CLOCK_SLACK_MS:
                continue
            if first_sight and mtime is None:
                continue  # nothing says the file is as the run left it
            index = self._op_on(run, version.path, creating=first_sight)
            newer = best is None or run.at > best[0].at
            if index is not None and newer and self._concerns(run, version.path):
                best = (run, index)
        return best

    @staticmethod
    def _op_on(run: RunEntry, path: str, *, creating: bool) -> int | None:
        for index, op in enumerate(run.ops):
            if op.applied and (
                (op.path == path and (not creating or op.command == "create"))
                or (op.new_path == path and (not creating or op.command == "rename"))
            ):
                return index
        return None

    def _concerns(self, run: RunEntry, path: str) -> bool:
        """Whether a run's paths are this file's: its workspace's, or its project's."""
        try:
            scope = parse_file_path(path).scope
        except PathError:
            return False
        if scope is Scope.GLOBAL:
            return True
        same_workspace = (
            run.workspace_id is not None and run.workspace_id == self.context.workspace_id
        )
        if scope in (Scope.WORKSPACE, Scope.SESSION):
            return same_workspace
        project = self.context.project_path
        return same_workspace or (project is not None and run.project_path == project)

    # --- provenance ---------------------------------------------------------------------

    @functools.cached_property
    def _provenance(self) -> dict[str, list[ProvenanceRecord]]:
        if not self.home.provenance_log_path.exists():
            return {}
        return ProvenanceLog(self.home).by_version()

    def _with_provenance(self, version: Version) -> _Origin:
        records = self._provenance.get(version.id, [])
        notes: dict[str, _Noted] = {}
        source: BlameSource | None = None
        for record in records:
            if record.kept_from is not None:
                notes.update(self._kept(record.kept_from))
            for note in record.notes:
                notes[note.line] = self._noted(version, record, note)
            if record.window is not None and not record.notes:
                source = TranscriptSource(
                    workspace_id=record.workspace_id,
                    message_ids=record.window.message_ids,
                    drawn_from="window",
                    transcript_path=record.window.transcript_path,
                    run_id=record.run_id,
                    trace_dump=self._dump(record.run_id, record.workspace_id, record.trace_dump),
                )
        if source is None and not records and version.actor == "writer":
            source = self._trigger(version)
        return _Origin(version.actor, version.at, version.run_id, version.id, source, notes)

    def _kept(self, kept: KeptFrom) -> dict[str, _Noted]:
        """The lines of a conflict's other side, which a resolution kept: its author's."""
        try:
            text = BlobStore(self.home.history_blobs_dir).get(kept.sha256)
        except BlobError:
            return {}  # pruned or damaged: the lines stay the resolution's
        noted = _Noted(kept.actor, None, None, kept.at)
        return dict.fromkeys(lines_of(normalized(text.decode("utf-8", "replace"))), noted)

    def _noted(self, version: Version, record: ProvenanceRecord, note: NoteOrigin) -> _Noted:
        run_id = note.run_id or record.run_id
        workspace_id = note.workspace_id or record.workspace_id
        named = record.trace_dump if run_id == record.run_id else None
        source = TranscriptSource(
            workspace_id=workspace_id,
            message_ids=note.message_ids,
            drawn_from="note",
            transcript_path=note.transcript_path,
            run_id=run_id,
            trace_dump=self._dump(run_id, workspace_id, named),
            suggestion_id=note.suggestion_id,
            edited=note.edited,
        )
        if note.suggestion_id is None:
            return _Noted(version.actor, version.run_id, source)
        # An accepted suggestion: the writer's words, unless the user changed them.
        return _Noted("user" if note.edited else "writer", run_id, source)

    def _trigger(self, version: Version) -> TranscriptSource | None:
        """A writer run without provenance: the message that started it, if known."""
        run = self._runs.get(version.run_id) if version.run_id else None
        if run is None or run.kind != "writer":
            return None
        trigger = () if run.trigger in ("", _MANUAL_TRIGGER) else (run.trigger,)
        return TranscriptSource(
            workspace_id=run.workspace_id,
            message_ids=trigger,
            drawn_from="trigger",
            run_id=run.id,
            trace_dump=self._dump(run.id, run.workspace_id, None),
        )

    def _dump(self, run_id: str | None, workspace_id: str | None, named: str | None) -> str | None:
        """The file name of a writer run's trace dump while it exists."""
        key = (run_id, workspace_id, named)
        if key not in self._dumps:
            self._dumps[key] = self._find_dump(*key)
        return self._dumps[key]

    def _find_dump(
        self, run_id: str | None, workspace_id: str | None, named: str | None
    ) -> str | None:
        run = self._runs.get(run_id) if run_id else None
        workspace_id = workspace_id or (run.workspace_id if run is not None else None)
        if workspace_id is None:
            return None
        candidates = [named] if named else []
        if run is not None and run.kind == "writer" and run.started_at is not None:
            candidates.append(trace_file_name(run.started_at, run.trigger))
        if not _plain_name(workspace_id):
            return None
        folder = self.home.trace_dir(workspace_id)
        for name in candidates:
            if _plain_name(name) and parse_trace_file_name(name) and os.path.isfile(folder / name):
                return name
        return None


def _plain_name(name: str) -> bool:
    """A name that stays in its folder (the log is a file anyone may have edited)."""
    return bool(name) and name not in (".", "..") and "/" not in name and "\\" not in name


TAG = "[ad-hoc note]"
MAX_NOTES_NAMED = 3
MIN_SHARED = 2
MIN_SHARE = 1 / 3
"""Of the line's own words, the part a note must share."""

_TAGS = re.compile(r"\[(?:ad-hoc note|task \d+)\]", re.IGNORECASE)
_WORD = re.compile(r"\w+")
_SPACELESS = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\u3040-\u30ff]")
_COMMON = frozenset(
    {"the", "and", "for", "with", "that", "this", "not", "are", "was", "were", "you", "your"}
    | {"from", "into", "when", "then", "than", "have", "has", "had", "but", "all", "any"}
    | {"its", "use", "used", "can", "will", "should", "must"}
)


@dataclass(frozen=True)
class _Note:
    file: SourceFile
    words: frozenset[str]


def with_ad_hoc_notes(
    home: Home, source: Source, file: SourceFile, lines: Sequence[BlameLine]
) -> list[BlameLine]:
    """`lines` of a file of Codex's `memories/`, each tagged line no other source explains given
    its notes."""
    if source.layout is not Layout.CODEX_MEMORIES or file.relative.startswith("extensions/"):
        return list(lines)
    tagged = [line for line in lines if TAG in line.text.casefold() and line.source is None]
    if not tagged:
        return list(lines)
    notes = _notes(source)
    history = SourceVersions(home)
    described: dict[str, AdHocNote] = {}
    sources: dict[int, AdHocNoteSource] = {}
    for line in tagged:
        named = tuple(
            described.setdefault(note.file.id, _described(history, source, note.file))
            for note in _drawn_from(line.text, notes)
        )
        sources[line.line] = AdHocNoteSource(notes=named)
    return [
        line.replaced(source=sources[line.line]) if line.line in sources else line for line in lines
    ]


def words(text: str) -> frozenset[str]:
    """The words a line and a note are compared by: words of three letters or more but the
    commonest, tags left out; CJK as pairs of characters."""
    found: set[str] = set()
    for word in _WORD.findall(_TAGS.sub(" ", text).casefold()):
        if _SPACELESS.search(word):
            found.update(word[i : i + 2] for i in range(len(word) - 1))
        elif len(word) >= 3 and word not in _COMMON and not word.isdigit():
            found.add(word)
    return frozenset(found)


def _drawn_from(text: str, notes: Sequence[_Note]) -> list[_Note]:
    own = words(text)
    if not own:
        return []
    needed = max(min(MIN_SHARED, len(own)), math.ceil(len(own) * MIN_SHARE))
    scored = [(len(own & note.words), note) for note in notes]  # newest first
    found = sorted(((s, n) for s, n in scored if s >= needed), key=lambda pair: -pair[0])
    return [note for _, note in found[:MAX_NOTES_NAMED]]


def _notes(source: Source) -> list[_Note]:
    """The notes in `extensions/ad_hoc/notes/`, newest name first, read through the source."""
    folder = source.root.joinpath(*CODEX_NOTES_DIR.split("/"))
    try:
        with os.scandir(folder) as entries:
            names = sorted(
                (e.name for e in entries if e.name.endswith(".md") and not e.name.startswith(".")),
                reverse=True,
            )[:MAX_FILES_PER_SOURCE]
    except OSError:
        return []
    notes = []
    for name in names:
        file = source_file(source, f"{CODEX_NOTES_DIR}/{name}")
        if file is None:
            continue
        try:
            text = read_source_file(source, file).text
        except SourceError:
            continue
        notes.append(_Note(file, words(text)))
    return notes


def _described(history: SourceVersions, source: Source, file: SourceFile) -> AdHocNote:
    """Who wrote a note and when: Memtab when history's first version is Memtab's, else its agent
    at the note's mtime."""
    versions = history.versions(file.id)
    first = versions[-1] if versions else None
    if first is not None and first.actor != EXTERNAL:
        return AdHocNote(id=file.id, actor=first.actor, at=first.at)
    return AdHocNote(id=file.id, actor=source.agent, at=file.modified_at_ms)


CACHE_SIZE = 32
"""Files whose owners are kept (a window blames the open file, and a few before it)."""

_cache: OrderedDict[tuple[str, ...], Owners] = OrderedDict()
_cache_lock = threading.Lock()


def blame_memory_file(store: MemoryStore, raw_path: str) -> Blame:
    """Blame a mux memory file as it is on disk (run `record_external` first). NotFoundError; the
    store's errors."""
    path = parse_file_path(raw_path)
    data = store.read_whole(path)
    if data is None:
        raise NotFoundError(f"No memory file at {path}")
    chain = list(reversed(file_history(store, path)))
    owners = _owners(store.home, str(path), chain, normalized(text_of(data)))
    workspace = store.workspace
    context = FileContext(
        workspace_id=workspace.id if workspace else None,
        project_path=store.project_path,
        mtime_ms=_mtime_ms(store, str(path)),
    )
    return Blame(path=str(path), lines=tuple(Attributor(store.home, chain, context).lines(owners)))


def blame_source_file(home: Home, source: Source, file: SourceFile) -> Blame:
    """Blame another agent's file as Memtab shows it now. SourceError."""
    shown = read_source_file(source, file)
    chain = list(reversed(SourceVersions(home).versions(file.id)))
    owners = _owners(home, file.id, chain, normalized(shown.text))
    context = FileContext(agent=source.agent, mtime_ms=file.modified_at_ms)
    lines = Attributor(home, chain, context).lines(owners)
    return Blame(path=file.id, lines=tuple(with_ad_hoc_notes(home, source, file, lines)))


def blame_file(file: MemoryFile) -> Blame:
    """Blame a memory file as the window opened it (the editor's gutter, on a worker)."""
    if isinstance(file, MuxFile):
        return blame_memory_file(file.store, str(file.path))
    if isinstance(file, AgentFile):
        return blame_source_file(file.home, file.source, file.file)
    raise TypeError(f"Cannot blame {type(file).__name__}")


def blame_file_id(home: Home, file_id: str) -> Blame:
    """Blame another agent's file by file id. SourceError when no source has it."""
    source, file = find_file(discover(SourceContext.load(home)), file_id)
    return blame_source_file(home, source, file)


def _owners(home: Home, path: str, chain: Sequence[Version], current: str) -> Owners:
    """`owners_of`, cached per file, newest version and text now."""
    digest = hashlib.sha256(current.encode("utf-8", "replace")).hexdigest()
    newest = chain[-1].id if chain else ""
    key = (str(home.root), path, newest, str(len(chain)), digest)
    with _cache_lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
    blobs = BlobStore(home.history_blobs_dir)

    def text(sha256: str) -> str | None:
        try:
            return normalized(text_of(blobs.get(sha256)))
        except BlobError:
            return None  # pruned or damaged: the walk passes over it

    owners = owners_of(chain, text, current)
    with _cache_lock:
        _cache[key] = owners
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return owners


def _mtime_ms(store: MemoryStore, path: str) -> int | None:
    try:
        return os.stat(store.physical(parse_file_path(path))).st_mtime_ns // 1_000_000
    except (OSError, PathError):
        return None
