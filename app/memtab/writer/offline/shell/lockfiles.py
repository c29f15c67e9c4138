"""The package manager a project's own lockfile names (`pnpm-lock.yaml`: pnpm), seen in a
session's tool calls: a command of another manager of the same ecosystem (`npm install` in a
pnpm project) is not one that works here, whatever its exit status said."""

from __future__ import annotations

import re
from collections.abc import Iterable

from memtab.writer.offline.shell.commands import command_segments, program_name

# Lockfile → (ecosystem, manager).
LOCKFILES = {
    "pnpm-lock.yaml": ("js", "pnpm"),
    "yarn.lock": ("js", "yarn"),
    "package-lock.json": ("js", "npm"),
    "npm-shrinkwrap.json": ("js", "npm"),
    "bun.lockb": ("js", "bun"),
    "bun.lock": ("js", "bun"),
    "uv.lock": ("python", "uv"),
    "poetry.lock": ("python", "poetry"),
    "Pipfile.lock": ("python", "pipenv"),
    "pdm.lock": ("python", "pdm"),
}
# A manager's program → (ecosystem, manager); pip has no lockfile of its own.
MANAGERS = {
    **{manager: (ecosystem, manager) for ecosystem, manager in LOCKFILES.values()},
    "pip": ("python", "pip"),
    "pip3": ("python", "pip"),
}
_LOCKFILE = re.compile(
    r"(?<![\w.-])(" + "|".join(re.escape(name) for name in LOCKFILES) + r")(?![\w-]|\.\w)"
)


def manager_of(command: str) -> tuple[str, str] | None:
    """The (ecosystem, manager) a shell command runs, by its first simple command's
    program (`pnpm test`: js, pnpm), or None."""
    for words in command_segments(command):
        if words:
            return MANAGERS.get(program_name(words[0]))
    return None


class ProjectManagers:
    """The managers a session's lockfiles name, each read only while that manager had not run
    yet (`npm install` writes a `package-lock.json` into a pnpm project: not the project's)."""

    def __init__(self) -> None:
        self._named: set[tuple[str, str]] = set()
        self._ran: set[tuple[str, str]] = set()

    def ran(self, command: str) -> None:
        """A shell command ran: a lockfile of its manager seen from now on is its own doing."""
        manager = manager_of(command)
        if manager is not None:
            self._ran.add(manager)

    def saw(self, texts: Iterable[str]) -> None:
        """A tool call's paths and output: the lockfiles they name."""
        for text in texts:
            for found in _LOCKFILE.finditer(text):
                manager = LOCKFILES[found.group(1)]
                if manager not in self._ran:
                    self._named.add(manager)

    def contradicts(self, command: str) -> bool:
        """Whether the project's lockfiles name another manager of the command's ecosystem
        and none of its own."""
        manager = manager_of(command)
        if manager is None or manager in self._named:
            return False
        return any(ecosystem == manager[0] for ecosystem, _ in self._named)
