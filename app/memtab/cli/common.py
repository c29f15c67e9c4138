"""What every `memtab` command shares: its declaration (`@command`: the handler's signature makes
its parser, the record it returns is what `--json` prints), the home, errors, JSON and tables."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import inspect
import json
import re
import sys
import textwrap
from collections.abc import Callable, Iterator, Sequence
from functools import cached_property
from pathlib import Path
from types import UnionType
from typing import (
    Annotated,
    Any,
    Generic,
    Literal,
    TypeAlias,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from memtab.cli.options import HOME_HELP, CliError, home_location
from memtab.fs.atomic import compact_json, encode_utf8
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
Run = Callable[..., "R | int"]
Words = Callable[..., "int | None"]

_JSON = inspect.Parameter("json", inspect.Parameter.KEYWORD_ONLY, default=False)
_ENTRY = re.compile(r"(\w+)(?: \(([^)]+)\))?:(.*)")  # `name (METAVAR): help` in `Args:`


@contextlib.contextmanager
def as_cli_error(*kinds: type[Exception]) -> Iterator[None]:
    """Errors of `kinds` raised inside as the CLI's one-line error, in their own words."""
    try:
        yield
    except kinds as error:
        raise CliError(str(error)) from None


class Exclusive:
    """Options of which a command takes one at most (`required`: exactly one), named by their
    parameters (argparse's mutually exclusive group)."""

    __slots__ = ("names", "required")

    def __init__(self, *names: str, required: bool = False) -> None:
        self.names = names
        self.required = required


