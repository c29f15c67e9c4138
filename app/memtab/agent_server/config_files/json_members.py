"""One member of an agent's JSON file set in place, every other character kept (docs/formats.md
§22.6): `scan` reads JSON or JSONC as tokens with a stack (no depth limit) and says where the
members on a key path are; `set_member` splices at the span."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from memtab.agent_server.config_files import EditStatus
from memtab.fs.jsonfile import JsonError, parse_json, strip_json_comments

_BOM = "\ufeff"
_SPACE = re.compile(r"[ \t\n\r]*")
_SPACE_AND_COMMENTS = re.compile(r"(?:[ \t\n\r]++|//[^\n]*+|/\*.*?\*/)*+", re.DOTALL)
# A string, number, literal or punctuation; possessive, so an unterminated string fails in linear
# time.
_TOKEN = re.compile(
    r'"(?:[^"\\\x00-\x1f]++|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*+"'
    r"|-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?(?:[eE][+-]?[0-9]++)?"
    r"|true|false|null|[{}\[\]:,]"
)
# What may follow a member on its line: spaces, block comments, a line comment, one way only.
_REST_OF_LINE = re.compile(r"[ \t]*+(?:(?>/\*[^\n]*?\*/)[ \t]*+)*+(?://[^\n]*+)?(?=\r?\n)")

_KEY_SEPARATOR = re.compile(r"[ \t]*:[ \t]*")
_SPACES = re.compile(r"[ \t]*")

# What the scanner expects next.
_VALUE, _KEY_OR_END, _COLON, _COMMA_OR_END, _VALUE_OR_END, _DONE = range(6)


class JsonEditError(ValueError):
    """Text `set_member` will not edit; the message is one line, for the user."""


@dataclass
class Member:
    """One `"key": value` of a scanned object, by position in the text."""

    key: str
    key_start: int
    key_end: int
    value_start: int = -1
    value_end: int = -1
    comma_end: int | None = None  # just after the comma that follows the value
    child: JsonObject | None = None  # the value, when it is an object on the key path
    array: JsonArray | None = None  # the value, when it is the list the key path ends at

    @property
    def start(self) -> int:
        return self.key_start

    @property
    def end(self) -> int:
        return self.value_end


@dataclass
class Item:
    """One value of a scanned list, by position in the text."""

    start: int
    end: int = -1
    comma_end: int | None = None


@dataclass
class JsonArray:
    """The list the key path ends at: `[` at `start`, `]` just before `end`."""

    start: int
    end: int = -1
    items: list[Item] = field(default_factory=list)


@dataclass
class JsonObject:
    """An object of the scanned text: `{` at `start`, `}` just before `end`."""

    start: int
    end: int = -1
    members: list[Member] = field(default_factory=list)

    def find(self, key: str) -> list[Member]:
        return [member for member in self.members if member.key == key]


@dataclass
class _Frame:
    kind: str  # "{" or "["
    start: int
    obj: JsonObject | None  # recorded: the root object, or one on the key path
    level: int  # for a recorded object: how many keys of the path lead to it
    member: Member | None = None  # the recorded member being read
    after_comma: bool = False
    array: JsonArray | None = None  # recorded: the list the key path ends at


def scan(text: str, path: tuple[str, ...] = (), *, jsonc: bool = False) -> JsonObject | None:
    """The root object of `text` with the members of each object on `path` (`Member.child`) and the
    items of a list at `path` (`Member.array`); None when the root is no object. JsonEditError when
    not one JSON (JSONC) value."""
    skip = _SPACE_AND_COMMENTS if jsonc else _SPACE
    pos = len(_BOM) if text.startswith(_BOM) else 0
    stack: list[_Frame] = []
    state = _VALUE
    root: JsonObject | None = None
    size = len(text)
    while True:
        pos = skip.match(text, pos).end()  # type: ignore[union-attr]  # always matches
        if pos >= size:
            break
        token = _TOKEN.match(text, pos)
        if token is None or state == _DONE:
            raise JsonEditError(_where(text, pos, "is not valid JSON"))
        start, end = pos, token.end()
        char = text[start]
        frame = stack[-1] if stack else None
        pos = end
        if state == _KEY_OR_END and char == '"':
            state = _COLON
            if frame is not None and frame.obj is not None:
                frame.member = Member(_decode_key(text[start:end]), start, end)
                frame.obj.members.append(frame.member)
            continue
        if state == _COLON and char == ":":
            state = _VALUE
            continue
        if char in "}]" and frame is not None and _closes(state, frame, char, jsonc):
            stack.pop()
            if frame.obj is not None:
                frame.obj.end = end
            if frame.array is not None:
                frame.array.end = end
            state = _value_done(stack, frame.start, end)
            continue
        if state == _COMMA_OR_END and char == "," and frame is not None:
            if frame.member is not None:
                frame.member.comma_end = end
            if frame.array is not None:
                frame.array.items[-1].comma_end = end
            frame.after_comma = True
            state = _KEY_OR_END if frame.kind == "{" else _VALUE_OR_END
            continue
        if state not in (_VALUE, _VALUE_OR_END) or char in ":,}]":
            raise JsonEditError(_where(text, start, "is not valid JSON"))
        member = frame.member if frame is not None else None
        if member is not None:
            member.value_start = start
        if frame is not None and frame.array is not None:
            frame.array.items.append(Item(start))
        if char in "{[":
            opened = _opened(char, start, frame, member, path)
            if frame is None:
                root = opened.obj
            # off the path, from a recorded object or list (a subtree the loop failed to skip once:
            # never again inside it)
            recorded = frame is None or frame.obj is not None or frame.array is not None
            if opened.obj is None and opened.array is None and recorded:
                skipped = _skip_value(text, start)
                if skipped is not None:
                    pos = skipped
                    state = _value_done(stack, start, skipped)
                    continue
            stack.append(opened)
            state = _KEY_OR_END if char == "{" else _VALUE_OR_END
            continue
        state = _value_done(stack, start, end)
    if state != _DONE:
        raise JsonEditError(_where(text, size, "is not valid JSON: it ends before its value does"))
    return root


def _opened(
    char: str, start: int, parent: _Frame | None, member: Member | None, path: tuple[str, ...]
) -> _Frame:
    """The frame of a container opening at `start`: an object recorded as the root or on `path`, a
    list at its end."""
    if char == "[":
        if (
            parent is not None
            and parent.obj is not None
            and member is not None
            and parent.level == len(path) - 1
            and member.key == path[-1]
        ):
            member.array = JsonArray(start)
            return _Frame("[", start, None, 0, array=member.array)
        return _Frame("[", start, None, 0)
    if parent is None:
        return _Frame("{", start, JsonObject(start), 0)
    if parent.obj is None or member is None:
        return _Frame("{", start, None, 0)
    level = parent.level
    if level < len(path) and member.key == path[level]:
        member.child = JsonObject(start)
        return _Frame("{", start, member.child, level + 1)
    return _Frame("{", start, None, 0)


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_no_constant)


def _skip_value(text: str, start: int) -> int | None:
    """Where the container at `start` ends, read at C speed when plain JSON; None when the token
    loop must read it."""
    try:
        return _DECODER.raw_decode(text, start)[1]
    except (ValueError, RecursionError):
        return None


def _closes(state: int, frame: _Frame, char: str, jsonc: bool) -> bool:
    """Whether `char` may close `frame` here (JSONC: after a trailing comma too)."""
    if (frame.kind == "{") != (char == "}"):
        return False
    if state == _COMMA_OR_END:
        return True
    opening = _KEY_OR_END if frame.kind == "{" else _VALUE_OR_END
    return state == opening and (not frame.after_comma or jsonc)


def _value_done(stack: list[_Frame], start: int, end: int) -> int:
    """The state after a value that ends at `end`."""
    if not stack:
        return _DONE
    frame = stack[-1]
    if frame.member is not None:
        frame.member.value_end = end
    if frame.array is not None:
        frame.array.items[-1].end = end
    return _COMMA_OR_END


def _decode_key(token: str) -> str:
    if "\\" not in token:
        return token[1:-1]
    key: str = json.loads(token)
    return key


def _where(text: str, pos: int, what: str) -> str:
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return f"{what} (line {line}, column {column})"


@dataclass(frozen=True)
class _Layout:
    """How an object's members are written: each on a line at `member_indent`, or on one."""

    multiline: bool
    indent: str
    member_indent: str
    unit: str
    key_sep: str
    item_sep: str
    newline: str


