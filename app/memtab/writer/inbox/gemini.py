"""Gemini CLI's memory inbox in Memtab's Inbox: its auto memory's `.patch` proposals, accepted by
applying them exactly as its own `/memory inbox` does, rejected as it dismisses them
(docs/formats.md §17.7, §10.5, §17.5)."""

from __future__ import annotations

import functools
import hashlib
import logging
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from memtab.file_protocol.file_ref import SourceError, parse_file_id
from memtab.fs.atomic import encode_utf8
from memtab.fs.config.config_dir import config_dir
from memtab.fs.locking.locks import LockUnavailableError, interprocess_lock
from memtab.fs.user_files import read_regular_file
from memtab.sources.agent_file import SourceVersions
from memtab.sources.config import SourceContext
from memtab.sources.content import read_source_file, remove_created_file, save_source_file
from memtab.sources.discovery import discover, gemini_reader
from memtab.sources.gemini.inbox import (
    KINDS,
    InboxPatch,
    MemoryRoots,
    PatchPlan,
    PatchRefusedError,
    extraction_running,
    inbox_patches,
    patch_files,
    plan_patch,
)
from memtab.sources.gemini.settings import SettingsReader
from memtab.sources.listing import source_file, target_file
from memtab.sources.model import Discovery, Layout, Source, SourceFile
from memtab.store.errors import MemoryStoreError, SaveConflictError
from memtab.store.files import content_sha256
from memtab.store.home import Home
from memtab.store.sidecars.registry import Registry, Workspace

logger = logging.getLogger(__name__)

ACTOR = "gemini"
"""Who history says changed a file an accepted patch wrote: Gemini CLI (its proposal)."""
LOCK_TIMEOUT_S = 10.0
KIND_WORDS = {"private": "Private memory", "global": "Global memory"}


class GeminiInboxError(Exception):
    """A decision that cannot be made; the message is for the user."""


@dataclass(frozen=True)
class GeminiPatchItem:
    """One patch of Gemini CLI's inbox, as the Inbox lists it."""

    id: str
    workspace_id: str | None
    patch: InboxPatch
    source: Source
    """The private memory source the patch is in."""
    targets: tuple[str, ...]
    """What it changes: file ids (the path when no source holds it), `(new)` after one it
    creates."""

    @property
    def summary(self) -> str:
        """ "Private memory · extraction.patch · MEMORY.md, deploy.md (new)"."""
        names = ", ".join(t.rsplit(":", 1)[-1].rsplit("/", 1)[-1] for t in self.targets)
        return " · ".join(p for p in (KIND_WORDS[self.patch.kind], self.patch.relative, names) if p)


@dataclass(frozen=True)
class WrittenFile:
    """A file an accept wrote: its id, its text before (None: created), the sha written."""

    file_id: str
    before: str | None
    after_sha256: str


@dataclass(frozen=True)
class GeminiDecided:
    """What one accept or reject did to Gemini CLI's files, to take it back."""

    patch_path: Path
    patch_data: bytes
    written: tuple[WrittenFile, ...] = ()
    message: str = ""
    """Gemini CLI's words for it ("Applied memory patch to 2 files. …")."""


def item_id(patch: InboxPatch) -> str:
    """`g` and 10 hex digits of the patch's path and content: stable while it is unchanged."""
    key = encode_utf8(str(patch.path)) + b"\0" + patch.data
    return "g" + hashlib.blake2b(key, digest_size=5).hexdigest()


