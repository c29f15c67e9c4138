"""The Traces tab's operations: the home's writer trace dumps listed, and one read in full
(`memtab.traces`: the reader never raises on a bad file)."""

from __future__ import annotations

from pathlib import Path

from memtab.components.jobs import JobContext
from memtab.traces.catalog import TraceCatalog
from memtab.traces.reader import TraceDump, TraceSummary, parse_trace


def trace_list(catalog: TraceCatalog, _ctx: JobContext) -> list[TraceSummary]:
    """Every dump of the catalog's home, summarized."""
    return catalog.scan()


def read_trace(path: Path, _ctx: JobContext) -> TraceDump:
    """One dump, read in full."""
    return parse_trace(path)
