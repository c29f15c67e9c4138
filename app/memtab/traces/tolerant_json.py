"""Reading a dump's top-level members from JSON that may be cut short, damaged or too deep. mux
writes dumps non-atomically, so a crash leaves a file cut mid-value; a disk or editor can corrupt
one member; a hostile or broken writer can nest arrays deeper than Python's decoder goes."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from memtab.fs.jsonfile import MAX_DEPTH, JsonError, nesting_exceeds, parse_json
from memtab.traces.describe import describe_value

PathPart = str | int


@dataclass
class Loaded:
    """The top-level members that could be read, and what went wrong, if anything."""

    text: str
    """The file's text (invalid UTF-8 replaced, a BOM dropped)."""
    values: dict[str, Any]
    problem: str | None = None


def load_members(data: bytes, wanted: frozenset[str] | None = None) -> Loaded:
    """The dump's top-level members (only `wanted` ones, if given), as far as readable."""
    try:
        text = data.decode("utf-8")
        not_utf8 = False
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="replace")
        not_utf8 = True
    if text.startswith("\ufeff"):
        text = text[1:]
    loaded = _load_text(text, wanted)
    if not_utf8:
        note = "Some bytes are not valid UTF-8 (shown as �)"
        loaded.problem = f"{loaded.problem}. {note}" if loaded.problem else note
    return loaded


def _load_text(text: str, wanted: frozenset[str] | None) -> Loaded:
    if not text.strip():
        return Loaded(text, {}, "The file is empty")
    if wanted is None:
        # The common case, at C speed; the member walk below is for damaged or partial reads.
        try:
            document = parse_json(text)
        except JsonError:
            pass
        else:
            return _document(text, document, None)
    members = _split_members(text)
    if members is None:
        return _load_whole(text, wanted)
    closed = _closing_brace(text) is not None
    values: dict[str, Any] = {}
    problem: str | None = None
    for index, (key, start, end) in enumerate(members):
        if wanted is not None and key not in wanted:
            continue
        chunk = text[start:end]
        try:
            values[key] = parse_json(chunk)
            continue
        except JsonError:
            failure = _why_not_json(chunk)
        value, _, _, cut = _recover_value(chunk, 0, 0)
        if not isinstance(value, _Missing):
            values[key] = value
        if problem is None:
            cut_short = index == len(members) - 1 and not closed and failure.at_end
            failure = _Failure(start + failure.position, failure.reason, failure.at_end)
            problem = _damage_note(text, failure, (key, *cut), cut_short)
    if not closed and problem is None:
        # The cut is in a member that was not decoded (or right after the last one).
        cut_at = _Failure(len(text), "", at_end=True)
        problem = _damage_note(text, cut_at, (members[-1][0],), cut_short=True)
    return Loaded(text, values, problem)


def _load_whole(text: str, wanted: frozenset[str] | None) -> Loaded:
    """Compact (single-line) JSON: parse all of it, recovering a prefix if it is damaged."""
    try:
        document = parse_json(text)
    except JsonError:
        failure = _why_not_json(text)
        value, _, _, cut = _recover_value(text, 0, 0)
        problem = _damage_note(text, failure, cut, failure.at_end)
        loaded = _document(text, value if isinstance(value, dict) else {}, problem)
    else:
        loaded = _document(text, document, None)
    if wanted is not None:
        loaded.values = {key: value for key, value in loaded.values.items() if key in wanted}
    return loaded


def _document(text: str, document: Any, problem: str | None) -> Loaded:
    if isinstance(document, dict):
        return Loaded(text, document, problem)
    return Loaded(text, {}, problem or f"The file holds {describe_value(document)}, not a dump")


# --- finding the members of a pretty-printed dump ------------------------------------------

_WHITESPACE: Final = re.compile(r"[ \t\n\r]*")
_KEY: Final = re.compile(r'"((?:[^"\\\n]|\\.)*)"[ \t]*:[ \t]*')


