"""The check's records: `memtab check --json` is a stable contract (docs/formats.md §19.2),
written byte for byte as it was when the records were pydantic models; the one codec reads
what it writes."""

from __future__ import annotations

import json
import sys

import pytest

from memtab.check.records import CheckReport, Finding, Fix, Place
from memtab.cli.common import print_json

REPORT = CheckReport(
    findings=(
        Finding(
            path="/memories/workspace/dev-setup.md",
            line=6,
            kind="missing-path",
            message="src/acme/settings_local.py is not in the checkout",
            why="Looked in /src/acme-api/fix — “moved?”",
            scope="workspace",
            subject="src/acme/settings_local.py",
            text="- Local settings live in `src/acme/settings_local.py` ✓",
            workspace="a1b2c3d4e5",
            project="/src/acme-api",
            checkout="/src/acme-api/fix",
            fix=Fix(
                description="Name src/acme/config/settings_local.py instead",
                old_str="- Local settings live in `src/acme/settings_local.py` ✓",
                new_str="- Local settings live in `src/acme/config/settings_local.py` ✓",
                plannable=True,
            ),
            related=(
                Place(
                    path="/memories/project/ports.md",
                    line=2,
                    text="- port 8080",
                    project="/src/acme-api",
                ),
                Place(path="claude-code:user:CLAUDE.md"),
            ),
        ),
        Finding(
            path="claude-code:project-acme:MEMORY.md",
            line=None,
            kind="stale",
            message="Not used for 120 days",
            why="Last used 2026-07-01",
            scope="project",
            agent="claude-code",
        ),
    ),
    files_checked=42,
    projects=("/src/acme-api",),
    problems=("cannot read /src/gone: No such file",),
    cancelled=True,
    stale_days=90,
)

# `memtab check --json` of REPORT, as the pydantic `Record`s printed it (main 100d140).
PRINTED = """\
{
  "findings": [
    {
      "path": "/memories/workspace/dev-setup.md",
      "line": 6,
      "kind": "missing-path",
      "message": "src/acme/settings_local.py is not in the checkout",
      "why": "Looked in /src/acme-api/fix — “moved?”",
      "scope": "workspace",
      "agent": "mux",
      "subject": "src/acme/settings_local.py",
      "text": "- Local settings live in `src/acme/settings_local.py` ✓",
      "workspace": "a1b2c3d4e5",
      "project": "/src/acme-api",
      "checkout": "/src/acme-api/fix",
      "fix": {
        "description": "Name src/acme/config/settings_local.py instead",
        "oldStr": "- Local settings live in `src/acme/settings_local.py` ✓",
        "newStr": "- Local settings live in `src/acme/config/settings_local.py` ✓",
        "plannable": true
      },
      "related": [
        {
          "path": "/memories/project/ports.md",
          "line": 2,
          "text": "- port 8080",
          "workspace": null,
          "project": "/src/acme-api"
        },
        {
          "path": "claude-code:user:CLAUDE.md",
          "line": null,
          "text": "",
          "workspace": null,
          "project": null
        }
      ]
    },
    {
      "path": "claude-code:project-acme:MEMORY.md",
      "line": null,
      "kind": "stale",
      "message": "Not used for 120 days",
      "why": "Last used 2026-07-01",
      "scope": "project",
      "agent": "claude-code",
      "subject": "",
      "text": "",
      "workspace": null,
      "project": null,
      "checkout": null,
      "fix": null,
      "related": []
    }
  ],
  "filesChecked": 42,
  "projects": [
    "/src/acme-api"
  ],
  "problems": [
    "cannot read /src/gone: No such file"
  ],
  "cancelled": true,
  "staleDays": 90
}
"""


def test_the_json_report_is_printed_byte_for_byte_as_before(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a terminal, indented as ever; piped, one compact line of the same keys and values."""
    print_json(REPORT.to_json())
    piped = capsys.readouterr().out
    assert piped.count("\n") == 1 and json.loads(piped) == json.loads(PRINTED)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    print_json(REPORT.to_json())
    assert capsys.readouterr().out == PRINTED


def test_the_codec_reads_what_it_writes() -> None:
    assert CheckReport.read(REPORT.to_json()) == REPORT
    finding = REPORT.findings[0]
    assert Finding.read(finding.to_json()) == finding
    assert Fix.read({"description": "d", "old_str": "a", "newStr": "b"}) == Fix(
        description="d", old_str="a", new_str="b"
    )  # snake_case names read too, as a Record's


@pytest.mark.parametrize(
    "raw",
    [
        None,
        [],
        {"findings": "none"},
        {"findings": [{"path": "/memories/x.md", "line": 1, "kind": "nonsense"}]},
        {"findings": [], "filesChecked": "many"},
    ],
)
def test_what_is_not_a_report_reads_as_none(raw: object) -> None:
    assert CheckReport.read(raw) is None
