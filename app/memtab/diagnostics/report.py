"""A doctor's report: each check's facts and what it found wrong; its JSON is a stable contract
(docs/troubleshooting.md)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from memtab.fs.records import Record, computed


class Level(enum.StrEnum):
    """How bad a finding is; the report's status is its worst finding's level."""

    OK = "ok"
    WARNING = "warning"
    BROKEN = "broken"


_ORDER = (Level.OK, Level.WARNING, Level.BROKEN)


class Finding(Record):
    """Something a check found wrong, in one line (`memtab doctor --json`'s `findings`)."""

    check: str
    level: Level
    message: str


@dataclass
class Findings:
    """What one check found, collected while it runs."""

    check: str
    items: list[Finding] = field(default_factory=list)

    def broken(self, message: str) -> None:
        self.items.append(Finding(check=self.check, level=Level.BROKEN, message=message))

    def warning(self, message: str) -> None:
        self.items.append(Finding(check=self.check, level=Level.WARNING, message=message))


Section = Record | tuple[Record, ...]
"""One check's facts: its write-only record (the sidecars': one a file)."""


class CouldNotRun(Record, write_only=True):
    """The facts of a check that could not run: only why."""

    problem: str


def _worst(report: DoctorReport) -> Level:
    return max((f.level for f in report.findings), key=_ORDER.index, default=Level.OK)


class DoctorReport(Record, write_only=True):
    """`memtab doctor --json`: every check's findings and section; its status the worst level."""

    status: Level = computed(_worst)
    findings: tuple[Finding, ...] = ()
    home: Section
    registry: Section
    sidecars: Section
    sync: Section
    history: Section
    locks: Section
    watcher: Section
    sources: Section
    provider: Section
    writer: Section
    runtime: Section
    agent_server: Section
    login_service: Section

    @property
    def broken(self) -> bool:
        return self.status is Level.BROKEN

    @property
    def sections(self) -> dict[str, Any]:
        """Each check's section by its name, as its JSON."""
        written = self.to_json()
        names = list(written)
        return {name: written[name] for name in names[names.index("home") :]}
