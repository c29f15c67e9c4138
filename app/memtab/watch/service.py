"""Starting the recorder at login: `memtab watch --install`/`--uninstall` (docs/formats.md §14.5) as
a systemd user unit, a LaunchAgent or a Startup script, each quoted by its own rules and read back
as it reads it before anything starts (words it cannot hold are refused); programs run without a
shell, with a time limit."""

from __future__ import annotations

import hashlib
import os
import plistlib
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from memtab.fs.atomic import atomic_write_bytes, encode_utf8
from memtab.fs.records import Record
from memtab.store.home import Home

UNIT_KEYS = (
    ("Unit", "Description"),
    ("Service", "Type"),
    ("Service", "ExecStart"),
    ("Service", "Restart"),
    ("Service", "RestartSec"),
    ("Service", "Nice"),
    ("Install", "WantedBy"),
)
"""The unit's settings, in order: reading back any other is a line the words broke."""
_LINE_END = re.compile(r"\r\n|\r|\n")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_ESCAPES |= {"\\": "\\", '"': '"', "'": "'", "s": " "}
_HEX = {"x": 2, "u": 4, "U": 8}


class ServiceRefusedError(ValueError):
    """The entry cannot run these words as they are; the message says why, for the user."""


def systemd_unit(description: str, command: Sequence[str]) -> str:
    """The unit's text, checked by reading it back; ServiceRefusedError."""
    for word in [*command, description]:
        _refuse_line_ends(word, "a systemd unit")
        try:
            word.encode("utf-8")
        except UnicodeEncodeError:
            raise ServiceRefusedError(
                f"{word!r} is not UTF-8: systemd ignores such a line of a unit"
            ) from None
    text = (
        "[Unit]\n"
        f"Description={description.replace('%', '%%')}\n"
        "\n"
        "[Service]\n"
        "Type=simple\n"
        f"ExecStart={' '.join(_systemd_word(word) for word in command)}\n"
        "Restart=on-failure\n"
        "RestartSec=10\n"
        "Nice=10\n"
        "\n"
        "[Install]\n"
        "WantedBy=default.target\n"
    )
    settings = read_unit(text)
    if [key for *key, _value in settings] != [list(key) for key in UNIT_KEYS]:
        raise ServiceRefusedError("the unit read back holds other settings than written")
    values = {key: value for _section, key, value in settings}
    if values["Description"].replace("%%", "%") != description:
        raise ServiceRefusedError("the unit's description does not read back as written")
    if exec_words(values["ExecStart"]) != list(command):
        raise ServiceRefusedError("the unit's ExecStart does not read back as the command")
    return text


def _systemd_word(word: str) -> str:
    escaped = word.replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%").replace("$", "$$")
    return f'"{escaped}"'


def read_unit(text: str) -> list[tuple[str, str, str]]:
    """Each setting of a unit file as systemd reads it: (section, key, value)."""
    settings: list[tuple[str, str, str]] = []
    section = ""
    pending = ""
    for raw in _LINE_END.split(text):
        line = pending + raw
        if line.endswith("\\") and not line.lstrip().startswith(("#", ";")):
            pending = line[:-1] + " "
            continue
        pending = ""
        stripped = line.strip()
        if not stripped or stripped[0] in "#;":
            continue
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped[1:-1]
            continue
        key, _, value = stripped.partition("=")
        settings.append((section, key.strip(), value.strip()))
    return settings


def exec_words(value: str) -> list[str] | None:
    """The words an `ExecStart=` value runs; None for what Memtab never writes."""
    if "%" in value.replace("%%", ""):  # another specifier, or a `%` alone
        return None
    words: list[str] = []
    value = value.replace("%%", "%")
    at, size = 0, len(value)
    while at < size:
        while at < size and value[at] in " \t":
            at += 1
        if at == size:
            break
        word: list[str] = []
        quote = ""
        while at < size and (quote or value[at] not in " \t"):
            char = value[at]
            if char == "\\":
                decoded, at = _escape(value, at + 1)
                if decoded is None:
                    return None
                word.append(decoded)
                continue
            if quote and char == quote:
                quote = ""
            elif not quote and char in "\"'":
                quote = char
            else:
                word.append(char)
            at += 1
        if quote:
            return None
        text = "".join(word)
        if "$" in text.replace("$$", ""):
            return None
        words.append(text.replace("$$", "$"))
    return words


