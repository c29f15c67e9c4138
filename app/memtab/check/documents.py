"""What a check reads: every memory file, with the project it belongs to and the checkout
it is checked against (docs/formats.md §19.1).

mux's files: the global scope once, each registered project's project scope once, each
workspace's workspace scope once (`--workspace`: that workspace's three). A project file
is checked against the project's path in the registry; a workspace file against the
workspace's own checkout (its registered path: mux's worktree), else its project's.
Other agents' files (`memtab.sources`), every one of each source (the tree shows 1,000),
know their project: Claude Code's project memory
directory decodes to one, a project's instruction files and `.loki/memory` sit in it,
and an older Codex's per-directory bucket is named by a hash of its directory
(`sources.codex.source.bucket_project`). Files of no project (user-level memory, Codex's
`memories/`) are global: they are checked for links, disagreements and use, not
against any code. A reader that keeps the texts it read (`KnownTexts`: the trust
commands') is spared opening a file whose `lstat` is what it was then; a file that cannot
be read is said in `problems`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import marshal
import os
import stat
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Protocol

from memtab.check.records import Agent, FindingScope
from memtab.file_protocol.file_ref import SourceError
from memtab.file_protocol.memory_file import MemoryFile, MuxFile
from memtab.fs.memo import DIGESTED_MARSHAL, stamp_of
from memtab.sources.agent_file import AgentFile, SourceVersions
from memtab.sources.claude.recall import recall_warning
from memtab.sources.codex.imports import ImportLinks, link_imports
from memtab.sources.codex.source import bucket_project
from memtab.sources.config import SourceContext
from memtab.sources.content import read_source_file
from memtab.sources.discovery import scan
from memtab.sources.gemini.context_files import NOT_IN_INDEX_LABEL
from memtab.sources.model import FileKind, Layout, Source, SourceFile, SourceListing
from memtab.store.home import Home
from memtab.store.paths import SHARED_SCOPES, Scope, VirtualPath
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.scope_store import ScopeStore
from memtab.store.sidecars.meta import MetaEntry
from memtab.store.sidecars.registry import MULTI_PROJECT_KEY, Registry, Workspace

logger = logging.getLogger(__name__)

GLOBAL_GROUP = ""


class Origin(Protocol):
    """Where documents were read from — a scope of mux's, another agent's file: says where
    it is on disk. A scope's documents share theirs."""

    def physical(self, document: Document) -> Path | None:
        """The file on disk (None: what was checked is not the file's text, or no file)."""
        ...

    def opened(self, document: Document, home: Home) -> MemoryFile:
        """The file as a `MemoryFile` (its history, its blame)."""
        ...

    def file_path(self, document: Document) -> Path | None:
        """The file on disk, even when what was checked is its rendering (loki-mode's
        JSON as text: what `view` shows of it too); None: no file."""
        ...


