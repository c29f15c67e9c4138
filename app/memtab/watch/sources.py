"""Recording other programs' changes in other agents' sources with the actor their records tell
(docs/formats.md §14.5)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover
from memtab.sources.external import SourceExternalReport, record_source_external
from memtab.sources.listing import list_source
from memtab.sources.model import Source
from memtab.store.catch_up.recording import unrecorded_reason
from memtab.store.home import Home
from memtab.watch.actors import source_actor

logger = logging.getLogger(__name__)


def record_source(home: Home, source: Source) -> SourceExternalReport:
    """List `source` and record what changed in it since history last looked."""
    return record_source_external(home, list_source(source), actor=source_actor(source))


def record_sources(
    home: Home,
    sources: Iterable[Source] | None = None,
    cancel: Callable[[], bool] | None = None,
) -> SourceExternalReport:
    """Record every source's changes (`sources`, else all discovery finds); `cancel` between
    sources; never raises for one."""
    found = discover(SourceContext.load(home)).sources if sources is None else sources
    total = SourceExternalReport()
    for source in found:
        if cancel is not None and cancel():
            break
        try:
            report = record_source(home, source)
        except Exception as error:  # one source's failure must not stop the others
            logger.exception("Cannot record the changes of %s", source.id)
            total.unrecorded = total.unrecorded or unrecorded_reason(error, home)
            continue
        total.recorded += report.recorded
        total.deleted += report.deleted
        total.busy += report.busy
        total.problems += report.problems
        total.unrecorded = total.unrecorded or report.unrecorded
    return total