class GeminiInbox:
    """The patches of every Gemini CLI project memory Memtab's sources hold."""

    def __init__(self, home: Home, context: SourceContext | None = None) -> None:
        self.home = home
        self.context = context or SourceContext.load(home)
        self._readers: dict[Path, SettingsReader | None] = {}

    @functools.cached_property
    def discovery(self) -> Discovery:
        return discover(self.context)

    def roots(self, source: Source) -> MemoryRoots:
        """Where the patches of `source` (a private memory) may write."""
        user = next((s for s in self.discovery.sources if s.layout is Layout.GEMINI_USER), None)
        gemini_dir = user.root if user is not None else source.trusted_root or source.root
        if gemini_dir not in self._readers:  # its settings files read once
            self._readers[gemini_dir] = gemini_reader(self.context, gemini_dir)
        reader = self._readers[gemini_dir]
        name = (
            reader.settings(Path(source.project)).global_name
            if reader and source.project
            else "GEMINI.md"
        )
        return MemoryRoots(source.root, gemini_dir / name)

    def memory_sources(
        self, workspace: Workspace | None, registry: Registry | None
    ) -> list[Source]:
        """The private memories whose patches are `workspace`'s Inbox's: those of a project
        in its checkout or its project; for no workspace, those no workspace holds."""
        memories = [s for s in self.discovery.sources if s.layout is Layout.GEMINI_MEMORY]
        if workspace is not None:
            return [s for s in memories if _belongs(s.project, workspace)]
        workspaces = registry.workspaces if registry is not None else ()
        return [s for s in memories if not any(_belongs(s.project, w) for w in workspaces)]

    def items(
        self, workspace: Workspace | None, registry: Registry | None = None
    ) -> list[GeminiPatchItem]:
        """Every patch of the memories `memory_sources` names, private then global, by path."""
        workspace_id = workspace.id if workspace is not None else None
        found: list[GeminiPatchItem] = []
        for source in self.memory_sources(workspace, registry):
            for patch in inbox_patches(self.roots(source)):
                targets = tuple(self.shown_name(t.path, new=t.new_file) for t in patch.targets)
                found.append(GeminiPatchItem(item_id(patch), workspace_id, patch, source, targets))
        return found

    def shown_name(self, path: str, *, new: bool = False) -> str:
        """A file a patch writes, by its file id (its path when no source holds it)."""
        holder = self.discovery.source_containing(Path(path))
        name = path
        if holder is not None:
            relative = os.path.relpath(path, holder.root)
            if not relative.startswith(".."):
                name = holder.file_id(relative.replace(os.sep, "/"))
        return f"{name} (new)" if new else name

    # --- deciding ----------------------------------------------------------------------

    def accept(self, item: GeminiPatchItem) -> GeminiDecided:
        """Apply the patch as Gemini CLI would, then remove it (see the module doc)."""
        roots = self.roots(item.source)
        with _deciding(item):
            plan = self._plan(roots, item)
            written = self._write(plan)
            left = _remove_patch(item.patch)
        said = plan.message + ("" if left is None else f" {left}")
        return GeminiDecided(item.patch.path, item.patch.data, written, said)

    def reject(self, item: GeminiPatchItem) -> GeminiDecided:
        """Remove the patch file, as Gemini CLI dismisses it."""
        with _deciding(item):
            left = _remove_patch(item.patch)
        if left is not None:
            raise GeminiInboxError(left)
        return GeminiDecided(
            item.patch.path, item.patch.data, (), f'Dismissed "{item.patch.relative}" from inbox.'
        )

    def plan(self, item: GeminiPatchItem, *, check: Callable[[], None] | None = None) -> PatchPlan:
        """What accepting `item` would write now, nothing written (GeminiInboxError: why it
        cannot be accepted, in Gemini CLI's words); `check` may raise to cancel."""
        return self._plan(self.roots(item.source), item, check)

    def _plan(
        self, roots: MemoryRoots, item: GeminiPatchItem, check: Callable[[], None] | None = None
    ) -> PatchPlan:
        current = next((p for p in inbox_patches(roots) if item_id(p) == item.id), None)
        if current is None:
            raise GeminiInboxError(
                f"{item.patch.relative} changed or went since it was listed (Gemini CLI or "
                "another Memtab); reload the inbox"
            )
        try:
            return plan_patch(roots, current, check=check)
        except PatchRefusedError as refused:
            raise GeminiInboxError(str(refused)) from None

    def _write(self, plan: PatchPlan) -> tuple[WrittenFile, ...]:
        """Every planned file through its source, putting back what was written when one
        fails (GeminiInboxError then, nothing left changed)."""
        files = [
            (planned, *self._file_of(planned.target, planned.new_file)) for planned in plan.files
        ]
        history = SourceVersions(self.home, actor=ACTOR)
        written: list[tuple[Source, SourceFile, WrittenFile]] = []
        try:
            for planned, source, file in files:
                expected = None if planned.before is None else content_sha256(planned.before)
                if expected is not None and read_source_file(source, file).sha256 != expected:
                    raise SaveConflictError(
                        "changed", f"{file.id} changed while the patch was applied"
                    )
                sha = save_source_file(source, file, planned.after, expected, history=history)
                written.append((source, file, WrittenFile(file.id, planned.before, sha)))
        except (SourceError, MemoryStoreError, OSError) as error:
            undone = _put_back(written, history)
            raise GeminiInboxError(
                f"{error} — {'nothing was changed' if undone else 'a file could not be put back'}"
            ) from None
        return tuple(done for _source, _file, done in written)

    def _file_of(self, target: Path, new: bool) -> tuple[Source, SourceFile]:
        source = self.discovery.source_containing(target)
        if source is None:
            raise GeminiInboxError(f"{target} is in none of the sources Memtab shows")
        relative = os.path.relpath(target, source.root).replace(os.sep, "/")
        try:
            if new:
                return source, target_file(source, relative)
            file = source_file(source, relative)
        except SourceError as error:
            raise GeminiInboxError(str(error)) from None
        if file is None or not file.writable:
            why = file.read_only_reason if file is not None else "not a file Memtab lists"
            raise GeminiInboxError(f"{source.file_id(relative)} cannot be written: {why}")
        return source, file

    # --- taking a decision back --------------------------------------------------------

    def take_back(self, decided: GeminiDecided) -> str:
        """Each file as it was, where it still holds what was written, then the patch file
        again (never over another file); what happened, in words."""
        history = SourceVersions(self.home)
        kept: list[str] = []
        for written in reversed(decided.written):
            found = self._find(written.file_id)
            if found is None:
                kept.append(written.file_id)
                continue
            try:
                _undo_write(*found, written, history)
            except SaveConflictError:
                kept.append(written.file_id)
        restored = _restore_patch(decided.patch_path, decided.patch_data)
        parts = [
            "the patch is back in Gemini CLI's inbox"
            if restored
            else "the patch was not put back: another file is there"
        ]
        if kept:
            parts.append(f"changed since, so left as now: {', '.join(kept)}")
        return "; ".join(parts)

    def _find(self, file_id: str) -> tuple[Source, SourceFile] | None:
        ref = parse_file_id(file_id)
        source = next((s for s in self.discovery.sources if s.id == ref.source_id), None)
        file = source_file(source, ref.path) if source is not None else None
        return (source, file) if source is not None and file is not None else None


