"""`memtab` loads only what the invocation needs: the window never waits for the engines."""

from __future__ import annotations

import subprocess
import sys

import pytest

from memtab.cli.main import COMMAND_MODULES, modules_for, requested_command


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        ([], None),
        (["--home", "list", "--demo"], None),  # "list" is the value of --home here
        (["--home=x", "list"], "list"),
        (["--workspace", "abc", "--screenshot", "a.png"], None),
        (["-v", "consolidate", "--workspace", "x"], "consolidate"),
    ],
)
def test_requested_command(argv: list[str], command: str | None) -> None:
    assert requested_command(argv) == command


def test_modules_for_each_kind_of_invocation() -> None:
    assert modules_for([]) == []
    assert modules_for(["traces"]) == ["memtab.cli.traces_commands"]
    assert modules_for(["suggestions"]) == ["memtab.cli.suggestion_commands"]
    assert modules_for(["show", "claude-code:user:CLAUDE.md"]) == ["memtab.cli.source_commands"]
    assert modules_for(["--help"]) == list(COMMAND_MODULES)
    assert modules_for(["no-such-command"]) == list(COMMAND_MODULES)


def test_the_window_path_does_not_import_the_engines() -> None:
    code = (
        "import sys; from memtab.cli.main import build_parser; "
        "build_parser(['--demo']).parse_args(['--demo']); "
        "heavy = [m for m in ('httpx', 'memtab.consolidation', 'memtab.writer') "
        "if m in sys.modules]; assert not heavy, heavy"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
