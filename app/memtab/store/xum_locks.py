"""The locks xum holds around its memory, and its removed workspaces (docs/formats.md §21).

Memtab takes them around every change it makes to a xum home, in xum's order, inside its
own locks (`fs/locking/locks.py`):

1. the target lock of the memory store changed (`targetMutationLocks.ts`):
   `<home>/locks/target-<sha256(key)[:32]>.lock`, key `<home>/memory` for the global and
   project scopes, `<home>/sessions/<owner>/memory` for a workspace, the root itself for a
   session scope (2 s, then refused);
2. inside it, when `memory-meta.json` changes, `<home>/memory-meta.json.lock`
   (`memoryMeta.ts`, 5 s).

`<home>/locks/workspace-removed-<sha256(id)[:32]>.json` (`workspaceRemoval.ts`) means the
workspace is gone: nothing is written into its notebook (checked inside the target lock,
as xum does, so a removal published while Memtab waited is seen).

The locks are lock files in xum's protocol (`memtab.fs.locking.lease_lock`). A thread already
holding a target lock does not take it again (the global and project scopes share one).
"""

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

# xum's waits: TARGET_MUTATION_LOCK_TIMEOUT_MS and MEMORY_META_LOCK_TIMEOUT_MS.
TARGET_WAIT_S = 2.0
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
    """xum's key for a memory store root (`memoryMutationLockKey`): `<home>/memory` for
    any root inside it (global, projects), else the root itself; resolved as Node's
    `path.resolve` does (absolute and normalized, links not followed)."""
    memory_root = os.path.abspath(home.root / "memory")
    resolved = os.path.abspath(store_root)
    if resolved == memory_root or resolved.startswith(memory_root + os.sep):
        return memory_root
    return resolved


def xum_home_spellings(home: Home, env: Mapping[str, str] | None = None) -> list[Path]:
    """The names xum may know this home by: the target lock's name hashes the home as xum
    spells it, without following links (`~/.mux` when that is a link to the home Memtab
    found through it). The home itself, and each path xum's `getXumHome` could return
    (`XUM_ROOT` else `MUX_ROOT`, unexpanded; `~/.xum`, `~/.mux`, `~/.cmux`) that is this
    very directory."""
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
    """Every target lock file of these store roots, under every spelling of the home
    (`xum_home_spellings`), sorted: the one xum takes is among them."""
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
    """The temp files and moved-aside stale locks beside xum's locks (in `<home>/locks`,
    and `memory-meta.json.lock`'s in the home root), whoever left them."""
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
    """Remove what killed processes left beside xum's locks and no process can still use
    (`lease_lock.remove_if_leftover`); how many went."""
    return sum(remove_if_leftover(path, now=now) for path in lock_leftovers(home))


def lock_files(home: Home) -> list[Path]:
    """The lock files in xum's protocol present now: every `*.lock` (and its `.reclaim`
    guard) in `<home>/locks`, and `memory-meta.json.lock`'s."""
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
    """What each lock file name of this home guards, as a reader says it: the target lock
    of the global and project memory and of each workspace's notebook, memory-meta.json."""
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
    """Whether xum removed the workspace. Fails closed as xum does: only a missing
    tombstone means "not removed" (a locks dir that cannot be read counts as removed)."""
    if not workspace_id:
        return False
    try:
        os.stat(removal_tombstone_path(home, workspace_id))
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return True


def removed_message(workspace_id: str) -> str:
    return (
        f"Workspace {workspace_id} was removed in xum: Memtab writes nothing into its "
        "memory any more"
    )


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


def _held_here() -> set[str]:
    held: set[str] | None = getattr(_holding, "paths", None)
    if held is None:
        held = _holding.paths = set()
    return held


@contextlib.contextmanager
def _holding_lease(path: Path, label: str, timeout_s: float) -> Iterator[None]:
    held = _held_here()
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
    """Hold xum's target locks of these memory store roots (sorted, as xum takes several),
    each waited for up to `timeout_s`; ScopeBusyError with BUSY_MESSAGE when one is not
    had in time (`timeout_s` None: TARGET_WAIT_S)."""
    wait_s = TARGET_WAIT_S if timeout_s is None else timeout_s
    with contextlib.ExitStack() as stack:
        for path in target_lock_paths(home, store_roots):
            stack.enter_context(_holding_lease(path, "target mutation lock", wait_s))
        yield


@contextlib.contextmanager
def holding_meta(home: Home, *, timeout_s: float = DEFAULT_TIMEOUT_S) -> Iterator[None]:
    """Hold Memtab's lock of memory-meta.json, then xum's (`<home>/memory-meta.json.lock`,
    waited for at most META_WAIT_S): the read-modify-write of the file happens inside.
    LockUnavailableError (a TimeoutError) when either is not had in time."""
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