class Command(Generic[R]):
    """A `memtab` command (`@command`, `group`): its parser, made from its handler, and its run.

    The handler's parameters are the command's arguments, in `--help`'s order:
    - `home`: `--home DIR` (given before the command's name too); the handler gets the home
      opened when it is annotated `Home`, else the words given (None: not given);
    - a parameter before `*`: a positional, optional when it has a default, one or more of them
      when it is a `tuple`;
    - one after `*`: an option, `--its-name` (a trailing `_` dropped: `print_` is `--print`),
      required when it has no default; a `bool` is a flag, a `bool | None` a `--name` and
      `--no-name` of which one at most is given; a `tuple` may be given again and again;
    - its type says what it takes: `int`, `float`, the values of a `Literal` (the choices), or
      what `Annotated[X, parse]` returns (argparse's `type`); `Annotated[X, "help"]` gives help
      computed from constants;
    - an option its group (`under`) takes too keeps the value given before the sub-command's name.
    The docstring's first paragraph is the command's help in `memtab --help`, the paragraphs after
    it the description atop its own; its `Args:` lines (`name (METAVAR): help`, continued indented)
    each argument's (METAVAR: the value's name in --help, else the parameter's in capitals).

    The handler returns the command's record, which `--json` (or a command without words,
    `@cmd.text`) prints with `print_json`, or, having printed itself, its exit status. The words
    printer takes the record and, by name, any of the handler's arguments it needs. A command
    with words takes `--json` last unless its handler takes `json` (to print itself).
    `status`: the exit status a record means (default 0); words that return one win."""

    def __init__(
        self,
        name: str,
        run: Run[R] | None,
        exclusive: Sequence[Exclusive] = (),
        *,
        under: Command[Any] | None = None,
        home: bool = True,
        status: Callable[[R], int] | None = None,
        actions: str = "action",
        renamed_from: str | None = None,
        **parser_options: Any,
    ) -> None:
        self.name, self.run, self.under, self.status = name, run, under, status
        self.exclusive, self.renamed_from = exclusive, renamed_from
        self.actions = actions  # the dest of its sub-command's name
        self.group_home = home and run is None  # a group's parser takes --home (a command: `home`)
        self.parser_options = parser_options  # add_parser's: help, writes_home (CommandParser)…
        if renamed_from is not None:
            self.parser_options["aliases"] = [renamed_from]
        self.children: list[Command[Any]] = []
        self.words: Words | None = None
        if under is not None:
            under.children.append(self)

    def text(self, words: Words) -> Words:
        """Declare how the command says its record in words (without: as JSON)."""
        self.words = words
        return words

    @cached_property
    def parameters(self) -> dict[str, tuple[inspect.Parameter, Any]]:
        """The handler's parameters with their types (read once its module is whole)."""
        assert self.run is not None
        hints = get_type_hints(self.run, include_extras=True)
        signature = inspect.signature(self.run).parameters.values()
        return {p.name: (p, hints.get(p.name, str)) for p in signature}

    @cached_property
    def arguments(self) -> dict[str, tuple[inspect.Parameter, Any]]:
        """What the parser takes: the handler's parameters, then `--json` (class doc)."""
        if self.words is None or "json" in self.parameters:
            return self.parameters
        return {**self.parameters, "json": (_JSON, bool)}

    def given(self, args: argparse.Namespace) -> dict[str, Any]:
        """The handler's arguments from what the parser read."""
        values: dict[str, Any] = {}
        for name, (parameter, hint) in self.parameters.items():
            value = getattr(args, name, parameter.default)
            if name == "home" and hint is Home:
                value = Home(home_location(value).path)
            elif value is None and parameter.default is not inspect.Parameter.empty:
                value = parameter.default  # a repeated option not given: ()
            values[name] = tuple(value) if isinstance(value, list) else value
        return values

    def __call__(self, args: argparse.Namespace) -> int:
        assert self.run is not None  # a group's parser requires one of its sub-commands
        top = self
        while top.under is not None:
            top = top.under
        if top.renamed_from is not None and getattr(args, "command", None) == top.renamed_from:
            print(
                f"memtab {top.renamed_from} is now memtab {top.name} (the old name goes in the "
                "next release)",
                file=sys.stderr,
            )
        given = self.given(args)
        result = self.run(**given)
        if isinstance(result, int):
            return result
        if self.words is None or getattr(args, "json", False):
            print_json(result.to_json())
        else:
            wanted = list(inspect.signature(self.words).parameters)[1:]
            if (said := self.words(result, **{name: given[name] for name in wanted})) is not None:
                return said
        return 0 if self.status is None else self.status(result)

    def add_to(self, commands: Commands, given_before: frozenset[str] = frozenset()) -> None:
        """This command's parser, and its sub-commands', added to `commands` (`given_before`:
        the options of the group it is under)."""
        options = dict(self.parser_options)
        if self.run is not None:
            paragraphs, said = _docstring(self.run)
            options.setdefault("help", paragraphs[0] if paragraphs else None)
            if len(paragraphs) > 1:
                options.setdefault("description", "\n\n".join(paragraphs[1:]))
        parser = commands.add_parser(self.name, **options)
        if self.group_home:
            parser.add_argument("--home", metavar="DIR", default=argparse.SUPPRESS, help=HOME_HELP)
        if self.run is not None:
            self._add_arguments(parser, said, given_before)
            parser.set_defaults(handler=self)
        if self.children:
            actions = parser.add_subparsers(
                dest=self.actions, metavar="ACTION", required=self.run is None
            )
            taken = frozenset(self.arguments) if self.run is not None else frozenset()
            for child in self.children:
                child.add_to(actions, taken | {"home"})

    def _add_arguments(
        self,
        parser: argparse.ArgumentParser,
        said: dict[str, tuple[str | None, str]],
        given_before: frozenset[str],
    ) -> None:
        """An argument for each of the handler's parameters (the class doc's rules)."""
        unknown = set(said) - set(self.arguments) - {f"no_{name}" for name in self.parameters}
        if unknown:
            raise TypeError(
                f"{self.name}: its docstring's Args name no parameter: {sorted(unknown)}"
            )
        groups: dict[int, argparse._MutuallyExclusiveGroup] = {}
        for name, (parameter, hint) in self.arguments.items():
            place: argparse._ActionsContainer = parser
            for together in self.exclusive:
                if name in together.names:
                    if id(together) not in groups:
                        groups[id(together)] = parser.add_mutually_exclusive_group(
                            required=together.required
                        )
                    place = groups[id(together)]
            if name == "home":
                place.add_argument(
                    "--home", metavar="DIR", default=argparse.SUPPRESS, help=HOME_HELP
                )
                continue
            arguments = _arguments(parameter, hint, said)
            if len(arguments) > 1:  # `--name` and `--no-name`
                place = parser.add_mutually_exclusive_group()
            for flags, options in arguments:
                if name in given_before:
                    options["default"] = argparse.SUPPRESS
                place.add_argument(*flags, **options)


def _docstring(run: Callable[..., Any]) -> tuple[list[str], dict[str, tuple[str | None, str]]]:
    """A handler's docstring: its paragraphs, and what its `Args:` section says of each
    parameter (the metavar, if it names one, and the help)."""
    text, _, entries = (inspect.getdoc(run) or "").partition("\nArgs:\n")
    paragraphs = [paragraph for paragraph in text.split("\n\n") if paragraph.strip()]
    said: dict[str, tuple[str | None, str]] = {}
    name = ""
    for line in textwrap.dedent(entries).splitlines():
        if line[:1].isspace() and name:  # the entry goes on
            metavar, words = said[name]
            said[name] = (metavar, f"{words} {line.strip()}")
        elif entry := _ENTRY.fullmatch(line):
            name = entry[1]
            said[name] = (entry[2], entry[3].strip())
        elif line.strip():
            raise TypeError(
                f"{run.__name__}: an Args line must read `name (METAVAR): help`: {line!r}"
            )
    return paragraphs, said


