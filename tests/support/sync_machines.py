"""Two machines syncing one memory through a local bare repository, for the sync tests."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from memtab.store.home import Home
from memtab.store.paths import Scope, VirtualPath, parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.sync.conflicts.resolve import Keep, find_conflict, resolve_conflict
from memtab.sync.repository.layout import SyncedScope, parse_scope
from memtab.sync.repository.scopes import ProjectScopeStore
from memtab.sync.service import SyncReport, SyncService
from support.memory_paths import vpath

GIT = shutil.which("git")


def bare_repository(path: Path) -> Path:
    subprocess.run(["git", "init", "--bare", "--quiet", str(path)], check=True)
    return path


@dataclass
class Machine:
    """One home, its store (the user's) and its sync service."""

    name: str
    home: Home
    store: MemoryStore
    service: SyncService

    @classmethod
    def create(cls, root: Path, name: str) -> Machine:
        home = Home(root / name)
        home.root.mkdir(parents=True, exist_ok=True)
        return cls(name, home, MemoryStore(home), SyncService(home))

    @property
    def sync_dir(self) -> Path:
        """Where the sync of the memory target keeps its repository and state."""
        return self.home.root / "memtab" / "sync" / "memory"

    def connect(self, remote: Path | str, *scopes: str) -> None:
        chosen: list[SyncedScope] = [parse_scope(spec) for spec in scopes or ("global",)]
        self.service.init(str(remote), chosen, machine=self.name)

    def sync(self) -> SyncReport:
        report = self.service.sync()
        for target in report.targets:
            assert target.status != "failed", target.error
        return report

    # --- the files ------------------------------------------------------------------------

    def write(self, path: str, text: str) -> None:
        if self.store.read_whole(vpath(path)) is None:
            self.store.create_file(vpath(path), text)
        else:
            self.store.edit_text(vpath(path), lambda _old: text)

    def publish(self, path: str, text: str, *receivers: Machine) -> None:
        """Write a file, sync, and let the receivers sync it in: the common start."""
        self.write(path, text)
        self.sync()
        for machine in receivers:
            machine.sync()

    def share_notes(self, count: int, *, folder: str = "") -> dict[str, str]:
        """`count` notes written in the global scope (`n00.md`…, every third in `folder`
        when one is given) and synced: the scope's files, text by path."""
        for number in range(count):
            inside = f"{folder}/" if folder and number % 3 == 0 else ""
            self.write(f"/memories/global/{inside}n{number:02d}.md", f"note {number}\n")
        self.sync()
        return self.files()

    def conflict_with(self, other: Machine, path: str) -> None:
        """Make `path` a sync conflict here: both machines change its second line, `other`
        syncs first ("two from beta" there, "two from alpha" here, for those names)."""
        self.publish(path, "one\ntwo\nthree\n", other)
        other.write(path, f"one\ntwo from {other.name}\nthree\n")
        other.sync()
        self.write(path, f"one\ntwo from {self.name}\nthree\n")
        self.sync()
        assert self.conflicts() == [path]

    def project_root(self, project: str) -> Path:
        store = ProjectScopeStore(self.home, project, actor="user", run_id=None)
        return store.root(Scope.PROJECT)

    def fill(self, files_per_scope: int, project: str | None = None) -> None:
        """`files_per_scope` notes of a few lines each, written as an agent writes them (no
        store) into the global scope and, with `project`, that project's scope."""
        body = "- a note that is a few lines long, as memories are\n" * 40
        roots = [("note", self.home.global_root)]
        if project is not None:
            roots.append(("fact", self.project_root(project)))
        for stem, root in roots:
            root.mkdir(parents=True, exist_ok=True)
            for number in range(files_per_scope):
                (root / f"{stem}-{number:04d}.md").write_text(f"# {stem} {number}\n{body}")

    def text(self, path: str) -> str | None:
        data = self.store.read_whole(vpath(path))
        return None if data is None else data.decode("utf-8")

    def files(self, scope_root: str = "/memories/global") -> dict[str, str]:
        """Every file of a scope: virtual path → text."""
        root = parse_file_path(scope_root + "/x").parent
        assert root.scope is not None
        listing = self.store.list_scope(root.scope)
        found = {}
        for entry in listing.files:
            data = self.store.read_whole(vpath(entry.path))
            if data is not None:
                found[str(entry.path)] = data.decode("utf-8", "replace")
        return found

    def pinned(self, path: str) -> bool:
        return self.store.is_pinned(parse_file_path(path))

    def conflicts(self) -> list[str]:
        return [conflict.path for conflict in self.service.conflicts()]

    def resolve(self, path: str, keep: Keep | None = None, merged: str | None = None) -> None:
        conflict = find_conflict(self.service, path)
        resolve_conflict(
            self.service,
            conflict,
            keep=keep,
            merged=merged.encode() if merged is not None else None,
        )


def virtual(path: str) -> VirtualPath:
    return parse_file_path(path)