@dataclass(frozen=True, slots=True)
class Document:
    """One memory file to check (see the module doc).

    `group`: whose facts it is compared with — `GLOBAL_GROUP` for memory of no project,
    else a project's (or an unknown project's) key; a workspace file is also compared
    only within its `workspace`. `link_root`: relative links must stay inside it.
    `scope_roots`: where `/memories/<scope>/…` links of a mux file resolve.
    `last_used_ms`: when an agent last read or wrote it (None: unknown, not checked for
    staleness: other agents' files). `packed`: its text, compressed (`pack_text`): a
    check holds every document it read until its report is made (the check where memory
    is recalled, until its cache is written), and Markdown shrinks 4-10×; so a document
    has slots, and what its scope shares (where it was read from:
    `origin`, the roots, the checkout) is shared, not copied.
    """

    key: str
    path: str
    agent: Agent
    scope: FindingScope
    packed: bytes
    project: str | None = None
    workspace: str | None = None
    checkout: Path | None = None
    group: str = GLOBAL_GROUP
    link_root: Path | None = None
    scope_roots: dict[str, Path] = field(default_factory=dict, compare=False)
    modified_ms: int = 0
    last_used_ms: int | None = None
    plannable: bool = False
    record: bool = False
    """A record of what happened (a session summary, an episode, a handoff): what it
    names is history, not a claim about the code now; only its links are checked."""
    history_key: str | None = None
    origin: Origin | None = field(default=None, compare=False)
    index_note: str | None = None
    """Why its agent never finds it (a note of Gemini CLI's private memory its
    `MEMORY.md` names nowhere), or None."""
    imported: str | None = None
    """What it is when it is Codex's copy of a Claude Code memory file (`imported from
    Claude Code (cwd …)`: `sources.codex.imports`), else None. Such a copy is memory of
    the project its `cwd` names (Codex: "Its `cwd` is the scope for every imported memory
    file"), never checked against its code (its original is)."""
    original: str | None = None
    """The file id of the Claude Code file a copy is of, when that is listed."""
    shared: bool = False
    """Shared with the project's collaborators (`shared_with_collaborators`)."""

    @property
    def text(self) -> str:
        """The file's text as it was read."""
        return zlib.decompress(self.packed).decode("utf-8", "surrogatepass")

    @property
    def project_name(self) -> str:
        """The name of the project's folder ("" for memory of no project)."""
        return PurePath(self.project).name if self.project else ""

    @property
    def skill(self) -> bool:
        """Whether it is a skill's `SKILL.md`: steps its agent reads only when the skill is
        invoked, each skill alone and whole — so a line two skills share is in no session
        twice, and neither can lose it."""
        origin = self.origin
        return isinstance(origin, _SourceOrigin) and origin.file.kind is FileKind.SKILL

    @property
    def recall_note(self) -> str | None:
        """Why its agent cannot recall it well (a Claude Code topic file without a
        description, `sources.claude.recall`), or None: worked out when asked (the check
        asks; the trust commands read 20,000 files and never do)."""
        origin = self.origin
        if not isinstance(origin, _SourceOrigin):
            return None
        segments = tuple(origin.file.relative.split("/"))
        return recall_warning(origin.source.layout, segments, self.text)

    @property
    def physical(self) -> Path | None:
        """The file on disk (None: not a file's own text, or no origin)."""
        return self.origin.physical(self) if self.origin is not None else None

    @property
    def file_path(self) -> Path | None:
        """The file on disk, even when what was checked is its rendering (`Origin`)."""
        return self.origin.file_path(self) if self.origin is not None else None


def pack_text(text: str) -> bytes:
    """A document's text as `Document.packed` holds it (the same text packs to the same
    bytes: a document whose bytes did not change did not change)."""
    return zlib.compress(text.encode("utf-8", "surrogatepass"), 1)


@dataclass(frozen=True)
class Collected:
    """Every document of a check, the projects they belong to, and what could not be read."""

    documents: tuple[Document, ...]
    projects: tuple[str, ...]
    problems: tuple[str, ...]


class KnownTexts(Protocol):
    """The texts of mux's files as a reader read them before (the trust commands': a
    file still as it was is not opened again): by the file's path on disk, the `lstat`
    it has now (never a link's: one is not a file as read)."""

    def recall(self, physical: str, info: os.stat_result) -> tuple[bytes, bool] | None:
        """The file's text packed (`pack_text`) and whether it was over the cap, as read
        when it was as `info` says it is now; None: read it."""
        ...

    def learn(self, physical: str, info: os.stat_result, packed: bytes, over_cap: bool) -> None:
        """The file, `lstat`ed as `info` before it was read, holds `packed`."""
        ...


def collect(
    home: Home,
    registry: Registry,
    workspace_id: str | None = None,
    *,
    sources: SourceContext | None = None,
    texts: KnownTexts | None = None,
) -> Collected:
    """The documents of a check of the whole home, or of one workspace's view of it;
    with `texts`, mux's files still as they were read before are not read again."""
    return list_memory(home, registry, workspace_id, sources=sources, texts=texts).collect(texts)


def list_memory(
    home: Home,
    registry: Registry,
    workspace_id: str | None = None,
    *,
    sources: SourceContext | None = None,
    texts: KnownTexts | None = None,
) -> Listed:
    """What `collect` reads, mux's files listed and `lstat`ed but not opened (the other
    agents' read: their documents are made of more than their files)."""
    scopes = [_listed(store, scope) for store, scope in _mux_scopes(home, registry, workspace_id)]
    problems: list[str] = []
    documents: list[Document] = []
    if sources is not None:
        chosen = registry.require_workspace(workspace_id) if workspace_id else None
        documents += _source_documents(sources, registry, chosen, problems, texts)
    return Listed(tuple(scopes), tuple(documents), tuple(problems))