def member_value(text: str, path: tuple[str, ...], *, jsonc: bool = False) -> tuple[bool, Any]:
    """Whether the member at `path` is there once, and its value (None when it cannot be read).
    JsonEditError."""
    obj = scan(text, path, jsonc=jsonc)
    for depth, key in enumerate(path):
        found = obj.find(key) if obj is not None else []
        if len(found) != 1:
            return False, None
        if depth == len(path) - 1:
            return True, _value_of(text, found[0], jsonc=jsonc)
        obj = found[0].child
    return False, None


def set_member(
    text: str, path: tuple[str, ...], value: Any, *, jsonc: bool = False
) -> tuple[str, EditStatus]:
    """`text` with the member at `path` set to `value` (objects on the way made), every other
    character kept. JsonEditError for non-JSON, a non-object on the way or a repeated key."""
    if not text.strip(_BOM + " \t\r\n"):
        return json.dumps(_nested(path, value), indent=2, ensure_ascii=False) + "\n", "added"
    obj = scan(text, path, jsonc=jsonc)
    if obj is None:
        raise JsonEditError("does not hold a JSON object")
    newline = "\r\n" if "\r\n" in text else "\n"
    layout = _layout(text, obj, None, newline)
    for depth, key in enumerate(path):
        dotted = ".".join(path[: depth + 1])
        found = obj.find(key)
        if len(found) > 1:
            raise JsonEditError(f"holds {dotted!r} more than once")
        if not found:
            edited = _insert(text, obj, layout, key, _nested(path[depth + 1 :], value))
            status: EditStatus = "added"
            break
        member = found[0]
        if depth == len(path) - 1:
            if _value_of(text, member, jsonc=jsonc) == value:
                return text, "unchanged"
            indent = _line_indent(text, member.key_start) if layout.multiline else ""
            rendered = _render(value, layout, indent)
            edited = text[: member.value_start] + rendered + text[member.value_end :]
            status = "updated"
            break
        if member.child is None:
            raise JsonEditError(f"holds a {dotted!r} that is not a JSON object")
        obj = member.child
        layout = _layout(text, obj, layout, newline)
    else:  # pragma: no cover - an empty path
        raise JsonEditError("names no member")
    there, now = member_value(edited, path, jsonc=jsonc)
    if not there or now != value:  # pragma: no cover - a scanner fault, never written
        raise JsonEditError("could not be edited safely")
    return edited, status


