"""An option a command group takes, given before its sub-command's name, is what the sub-command
runs with (`memtab sync --json status`): argparse's sub-parser defaults used to overwrite it, so
the words came out where JSON was asked for (issue 98)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.cli.main import main


def test_json_given_before_the_sub_command_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    assert main(["--home", str(home), "sync", "--json", "status"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said["targets"] == []


def test_an_answer_budget_given_before_install_is_the_one_installed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # `memtab mcp --answer-budget N install` dropped N while it kept --workspace and --writes.
    monkeypatch.setenv("HOME", str(tmp_path))
    home = tmp_path / "home"
    words = ["mcp", "--answer-budget", "20000", "install", "--claude", "--print"]
    assert main(["--home", str(home), *words]) == 0
    printed = capsys.readouterr().out
    served = json.loads(printed[printed.index("{") : printed.index("\n}\n") + 2])
    assert served["mcpServers"]["memtab"]["args"][-2:] == ["--answer-budget", "20000"]
