"""`memtab` loads only what the invocation needs: the window never waits for the engines."""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from memtab.cli.common import add_commands
from memtab.cli.main import COMMAND_MODULES, build_parser, main, modules_for
from memtab.cli.options import CommandParser, verbosity
from memtab.demo import MAIN_ID
from memtab.invocation import requested_command
from support.demo_homes import copied_demo_home


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


# What `memtab.launch.main(argv)` left of OpenSSL's hashing in its process.
HASHES_OF = (
    "import sys\n"
    "from memtab.launch import main\n"
    "try:\n"
    "    main(sys.argv[1:])\n"
    "except SystemExit:\n"
    "    pass\n"
    "import hashlib\n"
    "print(sys.modules.get('_hashlib') is not None, hashlib.sha256(b'x').hexdigest()[:8])\n"
)


@pytest.mark.slow
def test_the_windows_process_hashes_without_openssl_and_a_commands_with_it(
    tmp_path: Path,
) -> None:
    def openssl_used(*argv: str) -> str:
        result = subprocess.run(
            [sys.executable, "-c", HASHES_OF, *argv], capture_output=True, text=True, check=True
        )
        return result.stdout.split()[-2] + " " + result.stdout.split()[-1]

    assert openssl_used("--version") == "False 2d711642"  # no command: the window's path
    assert openssl_used("--home", str(tmp_path), "workspaces") == "True 2d711642"


# Whether Python's cycle collector could run as `memtab.launch.main(argv)` imported the CLI,
# and after it returned.
COLLECTOR_OF = (
    "import gc, sys\n"
    "class Watch:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name == 'memtab.cli.main':\n"
    "            print('importing:', 'collecting' if gc.isenabled() else 'held-off')\n"
    "sys.meta_path.insert(0, Watch())\n"
    "from memtab.launch import main\n"
    "try:\n"
    "    main(sys.argv[1:])\n"
    "except SystemExit:\n"
    "    pass\n"
    "print('after:', 'collecting' if gc.isenabled() else 'held-off')\n"
)


@pytest.mark.slow  # slow: two processes importing the CLI, ~0.3 s of CPU each
def test_the_windows_process_holds_the_cycle_collector_off_from_its_first_import(
    tmp_path: Path,
) -> None:
    def collector(*argv: str) -> list[str]:
        result = subprocess.run(
            [sys.executable, "-c", COLLECTOR_OF, *argv], capture_output=True, text=True, check=True
        )
        said = [line.split() for line in result.stdout.splitlines()]
        return [words[1] for words in said if words[0] in ("importing:", "after:")]

    assert collector("--version") == ["held-off", "held-off"]  # no command: the window's path
    assert collector("--home", str(tmp_path), "workspaces") == ["collecting", "collecting"]


def test_a_start_without_a_window_collects_cycles_again(monkeypatch: pytest.MonkeyPatch) -> None:
    headless = importlib.import_module("memtab.cli.headless")
    monkeypatch.setattr(headless, "install_desktop", lambda: 0)
    gc.disable()  # as `memtab.launch` leaves it for an invocation without a command
    try:
        assert main(["--install-desktop"]) == 0
        assert gc.isenabled()
    finally:
        gc.enable()


def test_modules_for_each_kind_of_invocation() -> None:
    assert modules_for([]) == []
    assert modules_for(["traces"]) == ["memtab.cli.background.traces_commands"]
    assert modules_for(["suggestions"]) == ["memtab.cli.memory.inbox_commands"]
    assert modules_for(["show", "claude-code:user:CLAUDE.md"]) == [
        "memtab.cli.memory.source_commands"
    ]
    assert modules_for(["declined"]) == ["memtab.cli.background.consolidation_commands"]
    assert modules_for(["--help"]) == list(COMMAND_MODULES)
    assert modules_for(["no-such-command"]) == list(COMMAND_MODULES)


TRUST_ENGINES = {
    "duplicates": "memtab.trust.duplicates.engine",
    "contradictions": "memtab.trust.contradictions.engine",
    "leaks": "memtab.trust.leaks.engine",
}
IMPORTED_BY = (
    "import sys\n"
    "from memtab.cli.main import main\n"
    "main(sys.argv[2:])\n"
    "open(sys.argv[1], 'w').write('\\n'.join(sys.modules))\n"
)


