"""Gemini CLI's memory inbox (docs/formats.md §17.7): the `.patch` files its auto memory
proposes, listed, validated and applied in memory exactly as its `/memory inbox` does; the
Inbox writes them. Stricter in two places, saying why: unnumbered hunks, non-UTF-8 targets."""

from __future__ import annotations

import errno
import hashlib
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from memtab.fs.clock import now_ms
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.locking.lease_lock import pid_alive
from memtab.fs.readable import read_readable_path
from memtab.fs.records import Record
from memtab.fs.user_files import read_regular_file
from memtab.sources.gemini.hunk_places import PatchTooCostlyError, PlacingWork
from memtab.sources.gemini.patch import (
    FilePatch,
    PatchError,
    Target,
    apply_patch,
    has_hunks,
    js_trim,
    parse_patch,
    patch_targets,
    unnumbered_hunk,
)

logger = logging.getLogger(__name__)

INBOX_DIR = ".inbox"
KINDS = ("private", "global")
MEMORY_INDEX = "MEMORY.md"
EXTRACTION_LOCK = ".extraction.lock"
EXTRACTION_STATE = ".extraction-state.json"
"""Gemini CLI's memory service rewrites it at the end of each extraction run."""
LOCK_STALE_MS = 35 * 60 * 1000
"""`LOCK_STALE_MS` of Gemini CLI's memory service: a lock older than this is left."""
NEW_INDEX_TEXT = "# Project Memory\n"
MAX_PATCH_BYTES = 4 * 1024 * 1024
"""Memtab reads no patch past this (Gemini CLI has no limit)."""
MAX_TARGET_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class MemoryRoots:
    """Where one project's patches may write: its private memory folder, the global file."""

    memory_dir: Path
    global_file: Path

    def kind_root(self, kind: str) -> Path:
        return self.memory_dir / INBOX_DIR / kind


@dataclass(frozen=True)
class InboxPatch:
    """One `.patch` file of the inbox as read, and its `problem` (None: valid)."""

    kind: str
    path: Path
    relative: str
    """Its path below `.inbox/<kind>/`, '/'-separated (what `/memory inbox` names it by)."""
    data: bytes
    modified_ms: int
    parts: tuple[FilePatch, ...] = ()
    targets: tuple[Target, ...] = ()
    problem: str | None = None

    @property
    def text(self) -> str:
        """The patch as Node reads it (`utf-8`: a bad byte is U+FFFD)."""
        return self.data.decode("utf-8", errors="replace")

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


@dataclass(frozen=True)
class PlannedFile:
    """One file a patch writes: its text before (None: the patch creates it) and after."""

    target: Path
    """The file's path with links resolved (Gemini CLI writes there)."""
    before: str | None
    after: str

    @property
    def new_file(self) -> bool:
        return self.before is None


@dataclass(frozen=True)
class PatchPlan:
    """What applying a patch writes, file by file, and the notes given a pointer line."""

    patch: InboxPatch
    files: tuple[PlannedFile, ...]
    pointers_added: tuple[str, ...] = ()

    @property
    def message(self) -> str:
        """What Gemini CLI says once it has applied it."""
        count = len(self.files)
        said = f"Applied memory patch to {count} file{'' if count == 1 else 's'}."
        if self.pointers_added:
            names = ", ".join(f'"{name}"' for name in self.pointers_added)
            said += (
                f" Auto-added MEMORY.md pointer for {names} so the new sibling file is "
                "discoverable."
            )
        return said


class PatchRefusedError(Exception):
    """A patch Gemini CLI would not apply now; the message is its own words."""


class ExtractionLock(Record):
    """`<memory>/.extraction.lock`, held while Gemini CLI's extraction agent runs."""

    pid: int
    started_at: str


# --- listing ------------------------------------------------------------------------------


def inbox_patches(roots: MemoryRoots) -> list[InboxPatch]:
    """Every patch of both kinds, private first, each by path, checked."""
    found: list[InboxPatch] = []
    for kind in KINDS:
        for path in patch_files(roots, kind):
            patch = read_patch(roots, kind, path)
            if patch is not None:
                found.append(patch)
    return found