class Listed:
    """The memory as listed (`list_memory`): each of mux's scopes with its files' `lstat`,
    and the other agents' documents. `stamps` says whether any file changed since a run
    that found the same; `collect` reads the rest."""

    def __init__(
        self,
        scopes: tuple[_ScopeListed, ...],
        sources: tuple[Document, ...],
        problems: tuple[str, ...],
    ) -> None:
        self._scopes = scopes
        self._sources = sources
        self._problems = problems
        shown = [listed.where for listed in scopes if listed.where is not None and listed.files]
        self.projects = frozenset(
            {w.project for w in shown if w.project} | {d.project for d in sources if d.project}
        )
        """The projects of the documents `collect` makes."""
        self.history_keys = frozenset(w.history_key for w in shown)
        """The history indexes of mux's documents (`Document.history_key`)."""
        self.other_agents = sources
        self._stamps: bytes | None = None

    def stamps(self, racy_after_ns: int) -> bytes | None:
        """A digest of everything `collect` makes its documents and problems of: each scope's
        place, each file's name, `lstat` and what the home's meta says of it, every other
        agent's document; None when a file changed after `racy_after_ns` (it may change again
        within its time's tick, git's "racily clean"), is not a regular file, or is gone:
        only its read tells. Once a digest, always that one: a file not changed after
        `racy_after_ns` is not after a later one, and the `lstat`s are the listing's."""
        if self._stamps is not None:
            return self._stamps
        digest = hashlib.blake2b(digest_size=16)
        for listed in self._scopes:
            where = listed.where
            if where is None:
                digest.update(repr(("none", listed.error)).encode("utf-8", "surrogatepass"))
                continue
            shared = (where.scope.value, where.root, sorted(where.roots.items()), where.history_key)
            placed = (where.project, where.workspace, where.checkout, where.group, listed.error)
            digest.update(repr((shared, placed)).encode("utf-8", "surrogatepass"))
            rows = []
            meta, key_of = listed.meta, where.store.meta_key
            for path, modified, info in listed.files:
                if info is None or not stat.S_ISREG(info.st_mode):
                    return None
                if max(info.st_mtime_ns, info.st_ctime_ns) >= racy_after_ns:
                    return None
                entry = meta.get(key_of(path)) if meta else None
                used = (entry.last_accessed_at, entry.last_write_at) if entry else None
                rows.append((path.segments, modified, *stamp_of(info), used))
            digest.update(marshal.dumps(rows, DIGESTED_MARSHAL))
        digest.update(repr(self._problems).encode("utf-8", "surrogatepass"))
        for document in self._sources:
            digest.update(repr(_fields_of(document)).encode("utf-8", "surrogatepass"))
        self._stamps = digest.digest()
        return self._stamps

    def collect(self, texts: KnownTexts | None = None) -> Collected:
        """The documents (mux's read, each still as `texts` holds it not opened again), the
        projects they belong to, and what could not be read."""
        problems: list[str] = []
        documents = [
            document
            for listed in self._scopes
            for document in _scope_documents(listed, problems, texts)
        ]
        documents += self._sources
        problems += self._problems
        projects = sorted({d.project for d in documents if d.project is not None})
        return Collected(tuple(documents), tuple(projects), tuple(problems))


_DOCUMENT_FIELDS = tuple(f.name for f in dataclasses.fields(Document) if f.name != "origin")


def _fields_of(document: Document) -> tuple[object, ...]:
    """Every field of a document but where it was read from (which the others say)."""
    return tuple(getattr(document, name) for name in _DOCUMENT_FIELDS)


def seen_together(one: Document, other: Document) -> bool:
    """Whether one workspace's sessions see both (global memory with everything; a
    project's with its workspaces'; a workspace's only with its own); a file is not seen
    together with itself."""
    if one.key == other.key:
        return False
    if GLOBAL_GROUP in (one.group, other.group):
        return True
    if one.group != other.group:
        return False
    return one.workspace is None or other.workspace is None or one.workspace == other.workspace


def checkout_of(path: str | None) -> Path | None:
    """The directory a project or workspace path names, if it is one on this disk."""
    if not path or path == MULTI_PROJECT_KEY or not os.path.isabs(path):
        return None
    return Path(path) if os.path.isdir(path) else None


# --- mux ------------------------------------------------------------------------------


