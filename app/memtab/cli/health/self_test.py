"""`memtab --self-test`: a demo home in a scratch directory, listed and consolidated offline in a
child process as the window does (what a frozen bundle breaks first); one JSON object, exit 1
when a step failed."""

from __future__ import annotations

import logging
import os
import sys
import tempfile
from pathlib import Path

from memtab import __version__
from memtab.cli.common import print_json
from memtab.consolidation.job import RunControls, run_isolated
from memtab.consolidation.records import ConsolidationRequest
from memtab.demo import MAIN_ID, create_demo_home
from memtab.fs.records import Record, computed
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry

logger = logging.getLogger(__name__)


class SelfTestConsolidation(Record, write_only=True):
    """The offline consolidation of the scratch demo, in a child process."""

    ok: bool
    error: str | None
    progress_messages: int
    applied_ops: int


class SelfTestReport(Record, write_only=True):
    """What `memtab --self-test` prints: ok when the demo listed files and consolidated."""

    version: str
    frozen: bool
    listed_files: int
    consolidation: SelfTestConsolidation
    ok: bool = computed(lambda report: report.listed_files > 0 and report.consolidation.ok)


def run_self_test() -> int:
    with tempfile.TemporaryDirectory(prefix="memtab-self-test-") as scratch:
        # The child process inherits these: offline, and no user settings.
        os.environ["MEMTAB_PROVIDER"] = "offline"
        os.environ["MEMTAB_CONFIG_DIR"] = str(Path(scratch) / "config")
        home = create_demo_home(Path(scratch) / "demo")
        store = MemoryStore.open(home, MAIN_ID, load_registry(home))
        listed = sum(len(listing.files) for listing in store.list_all())
        steps: list[str] = []
        progress = RunControls(on_step=lambda _step, message: steps.append(message))
        outcome = run_isolated(ConsolidationRequest(MAIN_ID), home.root, progress)
        record = outcome.record
        report = SelfTestReport(
            version=__version__,
            frozen=bool(getattr(sys, "frozen", False)),
            listed_files=listed,
            consolidation=SelfTestConsolidation(
                ok=record is not None,
                error=outcome.error,
                progress_messages=len(steps),
                applied_ops=record.applied_count if record else 0,
            ),
        )
    print_json(report.to_json())
    if not report.ok:
        logger.error("Self-test failed: %s", report.to_json())
    return 0 if report.ok else 1
