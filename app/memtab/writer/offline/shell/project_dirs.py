"""Commands as the project runs them: Claude Code often names the project's folder by its absolute
path (`cd /Users/me/app/web && hugo`, `pnpm --dir /Users/me/app lint`), which would make every such
command a one-off of one machine (`commands.is_one_off`)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Collection

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
