"""The ledger's budgets hold (issue 98): each feature's code lines, the command line and the shape
of Consolidate now (tests/support/ledger.py; `scripts/ledger` prints the table)."""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

import pytest

from support import ledger
from support.code_lines import code_lines

KNOWN_OVER = {
    # -48 issue 98: the writer, review, check and history sections declared once; -12: one table
    # of default base URLs, one reading of the provider keys; +6: Ctrl+PageDown turns the page;
    # -3: the model's environment overrides and the writer's refusals declared once; -6: the
    # model form's provider, model and base URL made from the provider keys' declaration, an
    # unread key name deleted; -5: the CLI's refusals and --json from their records; -5: a key's
    # place and the model rows' loading each from the code that declares them
    "settings": 2_015,
    # -118 issue 98: mcp, models, settings parsed from signatures; +25: one module a trust command;
    # +1 issue 94: `check` loads the consolidation engine only for --plan-out; +29: a warm
    # `duplicates`/`check --json` prints the report it kept; +1 issue 95: the writer's digest;
    # +29 issue 94: a cold run's JSON made once and printed as kept bytes (cold check 11 → 8 s);
    # -23 issue 98: --json records made from their objects' attributes (record_of); +8: a warm
    # `contradictions --json` imports neither its engine nor the claims' readers; -14: `--json`
    # from the record, undeclared by 16 handlers that say it in words; -8: `runs` lists as the
    # Runs dialog lists (`load_run_list`); -50: `recall` and `loads` in the words of the
    # window's What each agent recalls / loads (`recall_groups`, `where_it_stops`); -10: `history`
    # and `runs` in the History panel's and Runs dialog's words (`version_rows`, `run_title`);
    # -7: `status` in the consolidation footer's lines (`scope_lines`, `harvest_line`); -6: an
    # engine's refusal as the CLI's line by `as_cli_error` in recall and models; -7: memtab
    # watch's signal handling in watch/
    ledger.COMMAND_LINE: 3_779,
}
"""Figures not yet under their budget, each at its figure today: none may grow, and each comes off
this list when its move lands (the command line's: issue 98's second half)."""

ARCHITECTURE = ledger.ROOT / "docs" / "ARCHITECTURE.md"


@pytest.fixture(scope="module")
def figures() -> list[ledger.Line]:
    counted, shape = ledger.count(), ledger.job_shape()
    assert not counted.unplaced, f"no ledger row holds these modules: {counted.unplaced}"
    assert not counted.unknown_names, f"rows name what is not there: {counted.unknown_names}"
    assert not shape.broken, f"Consolidate now's steps changed: {shape.broken}"
    return ledger.lines(counted, shape)


@pytest.mark.slow  # slow: lays out every module of the app from its syntax tree (~10 s)
def test_no_figure_passes_its_budget(figures: list[ledger.Line]) -> None:
    over = [
        f"{line.name}: {line.figure:,} (budget {line.budget:,})"
        for line in figures
        if line.over and line.name not in KNOWN_OVER
    ]
    assert not over, (
        "over budget — take it back, or raise the row's budget in tests/support/ledger.py "
        f"saying in its issue what the lines buy: {over}"
    )


@pytest.mark.slow  # slow: as above
def test_a_figure_known_over_budget_does_not_grow(figures: list[ledger.Line]) -> None:
    by_name = {line.name: line for line in figures}
    grown = [
        f"{name}: {by_name[name].figure:,}, was {known:,}"
        for name, known in KNOWN_OVER.items()
        if by_name[name].figure > known
    ]
    assert not grown, f"grown while over budget: {grown}"
    under = [name for name in KNOWN_OVER if not by_name[name].over]
    assert not under, f"now within budget: take it off KNOWN_OVER: {under}"


def _lines(source: str) -> int:
    return code_lines(ast.parse(textwrap.dedent(source)).body)