def _mux_scopes(
    home: Home, registry: Registry, workspace_id: str | None
) -> Iterator[tuple[ScopeStore, Scope]]:
    """The scopes of mux's `collect` reads, each with its store."""
    if workspace_id is not None:
        workspace = registry.require_workspace(workspace_id)
        store = ScopeStore(home, workspace, record_history=False)
        for scope in SHARED_SCOPES:
            if store.unavailable_reason(scope) is None:
                yield store, scope
        return
    yield ScopeStore(home, record_history=False), Scope.GLOBAL
    for workspace in _projects(registry).values():
        yield ScopeStore(home, workspace, record_history=False), Scope.PROJECT
    for workspace in registry.workspaces:
        yield ScopeStore(home, workspace, record_history=False), Scope.WORKSPACE


def _projects(registry: Registry) -> dict[str, Workspace]:
    """Each project with project memory, and a workspace that sees it (a stand-in for a
    project without workspaces: project memory is the project's, whoever looks)."""
    found: dict[str, Workspace] = {}
    for workspace in registry.workspaces:
        identity = workspace.project_identity
        if identity is not None:
            found.setdefault(identity, workspace)
    for project in registry.projects:
        if project.path != MULTI_PROJECT_KEY and project.path not in found:
            found[project.path] = Workspace(
                id="",
                name=project.display_name,
                path=project.path,
                project_path=project.path,
                project_name=project.display_name,
            )
    return found


@dataclass(frozen=True)
class _ScopeListed:
    """One scope of mux's as listed: what its documents share (None: it has no file), each
    text file with its time as listed and its `lstat` (None: gone since: its read says
    why), the home's meta."""

    where: _Where | None
    error: str | None
    files: tuple[tuple[VirtualPath, int, os.stat_result | None], ...]
    meta: dict[str, MetaEntry]


def _listed(store: ScopeStore, scope: Scope) -> _ScopeListed:
    stats: dict[VirtualPath, os.stat_result] = {}
    listing = store.list_scope(scope, read_files=False, stats=stats)
    if not listing.files:
        return _ScopeListed(None, listing.error, (), {})
    where = _Where.of(store, scope)
    files = tuple(
        (entry.path, entry.modified_at_ms, stats.get(entry.path))
        for entry in listing.files
        if not entry.binary
    )
    return _ScopeListed(where, listing.error, files, store.meta_entries())


def _scope_documents(
    listed: _ScopeListed, problems: list[str], texts: KnownTexts | None
) -> Iterator[Document]:
    if listed.error:
        problems.append(listed.error)
    where, meta = listed.where, listed.meta
    if where is None:
        return
    root = os.fspath(where.root)
    unread = []
    seen: dict[VirtualPath, tuple[str, os.stat_result]] = {}
    for path, modified, info in listed.files:
        if texts is None or info is None:
            unread.append((path, modified))  # the read says why
            continue
        physical = os.path.join(root, *path.segments)
        known = texts.recall(physical, info) if stat.S_ISREG(info.st_mode) else None
        if known is None:
            seen[path] = (physical, info)
            unread.append((path, modified))
            continue
        packed, over_cap = known
        yield _mux_document(where, path, packed, over_cap, modified, meta)
    if not unread:
        return
    modified_of = dict(unread)
    for path, content in where.store.read_many([path for path, _ in unread]):
        if isinstance(content, Exception):
            problems.append(f"{path}: {content}")
            continue
        packed = pack_text(content.content)
        if path in seen and texts is not None:
            texts.learn(*seen[path], packed, content.over_cap)
        yield _mux_document(where, path, packed, content.over_cap, modified_of[path], meta)


