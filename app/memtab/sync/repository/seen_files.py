"""What each file of a target's scopes held when a sync last read it, so a sync reads only what
changed since (docs/formats.md §18.2): a private cache by stamp, as the description cache's rule."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Final, Literal

from memtab.fs.atomic import Directory
from memtab.fs.config.config_dir import cache_dir
from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.private import PRIVATE_FILE_MODE, keep_private, private_dir
from memtab.fs.records import PlainJson, Record
from memtab.fs.user_files import read_regular_file
from memtab.store.description_cache import RACY_MARGIN_NS, remembered, still_as_read

logger = logging.getLogger(__name__)

SEEN_VERSION: Final = 1
MAX_SEEN_BYTES = 64 * 1024 * 1024
"""Far more than any home's entries: a bigger file is not read."""


class SeenFilesFile(Record):
    """The cache file (docs/formats.md §18.2): version, home, target, and each file's entry as
    parsed."""

    version: Literal[1]
    home: str
    target: str
    files: Annotated[dict[str, Any], PlainJson]


def seen_files_path(home_root: Path, target: str) -> Path:
    digest = hashlib.sha256(os.fsencode(f"{home_root}\0{target}")).hexdigest()[:20]
    return cache_dir() / f"sync-{digest}.json"


class SeenFiles:
    """One target's cache (see the module doc), loaded at its first use."""

    def __init__(
        self, home_root: Path, target: str, *, now_ns: Callable[[], int] = time.time_ns
    ) -> None:
        """`now_ns`: the wall clock the files' times are compared with (tests: later)."""
        self._home = str(home_root)
        self._target = target
        self._path = seen_files_path(home_root, target)
        self._now_ns = now_ns
        self._known: dict[str, Any] | None = None
        self._seen: dict[str, Any] = {}
        self._learnt = False
        self._racy_after_ns = 0

    def start(self) -> None:
        """A read of the scopes begins."""
        if self._known is None:
            self._known = self._load()
        self._racy_after_ns = self._now_ns() - RACY_MARGIN_NS
        self._seen, self._learnt = {}, False

    def recall(self, path: str, info: os.stat_result) -> tuple[str, str] | None:
        """(blob, sha256) of the file at `path` as last read, if its stat is still the same."""
        entry = (self._known or {}).get(path)
        if not still_as_read(entry, info, 2):
            return None
        assert isinstance(entry, list)
        blob, sha256 = entry[4:]
        # A blob is used only where it is the repository's; a sha256 of another shape is read.
        if not (type(blob) is str and type(sha256) is str and len(sha256) == 64):
            return None
        self._seen[path] = entry
        return blob, sha256

    def learn(self, path: str, info: os.stat_result, blob: str, sha256: str) -> None:
        """Remember a file just read, as `info` (taken before it was read) says it was."""
        entry = remembered(info, self._racy_after_ns, (blob, sha256))
        if entry is not None:
            self._seen[path] = entry
            self._learnt = True

    def save(self) -> None:
        """Keep what this read saw if it differs: atomically, not durably (a failure is logged)."""
        known = self._known or {}
        if not self._learnt and len(self._seen) == len(known):
            return
        document = SeenFilesFile(
            version=SEEN_VERSION, home=self._home, target=self._target, files=self._seen
        ).to_json()
        data = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
        try:  # private (docs/formats.md §15.5): it names the memory's files
            with Directory.open(private_dir(self._path.parent)) as directory:
                directory.replace(self._path.name, data, mode=PRIVATE_FILE_MODE, durable=False)
        except OSError as error:
            logger.warning("Could not write the sync's cache %s: %s", self._path, error)
            return
        self._known, self._seen, self._learnt = self._seen, {}, False

    def _load(self) -> dict[str, Any]:
        keep_private(self._path)
        try:
            data = read_regular_file(self._path, limit=MAX_SEEN_BYTES + 1, truncate=True)
        except OSError:  # missing, mostly: every file is read
            return {}
        if len(data) > MAX_SEEN_BYTES:
            return {}
        try:
            document = parse_json(data)
        except JsonError:
            logger.info("The sync's cache %s is not JSON: ignored", self._path)
            return {}
        cache = SeenFilesFile.read(document)
        if cache is None or (cache.home, cache.target) != (self._home, self._target):
            return {}
        return cache.files