def test_layout_moves_no_count() -> None:
    parameters = ["home", "*", "wait_s: float = 2.0", "cancel=None", "on_step=None", "scope=None"]
    arguments = ["home", 'trigger="manual"', "wait_s=wait_s", "cancel=cancel", "scope=scope"]
    arguments += ["reservation=None", "on_step=on_step"]
    packed = f"def settle({', '.join(parameters)}):\n    return run({', '.join(arguments)})\n"
    one_a_line = "".join(f"    {p},\n" for p in parameters)
    reflowed = (
        f"def settle(\n{one_a_line}):\n"
        '    """Settle the home."""\n\n'
        "    # a comment, and the blank lines around it, are no code\n\n"
        f"    return run(\n        {', '.join(arguments)},\n    )\n"
    )
    assert _lines(packed) == _lines(reflowed) == 10  # as `ruff format` lays it out


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("x = 1", 1),
        # a call too long for its line: its arguments on one line of their own
        (f"value = make({', '.join(f'argument_{n}' for n in range(8))})", 3),
        # ... or one a line when they do not fit there either
        (f"value = make({', '.join(f'a_long_argument_{n}=n' for n in range(8))})", 10),
        # a literal split is one element a line
        (f"NAMES = ({', '.join(repr(f'name number {n}') for n in range(8))})", 10),
        ("def stub(self) -> int: ...", 1),
        ('"""A docstring."""', 0),
    ],
)
def test_code_is_laid_out_as_the_formatter_does(source: str, expected: int) -> None:
    assert _lines(source) == expected


def test_each_module_falls_in_the_row_of_its_most_specific_entry(tmp_path: Path) -> None:
    app = tmp_path / "app"
    (app / "gui" / "settings").mkdir(parents=True)
    (app / "gui" / "view.py").write_text("A = 1\nB = 2\n")
    (app / "gui" / "settings" / "dialog.py").write_text("C = 3\n")
    (app / "store.py").write_text("def keep():\n    return 1\n\n\ndef setting():\n    return 2\n")
    (app / "lost.py").write_text("D = 4\n")
    rows = (
        ledger.Row("window", ("gui/",), 2),
        ledger.Row("settings", ("gui/settings/", "store.py::setting,gone"), 2),
        ledger.Row("store", ("store.py",), 2),
    )
    counted = ledger.count(rows, app)
    assert {name: dict(f.by_layer) for name, f in counted.rows.items()} == {
        "window": {ledger.Layer.WIDGETS: 2},
        "settings": {ledger.Layer.WIDGETS: 1, ledger.Layer.ENGINE: 2},
        "store": {ledger.Layer.ENGINE: 2},
    }
    assert counted.unplaced == ("lost.py",)
    assert counted.unknown_names == ("store.py::gone",)
    found = ledger.lines(counted, ledger.JobShape(0, (), ()), rows)
    assert [line.name for line in found if line.over] == ["settings"]


def test_a_step_that_no_longer_calls_the_next_breaks_the_shape() -> None:
    steps = (
        ledger.Step("consolidation/job.py::run_isolated", "no_such_function"),
        ledger.Step("consolidation/job.py::gone"),
    )
    shape = ledger.job_shape(steps)
    assert shape.broken == (
        "consolidation/job.py::run_isolated: does not call no_such_function",
        "consolidation/job.py::gone: not found",
    )


def test_the_architecture_page_shows_the_budgets() -> None:
    page = ARCHITECTURE.read_text(encoding="utf-8").split("\n## The ledger\n", 1)[1]
    shown = dict(re.findall(r"^\| ([^|]+?) \| ([^|]+?) \|", page, re.MULTILINE))
    budgets = {line.name: f"{line.budget:,}" for line in _budgeted()}
    for name in ("settings", "history, undo, trash, blame", ledger.COMMAND_LINE):
        assert shown.get(name) == budgets[name], name
    job = f"{ledger.BOUNDARIES_BUDGET} · {ledger.SPELLED_TWICE_BUDGET}"
    assert shown.get("Consolidate now") == job


def _budgeted() -> list[ledger.Line]:
    empty = ledger.Ledger({row.name: ledger.Figures() for row in ledger.ROWS}, (), ())
    return ledger.lines(empty, ledger.JobShape(0, (), ()))