def _arguments(
    parameter: inspect.Parameter, hint: Any, said: dict[str, tuple[str | None, str]]
) -> list[tuple[list[str], dict[str, Any]]]:
    """The flags and `add_argument` options a parameter makes (`Command`'s rules)."""
    kind, extras = _unwrapped(hint)
    name, default = parameter.name, parameter.default
    metavar, help_words = said.get(name, (None, ""))
    help = next((extra for extra in extras if isinstance(extra, str)), help_words or None)
    flag = "--" + name.rstrip("_").replace("_", "-")
    if kind is bool:
        if default is None:
            negative = said.get(f"no_{name}", (None, ""))[1] or None
            return [
                ([flag], dict(dest=name, action="store_true", default=None, help=help)),
                ([f"--no-{flag[2:]}"], dict(dest=name, action="store_false", help=negative)),
            ]
        return [([flag], dict(dest=name, action="store_true", help=help))]
    repeated = get_origin(kind) in (tuple, list)
    if repeated:
        kind = get_args(kind)[0]
    choices = get_args(kind) if get_origin(kind) is Literal else None
    parse = next(
        (extra for extra in extras if callable(extra)), kind if kind in (int, float) else None
    )
    options: dict[str, Any] = dict(type=parse, choices=choices, help=help)
    options["metavar"] = metavar or (None if choices else name.rstrip("_").upper())
    given = default is not inspect.Parameter.empty
    if parameter.kind is inspect.Parameter.KEYWORD_ONLY:
        options.update(dest=name, default=None if repeated else (default if given else None))
        if repeated:
            options["action"] = "append"
        return [([flag], {**options, "required": not given})]
    nargs = "+" if repeated else "?" if given else None
    return [([name], {**options, "nargs": nargs, "default": default if given else None})]


def _unwrapped(hint: Any) -> tuple[Any, list[Any]]:
    """A parameter's type without `| None` and `Annotated`'s extras, and those extras."""
    extras: list[Any] = []
    while True:
        if get_origin(hint) is Annotated:
            hint, *more = get_args(hint)
            extras += more
        elif get_origin(hint) in (Union, UnionType) and type(None) in get_args(hint):
            hint = next(part for part in get_args(hint) if part is not type(None))
        else:
            return hint, extras


def command(name: str, *exclusive: Exclusive, **options: Any) -> Callable[[Run[R]], Command[R]]:
    """Declare the decorated function the command `name` (`Command`: its parameters are the
    command's arguments, its docstring their help); `exclusive`: options of which one at most is
    given. `options`: `Command`'s (`under`: the group it belongs to, `status`, `renamed_from`:
    its old name, still taken) and `add_parser`'s (`writes_home`: whether it writes the home,
    which every command says; `help` or `description` to override its docstring's)."""
    return lambda run: Command(name, run, exclusive, **options)


def group(name: str, **options: Any) -> Command[Any]:
    """A command that only holds sub-commands (`memtab project add`): one is required. It takes
    `--home` unless `home=False`."""
    return Command(name, None, **options)


def add_commands(commands: Commands, module: str) -> None:
    """The commands `module` declares (its top-level `Command`s, in order) added to `commands`."""
    for declared in vars(importlib.import_module(module)).values():
        if isinstance(declared, Command) and declared.under is None:
            declared.add_to(commands)


def record_of(kind: type[R], source: object, **given: Any) -> R:
    """A `kind` record (what `--json` prints) whose fields are `source`'s attributes of the same
    names, but those `given`: a field is named once, in its record's class."""
    names = [field.name for field in kind.fields() if field.name not in given]
    return kind(**{name: getattr(source, name) for name in names}, **given)


def open_store(
    home: Home, workspace_id: str | None, *, actor: str = "user"
) -> tuple[MemoryStore, Registry]:
    """The store for `--workspace` (global scope only without one); its changes are
    recorded in history as `actor`'s."""
    registry = load_registry(home)
    return MemoryStore.open(home, workspace_id, registry, actor=actor), registry


def print_json(value: Any) -> None:
    """`value` as UTF-8 JSON on stdout, whatever the locale: text that cannot be encoded
    (a lone surrogate from a model or a file name) is written as U+FFFD. Indented for a person
    at a terminal, compact for a program reading a pipe or file (as `gh` does): the same keys
    and values, and the C encoder, which indenting rules out (check's 26 MB: 0.2 s, not 0.9 s)."""
    if sys.stdout.isatty():
        _print_bytes(encode_utf8(json.dumps(value, indent=2, ensure_ascii=False) + "\n"))
    else:
        _print_bytes(compact_json(value))


def print_json_bytes(data: bytes) -> None:
    """What `print_json` prints of the value `data` holds as `compact_json` wrote it: the bytes
    themselves to a pipe (a kept report printed again is never encoded again)."""
    if sys.stdout.isatty():
        print_json(json.loads(data))
    else:
        _print_bytes(data)


def _print_bytes(data: bytes) -> None:
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