@dataclass(frozen=True)
class _Where:
    """What every file of one scope of one store shares (worked out once per scope), and
    where its documents come from (`Origin`)."""

    store: ScopeStore = field(compare=False)
    scope: Scope
    root: Path
    roots: dict[str, Path]
    history_key: str
    project: str | None
    workspace: str | None
    checkout: Path | None
    group: str

    @classmethod
    def of(cls, store: ScopeStore, scope: Scope) -> _Where:
        workspace = store.workspace
        project = store.project_path
        workspace_id: str | None = None
        if scope is Scope.GLOBAL:
            checkout, group, project = None, GLOBAL_GROUP, None
        elif scope is Scope.PROJECT:
            checkout, group = checkout_of(project), f"project:{project}"
        else:
            assert workspace is not None
            workspace_id = workspace.id
            checkout = checkout_of(workspace.path) or checkout_of(project)
            group = f"project:{project}" if project else f"workspace:{workspace.id}"
        roots = {
            s.value: store.root(s) for s in SHARED_SCOPES if store.unavailable_reason(s) is None
        }
        return cls(
            store,
            scope,
            store.root(scope),
            roots,
            store.history_key(scope),
            project,
            workspace_id,
            checkout,
            group,
        )

    def _virtual(self, document: Document) -> VirtualPath:
        relative = document.path[len(self.scope.virtual_root) + 1 :]
        return VirtualPath(self.scope, tuple(relative.split("/")))

    def physical(self, document: Document) -> Path | None:
        return Path(os.path.join(self.root, *self._virtual(document).segments))

    def opened(self, document: Document, home: Home) -> MemoryFile:
        return MuxFile(MemoryStore(home, self.store.workspace), self._virtual(document))

    def file_path(self, document: Document) -> Path | None:
        return self.physical(document)


_FINDING_SCOPES: dict[Scope, FindingScope] = {
    Scope.GLOBAL: "global",
    Scope.PROJECT: "project",
    Scope.WORKSPACE: "workspace",
}
"""The scopes the check reads (`SHARED_SCOPES`: never xum's session scope), as findings
name them."""


def _mux_document(
    where: _Where,
    path: VirtualPath,
    packed: bytes,
    over_cap: bool,
    modified_ms: int,
    meta: dict[str, MetaEntry],
) -> Document:
    entry = meta.get(where.store.meta_key(path))
    used = [entry.last_accessed_at, entry.last_write_at] if entry is not None else []
    last_used = max([modified_ms, *(t for t in used if t is not None)])
    return Document(
        key=f"mux:{where.scope.value}:{where.workspace or where.project or ''}:{path}",
        path=str(path),
        agent="mux",
        scope=_FINDING_SCOPES[where.scope],
        packed=packed,
        project=where.project,
        workspace=where.workspace,
        checkout=where.checkout,
        group=where.group,
        link_root=where.root,
        scope_roots=where.roots,
        modified_ms=modified_ms,
        last_used_ms=last_used,
        plannable=not over_cap,
        history_key=where.history_key,
        origin=where,
    )


_RECORD_FOLDERS = {
    Layout.CODEX_MEMORIES: ("rollout_summaries", "raw_memories"),
    Layout.LOKI: ("episodic", "handoffs", "ledgers"),
}
_RECORD_NAMES = {Layout.CODEX_MEMORIES: ("raw_memories.md",), Layout.LOKI: ("failures.jsonl",)}


def is_record(source: Source, file: SourceFile) -> bool:
    """Whether a file records what happened rather than what holds (see `Document`):
    Claude Code's session summaries, Codex's rollout summaries and raw memories,
    loki-mode's episodes, handoffs, ledgers and failures."""
    if file.kind is FileKind.SESSION_SUMMARY:
        return True
    parts = file.relative.split("/")
    if source.layout is Layout.CODEX_MEMORIES and len(parts) > 2 and parts[1] == "memory":
        parts = parts[2:]  # an older Codex's per-directory bucket
    return parts[0] in _RECORD_FOLDERS.get(source.layout, ()) or (
        len(parts) == 1 and parts[0] in _RECORD_NAMES.get(source.layout, ())
    )


_SHARED_LAYOUTS = frozenset(
    {Layout.CLAUDE_TEAM_MEMORY, Layout.CLAUDE_PROJECT, Layout.CODEX_PROJECT, Layout.GEMINI_PROJECT}
)
_ONE_S_OWN = ("CLAUDE.local.md", "AGENTS.override.md", ".claude/agent-memory-local/")


def shared_with_collaborators(source: Source, file: SourceFile) -> bool:
    """Whether every collaborator of the project reads the file: Claude Code's team memory,
    and a project's instruction files as a repository commits them (`CLAUDE.md`,
    `.claude/rules/`, `AGENTS.md`, `GEMINI.md`; never one's own: `CLAUDE.local.md`,
    `AGENTS.override.md`, `.claude/agent-memory-local/`)."""
    return source.layout in _SHARED_LAYOUTS and not file.relative.startswith(_ONE_S_OWN)


# --- other agents -----------------------------------------------------------------------


