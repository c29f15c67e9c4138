"""Reading JSON written by other programs: a BOM, CRLF or deep nesting gives a value or a one-line
`JsonError`, never a `RecursionError` (nesting capped at `MAX_DEPTH`); `parse_strict_json` reads
what must be JSON and nothing else (the MCP server's frames)."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any, NoReturn

from memtab.fs.user_files import read_whole_regular_file

_BOM = "\ufeff"
MAX_DEPTH = 128
# An escape of a UTF-16 surrogate: only then can a parsed string hold a lone one.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class JsonError(ValueError):
    """Text that is not usable JSON; the message is one line meant for the user."""


class JsonValueError(JsonError):
    """Text that is JSON, holding a value a strict reader refuses (`parse_strict_json`)."""


def finite_number(value: Any) -> int | float | None:
    """`value` when it is a finite JSON number (not `true`, not past a float's range), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return value if math.isfinite(value) else None
    except OverflowError:  # an integer of hundreds of digits
        return None


def parse_json(text: str | bytes, *, max_depth: int = MAX_DEPTH, nan_as_null: bool = False) -> Any:
    """The value `text` holds (a leading BOM ignored), or JsonError, also past `max_depth` levels.
    `NaN`/`Infinity` read as floats (kept when written back), or null with `nan_as_null`."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise JsonError(f"not UTF-8 text (byte {error.start})") from None
    if text.startswith(_BOM):
        text = text[1:]
    try:
        value = json.loads(text, parse_constant=(lambda _: None) if nan_as_null else None)
    except RecursionError:
        raise JsonError("nested too deeply to read") from None
    except ValueError as error:
        raise JsonError(f"not valid JSON ({error})") from None
    # Fewer brackets than the limit cannot nest past it.
    if text.count("[") + text.count("{") > max_depth and nesting_exceeds(value, max_depth):
        raise JsonError(f"nested too deeply to read (more than {max_depth} levels)")
    return value


def nesting_exceeds(value: Any, max_depth: int) -> bool:
    """True when arrays/objects in `value` nest more than `max_depth` levels (no recursion)."""
    level: list[Any] = [value] if isinstance(value, dict | list) else []
    depth = 0
    while level:
        depth += 1
        if depth > max_depth:
            return True
        below: list[Any] = []
        for item in level:
            for child in item.values() if type(item) is dict else item:
                kind = type(child)
                if kind is dict or kind is list:
                    below.append(child)
        level = below
    return False


def strip_json_comments(text: str, *, trailing_commas: bool = False) -> str:
    """JSON with comments as plain JSON, as npm's `strip-json-comments` makes it: `//` and `/* */`
    outside strings blanked (line ends kept); with `trailing_commas`, a comma before `}` or `]`."""
    out: list[str] = []
    i, length = 0, len(text)
    in_string = False
    comma = -1  # where in `out` a comma stands that no value has followed yet
    while i < length:
        char = text[i]
        if in_string:
            out.append(char)
            if char == "\\" and i + 1 < length:
                out.append(text[i + 1])
                i += 2
                continue
            if char == '"':
                in_string = False
            i += 1
        elif char == '"':
            in_string = True
            comma = -1
            out.append(char)
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = length if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = length if end < 0 else end + 2
            out.append("".join(c if c in "\r\n" else " " for c in text[i:end]))
            i = end
        else:
            if trailing_commas and char not in " \t\r\n":
                if char in "}]" and comma >= 0:
                    out[comma] = " "
                comma = len(out) if char == "," else -1
            out.append(char)
            i += 1
    return "".join(out)


def parse_strict_json(text: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """The value `text` holds as RFC 8259 JSON: JsonError for a BOM, `NaN`, a raw control character
    or trailing text; JsonValueError past `max_depth`, for a lone surrogate escape or a number past
    a float's range."""
    if text.startswith(_BOM):
        raise JsonError("not valid JSON (it starts with a byte order mark)")
    try:
        value = json.loads(text, parse_constant=_not_json, parse_float=_finite_float)
    except JsonError:
        raise
    except RecursionError:
        raise JsonValueError(f"nested too deeply to read (more than {max_depth} levels)") from None
    except ValueError as error:
        raise JsonError(f"not valid JSON ({error})") from None
    if text.count("[") + text.count("{") > max_depth and nesting_exceeds(value, max_depth):
        raise JsonValueError(f"nested too deeply to read (more than {max_depth} levels)")
    if _SURROGATE_ESCAPE.search(text) and _holds_lone_surrogate(value):
        raise JsonValueError("a string holds a lone surrogate escape (half of a UTF-16 pair)")
    return value


def _not_json(name: str) -> NoReturn:
    raise JsonError(f"not valid JSON ({name} is not a JSON number)")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonValueError(f"a number past a float's range ({text[:40]})")
    return value


def _holds_lone_surrogate(value: Any) -> bool:
    """Whether a string (key or value) in `value` holds a lone surrogate."""
    pending = [value]
    while pending:
        item = pending.pop()
        if type(item) is dict:
            pending.extend(item.keys())
            pending.extend(item.values())
        elif type(item) is list:
            pending.extend(item)
        elif type(item) is str:
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
    return False


def read_json(path: Path) -> Any:
    """The JSON value stored in `path`: OSError when unreadable, JsonError when not JSON."""
    return parse_json(read_whole_regular_file(path))