def _nested(path: tuple[str, ...], value: Any) -> Any:
    for key in reversed(path):
        value = {key: value}
    return value


def _value_of(text: str, member: Member, *, jsonc: bool = False) -> Any:
    """The member's value; None when it cannot be read (comments in plain JSON)."""
    value_text = text[member.value_start : member.value_end]
    try:
        return parse_json(value_text)
    except JsonError:
        if not jsonc:
            return None
    try:
        return parse_json(strip_json_comments(value_text, trailing_commas=True))
    except JsonError:
        return None


def _line_indent(text: str, pos: int) -> str:
    """The spaces and tabs that start the line holding `pos`."""
    return _leading(text[text.rfind("\n", 0, pos) + 1 : pos])


def _leading(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _layout(text: str, obj: JsonObject, outer: _Layout | None, newline: str) -> _Layout:
    """How `obj`'s members are laid out (an empty object: as its parent's)."""
    indent = _line_indent(text, obj.start)
    unit = outer.unit if outer is not None else "  "
    key_sep = outer.key_sep if outer is not None else ": "
    item_sep = outer.item_sep if outer is not None else ", "
    if not obj.members:
        inner = text[obj.start + 1 : obj.end - 1]
        if "\n" not in inner:
            multiline = outer.multiline if outer is not None else True
            return _Layout(multiline, indent, indent + unit, unit, key_sep, item_sep, newline)
        lines = [line for line in inner.split("\n")[1:] if line.strip(" \t\r")]
        member_indent = _leading(lines[0]) if lines else indent + unit
        return _Layout(True, indent, member_indent, unit, key_sep, item_sep, newline)
    first = obj.members[0]
    multiline = "\n" in text[obj.start : first.key_start]
    between = text[first.key_end : first.value_start]
    if _KEY_SEPARATOR.fullmatch(between):
        key_sep = ":" + between.split(":", 1)[1]
    if multiline:
        member_indent = _line_indent(text, first.key_start)
        if member_indent.startswith(indent) and len(member_indent) > len(indent):
            unit = member_indent[len(indent) :]
        return _Layout(True, indent, member_indent, unit, key_sep, item_sep, newline)
    if len(obj.members) > 1 and first.comma_end is not None:
        gap = text[first.comma_end : obj.members[1].key_start]
        item_sep = "," + gap if _SPACES.fullmatch(gap) else item_sep
    return _Layout(False, indent, "", unit, key_sep, item_sep, newline)


def _render(value: Any, layout: _Layout, indent: str) -> str:
    """`value` as JSON text laid out as `layout` says, later lines at `indent`."""
    if not layout.multiline:
        return json.dumps(value, ensure_ascii=False, separators=(layout.item_sep, layout.key_sep))
    text = json.dumps(
        value, ensure_ascii=False, indent=layout.unit, separators=(",", layout.key_sep)
    )
    return text.replace("\n", layout.newline + indent)


def _insert(text: str, obj: JsonObject, layout: _Layout, key: str, value: Any) -> str:
    """`text` with `"key": value` added as `obj`'s last member."""
    member = json.dumps(key, ensure_ascii=False) + layout.key_sep
    member += _render(value, layout, layout.member_indent)
    newline = layout.newline
    if not obj.members:
        inner_start, inner_end = obj.start + 1, obj.end - 1
        if not text[inner_start:inner_end].strip(" \t\r\n"):
            body = newline + layout.member_indent + member + newline + layout.indent
            return text[:inner_start] + (body if layout.multiline else member) + text[inner_end:]
        if not layout.multiline:
            return text[:inner_start] + member + text[inner_start:]
        # comments inside: the member goes on a line of its own before the brace
        cut = text.rfind("\n", inner_start, inner_end)
        if cut < 0:
            addition = newline + layout.member_indent + member + newline + layout.indent
            return text[:inner_end] + addition + text[inner_end:]
        cut -= 1 if text[cut - 1] == "\r" else 0
        return text[:cut] + newline + layout.member_indent + member + text[cut:]
    last = obj.members[-1]
    trailing_comma = last.comma_end is not None
    anchor = last.comma_end if last.comma_end is not None else last.value_end
    if layout.multiline:
        rest = _REST_OF_LINE.match(text, anchor)
        at = rest.end() if rest is not None else anchor
        addition = newline + layout.member_indent + member + ("," if trailing_comma else "")
    else:
        at = anchor
        addition = layout.item_sep[1:] + member + ("," if trailing_comma else "")
    edited = text[:at] + addition + text[at:]
    if trailing_comma:
        return edited
    return edited[: last.value_end] + "," + edited[last.value_end :]
