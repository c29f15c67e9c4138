"""`run_doctor`: every check, in the order a reader follows them, in one report."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

from memtab.diagnostics.home import check_home, check_registry, check_sidecars
from memtab.diagnostics.memtab_files import check_history, check_locks
from memtab.diagnostics.report import DoctorReport
from memtab.diagnostics.runtime import QtChecker, check_runtime, run_qt_check
from memtab.diagnostics.setup import check_provider, check_sources, check_writer
from memtab.diagnostics.sync import check_sync
from memtab.diagnostics.watching import check_watcher
from memtab.diagnostics.xum_locks import check_xum_locks
from memtab.fs.config.config_dir import config_dir
from memtab.store.home import Home, HomeLocation

logger = logging.getLogger(__name__)


def run_doctor(
    location: HomeLocation,
    *,
    env: Mapping[str, str] | None = None,
    check_connection: bool = False,
    qt_check: QtChecker | None = None,
) -> DoctorReport:
    """Check the home at `location` and this installation (blocks on disk, on a child
    Python for Qt — `qt_check` replaces it — and on the network with `check_connection`);
    never raises for what it finds."""
    env = os.environ if env is None else env
    home = Home(location.path)
    report = DoctorReport()
    report.add("home", *check_home(location))
    registry_section, found, registry = check_registry(home)
    report.add("registry", registry_section, found)
    report.add("sidecars", *check_sidecars(home, config_dir(env)))
    report.add("sync", *check_sync(home))
    report.add("history", *check_history(home))
    locks, found_in_locks = check_locks(home)
    locks["xum"] = check_xum_locks(home, found_in_locks)
    report.add("locks", locks, found_in_locks)
    report.add("watcher", *check_watcher(home.root))
    report.add("sources", *check_sources(home, registry, env))
    report.add("provider", *check_provider(env, probe=check_connection))
    report.add("writer", *check_writer(env))
    report.add("runtime", *check_runtime(qt_check or run_qt_check))
    logger.info("doctor: %s, %d finding(s)", report.status.value, len(report.findings))
    return report
