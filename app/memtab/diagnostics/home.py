"""The home in use and why, its registry, the health of every sidecar (`memtab.fs.sidecar`), and
Memtab's own files: whether history can keep copies (docs/formats.md §14.2) and read them back,
whether locks can be taken (§14.1) and who holds xum's (§21.1), and whether history is recorded."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Annotated

from memtab import humanize
from memtab.diagnostics.report import Findings
from memtab.fs.atomic import Directory
from memtab.fs.config.settings_file import SETTINGS_FILE_NAME
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.locking.lease_lock import lock_state
from memtab.fs.locking.locks import LockUnavailableError, interprocess_lock
from memtab.fs.records import Inlined, OmitNone, Record
from memtab.fs.sidecar import CORRUPT_INFIX, read_sidecar
from memtab.humanize import plural
from memtab.store.catch_up.recording import RecordingState, not_recorded_words, recording_state
from memtab.store.history.blobs import BlobError, BlobStore
from memtab.store.history.recorder import history_problem
from memtab.store.history.runs import parse_run
from memtab.store.history.versions import parse_version
from memtab.store.home import Home, HomeLocation
from memtab.store.sidecars.registry import Registry, orphan_project_dirs, registry_from_document
from memtab.store.xum_locks import lock_files, lock_leftovers, lock_subjects, xum_locks_dir

# Why the home was chosen (`resolve_home`'s rules, store/home.py), in words.
_WHY = {
    "--home": "given with --home",
    "MEMTAB_HOME": "$MEMTAB_HOME is set",
    "XUM_ROOT": "$XUM_ROOT is set (mux's variable)",
    "MUX_ROOT": "$MUX_ROOT is set (mux's variable)",
    "~/.xum": "mux's home ~/.xum exists (looked for as mux does: ~/.xum, ~/.mux, ~/.cmux)",
    "~/.mux": "mux's earlier home ~/.mux exists, and no populated ~/.xum",
    "~/.cmux": "mux's earlier home ~/.cmux exists, and no ~/.xum or ~/.mux",
    "Memtab": "no variable is set and no mux home exists, so Memtab uses its own",
    "demo": "the demo home (memtab --demo)",
}


def home_why(source: str) -> str:
    """How `resolve_home` chose the home (`HomeLocation.source`), in words."""
    return _WHY.get(source, f"set by {source}")


class HomeFacts(Record, write_only=True):
    """`home`: where the home is, why, and whether Memtab can read and write it."""

    path: str
    source: str
    why: str
    exists: bool
    readable: bool
    writable: bool


class RegistryCounts(Record, write_only=True):
    """What a readable config.json registers (written as `registry`'s own fields)."""

    projects: int
    workspaces: int
    archived_workspaces: int
    multi_project_workspaces: int
    writer_interval: int
    skipped: tuple[str, ...]
    orphan_project_dirs: tuple[str, ...]


class RegistryFacts(Record, write_only=True):
    """`registry`: config.json, and what it registers — no counts when it cannot be read."""

    path: str
    exists: bool
    problem: str | None
    counts: Annotated[RegistryCounts | None, Inlined] = None


class KeptAsideCopy(Record, write_only=True):
    """A copy of a sidecar kept aside when it could not be parsed."""

    path: str
    size: int | None


class SidecarFacts(Record, write_only=True):
    """One row of `sidecars`: a sidecar's parse status, size and copies kept aside."""

    name: str
    path: str
    exists: bool
    size: int | None
    status: str
    problem: str | None
    kept_aside: tuple[KeptAsideCopy, ...]


def check_home(location: HomeLocation) -> tuple[HomeFacts, Findings]:
    """Where the home is, why, and whether Memtab can read and write it."""
    found = Findings("home")
    path = location.path
    exists = path.exists()
    is_dir = path.is_dir()
    readable = is_dir and os.access(path, os.R_OK | os.X_OK)
    writable = is_dir and os.access(path, os.W_OK | os.X_OK)
    if not exists:
        found.warning(f"The home {path} does not exist yet; the first memory written creates it")
    elif not is_dir:
        found.broken(f"The home {path} is not a directory")
    elif not readable:
        found.broken(f"The home {path} is not readable")
    elif not writable:
        found.broken(f"The home {path} is read-only: memories can be read, not changed")
    facts = HomeFacts(
        path=str(path),
        source=location.source,
        why=home_why(location.source),
        exists=exists,
        readable=readable,
        writable=writable,
    )
    return facts, found


def check_registry(home: Home) -> tuple[RegistryFacts, Findings, Registry | None]:
    """What config.json registers, and what of it was skipped (as mux's loader skips it)."""
    found = Findings("registry")
    read = read_sidecar(home.config_path)
    facts = RegistryFacts(path=str(home.config_path), exists=read.exists, problem=read.problem)
    if read.problem is not None:
        found.broken(
            f"{home.config_path} is {read.problem}: projects and workspaces cannot be read"
        )
        return facts, found, None
    registry = registry_from_document(home, read.document)
    workspaces = registry.workspaces
    counts = RegistryCounts(
        projects=len(registry.projects),
        workspaces=len(workspaces),
        archived_workspaces=sum(1 for ws in workspaces if ws.archived),
        multi_project_workspaces=sum(1 for ws in workspaces if ws.multi_project),
        writer_interval=registry.writer_interval,
        skipped=tuple(registry.problems),
        orphan_project_dirs=tuple(orphan_project_dirs(home, registry)),
    )
    for problem in registry.problems:
        found.warning(problem)
    return facts.replaced(counts=counts), found, registry


def sidecar_paths(home: Home, config_dir: Path) -> list[Path]:
    """Every sidecar of the home and of Memtab's config dir, in a stable order."""
    paths = [home.config_path, home.meta_path, home.journal_path, home.extension_metadata_path]
    workspace_ids = sorted(
        e.name for e in _entries(home.sessions_dir) if e.is_dir(follow_symlinks=False)
    )
    paths.extend(
        path
        for path in (home.writer_state_path(ws) for ws in workspace_ids)
        if path.exists() or _kept_aside(path)
    )
    paths.append(config_dir / SETTINGS_FILE_NAME)
    paths.extend(
        sorted(
            Path(entry.path)
            for entry in _entries(config_dir)
            if entry.name.endswith(".json")
            and entry.name != SETTINGS_FILE_NAME
            and entry.is_file(follow_symlinks=False)
        )
    )
    return paths


def _entries(directory: Path) -> list[os.DirEntry[str]]:
    """The entries of `directory`; none when it cannot be read (missing, or not a folder)."""
    try:
        with os.scandir(directory) as entries:
            return list(entries)
    except OSError:
        return []


def check_sidecars(home: Home, config_dir: Path) -> tuple[tuple[SidecarFacts, ...], Findings]:
    """Each sidecar's parse status, size and copies kept aside; one that cannot be used is
    broken, but for the UI state (only the window's layout)."""
    found = Findings("sidecars")
    rows: list[SidecarFacts] = []
    settings = config_dir / SETTINGS_FILE_NAME
    for path in sidecar_paths(home, config_dir):
        read = read_sidecar(path)
        kept = _kept_aside(path)
        status = "missing" if not read.exists and read.problem is None else "ok"
        if read.problem is not None:
            status = "unusable"
            if path.parent != config_dir or path == settings:  # all but the UI state's
                found.broken(
                    f"{path} is {read.problem}; Memtab reads it as empty until it is fixed"
                )
            else:
                found.warning(f"{path} is {read.problem}")
        if kept:
            newest = kept[-1]
            found.warning(
                f"{len(kept)} unusable cop{'y' if len(kept) == 1 else 'ies'} of {path.name} "
                f"kept aside in {path.parent} (newest: {newest.name}); compare with the "
                "current file, then delete them"
            )
        rows.append(
            SidecarFacts(
                name=path.name,
                path=str(path),
                exists=read.exists,
                size=len(read.raw) if read.raw is not None else None,
                status=status,
                problem=read.problem,
                kept_aside=tuple(KeptAsideCopy(path=str(copy), size=_size(copy)) for copy in kept),
            )
        )
    return tuple(rows), found


def _kept_aside(path: Path) -> list[Path]:
    """The copies of `path` kept aside, oldest first (their names sort by time)."""
    prefix = path.name + CORRUPT_INFIX
    return sorted(
        Path(entry.path)
        for entry in _entries(path.parent)
        if entry.name.startswith(prefix) and entry.is_file(follow_symlinks=False)
    )


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except OSError:
        return None


_PROBE = "doctor-probe"
_LINES_NAMED = 3  # bad lines of an index named by number; the rest are counted


class IndexFacts(Record, write_only=True):
    """One of `history.indexes`: an index (or the runs log), its records and bad lines."""

    path: str
    records: int
    bad_lines: tuple[int, ...]


class HistoryFacts(Record, write_only=True):
    """`history`: whether it can keep copies, what it stored, and its indexes."""

    path: str
    exists: bool
    writable: bool | None = None
    contents: int = 0
    unreadable_contents: int = 0
    indexes: tuple[IndexFacts, ...] = ()
    recording: RecordingState | None = None
    """What the last recording pass said (`recording.json`), None when none has."""


class XumLockFacts(Record, write_only=True):
    """One of `locks.xum.locks`: a lock file, what it guards, who holds it since when."""

    path: str
    guards: str | None
    reclaim_guard: bool
    pid: int | None
    alive: bool | None
    since: int
    stale: bool


class LeftoverFacts(Record, write_only=True):
    """One of `locks.xum.leftovers`: a temp file or moved-aside lock, and its mtime."""

    path: str
    since: int


class XumLocksFacts(Record, write_only=True):
    """`locks.xum`: xum's lock files in the home, and what killed processes left."""

    locks: tuple[XumLockFacts, ...]
    leftovers: tuple[LeftoverFacts, ...]


class LocksFacts(Record, write_only=True):
    """`locks`: whether a lock can be taken, and the lock files that are not files."""

    path: str
    lockable: bool | None = None
    not_lock_files: Annotated[tuple[str, ...] | None, OmitNone] = None
    xum: Annotated[XumLocksFacts | None, OmitNone] = None


def check_history(home: Home) -> tuple[HistoryFacts, Findings]:
    """Whether history can keep copies, read back what it stored, and parse its indexes and runs
    log."""
    found = Findings("history")
    root = home.history_dir
    facts = HistoryFacts(path=str(root), exists=root.exists())
    if not os.path.lexists(root):
        return facts, found  # made by the first change
    if not root.is_dir():
        found.broken(
            f"{root} is not a directory: history cannot keep a copy of what a change "
            "replaces, so deletes and overwrites are refused"
        )
        return facts, found
    problem = _write_problem(root, [root, home.history_blobs_dir, home.history_index_dir])
    if problem is not None:
        found.broken(
            f"History cannot keep copies ({problem}): deletes and overwrites are refused "
            "until it can"
        )
    contents, unreadable = _check_contents(home, found)
    recording = recording_state(home)
    if recording is not None and not recording.recording:
        since = humanize.absolute_time(recording.since_ms)[:16] if recording.since_ms else "a while"
        words = not_recorded_words(recording, since)
        if problem is None:
            found.warning(f"{words} (it can be written now: the next recording pass catches up)")
        else:
            found.broken(words)
    return facts.replaced(
        writable=problem is None,
        contents=contents,
        unreadable_contents=unreadable,
        indexes=_check_indexes(home, found),
        recording=recording,
    ), found


def _write_problem(history_dir: Path, directories: list[Path]) -> str | None:
    """Why a probe cannot be written in one of `directories` (those that exist), or None."""
    for directory in directories:
        if not directory.exists():
            continue
        try:
            with Directory.open(directory) as opened:
                opened.discard(opened.write_temp(_PROBE, b"probe"))
        except OSError as error:
            return history_problem(error, history_dir)
    return None


def _check_contents(home: Home, found: Findings) -> tuple[int, int]:
    """Read back every stored content and check its sha: how many, and how many unreadable."""
    blobs = BlobStore(home.history_blobs_dir)
    try:
        os.scandir(blobs.directory).close()
    except FileNotFoundError:
        return 0, 0
    except OSError as error:
        found.broken(f"{blobs.directory} cannot be read: {error.strerror or error}")
        return 0, 0
    stored = unreadable = 0
    for info in blobs.all():
        stored += 1
        try:
            blobs.get(info.sha256)
        except BlobError:
            unreadable += 1
    if unreadable:
        found.broken(
            f"{plural(unreadable, 'stored content')} in {blobs.directory} cannot be read "
            "(damaged or unreadable): the versions that hold them cannot be restored"
        )
    return stored, unreadable


def _check_indexes(home: Home, found: Findings) -> tuple[IndexFacts, ...]:
    """Parse every line of each scope's index and of the runs log, as their readers do."""
    try:
        names = sorted(n for n in os.listdir(home.history_index_dir) if n.endswith(".jsonl"))
    except FileNotFoundError:
        names = []
    except OSError as error:
        found.broken(f"{home.history_index_dir} cannot be read: {error.strerror or error}")
        names = []
    files = [(home.history_index_dir / name, "version") for name in names]
    indexes: list[IndexFacts] = []
    if home.runs_log_path.exists():
        files.append((home.runs_log_path, "run"))
    for path, kind in files:
        try:
            data = path.read_bytes()
        except OSError as error:
            found.broken(f"{path} cannot be read: {error.strerror or error}")
            continue
        records, bad = _parse_lines(data, kind)
        indexes.append(IndexFacts(path=str(path), records=records, bad_lines=tuple(bad)))
        if bad:
            named = ", ".join(str(number) for number in bad[:_LINES_NAMED])
            more = f" and {len(bad) - _LINES_NAMED} more" if len(bad) > _LINES_NAMED else ""
            found.broken(
                f"{path}: {plural(len(bad), 'line')} cannot be read (line {named}{more}): "
                f"the {kind}s they held are not shown; they are kept as they are"
            )
    return tuple(indexes)


def _parse_lines(data: bytes, kind: str) -> tuple[int, list[int]]:
    """How many lines parse as records of `kind`, and the numbers of those that do not."""
    parse = parse_version if kind == "version" else parse_run
    lines = [(number, line) for number, line in enumerate(data.split(b"\n"), 1) if line.strip()]
    bad = []
    for number, line in lines:
        try:
            value = parse_json(line)
            record = parse(value) if isinstance(value, dict) else None
        except (JsonError, TypeError, ValueError, KeyError):
            record = None
        if record is None:
            bad.append(number)
    return len(lines) - len(bad), bad


def check_locks(home: Home) -> tuple[LocksFacts, Findings]:
    """Whether a lock can be taken and released in the locks directory."""
    found = Findings("locks")
    probe = home.lock_path(_PROBE)
    facts = LocksFacts(path=str(probe.parent))
    if not home.root.is_dir():
        return facts, found  # no home yet: the home check says so
    try:
        with interprocess_lock(probe, timeout_s=0):
            pass
    except LockUnavailableError:
        return facts.replaced(lockable=True), found  # another doctor holds it: locks work
    except OSError as error:
        where = f" ({error.filename})" if error.filename else ""
        found.broken(
            f"No lock can be taken in {probe.parent}: {error.strerror or error}{where}; "
            "every change to memory fails until it can"
        )
        return facts.replaced(lockable=False), found
    with contextlib.suppress(OSError):
        probe.unlink()
    blocked = sorted(  # the `*.lock` entries no regular file: each fails its lock's takers
        Path(entry.path)
        for directory in (probe.parent, xum_locks_dir(home))  # a missing one: made with a lock
        for entry in _entries(directory)
        if entry.name.endswith(".lock") and not entry.is_file(follow_symlinks=False)
    )
    for path in blocked:
        found.broken(
            f"{path} is not a lock file (a directory or another kind of entry): every "
            "change that takes this lock fails until it is removed"
        )
    return facts.replaced(
        lockable=not blocked, not_lock_files=tuple(str(path) for path in blocked)
    ), found


def check_xum_locks(home: Home, found: Findings) -> XumLocksFacts:
    """The `locks.xum` section of the doctor's report; warnings go to `found`."""
    subjects = lock_subjects(home)
    locks: list[XumLockFacts] = []
    for path in lock_files(home):
        state = lock_state(path)
        if state is None:
            continue  # released while we looked
        guards = subjects.get(path.name.removesuffix(".reclaim"))
        locks.append(
            XumLockFacts(
                path=str(path),
                guards=guards,
                reclaim_guard=path.name.endswith(".reclaim"),
                pid=state.pid,
                alive=state.alive,
                since=int(state.since * 1000),
                stale=state.stale,
            )
        )
        if state.alive is False:
            found.warning(
                f"xum's lock {path}{f' ({guards})' if guards else ''} is held by process "
                f"{state.pid}, which is gone: the next change of that memory takes it over"
            )
    leftovers: list[LeftoverFacts] = []
    for path in lock_leftovers(home):
        try:
            since = int(os.stat(path).st_mtime * 1000)
        except OSError:
            continue
        leftovers.append(LeftoverFacts(path=str(path), since=since))
    return XumLocksFacts(locks=tuple(locks), leftovers=tuple(leftovers))
