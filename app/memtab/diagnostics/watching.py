"""Which file watcher the window would use here, and whether inotify has room for the home (each
directory takes a watch of a per-user limit; past it the window polls)."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from watchdog.observers import Observer

from memtab.diagnostics.report import Findings
from memtab.fs.records import Record
from memtab.store.files import outline_scope
from memtab.store.home import Home
from memtab.store.leftovers import xum_temp_leftovers
from memtab.store.paths import MAX_PATH_DEPTH, short_path, too_deep_words
from memtab.watch.observers import WATCH_MAX_DEPTH

INOTIFY_LIMITS = Path("/proc/sys/fs/inotify")
PROC = Path("/proc")
_INOTIFY_LINK = "anon_inode:inotify"
_WATCH_LINE = b"inotify wd:"


def watchdog_backend() -> str:
    """The observer watchdog chose here ("inotify", "fsevents", "kqueue", "windowsapi",
    "polling")."""
    chosen = cast(type, Observer)  # a class picked at import; typed as an alias
    for cls in chosen.__mro__:
        if cls.__module__.startswith("watchdog.") and cls.__name__.endswith("Observer"):
            return cls.__name__.removesuffix("Observer").lower()
    return chosen.__name__.lower()


@dataclass(frozen=True)
class InotifyUse:
    """This user's inotify instances and watches in use (None when /proc does not say)."""

    instances: int | None
    watches: int | None


def inotify_in_use(proc: Path = PROC, uid: int | None = None) -> InotifyUse:
    """Count the inotify instances and watches held by this user's processes."""
    uid = os.getuid() if uid is None and hasattr(os, "getuid") else uid
    instances = watches = 0
    readable = False
    try:
        pids = [entry.name for entry in os.scandir(proc) if entry.name.isdigit()]
    except OSError:
        return InotifyUse(None, None)
    for pid in pids:
        fd_dir = proc / pid / "fd"
        try:
            if uid is not None and (proc / pid).stat().st_uid != uid:
                continue
            fds = list(os.scandir(fd_dir))
        except OSError:
            continue  # gone, or another user's
        readable = True
        for fd in fds:
            try:
                if os.readlink(fd.path) != _INOTIFY_LINK:
                    continue
                info = (proc / pid / "fdinfo" / fd.name).read_bytes()
            except OSError:
                continue
            instances += 1
            watches += sum(1 for line in info.splitlines() if line.startswith(_WATCH_LINE))
    return InotifyUse(instances, watches) if readable else InotifyUse(None, None)


def _read_limit(name: str, limits: Path) -> int | None:
    try:
        return int((limits / name).read_text().strip())
    except (OSError, ValueError):
        return None


def _walk_directories(root: Path) -> tuple[int, str | None]:
    """How many directories are under `root`, and the first more than `WATCH_MAX_DEPTH` below."""
    count, pending = 0, [(str(root), 0)]
    deep: str | None = None
    while pending:
        current, depth = pending.pop()
        count += 1
        if depth > WATCH_MAX_DEPTH and deep is None:
            deep = current
        try:
            with os.scandir(current) as entries:
                pending.extend(
                    (e.path, depth + 1) for e in entries if e.is_dir(follow_symlinks=False)
                )
        except OSError:
            continue
    return count, deep


def check_depth(home: Home) -> Findings:
    """A warning for each folder of the memory whose contents are too deep to be seen."""
    found = Findings("memory")
    for words in too_deep_memory(home):
        found.warning(
            f"Not listed, searched, recorded or synced: {words}; memory paths go at most "
            f"{MAX_PATH_DEPTH} levels below their scope: move or delete them"
        )
    return found


def check_xum_temps(home: Home) -> Findings:
    """A warning naming xum's temp files a killed xum left in the memory (§16)."""
    found = Findings("memory")
    if left := xum_temp_leftovers(home):
        shown = ", ".join(str(path) for path in left[:5])
        more = f" and {len(left) - 5} more" if len(left) > 5 else ""
        found.warning(
            f"xum's temp files left by an interrupted write: {shown}{more}. They are not "
            "memory (never listed, recorded or synced); delete them once xum is not running"
        )
    return found


def too_deep_memory(home: Home) -> list[str]:
    """Every scope folder past the depth memory paths go to (docs/formats.md §5)."""
    return [
        f"{too_deep_words(path)} (in {root})"
        for scope, root in home.scope_roots()
        for path in outline_scope(scope, root).too_deep
    ]


class InotifyFacts(Record, write_only=True):
    """`watcher.inotify`: the user's limits, what is in use, and the watches left."""

    max_user_watches: int | None
    max_user_instances: int | None
    watches_in_use: int | None
    instances_in_use: int | None
    headroom: int | None


class WatcherFacts(Record, write_only=True):
    """`watcher`: the backend, the home's directories, and inotify (Linux only)."""

    backend: str
    native: bool
    home_directories: int
    inotify: InotifyFacts | None = None


def check_watcher(
    home_root: Path, *, limits: Path = INOTIFY_LIMITS, proc: Path = PROC, backend: str | None = None
) -> tuple[WatcherFacts, Findings]:
    """The backend, the home's directory count and, on Linux, the inotify headroom."""
    found = Findings("watcher")
    backend = backend or watchdog_backend()
    directories, deep = _walk_directories(home_root) if home_root.is_dir() else (0, None)
    facts = WatcherFacts(backend=backend, native=backend != "polling", home_directories=directories)
    if deep is not None and backend != "polling":
        found.warning(
            f"{short_path(deep)} is more than {WATCH_MAX_DEPTH} levels below the home: "
            "the native file watcher may not follow a tree this deep (watchdog walks it by "
            "recursion), and then the window and memtab watch poll instead, noticing "
            "changes a second or two later"
        )
    if backend == "polling":
        found.warning(
            "watchdog has no native file watcher here: the window polls the home, so it "
            "notices changes a second or two later"
        )
    if backend != "inotify" or not sys.platform.startswith("linux"):
        return facts, found
    max_watches = _read_limit("max_user_watches", limits)
    max_instances = _read_limit("max_user_instances", limits)
    use = inotify_in_use(proc)
    headroom = (
        max_watches - use.watches
        if max_watches is not None and use.watches is not None
        else max_watches
    )
    inotify = InotifyFacts(
        max_user_watches=max_watches,
        max_user_instances=max_instances,
        watches_in_use=use.watches,
        instances_in_use=use.instances,
        headroom=headroom,
    )
    if headroom is not None and headroom < directories:
        found.warning(
            f"The home has {directories} directories but only {headroom} more inotify "
            f"watches are free (fs.inotify.max_user_watches = {max_watches}, "
            f"{use.watches if use.watches is not None else 'unknown'} in use, a running "
            "Memtab's own included): the window will poll the rest; raise the limit with "
            "sysctl fs.inotify.max_user_watches=<n>"
        )
    if max_instances is not None and use.instances is not None and use.instances >= max_instances:
        found.warning(
            f"All {max_instances} inotify instances of this user are taken "
            "(fs.inotify.max_user_instances): a new window will poll the home"
        )
    return facts.replaced(inotify=inotify), found
