"""The targets a checkout defines: Makefile targets, justfile recipes, Taskfile tasks,
package.json scripts, pyproject scripts.

Read conservatively: a definition Memtab cannot read whole — a Makefile `include` it
cannot follow, a target named by a variable, a justfile `import` or `mod`, a Taskfile's
`includes` — makes the
file `open`: it may define anything, and no target is reported missing from it.
"""

from __future__ import annotations

import fnmatch
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from memtab.fs.jsonfile import JsonError, parse_json
from memtab.fs.records import Lenient, OrNone, Record
from memtab.fs.records import field as record_field
from memtab.fs.user_files import read_regular_file

logger = logging.getLogger(__name__)

MAX_MANIFEST_BYTES = 1024 * 1024
_MAX_INCLUDE_DEPTH = 5

MAKEFILE_NAMES = ("GNUmakefile", "makefile", "Makefile")
JUSTFILE_NAMES = ("justfile", "Justfile", ".justfile", "JUSTFILE")
TASKFILE_NAMES = tuple(
    f"{first}askfile{dist}.{ext}"
    for dist in ("", ".dist")
    for ext in ("yml", "yaml")
    for first in "Tt"
)
"""go-task's names, in its order (taskfile.dev/docs: "Supported file names")."""
MISE_CONFIGS = (
    "mise.toml", ".mise.toml", "mise.local.toml", ".mise.local.toml", ".config/mise.toml",
    "mise/config.toml", ".mise/config.toml", ".config/mise/config.toml",
)  # fmt: skip
MISE_TASK_DIRS = ("mise-tasks", ".mise-tasks", "mise/tasks", ".mise/tasks", ".config/mise/tasks")


@dataclass(frozen=True)
class Targets:
    """What one definition file defines. `open`: it may define more than Memtab read."""

    names: frozenset[str] = frozenset()
    patterns: tuple[str, ...] = ()
    open: bool = False
    problem: str | None = None

    def defines(self, name: str) -> bool:
        if self.open or name in self.names:
            return True
        return any(fnmatch.fnmatchcase(name, pattern) for pattern in self.patterns)


@dataclass(frozen=True)
class PythonProject:
    """pyproject.toml as a check reads it: its scripts (every table a runner reads) and
    the names its dependency lists mention (a tool `uv run` may run once installed)."""

    scripts: frozenset[str] = frozenset()
    tasks: dict[str, frozenset[str]] = field(default_factory=dict)
    mentioned: str = ""
    problem: str | None = None

    def runs(self, name: str) -> bool:
        """Whether `uv run NAME` (or `pdm run`, `poetry run`) may run something of this
        project: one of its scripts, or a tool it depends on."""
        if name in self.scripts:
            return True
        return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", self.mentioned) is not None


def _read_text(path: Path) -> str:
    """A definition file's text: a regular file of at most MAX_MANIFEST_BYTES, read
    without blocking (a FIFO or `/dev/tty` named pyproject.toml is refused at once)."""
    return read_regular_file(path, limit=MAX_MANIFEST_BYTES).decode("utf-8", "replace")


# mix.exs's `project/0`: `[app: :tidevann, version: …]`.
_MIX_APP = re.compile(r"\bapp:\s*+:(\w++)")


@dataclass(frozen=True)
class MixProject:
    """mix.exs as a check reads it: its apps' names, and its text (an alias it defines)."""

    apps: frozenset[str] = frozenset()
    text: str = ""


def mix_project(path: Path) -> MixProject:
    try:
        text = _read_text(path)
    except OSError:
        return MixProject()
    return MixProject(frozenset(_MIX_APP.findall(text)), text)


def _parse_toml(text: str) -> dict[str, Any]:
    """A TOML definition file's document; ValueError (TOMLDecodeError) when it is not TOML."""
    # lazy: tomllib (~0.13 MiB traced) for a checkout with a TOML manifest only
    import tomllib

    return tomllib.loads(text)


# --- make ------------------------------------------------------------------------------

