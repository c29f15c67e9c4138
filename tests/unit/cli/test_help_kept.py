"""Every command's `--help`, and what each of its arguments takes, as main had them before the
parsers were made from the handlers' signatures (issue 98): recorded once in
tests/fixtures/cli/help.txt (`described()` run over main's app/ at 972cfdcd, with r7-window's
`write --dump` help, issue 94's `duplicates` description, where rewordings are candidates, and
`mcp install`'s --answer-budget kept when given before `install`, as --workspace is), so a
change to a flag, metavar, default, choice, group or help text shows here as a diff."""

from __future__ import annotations

import argparse
import difflib
from collections.abc import Iterator
from pathlib import Path

import pytest

from memtab.cli.main import build_parser

RECORDED = Path(__file__).parents[2] / "fixtures" / "cli" / "help.txt"


def parsers(
    parser: argparse.ArgumentParser, name: str = "memtab"
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """`parser` and every sub-command's, by the words naming it (an alias once, by its name)."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            seen: set[int] = set()
            for word, sub in action.choices.items():
                if id(sub) not in seen:
                    seen.add(id(sub))
                    yield from parsers(sub, f"{name} {word}")


def _taken(action: argparse.Action) -> str:
    """What an argument takes beyond its help: its default, count, choices, whether required
    (a repeated option's default of nothing, `[]` or None, as None)."""
    kind = action.type if action.type in (None, int, float) else "custom"
    words = action.option_strings or [str(action.metavar or action.dest)]
    default = None if action.default == [] else action.default
    return (
        f"  {' '.join(words)}: default={default!r} nargs={action.nargs!r} "
        f"const={action.const!r} choices={action.choices!r} required={action.required} "
        f"type={getattr(kind, '__name__', kind)}"
    )


def described() -> str:
    """Every parser's help, then its arguments (`_taken`; its options, then its positionals, as
    its help lists them), at 100 columns."""
    said = []
    for name, parser in parsers(build_parser()):
        actions = [
            action
            for action in parser._actions
            if not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction))
        ]
        arguments = [_taken(a) for a in sorted(actions, key=lambda a: not a.option_strings)]
        said += [f"=== {name}", parser.format_help(), *arguments, ""]
    return "\n".join(said)


def test_every_commands_help_and_arguments_are_as_main_had_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    recorded, now = RECORDED.read_text(encoding="utf-8"), described()
    changed = difflib.unified_diff(recorded.splitlines(), now.splitlines(), "main", "now", n=1)
    assert now == recorded, "\n".join(changed)
