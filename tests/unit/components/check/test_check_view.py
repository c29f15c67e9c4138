"""The check in the window without Qt: which batches check again, the status line, what a
selection allows and says, and where Open leads."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.check.records import CheckReport, Finding, Fix
from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.check.check import (
    FindingPlace,
    finding_key,
    finding_place,
    finding_tip,
    fixable,
    fixes_ready,
    panel_row,
    rechecks,
    report_status,
    selection_view,
)
from memtab.store.home import PathKind, PathPlace
from memtab.store.paths import parse_file_path

FIX = Fix(description="Say src/app.py", old_str="a", new_str="b", plannable=True)


def finding(**fields: object) -> Finding:
    values: dict[str, object] = {
        "path": "/memories/global/notes.md",
        "line": 3,
        "kind": "missing-path",
        "message": "src/old.py is not in the project",
        "why": "No such file in the checkout",
        "scope": "global",
    }
    values.update(fields)
    return Finding(**values)  # type: ignore[arg-type]


def batch(*kinds: PathKind) -> ChangeBatch:
    return ChangeBatch(tuple(f"/p{i}" for i in range(len(kinds))), tuple(map(PathPlace, kinds)))


def test_memory_checks_again_and_memtabs_own_files_do_not() -> None:
    assert rechecks(batch(PathKind.GLOBAL_SCOPE))
    assert rechecks(batch(PathKind.CHAT_TRANSCRIPT, PathKind.PROJECT_SCOPE))
    assert not rechecks(batch(PathKind.CHAT_TRANSCRIPT, PathKind.WRITER_STATE))
    assert not rechecks(batch(PathKind.HISTORY_INDEX))
    # A workspace's folder holds its memory: one moved away or back is its files going.
    assert rechecks(batch(PathKind.WORKSPACE_DIR))


def test_the_status_says_what_was_found_and_each_part_not_read() -> None:
    report = CheckReport(findings=(finding(),), files_checked=4, problems=("codex: unreadable",))
    status = report_status(report)
    assert status.splitlines() == [
        "1 finding · 4 memory files checked · 1 part not read",
        "Not checked: codex: unreadable",
    ]
    assert report_status(CheckReport(files_checked=1)) == "Nothing to check · 1 memory file checked"
    assert fixes_ready(0) == "Review the fixes"
    assert fixes_ready(3) == "Review the fixes (3 more after these)"


def test_one_finding_selected_opens_and_says_why_and_its_fix() -> None:
    with_fix = finding(fix=FIX)
    shown = selection_view([with_fix])
    assert shown.open_enabled and shown.fix_enabled
    assert shown.why == "Why: No such file in the checkout\nFix: Say src/app.py"
    assert finding_tip(with_fix).endswith("\nFix: Say src/app.py")
    assert "Fix:" not in finding_tip(finding())


def test_a_fix_no_plan_can_make_is_for_the_hand_or_the_agent() -> None:
    by_hand = finding(agent="codex", fix=FIX)
    shown = selection_view([by_hand])
    assert not shown.fix_enabled
    assert shown.why.endswith("Fix: Say src/app.py (by hand or by its agent)")
    assert fixable([by_hand, finding(fix=FIX)]) == (finding(fix=FIX),)


def test_several_selected_fix_but_do_not_open() -> None:
    shown = selection_view([finding(fix=FIX), finding(line=9)])
    assert not shown.open_enabled and shown.fix_enabled and shown.why == ""
    assert selection_view([]).why == ""


def test_open_leads_to_the_line_counted_from_zero_in_its_workspace() -> None:
    path = parse_file_path("/memories/global/notes.md")
    assert finding_place(finding(), "ws") == FindingPlace(path, "ws", (2,))
    assert finding_place(finding(workspace="other", line=None), "ws") == FindingPlace(path, "other")


def test_a_finding_about_a_project_is_said_not_opened() -> None:
    about = finding(kind="project-missing", path="", line=None, project="/src/app")
    place = finding_place(about, "ws")
    assert place.path is None
    assert place.words == "src/old.py is not in the project (/src/app)"


def test_a_finding_stays_selected_by_its_file_line_kind_and_subject() -> None:
    assert finding_key(finding(subject="x")) == finding_key(finding(subject="x", message="m"))
    assert finding_key(finding(subject="x")) != finding_key(finding(subject="y"))


def test_the_panel_names_another_agents_file_by_its_name_not_its_file_id() -> None:
    # The File column read "gemini:memory-…", the start of a file id cut short.
    gemini = finding(path="gemini:memory-1a2b3c:review-checklist.md", scope=None)
    assert panel_row(gemini).name == "review-checklist.md"
    assert panel_row(finding(path="/memories/global/tools/git.md")).name == "git.md"
    project = finding(kind="project-missing", project="/home/dev/src/webapp")
    assert panel_row(project).name == "webapp"


def test_a_path_under_the_users_home_is_shown_from_tilde(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # As the status bar and What each agent recalls show a path: the checkout of a
    # workspace under the home reads ~/src/…, not the whole path from /.
    monkeypatch.setenv("HOME", str(tmp_path))
    checkout = tmp_path / "src" / "acme-api"
    found = finding(
        message=f"src/old.py is not in {checkout}",
        why=f"It names a path of the checkout {checkout} (its first folder, src/, is there)",
        fix=Fix(description=f"Say {checkout}/src/app.py", old_str="a", new_str="b"),
    )
    row = panel_row(found)
    assert row.message == "src/old.py is not in ~/src/acme-api"
    assert row.why.startswith("It names a path of the checkout ~/src/acme-api (its first")
    assert row.fix == "Say ~/src/acme-api/src/app.py"
    assert selection_view([found]).why.startswith("Why: It names a path of the checkout ~/src/")
    assert str(tmp_path) not in finding_tip(found).split("\n", 1)[1]  # its file stays as is
