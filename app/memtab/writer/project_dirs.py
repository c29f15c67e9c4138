"""Commands as the project runs them: Claude Code often names the project's folder by its
absolute path (`cd /Users/me/app/web && hugo`, `pnpm --dir /Users/me/app lint`), which
would make every such command a one-off of one machine (`commands.is_one_off`). Inside the
session's project (the directory it started in, `TranscriptEvent.cwd`) the path is written
relative to it, as a developer of the project would type it."""

from __future__ import annotations

import re

# A leading `cd <dir> &&` (or `;`), and the options that run a tool in a directory
# (`pnpm --dir <dir> lint`, `git -C <dir> status`, `npm --prefix <dir> test`, `hugo -s
# <dir>`).
_LEADING_CD = re.compile(
    r"""(?:^|(?<=&&\s)|(?<=;\s))cd\s+(?P<q>["']?)(?P<dir>[^"'\s;&|]+)(?P=q)\s*(?:&&|;)\s*"""
)
_DIR_OPTION = re.compile(
    r"""(?<=\s)(?:--dir|-C|--prefix|--source|-s)[\s=](?P<q>["']?)(?P<dir>[^"'\s;&|]+)(?P=q)"""
)


def in_project(command: str, project_dir: str | None) -> str:
    """A command as the project runs it: a directory given by its absolute path inside the
    session's project (`project_dir`, where the session started) made relative to it — the
    first `cd` of a chain, or a tool's directory option: `cd /home/rob/app && go build
    ./...` → `go build ./...`, `cd /home/rob/app/web &&
    hugo` → `cd web && hugo`, `pnpm --dir /home/rob/app lint` → `pnpm lint`. Any other
    command unchanged (a path outside the project stays, and keeps it a one-off)."""
    root = (project_dir or "").rstrip("/")
    if not root.startswith("/") or root.count("/") < 2:
        return command

    def relative(path: str) -> str | None:
        path = path.rstrip("/")
        if path == root:
            return ""
        return path[len(root) + 1 :] if path.startswith(root + "/") else None

    leading = _LEADING_CD.search(command)
    if leading is not None:
        inner = relative(leading.group("dir"))
        if inner is not None:
            before, rest = command[: leading.start()], command[leading.end() :]
            command = before + (f"cd {inner} && {rest}" if inner else rest)
    option = _DIR_OPTION.search(command)
    if option is not None:
        inner = relative(option.group("dir"))
        if inner == "":
            command = (command[: option.start()] + command[option.end() :]).replace("  ", " ")
        elif inner is not None:
            start, end = option.span("dir")
            command = (
                command[: start - len(option.group("q"))]
                + inner
                + command[end + len(option.group("q")) :]
            )
    return command
