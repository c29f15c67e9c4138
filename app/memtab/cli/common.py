"""What every `memtab` command shares: its declaration (`@command`: arguments make the parser, the
returned record is what `--json` prints), the home, errors, JSON and tables."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeAlias, TypeVar

from memtab.cli.options import HOME_HELP, CliError, home_location
from memtab.fs.atomic import encode_utf8
from memtab.fs.records import Record
from memtab.store.errors import ScopeUnavailableError
from memtab.store.home import Home
from memtab.store.paths import SCOPE_ORDER, PathError, Scope, parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.scope_view import ScopeView
from memtab.store.sidecars.registry import Registry, load_registry

_SUGGESTED_AT_MOST = 5

R = TypeVar("R", bound=Record)
Commands: TypeAlias = "argparse._SubParsersAction[Any]"
Run = Callable[[argparse.Namespace], "R | int"]
Words = Callable[[R, argparse.Namespace], "int | None"]


@contextlib.contextmanager
def as_cli_error(*kinds: type[Exception]) -> Iterator[None]:
    """Errors of `kinds` raised inside as the CLI's one-line error, in their own words."""
    try:
        yield
    except kinds as error:
        raise CliError(str(error)) from None


class Argument:
    """One of a command's options or positionals: the words `add_argument` takes. Those
    commands share are named here: `Argument.HOME`, `Argument.JSON`, `Argument.workspace(…)`,
    `Argument.json(…)`."""

    HOME: ClassVar[Argument]
    """`--home DIR` given after the sub-command (before it, the top-level parser's)."""
    JSON: ClassVar[Argument]
    __slots__ = ("flags", "options")

    def __init__(self, *flags: str, **options: Any) -> None:
        self.flags = flags
        self.options = options

    @classmethod
    def workspace(cls, help: str | None = None, **options: Any) -> Argument:
        """`--workspace ID`, in the command's words."""
        return cls("--workspace", metavar="ID", help=help, **options)

    @classmethod
    def json(cls, help: str | None = None, **options: Any) -> Argument:
        """`--json`: the command's record on stdout (`print_json`) instead of words."""
        return cls("--json", action="store_true", help=help, **options)

    def add_to(self, parser: argparse.ArgumentParser | argparse._ActionsContainer) -> None:
        parser.add_argument(*self.flags, **self.options)


Argument.HOME = Argument("--home", metavar="DIR", default=argparse.SUPPRESS, help=HOME_HELP)
Argument.JSON = Argument.json()


class Exclusive:
    """Options of which a command takes one at most (argparse's mutually exclusive group)."""

    __slots__ = ("arguments", "required")

    def __init__(self, *arguments: Argument, required: bool = False) -> None:
        self.arguments = arguments
        self.required = required

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        group = parser.add_mutually_exclusive_group(required=self.required)
        for argument in self.arguments:
            argument.add_to(group)


class Command(Generic[R]):
    """A `memtab` command (`@command`, `group`): its parser's words and what runs it.

    Its function returns the command's record, which `--json` (or a command without words,
    `@cmd.text`) prints with `print_json`, or, having printed itself, its exit status.
    `status`: the exit status a record means (default 0); words that return one win."""

    def __init__(
        self,
        name: str,
        arguments: Sequence[Argument | Exclusive],
        run: Run[R] | None,
        *,
        under: Command[Any] | None = None,
        home: bool = True,
        status: Callable[[R], int] | None = None,
        actions: str = "action",
        **parser_options: Any,
    ) -> None:
        self.name, self.run, self.under, self.status = name, run, under, status
        self.actions = actions  # the dest of its sub-command's name
        self.arguments = (Argument.HOME, *arguments) if home else tuple(arguments)
        self.parser_options = parser_options  # add_parser's: help, writes_home (CommandParser)…
        self.children: list[Command[Any]] = []
        self.words: Words[R] | None = None
        if under is not None:
            under.children.append(self)

    def text(self, words: Words[R]) -> Words[R]:
        """Declare how the command says its record in words (without: as JSON)."""
        self.words = words
        return words

    def __call__(self, args: argparse.Namespace) -> int:
        assert self.run is not None  # a group's parser requires one of its sub-commands
        result = self.run(args)
        if isinstance(result, int):
            return result
        if self.words is None or getattr(args, "json", False):
            print_json(result.to_json())
        elif (said := self.words(result, args)) is not None:
            return said
        return 0 if self.status is None else self.status(result)

    def add_to(self, commands: Commands) -> None:
        """This command's parser, and its sub-commands', added to `commands`."""
        parser = commands.add_parser(self.name, **self.parser_options)
        for argument in self.arguments:
            argument.add_to(parser)
        if self.run is not None:
            parser.set_defaults(handler=self)
        if self.children:
            actions = parser.add_subparsers(
                dest=self.actions, metavar="ACTION", required=self.run is None
            )
            for child in self.children:
                child.add_to(actions)


def command(
    name: str, *arguments: Argument | Exclusive, **options: Any
) -> Callable[[Run[R]], Command[R]]:
    """Declare the decorated function the command `name`, with its arguments in `--help`'s
    order after `--home` (`home=False`: one that opens no home, or places it itself).
    `options`: `Command`'s (`under`: the group it belongs to, `status`) and `add_parser`'s
    (`help`, `writes_home`: whether it writes the home, which every command says)."""
    return lambda run: Command(name, arguments, run, **options)


