"""Reading a sync repository's objects through one long-running `git cat-file --batch-command` (or
`--batch-check` and `--batch` before 2.36): byte for byte."""

from __future__ import annotations

import contextlib
import subprocess
import threading
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO

from memtab.store.history.capture import MAX_HISTORY_FILE_BYTES
from memtab.sync.repository.git import Git

_TREE_MODE = b"40000"


@dataclass(frozen=True)
class TreeEntry:
    """A file of a tree: its mode and object id."""

    mode: str
    oid: str

    @property
    def is_file(self) -> bool:
        return self.mode in ("100644", "100755")


@dataclass(frozen=True)
class Existing:
    """A change that sets a path to an object the repository has."""

    oid: str
    mode: str = "100644"


Change = bytes | Existing | None  # new content, an existing object, or None: the path is removed


@dataclass(frozen=True)
class NewCommit:
    """One commit to write: its changes to the first parent's tree, its message, more parents."""

    changes: Mapping[str, Change]
    message: str
    merge: Sequence[str] = ()


class ObjectMissingError(Exception):
    """The repository has no object by that name."""


class ObjectTooLargeError(ObjectMissingError):
    """An object larger than sync reads whole (what a remote holds is checked first)."""


# What sync reads of a repository others push to (docs/formats.md §18.2): nothing larger, nothing
# deeper.
MAX_BLOB_BYTES = MAX_HISTORY_FILE_BYTES
MAX_TREE_BYTES = 16 * 1024 * 1024
MAX_COMMIT_BYTES = 1024 * 1024
MAX_TREE_DEPTH = 64
_LIMITS = {"blob": MAX_BLOB_BYTES, "tree": MAX_TREE_BYTES, "commit": MAX_COMMIT_BYTES}


_ANSWERS_BOTH: dict[str, bool] = {}
"""Whether a git program has `cat-file --batch-command`, asked once."""


