"""A project's checkout as a check sees it: its files, indexed once, and its targets.

The files of a git repository are what `git ls-files` lists (tracked, and untracked ones
.gitignore does not exclude), so build output and dependencies are not suggested as the
new place of a moved file; another directory is walked, at most `MAX_WALK_FILES` files,
skipping dependency and cache folders. The index only suggests: whether a path a memory
names exists is always asked of the disk (one `lstat`), so a stale index never reports a
file that is there. `CheckoutCache` keeps each index until its signature changes (git's
index file and the top folder for a repository, every folder walked otherwise).
"""

from __future__ import annotations

import logging
import os
import stat
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from memtab.check.scripts import (
    JUSTFILE_NAMES,
    MAKEFILE_NAMES,
    MISE_CONFIGS,
    NodePackage,
    PythonProject,
    Targets,
    just_recipes,
    make_targets,
    mise_tasks,
    node_package,
    package_scripts,
    python_project,
)
from memtab.file_protocol.file_ref import SourceError
from memtab.fs.user_files import read_regular_file
from memtab.sources.history import run_git

logger = logging.getLogger(__name__)

MAX_WALK_FILES = 50_000
SKIPPED_DIRS = frozenset(
    {
        ".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".nox",
        ".mypy_cache", ".pytest_cache", ".ruff_cache", ".next", ".nuxt", ".cache",
        ".gradle", ".idea", ".vscode", "target", "dist", "build", ".svelte-kit",
    }
)  # fmt: skip
# Where a project keeps the programs it installs for itself.
PROJECT_BIN_DIRS = ("node_modules/.bin", ".venv/bin", "venv/bin", ".venv/Scripts")


@dataclass(frozen=True)
class Checkout:
    """The files of one checkout (relative, `/`-separated) and where to find them by name."""

    root: Path
    files: frozenset[str]
    directories: frozenset[str]
    git: bool
    truncated: bool = False
    by_name: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    _read: dict[str, tuple[object, object]] = field(default_factory=dict, compare=False, repr=False)
    memo: dict[tuple[str, str], bool] = field(default_factory=dict, compare=False, repr=False)
    """What one check learnt about programs here (`check.rules.runnable`); cleared by each check."""
    definitions: dict[tuple[str, str], str | None] = field(
        default_factory=dict, compare=False, repr=False
    )
    """Which definition file (a Makefile…) each folder has, as one check found."""

    def exists(self, relative: str) -> bool:
        """Whether `relative` is on disk (never answered from the index alone)."""
        return os.path.lexists(os.path.join(self.root, relative))

    def is_dir(self, relative: str) -> bool:
        return os.path.isdir(os.path.join(self.root, relative))

    def named(self, name: str) -> tuple[str, ...]:
        """Every file and folder of the index with this name."""
        return self.by_name.get(name, ())

    def manifests(self, names: Iterable[str]) -> list[str]:
        """The files of the index with one of these names, shallowest first."""
        wanted = set(names)
        found = [path for name in wanted for path in self.named(name) if path in self.files]
        return sorted(found, key=lambda path: (path.count("/"), path))

    def targets(self, relative: str) -> Targets:
        """The targets the definition file `relative` defines (read again only when it
        changed)."""
        found = self._cached(relative, _read_targets)
        assert isinstance(found, Targets)
        return found

    def mise(self, directory: str = "") -> Targets:
        """The mise tasks of the project at `directory` (read again when a config
        changed)."""
        root = self.root / directory if directory else self.root
        prefix = f"{directory}/" if directory else ""
        key = tuple(_stat_key(root / config) for config in MISE_CONFIGS)
        cached = self._read.get(f"mise:{directory}")
        if cached is not None and cached[0] == key:
            assert isinstance(cached[1], Targets)
            return cached[1]
        files = [path[len(prefix) :] for path in self.files if path.startswith(prefix)]
        tasks = mise_tasks(root, files)
        self._read[f"mise:{directory}"] = (key, tasks)
        return tasks

    def node(self, relative: str) -> NodePackage:
        found = self._cached(relative, node_package)
        assert isinstance(found, NodePackage)
        return found

    def provides(self, program: str) -> bool:
        """Whether the project itself provides `program`: a script of one of its
        pyproject.toml files or a tool one depends on, a program one of its package.json
        files installs or depends on, a Go command of its `cmd/` folder (installed with
        the project's dependencies, or built from it)."""
        if any(self.python(p).runs(program) for p in self.manifests(("pyproject.toml",))):
            return True
        if any(program in self.node(p).programs for p in self.manifests(("package.json",))):
            return True
        return f"cmd/{program}" in self.directories

    def python(self, relative: str) -> PythonProject:
        found = self._cached(relative, python_project)
        assert isinstance(found, PythonProject)
        return found

    def read(self, relative: str, reader: Callable[[Path], object]) -> object:
        """What `reader` makes of the checkout's file `relative`, read again only when the
        file changed (the rules' reads: a README's facts)."""
        return self._cached(relative, reader)

    def _cached(self, relative: str, read: Callable[[Path], object]) -> object:
        """What `read` makes of a file, read again only when the file changed."""
        key = _stat_key(self.root / relative)
        slot = f"{read.__name__}:{relative}"
        cached = self._read.get(slot)
        if cached is not None and cached[0] == key:
            return cached[1]
        value = read(self.root / relative)
        self._read[slot] = (key, value)
        return value

    def project_program(self, program: str, directory: str = "") -> str | None:
        """Where the project installed `program` for itself (node_modules/.bin, .venv/bin),
        in `directory` or the checkout's root; None when it did not."""
        for base in dict.fromkeys((directory, "")):
            for bin_dir in PROJECT_BIN_DIRS:
                relative = f"{base}/{bin_dir}" if base else bin_dir
                names = self._listed(relative)
                if program in names or f"{program}.exe" in names:
                    return f"{relative}/{program}"
        return None

    def _listed(self, relative: str) -> frozenset[str]:
        """The names in a folder of the checkout (none when it is not one), listed again
        only when it changed."""
        path = os.path.join(self.root, relative)
        key = _stat_key(path)
        cached = self._read.get(f"listed:{relative}")
        if cached is not None and cached[0] == key:
            assert isinstance(cached[1], frozenset)
            return cached[1]
        try:
            names = frozenset(os.listdir(path)) if key is not None else frozenset()
        except OSError:
            names = frozenset()
        self._read[f"listed:{relative}"] = (key, names)
        return names