def gemini_workspaces(gemini: GeminiInbox, registry: Registry) -> set[str]:
    """The workspaces whose Inbox holds a Gemini patch."""
    holding = [
        source
        for source in gemini.discovery.sources
        if source.layout is Layout.GEMINI_MEMORY and any(patch_files_of(gemini.roots(source)))
    ]
    return {
        workspace.id
        for workspace in registry.workspaces
        if any(_belongs(source.project, workspace) for source in holding)
    }


def patch_files_of(roots: MemoryRoots) -> list[Path]:
    """Every patch file of both kinds (not read)."""
    return [path for kind in KINDS for path in patch_files(roots, kind)]


@contextmanager
def _deciding(item: GeminiPatchItem) -> Iterator[None]:
    """One decision about a memory folder's patches at a time, across Memtab processes,
    and none while Gemini CLI's extraction runs there."""
    running = extraction_running(item.source.root)
    if running is not None:
        raise GeminiInboxError(
            f"Gemini CLI's auto memory is extracting in this project now (process "
            f"{running.pid}, since {running.started_at}) and may rewrite its patches: decide "
            "once it is done"
        )
    name = hashlib.sha256(encode_utf8(str(item.source.root))).hexdigest()[:16]
    try:
        with interprocess_lock(
            config_dir() / f".gemini-inbox-{name}.lock", timeout_s=LOCK_TIMEOUT_S
        ):
            yield
    except LockUnavailableError as error:
        raise GeminiInboxError(f"Another Memtab is deciding on this inbox: {error}") from None


def _belongs(project: str | None, workspace: Workspace) -> bool:
    """Whether a Gemini CLI project folder is the workspace's checkout or project, or in it."""
    return project is not None and any(
        place and (project == place.rstrip("/") or project.startswith(place.rstrip("/") + "/"))
        for place in (workspace.path, workspace.project_identity)
    )


def _put_back(
    written: Sequence[tuple[Source, SourceFile, WrittenFile]], history: SourceVersions
) -> bool:
    """Undo the writes of a patch that failed part way (newest first); whether all went."""
    whole = True
    for source, file, done in reversed(written):
        try:
            _undo_write(source, file, done, history)
        except (SourceError, MemoryStoreError, OSError) as error:
            logger.warning("Gemini CLI inbox: could not put back %s: %s", file.id, error)
            whole = False
    return whole


def _undo_write(
    source: Source, file: SourceFile, done: WrittenFile, history: SourceVersions
) -> None:
    """Put `file` back as it was before `done`, where it still holds what was written."""
    if done.before is None:
        remove_created_file(source, file, done.after_sha256, history=history)
    else:
        save_source_file(source, file, done.before, done.after_sha256, history=history)


def _remove_patch(patch: InboxPatch) -> str | None:
    """Remove the patch file if it still holds what was decided on (None: removed, or
    already gone); else why it stays."""
    try:
        now = read_regular_file(patch.path, limit=len(patch.data) + 1, truncate=True)
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"The patch file could not be read to remove it: {error.strerror}"
    if now != patch.data:
        return (
            f"{patch.relative} was rewritten by Gemini CLI meanwhile: the new patch stays in "
            "its inbox"
        )
    try:
        os.unlink(patch.path)
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"The patch file could not be removed: {error.strerror}"
    return None


def _restore_patch(path: Path, data: bytes) -> bool:
    """Write the patch back, never over a file (True: it is there as it was)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(
            path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600
        )
    except FileExistsError:
        try:
            return read_regular_file(path, limit=len(data) + 1, truncate=True) == data
        except OSError:
            return False
    except OSError:
        return False
    with os.fdopen(fd, "wb") as stream:
        stream.write(data)
    return True
