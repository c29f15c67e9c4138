"""Reading JSON written by other programs, tolerantly and safely.

Sidecars, the registry, trace dumps and model tool arguments come from mux, editors and
models: they may start with a UTF-8 BOM, use CRLF line ends, or nest deeply enough to
exhaust Python's recursion limit. `parse_json` turns all of that into either a value or a
`JsonError` with a one-line reason — never a `RecursionError`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_BOM = "\ufeff"


class JsonError(ValueError):
    """Text that is not usable JSON; the message is one line meant for the user."""


def parse_json(text: str | bytes) -> Any:
    """The value `text` holds (a leading BOM is ignored), or JsonError saying why not."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise JsonError(f"not UTF-8 text (byte {error.start})") from None
    if text.startswith(_BOM):
        text = text[1:]
    try:
        return json.loads(text)
    except RecursionError:
        raise JsonError("nested too deeply to read") from None
    except ValueError as error:
        raise JsonError(f"not valid JSON ({error})") from None


def read_json(path: Path) -> Any:
    """The JSON value stored in `path`: OSError when unreadable, JsonError when not JSON."""
    return parse_json(path.read_bytes())
