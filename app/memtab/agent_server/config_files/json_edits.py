"""The inverse edits of an agent's JSON file (docs/formats.md §22.6): items added to and taken out
of a list, a member taken out, what they leave empty taken out in turn, so removing what was added
gives back the bytes."""

from __future__ import annotations

import json
from typing import Any, Literal, Protocol

from memtab.agent_server.config_files import EditStatus
from memtab.agent_server.config_files.json_members import (
    _BOM,
    _REST_OF_LINE,
    JsonArray,
    JsonEditError,
    JsonObject,
    Member,
    _leading,
    _line_indent,
    member_value,
    scan,
    set_member,
)

RemoveStatus = Literal["removed", "unchanged"]


class _Entry(Protocol):
    """A member of an object or an item of a list, by position."""

    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def comma_end(self) -> int | None: ...


def list_value(text: str, path: tuple[str, ...], *, jsonc: bool = False) -> list[Any] | None:
    """The list at `path`, or None when there is none (a missing member, another value)."""
    there, value = member_value(text, path, jsonc=jsonc)
    return value if there and isinstance(value, list) else None


def add_items(
    text: str, path: tuple[str, ...], values: list[Any], *, jsonc: bool = False
) -> tuple[str, EditStatus]:
    """`text` with each of `values` the list at `path` lacks appended (list and objects made when
    missing); JsonEditError, also for a non-list."""
    if not text.strip(_BOM + " \t\r\n"):
        return set_member(text, path, list(values), jsonc=jsonc)
    there, current = member_value(text, path, jsonc=jsonc)
    if not there:
        return set_member(text, path, list(values), jsonc=jsonc)
    if not isinstance(current, list):
        _, member = _path_member(text, path, jsonc)
        what = "a list Memtab cannot read as plain JSON" if member.array else "no list"
        raise JsonEditError(f"holds a {'.'.join(path)!r} that is {what}")
    missing = [value for value in values if value not in current]
    if not missing:
        return text, "unchanged"
    parent, member = _path_member(text, path, jsonc)
    array = member.array
    if array is None:  # pragma: no cover - member_value read a list there
        raise JsonEditError(f"holds a {'.'.join(path)!r} Memtab cannot follow")
    edited = _append(text, parent, member, array, missing)
    if list_value(edited, path, jsonc=jsonc) != [*current, *missing]:  # pragma: no cover
        raise JsonEditError("could not be edited safely")
    return edited, "updated"


def remove_items(
    text: str, path: tuple[str, ...], values: list[Any], *, jsonc: bool = False
) -> tuple[str, RemoveStatus]:
    """`text` without `values` in the list at `path` (emptied lists going up)."""
    current = list_value(text, path, jsonc=jsonc)
    if current is None or not any(value in current for value in values):
        return text, "unchanged"
    if all(value in values for value in current):
        return remove_member(text, path, jsonc=jsonc)
    while True:
        _, member = _path_member(text, path, jsonc)
        array = member.array
        assert array is not None  # list_value read a list there
        index = next(
            (i for i, item in enumerate(array.items) if _parsed(text, item) in values), None
        )
        if index is None:
            return text, "removed"
        text = _cut(text, array.start, array.end, array.items, index)


def remove_member(
    text: str, path: tuple[str, ...], *, jsonc: bool = False
) -> tuple[str, RemoveStatus]:
    """`text` without the member at `path` (emptied objects going up, not the root);
    JsonEditError."""
    if not text.strip(_BOM + " \t\r\n"):
        return text, "unchanged"
    obj = scan(text, path, jsonc=jsonc)
    chain: list[tuple[JsonObject, Member]] = []
    for depth, key in enumerate(path):
        found = obj.find(key) if obj is not None else []
        if len(found) > 1:
            raise JsonEditError(f"holds {'.'.join(path[: depth + 1])!r} more than once")
        if not found:
            return text, "unchanged"
        assert obj is not None
        chain.append((obj, found[0]))
        obj = found[0].child
    depth = len(chain) - 1
    while depth > 0 and len(chain[depth][0].members) == 1:
        depth -= 1
    parent, member = chain[depth]
    edited = _cut(text, parent.start, parent.end, parent.members, parent.members.index(member))
    there, _ = member_value(edited, path, jsonc=jsonc)
    if there:  # pragma: no cover - a scanner fault, never written
        raise JsonEditError("could not be edited safely")
    return edited, "removed"


def _path_member(text: str, path: tuple[str, ...], jsonc: bool) -> tuple[JsonObject, Member]:
    """The member at `path` (there once: member_value said so) and its object."""
    obj = scan(text, path, jsonc=jsonc)
    parent: JsonObject | None = None
    member: Member | None = None
    for key in path:
        found = obj.find(key) if obj is not None else []
        if len(found) != 1:
            raise JsonEditError(f"holds {'.'.join(path)!r} more than once")
        parent, member = obj, found[0]
        obj = member.child
    assert parent is not None and member is not None
    return parent, member