def group(name: str, *arguments: Argument | Exclusive, **options: Any) -> Command[Any]:
    """A command that only holds sub-commands (`memtab project add`): one is required."""
    return Command(name, arguments, None, **options)


def add_commands(commands: Commands, module: str) -> None:
    """The commands `module` declares (its top-level `Command`s, in order) added to `commands`."""
    for declared in vars(importlib.import_module(module)).values():
        if isinstance(declared, Command) and declared.under is None:
            declared.add_to(commands)


def open_home(args: argparse.Namespace) -> Home:
    return Home(home_location(args).path)


def open_store(
    home: Home, workspace_id: str | None, *, actor: str = "user"
) -> tuple[MemoryStore, Registry]:
    """The store for `--workspace` (global scope only without one); its changes are
    recorded in history as `actor`'s."""
    registry = load_registry(home)
    return MemoryStore.open(home, workspace_id, registry, actor=actor), registry


def print_json(value: Any) -> None:
    """`value` as UTF-8 JSON on stdout, whatever the locale: text that cannot be encoded
    (a lone surrogate from a model or a file name) is written as U+FFFD."""
    data = encode_utf8(json.dumps(value, indent=2, ensure_ascii=False) + "\n")
    binary = getattr(sys.stdout, "buffer", None)
    if binary is None:  # stdout replaced by a text-only stream (tests, embedding)
        sys.stdout.write(data.decode("utf-8"))
        return
    sys.stdout.flush()
    binary.write(data)
    binary.flush()


def format_table(rows: Sequence[Sequence[str]], *, right_aligned: Sequence[int] = ()) -> str:
    """Rows as aligned columns (the last column is never padded)."""
    if not rows:
        return ""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    pads = [str.rjust if i in right_aligned else str.ljust for i in range(len(widths))]
    return "\n".join(
        "  ".join(
            [*(pads[i](cell, widths[i]) for i, cell in enumerate(row[:-1])), *row[-1:]]
        ).rstrip()
        for row in rows
    )


def elide(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def require_memory_path(home: Home, raw: str, workspace_id: str | None, command: str) -> None:
    """CliError saying what to type when `raw` cannot name a memory file here: a bare name
    (`notes.md`) is given as the virtual paths it could mean, and a project or workspace
    path without `--workspace` (`workspace_id`: it, or an orphan dir, or None) with the
    workspaces that hold it."""
    text = raw.strip()
    if text.startswith("/memories/"):
        try:
            scope = parse_file_path(text).scope
        except PathError:
            return  # the command's own message says what is wrong with it
        if scope is None or scope is Scope.GLOBAL or workspace_id is not None:
            return
        relative = text.removeprefix(f"/memories/{scope.value}/")
        found = [f"{path} --workspace {ws}" for path, ws in _files_named(home, relative)]
        where = [line for line in found if line.startswith(text + " ")]
        raise CliError(
            f"{text} is {scope.value} memory, which needs a workspace: add --workspace ID "
            + (f"— {_suggest(command, where)}" if where else "(memtab workspaces lists them)")
        )
    if ":" in text:
        return  # another agent's file id: the command reads it
    found = [
        path if ws is None else f"{path} --workspace {ws}" for path, ws in _files_named(home, text)
    ]
    raise CliError(
        f"{text!r} is not a memory file's path: name it by its virtual path"
        + (f" — {_suggest(command, found)}" if found else ", e.g. /memories/global/notes.md")
    )


def _suggest(command: str, choices: list[str]) -> str:
    shown = [f"memtab {command} {choice}" for choice in choices[:_SUGGESTED_AT_MOST]]
    more = len(choices) - len(shown)
    return "; ".join(shown) + (f" (and {more} more)" if more > 0 else "")


def _files_named(home: Home, relative: str) -> list[tuple[str, str | None]]:
    """The virtual paths, and the workspace each needs (None: global), of the files at
    `relative` in a scope — or, for a bare name, anywhere in one."""
    if not relative or relative.startswith("/") or ".." in relative.split("/"):
        return []
    try:
        registry = load_registry(home)
    except (OSError, ValueError):
        return []
    found: list[tuple[str, str | None]] = []
    seen: set[tuple[str, str]] = set()
    views = [(ScopeView(home), None), *((ScopeView(home, w), w.id) for w in registry.workspaces)]
    for view, workspace_id in views:
        scopes = (Scope.GLOBAL,) if workspace_id is None else SCOPE_ORDER[1:]
        for scope in scopes:
            try:
                root = view.root(scope)
            except ScopeUnavailableError:
                continue
            for path in _matching(root, relative):
                virtual = f"/memories/{scope.value}/{path}"
                if (virtual, str(root)) not in seen:  # a project's memory: once
                    seen.add((virtual, str(root)))
                    found.append((virtual, workspace_id))
    return found


def _matching(root: Path, relative: str) -> list[str]:
    if (root / relative).is_file():
        return [relative]
    if "/" in relative:
        return []
    try:
        return sorted(
            str(path.relative_to(root)) for path in root.rglob(relative) if path.is_file()
        )[:_SUGGESTED_AT_MOST]
    except OSError:
        return []
