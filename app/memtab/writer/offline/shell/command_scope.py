"""How much of the project a command covers: a test run picked by name or a check of the
files it names is that moment's (`is_narrowed`), the words a task runner hands its task
through `--` are that moment's too (`without_passthrough`), and a package manager's choice
of a workspace package picks no test (`pnpm --filter api test`). And where a command runs: the
project's folder named by its absolute path makes no one-off of a command (`in_project`)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Collection

from memtab.writer.offline.shell.commands import (
    MASKED,
    PIPE,
    SEPARATORS,
    command_kind,
    command_segments,
    main_words,
    program_name,
    skips_hooks,
    word_set,
)

# A leading `cd <dir> &&` (or `;`), and the options that run a tool in a directory
# (`pnpm --dir <dir> lint`, `git -C <dir> status`, `npm --prefix <dir> test`, `hugo -s
# <dir>`).
_LEADING_CD = re.compile(
    r"""(?:^|(?<=&&\s)|(?<=;\s))cd\s+(?P<q>["']?)(?P<dir>[^"'\s;&|]+)(?P=q)\s*(?:&&|;)\s*"""
)
_DIR_OPTION = re.compile(
    r"""(?<=\s)(?:--dir|-C|--prefix|--source|-s)[\s=](?P<q>["']?)(?P<dir>[^"'\s;&|]+)(?P=q)(?P<gap>\s*)"""
)


# A Windows project folder (`D:\\oh-my-posh`, which its commands name `D:/oh-my-posh`).
_DRIVE_ROOT = re.compile(r"^[a-z]:/[^/]")


def _plain(path: str) -> str:
    """A folder compared by its path alone: forward slashes, no trailing one, a Windows
    drive letter in lower case (`D:\\oh-my-posh\\` → `d:/oh-my-posh`)."""
    path = path.replace("\\", "/").rstrip("/")
    return path[0].lower() + path[1:] if path[1:2] == ":" else path


def _root(project_dir: str | None) -> str | None:
    """The session's project folder as compared (`_plain`), when it is one that can be."""
    root = _plain(project_dir or "")
    if (root.startswith("/") and root.count("/") >= 2) or _DRIVE_ROOT.match(root):
        return root
    return None


def relative_path(path: str, project_dir: str | None) -> str | None:
    """A path inside the session's project written relative to it (`""` for the project
    itself: `/home/rob/app/biome.json` → `biome.json`); None for any other path."""
    root = _root(project_dir)
    if root is None:
        return None
    path = _plain(path)
    if path == root:
        return ""
    return path[len(root) + 1 :] if path.startswith(root + "/") else None


# `git worktree add [options] <path> [<commit-ish>]`; the options that take a value.
_WORKTREE_ADD = re.compile(r"(?:^|&&\s*|;\s*)git\s+worktree\s+add\s+(?P<args>[^;&|<>]+)")
_WORKTREE_OPTION_VALUES = frozenset({"-b", "-B", "--reason"})


def _resolved(path: str, root: str) -> str | None:
    """`path` as compared (`_plain`), a relative one taken from the project's folder `root`;
    None for one only a shell knows (`~/x`, `$HOME/x`)."""
    if path.startswith(("~", "$")):
        return None
    path = _plain(path)
    if path.startswith("/") or _DRIVE_ROOT.match(path):
        return path
    return posixpath.normpath(posixpath.join(root, path))


def worktree_added(command: str, project_dir: str | None) -> str | None:
    """The folder a `git worktree add` in `command` checks the session's repository out in
    (absolute, as compared; a relative path taken from the project's folder), to pass to
    `in_project` with the commands that follow; None for any other command."""
    root = _root(project_dir)
    added = _WORKTREE_ADD.search(command)
    if root is None or added is None:
        return None
    words = iter(added.group("args").split())
    for word in words:
        if word in _WORKTREE_OPTION_VALUES:
            next(words, None)
        elif not word.startswith("-"):
            return _resolved(word.strip("\"'"), root)
    return None


def _in_worktree(path: str, root: str, worktrees: Collection[str]) -> str | None:
    """A path inside one of the session's worktrees, relative to it (as `relative_path`)."""
    resolved = _resolved(path, root)
    if resolved is None:
        return None
    for tree in worktrees:
        if resolved == tree:
            return ""
        if resolved.startswith(tree + "/"):
            return resolved[len(tree) + 1 :]
    return None


def in_project(command: str, project_dir: str | None, worktrees: Collection[str] = ()) -> str:
    """A command as the project runs it: a directory given by its absolute path inside the session's
    project (`project_dir`, where the session started) made relative to it — the first `cd` of a
    chain, and every directory option of its tools: `cd /home/rob/app && go build ./...` → `go build
    ./...`, `cd /home/rob/app/web && hugo` → `cd web && hugo`, `git -C /home/rob/app add x && git -C
    /home/rob/app commit` → `git add x && git commit`."""
    root = _root(project_dir)
    if root is None:
        return command

    def relative(path: str) -> str | None:
        inside = relative_path(path, project_dir)
        return inside if inside is not None else _in_worktree(path, root, worktrees)

    leading = _LEADING_CD.search(command)
    if leading is not None:
        inner = relative(leading.group("dir"))
        if inner is not None:
            before, rest = command[: leading.start()], command[leading.end() :]
            command = before + (f"cd {inner} && {rest}" if inner else rest)

    def option_in_project(option: re.Match[str]) -> str:
        inner = relative(option.group("dir"))
        if inner is None:
            return option.group(0)
        if inner == "":
            return ""  # the project itself: the option goes, with the space after it
        start, end = option.span("dir")
        quote = option.group("q")
        text, offset = option.group(0), option.start()
        return text[: start - offset - len(quote)] + inner + text[end - offset + len(quote) :]

    return _DIR_OPTION.sub(option_in_project, command)


# A directory no path inside the project names: absolute, in a home (`~/x`, `$HOME/x`), or
# above the project (`../x`).
_ELSEWHERE = re.compile(r"^(?:/|~|\$HOME\b|\.\.(?:/|$)|[A-Za-z]:[\\/])")


def runs_elsewhere(command: str) -> bool:
    """Whether a command (already passed through `in_project`) works in a directory outside the
    session's project: a leading `cd` there, or a tool's directory option naming it (`git -C
    ~/dotfiles commit`)."""
    leading = _LEADING_CD.search(command)
    if leading is not None and _ELSEWHERE.match(leading.group("dir")):
        return True
    return any(_ELSEWHERE.match(option.group("dir")) for option in _DIR_OPTION.finditer(command))


# Options that pick a few tests by name: such a run is that moment's check, not how the
# project runs its tests.
_NARROWING = re.compile(
    r"(?:^|\s)(?:-run|-k|-t|--filter|--grep|--testNamePattern|--test-name-pattern|--only"
    r"|-testNamePattern|--tests?)(?:[=\s]|$)|\S::\S"
)


# A task runner's subcommands that run a task, to which `--` hands the words after it
# (`mise run test:integration -- -run TestX`, `npm test -- -t login`).
_TASK_SUBCOMMANDS = word_set("run r test t x exec task")


def without_passthrough(command: str) -> str:
    """A task runner's call without the arguments handed through `--` to its task: they pick that
    moment's tests or files (`mise run test:integration -- -run TestX` → `mise run
    test:integration`, `pnpm --filter api test -- auth.spec` → `pnpm --filter api test`, `pnpm lint
    -- src/a.test.tsx` → `pnpm lint`: the task the project runs); any other command unchanged."""
    words = command.strip().split(" ")
    if "\n" in command.strip() or "--" not in words or MASKED.search(command):
        return command
    head = words[: words.index("--")]
    plain = all(not PIPE.search(w) and w not in SEPARATORS and "&&" not in w for w in head)
    runner = _without_workspace(head)
    if len(runner) < 2 or not plain or not _runs_a_task(runner):
        return command
    return " ".join(head)


# Package managers that run a package script named right after them (`pnpm lint -- x.tsx`
# is `pnpm run lint -- x.tsx`), and their own commands, which are no script.
_SCRIPT_SHORTHAND = word_set("pnpm yarn")
_MANAGER_COMMANDS = word_set("add remove install i up update link unlink dlx create init")


def _runs_a_task(words: list[str]) -> bool:
    """Whether a runner's words (workspace choice left out) run a task or script."""
    if words[1] in _TASK_SUBCOMMANDS:
        return True
    shorthand = program_name(words[0]) in _SCRIPT_SHORTHAND
    return shorthand and not words[1].startswith("-") and words[1] not in _MANAGER_COMMANDS


# What makes a run skip the checks it would run: git's hooks (`--no-verify`, a commit's
# `-n`), pre-commit's and husky's switches (`SKIP=golangci-lint git commit`, `HUSKY=0`), a
# build's tests (`--skip-tests`, Maven's `-DskipTests`).
_SKIPS_CHECKS = re.compile(
    r"(?:^|\s)(?:--skip-tests?|-DskipTests\S*|-Dmaven\.test\.skip\S*)(?:\s|$)"
    r"|(?:^|[\s;&])(?:SKIP|HUSKY|LEFTHOOK|HUSKY_SKIP_HOOKS)=\S"
)


def does_less(command: str, than: str) -> bool:
    """Whether `command` does only part of what `than` did: a narrower run (`narrows`), or
    the same run with its checks skipped (`git commit --no-verify` after `git commit`
    failed in a hook) — a run that worked that way fixed nothing."""
    return narrows(command, than) or (_skips_checks(command) and not _skips_checks(than))


def _skips_checks(command: str) -> bool:
    return skips_hooks(command) or bool(_SKIPS_CHECKS.search(command.split("\n", 1)[0]))


def narrows(command: str, than: str) -> bool:
    """Whether `command` runs only part of what `than` ran: it is narrowed (`is_narrowed`) by words
    `than` did not have (`bun test` → `bun test src/App.test.tsx`, `pytest` → `pytest -k login`)."""
    return is_narrowed(command) and bool(_words(command) - _words(than))


def _words(command: str) -> set[str]:
    return {word for words in command_segments(command) for word in words}


def is_narrowed(command: str) -> bool:
    """Whether a command runs only tests picked by name (`go test ./x -run TestY`, `pytest -k slow`,
    `pytest tests/a.py::test_b`), or checks only files it names (`npx eslint src/api/*.ts`); a
    package manager's choice of a workspace package (`pnpm --filter api test`) picks no test."""
    line = command.split("\n", 1)[0]
    if _NARROWING.search(" ".join(_without_workspace(line.split(" ")))):
        return True
    words = main_words(command)
    return _picks_cargo_tests(words) or (
        command_kind(command) in _CHECKS
        and any(_SOURCE_FILE.search(word) for word in words[1:] if not word.startswith("-"))
    )


# cargo's options that take a value (`-p mise`, `--features x`): the value is no test name.
_CARGO_VALUE_OPTIONS = word_set(
    "-p --package -F --features --target --manifest-path --test --bench --bin --example -j "
    "--jobs --profile --target-dir --color --config -Z --exclude"
)


def _picks_cargo_tests(words: list[str]) -> bool:
    """Whether `cargo test` (or `cargo nextest run`) is given a test name to filter by:
    its first positional word before `--` (`cargo test wildcard`, `cargo test -p mise
    shorthands`) — cargo's TESTNAME, the tests of that moment."""
    if len(words) < 2 or program_name(words[0]) != "cargo":
        return False
    if words[1].startswith("+"):  # the toolchain (`cargo +1.96.0 test`)
        words = [words[0], *words[2:]]
    if len(words) < 2:
        return False
    rest = words[2:] if words[1] in ("test", "t") else []
    if words[1] == "nextest" and words[2:3] == ["run"]:
        rest = words[3:]
    skip_value = False
    for word in rest:
        if word == "--":
            return False
        if skip_value:
            skip_value = False
        elif word.startswith("-"):
            skip_value = word in _CARGO_VALUE_OPTIONS
        else:
            return True
    return False


# A check run on a few files it names (`npx eslint apps/web/src/api/**/*.ts`, `pytest
# tests/test_a.py`, `gofmt -l x.go`) is that moment's check, not how the project runs it.
_CHECKS = frozenset(("tests", "lint", "type check", "format"))
_SOURCE_FILE = re.compile(
    r"\*|\.(?:tsx?|jsx?|mjs|cjs|py|go|rs|rb|exs?|swift|kt|java|c|h|cc|cpp|cs|php|mdx?|vue"
    r"|svelte|astro|s?css|html)(?::\d+)?$"
)


# A package manager's options that pick the workspace package a script runs in, before the
# script's name: `pnpm --filter api test`, `pnpm -F web lint`, `npm -w app run build`.
_WORKSPACE_MANAGERS = word_set("pnpm npm")
_WORKSPACE_OPTIONS = word_set("--filter -F --workspace -w")


def _without_workspace(words: list[str]) -> list[str]:
    """A package manager's words without the workspace it picks (see `_WORKSPACE_OPTIONS`);
    any other command's words unchanged."""
    if not words or program_name(words[0]) not in _WORKSPACE_MANAGERS:
        return words
    index = 1
    while index < len(words) and words[index].startswith("-"):
        option = words[index].split("=", 1)[0]
        if option not in _WORKSPACE_OPTIONS:
            break
        index += 1 if "=" in words[index] else 2  # `--filter=api` or `--filter api`
    return [words[0], *words[index:]]
