"""Review before apply keeps every line: units, the check of what a plan shows, and what
the journal says (issue 19).

The demo's offline plan merges test-tips.md into testing.md as two ops: an insert that
carries "Use `pytest --lf`…" into testing.md, and the delete of test-tips.md. Taking the
delete without the insert lost that line from every file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memtab.cli.main import main
from memtab.consolidation.errors import PlanError
from memtab.consolidation.records import ConsolidationPlan
from memtab.consolidation.review.plan import MAX_PLAN_BYTES, read_plan, write_plan
from memtab.consolidation.service import ConsolidationService
from memtab.demo import MAIN_ID
from memtab.fs.clock import now_ms
from memtab.llm.settings import ProviderSettings
from memtab.store.history.describe import FileTexts, OpTexts, describe_ops
from memtab.store.history.records import RunEntry, RunOp
from memtab.store.history.runs import RunsLog
from memtab.store.home import Home
from memtab.store.sidecars.journal import Journal
from support.demo_homes import copied_demo_home

OFFLINE = ProviderSettings("offline", "offline", "")
LF_LINE = "Use `pytest --lf` to rerun only the last failures."
TESTING = "/memories/project/testing.md"
TEST_TIPS = "/memories/project/test-tips.md"


@pytest.fixture
def demo(tmp_path: Path) -> Home:
    return copied_demo_home(tmp_path / "demo")


def service(home: Home) -> ConsolidationService:
    return ConsolidationService(home, settings=OFFLINE)


def memory_text(home: Home) -> str:
    """Every memory file of the home, one after the other."""
    files = [*(home.root / "memory").rglob("*.md"), *home.sessions_dir.rglob("memory/**/*.md")]
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(files))


def memtab_runs(home: Home) -> list[RunEntry]:
    """The runs Memtab made in the test (the demo's journal brings mux's runs into the
    log, and the demo's own history has runs an hour old or more)."""
    recent = now_ms() - 30 * 60_000
    return [run for run in RunsLog(home).runs() if run.source == "memtab" and run.at > recent]


def write_json(path: Path, value: object) -> None:
    path.write_text(json.dumps(value), encoding="utf-8")


def edited_plan(
    home: Home, path: Path, edit: Callable[[dict[str, Any]], None]
) -> ConsolidationPlan:
    """The demo's plan written to `path`, edited there by hand (`edit` changes its JSON)
    and read back."""
    write_plan(path, service(home).plan(MAIN_ID))
    document = json.loads(path.read_text(encoding="utf-8"))
    edit(document)
    write_json(path, document)
    return read_plan(path)


def test_the_demo_merge_is_one_unit_of_its_insert_and_its_delete(demo: Home) -> None:
    plan = service(demo).plan(MAIN_ID)
    [merge] = [unit for unit in plan.units if len(unit.ops) > 1]
    assert [(op.command, op.path) for op in merge.ops] == [
        ("insert", TESTING),
        ("delete", TEST_TIPS),
    ]
    assert merge.description == "Combined test-tips.md into testing.md"
    assert all(len(unit.ops) == 1 for unit in plan.units if unit != merge)


def test_accepting_part_of_a_unit_is_refused_naming_it(
    demo: Home, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan_file = tmp_path / "plan.json"
    h = ["--home", str(demo.root), "consolidate", "--workspace", MAIN_ID, "--provider", "offline"]
    assert main([*h, "--plan-out", str(plan_file)]) == 0
    out = capsys.readouterr().out
    journal_before = demo.journal_path.read_bytes()
    assert main([*h, "--apply-plan", str(plan_file), "--accept", "2,4"]) == 1
    error = capsys.readouterr().err
    assert "op 4 is part of “Combined test-tips.md into testing.md” (ops 1 and 4)" in error
    assert "accept op 1 too, or leave out op 4" in error
    assert LF_LINE in memory_text(demo)
    assert demo.journal_path.read_bytes() == journal_before and memtab_runs(demo) == []
    assert "Combined test-tips.md into testing.md — ops 1 and 4, accepted together:" in out


def test_a_delete_whose_lines_the_plan_keeps_elsewhere_never_goes_alone(
    demo: Home, tmp_path: Path
) -> None:
    # A plan whose merge was cut in two by hand (and its words made to match): the
    # units no longer hold the delete back, the check at apply time still does.
    def cut_the_merge(document: dict[str, Any]) -> None:
        delete = document["ops"][3]
        assert delete["command"] == "delete"
        delete["unit"], delete["description"] = 99, "Deleted test-tips.md"

    plan = edited_plan(demo, tmp_path / "plan.json", cut_the_merge)
    record = service(demo).apply_plan(plan, [2, 4])
    assert [op.applied for op in record.ops] == [False, True, False, False]
    assert record.ops[3].note == (
        "1 line of what it deletes would be left in no memory file (“- " + LF_LINE + "”): "
        "the plan keeps it in another file, but no other file holds it now"
    )
    assert LF_LINE in memory_text(demo)
    assert (demo.root / "memory/project").exists()


def test_an_op_whose_arguments_were_changed_refuses_the_whole_plan(
    demo: Home, tmp_path: Path
) -> None:

    def delete_another_file(document: dict[str, Any]) -> None:
        gotchas = document["ops"][1]
        assert gotchas["description"] == "Removed 1 line from gotchas.md"
        gotchas["arguments"] = {"command": "delete", "path": "/memories/project/architecture.md"}

    plan = edited_plan(demo, tmp_path / "plan.json", delete_another_file)
    before = memory_text(demo)
    journal_before = demo.journal_path.read_bytes()
    with pytest.raises(PlanError, match=r"^op 2 of the plan does not do what it shows "
                       r"\(“Removed 1 line from gotchas.md”\): its arguments delete "
                       r"/memories/project/architecture.md\."):  # fmt: skip
        service(demo).apply_plan(plan, [2])
    assert memory_text(demo) == before
    assert demo.journal_path.read_bytes() == journal_before and memtab_runs(demo) == []


@pytest.mark.parametrize(
    ("field", "value", "what"),
    [
        ("diff", "--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y", "its diff is not the change it makes"),
        ("resultSha256", "0" * 64, "it leaves its files other than the plan says"),
        (
            "path",
            "/memories/project/architecture.md",
            "it shows a change of /memories/project/architecture.md, which its arguments do "
            "not touch",
        ),
    ],
)
def test_a_plan_whose_shown_change_was_edited_is_refused(
    demo: Home, tmp_path: Path, field: str, value: str, what: str
) -> None:
    plan = edited_plan(
        demo,
        tmp_path / "plan.json",
        lambda document: document["ops"][1]["files"][0].update({field: value}),
    )
    with pytest.raises(PlanError, match=f"^op 2 of the plan does not do what it shows .*: {what}"):
        service(demo).apply_plan(plan)


def test_the_journal_runs_log_and_done_message_say_only_what_was_applied(demo: Home) -> None:
    plan = service(demo).plan(MAIN_ID)
    assert "combined" in plan.summary.lower() and "wider scope" in plan.summary  # what it proposes
    record = service(demo).apply_plan(plan, [2])
    assert record.summary == ("Removed 1 line from gotchas.md. Not accepted in review: 2 changes.")
    assert Journal(demo).load().workspaces[MAIN_ID].summary == record.summary
    (run,) = memtab_runs(demo)
    assert run.summary == record.summary


def test_a_whole_plan_applied_says_each_change_once(demo: Home) -> None:
    record = service(demo).apply_plan(service(demo).plan(MAIN_ID))
    assert record.summary == (
        "Combined test-tips.md into testing.md; removed 1 line from gotchas.md; "
        "removed 1 line from scratch.md."
    )
    (run,) = memtab_runs(demo)
    assert [op.unit for op in run.ops] == [1, 2, 3, 1]


# --- the plan file ---------------------------------------------------------------------------


def test_a_plan_is_read_only_from_a_regular_file(tmp_path: Path) -> None:
    with pytest.raises(
        PlanError, match=r"^cannot read the plan /dev/zero: it is a device, not a regular file$"
    ):
        read_plan(Path("/dev/zero"))
    fifo = tmp_path / "plan.fifo"
    os.mkfifo(fifo)
    with pytest.raises(
        PlanError, match=r"it is a FIFO .*, not a regular file"
    ):  # at once: no writer
        read_plan(fifo)
    with pytest.raises(PlanError, match=r"^cannot read the plan .*: No such file"):
        read_plan(tmp_path / "missing.json")


def test_a_plan_over_the_size_cap_is_refused_unread(tmp_path: Path) -> None:
    huge = tmp_path / "huge.json"
    with huge.open("wb") as file:
        file.truncate(MAX_PLAN_BYTES + 1)  # sparse: nothing is written, nothing read
    with pytest.raises(PlanError, match=r"it holds more than 32 MiB \(33,554,432 bytes\)$"):
        read_plan(huge)


def test_a_plan_with_too_many_ops_is_refused(demo: Home, tmp_path: Path) -> None:
    plan_file = tmp_path / "plan.json"
    write_plan(plan_file, service(demo).plan(MAIN_ID))
    document = json.loads(plan_file.read_text(encoding="utf-8"))
    document["ops"] = [{"index": n} for n in range(1, 400_001)]  # 6 MB: under the size cap
    write_json(plan_file, document)
    with pytest.raises(PlanError, match=r"holds 400,000 ops; a plan holds at most 1,000$"):
        read_plan(plan_file)


def test_the_cli_says_what_is_wrong_with_a_plan_file_in_one_line(
    demo: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    h = ["--home", str(demo.root), "consolidate", "--workspace", MAIN_ID]
    assert main([*h, "--apply-plan", "/dev/zero"]) == 1
    assert capsys.readouterr().err == (
        "memtab: cannot read the plan /dev/zero: it is a device, not a regular file\n"
    )


def test_ops_name_the_scope_of_a_path_the_run_names_in_two_scopes() -> None:
    edit = RunOp(command="str_replace", path="/memories/global/MEMORY.md", applied=True)
    delete = RunOp(command="delete", path="/memories/project/MEMORY.md", applied=True)
    other = RunOp(command="delete", path="/memories/project/notes.md", applied=True)
    texts: list[OpTexts] = [
        {"/memories/global/MEMORY.md": FileTexts("- a\n", "- a\n- b\n")},
        {"/memories/project/MEMORY.md": FileTexts("- c\n", None)},
        {"/memories/project/notes.md": FileTexts("- d\n", None)},
    ]
    assert describe_ops([edit, delete, other], texts) == [
        "Added 1 line to global/MEMORY.md",
        "Deleted project/MEMORY.md",  # "Deleted MEMORY.md" beside the edit would say neither
        "Deleted notes.md",
    ]


def test_a_plan_that_proposed_nothing_is_journaled_as_no_changes_needed(tmp_path: Path) -> None:
    home = copied_demo_home(tmp_path / "demo")
    first = service(home).apply_plan(service(home).plan(MAIN_ID))
    assert first.applied_count == 4
    second = service(home).apply_plan(service(home).plan(MAIN_ID))
    assert second.ops == () and second.summary == "no changes needed"
