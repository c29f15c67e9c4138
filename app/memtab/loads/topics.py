"""Claude Code's topic files as its recall sees them (docs/formats.md §17.8): listed by a stat
each, newest first, the heads of the newest 200 read; a kept `TopicHeads` reads a file again only
when its stamp changed. One thread's."""

from __future__ import annotations

import os
import stat
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from memtab.fs.memo import RACY_MARGIN_NS, Stamp, changed_since, stamp_of
from memtab.fs.readable import read_readable_path
from memtab.sources.claude.memory_dir import not_personal
from memtab.sources.claude.recall import RECALL_CANDIDATES, is_recalled_topic, topic_frontmatter
from memtab.store.text.frontmatter import find_frontmatter

TOPIC_TYPES = ("user", "feedback", "project", "reference")
HEAD_BYTES = 8 * 1024
"""What is read of a topic: its frontmatter is in its first 30 lines, its body's start after."""
DESCRIPTION_LINE_CHARS = 120
KEPT_FOLDERS = 8
"""How many auto memory directories a `TopicHeads` keeps heads of (the most recent)."""


@dataclass(frozen=True)
class Head:
    """What a topic's head says, as Claude Code's scan reads it."""

    description: str | None
    """The frontmatter's `description`, when not empty."""
    first_line: str | None
    """The body's first line that is not blank (a heading's `#`s off, 120 characters)."""
    topic_type: str | None
    """The frontmatter's `type`, when it is one Claude Code knows."""
    body: str
    """The head's text after its frontmatter."""


@dataclass(frozen=True)
class Topic:
    """A topic file as the recall sees it; `head` None when not read (past the newest 200)."""

    name: str  # the path under the memory directory, as the manifest spells it
    physical: str
    mtime_ms: int
    head: Head | None
    stores: bool = False
    """Whether `CLAUDE_MEMORY_STORES` is set: a file without a description is described by its
    first line."""

    @property
    def path(self) -> Path:
        return Path(self.physical)

    @property
    def description(self) -> str | None:
        """The description its model is shown."""
        if self.head is None:
            return None
        if self.head.description is None and self.stores:
            return self.head.first_line
        return self.head.description

    @property
    def topic_type(self) -> str | None:
        return self.head.topic_type if self.head is not None else None

    @property
    def body(self) -> str:
        return self.head.body if self.head is not None else ""

    @property
    def undescribed(self) -> bool:
        """Read, and without a frontmatter description (what the tree warns of)."""
        return self.head is not None and self.head.description is None


class TopicHeads:
    """Topic heads kept by stamp across scans (see the module docstring)."""

    def __init__(self, clock: Callable[[], int] = time.time_ns) -> None:
        """`clock`: the time in ns (a head read within the racy margin is not kept)."""
        self._clock = clock
        self._folders: OrderedDict[str, dict[str, tuple[Stamp, Head]]] = OrderedDict()
        self._scanned: dict[tuple[str, bool], list[Topic]] = {}
        self.reads = 0
        """How many heads were read from disk (a test's count)."""

    def begin(self) -> None:
        """A new computation begins: the next scan of each folder looks at the disk again."""
        self._scanned.clear()

    def scan(self, memory: Path, env: Mapping[str, str]) -> list[Topic]:
        """Every topic file of `memory`, newest first, the newest `RECALL_CANDIDATES` with their
        heads."""
        stores = bool(env.get("CLAUDE_MEMORY_STORES", "").strip())
        key = os.fspath(memory)
        scanned = self._scanned.get((key, stores))
        if scanned is None:
            scanned = self._scanned[key, stores] = self._scan(key, stores)
        return scanned

    def _scan(self, key: str, stores: bool) -> list[Topic]:
        kept = self._folders.pop(key, {})
        fresh: dict[str, tuple[Stamp, Head]] = {}
        racy_after = self._clock() - RACY_MARGIN_NS
        listed = sorted(_walk(key), key=lambda f: (-(f[2].st_mtime_ns // 1_000_000), f[0]))
        topics: list[Topic] = []
        heads = 0
        for name, physical, info, linked in listed:
            mtime_ms = info.st_mtime_ns // 1_000_000
            head: Head | None = None
            if heads < RECALL_CANDIDATES:
                stamp = stamp_of(info)
                known = kept.get(physical)
                if known is not None and known[0] == stamp:
                    head = known[1]
                else:
                    head = self._read(physical, linked)
                    if head is None:
                        continue  # gone, or not to be read: never shown to the model
                    known = None if changed_since(info, racy_after) else (stamp, head)
                if known is not None:
                    fresh[physical] = known
                heads += 1
            topics.append(Topic(name, physical, mtime_ms, head, stores))
        self._folders[key] = fresh
        while len(self._folders) > KEPT_FOLDERS:
            self._folders.popitem(last=False)
        return topics

    def _read(self, physical: str, linked: bool) -> Head | None:
        try:
            data = read_readable_path(physical, limit=HEAD_BYTES, follow_link=linked)
        except OSError:
            return None
        self.reads += 1
        return read_head(data.decode("utf-8", errors="replace"))


def scan_topics(
    memory: Path, env: Mapping[str, str], heads: TopicHeads | None = None
) -> list[Topic]:
    """`TopicHeads.scan` with `heads` (a new one, kept by nobody, without)."""
    return (heads or TopicHeads()).scan(memory, env)


def read_head(text: str) -> Head:
    """A topic's head (its first `HEAD_BYTES`) as Claude Code's scan reads it."""
    text = text.lstrip("\ufeff")
    values = topic_frontmatter(text)
    span = find_frontmatter(text)
    body = text[span.end :] if span is not None else text
    kind = values.get("type")
    return Head(
        description=values.get("description") or None,
        first_line=_first_line(body),
        topic_type=kind if kind in TOPIC_TYPES else None,
        body=body,
    )


def _first_line(body: str) -> str | None:
    for line in body.split("\n"):
        stripped = line.lstrip("#").strip() if line.lstrip().startswith("#") else line.strip()
        if stripped:
            return stripped[:DESCRIPTION_LINE_CHARS]
    return None


Listed = tuple[str, str, os.stat_result, bool]
"""A topic found: its name, path, stat (its target's, for a link), and whether a link."""


def _walk(memory: str) -> list[Listed]:
    """The topic files under `memory`, a stat each; a link to a file taken as the file, a link
    to a folder not walked."""
    found: list[Listed] = []
    folders: list[tuple[str, tuple[str, ...]]] = [(memory, ())]
    while folders:
        folder, relative = folders.pop()
        try:
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError:
            continue
        for entry in listed:
            name = entry.name
            segments = (*relative, name)
            try:
                if entry.is_dir(follow_symlinks=False):
                    if not name.startswith(".") and not not_personal((*segments, "")):
                        folders.append((entry.path, segments))
                    continue
                if not is_recalled_topic(segments):
                    continue
                linked = entry.is_symlink()
                info = os.stat(entry.path) if linked else entry.stat(follow_symlinks=False)
            except OSError:
                continue  # gone meanwhile, or a dangling link
            if stat.S_ISREG(info.st_mode):
                found.append(("/".join(segments), entry.path, info, linked))
    return found
