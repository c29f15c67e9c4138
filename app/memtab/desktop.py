"""Linux desktop integration for this user (`memtab --install-desktop`): launcher, icon and
AppStream file under `$XDG_DATA_HOME`, the launcher naming the program running now."""

from __future__ import annotations

import logging
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from memtab.fs.atomic import atomic_write_text
from memtab.resources import resource_path

logger = logging.getLogger(__name__)

DESKTOP_FILE = "memtab.desktop"
METAINFO_FILE = "io.github.memtab.Memtab.metainfo.xml"
ICON_FILE = "memtab.svg"


class DesktopInstallError(Exception):
    """The desktop files cannot be installed (wrong platform, missing resources, disk)."""


def data_home() -> Path:
    """`$XDG_DATA_HOME`, else `~/.local/share` (the XDG base directory rule)."""
    value = os.environ.get("XDG_DATA_HOME", "").strip()
    if value and os.path.isabs(value):
        return Path(value)
    return Path.home() / ".local" / "share"


def launcher_command() -> str:
    """The command line the desktop entry runs to open Memtab's window."""
    if getattr(sys, "frozen", False):  # the PyInstaller bundle
        return _quote_exec(sys.executable)
    scripts = [Path(sysconfig.get_path("scripts"), name) for name in ("memtab", "memtab.exe")]
    found = next((str(path) for path in scripts if path.is_file()), None) or shutil.which("memtab")
    return _quote_exec(found) if found else _quote_exec(sys.executable) + " -m memtab"


def _quote_exec(argument: str) -> str:
    """One argument of a desktop entry's Exec key, quoted per the specification."""
    reserved = set(" \t\n\"'\\><~|&;$*?#()`")
    if not (set(argument) & reserved):
        return argument.replace("%", "%%")
    escaped = argument.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`")
    escaped = escaped.replace("$", "\\$").replace("%", "%%")
    # In a desktop file's string values, a backslash itself is escaped once more.
    return '"' + escaped.replace("\\", "\\\\") + '"'


def desktop_entry(command: str) -> str:
    """The bundled desktop entry with its Exec (and TryExec) pointing at `command`."""
    template = resource_path("desktop", DESKTOP_FILE).read_text(encoding="utf-8")
    lines = [
        f"Exec={command}" if line.startswith("Exec=") else line for line in template.splitlines()
    ]
    return "\n".join(lines) + "\n"


def install_desktop_files(target: Path | None = None) -> list[Path]:
    """Install launcher, icon and AppStream file under `target` (default `data_home()`),
    atomically; the installed paths."""
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        raise DesktopInstallError(
            "--install-desktop is for Linux and other XDG desktops "
            "(see packaging/README.md for macOS and Windows)"
        )
    root = target if target is not None else data_home()
    desktop = resource_path("desktop", DESKTOP_FILE)
    metainfo = resource_path("desktop", METAINFO_FILE)
    icon = resource_path("icons", ICON_FILE)
    missing = [str(path) for path in (desktop, metainfo, icon) if not path.is_file()]
    if missing:
        raise DesktopInstallError(f"This installation lacks {', '.join(missing)}")
    installed = {
        root / "applications" / DESKTOP_FILE: desktop_entry(launcher_command()),
        root / "metainfo" / METAINFO_FILE: metainfo.read_text(encoding="utf-8"),
        root / "icons/hicolor/scalable/apps" / ICON_FILE: icon.read_text(encoding="utf-8"),
    }
    try:
        for path, text in installed.items():
            atomic_write_text(path, text)
    except OSError as error:
        raise DesktopInstallError(
            f"Cannot write {error.filename or root}: {error.strerror or error}"
        ) from None
    logger.info("Installed the desktop files under %s", root)
    return list(installed)
