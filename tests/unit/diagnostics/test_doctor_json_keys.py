"""`memtab doctor --json` (docs/troubleshooting.md): every section's keys and their order,
at every level — a section that could not run holds only `problem`, a home not made yet
fewer keys — pinned key by key (fields are added, never renamed or removed)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from memtab.cli.health.doctor_commands import run_doctor
from memtab.diagnostics.setup import QtCheck
from memtab.store.home import HomeLocation
from support.demo_homes import copied_demo_home

HOME = ["path", "source", "why", "exists", "readable", "writable"]
REGISTRY = ["path", "exists", "problem"]
COUNTS = [
    "projects",
    "workspaces",
    "archivedWorkspaces",
    "multiProjectWorkspaces",
    "writerInterval",
    "skipped",
    "orphanProjectDirs",
]
SIDECAR = ["name", "path", "exists", "size", "status", "problem", "keptAside"]
SYNC = ["fileSystem", "git", "targets", "xumBackup", "conflictCopies"]
FILE_SYSTEM = ["type", "mountPoint", "remote", "locksWork"]
HISTORY = ["path", "exists", "writable", "contents", "unreadableContents", "indexes", "recording"]
INDEX = ["path", "records", "badLines"]
XUM = ["locks", "leftovers"]
WATCHER = ["backend", "native", "homeDirectories", "inotify"]
INOTIFY = ["maxUserWatches", "maxUserInstances", "watchesInUse", "instancesInUse", "headroom"]
SOURCES = ["found", "lookedFor", "problems"]
FOUND = ["id", "agent", "label", "root", "project", "writable"]
LOOKED_FOR = ["agent", "path", "found", "how", "note"]
PROVIDER = [
    "provider",
    "model",
    "baseUrl",
    "origins",
    "key",
    "problem",
    "check",
    "limits",
    "context",
]
ORIGINS = ["provider", "model", "baseUrl"]
KEY = ["sent", "from", "withheld", "savedFor", "note"]
WRITER = ["settings", "problems"]
WRITER_SETTINGS = [
    "mode",
    "timeout_s",
    "memory_path",
    "dump_successful_runs",
    "max_dumps",
    "offline_notes",
    "notify",
]
RUNTIME = ["versions", "qtProblem", "frozen", "logFile"]
VERSIONS = [
    "memtab",
    "python",
    "platform",
    "pyside6",
    "qt",
    "watchdog",
    "httpx",
    "httpx2",
    "pydantic",
]
AGENT_SERVER = ["shared", "whyNot", "running", "hostedBy", "pid", "sessions", "socket", "note"]
LOGIN_SERVICE = ["installed", "answer", "entry", "note"]
SECTIONS = [
    "status",
    "findings",
    "home",
    "registry",
    "sidecars",
    "sync",
    "history",
    "locks",
    "watcher",
    "sources",
    "provider",
    "writer",
    "runtime",
    "agentServer",
    "loginService",
]


def doctor(home: Path) -> dict[str, Any]:
    report = run_doctor(HomeLocation(home, "--home"), qt_check=lambda: QtCheck(qt="6", pyside6="6"))
    data: dict[str, Any] = json.loads(json.dumps(report.to_json()))
    assert list(data) == SECTIONS
    assert list(data["home"]) == HOME
    assert all(list(row) == SIDECAR for row in data["sidecars"])
    assert list(data["sync"]) == SYNC
    assert list(data["history"]) == HISTORY
    assert all(list(index) == INDEX for index in data["history"]["indexes"])
    assert list(data["locks"]["xum"]) == XUM
    assert list(data["watcher"]) == WATCHER
    assert data["watcher"]["inotify"] is None or list(data["watcher"]["inotify"]) == INOTIFY
    assert list(data["sources"]) == SOURCES
    assert all(list(row) == FOUND for row in data["sources"]["found"])
    assert all(list(row) == LOOKED_FOR for row in data["sources"]["lookedFor"])
    assert list(data["writer"]) == WRITER and list(data["writer"]["settings"]) == WRITER_SETTINGS
    assert list(data["runtime"]) == RUNTIME and list(data["runtime"]["versions"]) == VERSIONS
    assert list(data["agentServer"]) == AGENT_SERVER
    assert list(data["loginService"]) == LOGIN_SERVICE
    return data


def test_a_demo_homes_report_has_every_key(tmp_path: Path) -> None:
    data = doctor(copied_demo_home(tmp_path / "demo").root)
    assert list(data["registry"]) == REGISTRY + COUNTS
    assert list(data["sync"]["fileSystem"]) == FILE_SYSTEM
    assert list(data["locks"]) == ["path", "lockable", "notLockFiles", "xum"]
    assert list(data["provider"]) == PROVIDER
    assert list(data["provider"]["origins"]) == ORIGINS and list(data["provider"]["key"]) == KEY
    assert data["history"]["indexes"] and data["sources"]["found"]


def test_a_home_not_made_yet_has_fewer_locks_keys(tmp_path: Path) -> None:
    data = doctor(tmp_path / "not-yet")
    assert list(data["registry"]) == REGISTRY + COUNTS
    assert list(data["locks"]) == ["path", "lockable", "xum"]


def test_a_section_that_could_not_run_holds_only_its_problem(tmp_path: Path) -> None:
    home = copied_demo_home(tmp_path / "demo")
    home.config_path.write_text("{not json", encoding="utf-8")
    config = Path(os.environ["MEMTAB_CONFIG_DIR"])  # each test's own (tests/conftest.py)
    config.mkdir(parents=True, exist_ok=True)
    (config / "settings.json").write_text('{"provider": 5}', encoding="utf-8")
    data = doctor(home.root)
    assert list(data["registry"]) == REGISTRY
    assert list(data["provider"]) == ["problem"]
