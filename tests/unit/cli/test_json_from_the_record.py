"""A command that says its record in words takes `--json` without its handler declaring it
(`cli.common.Command`, issue 98): the record's JSON then, its words without."""

from __future__ import annotations

import json

import pytest

from memtab.cli.common import command
from memtab.cli.options import CommandParser, UsageParser
from memtab.fs.records import Record


class Greeting(Record, write_only=True):
    name: str


@command("greet", writes_home=False)
def run_greet(name: str, *, loud: bool = False) -> Greeting:
    """greet someone

    Args:
        name: whom
        json: the greeting as JSON
    """
    return Greeting(name=name.upper() if loud else name)


@run_greet.text
def _say(greeting: Greeting) -> None:
    print(f"Hello, {greeting.name}")


def _run(words: list[str]) -> int:
    parser = UsageParser(prog="memtab")
    run_greet.add_to(parser.add_subparsers(dest="command", parser_class=CommandParser))
    args = parser.parse_args(words)
    status: int = args.handler(args)
    return status


def test_json_prints_the_record(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["greet", "ada", "--loud", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"name": "ADA"}


def test_without_json_the_words_say_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["greet", "ada"]) == 0
    assert capsys.readouterr().out == "Hello, ada\n"


def test_json_comes_last_in_help_with_the_docstrings_words() -> None:
    parser = UsageParser(prog="memtab")
    run_greet.add_to(parser.add_subparsers(dest="command", parser_class=CommandParser))
    (greet,) = (a for a in parser._actions if a.dest == "command")
    options = [a for a in greet.choices["greet"]._actions if a.option_strings]  # type: ignore[attr-defined]
    assert [a.dest for a in options][-2:] == ["loud", "json"]
    assert options[-1].help == "the greeting as JSON"
