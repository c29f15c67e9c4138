"""`memtab --self-test`: does this installation work beyond opening a window?

It writes a demo home into a scratch directory, lists it, and consolidates its main
workspace offline in a child process, exactly as the window's Consolidate now does (the
path a frozen bundle breaks first: the child re-enters the program through
`multiprocessing.freeze_support()`). No model is called, and no real home or setting is
read or written. Prints one JSON object; exits 1 when a step failed.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from memtab import __version__
from memtab.consolidation.job import run_isolated
from memtab.demo import MAIN_ID, create_demo_home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import load_registry

logger = logging.getLogger(__name__)


def run_self_test() -> int:
    report: dict[str, Any] = {"version": __version__, "frozen": bool(getattr(sys, "frozen", False))}
    with tempfile.TemporaryDirectory(prefix="memtab-self-test-") as scratch:
        # The child process inherits these: offline, and no user settings.
        os.environ["MEMTAB_PROVIDER"] = "offline"
        os.environ["MEMTAB_CONFIG_DIR"] = str(Path(scratch) / "config")
        home = create_demo_home(Path(scratch) / "demo")
        registry = load_registry(home)
        store = MemoryStore.open(home, MAIN_ID, registry)
        report["listedFiles"] = sum(len(listing.files) for listing in store.list_all())
        steps: list[str] = []
        outcome = run_isolated(
            home.root,
            MAIN_ID,
            "manual",
            cancel=threading.Event(),
            on_step=lambda _step, message: steps.append(message),
        )
        record = outcome.record
        report["consolidation"] = {
            "ok": record is not None,
            "error": outcome.error,
            "progressMessages": len(steps),
            "appliedOps": record.applied_count if record else 0,
        }
    report["ok"] = report["listedFiles"] > 0 and report["consolidation"]["ok"]
    json.dump(report, sys.stdout, indent=2)
    sys.stdout.write("\n")
    if not report["ok"]:
        logger.error("Self-test failed: %s", report)
    return 0 if report["ok"] else 1
