"""Keeping history bounded by total size and age (settings.json `history`), never the newest version
of a file; at most once a day (`maybe_prune`)."""

from __future__ import annotations

import collections
import logging
import math
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated

from memtab.fs import clock
from memtab.fs.config.declared import DeclaredSection, Setting
from memtab.fs.jsonfile import finite_number
from memtab.fs.private import create_private_file, private_folders
from memtab.fs.records import Healed
from memtab.store.history.blobs import BlobStore
from memtab.store.history.provenance import kept_blobs, prune_provenance
from memtab.store.history.runs import RunsLog
from memtab.store.history.versions import ScopeHistory, Version, index_keys
from memtab.store.home import Home

logger = logging.getLogger(__name__)

MB = 1024 * 1024
DAY_MS = 24 * 60 * 60 * 1000
DEFAULT_MAX_MB = 200
DEFAULT_MAX_AGE_DAYS = 180
PRUNE_INTERVAL_S = 24 * 60 * 60  # the file `memtab.llm.settings` keeps (store may not import llm)
BLOB_GRACE_S = 10 * 60  # a blob younger than this may belong to a version being recorded right now


@dataclass(frozen=True)
class HistoryLimits:
    max_bytes: int = DEFAULT_MAX_MB * MB
    max_age_days: float = DEFAULT_MAX_AGE_DAYS

    def oldest_kept(self, now_ms: int) -> int:
        """The time (ms) before which versions, runs and provenance are pruned."""
        return now_ms - int(self.max_age_days * DAY_MS)


_Limit = Annotated[float, Healed(finite_number)]


class HistorySettings(DeclaredSection):
    """settings.json's `history` (docs/formats.md §15.1): finite numbers ≥ 1, a bad one its default
    with a warning."""

    SECTION = "history"

    max_mb: Annotated[
        _Limit,
        Setting(
            "max_mb",
            "",
            "History's most size in MiB, the oldest pruned first",
            within=(1, math.inf),
        ),
    ] = DEFAULT_MAX_MB
    max_age_days: Annotated[
        _Limit, Setting("max_age_days", "", "How many days a version is kept", within=(1, math.inf))
    ] = DEFAULT_MAX_AGE_DAYS


def load_history_limits(env: Mapping[str, str] | None = None) -> HistoryLimits:
    """The bounds from Memtab's settings file (defaults when absent or unusable)."""
    settings = HistorySettings.load(env)
    return HistoryLimits(int(settings.max_mb * MB), settings.max_age_days)


@dataclass(frozen=True)
class PruneReport:
    versions_removed: int
    blobs_removed: int
    runs_removed: int
    bytes_kept: int


def prune(home: Home, limits: HistoryLimits, *, now_ms: int | None = None) -> PruneReport:
    """Apply the bounds now (see the module doc)."""
    now = clock.now_ms() if now_ms is None else now_ms
    started = time.time()
    blobs = BlobStore(home.history_blobs_dir, own=home.memtab_dir)
    sizes = {blob.sha256: blob.size_bytes for blob in blobs.all()}
    by_key = {key: ScopeHistory(home, key) for key in index_keys(home)}
    every = {key: history.versions() for key, history in by_key.items()}
    drop = _versions_to_drop(every, sizes, limits, now)
    removed = 0
    for key, history in by_key.items():
        doomed = drop.get(key)
        if not doomed:
            continue
        with history.file.locked():
            versions = history.versions()  # appended since: kept
            kept = [v for v in versions if v.id not in doomed]
            history.file.rewrite_locked([v.to_json() for v in kept])
            removed += len(versions) - len(kept)
    referenced = {v.sha256 for history in by_key.values() for v in history.versions()}
    # The blobs provenance records refer to (a resolution's other side, §20.1); none: no run built.
    provenance = home.provenance_log_path.exists()
    if provenance:
        referenced |= kept_blobs(home)
    blobs_removed = 0
    for blob in blobs.all():
        if blob.packed or blob.sha256 in referenced or blob.mtime >= started - BLOB_GRACE_S:
            continue
        blobs.remove(blob.sha256)
        blobs_removed += 1
    blobs_removed += blobs.dissolve_packs(referenced, started - BLOB_GRACE_S)
    oldest_kept, log = limits.oldest_kept(now), RunsLog(home)
    runs_removed = 0
    if any(0 < line.at < oldest_kept for line in log.logged()):  # else none to drop: no run built
        runs_removed = log.file.drop(lambda run: run.at < oldest_kept, lambda run: run.to_json())
    # Provenance records of the same age as the runs dropped (docs/formats.md §20.1).
    if provenance and (dropped := prune_provenance(home, oldest_kept)):
        logger.info("history pruned: %d provenance records removed", dropped)
    kept_bytes = sum(size for sha, size in sizes.items() if sha in referenced)
    if removed or blobs_removed or runs_removed:
        counts = removed, blobs_removed, runs_removed, kept_bytes
        logger.info(
            "history pruned: %d versions, %d contents, %d runs removed; %d bytes kept", *counts
        )
    return PruneReport(removed, blobs_removed, runs_removed, kept_bytes)


def _versions_to_drop(
    by_key: dict[str, list[Version]], sizes: dict[str, int], limits: HistoryLimits, now: int
) -> dict[str, set[str]]:
    newest = {
        id_ for versions in by_key.values() for id_ in {v.path: v.id for v in versions}.values()
    }
    every = [(v.at, key, v) for key, versions in by_key.items() for v in versions]
    candidates = sorted(
        (item for item in every if item[2].id not in newest), key=lambda item: item[0]
    )
    references = collections.Counter(version.sha256 for _, _, version in every)
    total = sum(sizes.get(sha, 0) for sha in references)
    oldest_kept = limits.oldest_kept(now)
    drop: dict[str, set[str]] = {}
    for at, key, version in candidates:
        if at >= oldest_kept and total <= limits.max_bytes:
            break
        drop.setdefault(key, set()).add(version.id)
        references[version.sha256] -= 1
        if references[version.sha256] == 0:
            total -= sizes.get(version.sha256, 0)
    return drop


def maybe_prune(home: Home, limits: HistoryLimits | None = None) -> PruneReport | None:
    """Prune if the last prune is over a day old (a failure is a warning)."""
    stamp = home.history_dir / "pruned-at"
    try:
        if time.time() - stamp.stat().st_mtime < PRUNE_INTERVAL_S:
            return None
    except FileNotFoundError:
        if not home.history_dir.is_dir():
            return None  # no history yet
    except OSError:
        return None
    try:
        report = prune(home, limits or load_history_limits())
        private_folders(stamp.parent, below=home.memtab_dir)
        create_private_file(stamp)
        os.utime(stamp)
    except (OSError, TimeoutError) as error:
        logger.warning("Could not prune history: %s", error)
        return None
    return report
