"""`memtab doctor`: what Memtab sees here, and what is broken (exit 1) or worth a look; the checks
live in `memtab.diagnostics`."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from typing import Any

from memtab.cli.common import command, format_table
from memtab.diagnostics.home import (
    check_history,
    check_home,
    check_locks,
    check_registry,
    check_sidecars,
    check_xum_locks,
)
from memtab.diagnostics.report import DoctorReport, Finding, Findings, Level, Section
from memtab.diagnostics.setup import (
    QtChecker,
    check_agent_server,
    check_login_service,
    check_provider,
    check_runtime,
    check_sources,
    check_writer,
    run_qt_check,
)
from memtab.diagnostics.sync import check_sync
from memtab.diagnostics.watching import check_depth, check_watcher, check_xum_temps
from memtab.fs.config.config_dir import config_dir
from memtab.humanize import plural, relative_time, size_text
from memtab.store.home import Home, HomeLocation, resolve_home

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


_MARKS = {Level.BROKEN: "✗", Level.WARNING: "!"}


@command("doctor", status=lambda report: 1 if report.broken else 0, writes_home=False)
def run_doctor_command(
    home: str | None, *, json: bool = False, check_provider: bool = False
) -> DoctorReport:
    """check the home, sidecars, file watcher, sources, model settings, versions and the agents'
    warm MCP server

    Check what Memtab would use here. Exits 1 when something is broken (a file or setting Memtab
    cannot use, a provider that cannot work, Qt that does not load); warnings alone exit 0.

    Args:
        json: machine-readable output
        check_provider: also send one small request to the configured model provider
    """
    # The home as given, not opened: what is wrong with it is a finding.
    return run_doctor(resolve_home(home), check_connection=check_provider)


@run_doctor_command.text
def _print_report(report: DoctorReport) -> None:
    print(describe(report))


def describe(report: DoctorReport) -> str:
    """The report for a terminal: one line or two per check, then what was found."""
    s = report.sections
    rows = [
        ["Home:", f"{s['home']['path']} ({s['home']['why']})"],
        ["Registry:", _registry(s["registry"])],
        ["Sidecars:", _sidecars(s["sidecars"])],
        ["History:", _history(s["history"])],
        ["Locks:", _locks(s["locks"])],
        ["Watcher:", _watcher(s["watcher"])],
        ["Sources:", _sources(s["sources"])],
        ["Sync:", _sync(s["sync"])],
        *_provider(s["provider"]),
        ["Writer:", _writer(s["writer"]["settings"])],
        ["Versions:", _versions(s["runtime"]["versions"])],
        ["Log:", s["runtime"]["logFile"]],
        ["MCP:", s["agentServer"]["note"]],
        ["Login:", s["loginService"]["note"]],
    ]
    counts = [
        plural(sum(1 for f in report.findings if f.level is level), word)
        for level, word in ((Level.BROKEN, "problem"), (Level.WARNING, "warning"))
    ]
    lines = [f"Memtab doctor: {report.status.value} ({', '.join(counts)})", "", format_table(rows)]
    if report.findings:
        lines.append("")
        lines.extend(
            f"{_MARKS[f.level]} {f.check}: {f.message}"
            for f in report.findings
            if f.level in _MARKS
        )
    return "\n".join(lines)


def _registry(section: dict[str, Any]) -> str:
    if section.get("problem"):
        return f"unusable ({section['problem']})"
    if not section["exists"]:
        return "no config.json yet"
    return (
        f"{plural(section['projects'], 'project')}, {plural(section['workspaces'], 'workspace')}"
        f" ({section['archivedWorkspaces']} archived); the writer runs every "
        f"{plural(section['writerInterval'], 'turn')}"
    )


def _sidecars(rows: list[dict[str, Any]]) -> str:
    present = [row for row in rows if row["exists"] or row["keptAside"]]
    if not present:
        return "none yet"
    parts = []
    for row in present:
        state = size_text(row["size"]) if row["status"] == "ok" else row["status"]
        kept = f", {len(row['keptAside'])} kept aside" if row["keptAside"] else ""
        parts.append(f"{row['name']} {state}{kept}")
    return " · ".join(parts)


def _history(section: dict[str, Any]) -> str:
    if not section["exists"]:
        return "none yet (made by the first change)"
    if section["writable"] is None:
        return "unusable"
    versions = sum(index["records"] for index in section["indexes"])
    state = "writable" if section["writable"] else "cannot keep copies"
    return (
        f"{state}; {plural(section['contents'], 'stored content')}, "
        f"{plural(versions, 'record')} in {plural(len(section['indexes']), 'index', 'indexes')}"
    )


def _sync(section: dict[str, Any]) -> str:
    targets = section.get("targets") or []
    if not targets:
        return "not set up (memtab sync init --remote URL)"
    lines = []
    for target in targets:
        if target.get("lastError") and not target.get("offlineSince"):
            state = f"last sync failed: {target['lastError']}"
        elif target.get("offlineSince"):
            state = f"offline since {relative_time(target['offlineSince'])}"
        elif target.get("lastSyncAt"):
            state = f"synced {relative_time(target['lastSyncAt'])}"
        else:
            state = "never synced"
        conflicts = target.get("conflicts") or []
        waiting = f", {plural(len(conflicts), 'conflict')} waiting" if conflicts else ""
        scopes = ", ".join(target.get("scopes") or [])
        lines.append(f"{target['name']} → {target['remote']} ({scopes}): {state}{waiting}")
    if section.get("git") is None:
        lines.append("git is not installed")
    return " · ".join(lines)


def _locks(section: dict[str, Any]) -> str:
    if section["lockable"] is None:
        return "not checked (no home yet)"
    text = f"{section['path']} ({'a lock can be taken' if section['lockable'] else 'unusable'})"
    return " · ".join([text, *_xum_locks(section.get("xum") or {})])


def _xum_locks(xum: dict[str, Any]) -> list[str]:
    parts = []
    for lock in xum.get("locks") or []:
        holder = "a process" if lock["pid"] is None else f"pid {lock['pid']}"
        if lock["alive"] is not None:
            holder += " (alive)" if lock["alive"] else " (gone)"
        what = lock["guards"] or lock["path"]
        if lock["reclaimGuard"]:
            what = f"taking over {what}"
        stale = ", stale" if lock["stale"] else ""
        parts.append(f"xum's lock of {what}: {holder} since {relative_time(lock['since'])}{stale}")
    leftovers = xum.get("leftovers") or []
    if leftovers:
        parts.append(f"{plural(len(leftovers), 'lock leftover')} (removed at the next change)")
    return parts


def _watcher(section: dict[str, Any]) -> str:
    text = f"{section['backend']}, {plural(section['homeDirectories'], 'directory', 'directories')}"
    inotify = section["inotify"]
    if inotify and inotify["headroom"] is not None:
        used = inotify["watchesInUse"]
        text += f"; {inotify['headroom']} inotify watches free of {inotify['maxUserWatches']}" + (
            f" ({used} in use)" if used is not None else ""
        )
    return text


def _sources(section: dict[str, Any]) -> str:
    found = section["found"]
    if not found:
        return "no other agent's memory found"
    return f"{len(found)} found: {', '.join(source['id'] for source in found)}"


def _provider(section: dict[str, Any]) -> list[list[str]]:
    if section.get("problem") and "provider" not in section:
        return [["Provider:", f"unusable ({section['problem']})"]]
    origins = section["origins"]
    if section["provider"] == "offline":
        return [["Provider:", f"offline, built-in rules (from {origins['provider']})"]]
    rows = [
        ["Provider:", f"{section['provider']} (from {origins['provider']})"],
        ["Model:", f"{section['model']} (from {origins['model']})"],
        ["Base URL:", f"{section['baseUrl']} (from {origins['baseUrl']})"],
        ["Key:", section["key"]["note"]],
        ["Limits:", _limits(section["limits"])],
    ]
    if section["check"]:
        rows.append(["Test:", section["check"]["summary"]])
    context = section.get("context")
    if context:
        most = f"; the model takes {context['modelTokens']:,}" if context["modelTokens"] else ""
        hint = f"; {context['raiseHint']}" if context["raiseHint"] else ""
        tokens = f"{context['tokens']:,} tokens a request ({context['source']}{most}){hint}"
        rows.append(["Context:", tokens])
    return rows


def _limits(limits: dict[str, Any]) -> str:
    return (
        f"each request {limits['requestTimeoutS']:g} s ({limits['requestTimeoutFrom']}; "
        f"request_timeout_s in settings.json sets it), replies up to "
        f"{limits['writerMaxTokens']} tokens for the writer and "
        f"{limits['consolidationMaxTokens']} for Consolidate now ({limits['maxTokensFrom']}; "
        "max_tokens in settings.json sets them)"
    )


def _writer(settings: dict[str, Any]) -> str:
    return (
        f"{settings['mode']}, {settings['timeout_s']:g} s per run, {settings['memory_path']}, "
        f"offline notes: {settings['offline_notes']}"
    )


def _versions(versions: dict[str, Any]) -> str:
    names = ("memtab", "python", "pyside6", "qt", "watchdog", "httpx2", "pydantic")
    titles = ("Memtab", "Python", "PySide6", "Qt", "watchdog", "httpx2", "pydantic")
    return " · ".join(
        f"{title} {versions.get(name) or '?'}" for name, title in zip(names, titles, strict=True)
    )
