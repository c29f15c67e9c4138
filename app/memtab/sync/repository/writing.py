"""Writing a sync repository's commits: a few objects as git's own loose objects by this process
(ids, trees and commits as git makes them), many by one `git fast-import` into a pack."""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import time
import zlib
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from memtab.sync.repository.git import Git, Identity
from memtab.sync.repository.objects import (
    Change,
    Existing,
    NewCommit,
    ObjectMissingError,
    ObjectReader,
    TreeEntry,
)

UNPACK_LIMIT = 100
"""fast-import's own `fastimport.unpackLimit`: fewer objects than this are stored loose."""
_TREE_MODE = b"40000"
_CRUD = str.maketrans("", "", "\n<>")
"""What cannot be in an identity's name or address in a commit (git drops them too)."""

_Entries = dict[bytes, tuple[bytes, bytes]]  # a tree's entries: name → (mode, raw object id)


def _who(identity: Identity) -> bytes:
    """The author and committer of a commit written now, as fast-import writes them."""
    seconds = int(time.time())
    offset = time.localtime(seconds).tm_gmtoff // 60
    zone = f"{'+' if offset >= 0 else '-'}{abs(offset) // 60:02d}{abs(offset) % 60:02d}"
    name, email = identity.name.translate(_CRUD), identity.email.translate(_CRUD)
    return f"{name} <{email}> {seconds} {zone}".encode()


def objects_to_write(commits: Sequence[NewCommit]) -> int:
    """How many objects writing `commits` makes at most."""
    count = 0
    for commit in commits:
        folders = {""}
        for path in commit.changes:
            parts = path.split("/")[:-1]
            folders.update("/".join(parts[: depth + 1]) for depth in range(len(parts)))
        contents = sum(isinstance(change, bytes) for change in commit.changes.values())
        count += contents + len(folders) + 1
    return count


