"""`run_doctor`: every check, in the order a reader follows them, in one report."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

from memtab.diagnostics.home import check_home, check_registry, check_sidecars
from memtab.diagnostics.memtab_files import check_history, check_locks, check_xum_locks
from memtab.diagnostics.report import DoctorReport, Finding, Findings, Section
from memtab.diagnostics.runtime import QtChecker, check_runtime, run_qt_check
from memtab.diagnostics.setup import (
    check_agent_server,
    check_login_service,
    check_provider,
    check_sources,
    check_writer,
)
from memtab.diagnostics.sync import check_sync
from memtab.diagnostics.watching import check_depth, check_watcher, check_xum_temps
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
    """Check the home at `location` and this installation (blocks on disk, a child Python for
    Qt, the network with `check_connection`); never raises for what it finds."""
    env = os.environ if env is None else env
    home = Home(location.path)
    findings: list[Finding] = []

    def section(facts: Section, found: Findings) -> Section:
        findings.extend(found.items)  # in the order the checks run
        return facts

    sections = {"home": section(*check_home(location))}
    registry_section, found, registry = check_registry(home)
    sections["registry"] = section(registry_section, found)
    sections["sidecars"] = section(*check_sidecars(home, config_dir(env)))
    sections["sync"] = section(*check_sync(home))
    sections["history"] = section(*check_history(home))
    locks, found_in_locks = check_locks(home)
    locks = locks.replaced(xum=check_xum_locks(home, found_in_locks))
    sections["locks"] = section(locks, found_in_locks)
    sections["watcher"] = section(*check_watcher(home.root))
    findings.extend(check_depth(home).items)
    findings.extend(check_xum_temps(home).items)
    sections["sources"] = section(*check_sources(home, registry, env))
    sections["provider"] = section(*check_provider(env, probe=check_connection))
    sections["writer"] = section(*check_writer(env))
    sections["runtime"] = section(*check_runtime(qt_check or run_qt_check))
    sections["agent_server"] = section(*check_agent_server(home, env))
    sections["login_service"] = section(*check_login_service(home, env))
    report = DoctorReport(findings=tuple(findings), **sections)
    logger.info("doctor: %s, %d finding(s)", report.status.value, len(report.findings))
    return report