# Possessive: a long line that is no rule fails at once, not after every split of it.
_MAKE_RULE = re.compile(r"^(?P<targets>[^\s:=#][^:=#]*+)(?P<colons>::?)(?!=)")
_MAKE_INCLUDE = re.compile(r"^(?P<optional>-|s)?include\s+(?P<files>.+)$")
_MAKE_PHONY = re.compile(r"^\.PHONY\s*:\s*(?P<names>.*)$")
_MAKE_DEFINE = re.compile(r"^define\b")
_MAKE_ENDEF = re.compile(r"^endef\b")


def make_targets(path: Path) -> Targets:
    """The targets of a Makefile and what it includes (see the module doc)."""
    names: set[str] = set()
    patterns: list[str] = []
    try:
        open_ = _read_makefile(path, names, patterns, depth=0)
    except (OSError, ValueError) as error:
        return Targets(open=True, problem=f"cannot read {path}: {error}")
    return Targets(frozenset(names), tuple(patterns), open_)


def _read_makefile(path: Path, names: set[str], patterns: list[str], *, depth: int) -> bool:
    """Add `path`'s targets; True when it may define targets Memtab cannot name."""
    text = _read_text(path)
    open_ = False
    in_define = False
    for raw in _logical_lines(text):
        if in_define:
            in_define = _MAKE_ENDEF.match(raw) is None
            continue
        if _MAKE_DEFINE.match(raw):
            in_define = True
            continue
        if raw.startswith("\t") or not raw.strip() or raw.lstrip().startswith("#"):
            continue
        line = raw.strip()
        include = _MAKE_INCLUDE.match(line)
        if include is not None:
            open_ |= _include(path, include, names, patterns, depth)
            continue
        if line.startswith(("$(eval", "${eval")):
            open_ = True
            continue
        phony = _MAKE_PHONY.match(line)
        if phony is not None:
            names.update(phony.group("names").split())
            continue
        rule = _MAKE_RULE.match(line)
        if rule is None:
            continue
        for target in rule.group("targets").split():
            if "$" in target:
                patterns.append("*.*")  # a variable: it may name any file-like target
                patterns.append("*/*")
            elif "%" in target:
                patterns.append(target.replace("%", "*"))
            elif not target.startswith("."):
                names.add(target)
    return open_


def _include(
    path: Path, include: re.Match[str], names: set[str], patterns: list[str], depth: int
) -> bool:
    optional = include.group("optional") is not None
    open_ = False
    for name in include.group("files").split():
        if "$" in name or any(char in name for char in "*?["):
            open_ = True  # a variable or glob Memtab does not expand
            continue
        included = (path.parent / name).resolve()
        if depth >= _MAX_INCLUDE_DEPTH or not included.is_file():
            open_ |= not optional
            continue
        try:
            open_ |= _read_makefile(included, names, patterns, depth=depth + 1)
        except (OSError, ValueError):
            open_ = True
    return open_


def _logical_lines(text: str) -> list[str]:
    """Lines with backslash continuations joined."""
    lines: list[str] = []
    pending = ""
    for raw in text.splitlines():
        if raw.endswith("\\"):
            pending += raw[:-1] + " "
            continue
        lines.append(pending + raw)
        pending = ""
    if pending:
        lines.append(pending)
    return lines


# --- just ------------------------------------------------------------------------------