@dataclass
class ObjectReader:
    """Objects through one `git cat-file`, each one's size asked first; trees walked without
    recursion to `MAX_TREE_DEPTH`, impossible names and too deep or large folders skipped
    (`skipped`)."""

    git: Git
    _process: subprocess.Popen[bytes] | None = None
    _check: subprocess.Popen[bytes] | None = None
    """A git without `--batch-command`: `--batch-check` here, `--batch` in `_process`."""
    _trees: dict[str, dict[str, TreeEntry]] = field(default_factory=dict)
    """Each tree read (or written: `know`), its files by path."""
    _raw_trees: dict[str, bytes] = field(default_factory=dict)
    _commit_trees: dict[str, str] = field(default_factory=dict)
    _blobs: dict[str, bytes] = field(default_factory=dict)
    _sizes: dict[str, int] = field(default_factory=dict)
    """The size of each blob asked of (`readable`) not read yet."""
    skipped: dict[str, str] = field(default_factory=dict)
    """Paths of the repository sync does not read, and why."""

    def _pipes(self, check: bool = False) -> tuple[IO[bytes], IO[bytes], bytes]:
        """Where to ask for an object's type and size (`check`) or content, and the verb."""
        if _ANSWERS_BOTH.get(self.git.git, True):
            process = self._process
            if process is None or process.poll() is not None:
                process = self._process = self.git.start(["cat-file", "--batch-command"])
                if self.git.git not in _ANSWERS_BOTH:
                    _ANSWERS_BOTH[self.git.git] = _answers(process)
            if _ANSWERS_BOTH[self.git.git]:
                assert process.stdin is not None and process.stdout is not None
                return process.stdin, process.stdout, b"info " if check else b"contents "
            self._stop()
        name = "_check" if check else "_process"
        process = getattr(self, name)
        if process is None or process.poll() is not None:
            process = self.git.start(["cat-file", "--batch-check" if check else "--batch"])
            setattr(self, name, process)
        assert process.stdin is not None and process.stdout is not None
        return process.stdin, process.stdout, b""

    def close(self) -> None:
        for process in filter(None, (self._process, self._check)):
            if process.stdin:
                process.stdin.close()
            process.wait()
            if process.stdout:
                process.stdout.close()
        self._process = self._check = None

    def _stop(self) -> None:
        for process in filter(None, (self._process, self._check)):
            process.kill()
            process.wait()
            for pipe in filter(None, (process.stdin, process.stdout)):
                with contextlib.suppress(OSError):
                    pipe.close()
        self._process = self._check = None

    def info(self, name: str) -> tuple[str, str, int]:
        """(id, type, size) of an object (ObjectMissingError when there is none)."""
        stdin, stdout, ask = self._pipes(check=True)
        stdin.write(ask + name.encode("utf-8", "surrogateescape") + b"\n")
        stdin.flush()
        line = stdout.readline().rstrip(b"\n")
        header = line.split(b" ")
        # "<name> missing", or "<id> <type> <size>".
        if len(header) != 3 or not header[2].isdigit():
            raise ObjectMissingError(f"the sync repository has no object {name}")
        return header[0].decode(), header[1].decode(), int(header[2])

    def read(self, name: str) -> tuple[str, str, bytes]:
        """(id, type, content) of an object; ObjectMissingError, ObjectTooLargeError."""
        oid, kind, size = self.info(name)
        if size > (limit := _LIMITS.get(kind, 0)):
            words = f"the sync repository's {kind} {oid} is {size:,} bytes"
            raise ObjectTooLargeError(f"{words}, larger than the {limit:,} sync reads")
        stdin, stdout, ask = self._pipes()
        stdin.write(ask + oid.encode() + b"\n")
        stdin.flush()
        header = stdout.readline().rstrip(b"\n").split(b" ")
        if len(header) != 3 or int(header[2]) != size:
            raise ObjectMissingError(f"the sync repository has no object {name}")
        return oid, kind, stdout.read(size + 1)[:size]

    def blob(self, oid: str) -> bytes:
        return self._typed(oid, "blob", self._blobs, "is a {kind}, not a file's content")

    def _typed(self, name: str, wanted: str, cache: dict[str, bytes], refused: str) -> bytes:
        """An object of kind `wanted`, read once into `cache`; ObjectMissingError `refused`."""
        data = cache.get(name)
        if data is None:
            _, kind, data = self.read(name)
            if kind != wanted:
                raise ObjectMissingError(f"{name} " + refused.format(kind=kind))
            cache[name] = data
        return data

    def blobs(self, oids: Iterable[str]) -> dict[str, bytes]:
        """These blobs' contents, too large ones left out; asked together."""
        wanted = list(dict.fromkeys(oids))
        readable = self.readable(wanted)
        chosen = [oid for oid in wanted if oid in readable]
        return dict(zip(chosen, self.stream(chosen), strict=True))

    def readable(self, oids: Iterable[str]) -> set[str]:
        """Which of these blobs sync reads whole, asked in one exchange; ObjectMissingError."""
        wanted = list(dict.fromkeys(oids))
        asked = [oid for oid in wanted if oid not in self._blobs and oid not in self._sizes]
        if asked:
            try:
                self._ask_sizes(asked)
            except BaseException:
                self._stop()  # answers may be left unread: the next question starts afresh
                raise
        sizes, too_large = self._sizes, MAX_BLOB_BYTES + 1
        return {
            oid for oid in wanted if oid in self._blobs or sizes.get(oid, too_large) < too_large
        }

    def stream(self, oids: Sequence[str]) -> Generator[bytes, None, None]:
        """These blobs' contents in order, each read as it is taken."""
        order = list(oids)
        answers = self._contents([oid for oid in dict.fromkeys(order) if oid not in self._blobs])
        try:
            for oid in order:
                data = self._blobs.get(oid)
                if data is None:
                    data = self._blobs[oid] = next(answers)
                yield data
        finally:
            answers.close()

    def _ask_sizes(self, asked: list[str]) -> None:
        stdin, stdout, ask = self._pipes(check=True)
        writer = _asking(stdin, ask, asked)  # the questions written at once, on a thread
        try:
            headers = [stdout.readline().rstrip(b"\n") for _ in asked]
        finally:
            writer.join()
        for oid, header in zip(asked, headers, strict=True):
            fields = header.split(b" ")
            if len(fields) != 3 or not fields[2].isdigit():
                raise ObjectMissingError(f"the sync repository has no object {oid}")
            if fields[1] != b"blob":
                raise ObjectMissingError(f"{oid} is a {fields[1].decode()}, not a file's content")
            self._sizes[oid] = int(fields[2])

    def _contents(self, asked: list[str]) -> Generator[bytes, None, None]:
        """The contents of `asked` one at a time; answers not taken end this git."""
        if not asked:
            return
        stdin, stdout, ask = self._pipes()
        writer = _asking(stdin, ask, asked)
        taken = False
        try:
            for number in range(1, len(asked) + 1):
                fields = stdout.readline().rstrip(b"\n").split(b" ")
                if len(fields) != 3 or not fields[2].isdigit():
                    raise ObjectMissingError(f"the sync repository lost {fields[0].decode()}")
                size = int(fields[2])
                data = stdout.read(size + 1)[:size]
                taken = number == len(asked)  # every answer read: the git is ready again
                yield data
        finally:
            if not taken:
                self._stop()
            writer.join()

    def remember(self, oid: str, data: bytes) -> None:
        """A content just written (so reading it back costs nothing)."""
        self._blobs[oid] = data

    def files(self, commit: str | None) -> dict[str, TreeEntry]:
        """Every file of a commit by path (directories walked), {} for None."""
        return {} if commit is None else self._files(self.tree_of(commit))

    def tree_of(self, commit: str) -> str:
        """The id of a commit's tree (ObjectMissingError: no such commit)."""
        tree = self._commit_trees.get(commit)
        if tree is None:
            data = self._typed(commit, "commit", {}, "is not a commit")
            tree = self._commit_trees[commit] = (
                data.split(b"\n", 1)[0].removeprefix(b"tree ").decode()
            )
        return tree

    def known_files(self, tree: str) -> dict[str, TreeEntry] | None:
        """The files of a tree already read or written (None: not yet)."""
        return self._trees.get(tree)

    def know(self, commit: str, tree: str, files: dict[str, TreeEntry] | None) -> None:
        """A commit just written: its tree and, when known, its files."""
        self._commit_trees[commit] = tree
        if files is not None:
            self._trees[tree] = files

    def tree_data(self, tree: str) -> bytes:
        """A tree object's bytes, every entry in it (those `files` skips too)."""
        return self._typed(tree, "tree", self._raw_trees, "is not a tree")

    def _files(self, root: str) -> dict[str, TreeEntry]:
        cached = self._trees.get(root)
        if cached is not None:
            return cached
        files: dict[str, TreeEntry] = {}
        folders = [(root, "", 0)]
        while folders:
            tree, prefix, depth = folders.pop()
            try:
                entries = self._entries(tree)
            except ObjectTooLargeError as error:
                if not prefix:
                    raise
                self.skipped[prefix.rstrip("/")] = str(error)
                continue
            for mode, name, oid in entries:
                if mode != _TREE_MODE:
                    files[prefix + name] = TreeEntry(mode.decode(), oid)
                elif depth + 1 >= MAX_TREE_DEPTH:
                    self.skipped[prefix + name] = f"folders deeper than {MAX_TREE_DEPTH}"
                else:
                    folders.append((oid, f"{prefix}{name}/", depth + 1))
        self._trees[root] = files
        return files

    def _entries(self, tree: str) -> list[tuple[bytes, str, str]]:
        """(mode, name, id) of a tree's entries whose names a path can hold."""
        data = self.tree_data(tree)
        digest, position = self.git.oid_bytes, 0
        entries: list[tuple[bytes, str, str]] = []
        while position < len(data):
            space, nul = data.find(b" ", position), data.find(b"\0", position)
            if not position < space < nul:
                raise ObjectMissingError(f"the sync repository's tree {tree} is damaged")
            mode, raw = data[position:space], data[space + 1 : nul]
            oid = data[nul + 1 : nul + 1 + digest].hex()
            position = nul + 1 + digest
            if raw in (b"", b".", b"..") or b"/" in raw:
                continue  # no git makes these; a crafted tree could
            entries.append((mode, raw.decode("utf-8", "surrogateescape"), oid))
        return entries


def _answers(process: subprocess.Popen[bytes]) -> bool:
    """Whether a just-started `git cat-file --batch-command` answers."""
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(b"info HEAD\n")  # "<id> <type> <size>", or "HEAD missing"
        process.stdin.flush()
    except OSError:
        return False
    return bool(process.stdout.readline())


def _asking(stdin: IO[bytes], verb: bytes, names: list[str]) -> threading.Thread:
    """A started thread writing the questions about `names`."""
    questions = b"".join(verb + name.encode("utf-8", "surrogateescape") + b"\n" for name in names)

    def ask() -> None:
        with contextlib.suppress(OSError, ValueError):
            stdin.write(questions)
            stdin.flush()

    writer = threading.Thread(target=ask, daemon=True)
    writer.start()
    return writer
