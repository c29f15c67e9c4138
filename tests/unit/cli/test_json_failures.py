"""Whatever fails under `--json`, stdout holds one JSON object that says what (the record
`CommandFailure`, docs/formats.md's conventions) and the exit status is not 0; the words go
to stderr, as without `--json`. On a full disk `--json` printed "No space left on device"
and no JSON (issue 49)."""

from __future__ import annotations

import argparse
import errno
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memtab.cli.main import build_parser, main
from memtab.fs.atomic import Directory
from support.demo_homes import copied_demo_home

WORKSPACE = "a1b2c3d4e5"  # the demo's first workspace


@pytest.fixture
def demo(tmp_path: Path) -> str:
    return str(copied_demo_home(tmp_path / "demo").root)


@pytest.fixture(scope="module")
def demo_for_faults(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One demo home for every command's fault: each handler raises before it reads or
    writes a home, so no test sees what another did (a demo home costs ~14 ms of CPU, and
    the commands are ~40)."""
    return str(copied_demo_home(tmp_path_factory.mktemp("faults") / "demo").root)


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file Memtab writes (all through `Directory.write_temp`) finds the disk full."""

    def write_temp(self: Directory, name: str, data: bytes, **_: Any) -> str:
        raise OSError(errno.ENOSPC, "No space left on device", self.display(name))

    monkeypatch.setattr(Directory, "write_temp", write_temp)


def ran(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    """The exit status, stdout as JSON (one document, else the test fails), stderr."""
    capsys.readouterr()
    try:
        status = main(list(argv))
    except SystemExit as stop:  # words argparse cannot read
        status = stop.code if isinstance(stop.code, int) else 1
    out, err = capsys.readouterr()
    return status, json.loads(out), err


def an_inbox_item(demo: str, capsys: pytest.CaptureFixture[str]) -> str:
    status, listed, _ = ran(capsys, "--home", demo, "inbox", "--json")
    assert status == 0
    return str(listed["items"][0]["id"])


def test_a_full_disk_is_said_in_json_by_every_command_that_writes(
    demo: str, tmp_path: Path, full_disk: None, capsys: pytest.CaptureFixture[str]
) -> None:
    item = an_inbox_item(demo, capsys)
    plan = tmp_path / "plan.json"
    settings = Path(demo) / "config" / "settings.json"
    for argv, path in (
        (["settings", "use-offline", "--json"], None),
        (["inbox", "accept", item, "--workspace", WORKSPACE, "--json"], Path(demo) / "memory"),
        (["check", "--workspace", WORKSPACE, "--plan-out", str(plan), "--json"], plan),
    ):
        status, said, err = ran(capsys, "--home", demo, *argv)
        assert status == 1, argv
        assert "No space left on device" in said["error"], argv
        assert said["errno"] == "ENOSPC" and said["command"] == argv[0], argv
        assert path is None or said["path"].startswith(str(path)), argv
        assert err == f"memtab: {said['error']}\n", argv
    assert not settings.exists()


@pytest.mark.expect_log(
    "memtab.fs.locking.locks", "WARNING", r"^Cannot record the holder of .*No space"
)
@pytest.mark.expect_log("memtab.store.history.recorder", "WARNING", r"without a copy in history")
@pytest.mark.expect_log("memtab.consolidation.running", "WARNING", r"trace of .*No space left")
def test_a_run_that_changed_something_before_the_disk_filled_is_one_object(
    demo: str, full_disk: None, capsys: pytest.CaptureFixture[str]
) -> None:
    status, said, _ = ran(capsys, "--home", demo, "consolidate", "--workspace", WORKSPACE, "--json")
    assert status == 1
    assert "No space left on device" in said["error"] and said["kind"] == "refused"
    assert said["output"]["summary"] and said["output"]["ops"]  # the run's journal record


def test_without_json_a_full_disk_is_words_on_stderr_only(
    demo: str, full_disk: None, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["--home", demo, "settings", "use-offline"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("memtab: No space left on device (") and "settings.json" in err


@pytest.mark.expect_log("memtab.cli.main", "ERROR", r"^memtab list failed")
def test_a_fault_of_memtabs_is_json_with_its_traceback_in_the_log(
    demo: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def boom(*_: Any, **__: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("memtab.cli.memory.store_commands.open_store", boom)
    status, said, err = ran(capsys, "--home", demo, "list", "--json")
    assert status == 1
    assert said["kind"] == "internal" and said["command"] == "list"
    assert said["error"].startswith("an unexpected error: RuntimeError: boom")
    assert "Traceback" not in err
    with pytest.raises(RuntimeError, match="boom"):  # without --json, Python's traceback
        main(["--home", demo, "list"])


def test_words_a_command_does_not_take_are_json_too(capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        main(["list", "--json", "--bogus"])
    out, err = capsys.readouterr()
    assert stop.value.code == 2
    said = json.loads(out)
    assert said == {
        "error": "memtab: error: unrecognized arguments: --bogus",
        "kind": "usage",
        "command": "list",
    }
    assert "usage: memtab" in err and said["error"] in err


# --- every command that takes --json ----------------------------------------------------


def json_commands() -> Iterator[tuple[list[str], argparse.ArgumentParser]]:
    """(the words naming it, its parser) of every command and sub-command taking --json."""
    return json_commands_of(build_parser())


def json_commands_of(
    parser: argparse.ArgumentParser,
) -> Iterator[tuple[list[str], argparse.ArgumentParser]]:

    def walk(parser: argparse.ArgumentParser, path: list[str]) -> Iterator[Any]:
        if path and "--json" in parser._option_string_actions:
            yield path, parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield from walk(sub, [*path, name])

    yield from walk(parser, [])


def what_it_needs(parser: argparse.ArgumentParser) -> list[str]:
    """Words for each argument a parser requires: its first choice, else `x`."""
    words: list[str] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            continue
        if action.option_strings and not action.required:
            continue
        if not action.option_strings and action.nargs in ("?", "*"):
            continue
        words += [*action.option_strings[:1], _a_value(action)]
    for group in parser._mutually_exclusive_groups:
        if group.required:
            first = group._group_actions[0]
            words += [first.option_strings[0], _a_value(first)]
    return words


def _a_value(action: argparse.Action) -> str:
    return str(next(iter(action.choices))) if action.choices else "x"


JSON_COMMANDS = sorted((" ".join(path), what_it_needs(parser)) for path, parser in json_commands())


def test_the_commands_taking_json_are_found() -> None:
    names = {name for name, _ in JSON_COMMANDS}
    assert {"list", "check", "doctor", "sync", "sync status", "inbox accept", "restore"} <= names
    assert len(names) > 30


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("command", "needs"), JSON_COMMANDS, ids=[c for c, _ in JSON_COMMANDS])
def test_every_command_taking_json_prints_one_json_object_on_a_home_it_cannot_use(
    command: str, needs: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    not_a_home = tmp_path / "home"
    not_a_home.write_text("a file, not a directory\n", encoding="utf-8")
    status, said, _ = ran(capsys, "--home", str(not_a_home), *command.split(), *needs, "--json")
    assert isinstance(said, dict)
    if "error" in said:
        assert status != 0 and said["kind"] in ("refused", "system", "usage")


@pytest.mark.timeout(60)
@pytest.mark.expect_log("memtab.cli.main", "ERROR", r"^memtab \S+ failed$")
@pytest.mark.parametrize(("command", "needs"), JSON_COMMANDS, ids=[c for c, _ in JSON_COMMANDS])
def test_every_command_taking_json_says_a_fault_of_memtabs_in_json(
    command: str,
    needs: list[str],
    demo_for_faults: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def faulty(_args: argparse.Namespace) -> int:
        raise KeyError("a fault")

    def parser_with_faults(argv: list[str]) -> argparse.ArgumentParser:
        parser = build_parser(argv)
        for _path, sub in json_commands_of(parser):
            sub.set_defaults(handler=faulty)
        return parser

    monkeypatch.setattr(sys.modules["memtab.cli.main"], "build_parser", parser_with_faults)
    status, said, _ = ran(capsys, "--home", demo_for_faults, *command.split(), *needs, "--json")
    assert status == 1
    assert said["kind"] == "internal" and said["command"] == command.split(maxsplit=1)[0]
    assert said["error"].startswith("an unexpected error: KeyError: 'a fault'")