@pytest.mark.slow  # slow: a process running the command, ~0.6 s of CPU each
@pytest.mark.parametrize("name", list(TRUST_ENGINES))
def test_running_one_trust_command_imports_no_other_commands_module_nor_engine(
    tmp_path: Path, name: str
) -> None:
    home = tmp_path / "home"
    (home / "memory").mkdir(parents=True)
    imported = tmp_path / "modules.txt"
    subprocess.run(
        [sys.executable, "-c", IMPORTED_BY, str(imported), "--home", str(home), name, "--json"],
        env={**os.environ, "MEMTAB_CONFIG_DIR": str(tmp_path / "config")},
        capture_output=True,
        timeout=120,
        check=False,
    )
    modules = set(imported.read_text(encoding="utf-8").split())
    own = modules_for([name])
    others = {*COMMAND_MODULES, *TRUST_ENGINES.values()} - {*own, TRUST_ENGINES[name]}
    assert sorted(modules & others) == []
    assert {*own, TRUST_ENGINES[name]} <= modules  # it did run


def test_each_module_adds_the_commands_routed_to_it_and_each_says_if_it_writes_the_home() -> None:
    for module, routed in COMMAND_MODULES.items():
        parser = argparse.ArgumentParser()
        commands = parser.add_subparsers(dest="command", parser_class=CommandParser)
        add_commands(commands, module)
        assert set(commands.choices) == set(routed), module
        undeclared = [
            name
            for name, command in commands.choices.items()
            if not isinstance(command.get_default("writes_home"), bool)
        ]
        assert undeclared == [], module


def test_a_command_that_writes_the_home_clears_a_killed_memtabs_leftovers_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cleared: list[str] = []
    monkeypatch.setattr(
        importlib.import_module("memtab.cli.headless"),
        "_remove_leftovers",
        lambda args: cleared.append(args.command),
    )
    copied_demo_home(tmp_path / "home")
    home = ["--home", str(tmp_path / "home")]
    assert main([*home, "status", "--workspace", MAIN_ID]) == 0
    assert main([*home, "trash", "--workspace", MAIN_ID]) == 0
    assert cleared == ["trash"]


def test_the_window_path_does_not_import_the_engines() -> None:
    """Nor the demo (only `--demo` writes one) nor the model settings."""
    code = (
        "import sys; from memtab.cli.main import build_parser; "
        "build_parser(['--demo']).parse_args(['--demo']); "
        "heavy = [m for m in ('httpx2', 'memtab.consolidation', 'memtab.writer', "
        "'memtab.demo', 'memtab.llm.settings') "
        "if m in sys.modules]; assert not heavy, heavy"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["list"], 0),
        (["-v", "list"], 1),
        (["list", "-v"], 1),
        (["list", "--verbose"], 1),
        (["list", "-vv"], 2),
        (["-v", "list", "-v"], 2),
        (["project", "add", "-v", "/src/x"], 1),
        (["-v"], 1),
    ],
)
def test_verbose_counts_before_and_after_the_command(argv: list[str], expected: int) -> None:
    assert verbosity(build_parser(argv).parse_args(argv)) == expected


def all_sub_parsers(
    parser: argparse.ArgumentParser,
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub_parser in action.choices.items():
                yield name, sub_parser
                yield from all_sub_parsers(sub_parser)


def test_every_command_takes_verbose_after_its_name() -> None:
    commands = dict(all_sub_parsers(build_parser()))
    assert {"list", "consolidate", "doctor", "add", "accept"} <= set(commands)
    refusing = [
        name for name, parser in commands.items() if "-v" not in parser._option_string_actions
    ]
    assert not refusing


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return copied_demo_home(tmp_path / "demo").root


@pytest.mark.parametrize("argv", [["-v", "consolidate"], ["consolidate", "-v"]])
def test_verbose_logs_memtab_to_stderr_without_the_lock_trace(
    demo: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--home", str(demo), *argv, "--workspace", MAIN_ID]) == 0
    err = capsys.readouterr().err
    assert "INFO memtab.consolidation.engine.runner: consolidating workspace" in err
    assert "lock_trace" not in err


def test_twice_verbose_adds_the_lock_trace(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--home", str(demo), "consolidate", "-vv", "--workspace", MAIN_ID]) == 0
    err = capsys.readouterr().err
    assert "DEBUG memtab.lock_trace: acquired " in err
    assert "DEBUG memtab.lock_trace: released " in err


def test_a_command_given_demo_is_refused_and_the_real_home_is_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # --demo promises never the real home; a command does not open the demo, so it would
    # have deleted this file from the home MEMTAB_HOME names.
    home = copied_demo_home(tmp_path / "home")
    monkeypatch.setenv("MEMTAB_HOME", str(home.root))
    note = home.global_root / "tools" / "git.md"
    before = note.read_bytes()
    delete = '{"command": "delete", "path": "/memories/global/tools/git.md"}'
    assert main(["--demo", "tool", delete]) != 0
    assert "--demo opens the window on a demo home" in capsys.readouterr().err
    assert note.read_bytes() == before
    assert main(["--demo", "list", "--json"]) != 0
    assert '"--demo opens the window' in capsys.readouterr().out