def _source_documents(
    context: SourceContext,
    registry: Registry,
    workspace: Workspace | None,
    problems: list[str],
    texts: KnownTexts | None,
) -> Iterator[Document]:
    discovery, listings = scan(context, whole=True)
    known = [
        *(p.path for p in registry.projects),
        *(ws.path for ws in registry.workspaces if ws.path),
        *(s.project for s in discovery.sources if s.project),
    ]
    wanted = None
    if workspace is not None:
        wanted = {p for p in (workspace.project_identity, workspace.path) if p}
    imports = link_imports(listings)
    checkouts: dict[str | None, Path | None] = {None: None}  # a project's, asked once
    for listing in listings:
        if listing.error:
            problems.append(listing.error)
        for file in listing.files:
            project = imports.projects.get(file.id) or _project_of(listing, file, known)
            of_project = project is not None or listing.source.layout in _PROJECT_LAYOUTS
            if wanted is not None and of_project and project not in wanted:
                continue
            if project not in checkouts:
                checkouts[project] = checkout_of(project)
            document = _source_document(
                listing.source, file, project, checkouts[project], imports, problems, texts
            )
            if document is not None:
                yield document


def _project_of(listing: SourceListing, file: SourceFile, known: list[str]) -> str | None:
    source = listing.source
    if source.layout is Layout.CODEX_MEMORIES:
        return bucket_project(file.relative, known)
    return source.project


_PROJECT_LAYOUTS = frozenset(
    {Layout.CLAUDE_MEMORY, Layout.CLAUDE_PROJECT, Layout.CODEX_PROJECT, Layout.LOKI}
)


def _source_document(
    source: Source,
    file: SourceFile,
    project: str | None,
    checkout: Path | None,
    imports: ImportLinks,
    problems: list[str],
    texts: KnownTexts | None,
) -> Document | None:
    read = _source_text(source, file, problems, texts)
    if read is None:
        return None
    packed, rendered = read
    imported = imports.labels.get(file.id)
    of_project = project is not None or source.layout in _PROJECT_LAYOUTS
    if project is not None:
        group = f"project:{project}"
    elif of_project:
        group = f"source:{source.id}"
    else:
        group = GLOBAL_GROUP

    return Document(
        key=file.id,
        path=file.id,
        agent=source.agent,
        scope="project" if of_project else "global",
        packed=packed,
        project=project,
        checkout=checkout if imported is None else None,
        group=group,
        link_root=source.root,
        modified_ms=file.modified_at_ms,
        record=is_record(source, file),
        origin=_SourceOrigin(source, file, project, rendered),
        index_note=file.warning if file.warning_label == NOT_IN_INDEX_LABEL else None,
        imported=imported,
        original=imports.original_of.get(file.id),
        shared=shared_with_collaborators(source, file),
    )


def _source_text(
    source: Source, file: SourceFile, problems: list[str], texts: KnownTexts | None
) -> tuple[bytes, bool] | None:
    """A file's text packed, and whether it is a rendering (loki-mode's JSON); None for a
    binary file, or one that cannot be read (said in `problems`). With `texts`, a file
    still as it was read before is not opened again (as mux's: `KnownTexts`)."""
    physical = str(file.physical)
    info: os.stat_result | None = None
    if texts is not None and file.kind is not FileKind.RENDERED and not file.linked:
        try:
            info = os.lstat(physical)
        except OSError:
            info = None  # the read says why
        known = texts.recall(physical, info) if info and stat.S_ISREG(info.st_mode) else None
        if known is not None:
            return known[0], False
    try:
        content = read_source_file(source, file)
    except SourceError as error:
        problems.append(str(error))
        return None
    if content.binary:
        return None
    packed = pack_text(content.text)
    if texts is not None and info is not None and not content.rendered:
        texts.learn(physical, info, packed, content.over_cap)
    return packed, content.rendered


@dataclass(frozen=True, slots=True)
class _SourceOrigin:
    """Where another agent's document comes from (`Origin`)."""

    source: Source
    file: SourceFile
    project: str | None
    rendered: bool

    def physical(self, document: Document) -> Path | None:
        return None if self.rendered else self.file.physical

    def opened(self, document: Document, home: Home) -> MemoryFile:
        return AgentFile(self.source, self.file, SourceVersions(home))

    def file_path(self, document: Document) -> Path | None:
        return self.file.physical
