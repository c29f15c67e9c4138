"""Starting the recorder at login: `memtab watch --install`/`--uninstall` (docs/formats.md §14.5) as
a systemd user unit, a LaunchAgent or a Startup script, read back before anything starts; programs
run without a shell, with a time limit."""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from memtab.fs.atomic import atomic_write_bytes, encode_utf8
from memtab.fs.records import Record
from memtab.store.home import Home
from memtab.watch.service_files import (
    ServiceRefusedError,
    launch_agent,
    startup_entry,
    systemd_unit,
)

logger = logging.getLogger(__name__)

COMMAND_TIMEOUT_S = 20.0
UNIT_PREFIX = "memtab-watch-"
AGENT_PREFIX = "com.memtab.watch."


class Ran(Record):
    """One program run: its words, exit status and what it printed (stderr first)."""

    argv: tuple[str, ...]
    status: int
    said: str


class ServiceResult(Record):
    """What `--install`/`--uninstall` did: the file, the programs run, a closing word."""

    path: Path
    ran: tuple[Ran, ...] = ()
    note: str = ""


def home_id(home: Home) -> str:
    return hashlib.sha256(encode_utf8(str(home.root))).hexdigest()[:12]


def watch_command(home: Home) -> list[str]:
    """How the service starts the recorder: this Python (or the frozen bundle)."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "watch", "--home", str(home.root)]
    return [sys.executable, "-m", "memtab", "watch", "--home", str(home.root)]


def platform_name(platform: str | None = None) -> str:
    name = platform or sys.platform
    if name.startswith("linux"):
        return "linux"
    if name == "darwin":
        return "macos"
    if name in ("win32", "cygwin"):
        return "windows"
    return name


def service_path(
    home: Home, *, platform: str | None = None, env: Mapping[str, str] | None = None
) -> Path:
    """Where the login entry of `home`'s recorder is (written or not)."""
    environ = os.environ if env is None else env
    user_home = Path(environ.get("HOME") or Path.home())
    kind = platform_name(platform)
    if kind == "macos":
        return user_home / "Library" / "LaunchAgents" / f"{AGENT_PREFIX}{home_id(home)}.plist"
    if kind == "windows":
        appdata = Path(environ.get("APPDATA") or user_home / "AppData" / "Roaming")
        startup = appdata / "Microsoft" / "Windows" / "Start Menu" / "Programs" / "Startup"
        return startup / f"{UNIT_PREFIX}{home_id(home)}.cmd"
    config = Path(environ.get("XDG_CONFIG_HOME") or user_home / ".config")
    return config / "systemd" / "user" / f"{UNIT_PREFIX}{home_id(home)}.service"


def install(
    home: Home, *, platform: str | None = None, env: Mapping[str, str] | None = None
) -> ServiceResult:
    """Write the login entry for `home`'s recorder and start it where the platform can."""
    kind = platform_name(platform)
    path = service_path(home, platform=platform, env=env)
    command = watch_command(home)
    runs: list[Ran] = []
    note = ""
    if kind == "macos":
        atomic_write_bytes(path, launch_agent(f"{AGENT_PREFIX}{home_id(home)}", command))
        runs.append(_run(["launchctl", "bootstrap", f"gui/{os.getuid()}", str(path)], env))
    elif kind == "windows":
        atomic_write_bytes(path, encode_utf8(startup_entry(command)))
        note = "It starts at your next login; `memtab watch` starts it now."
    else:
        described = f"Memtab recorder for {home.root}: history of every agent's memory"
        text = systemd_unit(described, command)
        checked = _verified(text, path.name, env)
        if checked is not None:
            runs.append(checked)
        atomic_write_bytes(path, encode_utf8(text))
        unit = path.name
        for words in (["daemon-reload"], ["enable", "--now", unit]):
            ran = _run(["systemctl", "--user", *words], env)
            runs.append(ran)
            if ran.status != 0:
                note = _no_manager_note(ran, unit)
                break
    return ServiceResult(path=path, ran=tuple(runs), note=note)


def uninstall(
    home: Home, *, platform: str | None = None, env: Mapping[str, str] | None = None
) -> ServiceResult:
    """Stop the recorder's login entry and remove it (nothing to do when there is none)."""
    kind = platform_name(platform)
    path = service_path(home, platform=platform, env=env)
    runs: list[Ran] = []
    if kind == "macos" and path.exists():
        runs.append(_run(["launchctl", "bootout", f"gui/{os.getuid()}", str(path)], env))
    elif kind == "linux" and path.exists():
        runs.append(_run(["systemctl", "--user", "disable", "--now", path.name], env))
    existed = path.exists()
    path.unlink(missing_ok=True)
    if kind == "linux" and existed:
        runs.append(_run(["systemctl", "--user", "daemon-reload"], env))
    note = "" if existed else f"Nothing to remove: {path} does not exist."
    return ServiceResult(path=path, ran=tuple(runs), note=note)


def _verified(text: str, name: str, env: Mapping[str, str] | None) -> Ran | None:
    """`systemd-analyze verify` of unit `name` holding `text`, where installed (None: not);
    ServiceRefusedError when systemd would not load it."""
    with tempfile.TemporaryDirectory(prefix="memtab-unit-") as folder:
        unit = Path(folder) / name
        unit.write_bytes(encode_utf8(text))
        ran = _run(["systemd-analyze", "verify", str(unit)], env)
    if ran.status == 127:  # not installed: the unit was read back as it is written
        return None
    if ran.status != 0 and name in ran.said:
        raise ServiceRefusedError(f"systemd would not load the unit: {ran.said}")
    return Ran(argv=(*ran.argv[:-1], name), status=ran.status, said=ran.said)


def _no_manager_note(ran: Ran, unit: str) -> str:
    return (
        f"The unit is written, but `{' '.join(ran.argv)}` failed ({ran.said or ran.status}): "
        f"no systemd user manager runs here. It starts at your next login where one does "
        f"(`systemctl --user enable --now {unit}`); `memtab watch` starts the recorder now."
    )


def _run(argv: list[str], env: Mapping[str, str] | None) -> Ran:
    program = shutil.which(argv[0], path=(env or os.environ).get("PATH"))
    if program is None:
        return Ran(argv=tuple(argv), status=127, said=f"{argv[0]} is not installed")
    try:
        completed = subprocess.run(
            [program, *argv[1:]],
            capture_output=True,
            timeout=COMMAND_TIMEOUT_S,
            env=dict(env) if env is not None else None,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return Ran(argv=tuple(argv), status=124, said=f"no answer within {COMMAND_TIMEOUT_S:g} s")
    except OSError as error:
        return Ran(argv=tuple(argv), status=126, said=error.strerror or str(error))
    said = (completed.stderr + completed.stdout).decode("utf-8", "replace").strip()
    return Ran(argv=tuple(argv), status=completed.returncode, said=said)
