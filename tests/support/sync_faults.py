"""A sync that stops dead at its Nth write after the merge: the import's writes, pins and
usage, the branch, the state, the runs log. A fault-injection point, not timing: each call
that changes a file (a temp file written, a file published, a file unlinked, a history
line appended, a file staged, a staged scope renamed into place) or a ref counts as one
write, and the Nth raises `Killed` once it is made —
the process died right there. A lock's own files are not counted (a dead holder's lease
runs out by itself).

In-process, for many kill points at the cost of one sync each (`support.sync_kill` kills a
real process).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from memtab.fs.atomic import Directory
from memtab.store.history.jsonlines import JsonLinesFile
from memtab.store.scopes import memory
from memtab.sync.engine import TargetSync
from memtab.sync.importer import Importer
from memtab.sync.repository.git import Git
from memtab.sync.repository.writing import LooseObjects

_WRITING_GIT = ("update-ref", "hash-object", "fast-import")


class Killed(BaseException):
    """The process died here: nothing of the sync's own clean-up runs but `finally` blocks
    (locks let go, pipes closed), which a dead process's kernel does too."""


def _raise_killed() -> None:
    raise Killed


class WriteCounter:
    """Counts the writes after the merge; the `kill_at`th calls `kill` (0: none)."""

    def __init__(
        self, kill_at: int, where: Callable[[Path], bool], kill: Callable[[], None]
    ) -> None:
        self.kill_at = kill_at
        self.where = where
        self.kill = kill
        self.merged = False
        self.writes = 0

    @property
    def killed(self) -> bool:
        return 0 < self.kill_at <= self.writes

    def wrote(self, place: Path) -> None:
        if not self.merged or not self.where(place):
            return
        if "locks" in place.parts or ".lock" in place.name:
            return
        self.writes += 1
        if self.writes == self.kill_at:
            self.kill()


def _counted(
    counter: WriteCounter, function: Callable[..., Any], place: Callable[..., Path]
) -> Callable[..., Any]:
    @functools.wraps(function)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        result = function(*args, **kwargs)
        counter.wrote(place(*args, **kwargs))
        return result

    return wrapped


def _own_path(owner: Any, *_args: Any, **_kwargs: Any) -> Path:
    return Path(str(getattr(owner, "path", owner)))


def _moved_to(_source: Directory, _name: str, target: Directory, new_name: str) -> Path:
    return Path(target.display(new_name))  # a scope published whole: a write in it


def _git_place(git: Git, args: Any, *_rest: Any, **_kwargs: Any) -> Path:
    # Git's reading commands are no writes: a place no counter takes.
    return git.repo if args and args[0] in _WRITING_GIT else Path("locks")


def _object_place(objects: LooseObjects, *_args: Any, **_kwargs: Any) -> Path:
    return objects.git.repo  # an object a commit of the sync's is made of


def anywhere(_place: Path) -> bool:
    return True


def in_scopes(place: Path) -> bool:
    """Only the memory files (under the home's `memory` folder; Memtab's own data, the
    sync target `memory` among it, is under `memtab`)."""
    return "memory" in place.parts and "memtab" not in place.parts


@contextmanager
def killed_at_write(
    monkeypatch: pytest.MonkeyPatch,
    kill_at: int,
    where: Callable[[Path], bool] = anywhere,
    kill: Callable[[], None] = _raise_killed,
) -> Iterator[WriteCounter]:
    """Within the block, a sync stops dead at its `kill_at`th write after the merge (of
    those `where` counts): `Killed` is raised, or `kill` is called (SIGKILL)."""
    counter = WriteCounter(kill_at, where, kill)
    merge, bring_in = TargetSync._merge, Importer.bring_in

    def merged(self: TargetSync, *args: Any, **kwargs: Any) -> Any:
        result = merge(self, *args, **kwargs)
        counter.merged = True
        return result

    def importing(self: Importer, *args: Any, **kwargs: Any) -> Any:
        counter.merged = True  # a machine joining brings in what `sync init` fetched, unmerged
        return bring_in(self, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(TargetSync, "_merge", merged)
        patch.setattr(Importer, "bring_in", importing)
        for name in ("publish", "write_temp", "write_new"):
            patch.setattr(Directory, name, _counted(counter, getattr(Directory, name), _own_path))
        move = _counted(counter, Directory.move_whole, _moved_to)
        patch.setattr(Directory, "move_whole", move)
        append = _counted(counter, JsonLinesFile.append_locked, _own_path)
        patch.setattr(JsonLinesFile, "append_locked", append)
        remove = _counted(counter, memory.remove_entry, _own_path)
        patch.setattr(memory, "remove_entry", remove)
        patch.setattr(Path, "unlink", _counted(counter, Path.unlink, _own_path))
        patch.setattr(Git, "run", _counted(counter, Git.run, _git_place))
        patch.setattr(LooseObjects, "write", _counted(counter, LooseObjects.write, _object_place))
        yield counter