_JUST_NAME = r"[A-Za-z_][\w-]*+"
_JUST_VALUE = (
    r"(?:'[^'\n]*+'|\"(?:[^\"\\\n]|\\.)*+\"|`[^`\n]*+`|"
    + _JUST_NAME
    + r"|\((?:[^()\n]|\([^()\n]*+\))*+\))"
)
"""A parameter's default in just's grammar: a string, a backtick, a variable, an expression in
parentheses (just.systems/man: "Recipe Parameters")."""
_JUST_RECIPE = re.compile(
    r"^@?(?P<name>" + _JUST_NAME + r")"
    r"(?:\s++[+*]?\$?" + _JUST_NAME + r"(?:\s*+=\s*+" + _JUST_VALUE + r")?)*+\s*+:(?!=)"
)
"""A recipe's header: `name`, then its parameters (`level="patch"`, `*args`, `+FILES`,
`$VAR`, a default in backticks), then a colon that is no `:=` (an assignment's)."""
_JUST_ALIAS = re.compile(r"^alias\s+(?P<name>[A-Za-z_][\w-]*)\s*:=")
_JUST_OPENING = re.compile(r"^(?:import|mod)\b")
_JUST_SETTING = re.compile(
    r"^(?:set\s++" + _JUST_NAME + r"\s*+(?::=|#|$)|export\s++" + _JUST_NAME + r"\s*+:=)"
)
"""A setting or an exported variable (`set shell := …`, `set dotenv-load`, `export RUST_LOG :=
…`): just reads `set` and `export` as keywords only so, and a recipe may be named after them
(`export:`, `export-levels:`)."""


def just_recipes(path: Path) -> Targets:
    try:
        text = _read_text(path)
    except (OSError, ValueError) as error:
        return Targets(open=True, problem=f"cannot read {path}: {error}")
    names: set[str] = set()
    open_ = False
    for raw in text.splitlines():
        if not raw or raw[0] in " \t#[":
            continue
        if _JUST_OPENING.match(raw):
            open_ = True
            continue
        alias = _JUST_ALIAS.match(raw)
        if alias is not None:
            names.add(alias.group("name"))
            continue
        if _JUST_SETTING.match(raw):
            continue
        recipe = _JUST_RECIPE.match(raw)
        if recipe is not None:
            names.add(recipe.group("name"))
    return Targets(frozenset(names), (), open_)


# --- task (go-task) ---------------------------------------------------------------------


def taskfile_tasks(path: Path) -> Targets:
    """A Taskfile's tasks and their aliases (a wildcard task, `start:*`, as a pattern); one
    that includes other Taskfiles is open (their tasks are namespaced: `docs:serve`)."""
    import yaml  # lazy: only a checkout with a Taskfile parses YAML here

    try:
        document = yaml.safe_load(_read_text(path))
    except (OSError, ValueError, yaml.YAMLError) as error:
        return Targets(open=True, problem=f"cannot read {path}: {error}")
    document = document if isinstance(document, dict) else {}
    tasks = document.get("tasks")
    names: set[str] = set()
    for name, task in tasks.items() if isinstance(tasks, dict) else ():
        aliases = task.get("aliases") if isinstance(task, dict) else None
        names.update([str(name), *(aliases if isinstance(aliases, list) else ())])
    patterns = tuple(name for name in names if "*" in name)
    return Targets(frozenset(names).difference(patterns), patterns, bool(document.get("includes")))


# --- mise ------------------------------------------------------------------------------


def mise_config_tasks(root: Path) -> Targets:
    """The tasks of the config files of a mise project at `root`: each one's `[tasks]`
    and their aliases. A config that includes other task files is open."""
    names: set[str] = set()
    open_ = False
    for config in MISE_CONFIGS:
        path = root / config
        if not path.is_file():
            continue
        try:
            document = _parse_toml(_read_text(path))
        except (OSError, ValueError) as error:
            return Targets(open=True, problem=f"cannot read {path}: {error}")
        tasks = document.get("tasks")
        for name, task in tasks.items() if isinstance(tasks, dict) else ():
            names.add(name)
            aliases = task.get("alias") if isinstance(task, dict) else None
            names.update([aliases] if isinstance(aliases, str) else aliases or ())
        open_ |= "includes" in _table(document, ("task_config",))
    return Targets(frozenset(n for n in names if n), (), open_)


