"""Reading JSON written by other programs, tolerantly and safely.

Sidecars, the registry, trace dumps and model tool arguments come from mux, editors and
models: they may start with a UTF-8 BOM, use CRLF line ends, or nest deeply enough to
exhaust Python's recursion limit. `parse_json` turns all of that into either a value or a
`JsonError` with a one-line reason — never a `RecursionError`.

Nesting is capped at `MAX_DEPTH` levels, far below the recursion limit: a value that
`json.loads` can still build (a few hundred levels) would otherwise raise RecursionError
later, in whatever walks it (redaction, `json.dumps(indent=…)`, a GUI model). Real files
nest a dozen levels at most.

`finite_number` is the one rule for a number read from such a file.

`parse_strict_json` reads what must be JSON and nothing else (the MCP server's frames):
no BOM, no `NaN`/`Infinity`, no number past a float's range, no lone surrogate escape,
nesting capped as above.
"""

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
    """`value` when it is a finite JSON number, else None. `true` is no number, and an
    integer past a float's range is not finite, as mux's JavaScript reads it (Infinity)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return value if math.isfinite(value) else None
    except OverflowError:  # an integer of hundreds of digits
        return None


def _constant_as_null(name: str) -> None:
    return None


def parse_json(text: str | bytes, *, max_depth: int = MAX_DEPTH, nan_as_null: bool = False) -> Any:
    """The value `text` holds (a leading BOM is ignored), or JsonError saying why not.

    Arrays and objects nested more than `max_depth` levels are a JsonError too.
    `NaN`/`Infinity` (not JSON, but JSON5 writers such as mux's may emit them) are read as
    floats, so a file written back keeps them; `nan_as_null=True` reads them as null, for
    values that end up in JSON Memtab produces (events, requests).
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise JsonError(f"not UTF-8 text (byte {error.start})") from None
    if text.startswith(_BOM):
        text = text[1:]
    try:
        value = json.loads(text, parse_constant=_constant_as_null if nan_as_null else None)
    except RecursionError:
        raise JsonError("nested too deeply to read") from None
    except ValueError as error:
        raise JsonError(f"not valid JSON ({error})") from None
    # Fewer brackets than the limit cannot nest past it: most texts skip the walk.
    if text.count("[") + text.count("{") > max_depth and nesting_exceeds(value, max_depth):
        raise JsonError(f"nested too deeply to read (more than {max_depth} levels)")
    return value


def nesting_exceeds(value: Any, max_depth: int) -> bool:
    """True when arrays/objects in `value` nest more than `max_depth` levels (no recursion).

    Level by level, with exact type checks: this runs on every transcript line.
    """
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


def parse_strict_json(text: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """The value `text` holds as JSON (RFC 8259) and nothing more lenient.

    JsonError when it is not JSON: a leading BOM, `NaN` or `Infinity`, a raw control
    character (NUL…) in a string, anything after the value. JsonValueError when it is
    JSON holding what a strict reader refuses: arrays and objects nested more than
    `max_depth` levels, a lone surrogate escape (`"\\ud800"`, as JavaScript writes a
    broken pair), a number past a float's range (`1e999`).
    """
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
    """Whether a string (a key or a value) in `value` holds a lone surrogate; its nesting
    is already known to be bounded."""
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