def _escape(value: str, at: int) -> tuple[str | None, int]:
    """The character a backslash at `at - 1` stands for, and where reading goes on."""
    if at >= len(value):
        return None, at
    char = value[at]
    if char in _ESCAPES:
        return _ESCAPES[char], at + 1
    if char in _HEX:
        digits = value[at + 1 : at + 1 + _HEX[char]]
        if len(digits) == _HEX[char] and all(d in "0123456789abcdefABCDEF" for d in digits):
            return chr(int(digits, 16)), at + 1 + len(digits)
        return None, at
    digits = value[at : at + 3]
    if len(digits) == 3 and all(d in "01234567" for d in digits):
        return chr(int(digits, 8)), at + 3
    return None, at


def launch_agent(label: str, command: Sequence[str]) -> bytes:
    """The LaunchAgent's plist, checked by reading it back."""
    try:
        data = plistlib.dumps(
            {
                "Label": label,
                "ProgramArguments": list(command),
                "RunAtLoad": True,
                "KeepAlive": {"SuccessfulExit": False},
                "ProcessType": "Background",
            }
        )
    except ValueError:  # plistlib: "strings can't contain control characters"
        data = b""
    if not data or plistlib.loads(data).get("ProgramArguments") != list(command):
        raise ServiceRefusedError(
            "a LaunchAgent's XML cannot hold a carriage return or a control character, "
            f"which {_holder(command)} holds"
        )
    return data


def startup_entry(command: Sequence[str]) -> str:
    """The Startup folder's script (pythonw.exe beside python.exe), checked by reading it back."""
    program = Path(command[0])
    windowless = program.with_name("pythonw.exe")
    if program.name.lower() == "python.exe" and windowless.exists():
        command = [str(windowless), *command[1:]]
    for word in command:
        if '"' in word or _CONTROL.search(word):
            raise ServiceRefusedError(
                f"{word!r} holds a quote or a control character, which a Windows path never "
                "does and a startup script cannot pass on"
            )
    words = " ".join(f'"{word.replace("%", "%%")}"' for word in command)
    text = f'@echo off\r\nstart "" /min {words}\r\n'
    if read_startup_entry(text) != list(command):
        raise ServiceRefusedError("the startup script does not read back as the command")
    return text


def read_startup_entry(text: str) -> list[str] | None:
    """The words `startup_entry`'s script starts (None: not such a script)."""
    head = '@echo off\r\nstart "" /min '
    body = text.removeprefix(head).removesuffix("\r\n")
    if len(body) != len(text) - len(head) - 2 or len(body) < 2 or body[0] + body[-1] != '""':
        return None
    words = body[1:-1].split('" "')
    if any('"' in word for word in words):
        return None
    return [word.replace("%%", "%") for word in words]


def _refuse_line_ends(word: str, where: str) -> None:
    if "\n" in word or "\r" in word or "\0" in word:
        what = "a NUL" if "\n" not in word and "\r" not in word else "a line break"
        raise ServiceRefusedError(
            f"{word!r} holds {what}, which {where} cannot hold (each line is a "
            "setting of its own, and no quoting carries one): use a home whose path has "
            "none, or run `memtab watch` yourself"
        )


def _holder(command: Sequence[str]) -> str:
    odd = next((w for w in command if _CONTROL.search(w)), None)
    return repr(odd) if odd is not None else "the command"


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
    kinds = {"darwin": "macos", "win32": "windows", "cygwin": "windows"}
    return "linux" if name.startswith("linux") else kinds.get(name, name)


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
                note = (
                    f"The unit is written, but `{' '.join(ran.argv)}` failed "
                    f"({ran.said or ran.status}): no systemd user manager runs here. It starts at "
                    f"your next login where one does (`systemctl --user enable --now {unit}`); "
                    "`memtab watch` starts the recorder now."
                )
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