@dataclass
class LooseObjects:
    """Objects written as loose objects of one repository, trees read through `reader`."""

    git: Git
    reader: ObjectReader
    _made: dict[bytes, _Entries] = field(default_factory=dict)
    """The trees written here, by raw id: the next commit of a write starts from them."""

    @property
    def _folder(self) -> Path:
        return self.git.repo / "objects"

    def write(self, kind: bytes, data: bytes) -> str:
        """Store one object; its id."""
        whole = b"%s %d\0%s" % (kind, len(data), data)
        digest = (hashlib.sha256 if self.git.object_format == "sha256" else hashlib.sha1)(whole)
        oid = digest.hexdigest()
        folder = self._folder / oid[:2]
        final = folder / oid[2:]
        if os.path.exists(final):
            return oid  # an object is its id: there already
        # Private as git makes them under PRIVATE_UMASK (formats §16.2).
        with contextlib.suppress(FileExistsError):
            os.mkdir(folder, 0o700)
        handle, temp = tempfile.mkstemp(prefix="tmp_obj_", dir=folder)
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(zlib.compress(whole, 1))
            os.chmod(temp, 0o400)
            with contextlib.suppress(FileExistsError):  # written meanwhile: the same bytes
                os.link(temp, final)
        finally:
            os.unlink(temp)
        return oid

    def commits(
        self, ref: str, start: str | None, commits: Sequence[NewCommit], identity: Identity
    ) -> list[str]:
        """Write `commits` one on the other from `start` and move `ref` to the last; their ids."""
        if not commits:
            return []
        who = _who(identity)
        ids: list[str] = []
        parent = start
        tree = bytes.fromhex(self.reader.tree_of(start)) if start is not None else None
        for commit in commits:
            changes = sorted(
                (path.encode("utf-8", "surrogateescape").split(b"/"), change)
                for path, change in commit.changes.items()
            )
            tree = self._tree(tree, changes)
            root = tree if tree is not None else bytes.fromhex(self.write(b"tree", b""))
            parents = [p for p in (parent, *commit.merge) if p is not None]
            data = b"tree %s\n" % root.hex().encode()
            data += b"".join(b"parent %s\n" % p.encode() for p in parents)
            data += b"author %s\ncommitter %s\n\n" % (who, who)
            data += commit.message.encode("utf-8")
            oid = self.write(b"commit", data)
            self.reader.know(oid, root.hex(), self._files(parent, commit.changes))
            ids.append(oid)
            parent = oid
        assert parent is not None
        expected = [] if ref.startswith("refs/memtab/") else [start or self.git.null_oid]
        self.git.run(["update-ref", "-m", "memtab sync", ref, parent, *expected])
        return ids

    def _entries(self, tree: bytes | None) -> _Entries:
        if tree is None:
            return {}
        made = self._made.get(tree)
        if made is not None:
            return dict(made)
        data, size = self.reader.tree_data(tree.hex()), self.git.oid_bytes
        entries: _Entries = {}
        position = 0
        while position < len(data):
            space, nul = data.find(b" ", position), data.find(b"\0", position)
            if not position < space < nul:
                raise ObjectMissingError(f"the sync repository's tree {tree.hex()} is damaged")
            entries[data[space + 1 : nul]] = (data[position:space], data[nul + 1 : nul + 1 + size])
            position = nul + 1 + size
        return entries

    def _tree(
        self, tree: bytes | None, changes: Iterable[tuple[list[bytes], Change]]
    ) -> bytes | None:
        """The tree `tree` once `changes` are made; None when left empty."""
        entries = self._entries(tree)
        below: dict[bytes, list[tuple[list[bytes], Change]]] = {}
        for names, change in changes:
            name = names[0]
            if len(names) > 1:
                below.setdefault(name, []).append((names[1:], change))
            elif change is None:
                entries.pop(name, None)
            elif isinstance(change, Existing):
                entries[name] = (change.mode.encode(), bytes.fromhex(change.oid))
            else:
                entries[name] = (b"100644", bytes.fromhex(self.write(b"blob", change)))
        for name, inner in below.items():
            mode, oid = entries.get(name, (b"", b""))
            folder = self._tree(oid if mode == _TREE_MODE else None, inner)
            if folder is not None:
                entries[name] = (_TREE_MODE, folder)
            elif mode == _TREE_MODE:
                del entries[name]  # left empty: git keeps no empty folder
        if not entries:
            return None
        ordered = sorted(
            entries.items(), key=lambda e: e[0] + b"/" if e[1][0] == _TREE_MODE else e[0]
        )
        data = b"".join(mode + b" " + name + b"\0" + oid for name, (mode, oid) in ordered)
        written = bytes.fromhex(self.write(b"tree", data))
        self._made[written] = entries
        return written

    def _files(
        self, parent: str | None, changes: Mapping[str, Change]
    ) -> dict[str, TreeEntry] | None:
        """The files of the commit made of `changes` on `parent`, when known (else None)."""
        files = self.reader.known_files(self.reader.tree_of(parent)) if parent else {}
        if files is None:
            return None
        files = dict(files)
        for path, change in changes.items():
            if change is None:
                files.pop(path, None)
            elif isinstance(change, Existing):
                files[path] = TreeEntry(change.mode, change.oid)
            else:
                files[path] = TreeEntry("100644", self.git.blob_id(change))
        folders = set()
        for path in files:
            folder = path
            while "/" in folder:
                folder = folder.rsplit("/", 1)[0]
                if folder in folders:
                    break
                folders.add(folder)
        return files if folders.isdisjoint(files) else None


def write_commits(
    git: Git, ref: str, start: str | None, commits: Sequence[NewCommit], identity: Identity
) -> list[str]:
    """Write `commits` one on the other from `start` in one `git fast-import`; their ids. `ref`
    moves to the last: the branch as a fast-forward, `refs/memtab/…` whatever it held."""
    if not commits:
        return []
    stream: list[bytes] = [b"feature done\n", b"reset " + ref.encode() + b"\n"]
    if start is not None:
        stream.append(b"from " + start.encode() + b"\n\n")
    who = _who(identity)
    for number, commit in enumerate(commits, start=1):
        message = commit.message.encode("utf-8")
        stream += [
            f"commit {ref}\nmark :{number}\n".encode(),
            b"author " + who + b"\n",
            b"committer " + who + b"\n",
            f"data {len(message)}\n".encode(),
            message + b"\n",
        ]
        if number > 1:
            stream.append(f"from :{number - 1}\n".encode())
        stream += [f"merge {parent}\n".encode() for parent in commit.merge]
        for path, change in sorted(commit.changes.items()):
            quoted = _quoted(path)
            if change is None:
                stream.append(b"D " + quoted + b"\n")
            elif isinstance(change, Existing):
                stream.append(f"M {change.mode} {change.oid} ".encode() + quoted + b"\n")
            else:
                stream += [b"M 100644 inline " + quoted + b"\n", _data(change)]
        stream.append(b"\n")
    stream.append(b"done\n")
    with tempfile.TemporaryDirectory(prefix="memtab-marks-") as scratch:
        marks = Path(scratch) / "marks"
        force = ["--force"] if ref.startswith("refs/memtab/") else []
        args = ["fast-import", "--quiet", "--date-format=raw", f"--export-marks={marks}", *force]
        git.run(args, input_data=b"".join(stream))
        by_mark = dict(
            line.split(" ", 1) for line in marks.read_text(encoding="ascii").split("\n") if line
        )
    return [by_mark[f":{number}"].strip() for number in range(1, len(commits) + 1)]