def mise_file_tasks(files: Iterable[str]) -> frozenset[str]:
    """The file tasks among a mise project's files (relative to it): `mise-tasks/lint/go`
    is `lint:go`, `…/lint/_default` is `lint`."""
    names: set[str] = set()
    for relative in files:
        folder = next((d for d in MISE_TASK_DIRS if relative.startswith(d + "/")), None)
        if folder is None:
            continue
        parts = relative[len(folder) + 1 :].split("/")
        if parts[-1] == "_default":
            parts = parts[:-1]
        stem = parts[-1].rsplit(".", 1)[0] if parts else ""
        names.add(":".join(parts))
        names.add(":".join([*parts[:-1], stem]))
    return frozenset(n for n in names if n)


# --- package.json -----------------------------------------------------------------------


@dataclass(frozen=True)
class NodePackage:
    """package.json as a check reads it: its scripts, the programs it installs (`bin`),
    and the packages it depends on (whose programs its `node_modules/.bin` will hold)."""

    scripts: Targets = Targets()
    programs: frozenset[str] = frozenset()
    problem: str | None = None


_Table = Annotated[dict[str, Any], Lenient({})]


class PackageJson(Record):
    """package.json as the check reads it (docs/formats.md §19): the names of its scripts,
    its `bin` (an object of programs, or one program named after the package), the
    packages it depends on and its `packageManager` (Node's Corepack runs it: `pnpm@9.12.0`
    provides `pnpm`); a value of the wrong type reads as empty."""

    name: OrNone[str] = None
    package_manager: OrNone[str] = None
    bin: Annotated[str | dict[str, Any] | None, Lenient(None)] = None
    scripts: _Table = record_field(default_factory=dict)
    dependencies: _Table = record_field(default_factory=dict)
    dev_dependencies: _Table = record_field(default_factory=dict)
    peer_dependencies: _Table = record_field(default_factory=dict)
    optional_dependencies: _Table = record_field(default_factory=dict)

    @property
    def programs(self) -> set[str]:
        """What its `node_modules/.bin` will hold — its own programs and its dependencies'
        — and its package manager."""
        if isinstance(self.bin, dict):
            programs = set(self.bin)
        elif self.bin is not None and self.name is not None:
            programs = {self.name.rsplit("/", 1)[-1]}
        else:
            programs = set()
        for table in (
            self.dependencies,
            self.dev_dependencies,
            self.peer_dependencies,
            self.optional_dependencies,
        ):
            programs.update(dependency.rsplit("/", 1)[-1] for dependency in table)
        if self.package_manager:
            programs.add(self.package_manager.split("@", 1)[0])
        return programs


def node_package(path: Path) -> NodePackage:
    try:
        document = parse_json(_read_text(path).encode("utf-8"))
    except (OSError, ValueError, JsonError) as error:
        problem = f"cannot read {path}: {error}"
        return NodePackage(Targets(open=True, problem=problem), problem=problem)
    package = PackageJson.read(document)
    if package is None:
        return NodePackage()
    return NodePackage(Targets(frozenset(package.scripts)), frozenset(package.programs))


def package_scripts(path: Path) -> Targets:
    return node_package(path).scripts


# --- pyproject.toml ---------------------------------------------------------------------

_SCRIPT_TABLES = (
    ("project", "scripts"),
    ("project", "gui-scripts"),
    ("tool", "poetry", "scripts"),
    ("tool", "pdm", "scripts"),
    ("tool", "rye", "scripts"),
    ("tool", "uv", "scripts"),
)
_TASK_TABLES = {"poe": ("tool", "poe", "tasks"), "pdm": ("tool", "pdm", "scripts")}


def python_project(path: Path) -> PythonProject:
    try:
        text = _read_text(path)
        document = _parse_toml(text)
    except (OSError, ValueError) as error:
        return PythonProject(problem=f"cannot read {path}: {error}")
    scripts: set[str] = set()
    for table_path in _SCRIPT_TABLES:
        table = _table(document, table_path)
        scripts.update(name for name in table if isinstance(name, str))
    tasks = {
        runner: frozenset(name for name in _table(document, table_path) if isinstance(name, str))
        for runner, table_path in _TASK_TABLES.items()
    }
    return PythonProject(frozenset(scripts), tasks, text)


def _table(document: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    value: Any = document
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value if isinstance(value, dict) else {}
