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
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

_BOM = "\ufeff"
MAX_DEPTH = 128


class JsonError(ValueError):
    """Text that is not usable JSON; the message is one line meant for the user."""


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


def read_json(path: Path) -> Any:
    """The JSON value stored in `path`: OSError when unreadable, JsonError when not JSON."""
    return parse_json(path.read_bytes())