def _parsed(text: str, item: _Entry) -> Any:
    try:
        return json.loads(text[item.start : item.end])
    except ValueError:  # comments inside: no value Memtab wrote
        return None


def _cut(text: str, start: int, end: int, entries: list[Any], index: int) -> str:
    """`text` without entry `index` of the container from `start` to `end`: with its lines when its
    own, else its span and a separator."""
    entry: _Entry = entries[index]
    stop = entry.comma_end if entry.comma_end is not None else entry.end
    inner_start, inner_end = start + 1, end - 1
    if len(entries) == 1:
        around = text[inner_start : entry.start] + text[stop:inner_end]
        if not around.strip(" \t\r\n"):
            return text[:inner_start] + text[inner_end:]
    last = index == len(entries) - 1
    previous: _Entry | None = entries[index - 1] if index > 0 else None
    # A comma that only separated the entry from the one before goes with it.
    drop_comma = last and previous is not None and entry.comma_end is None
    lines = _own_lines(text, entry.start, stop)
    if lines is not None:
        cut_from, cut_to = lines
    elif not last:
        cut_from, cut_to = entry.start, entries[index + 1].start
    elif previous is not None and previous.comma_end is not None:
        cut_from, cut_to = previous.comma_end - (1 if drop_comma else 0), stop
        drop_comma = False
    else:
        cut_from, cut_to = entry.start, stop
    edited = text[:cut_from] + text[cut_to:]
    if drop_comma and previous is not None and previous.comma_end is not None:
        comma = previous.comma_end - 1
        edited = edited[:comma] + edited[comma + 1 :]
    return edited


def _own_lines(text: str, start: int, stop: int) -> tuple[int, int] | None:
    """The span of the lines from `start` to `stop` when only spaces and a trailing comment share
    them; else None."""
    line_start = text.rfind("\n", 0, start) + 1
    if text[line_start:start].strip(" \t") or line_start == 0:
        return None
    rest = _REST_OF_LINE.match(text, stop)
    if rest is None:
        return None
    end = rest.end()
    end += 2 if text.startswith("\r\n", end) else 1
    return line_start, end


def _append(
    text: str, parent: JsonObject, member: Member, array: JsonArray, values: list[Any]
) -> str:
    """`text` with `values` appended to `array` (the value of `member` of `parent`)."""
    newline = "\r\n" if "\r\n" in text else "\n"
    rendered = [json.dumps(value, ensure_ascii=False) for value in values]
    items = array.items
    inner_start, inner_end = array.start + 1, array.end - 1
    if not items:
        if text[inner_start:inner_end].strip(" \t\r\n"):  # comments inside
            raise JsonEditError("holds a list with comments Memtab cannot add to")
        outer = _line_indent(text, member.key_start)
        if "\n" not in text[member.key_start : array.start] and _multiline_parent(text, member):
            unit = _unit(text, parent, member)
            body = "".join(f"{newline}{outer}{unit}{item}," for item in rendered)[:-1]
            return text[:inner_start] + body + newline + outer + text[inner_end:]
        return text[:inner_start] + ", ".join(rendered) + text[inner_start:]
    first, last = items[0], items[-1]
    trailing = last.comma_end is not None
    anchor = last.comma_end if last.comma_end is not None else last.end
    if "\n" in text[inner_start : first.start]:
        indent = _leading(text[text.rfind("\n", 0, first.start) + 1 : first.start])
        rest = _REST_OF_LINE.match(text, anchor)
        at = rest.end() if rest is not None else anchor
        addition = "".join(f",{newline}{indent}{item}" for item in rendered)[1:]
        addition = addition + ("," if trailing else "")
    else:
        at = anchor
        gap = text[first.comma_end : items[1].start] if len(items) > 1 and first.comma_end else " "
        separator = "," + (gap if not gap.strip() else " ")
        addition = separator[1:] + separator.join(rendered) + ("," if trailing else "")
    edited = text[:at] + addition + text[at:]
    if trailing:
        return edited
    return edited[: last.end] + "," + edited[last.end :]


def _multiline_parent(text: str, member: Member) -> bool:
    """Whether `member` sits on a line of its own (its object laid out one per line)."""
    line_start = text.rfind("\n", 0, member.key_start) + 1
    return line_start > 0 and not text[line_start : member.key_start].strip(" \t")


def _unit(text: str, parent: JsonObject, member: Member) -> str:
    """One level of indentation: how much deeper the member's line is than its object's."""
    outer = _line_indent(text, parent.start)
    indent = _line_indent(text, member.key_start)
    if indent.startswith(outer) and len(indent) > len(outer):
        return indent[len(outer) :]
    return "\t" if "\t" in indent else "  "
