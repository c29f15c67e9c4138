"""Which program opens a memory file "in an external editor" — no Qt."""

from __future__ import annotations

import logging
import os
import shlex
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

EDITOR_VARIABLES = ("VISUAL", "EDITOR")

TERMINAL_EDITORS = frozenset(
    {
        "vi", "vim", "nvim", "view", "nano", "pico", "micro", "hx", "helix", "kak", "joe",
        "jed", "ne", "mg", "ed", "vis", "mcedit", "amp", "kilo", "elvis", "nvi", "ex",
    }
)  # fmt: skip
_EMACS_TERMINAL_FLAGS = frozenset({"-nw", "-t", "--no-window-system", "--tty"})

# Terminal emulators and what comes before the command they should run.
_TERMINALS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("x-terminal-emulator", ("-e",)),
    ("gnome-terminal", ("--",)),
    ("konsole", ("-e",)),
    ("xfce4-terminal", ("-x",)),
    ("kitty", ()),
    ("alacritty", ("-e",)),
    ("foot", ()),
    ("wezterm", ("start", "--")),
    ("xterm", ("-e",)),
)

Which = Callable[[str], str | None]


@dataclass(frozen=True)
class EditorLaunch:
    """How to open a file: a command, or (argv None) the desktop default."""

    argv: tuple[str, ...] | None
    name: str  # For messages: "vim (from $EDITOR)", "the desktop's default application".
    problem: str | None = None  # Why the configured editor cannot be used (then nothing is opened).


DESKTOP_DEFAULT = EditorLaunch(None, "the desktop's default application")


def is_terminal_editor(argv: list[str]) -> bool:
    """Whether the command is an editor that runs inside a terminal."""
    program = os.path.basename(argv[0])
    if program in ("emacs", "emacsclient"):
        return any(flag in _EMACS_TERMINAL_FLAGS for flag in argv[1:])
    return program in TERMINAL_EDITORS


def terminal_prefix(environ: Mapping[str, str], which: Which = shutil.which) -> list[str] | None:
    """The command that runs another command in a new terminal window, or None."""
    preferred = environ.get("TERMINAL", "").strip()
    if preferred:
        try:
            argv = shlex.split(preferred)
        except ValueError:
            argv = []
        if argv and which(argv[0]):
            known = dict(_TERMINALS).get(os.path.basename(argv[0]), ("-e",))
            return [*argv, *known]
    for program, flags in _TERMINALS:
        if which(program):
            return [program, *flags]
    return None


def editor_launch(
    path: Path,
    environ: Mapping[str, str],
    *,
    which: Which = shutil.which,
    linux_desktop: bool = True,
) -> EditorLaunch:
    """How to open `path`. `linux_desktop`: terminal editors
    may be wrapped in a terminal emulator (elsewhere they fall back to the desktop)."""
    for variable in EDITOR_VARIABLES:
        value = environ.get(variable, "").strip()
        if not value:
            continue
        try:
            argv = shlex.split(value)
        except ValueError as error:
            problem = f"${variable} ({value}) cannot be read: {error}"
            return EditorLaunch(None, f"${variable}", problem)
        if not argv:
            continue
        name = f"{os.path.basename(argv[0])} (from ${variable})"
        if which(argv[0]) is None:
            problem = f"${variable} names {argv[0]}, which is not installed or not on the PATH"
            return EditorLaunch(None, name, problem)
        if not is_terminal_editor(argv):
            return EditorLaunch((*argv, str(path)), name)
        prefix = terminal_prefix(environ, which) if linux_desktop else None
        if prefix is None:
            logger.info("%s needs a terminal and none was found; using the desktop default", name)
            return EditorLaunch(None, f"{DESKTOP_DEFAULT.name} ({name} needs a terminal)")
        return EditorLaunch((*prefix, *argv, str(path)), f"{name} in {os.path.basename(prefix[0])}")
    return DESKTOP_DEFAULT