def _read_targets(path: Path) -> Targets:
    name = path.name
    if name in MAKEFILE_NAMES:
        return make_targets(path)
    if name in JUSTFILE_NAMES:
        return just_recipes(path)
    return package_scripts(path)


def build_checkout(root: Path) -> Checkout:
    """Index `root` (see the module doc); a directory git cannot list is walked."""
    if os.path.lexists(root / ".git"):
        try:
            listed = run_git(root, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
        except SourceError as error:
            logger.info("Walking %s: git cannot list it (%s)", root, error)
        else:
            files = [path for path in listed.split("\0") if path]
            return _indexed(root, files, git=True, truncated=False)
    files, truncated = _walk(root)
    return _indexed(root, files, git=False, truncated=truncated)


def _indexed(root: Path, files: list[str], *, git: bool, truncated: bool) -> Checkout:
    directories: set[str] = set()
    for path in files:
        parent = path.rpartition("/")[0]
        while parent and parent not in directories:
            directories.add(parent)
            parent = parent.rpartition("/")[0]
    by_name: dict[str, list[str]] = {}
    for path in (*files, *directories):
        by_name.setdefault(path.rpartition("/")[2], []).append(path)
    return Checkout(
        root,
        frozenset(files),
        frozenset(directories),
        git,
        truncated,
        {name: tuple(sorted(paths)) for name, paths in by_name.items()},
    )


def _walk(root: Path) -> tuple[list[str], bool]:
    files: list[str] = []
    pending = [""]
    while pending:
        relative = pending.pop()
        try:
            with os.scandir(root / relative if relative else root) as entries:
                found = list(entries)
        except OSError:
            continue
        for entry in found:
            path = f"{relative}/{entry.name}" if relative else entry.name
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in SKIPPED_DIRS:
                        pending.append(path)
                elif entry.is_file(follow_symlinks=False) or entry.is_symlink():
                    files.append(path)
            except OSError:
                continue
            if len(files) >= MAX_WALK_FILES:
                return files, True
    return files, False


def checkout_signature(root: Path, checkout: Checkout | None = None) -> tuple[object, ...]:
    """What changes when the index should be made again (see the module doc)."""
    signature: list[object] = [_stat_key(root)]
    git = root / ".git"
    if os.path.isdir(git):
        signature += [_stat_key(git / "index"), _stat_key(git / "HEAD")]
    elif os.path.isfile(git):
        signature += [_stat_key(git), *_worktree_keys(git)]
    elif checkout is not None:
        signature += [_stat_key(root / d) for d in sorted(checkout.directories)]
    return tuple(signature)


def _worktree_keys(pointer: Path) -> list[object]:
    """A linked worktree's `.git` file names its git dir (`gitdir: …`)."""
    try:
        text = read_regular_file(pointer, limit=4096, truncate=True).decode("utf-8", "replace")
    except OSError:
        return []
    if not text.startswith("gitdir:"):
        return []
    git_dir = Path(text[len("gitdir:") :].strip().splitlines()[0])
    if not git_dir.is_absolute():
        git_dir = pointer.parent / git_dir
    return [_stat_key(git_dir / "index"), _stat_key(git_dir / "HEAD")]


def _stat_key(path: Path | str) -> tuple[int, int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_size, stat.S_IFMT(info.st_mode))


class CheckoutCache:
    """Each checkout's index, kept while its signature holds (thread-safe: the window's
    checks run on a worker while the next may start)."""

    def __init__(self, build: Callable[[Path], Checkout] = build_checkout) -> None:
        self._build = build
        self._lock = threading.Lock()
        self._entries: dict[Path, tuple[tuple[object, ...], Checkout]] = {}

    def all(self) -> list[Checkout]:
        with self._lock:
            return [checkout for _, checkout in self._entries.values()]

    def get(self, root: Path) -> Checkout:
        with self._lock:
            cached = self._entries.get(root)
        if cached is not None and checkout_signature(root, cached[1]) == cached[0]:
            return cached[1]
        checkout = self._build(root)
        signature = checkout_signature(root, checkout)
        with self._lock:
            self._entries[root] = (signature, checkout)
        return checkout
