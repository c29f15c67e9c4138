"""The ids of JSON-RPC frames read from their text without the SDK, for the frame guard and the
bridge alike."""

from __future__ import annotations

import json

RequestId = int | str
# How much of a frame's start and end its id is looked for in.
ID_WINDOW_CHARS = 4096
JSON_SPACE = " \t\r\n"
_SCALAR_CHARACTERS = frozenset("-+.0123456789eEtruefalsn")
_LENIENT = json.JSONDecoder(strict=False)  # control characters in strings: what a NUL breaks


def request_id(members: dict[str, object]) -> RequestId | None:
    """A request's id when a string or integer an answer can carry; else None."""
    if "method" not in members:
        return None  # an answer's id is the server's own request's: never answered
    value = members.get("id")
    if type(value) is int:
        return value
    if type(value) is str:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: no answer can carry it
            return None
        return value
    return None


def frame_id(head: str, tail: str) -> RequestId | None:
    """The id of a request not read whole, from the members at its start and end (clients write it
    first or last)."""
    first = _leading_members(head[:ID_WINDOW_CHARS])
    return request_id({**first, **_trailing_members(tail[-ID_WINDOW_CHARS:])})


def _leading_members(head: str) -> dict[str, object]:
    """The members at the start of a JSON object's text, as far as they can be read."""
    members: dict[str, object] = {}
    index = _over_space(head, len(head) - len(head.lstrip("\ufeff")))
    if not head.startswith("{", index):
        return members
    index += 1
    try:
        while True:
            index = _over_space(head, index)
            key, index = _LENIENT.raw_decode(head, index)
            index = _over_space(head, index)
            if type(key) is not str or not head.startswith(":", index):
                return members
            value, index = _LENIENT.raw_decode(head, _over_space(head, index + 1))
            members[key] = value
            index = _over_space(head, index)
            if not head.startswith(",", index):
                return members
            index += 1
    except (ValueError, RecursionError):
        return members


def _trailing_members(tail: str) -> dict[str, object]:
    """The plain-valued members at the end of an object's text, read back to front."""
    members: dict[str, object] = {}
    end = _back_over_space(tail, len(tail))
    if not tail.startswith("}", end - 1):
        return members
    end -= 1
    while True:
        end = _back_over_space(tail, end)
        start = _token_start(tail, end)
        colon = _back_over_space(tail, start)
        if start == end or not tail.startswith(":", colon - 1):
            return members
        key_end = _back_over_space(tail, colon - 1)
        key_start = _token_start(tail, key_end)
        try:
            key = _LENIENT.decode(tail[key_start:key_end])
            value = _LENIENT.decode(tail[start:end])
        except (ValueError, RecursionError):
            return members
        if type(key) is not str or isinstance(value, dict | list):
            return members
        members.setdefault(key, value)  # read back to front: the first seen is the last
        comma = _back_over_space(tail, key_start)
        if not tail.startswith(",", comma - 1):
            return members
        end = comma - 1


def _over_space(text: str, index: int) -> int:
    while index < len(text) and text[index] in JSON_SPACE:
        index += 1
    return index


def _back_over_space(text: str, end: int) -> int:
    while end > 0 and text[end - 1] in JSON_SPACE:
        end -= 1
    return end


def _token_start(text: str, end: int) -> int:
    """Where the string, number or literal ending at `end` starts (`end` when none does)."""
    if text.startswith('"', end - 1):
        index = end - 1
        while (index := text.rfind('"', 0, index)) >= 0:
            backslashes = 0
            while index - backslashes > 0 and text[index - backslashes - 1] == "\\":
                backslashes += 1
            if backslashes % 2 == 0:
                return index
        return end
    start = end
    while start > 0 and text[start - 1] in _SCALAR_CHARACTERS:
        start -= 1
    return start
