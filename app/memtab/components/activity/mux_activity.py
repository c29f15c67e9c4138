"""Whether mux (or xum) is at work on a home: a running process, or recent writes."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from memtab.store.home import Home

RECENT_MS = 10 * 60_000
MUX_NAMES = frozenset({"mux", "xum", "cmux", "Mux", "Xum"})
_PS_TIMEOUT_S = 2.0


@dataclass(frozen=True)
class MuxActivity:
    """`running`: True (seen), False (surely not), None (cannot tell); `reason` says why."""

    running: bool | None
    reason: str

    @property
    def may_run(self) -> bool:
        """Whether a warning about a running mux is due (also when it cannot be told)."""
        return self.running is not False


def is_mux_command_line(argv: Iterable[str]) -> bool:
    """Whether a process's command line is mux's: its program, or the script node runs."""
    parts = [part for part in argv if part][:2]
    names = [os.path.basename(part.rstrip("/")) for part in parts]
    if names and names[0] in MUX_NAMES:
        return True
    return len(names) == 2 and names[0].startswith("node") and names[1] in MUX_NAMES


def _linux_command_lines(proc: Path) -> list[list[str]]:
    command_lines = []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            raw = (entry / "cmdline").read_bytes()
        except OSError:
            continue  # gone, or not ours to read
        command_lines.append([part.decode("utf-8", "replace") for part in raw.split(b"\0")])
    return command_lines


def _ps_command_lines() -> list[list[str]] | None:
    try:
        done = subprocess.run(
            ["ps", "-A", "-o", "comm="],
            capture_output=True,
            text=True,
            timeout=_PS_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return [[line.strip()] for line in done.stdout.splitlines() if line.strip()]


def running_command_lines(proc: Path = Path("/proc")) -> list[list[str]] | None:
    """The command lines of this user's visible processes (None: cannot be listed)."""
    if sys.platform.startswith("linux") and proc.is_dir():
        return _linux_command_lines(proc)
    return None if sys.platform == "win32" else _ps_command_lines()


def _newest_mux_write(home: Home) -> float | None:
    """The newest modification time (s) of the files only mux writes in a home."""
    paths = [home.extension_metadata_path]
    with contextlib.suppress(OSError):  # no sessions yet
        paths += [entry / "chat.jsonl" for entry in home.sessions_dir.iterdir()]
    times: list[float] = []
    for path in paths:
        with contextlib.suppress(OSError):  # gone, or unreadable
            times.append(path.stat().st_mtime)
    return max(times, default=None)


def mux_activity(
    home: Home,
    *,
    command_lines: Callable[[], list[list[str]] | None] = running_command_lines,
    clock: Callable[[], float] = time.time,
) -> MuxActivity:
    """Whether mux may be working on `home` right now."""
    listed = command_lines()
    if listed is not None and any(is_mux_command_line(argv) for argv in listed):
        return MuxActivity(True, "a mux process is running")
    newest = _newest_mux_write(home)
    if newest is not None and (clock() - newest) * 1000 < RECENT_MS:
        return MuxActivity(True, "mux wrote to this home in the last few minutes")
    if listed is None:
        return MuxActivity(None, "processes cannot be listed here")
    return MuxActivity(False, "no mux process and no recent mux writes")
