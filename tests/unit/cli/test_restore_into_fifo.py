"""`restore --to` a path where a FIFO sits in the scope is refused at once and the FIFO
stays: the store opens what it reads without blocking (it waited for a writer for ever)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from memtab.cli.main import main


@pytest.mark.timeout(60)
def test_restore_to_a_fifo_is_refused_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    scope = home / "memory" / "global"
    scope.mkdir(parents=True)
    (scope / "a.md").write_text("# one\n")
    assert main(["--home", str(home), "list"]) == 0
    (scope / "a.md").write_text("# two\n")
    assert main(["--home", str(home), "list"]) == 0
    capsys.readouterr()
    assert main(["--home", str(home), "history", "/memories/global/a.md", "--json"]) == 0
    oldest = json.loads(capsys.readouterr().out)["versions"][-1]["id"]
    fifo = scope / "f.md"
    os.mkfifo(fifo)
    for force in ([], ["--force"]):
        argv = ["restore", "/memories/global/a.md", "--version", oldest]
        assert main(["--home", str(home), *argv, "--to", "/memories/global/f.md", *force]) == 1
        assert "it is a FIFO (named pipe), not a regular file" in capsys.readouterr().err
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