def _split_members(text: str) -> list[tuple[str, int, int]] | None:
    """Locate the top-level members of a pretty-printed object without parsing them."""
    brace = _skip_space(text, 0)
    if not text.startswith("{", brace):
        return None
    newline = text.find("\n", brace)
    if newline < 0 or text[brace + 1 : newline].strip():
        return None
    indent_end = newline + 1
    while indent_end < len(text) and text[indent_end] in " \t":
        indent_end += 1
    indent = text[newline + 1 : indent_end]
    if not indent or not text.startswith('"', indent_end):
        return None
    marker = "\n" + indent + '"'
    found: list[tuple[str, int]] = []
    position = newline
    while position >= 0:
        match = _KEY.match(text, position + len(marker) - 1)
        if match is None:
            return None
        key = _json_string(match.group(1))
        if key is None:
            return None
        found.append((key, match.end()))
        position = text.find(marker, match.end())
    closing = _closing_brace(text)
    ending = closing if closing is not None else _end_of_content(text, len(text))
    members = []
    for index, (key, start) in enumerate(found):
        if index + 1 < len(found):
            end = _end_of_content(text, text.rfind("\n", start, found[index + 1][1]), start)
            if text[end - 1 : end] == ",":
                end -= 1
        else:
            end = _end_of_content(text, ending, start)
        members.append((key, start, end))
    return members


def _json_string(body: str) -> str | None:
    """The string a JSON string literal's body (between the quotes) spells, or None."""
    try:
        value = parse_json(f'"{body}"')
    except JsonError:
        return None
    return value if isinstance(value, str) else None


def _end_of_content(text: str, end: int, start: int = 0) -> int:
    """`end` moved back over whitespace (like `rstrip`, without copying a huge string)."""
    while end > start and text[end - 1] in " \t\r\n":
        end -= 1
    return end


def _closing_brace(text: str) -> int | None:
    """Where the top-level `}` is, if the text ends with it alone on its line; else None."""
    end = _end_of_content(text, len(text))
    if text[end - 1 : end] != "}":
        return None
    line_start = text.rfind("\n", 0, end - 1)
    if line_start < 0 or text[line_start + 1 : end - 1].strip(" \t\r"):
        return None
    return end - 1


def _skip_space(text: str, position: int) -> int:
    match = _WHITESPACE.match(text, position)
    return match.end() if match else position


# --- saying what went wrong ----------------------------------------------------------------

_TOO_DEEP: Final = "nested too deeply"
_DECODER: Final = json.JSONDecoder()
# What is left when a file is cut inside a literal or a number: `tru`, `nul`, `-12.`.
_PARTIAL_SCALAR: Final = re.compile(r"t(r(ue?)?)?|f(a(l(se?)?)?)?|n(u(ll?)?)?|-?[0-9.eE+-]*")
_SHOWN_PATH_PARTS: Final = 6


@dataclass(frozen=True)
class _Failure:
    """Where and why decoding stopped."""

    position: int
    reason: str
    """The decoder's message, or `_TOO_DEEP`."""
    at_end: bool
    """The text ended where more was due (a cut), rather than holding bad content."""


def _decode_at(text: str, position: int, max_depth: int) -> tuple[Any, int] | _Failure:
    """The JSON value at `position` and where it ends, or why it cannot be decoded. Recovery needs
    to know where a value ends, which `parse_json` does not say; like it, a value nesting more than
    `max_depth` levels is a failure, never a RecursionError."""
    try:
        value, end = _DECODER.raw_decode(text, position)
    except json.JSONDecodeError as error:
        return _Failure(error.pos, error.msg, _hit_the_end(error))
    except RecursionError:
        return _Failure(position, _TOO_DEEP, at_end=False)
    brackets = text.count("[", position, end) + text.count("{", position, end)
    if brackets > max_depth and nesting_exceeds(value, max_depth):
        return _Failure(position, _TOO_DEEP, at_end=False)
    return value, end


def _why_not_json(text: str) -> _Failure:
    """Where `text`, which `parse_json` refused, stops being one JSON value."""
    decoded = _decode_at(text, _skip_space(text, 0), MAX_DEPTH)
    if isinstance(decoded, _Failure):
        return decoded
    end = _skip_space(text, decoded[1])
    return _Failure(end, "Extra data", at_end=False)


