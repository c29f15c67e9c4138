"""Runs… without Qt: a run's row and heading, what an op's diff pane and its Open say, when
a revert may start, and which run a new listing selects (the newest when opened again, the
run blame's card asked for, and its op once its details are shown)."""

from __future__ import annotations

from pathlib import Path

from memtab.components.history.runs import (
    EMPTY_TEXT,
    NO_MATCH_TEXT,
    OpState,
    OpView,
    RunDetail,
    RunFilter,
    RunList,
    RunsPresenter,
    empty_text,
    no_change_message,
    op_diff_view,
    revert_tip,
    run_heading,
    run_rows,
    trace_tip,
)
from memtab.components.text_diff import compute_diff
from memtab.store.history.records import RunEntry, RunOp
from memtab.store.history.runs import MUX_SOURCE

NOW_MS = 1_767_261_600_000


def _run(run_id: str, **fields: object) -> RunEntry:
    values: dict[str, object] = {"id": run_id, "at": NOW_MS, "kind": "consolidation"}
    values.update(fields)
    return RunEntry(**values)  # type: ignore[arg-type]


def _op(state: OpState, *, before: str = "a\n", after: str = "b\n") -> OpView:
    op = RunOp(command="edit", path="/memories/notes.md", applied=state is OpState.APPLIED)
    return OpView(op, "Edited notes.md", state, compute_diff(before, after), None)


def _listing(*runs: RunEntry) -> RunList:
    return RunList(list(runs), {})


def test_a_row_names_the_workspace_and_marks_a_failed_run() -> None:
    ok = _run("r1", workspace_id="w1", trigger="manual")
    failed = _run("r2", status="failed", error="model down")
    rows = run_rows(_listing(ok, failed), {"w1": "Acme API"})
    assert rows[0].cells[1:] == ["Consolidation · manual", rows[0].outcome, "Acme API"]
    assert rows[1].workspace == "—" and rows[1].failed and not rows[0].failed
    assert empty_text(RunFilter()) == EMPTY_TEXT
    assert empty_text(RunFilter(failed_only=True)) == NO_MATCH_TEXT


def test_the_heading_says_who_ran_it_and_why_it_failed() -> None:
    run = _run(
        "r1",
        workspace_id="w1",
        provider="anthropic",
        model="haiku",
        source=MUX_SOURCE,
        status="failed",
        summary="",
    )
    heading = run_heading(run, None, {"w1": "Acme API"})
    facts = heading.meta.split(" · ")
    assert facts[1:] == ["Acme API", "anthropic haiku", "from mux's journal"]
    assert heading.summary == "(no summary)\nFailed: no reason recorded"
    assert heading.title == "Consolidation by mux"


def test_a_failed_run_s_reason_is_said_once() -> None:
    """A writer's failure is its summary; the heading and the diff pane do not repeat it."""
    said = "The server refused the request (HTTP 400): request exceeds the context size"
    run = _run("r1", status="failed", error=said, summary=f"Memory writer failed: {said}")
    heading = run_heading(run, None, {})
    assert heading.summary.count(said) == 1
    assert said not in no_change_message(run)


def test_an_ops_diff_pane_says_why_there_is_no_diff() -> None:
    proposed = op_diff_view(_op(OpState.PROPOSED))
    assert proposed.message == "This change was not applied: nothing changed on disk."
    assert proposed.sides == ("", "")
    no_contents = op_diff_view(_op(OpState.APPLIED, before="", after=""))
    assert no_contents.message is not None and no_contents.sides is None
    applied = op_diff_view(_op(OpState.APPLIED))
    assert applied.message is None and applied.sides == ("before the run", "after the run")


def test_opening_an_op_whose_file_is_gone_says_where_to_look() -> None:
    presenter = RunsPresenter()
    run = _run("r1", workspace_id="w1")
    gone = _op(OpState.APPLIED)
    there = OpView(gone.op, gone.words, gone.state, gone.diff, "/memories/notes.md")
    presenter.detail = RunDetail(run, (gone, there), None)
    assert presenter.op(0) is gone and presenter.op(2) is None and presenter.op("x") is None
    assert presenter.open_op(gone) == ("/memories/notes.md no longer exists: see Recently deleted")
    assert presenter.open_op(there) == ("w1", "/memories/notes.md")


def test_a_revert_starts_once_at_a_time_and_only_when_the_run_allows() -> None:
    presenter = RunsPresenter()
    assert not presenter.can_revert()
    presenter.detail = RunDetail(_run("r1"), (), None)
    assert presenter.can_revert()
    presenter.revert_job = 3
    assert not presenter.can_revert()
    refused = RunDetail(_run("r2"), (), "A sync is not reverted")
    presenter.detail, presenter.revert_job = refused, None
    assert not presenter.can_revert() and revert_tip(refused) == "A sync is not reverted"


def test_a_listing_keeps_the_selection_or_selects_the_newest_when_asked() -> None:
    presenter = RunsPresenter()
    listing = _listing(_run("new"), _run("old"))
    assert presenter.listed(listing, "old").run_id == "old"
    assert presenter.listed(listing, "gone").run_id is None  # the first listed
    presenter.ask_newest()
    assert presenter.listed(listing, "old").run_id is None
    assert presenter.listed(listing, "old").run_id == "old"  # asked once
    assert presenter.run("old") is listing.runs[1] and presenter.run(None) is None


def test_the_run_asked_for_is_selected_and_its_op_once_its_details_are_shown() -> None:
    presenter = RunsPresenter()
    presenter.want("old", 2)
    listing = _listing(_run("new"), _run("old"))
    choice = presenter.listed(listing, "new")
    assert (choice.run_id, choice.op_now, choice.note) == ("old", None, None)
    assert presenter.is_wanted("old")
    presenter.detail = RunDetail(listing.runs[1], (), None)
    assert presenter.take_wanted_op() == 2 and not presenter.is_wanted("old")
    presenter.want("old", 1)
    assert presenter.listed(listing, "old").op_now == 1  # its details are shown already
    presenter.want("pruned", None)
    choice = presenter.listed(listing, "old")
    assert choice.run_id is None
    assert choice.note == "The run pruned is no longer in the runs log"
    assert not presenter.is_wanted("pruned")
    assert not presenter.needs_detail(listing.runs[1]) and presenter.needs_detail(listing.runs[0])


def test_a_missing_runs_note_stays_over_the_run_selected_instead() -> None:
    presenter = RunsPresenter()
    listing = _listing(_run("new"), _run("old"))
    presenter.want("pruned", None)
    choice = presenter.listed(listing, None)
    assert choice.run_id is None  # the first listed is selected instead
    note = "The run pruned is no longer in the runs log"
    assert presenter.note_over("new") == note  # selected: its details are read
    assert presenter.note_over("new") == note  # and shown
    assert presenter.note_over("old") == ""  # another run: the note is gone
    assert presenter.note_over("new") == ""


def test_the_trace_button_opens_a_kept_dump_or_says_why_there_is_none(tmp_path: Path) -> None:
    kept = RunDetail(_run("r1", trace_dump="1_r1.json"), (), None, trace=tmp_path / "1_r1.json")
    assert kept.trace is not None and trace_tip(kept).startswith("Open this run's trace dump")
    pruned = RunDetail(_run("r2", trace_dump="1_r2.json"), (), None)
    assert trace_tip(pruned) == "Its trace dump 1_r2.json is gone: only the newest are kept"
    none = RunDetail(_run("r3", source=MUX_SOURCE), (), None)
    assert trace_tip(none).startswith("This run left no trace dump")
