"""A check takes time linear in what it reads, and reads only regular files, boundedly.

A memory may hold a 100 KB line and a checkout any file; the window runs the same engine
in the background, so a stall is a check that never ends. These tests bound each case by
pytest-timeout (generous: a regression is exponential or quadratic, not a few per cent).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtab.check.checkout import build_checkout
from memtab.check.markdown import scan_markdown
from memtab.check.rules.facts import facts_of
from memtab.check.rules.paths import named_paths
from memtab.check.rules.runnable import aliases_in, run_problems
from memtab.check.scripts import just_recipes, make_targets, python_project
from memtab.cli.main import main
from support.property_examples import examples

from .helpers import check, home_with_project, make_checkout, of_kind

# What the patterns of a check look for, and what made them stall: runs of dots after a
# path, of spaces in a heading, of brackets, backticks, `#`s and words.
_PIECES = (
    ".", " ", "/", "a", "`", "#", "[", "]", "(", ")", ":", "-", "=", "*", "_", "\\", "'",
    '"', "1", "$", "<", ">", "L", ",", "@", "~", "\t", "!", "?", "{", "}", "|", "&", ";",
    "a.", "a/", "`a", "](", "[a", "**", ":1", "#L1", "a ", "1.", "A_", "v1.", "http://",
    "api ", "runs on ", "port ", "src/", "make ", "alias ", "é", "→",
)  # fmt: skip
_LEADS = ("", "`src/a", "# ", "- ", "$ ", "**", "[", "`", "make ", "A_B=", "api ")


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    root = tmp_path_factory.mktemp("acme")
    return build_checkout(
        make_checkout(
            root,
            {
                "src/acme/x.py": "",
                "Makefile": "test:\n\tpytest\n",
                "justfile": "build:\n  cargo build\n",
                "package.json": '{"scripts": {"lint": "eslint ."}}',
                "pyproject.toml": "[project]\nname = 'acme'\n",
            },
        )
    )


def _check_text(checkout, text: str) -> None:  # type: ignore[no-untyped-def]
    """Every rule of a check that reads a file's text, as the engine runs them."""
    scanned = scan_markdown(text)
    for line in scanned.lines:
        _ = line.words
    list(named_paths(scanned, checkout))
    list(run_problems(scanned, checkout, find_program=lambda _name: None))
    facts_of(scanned)
    aliases_in(scanned)


@pytest.mark.slow
@pytest.mark.timeout(120)
@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    lead=st.sampled_from(_LEADS),
    run=st.lists(st.sampled_from(_PIECES), min_size=1, max_size=3).map("".join),
    tail=st.sampled_from(("", "c", "`", "=", ")")),
)
def test_a_long_adversarial_line_is_checked_in_linear_time(
    checkout,  # type: ignore[no-untyped-def]
    lead: str,
    run: str,
    tail: str,
) -> None:
    line = lead + run * (20_000 // len(run)) + tail
    _check_text(checkout, line + "\n")
    _check_text(checkout, "```sh\n" + line + "\n```\n")


@pytest.mark.timeout(60)
def test_a_path_followed_by_many_dots_is_checked_at_once(tmp_path: Path) -> None:
    # `src/a` and 28 dots took 18 s, four times longer per two more dots.
    repo = make_checkout(tmp_path / "acme", {"src/acme/x.py": ""})
    home, workspace = home_with_project(
        tmp_path, repo, {"notes.md": "- See `src/a" + "." * 60 + "c` and `src/acme/gone.py`.\n"}
    )
    report = check(home, tmp_path, workspace)
    assert "src/acme/gone.py" in [f.subject for f in of_kind(report, "missing-path")]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("run", [" ", "a ", "a", ":a", "x "])
def test_a_long_line_in_a_makefile_or_justfile_is_read_at_once(tmp_path: Path, run: str) -> None:
    long_line = "all" + run * 30_000 + "\n"
    makefile = tmp_path / "Makefile"
    makefile.write_text("build:\n\tcc\n" + long_line, encoding="utf-8")
    assert "build" in make_targets(makefile).names
    justfile = tmp_path / "justfile"
    justfile.write_text("build:\n  cc\n" + long_line, encoding="utf-8")
    assert "build" in just_recipes(justfile).names


@pytest.mark.timeout(60)
def test_a_definition_file_that_is_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    for name in ("pyproject.toml", "Makefile", "justfile"):
        os.mkfifo(tmp_path / name)  # nothing ever writes to it: reading it would wait forever
    assert "FIFO" in (python_project(tmp_path / "pyproject.toml").problem or "")
    assert make_targets(tmp_path / "Makefile").open
    assert just_recipes(tmp_path / "justfile").open


@pytest.mark.timeout(60)
def test_a_check_of_a_checkout_whose_pyproject_is_a_fifo_finishes(tmp_path: Path) -> None:
    repo = make_checkout(tmp_path / "acme", {"src/acme/x.py": ""}, git=False)
    os.mkfifo(repo / "pyproject.toml")
    home, workspace = home_with_project(tmp_path, repo, {"notes.md": "Run `uv run acme`.\n"})
    report = check(home, tmp_path, workspace)
    assert report.files_checked == 1


def _check_cost(tmp_path: Path, name: str, text: str, capsys: pytest.CaptureFixture[str]) -> float:
    """The CPU time `memtab check --json` takes over a workspace whose one memory is `text`."""
    repo = make_checkout(tmp_path / name / "acme", {"src/acme/x.py": ""}, git=False)
    home, workspace = home_with_project(tmp_path / name, repo, {"notes.md": text})
    started = time.process_time()
    main(["check", "--home", str(home.root), "--workspace", workspace, "--json"])
    cost = time.process_time() - started
    assert json.loads(capsys.readouterr().out)["filesChecked"] == 1
    return cost


@pytest.mark.timeout(120)
@pytest.mark.parametrize("lead", ["# x", "## Notes"])
def test_memtab_check_reads_a_heading_of_blanks_ending_in_a_hash_in_linear_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lead: str
) -> None:
    # A heading, 100 KB of spaces and tabs, `#`: 16 s, each end of the run tried as the
    # heading's end. Now about what 100 KB of words costs.
    heading = _check_cost(tmp_path, "heading", lead + " \t" * 50_000 + "#\n", capsys)
    words = _check_cost(tmp_path, "words", "words " * 16_667 + "\n", capsys)
    assert heading < 5 * words + 0.5
