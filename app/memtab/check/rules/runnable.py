"""Commands a memory names that would not run in its checkout: a script target that is
not defined (`make`, `just`, `task`, `npm run`, `pnpm`, `yarn`, `uv run`, `pdm run`, `poetry
run`, `poe`, a Mix task of the project's own app), or a program that is not installed
(docs/formats.md §19.3).

A target is missing only when the file that would define it was read whole and no other
definition file of its kind in the checkout defines it (a monorepo's package may be meant;
`task` with no Taskfile anywhere may be Taskwarrior's); a command run in a folder the
checkout does not have (`cd ../other && make`) is not checked. `npm test` and `pnpm install`
are the tools' own commands, not scripts; `pnpm X` and `yarn X` may also run an installed
tool X, so they are checked only where the project's tools are installed. A program is
missing when it is on neither PATH, the places programs are usually installed, nor the
project's own `node_modules/.bin` and `.venv/bin`; a program the memory says to install, or
aliases (`alias docker=podman`), is not.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, replace

from memtab.check.checkout import Checkout
from memtab.check.known_programs import BUN_COMMANDS, NPM_COMMANDS, PNPM_COMMANDS, YARN_COMMANDS
from memtab.check.markdown import ScannedText
from memtab.check.rules.commands import Command, commands_of
from memtab.check.scripts import (
    JUSTFILE_NAMES,
    MAKEFILE_NAMES,
    TASKFILE_NAMES,
    MixProject,
    mix_project,
)
from memtab.check.wording import is_open_section, names_commands_as_they_are

# "install X", "npm i -g X", "brew install X", "pip install X": the words after the verb.
_INSTALLS = re.compile(
    r"\b(?:install|installs|installed|installing|add|i)\b((?:\s+[-\w.@/+=:]+){1,4})",
    re.IGNORECASE,
)
# Languages that put the object first: every word of a line that speaks of installing.
_INSTALL_OBJECT_FIRST = re.compile(r"설치|安装|インストール")
_ALIAS = re.compile(r"\balias\s+([\w.+-]+)=")
_WORD = re.compile(r"[\w.+-]+")
_SHOWN_TARGETS = 8


@dataclass(frozen=True)
class RunProblem:
    """What a rule found on a line: its kind, subject, message and why; `also`: the
    other lines of the file with the same problem (one finding for all of them)."""

    line: int
    kind: str
    subject: str
    message: str
    why: str
    also: tuple[int, ...] = ()


def run_problems(
    scanned: ScannedText,
    checkout: Checkout,
    *,
    find_program: Callable[[str], str | None],
) -> Iterator[RunProblem]:
    """The missing targets and programs of the commands in `scanned` (see the module doc;
    a program a shell alias defines is not missing: the engine knows every memory's)."""
    installed_here = _installs(scanned)
    found: dict[tuple[str, str], RunProblem] = {}
    lines: dict[tuple[str, str], list[int]] = {}
    for line in scanned.lines:
        if (
            line.fence
            or not names_commands_as_they_are(line.words)
            or is_open_section(line.section)
        ):
            continue
        for command in commands_of(line):
            directory = _directory(checkout, command)
            if directory is None:
                continue
            problems = list(
                _script_problem(checkout, command, directory, line.number, find_program)
            )
            program = command.program
            if program not in installed_here and not _available(
                checkout, program, directory, find_program
            ):
                problems.append(
                    RunProblem(
                        line.number,
                        "missing-program",
                        program,
                        f"`{program}` is not installed",
                        f"`{_shown(command)}` runs {program}, which is not on PATH, nor where "
                        "programs are usually installed, nor in the project's node_modules/"
                        f".bin or .venv/bin ({checkout.root}), nor one the project provides.",
                    )
                )
            for problem in problems:
                key = (problem.kind, problem.subject)
                found.setdefault(key, problem)
                if line.number not in lines.setdefault(key, []):
                    lines[key].append(line.number)
    for key, problem in found.items():
        also = tuple(lines[key][1:])
        yield replace(problem, also=also) if also else problem


def _available(
    checkout: Checkout, program: str, directory: str, find_program: Callable[[str], str | None]
) -> bool:
    """Whether `program` runs here: installed, or the project's own."""
    return (
        find_program(program) is not None
        or checkout.project_program(program, directory) is not None
        or checkout.provides(program)
    )


def _installs(scanned: ScannedText) -> set[str]:
    """The programs the memory says to install: the words after an install verb (and
    every word of a line that says so in Korean, Chinese or Japanese)."""
    words: set[str] = set()
    for line in scanned.lines:
        for match in _INSTALLS.finditer(line.text):
            for word in match.group(1).split():
                words.add(word.rsplit("/", 1)[-1].split("@", 1)[0])
        if _INSTALL_OBJECT_FIRST.search(line.text):
            words.update(_WORD.findall(line.text))
    return words


def aliases_in(scanned: ScannedText) -> set[str]:
    """The names a memory's code defines as shell aliases (`alias docker=podman`)."""
    found: set[str] = set()
    for line in scanned.lines:
        for code in (*line.spans, line.text if line.block is not None else ""):
            found.update(_ALIAS.findall(code))
    return found


def _directory(checkout: Checkout, command: Command) -> str | None:
    """Where in the checkout the command runs ("" its root); None outside it."""
    if command.directory is None:
        return ""
    relative = _relative(command.directory)
    return relative if relative is not None and checkout.is_dir(relative) else None


def _relative(directory: str) -> str | None:
    if directory in ("", ".", "./"):
        return ""
    if directory.startswith(("/", "~", "$", "-")) or ".." in directory.split("/"):
        return None
    return directory.removeprefix("./").rstrip("/")


def _shown(command: Command) -> str:
    text = " ".join(command.words)
    return text if len(text) <= 60 else text[:59] + "…"


# --- script targets ---------------------------------------------------------------------


def _script_problem(
    checkout: Checkout,
    command: Command,
    directory: str,
    line: int,
    find_program: Callable[[str], str | None],
) -> Iterator[RunProblem]:
    program, words = command.program, list(command.arguments)
    if program == "make":
        yield from _make(checkout, command, directory, words, line)
    elif program == "just":
        yield from _just(checkout, command, directory, words, line)
    elif program == "task":
        yield from _task(checkout, command, directory, words, line)
    elif program in ("npm", "pnpm", "yarn", "bun"):
        yield from _node(checkout, command, directory, words, line)
    elif program in ("uv", "pdm", "poetry") and words[:1] == ["run"]:
        yield from _python_run(checkout, command, directory, words[1:], line, find_program)
    elif program == "mise" and words[:1] in (["run"], ["r"]):
        yield from _mise(checkout, command, directory, words[1:], line)
    elif program == "poe" and words and not words[0].startswith("-"):
        yield from _poe(checkout, command, directory, words[0], line)
    elif program == "mix" and words and "." in words[0]:
        yield from _mix(checkout, directory, words[0], line)


def _mix(checkout: Checkout, directory: str, task: str, line: int) -> Iterator[RunProblem]:
    """A task named after the project's own app (`mix tidevann.import`) that no file of the
    checkout is named for (Mix's tasks are `lib/mix/tasks/tidevann.import.ex`), nor an
    alias of mix.exs; a task of a dependency (`mix phx.server`) is that package's."""
    definition = _definition(checkout, directory, ("mix.exs",))
    if definition is None:
        return
    project = checkout.read(definition, mix_project)
    assert isinstance(project, MixProject)
    if task.partition(".")[0] not in project.apps or task in project.text:
        return
    if checkout.named(f"{task}.ex") or checkout.named(f"{task.rpartition('.')[2]}.ex"):
        return
    yield RunProblem(
        line,
        "missing-script",
        f"mix {task}",
        f"`mix {task}`: the project has no task `{task}`",
        f"{definition} is the app {task.partition('.')[0]}, and no file of {checkout.root} is "
        f"{task}.ex, where its own Mix tasks are kept. It may have been renamed or removed.",
    )


def _options(
    words: Sequence[str], with_values: Collection[str]
) -> tuple[dict[str, str], list[str]]:
    """Options (`-C dir`, `--dir=x`; flags map to "") and the other words, in order."""
    options: dict[str, str] = {}
    rest: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word == "--":
            rest += words[index + 1 :]
            break
        if word.startswith("-") and len(word) > 1:
            name, equals, value = word.partition("=")
            if not equals and name in with_values and index + 1 < len(words):
                value = words[index + 1]
                index += 1
            options[name] = value
        else:
            rest.append(word)
        index += 1
    return options, rest


def _in(directory: str, sub: str | None) -> str | None:
    if sub is None:
        return directory
    relative = _relative(sub)
    if relative is None:
        return None
    return f"{directory}/{relative}".strip("/") if directory else relative


def _definition(checkout: Checkout, directory: str, names: Sequence[str]) -> str | None:
    """The first of `names` that is a file in `directory`."""
    return next(
        (
            relative
            for relative in (f"{directory}/{n}" if directory else n for n in names)
            if checkout.is_file(relative)
        ),
        None,
    )


@dataclass(frozen=True)
class _Wanted:
    """A target a command needs: its name, the command that names it (`subject`), the
    file that would define it (None: there is none where it runs), the names of such
    files, what one is called, and whether the command chose the folder (`cd dir &&`,
    `-C dir`: then only that folder's file counts)."""

    target: str
    subject: str
    definition: str | None
    names: Sequence[str]
    file_kind: str
    target_kind: str
    folder_given: bool


def _missing_target(
    checkout: Checkout, command: Command, line: int, wanted: _Wanted
) -> Iterator[RunProblem]:
    """A problem when `wanted` is not defined where it runs, nor — unless the command
    chose its folder — by another file of its kind in the checkout (see the module doc)."""
    others = [] if wanted.folder_given else checkout.manifests(wanted.names)
    shown_command = _shown(command)
    if wanted.definition is None:
        if others or wanted.folder_given:
            return  # defined in some folder: which one the memory means is not known
        yield RunProblem(
            line,
            "missing-script",
            wanted.subject,
            f"`{shown_command}`: there is no {wanted.file_kind} in the checkout",
            f"`{shown_command}` needs a {wanted.file_kind}, and {checkout.root} has none: "
            "the project may have moved to another tool.",
        )
        return
    if checkout.defines(wanted.definition, wanted.target) or any(
        checkout.defines(other, wanted.target) for other in others
    ):
        return
    listing = ", ".join(checkout.defined(wanted.definition))
    where = "" if wanted.folder_given else f"; no {wanted.file_kind} of the checkout defines it"
    yield RunProblem(
        line,
        "missing-script",
        wanted.subject,
        f"`{shown_command}`: {wanted.definition} has no {wanted.target_kind} `{wanted.target}`",
        f"{wanted.definition} in {checkout.root} defines {listing or 'none'}{where}. It may "
        "have been renamed or removed.",
    )


def _make(
    checkout: Checkout, command: Command, directory: str, words: list[str], line: int
) -> Iterator[RunProblem]:
    options, rest = _options(
        words, {"-C", "--directory", "-f", "--file", "--makefile", "-j", "-I", "-o", "-W"}
    )
    if {"-f", "--file", "--makefile"} & options.keys():
        return
    base = _in(directory, options.get("-C") or options.get("--directory"))
    if base is None or (base and not checkout.is_dir(base)):
        return
    definition = _definition(checkout, base, MAKEFILE_NAMES)
    folder_given = base != "" or command.directory is not None
    for target in rest:
        if "=" in target or "." in target or "/" in target or "$" in target:
            continue
        wanted = _Wanted(
            target, f"make {target}", definition, MAKEFILE_NAMES, "Makefile", "target", folder_given
        )
        yield from _missing_target(checkout, command, line, wanted)


_JUST_NOT_A_RECIPE = frozenset(
    {"-l", "--list", "--summary", "--choose", "--evaluate", "--dump", "--edit", "--init",
     "--fmt", "--show", "-s", "--variables", "--completions", "--help", "-h", "--version",
     "-V", "--groups", "--changelog", "-f", "--justfile", "-d", "--working-directory"}
)  # fmt: skip


def _just(
    checkout: Checkout, command: Command, directory: str, words: list[str], line: int
) -> Iterator[RunProblem]:
    options, rest = _options(
        words,
        {
            "--set",
            "-f",
            "--justfile",
            "-d",
            "--working-directory",
            "--shell",
            "--show",
            "-s",
            "--completions",
            "--dotenv-filename",
            "--dotenv-path",
        },
    )
    if _JUST_NOT_A_RECIPE & options.keys() or not rest:
        return
    recipe = rest[0]
    if "::" in recipe or "/" in recipe or "=" in recipe:
        return
    definition = _definition(checkout, directory, JUSTFILE_NAMES) or (
        _definition(checkout, "", JUSTFILE_NAMES) if directory else None
    )  # just looks for its justfile upwards
    wanted = _Wanted(
        recipe, f"just {recipe}", definition, JUSTFILE_NAMES, "justfile", "recipe", False
    )
    yield from _missing_target(checkout, command, line, wanted)


_TASK_NOT_A_TASK = frozenset(
    {"-l", "--list", "-a", "--list-all", "-i", "--init", "--version", "-h", "--help",
     "--completion", "-t", "--taskfile", "-g", "--global"}
)  # fmt: skip


def _task(
    checkout: Checkout, command: Command, directory: str, words: list[str], line: int
) -> Iterator[RunProblem]:
    named = words[: words.index("--")] if "--" in words else words  # then the tasks' arguments
    options, rest = _options(named, {"-d", "--dir", "-o", "--output", "-C", "--concurrency"})
    base = _in(directory, options.get("-d") or options.get("--dir"))
    if _TASK_NOT_A_TASK & options.keys() or base is None or (base and not checkout.is_dir(base)):
        return
    definition = _definition(checkout, base, TASKFILE_NAMES) or (
        _definition(checkout, "", TASKFILE_NAMES) if base else None
    )  # task looks for its Taskfile upwards
    if definition is None and not checkout.manifests(TASKFILE_NAMES):
        return  # no Taskfile anywhere: `task` may be Taskwarrior
    for name in rest:
        if "=" in name or "$" in name or "{" in name:
            continue  # a variable given to the tasks (`task deploy ENV=prod`)
        wanted = _Wanted(
            name, f"task {name}", definition, TASKFILE_NAMES, "Taskfile", "task", False
        )
        yield from _missing_target(checkout, command, line, wanted)


_NODE_VALUE_OPTIONS = frozenset(
    {"--prefix", "-C", "--dir", "--cwd", "--filter", "-F", "-w", "--workspace"}
)
_NODE_SKIP = frozenset(
    {"-w", "--workspace", "--workspaces", "-ws", "--filter", "-F", "-r", "--recursive",
     "--if-present", "-g", "--global"}
)  # fmt: skip
_BUILTINS = {
    "npm": NPM_COMMANDS, "pnpm": PNPM_COMMANDS, "yarn": YARN_COMMANDS, "bun": BUN_COMMANDS,
}  # fmt: skip


def _node(
    checkout: Checkout, command: Command, directory: str, words: list[str], line: int
) -> Iterator[RunProblem]:
    options, rest = _options(words, _NODE_VALUE_OPTIONS)
    if _NODE_SKIP & options.keys() or not rest:
        return
    program = command.program
    if command.program == "pnpm" and "-w" in options:
        return
    sub = (
        options.get("--prefix") or options.get("-C") or options.get("--dir") or options.get("--cwd")
    )
    base = _in(directory, sub)
    if base is None or (base and not checkout.is_dir(base)):
        return
    explicit = rest[0] in ("run", "run-script", "rum", "urn")
    script = rest[1] if explicit and len(rest) > 1 else rest[0]
    if (explicit and len(rest) < 2) or "/" in script or "." in script or "$" in script:
        return  # a file (`bun run ./src/index.ts`): the path rule checks it
    if not explicit and (program == "npm" or script in _BUILTINS[program]):
        return
    # `pnpm X`, `yarn X` and `bun run X` may run an installed tool X: only where tools
    # are installed is X known not to be one.
    if not explicit or program == "bun":
        if not checkout.is_dir(f"{base}/node_modules" if base else "node_modules"):
            return
        if checkout.project_program(script, base) is not None:
            return
    definition = _definition(checkout, base, ("package.json",))
    subject = f"{program} run {script}" if explicit else f"{program} {script}"
    folder_given = base != "" or command.directory is not None
    wanted = _Wanted(
        script, subject, definition, ("package.json",), "package.json", "script", folder_given
    )
    yield from _missing_target(checkout, command, line, wanted)


def _python_run(
    checkout: Checkout,
    command: Command,
    directory: str,
    words: list[str],
    line: int,
    find_program: Callable[[str], str | None],
) -> Iterator[RunProblem]:
    with_values = {
        "--with", "--with-requirements", "--with-editable", "--python", "-p", "--package",
        "--directory", "--project", "--group", "--extra", "--env-file", "--index",
        "--only-group", "--no-group",
    }  # fmt: skip
    options, rest = _options(words, with_values)
    if (
        not rest
        or {"-m", "--module", "--script", "-s", "--with", "--with-requirements", "--gui-script"}
        & options.keys()
    ):
        return
    name = rest[0]
    if "/" in name or "." in name or name.startswith("$"):
        return  # a file: the path rule checks it
    base = _in(directory, options.get("--directory") or options.get("--project"))
    if base is None or (base and not checkout.is_dir(base)):
        return
    definition = _definition(checkout, base, ("pyproject.toml",)) or _definition(
        checkout, "", ("pyproject.toml",)
    )
    if definition is None:
        return  # `uv run` works without a project; nothing says what it should run
    if checkout.python_runs(definition, name):
        return
    if find_program(name) is not None or checkout.project_program(name, base) is not None:
        return
    yield RunProblem(
        line,
        "missing-script",
        f"{command.program} run {name}",
        f"`{_shown(command)}`: {definition} has no script `{name}`",
        f"{definition} in {checkout.root} names no script or tool `{name}`, and no program "
        f"`{name}` is installed. It may have been renamed or removed.",
    )


def _mise(
    checkout: Checkout, command: Command, directory: str, words: list[str], line: int
) -> Iterator[RunProblem]:
    options, rest = _options(words, {"-C", "--cd", "-j", "--jobs", "-o", "--output", "-E", "--env"})
    if not rest or any(char in rest[0] for char in "*?[{") or rest[0].startswith("$"):
        return
    task = rest[0]
    base = _in(directory, options.get("-C") or options.get("--cd"))
    if base is None or (base and not checkout.is_dir(base)):
        return
    names, open_ = _mise_tasks(checkout, base)
    if base and not names:
        names, open_ = _mise_tasks(checkout, "")
    if not names or open_ or task in names:
        return  # no mise project here (or one Memtab cannot read whole)
    shown = sorted(names)[:_SHOWN_TARGETS]
    yield RunProblem(
        line,
        "missing-script",
        f"mise run {task}",
        f"`{_shown(command)}`: mise has no task `{task}`",
        f"The mise configuration of {checkout.root} defines {', '.join(shown)}"
        f"{', …' if len(names) > len(shown) else ''}; none is `{task}`. It may have "
        "been renamed or removed.",
    )


def _poe(
    checkout: Checkout, command: Command, directory: str, task: str, line: int
) -> Iterator[RunProblem]:
    definition = _definition(checkout, directory, ("pyproject.toml",))
    if definition is None:
        return
    tasks = checkout.poe_tasks(definition)
    if not tasks or task in tasks:
        return
    yield RunProblem(
        line,
        "missing-script",
        f"poe {task}",
        f"`{_shown(command)}`: {definition} has no task `{task}`",
        f"{definition} in {checkout.root} defines the poe tasks {', '.join(tasks[:8])}; "
        f"none is `{task}`. It may have been renamed or removed.",
    )


def _mise_tasks(checkout: Checkout, directory: str) -> tuple[frozenset[str], bool]:
    """The tasks of the mise project at `directory` (its configs' and its file tasks),
    and whether it may define more."""
    configured, open_ = checkout.mise_config(directory)
    return frozenset(configured) | frozenset(checkout.mise_files(directory)), open_
