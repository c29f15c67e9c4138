"""The login entry each platform starts the recorder from (docs/formats.md §14.5), quoted by its own
rules and read back as it reads it: words it cannot hold are refused (`ServiceRefusedError`)."""

from __future__ import annotations

import plistlib
import re
from collections.abc import Sequence
from pathlib import Path

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