def _data(content: bytes) -> bytes:
    return f"data {len(content)}\n".encode() + content + b"\n"


def _quoted(path: str) -> bytes:
    """A path as fast-import reads it: C-style quoted when it must be."""
    raw = path.encode("utf-8", "surrogateescape")
    if not any(c in raw for c in (b'"', b"\n", b"\\")) and not raw.startswith(b" "):
        return raw
    escaped = raw.replace(b"\\", b"\\\\").replace(b'"', b'\\"').replace(b"\n", b"\\n")
    return b'"' + escaped + b'"'


@dataclass
class Repository:
    """A sync repository as one sync uses it: git, one object reader, loose writes or one
    fast-import. `close` ends the reader."""

    git: Git
    identity: Identity
    reader: ObjectReader = field(init=False)
    loose: LooseObjects = field(init=False)

    def __post_init__(self) -> None:
        self.reader = ObjectReader(self.git)
        self.loose = LooseObjects(self.git, self.reader)

    def close(self) -> None:
        self.reader.close()

    def resolve(self, ref: str) -> str | None:
        """The commit a ref names, None when there is none."""
        try:
            oid, kind, _ = self.reader.read(ref + "^{commit}")
        except ObjectMissingError:
            return None
        return oid if kind == "commit" else None

    def parents(self, commit: str) -> list[str]:
        """A commit's parents, first parent first (ObjectMissingError: no such commit)."""
        _, kind, data = self.reader.read(commit)
        if kind != "commit":
            raise ObjectMissingError(f"{commit} is a {kind}, not a commit")
        header = data.split(b"\n\n", 1)[0]
        return [line[7:].decode() for line in header.split(b"\n") if line.startswith(b"parent ")]

    def files(self, commit: str | None) -> dict[str, str]:
        """Every regular file of a commit: path → object id (links and submodules are no memory)."""
        entries = self.reader.files(commit).items()
        return {path: entry.oid for path, entry in entries if entry.is_file}

    def blobs(self, oids: Iterable[str]) -> dict[str, bytes]:
        return self.reader.blobs(oids)

    def readable(self, oids: Iterable[str]) -> set[str]:
        return self.reader.readable(oids)

    def stream(self, oids: Sequence[str]) -> Generator[bytes, None, None]:
        return self.reader.stream(oids)

    def write(self, ref: str, start: str | None, commits: Sequence[NewCommit]) -> list[str]:
        """Write `commits` from `start` and move `ref` to the last; their ids."""
        if objects_to_write(commits) < self._unpack_limit():
            ids = self.loose.commits(ref, start, commits, self.identity)
        else:
            ids = write_commits(self.git, ref, start, commits, self.identity)
        for commit in commits:
            for change in commit.changes.values():
                if isinstance(change, bytes):
                    self.reader.remember(self.git.blob_id(change), change)
        return ids

    def _unpack_limit(self) -> int:
        """fast-import's: `fastimport.unpackLimit`, else `transfer.unpackLimit`, else 100."""
        config = self.git.config()
        for key in ("fastimport.unpacklimit", "transfer.unpacklimit"):
            try:
                return int(config[key])
            except (KeyError, ValueError):
                continue
        return UNPACK_LIMIT

    def store_blob(self, data: bytes) -> str:
        """Keep a content outside any commit (a merge base); its id."""
        oid = self.loose.write(b"blob", data)
        self.reader.remember(oid, data)
        return oid