def _hit_the_end(error: json.JSONDecodeError) -> bool:
    """Whether the decoder failed because the text ended, not because of bad content."""
    if error.msg.startswith("Unterminated string"):
        return True
    rest = error.doc[error.pos :].strip()
    return _PARTIAL_SCALAR.fullmatch(rest) is not None


def _damage_note(text: str, failure: _Failure, cut: Sequence[PathPart], cut_short: bool) -> str:
    where = _format_path(cut)
    if failure.reason == _TOO_DEEP:
        inside = f" (in `{where}`)" if where else ""
        return f"The file is nested too deeply to read{inside}; showing what could be recovered"
    if cut_short:
        inside = f" inside `{where}`" if where else ""
        return f"The file is truncated (it ends{inside}); showing what could be recovered"
    position = failure.position
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    inside = f" in `{where}`" if where else ""
    return (
        f"The file is corrupt ({failure.reason} at line {line}, column {column}{inside}); "
        "showing what could be recovered"
    )


def _format_path(parts: Sequence[PathPart]) -> str:
    out = ""
    for part in parts[:_SHOWN_PATH_PARTS]:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out + ("…" if len(parts) > _SHOWN_PATH_PARTS else "")


# --- recovering the readable start of a damaged value --------------------------------------


class _Missing:
    """Nothing could be recovered at this position."""


_MISSING: Final = _Missing()
_PARTIAL_ESCAPE: Final = re.compile(r"\\(?:u[0-9a-fA-F]{0,3})?$")
Recovered = tuple[Any, int, bool, tuple[PathPart, ...]]
"""(value or _MISSING, end, complete, path to where reading stopped)."""


def _recover_value(text: str, position: int, depth: int) -> Recovered:
    """Decode the JSON value at `position`, or as much of it as a damaged text holds. `depth` counts
    the objects and arrays open around the value: together they nest no deeper than `MAX_DEPTH`, so
    recovery stops where `parse_json` would."""
    position = _skip_space(text, position)
    if position >= len(text):
        return _MISSING, position, False, ()
    decoded = _decode_at(text, position, MAX_DEPTH - depth)
    if not isinstance(decoded, _Failure):
        return decoded[0], decoded[1], True, ()
    opener = text[position]
    if opener in "{[" and depth >= MAX_DEPTH:
        return _MISSING, position, False, ()
    if opener in "{[":
        return _recover_container(text, position + 1, depth + 1, "}" if opener == "{" else "]")
    if opener == '"':
        return _recover_string(text, position), len(text), False, ()
    return _MISSING, position, False, ()


def _recover_container(text: str, position: int, depth: int, close: str) -> Recovered:
    """An object's members (`close` "}") or an array's items ("]"), as far as they read."""
    result: Any = {} if close == "}" else []
    while True:
        position = _skip_space(text, position)
        if text.startswith(close, position):
            return result, position + 1, True, ()
        if close == "}":
            match = _KEY.match(text, position)
            key: PathPart | None = None if match is None else _json_string(match.group(1))
            if match is None or key is None:
                return result, position, False, ()
            position = match.end()
        else:
            key = len(result)
        value, position, complete, cut = _recover_value(text, position, depth)
        if not isinstance(value, _Missing):
            if close == "}":
                result[key] = value
            else:
                result.append(value)
        if not complete:
            return result, position, False, (key, *cut)
        position = _skip_space(text, position)
        if text.startswith(",", position):
            position += 1
        elif text.startswith(close, position):
            return result, position + 1, True, ()
        else:
            return result, position, False, ()


def _recover_string(text: str, position: int) -> Any:
    """The readable start of a string cut off by the end of the file, or _MISSING."""
    body = _PARTIAL_ESCAPE.sub("", text[position + 1 :].rstrip("\n"))
    for trim in range(4):  # a cut inside a surrogate pair or escape leaves a few bad chars
        value = _json_string(body[: len(body) - trim])
        if value is not None:
            return value
    return _MISSING
