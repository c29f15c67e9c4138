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


def _manifests() -> dict[str, frozenset[str]]:
    """What a manager rewrites when it adds a package, by its program: `git checkout -- go.mod
    go.sum` after `go get x` undoes the add."""
    manifests = {
        "go": frozenset({"go.mod", "go.sum"}),
        "cargo": frozenset({"Cargo.toml", "Cargo.lock"}),
        "composer": frozenset({"composer.json", "composer.lock"}),
        "bundle": frozenset({"Gemfile", "Gemfile.lock"}),
        "mix": frozenset({"mix.exs", "mix.lock"}),
        "pip": frozenset({"requirements.txt"}),
        "pipenv": frozenset({"Pipfile", "Pipfile.lock"}),
    }
    for lockfile, (ecosystem, manager) in LOCKFILES.items():
        manifest = "package.json" if ecosystem == "js" else "pyproject.toml"
        manifests[manager] = manifests.get(manager, frozenset()) | {manifest, lockfile}
    return manifests


MANIFESTS = _manifests()
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


def files_restored(command: str) -> set[str]:
    """Base names of the files a `git checkout -- …` or `git restore …` in a shell command
    brings back as committed ("." for all of them)."""
    names: set[str] = set()
    for words in command_segments(command):
        if len(words) < 3 or program_name(words[0]) != "git":
            continue
        if words[1] == "restore":
            if {"--staged", "-S"} & set(words) and not {"--worktree", "-W"} & set(words):
                continue  # unstaged only: the files stay as they are
            named = [word for word in words[2:] if not word.startswith("-")]
        elif words[1] == "checkout" and "--" in words:
            named = words[words.index("--") + 1 :]
        else:
            continue
        names |= {"." if word in (".", "./") else word.rsplit("/", 1)[-1] for word in named}
    return names


def restores_manifest_of(restored: set[str], manager: str) -> bool:
    """Whether restoring `restored` (`files_restored`) undoes what `manager` added."""
    return "." in restored or bool(restored & MANIFESTS.get(manager, frozenset()))
