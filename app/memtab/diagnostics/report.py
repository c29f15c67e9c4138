"""A doctor's report: each check's facts as JSON, and what it found wrong.

The JSON (`DoctorReport.to_json`) is a stable contract, documented in
docs/troubleshooting.md: fields are added, never renamed or removed.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from memtab.fs.records import Record


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


@dataclass
class DoctorReport:
    """Every check's section (plain JSON data) and findings, in the order they ran."""

    sections: dict[str, Any] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)

    def add(self, name: str, section: Any, found: Findings) -> None:
        self.sections[name] = section
        self.findings.extend(found.items)

    @property
    def status(self) -> Level:
        return max((f.level for f in self.findings), key=_ORDER.index, default=Level.OK)

    @property
    def broken(self) -> bool:
        return self.status is Level.BROKEN

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "findings": [finding.to_json() for finding in self.findings],
            **self.sections,
        }
