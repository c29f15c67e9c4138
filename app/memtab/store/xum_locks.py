"""The locks xum holds around its memory, taken in its order inside Memtab's own (target lock, then
memory-meta.json's), and its removed workspaces (docs/formats.md §21); lock files in xum's protocol
(`lease_lock`)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from memtab.fs.atomic import encode_utf8
from memtab.fs.locking.lease_lock import (
    LeaseLock,
    LeaseLockBusyError,
    is_leftover_name,
    remove_if_leftover,
)
from memtab.fs.locking.locks import DEFAULT_TIMEOUT_S, interprocess_lock
from memtab.store.errors import MemoryStoreError, ScopeBusyError, ScopeUnavailableError
from memtab.store.home import Home

TARGET_WAIT_S = 2.0  # xum's TARGET_MUTATION_LOCK_TIMEOUT_MS and MEMORY_META_LOCK_TIMEOUT_MS
META_WAIT_S = 5.0
BUSY_MESSAGE = "Another process is changing this memory (xum holds its lock); try again"
META_LOCK_NAME = "memory-meta"  # Memtab's own lock of memory-meta.json (docs/formats.md §14.1)


class WorkspaceRemovedError(ScopeUnavailableError):
    """The workspace was removed in xum: its notebook takes no more writes."""


def _digest(text: str) -> str:
    return hashlib.sha256(encode_utf8(text)).hexdigest()[:32]


def xum_locks_dir(home: Home) -> Path:
    return home.root / "locks"


def memory_lock_key(home: Home, store_root: Path) -> str:
    """xum's key for a memory store root (`memoryMutationLockKey`), as Node's `path.resolve`."""
    memory_root = os.path.abspath(home.root / "memory")
    resolved = os.path.abspath(store_root)
    if resolved == memory_root or resolved.startswith(memory_root + os.sep):
        return memory_root
    return resolved


def xum_home_spellings(home: Home, env: Mapping[str, str] | None = None) -> list[Path]:
    """The names xum may know this home by (the lock name hashes it unresolved): the home and each
    `getXumHome` path that is this directory."""
    environ = os.environ if env is None else env
    spellings = [Path(os.path.abspath(home.root))]
    candidates = [Path.home() / name for name in (".xum", ".mux", ".cmux")]
    root = environ.get("XUM_ROOT", environ.get("MUX_ROOT"))
    if root:
        candidates.insert(0, Path(os.path.abspath(root)))
    real = os.path.realpath(home.root)
    for candidate in candidates:
        if candidate not in spellings and os.path.realpath(candidate) == real:
            spellings.append(candidate)
    return spellings


def target_lock_paths(home: Home, store_roots: Iterable[Path]) -> list[Path]:
    """Every target lock file of these roots under every spelling of the home, sorted."""
    paths: set[Path] = set()
    for root in store_roots:
        try:
            inside = Path(os.path.abspath(root)).relative_to(os.path.abspath(home.root))
        except ValueError:  # a root outside the home: it has one name
            paths.add(target_lock_path(home, memory_lock_key(home, root)))
            continue
        for spelling in xum_home_spellings(home):
            spelled = Home(spelling)
            paths.add(target_lock_path(spelled, memory_lock_key(spelled, spelling / inside)))
    return sorted(paths)


def target_lock_path(home: Home, key: str) -> Path:
    """`<home>/locks/target-<sha256(key)[:32]>.lock` (`targetMutationLockFilePath`)."""
    return xum_locks_dir(home) / f"target-{_digest(os.path.abspath(key))}.lock"


def meta_lock_path(home: Home) -> Path:
    return home.meta_path.with_name(home.meta_path.name + ".lock")


def lock_leftovers(home: Home) -> list[Path]:
    """The temp files and moved-aside stale locks beside xum's locks."""
    found: list[Path] = []
    meta_lock = meta_lock_path(home).name
    for directory, prefix in ((xum_locks_dir(home), ""), (home.root, meta_lock)):
        try:
            with os.scandir(directory) as entries:
                names = [e.name for e in entries if e.name.startswith(prefix)]
        except OSError:
            continue
        found += [directory / name for name in sorted(names) if is_leftover_name(name)]
    return found


def remove_lock_leftovers(home: Home, *, now: float | None = None) -> int:
    """Remove what killed processes left beside xum's locks; how many went."""
    return sum(remove_if_leftover(path, now=now) for path in lock_leftovers(home))


