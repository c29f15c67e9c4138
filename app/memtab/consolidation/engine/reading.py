"""Where Consolidate now left off reading a workspace's memory when its time ran out, so that
the next run starts there and repeated runs cover the store (docs/formats.md §9.1, "Time"):
a private memo per home in Memtab's cache dir, written under the home's consolidation lock
that each run holds. Lost, the next run starts from the first file again."""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.memo import Memo, memo_path
from memtab.fs.records import PlainJson, Record
from memtab.humanize import plural
from memtab.store.files import FileEntry
from memtab.store.paths import PathError, Scope, parse_file_path

logger = logging.getLogger(__name__)

READING_FILE = "consolidation-reading-v1-{}.json"
MAX_READING_BYTES = 4 * 1024 * 1024
MOST_PLACES = 200
"""Workspaces remembered; more is not a home's."""
_SHA256 = re.compile(r"[0-9a-f]{64}")
_NUMBERED = re.compile(r"(\d{1,9})\t")
RESUMED = (
    "[Lines 1–{last} of this file were read by an earlier run: shown from line {first}. "
    "View it with offset 1 to read them again.]"
)


class ReadingFile(Record):
    """The reading memo (docs/formats.md §9.1): per workspace and scopes, each file's
    `[sha256, lines read from the first, lines]` as the last runs left it."""

    version: Literal[1]
    places: Annotated[dict[str, Any], PlainJson]


@dataclass(frozen=True)
class FileRead:
    """What runs read of one file's text (`sha256`): its lines 1 to `to_line` of `lines`."""

    sha256: str
    to_line: int
    lines: int

    @property
    def whole(self) -> bool:
        return self.to_line >= self.lines

    @classmethod
    def of(cls, value: object) -> FileRead | None:
        """An entry as the memo holds it, when it is one."""
        if not (isinstance(value, list) and len(value) == 3):
            return None
        sha, to_line, lines = value
        if not (isinstance(sha, str) and _SHA256.fullmatch(sha)):
            return None
        if not all(type(n) is int and 0 <= n <= 10_000_000 for n in (to_line, lines)):
            return None
        return cls(sha, to_line, lines)


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class ReadingPlace:
    """Where the runs over one workspace's `scopes` left off (see the module doc)."""

    def __init__(self, home_root: Path, workspace_id: str, scopes: Sequence[Scope]) -> None:
        self.memo = Memo(
            memo_path(home_root, READING_FILE), "consolidation's reading memo", MAX_READING_BYTES
        )
        self.key = f"{workspace_id}:{','.join(scope.value for scope in scopes)}"

    def _places(self) -> dict[str, Any]:
        data = self.memo.read()
        if data is None:
            return {}
        try:
            document = ReadingFile.read(parse_json(data))
        except JsonError:
            document = None
        if document is None:
            logger.info(
                "The %s %s is not one Memtab wrote: read from the start",
                self.memo.what,
                self.memo.path,
            )
            return {}
        return document.places

    def earlier(self) -> dict[str, FileRead]:
        """What earlier runs read, by virtual path."""
        place = self._places().get(self.key)
        reads = {}
        for path, value in place.items() if isinstance(place, dict) else ():
            read = FileRead.of(value)
            if read is not None:
                reads[path] = read
        return reads

    def keep(self, reads: Mapping[str, FileRead]) -> None:
        """Keep `reads` as where these runs left off (the run holds the home's lock)."""
        places = {key: value for key, value in self._places().items() if key != self.key}
        places = dict(list(places.items())[-(MOST_PLACES - 1) :])
        places[self.key] = {path: [r.sha256, r.to_line, r.lines] for path, r in reads.items()}
        document = ReadingFile(version=1, places=places)
        self.memo.write(json.dumps(document.to_json(), ensure_ascii=False).encode("utf-8"))


def _canonical(path: object) -> str | None:
    if not isinstance(path, str):
        return None
    try:
        return str(parse_file_path(path))
    except PathError:
        return None


def last_line_shown(output: str) -> int | None:
    """The number of the last file line a view's output shows (None: it shows none)."""
    last = None
    for line in output.split("\n"):
        match = _NUMBERED.match(line)
        if match:
            last = int(match.group(1))
    return last


