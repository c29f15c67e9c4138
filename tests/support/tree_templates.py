"""A tree built once per worker, read into memory and written out in each test that needs
it: the demo home (`support.demo_homes`) and a sync machine just connected
(`support.sync_fixtures`).

A copy must be what building it in the test's own folder makes. What a tree says about
where it is, the copy says about its own place: files whose text names the template's
folder are rewritten with the copy's (their modification times kept), the lock files
named after a digest of a folder's real path inside (one lock per scope root) are renamed
after the copy's folder, and so are the folders named after the path of a folder inside (a
project's memory, `memory/project/<name>-<hash>`; Claude Code's folder of a project,
`projects/-tmp-…`: the demo's projects are in the demo home).
`tests/unit/test_tree_templates.py` compares copies with trees built in place, byte for byte.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memtab.demo import claude_project_name
from memtab.store.paths import project_dir_name
from memtab.store.scopes.scope_store import root_lock_digest

# A scope root's lock: `memory-<scope>-<16 hex digits of its real path's sha256>.lock`.
_DIGEST_NAME = re.compile(r"-(?P<digest>[0-9a-f]{16})\.lock$")


def _path_digest(folder: Path) -> str:
    return root_lock_digest(os.path.realpath(folder))


_NAMED_AFTER_A_PATH: tuple[Callable[[str], str], ...] = (project_dir_name, claude_project_name)
"""How a name is made from a folder's path (a project's memory folder, Claude Code's)."""


def _renamed(relative: str, names: dict[str, str]) -> str:
    """`relative` (a path inside the tree) with each of its parts `names` renames."""
    if not names:
        return relative
    return os.sep.join(names.get(part, part) for part in relative.split(os.sep))


@dataclass(frozen=True)
class _File:
    relative: str
    data: bytes
    mode: int
    times_ns: tuple[int, int]
    names_its_place: bool  # its text names the template's folder
    named_after: str | None  # the folder (relative) a digest in its name is of


@dataclass(frozen=True)
class TreeTemplate:
    """A tree built in `root`, held in memory (its folders and files, in `os.walk`'s
    order), with what in it names where it is."""

    root: Path
    folders: tuple[str, ...]
    files: tuple[_File, ...]
    path_names: tuple[tuple[str, int, str], ...] = ()
    """Each name of a part of its paths made from the path of a folder inside: the name,
    how it was made (`_NAMED_AFTER_A_PATH`'s index), the folder (relative)."""

    @classmethod
    def build(cls, make: Callable[[Path], Path]) -> TreeTemplate:
        """The tree `make` builds in a new temporary folder (it returns the tree's root),
        held in memory; the folder is removed."""
        folder = Path(tempfile.mkdtemp(prefix="memtab-template-"))
        try:
            return cls.capture(make(folder))
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    @classmethod
    def capture(cls, root: Path) -> TreeTemplate:
        """The tree built in `root`: read once per worker."""
        named = os.fsencode(root)
        walked = list(os.walk(root))
        digests = {_path_digest(Path(folder)): folder for folder, _, _ in walked}
        made = {
            make(folder): (how, os.path.relpath(folder, root))
            for folder, _, _ in walked
            for how, make in enumerate(_NAMED_AFTER_A_PATH)
        }
        parts = {part for folder, _, _ in walked for part in Path(folder).relative_to(root).parts}
        path_names = tuple((name, *made[name]) for name in sorted(parts & made.keys()))
        folders: list[str] = []
        files: list[_File] = []
        for folder, _, names in walked:
            folders.append(os.path.relpath(folder, root))
            for name in names:
                path = os.path.join(folder, name)
                if os.path.islink(path):
                    raise ValueError(f"{path}: a template holds no symbolic links")
                data = Path(path).read_bytes()
                stat = os.stat(path)
                match = _DIGEST_NAME.search(name)
                named_after = digests.get(match["digest"]) if match else None
                files.append(
                    _File(
                        os.path.relpath(path, root),
                        data,
                        stat.st_mode & 0o7777,
                        (stat.st_atime_ns, stat.st_mtime_ns),
                        named in data,
                        None if named_after is None else os.path.relpath(named_after, root),
                    )
                )
        return cls(root, tuple(folders), tuple(files), path_names)

    def copy(self, target_root: Path, part: str = "") -> Path:
        """`root/part` (the whole tree without `part`) copied to `target_root/part`, saying
        `target_root` where it said `root`."""

        def inside(relative: str) -> bool:
            return not part or relative == part or relative.startswith(part + os.sep)

        old, new = os.fsencode(self.root), os.fsencode(target_root)
        names = {
            name: _NAMED_AFTER_A_PATH[how](os.path.join(target_root, folder))
            for name, how, folder in self.path_names
        }
        for folder in self.folders:
            if inside(folder):
                os.makedirs(os.path.join(target_root, _renamed(folder, names)), exist_ok=True)
        for file in self.files:
            if not inside(file.relative):
                continue
            path = os.path.join(target_root, _renamed(file.relative, names))
            if file.named_after is not None:
                digest = _path_digest(target_root / file.named_after)
                path = _DIGEST_NAME.sub(f"-{digest}.lock", path)
            data = file.data.replace(old, new) if file.names_its_place else file.data
            with open(path, "xb") as stream:
                stream.write(data)
                os.fchmod(stream.fileno(), file.mode)
            os.utime(path, ns=file.times_ns)
        return target_root / part
