"""One name no virtual path can address never blacks out a listing: `memtab list` (text
and `--json`) lists the rest and names it apart with a warning, as the window does
(`bad~name.md` made it exit 1 with no output)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.cli.main import main


@pytest.fixture
def home(tmp_path: Path) -> Path:
    root = tmp_path / "home"
    scope = root / "memory" / "global"
    (scope / "odd~dir").mkdir(parents=True)
    (scope / "a.md").write_text("# A\n")
    (scope / "bad~name.md").write_text("# B\n")
    (scope / "odd~dir" / "in.md").write_text("# C\n")
    return root


def test_list_lists_the_rest_and_warns_of_the_odd_name(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--home", str(home), "list"]) == 0
    out, err = capsys.readouterr()
    assert "/memories/global/a.md" in out
    assert "warning: /memories/global/bad~name.md is not listed" in err


def test_list_json_names_the_odd_names_apart(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--home", str(home), "list", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [row["path"] for row in document["files"]] == ["/memories/global/a.md"]
    assert {row["path"] for row in document["unaddressable"]} == {
        "/memories/global/bad~name.md",
        "/memories/global/odd~dir",
    }


def test_a_check_and_the_history_of_a_scope_with_an_odd_name_work(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--home", str(home), "check"]) == 0
    assert main(["--home", str(home), "history", "/memories/global/a.md"]) == 0
    assert " seen " in capsys.readouterr().out