@dataclass
class RunReading:
    """What one run is given to read, in order, where it resumes a file an earlier run left
    in part, and what it reads of each (`viewed`)."""

    files: list[FileEntry]
    earlier: dict[str, FileRead]
    resume: dict[str, int]
    done_before: set[str]
    """Files earlier runs of this round read whole, unchanged since."""
    shown: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    texts: dict[str, tuple[str, int]] = field(default_factory=dict)
    asked: set[str] = field(default_factory=set)
    """Files this run has viewed."""

    @classmethod
    def start(
        cls,
        files: Sequence[FileEntry],
        earlier: dict[str, FileRead],
        digest: Callable[[str], str | None],
    ) -> RunReading:
        """The files in the order a run reads them: those an earlier run left in part first,
        then those not read since they last changed, smallest first (more are read whole in
        a run's time), then those read whole (`digest`: a file's text digest now, None when
        unreadable). Once every file has been read whole, a new round starts."""
        current = {}
        for path, read in earlier.items():
            if read.sha256 == digest(path):
                current[path] = read
        paths = [str(file.path) for file in files if file.editable]
        if paths and all(path in current and current[path].whole for path in paths):
            current = {}  # every file read: a new round
        resume = {p: r.to_line + 1 for p, r in current.items() if 0 < r.to_line < r.lines}
        done = {p for p, r in current.items() if r.whole}

        def rank(file: FileEntry) -> tuple[int, int]:
            path = str(file.path)
            if path in resume:
                return (0, 0)
            return (2, 0) if path in done else (1, file.size_bytes)

        return cls(sorted(files, key=rank), current, resume, done)

    def viewing(self, arguments: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
        """A view's arguments as the run asks them, and the note that says so ('' when
        unchanged). When earlier runs left some of the store, the run's first view of a file
        is shown as far as the time reads it, not the model's `limit` (a small model asks
        ten lines, whatever the time: a step each), and from where an earlier run left off
        when it asks from line 1 (a small model always does). A later view of the file is
        shown as asked."""
        path = _canonical(arguments.get("path"))
        asked = dict(arguments)
        if arguments.get("command") != "view" or path is None or path in self.asked:
            return asked, ""
        self.asked.add(path)
        if self.earlier:
            asked.pop("limit", None)
        offset = asked.get("offset", 1)
        if path not in self.resume or not (type(offset) is int and offset <= 1):
            return asked, ""
        first = self.resume[path]
        asked["offset"] = first
        return asked, RESUMED.format(first=first, last=first - 1)

    def viewed(self, path_text: object, text: str | None, offset: int, output: str) -> None:
        """A file's view showed `output` (from line `offset`) of its `text` now."""
        path = _canonical(path_text)
        if path is None or text is None:
            return
        lines = text.split("\n")
        count = len(lines) - 1 if lines[-1] == "" else len(lines)
        last = last_line_shown(output)
        if last is None and count:  # none of its lines shown: no time was left for them
            return
        self.texts[path] = (text_digest(text), count)
        self.shown.setdefault(path, []).append((offset, last or 0))

    def reads(self) -> dict[str, FileRead]:
        """What runs have read, this one's added: each file read from line 1 as far as the
        parts read join on."""
        reads = dict(self.earlier)
        for path, (sha, lines) in self.texts.items():
            before = self.earlier.get(path)
            to_line = before.to_line if before is not None and before.sha256 == sha else 0
            for first, last in sorted(self.shown[path]):
                if first <= to_line + 1:
                    to_line = max(to_line, last)
            reads[path] = FileRead(sha, min(to_line, lines), lines)
        return reads

    def summary(self) -> tuple[int, int, str]:
        """How many files this run read to their end, how many earlier runs of this round
        did, and what is left for the next run in words ('' when nothing is)."""
        reads = self.reads()
        read_now = sum(1 for path in self.shown if reads[path].whole)
        before = len(self.done_before - set(self.shown))
        words = []
        unread = 0
        for file in self.files:
            if not file.editable:  # no view shows it: nothing a run could leave
                continue
            read = reads.get(str(file.path))
            if read is None:
                unread += 1
            elif not read.whole:
                words.append(f"{file.path.name} from line {read.to_line + 1}")
        if unread:
            words.append(plural(unread, "more file" if words else "file"))
        return read_now, before, " and ".join(words)