def patch_files(roots: MemoryRoots, kind: str) -> list[Path]:
    """The `*.patch` regular files below `.inbox/<kind>/`, links not followed, sorted by path."""
    found: list[str] = []
    pending = [str(roots.kind_root(kind))]
    while pending:
        directory = pending.pop()
        try:
            with os.scandir(directory) as entries:
                listed = list(entries)
        except OSError:
            continue
        for entry in listed:
            try:
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
                elif entry.is_file(follow_symlinks=False) and entry.name.endswith(".patch"):
                    found.append(entry.path)
            except OSError:
                continue
    return [Path(path) for path in sorted(found)]


def read_patch(roots: MemoryRoots, kind: str, path: Path) -> InboxPatch | None:
    """One patch file read and checked (None: it went, or cannot be read at all)."""
    relative = path.relative_to(roots.kind_root(kind)).as_posix()
    try:
        info = os.stat(path, follow_symlinks=False)
        data = read_readable_path(path, limit=MAX_PATCH_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as error:
        logger.info("Gemini CLI inbox: cannot read %s: %s", path, error)
        return None
    modified = info.st_mtime_ns // 1_000_000
    patch = InboxPatch(kind, path, relative, data, modified)
    if len(data) > MAX_PATCH_BYTES:
        return replace(
            patch, problem=f"larger than {MAX_PATCH_BYTES // (1024 * 1024)} MiB: not read"
        )
    try:
        parts = tuple(parse_patch(patch.text))
    except PatchError as error:
        return replace(patch, problem=f"failed to parse patch: {error}")
    checked = replace(patch, parts=parts)
    if not has_hunks(parts):
        return replace(checked, problem="no hunks found in patch")
    targets = patch_targets(parts)
    if isinstance(targets, str):
        return replace(checked, problem=targets)
    checked = replace(checked, targets=targets)
    problem = unnumbered_hunk(parts)
    if problem is None:
        allowed = _Allowed(roots, kind)
        outside = next((t.path for t in targets if allowed.resolve(t.path) is None), None)
        if outside is not None:
            problem = f"target file is outside {kind} memory roots: {outside}"
    return replace(checked, problem=problem) if problem else checked


# --- where a patch may write (`getMemoryPatchTargetValidationContext`) --------------------


def node_resolve(path: str) -> str:
    """Node's `path.resolve` of an absolute POSIX path (a leading `//` is one)."""
    resolved = os.path.normpath(os.path.join(os.getcwd(), path))
    return "/" + resolved.lstrip("/") if resolved.startswith("//") else resolved


def canonical(path: str) -> str | None:
    """Gemini CLI's `resolvePathWithExistingAncestors` (None: unreadable)."""
    missing: list[str] = []
    current = node_resolve(path)
    while True:
        try:
            real = os.path.realpath(current, strict=True)
        except (FileNotFoundError, NotADirectoryError):
            parent = os.path.dirname(current)
            if parent == current:
                return None
            missing.append(os.path.basename(current))
            current = parent
            continue
        except OSError:
            return None
        return os.path.join(real, *reversed(missing))


class _Allowed:
    """The roots and files a patch of `kind` may write (raw and with links resolved)."""

    def __init__(self, roots: MemoryRoots, kind: str) -> None:
        self.kind = kind
        if kind == "global":
            raw = node_resolve(str(roots.global_file))
            self.roots = _unique([canonical(raw)])
            self.files = _unique([raw, *self.roots])
            self.dirs: list[str] = []
        else:
            raw = node_resolve(str(roots.memory_dir))
            self.roots = _unique([canonical(raw)])
            self.dirs = _unique([raw, *self.roots])
            self.files = []

    def resolve(self, target: str) -> str | None:
        """Where `target` really is if a patch of this kind may write it, else None."""
        resolved = canonical(target)
        if resolved is None or not any(
            resolved == root or resolved.startswith(root.rstrip("/") + "/") for root in self.roots
        ):
            return None
        if not (self.document_allowed(target) and self.document_allowed(resolved)):
            return None
        return resolved

    def document_allowed(self, path: str) -> bool:
        resolved = node_resolve(path)
        if self.kind == "global":
            return resolved in self.files
        name = os.path.basename(resolved)
        allowed_name = name == MEMORY_INDEX or (
            not name.startswith(".") and name.lower().endswith(".md")
        )
        return os.path.dirname(resolved) in self.dirs and allowed_name


def _unique(paths: list[str | None]) -> list[str]:
    return list(dict.fromkeys(node_resolve(p) for p in paths if p is not None))


# --- applying in memory (`applyMemoryPatchFile` up to its writes) ------------------------


def plan_patch(
    roots: MemoryRoots, patch: InboxPatch, *, check: Callable[[], None] | None = None
) -> PatchPlan:
    """What applying `patch` writes, from the files as they are now; PatchRefusedError in
    Gemini CLI's words. `check` may raise to cancel."""
    name = patch.relative
    if patch.problem is not None and not patch.parts:
        if patch.problem.startswith("failed to parse patch: "):
            error = patch.problem.removeprefix("failed to parse patch: ")
            raise PatchRefusedError(f'Failed to parse memory patch "{name}": {error}')
        if patch.problem == "no hunks found in patch":
            raise PatchRefusedError(f'Memory patch "{name}" contains no valid hunks.')
        raise PatchRefusedError(f'Memory patch "{name}" could not be read: {patch.problem}')
    if not has_hunks(patch.parts):
        raise PatchRefusedError(f'Memory patch "{name}" contains no valid hunks.')
    allowed = _Allowed(roots, patch.kind)
    outside_words = (
        f'Memory patch "{name}" targets a file outside the {patch.kind} memory root or '
        "target allowlist: "
    )
    targets = patch_targets(patch.parts)
    if not isinstance(targets, str):
        outside = next((t.path for t in targets if allowed.resolve(t.path) is None), None)
        if outside is not None:
            raise PatchRefusedError(outside_words + outside)
    else:
        if targets.startswith("missing"):
            raise PatchRefusedError(f'Memory patch "{name}" is missing a target file path.')
        raise PatchRefusedError(f'Memory patch "{name}" has invalid diff headers.')
    unnumbered = unnumbered_hunk(patch.parts)
    if unnumbered is not None:
        raise PatchRefusedError(f'Memory patch "{name}" is not applied by Memtab: {unnumbered}')
    try:
        files = _applied(patch, targets, allowed, outside_words, PlacingWork(check))
    except PatchTooCostlyError as costly:
        raise PatchRefusedError(
            f'Memory patch "{name}" is not applied by Memtab: {costly}'
        ) from None
    pointers: tuple[str, ...] = ()
    if patch.kind == "private":
        files, pointers = _with_pointers(roots, files)
    return PatchPlan(patch, tuple(files), pointers)


def _applied(
    patch: InboxPatch,
    targets: tuple[Target, ...],
    allowed: _Allowed,
    outside_words: str,
    work: PlacingWork,
) -> list[PlannedFile]:
    name = patch.relative
    planned: dict[str, PlannedFile] = {}
    for part, target in zip(patch.parts, targets, strict=True):
        resolved = allowed.resolve(target.path)
        if resolved is None:
            raise PatchRefusedError(outside_words + target.path)
        earlier = planned.get(resolved)
        if earlier is not None:
            source = earlier.after
        elif target.new_file:
            there = _lstat_state(resolved)
            if there == "exists":
                raise PatchRefusedError(
                    f'Memory patch "{name}" declares a new file, but the target already '
                    f"exists: {target.path}"
                )
            if there == "unknown":
                raise PatchRefusedError(f"Target file not found: {target.path}")
            source = ""
        else:
            source = _target_text(resolved, target.path)
        applied = apply_patch(source, part, work)
        if applied is None:
            new = earlier.new_file if earlier is not None else target.new_file
            raise PatchRefusedError(
                f'Memory patch "{name}" failed to apply for new file {target.path}.'
                if new
                else f"Memory patch does not apply cleanly to {target.path}."
            )
        before = earlier.before if earlier is not None else (None if target.new_file else source)
        planned[resolved] = PlannedFile(Path(resolved), before, applied)
    return list(planned.values())


def _lstat_state(path: str) -> str:
    """`exists`, `missing` (ENOENT or ENOTDIR, as Node's check takes them) or `unknown`."""
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return "missing"
    except OSError:
        return "unknown"
    return "exists"


def _target_text(resolved: str, shown: str) -> str:
    """The target's text as Gemini CLI reads it, or PatchRefusedError."""
    try:
        data = read_regular_file(resolved, limit=MAX_TARGET_BYTES)
    except OSError as error:
        if error.errno in (errno.ENOENT, errno.ENOTDIR, errno.EISDIR):
            raise PatchRefusedError(f"Target file not found: {shown}") from None
        raise PatchRefusedError(f"Target file {shown} cannot be read: {error.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise PatchRefusedError(
            f"Target file {shown} is not UTF-8 text: Gemini CLI would write its bad bytes back "
            "as U+FFFD, so Memtab does not apply it"
        ) from None


def _with_pointers(
    roots: MemoryRoots, files: list[PlannedFile]
) -> tuple[list[PlannedFile], tuple[str, ...]]:
    """`augmentWithAutoPointers`: a pointer line in `MEMORY.md` for each new unnamed note."""
    try:
        memory_dir = os.path.realpath(roots.memory_dir, strict=True)
    except OSError:
        memory_dir = node_resolve(str(roots.memory_dir))
    index_path = os.path.join(memory_dir, MEMORY_INDEX)
    siblings = [
        f
        for f in files
        if f.new_file
        and os.path.dirname(node_resolve(str(f.target))) == memory_dir
        and f.target.name.lower() != "memory.md"
        and f.target.name.lower().endswith(".md")
    ]
    if not siblings:
        return files, ()
    at = next((i for i, f in enumerate(files) if node_resolve(str(f.target)) == index_path), None)
    if at is not None:
        index = files[at]
    else:
        missing = _lstat_state(index_path) == "missing"
        before = None if missing else _target_text(index_path, index_path)
        index = PlannedFile(Path(index_path), before, NEW_INDEX_TEXT if before is None else before)
    text = index.after
    added: list[str] = []
    for sibling in siblings:
        name = sibling.target.name
        absolute = node_resolve(str(sibling.target))
        if name in text or absolute in text:
            continue
        stem = _stem(name)
        pointer = f"- See {absolute} for {stem or name} notes."
        text = f"{text}{pointer}\n" if text.endswith("\n") else f"{text}\n{pointer}\n"
        added.append(name)
    if not added:
        return files, ()
    updated = PlannedFile(index.target, index.before, text)
    if at is not None:
        return [*files[:at], updated, *files[at + 1 :]], tuple(added)
    return [*files, updated], tuple(added)


def _stem(name: str) -> str:
    """`basename.replace(/\\.md$/i, "").replace(/[-_]/g, " ").trim()`."""
    stem = name[:-3] if name.lower().endswith(".md") else name
    return js_trim(stem.replace("-", " ").replace("_", " "))


# --- the extraction lock ------------------------------------------------------------------


def extraction_running(memory_dir: Path, *, now: int | None = None) -> ExtractionLock | None:
    """The lock of an extraction running now in `memory_dir` (None: none, or stale)."""
    try:
        data = read_regular_file(memory_dir / EXTRACTION_LOCK, limit=64 * 1024)
        lock = ExtractionLock.read(parse_json(data))
    except (OSError, JsonError):
        return None
    # pid 0 would ask the process group; where the pid cannot be asked (Windows) the age decides
    if lock is None or lock.pid <= 0 or pid_alive(lock.pid) is False:
        return None
    started = _iso_ms(lock.started_at)
    moment = now_ms() if now is None else now
    if started is None or moment - started > LOCK_STALE_MS:
        return None
    return lock


def _iso_ms(text: str) -> int | None:
    """`new Date(text).getTime()` of JavaScript's own `toISOString()` form."""
    # lazy: datetime stays off the settled window
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None
    return int(moment.timestamp() * 1000)
