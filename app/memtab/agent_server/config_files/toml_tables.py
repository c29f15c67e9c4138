"""One table of an agent's TOML file set in place, every other character kept
(docs/formats.md §22.6).

`scan` reads a document `tomllib` has already accepted and says where each table header
and each `key = value` statement is: strings of all four kinds, arrays over several lines
and comments are stepped over, so a `[` inside a multi-line string or array is never taken
for a header. `set_keys` replaces the values of some keys of one `[table]` at their spans
(the keys' spelling, spacing and comments kept), adds the keys it lacks beside them, or adds
the table after the last table of its family (`[mcp_servers.*]`), and leaves every other
character as it was. The caller checks the result with `tomllib`.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field

_SPACE = re.compile(r"[ \t]*")
_BLANKS_AND_COMMENTS = re.compile(r"(?:[ \t\r\n]+|#[^\n]*)*")
_END_OF_LINE = re.compile(r"[ \t]*(?:#[^\n]*)?\r?(?:\n|\Z)")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_STRINGS = (
    re.compile(r'"""(?:[^"\\]++|\\[\s\S]|"{1,2}(?!"))*+"{3,5}'),
    re.compile(r"'''(?:[^']++|'{1,2}(?!'))*+'{3,5}"),
    re.compile(r'"(?:[^"\\\n]|\\.)*"'),
    re.compile(r"'[^'\n]*'"),
)
# Inside an array or inline table: anything but strings, comments and brackets.
_PLAIN = re.compile(r"[^\"'#\[\]{}]+")
# A value that is no string, array or table: a number, a date, a boolean.
_SCALAR = re.compile(r"[^#\r\n]*")


class TomlEditError(ValueError):
    """Text `set_keys` will not edit; the message is one line, for the user."""


@dataclass(frozen=True)
class Statement:
    """`key = value`: the line from `start`, the value from `value_start` to `value_end`,
    the line's end (after its newline) at `end`."""

    key: tuple[str, ...]
    start: int
    value_start: int
    value_end: int
    end: int


@dataclass
class Section:
    """A table header (`[a.b]` or `[[a.b]]`; none for the statements before the first)
    and its statements."""

    key: tuple[str, ...] | None
    array: bool
    start: int
    header_end: int
    statements: list[Statement] = field(default_factory=list)

    @property
    def end(self) -> int:
        """Just after its last line (its header's, when it has no statement)."""
        return self.statements[-1].end if self.statements else self.header_end


def scan(text: str) -> list[Section]:
    """The sections of `text`, a document `tomllib` accepts. Raises TomlEditError when
    the scan does not follow it (the file is then left alone)."""
    sections = [Section(None, False, 0, 0)]
    pos = 0
    size = len(text)
    while True:
        pos = _BLANKS_AND_COMMENTS.match(text, pos).end()  # type: ignore[union-attr]
        if pos >= size:
            return sections
        line_start = text.rfind("\n", 0, pos) + 1
        if text[pos] == "[":
            array = text.startswith("[[", pos)
            key, pos = _key(text, pos + (2 if array else 1))
            closing = "]]" if array else "]"
            if not text.startswith(closing, pos):
                raise _unexpected(text, pos)
            end = _line_end(text, pos + len(closing))
            sections.append(Section(key, array, line_start, end))
            pos = end
            continue
        key, pos = _key(text, pos)
        if not text.startswith("=", pos):
            raise _unexpected(text, pos)
        value_start = _SPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
        value_end = _value_end(text, value_start)
        end = _line_end(text, value_end)
        sections[-1].statements.append(Statement(key, line_start, value_start, value_end, end))
        pos = end


def _key(text: str, pos: int) -> tuple[tuple[str, ...], int]:
    """A dotted key at `pos` (spaces around it and its dots allowed), and where it ends."""
    parts: list[str] = []
    while True:
        pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
        bare = _BARE_KEY.match(text, pos)
        if bare is not None:
            parts.append(bare.group())
            pos = bare.end()
        elif text.startswith(('"', "'"), pos) and not text.startswith(('"""', "'''"), pos):
            quoted = _STRINGS[2 if text[pos] == '"' else 3].match(text, pos)
            if quoted is None:
                raise _unexpected(text, pos)
            parts.append(_decode_key(quoted.group()))
            pos = quoted.end()
        else:
            raise _unexpected(text, pos)
        pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
        if not text.startswith(".", pos):
            return tuple(parts), pos
        pos += 1


def _decode_key(quoted: str) -> str:
    # tomllib knows every escape of a basic string; a quoted key is short and rare.
    return next(iter(tomllib.loads(f"{quoted} = 0")))


def _string_end(text: str, pos: int) -> int | None:
    for pattern in _STRINGS:
        found = pattern.match(text, pos)
        if found is not None:
            return found.end()
    return None


def _value_end(text: str, pos: int) -> int:
    """Where the value starting at `pos` ends."""
    if pos >= len(text):
        raise _unexpected(text, pos)
    if text[pos] in "\"'":
        end = _string_end(text, pos)
        if end is None:
            raise _unexpected(text, pos)
        return end
    if text[pos] not in "[{":
        scalar = _SCALAR.match(text, pos).group()  # type: ignore[union-attr]
        return pos + len(scalar.rstrip(" \t"))
    depth = 0
    while pos < len(text):
        char = text[pos]
        if char in "[{":
            depth += 1
            pos += 1
        elif char in "]}":
            depth -= 1
            pos += 1
            if depth == 0:
                return pos
        elif char in "\"'":
            end = _string_end(text, pos)
            if end is None:
                raise _unexpected(text, pos)
            pos = end
        elif char == "#":
            newline = text.find("\n", pos)
            pos = len(text) if newline < 0 else newline
        else:
            pos = _PLAIN.match(text, pos).end()  # type: ignore[union-attr]
    raise _unexpected(text, pos)


def _line_end(text: str, pos: int) -> int:
    """Just after the newline ending the line at `pos` (spaces and a comment before it)."""
    found = _END_OF_LINE.match(text, pos)
    if found is None:
        raise _unexpected(text, pos)
    return found.end()


def _unexpected(text: str, pos: int) -> TomlEditError:
    line = text.count("\n", 0, pos) + 1
    return TomlEditError(f"cannot be followed at line {line}")


# --- editing ------------------------------------------------------------------------------


def set_keys(text: str, table: tuple[str, ...], values: dict[str, str]) -> str:
    """`text` with each key of `values` in the table `[table]` set to the TOML value text
    given (added after its neighbour in `values`' order when missing), or the table added
    with them; every other character as it was. Raises TomlEditError for a table Memtab
    cannot edit in place (an array of tables, a key of it set through a dotted key)."""
    sections = scan(text)
    newline = "\r\n" if "\r\n" in text else "\n"
    found = [section for section in sections if section.key == table]
    if any(section.array for section in found) or len(found) > 1:
        raise TomlEditError(f"declares [[{'.'.join(table)}]], an array of tables")
    if not found:
        return _add_table(text, sections, table, values, newline)
    section = found[0]
    replaced: dict[int, tuple[int, str]] = {}
    added: dict[int, list[str]] = {}
    indent = _indent(text, section.statements[0].start) if section.statements else ""
    keys = list(values)
    for index, (key, value) in enumerate(values.items()):
        mine = [st for st in section.statements if st.key[0] == key]
        if any(len(st.key) > 1 for st in mine):
            raise TomlEditError(f"sets {key!r} of [{'.'.join(table)}] through dotted keys")
        if mine:
            replaced[mine[0].value_start] = (mine[0].value_end, value)
        else:
            at = _beside(section, keys[:index], keys[index + 1 :])
            added.setdefault(at, []).append(f"{indent}{key} = {value}{newline}")
    for at in sorted({*replaced, *added}, reverse=True):
        if at in replaced:
            end, value = replaced[at]
            text = text[:at] + value + text[end:]
        if at in added:
            lines = "".join(added[at])
            if at == len(text) and text and not text.endswith("\n"):
                lines = newline + lines
            text = text[:at] + lines + text[at:]
    return text


def remove_tables(text: str, table: tuple[str, ...]) -> str:
    """`text` without the table `[table]` and the tables below it (`[table.*]`), each
    with the blank line that set it apart from the one before; every other character as
    it was. The caller checks the result with `tomllib` (a key of the table set through a
    dotted key or an inline table elsewhere stays: that check refuses it)."""
    sections = scan(text)
    mine = [
        s for s in sections if s.key is not None and s.key[: len(table)] == table and not s.array
    ]
    for section in reversed(mine):
        start = section.start
        before = text[:start]
        if before.endswith(("\n\n", "\n\r\n")):
            start -= 2 if before.endswith("\r\n\r\n") else 1
        text = text[:start] + text[section.end :]
    return text


def _beside(section: Section, before: list[str], after: list[str]) -> int:
    """Where a missing key goes: after the statement of a key before it in order, else
    before the statement of one after it, else right after the header."""
    for key in reversed(before):
        for statement in section.statements:
            if statement.key == (key,):
                return statement.end
    for key in after:
        for statement in section.statements:
            if statement.key == (key,):
                return statement.start
    return section.header_end


def _add_table(
    text: str,
    sections: list[Section],
    table: tuple[str, ...],
    values: dict[str, str],
    newline: str,
) -> str:
    """`text` with the table added after the last table of its family (the tables whose
    key starts as `table`'s: `[mcp_servers.*]`), else at the end."""
    family = [s for s in sections if s.key is not None and s.key[:1] == table[:1]]
    at = family[-1].end if family else len(text)
    indent = ""
    if family and family[-1].statements:
        indent = _indent(text, family[-1].statements[0].start)
    lines = [f"[{'.'.join(_toml_key(part) for part in table)}]"]
    lines += [f"{indent}{key} = {value}" for key, value in values.items()]
    block = newline.join(lines) + newline
    before = text[:at]
    if before and not before.endswith("\n"):
        block = newline + newline + block
    elif before.strip() and not before.endswith("\n\n") and not before.endswith("\r\n\r\n"):
        block = newline + block
    return before + block + text[at:]


def _toml_key(part: str) -> str:
    return part if _BARE_KEY.fullmatch(part) else toml_string(part)


def _indent(text: str, line_start: int) -> str:
    return _SPACE.match(text, line_start).group()  # type: ignore[union-attr]


def toml_string(value: str) -> str:
    """`value` as a TOML basic string: JSON's escapes are TOML's, but TOML also wants DEL
    escaped."""
    escaped = []
    for char in value:
        code = ord(char)
        if char in '"\\':
            escaped.append("\\" + char)
        elif code < 0x20 or code == 0x7F:
            named = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
            escaped.append(named.get(char, f"\\u{code:04x}"))
        else:
            escaped.append(char)
    return '"' + "".join(escaped) + '"'


def toml_array(values: list[str]) -> str:
    return "[" + ", ".join(toml_string(value) for value in values) + "]"