def lock_files(home: Home) -> list[Path]:
    """The lock files in xum's protocol present now."""
    found: list[Path] = []
    meta_lock = meta_lock_path(home)
    for directory, prefix in ((xum_locks_dir(home), ""), (home.root, meta_lock.name)):
        try:
            with os.scandir(directory) as entries:
                names = [e.name for e in entries if e.name.startswith(prefix) and e.is_file()]
        except OSError:
            continue
        found += [directory / n for n in sorted(names) if n.endswith((".lock", ".lock.reclaim"))]
    return found


def lock_subjects(home: Home) -> dict[str, str]:
    """What each lock file of this home guards, in words."""
    subjects = {meta_lock_path(home).name: "memory-meta.json"}
    roots = {home.root / "memory": "global and project memory"}
    try:
        with os.scandir(home.sessions_dir) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    name = entry.name
                    roots[home.workspace_root(name)] = f"workspace {name}'s notebook"
                    roots[home.session_root(name)] = f"workspace {name}'s session memory"
    except OSError:
        pass
    for root, subject in roots.items():
        for path in target_lock_paths(home, [root]):
            subjects[path.name] = subject
    return subjects


def removal_tombstone_path(home: Home, workspace_id: str) -> Path:
    """`<home>/locks/workspace-removed-<sha256(id)[:32]>.json`."""
    return xum_locks_dir(home) / f"workspace-removed-{_digest(workspace_id)}.json"


def workspace_removed(home: Home, workspace_id: str) -> bool:
    """Whether xum removed the workspace; fails closed as xum does."""
    try:
        return bool(workspace_id) and bool(os.stat(removal_tombstone_path(home, workspace_id)))
    except FileNotFoundError:
        return False
    except OSError:
        return True


def removed_message(workspace_id: str) -> str:
    nothing = "Memtab writes nothing into its memory any more"
    return f"Workspace {workspace_id} was removed in xum: {nothing}"


def owner_of_root(home: Home, store_root: Path) -> str | None:
    """The workspace whose session dir holds `store_root` (None for global/project)."""
    try:
        relative = Path(os.path.abspath(store_root)).relative_to(os.path.abspath(home.sessions_dir))
    except ValueError:
        return None
    return relative.parts[0] if relative.parts else None


def refuse_if_removed(home: Home, workspace_ids: Iterable[str | None]) -> None:
    """WorkspaceRemovedError when any of these workspaces was removed in xum."""
    for workspace_id in dict.fromkeys(w for w in workspace_ids if w):
        if workspace_removed(home, workspace_id):
            raise WorkspaceRemovedError(removed_message(workspace_id))


_holding = threading.local()


@contextlib.contextmanager
def _holding_lease(path: Path, label: str, timeout_s: float) -> Iterator[None]:
    held: set[str] = vars(_holding).setdefault("paths", set())  # this thread's
    key = os.path.abspath(path)
    if key in held:  # this thread holds it already (one lock, two scopes)
        yield
        return
    lock = LeaseLock(path, label)
    try:
        lock.acquire(timeout_s)
    except LeaseLockBusyError as error:
        raise ScopeBusyError(f"{BUSY_MESSAGE} ({error})") from None
    except OSError as error:  # xum could not take it either: nothing is changed
        raise MemoryStoreError(
            f"Cannot take xum's lock {path}: {error.strerror or error}"
        ) from None
    held.add(key)
    try:
        yield
    finally:
        held.discard(key)
        lock.release()


@contextlib.contextmanager
def holding_targets(
    home: Home, store_roots: Iterable[Path], *, timeout_s: float | None = None
) -> Iterator[None]:
    """Hold xum's target locks of these roots (sorted), each up to `timeout_s` (None:
    TARGET_WAIT_S); ScopeBusyError otherwise."""
    wait_s = TARGET_WAIT_S if timeout_s is None else timeout_s
    with contextlib.ExitStack() as stack:
        for path in target_lock_paths(home, store_roots):
            stack.enter_context(_holding_lease(path, "target mutation lock", wait_s))
        yield


@contextlib.contextmanager
def holding_meta(home: Home, *, timeout_s: float = DEFAULT_TIMEOUT_S) -> Iterator[None]:
    """Hold Memtab's lock of memory-meta.json, then xum's (to META_WAIT_S); LockUnavailableError."""
    with interprocess_lock(home.lock_path(META_LOCK_NAME), timeout_s=timeout_s):
        lock = LeaseLock(meta_lock_path(home), "memory sidecar lock")
        try:
            lock.acquire(min(timeout_s, META_WAIT_S))  # xum's wait; read counts wait less
        except LeaseLockBusyError as error:
            raise LeaseLockBusyError(f"{BUSY_MESSAGE} ({error})") from None
        try:
            yield
        finally:
            lock.release()
