"""One table of an agent's TOML file set or taken out in its tomlkit document, every other character
kept (docs/formats.md §22.6), placed so uninstall takes out exactly what install added; tables
Memtab cannot edit in place are refused."""

from __future__ import annotations

from typing import Any

import tomlkit
from tomlkit.container import Container
from tomlkit.items import AoT, Comment, Item, SingleKey, Table, Trivia, Whitespace
from tomlkit.toml_document import TOMLDocument


class TomlEditError(ValueError):
    """A table `set_table` or `remove_table` will not edit; the message is one line."""


Chain = list[tuple[Table | None, Container]]
"""The tables from the document down to one (None: the document), each with its container."""


def set_table(
    document: TOMLDocument, table: tuple[str, ...], values: dict[str, Any], newline: str
) -> None:
    """Set each key of `values` in `[table]` of `document`; `newline`: how the file's lines end."""
    chain = _chain(document, table[:-1], create=True)
    assert chain is not None
    found = _find(chain[-1][1], table)
    if found is None:
        _add_table(document, chain, table, values, newline)
        return
    own = _own_table(found, table)
    body = own.value
    indent = _first_indent(own)
    keys = list(values)
    for index, (key, value) in enumerate(values.items()):
        current = body.get(key)
        if isinstance(current, Table | AoT):
            raise TomlEditError(f"sets {key!r} of [{'.'.join(table)}] through dotted keys")
        if current is not None:
            own[key] = value  # the key's spelling, spacing and comment kept
            continue
        item = _line(value, indent, newline)
        before = [k for k in keys[:index] if _holds_value(body, k)]
        after = [k for k in keys[index + 1 :] if _holds_value(body, k)]
        if before:
            _end_line(body.body[_index(body, before[-1])][1], newline)
            body._insert_after(before[-1], key, item)
        elif after:
            body._insert_at(_index(body, after[0]), key, item)
        elif body.body:
            body._insert_at(0, key, item)
        else:
            _end_line(own, newline)
            body.append(key, item)


def ending_as(original: str, updated: str) -> str:
    """`updated` ending as `original` did (no last newline stays none)."""
    if original and not original.endswith("\n"):
        for newline in ("\r\n", "\n"):
            if updated.endswith(newline):
                return updated[: -len(newline)]
    return updated


def remove_table(document: TOMLDocument, table: tuple[str, ...]) -> None:
    """Take the table `[table]` and its subtables out of `document` (see the module doc)."""
    chain = _chain(document, table[:-1], create=False)
    found = _find(chain[-1][1], table) if chain is not None else None
    if chain is None or found is None:
        return
    own = _own_table(found, table)
    _drop_blank_line_before(chain, table[-1])
    _replace(chain[-1][1], table[-1], _take_trailing(_deepest_last(own)))
    # a table above it left empty and without a header writes nothing: it stays


def _chain(document: TOMLDocument, path: tuple[str, ...], *, create: bool) -> Chain | None:
    """The tables of `path`, made header-less at their container's end when missing (`create`; else
    None); a table written in parts gives the part holding the rest."""
    chain: Chain = [(None, document)]
    for depth, name in enumerate(path):
        container = chain[-1][1]
        named = _named(container, name)
        if not named:
            if not create:
                return None
            made = Table(Container(True), Trivia(), False, is_super_table=True, name=name)
            if depth:
                _place_at_end(container, name, made)
            else:  # a new family: at the end of the file, after its last comment too
                container._raw_append(SingleKey(name), made)
            named = [made]
        parts = [part for part in named if isinstance(part, Table)]
        if len(parts) < len(named):
            raise TomlEditError(f"holds {'.'.join(path[: depth + 1])} as no table")
        rest = path[depth + 1 :]
        found = ([part for part in parts if _holds(part, rest)] or parts)[-1]
        chain.append((found, found.value))
    return chain


def _named(container: Container, name: str) -> list[Item]:
    """The items of `container` under the key `name` (a table written in parts: several)."""
    return [item for key, item in container.body if key is not None and key.key == name]


def _holds(table: Table, path: tuple[str, ...]) -> bool:
    """Whether `table` holds the tables of `path` (in any of their parts)."""
    if not path:
        return True
    return any(
        isinstance(part, Table) and _holds(part, path[1:]) for part in _named(table.value, path[0])
    )


def _find(container: Container, table: tuple[str, ...]) -> Item | None:
    """The item `table[-1]` of `container` (TomlEditError: written in parts)."""
    found = _named(container, table[-1])
    if len(found) > 1:
        raise TomlEditError(f"writes [{'.'.join(table)}] in parts")
    return found[0] if found else None


def _own_table(found: Item, table: tuple[str, ...]) -> Table:
    """`found`, the table `[table]` written under a header of its own (else TomlEditError)."""
    name = ".".join(table)
    if isinstance(found, AoT):
        raise TomlEditError(f"declares [[{name}]], an array of tables")
    if not isinstance(found, Table) or found.is_super_table():
        raise TomlEditError(f"declares {name} other than as a [{name}] table")
    return found


def _holds_value(container: Container, key: str) -> bool:
    found = container.get(key)
    return found is not None and not isinstance(found, Table | AoT)


def _index(container: Container, key: str) -> int:
    return next(n for n, (k, _) in enumerate(container.body) if k is not None and k.key == key)


def _first_indent(table: Table) -> str:
    """How the first key of `table` is indented ("": it has none)."""
    values = (item for key, item in table.value.body if key is not None)
    first = next((item for item in values if not isinstance(item, Table | AoT)), None)
    return first.trivia.indent if first is not None else ""


def _deepest_last(table: Table | AoT) -> Table:
    """The last table written in `table`'s block."""
    if isinstance(table, AoT):
        return _deepest_last(table.body[-1])
    subtables = [item for _, item in table.value.body if isinstance(item, Table | AoT)]
    return _deepest_last(subtables[-1]) if subtables else table


def _header_before(chain: Chain) -> Table | None:
    """The table under a header whose block `chain`'s last container follows (None: the document's
    lines)."""
    child: Table | None = None
    for owner, container in reversed(chain):
        written = []
        for _, item in container.body:
            if item is child:
                break
            if isinstance(item, Table | AoT):
                written.append(item)
        for item in reversed(written):
            last = _deepest_last(item)
            if not last.is_super_table():
                return last
        if owner is not None and not owner.is_super_table():
            return owner
        child = owner
    return None


def _line(value: Any, indent: str, newline: str) -> Item:
    """`value` on a line of its own: indented by `indent`, ended by `newline`."""
    item = tomlkit.item(value)
    item.trivia.indent, item.trivia.trail = indent, newline
    return item


def _end_line(item: Item, newline: str) -> None:
    """End `item`'s line (the file's last, without a newline) before another follows it."""
    if not item.trivia.trail.endswith("\n"):
        item.trivia.trail += newline


def _add_table(
    document: TOMLDocument,
    chain: Chain,
    table: tuple[str, ...],
    values: dict[str, Any],
    newline: str,
) -> None:
    """`[table]` with `values` right after the block of the table before it, a blank line
    between."""
    before = _header_before(chain)
    header = ".".join(tomlkit.key(part).as_string() for part in table)
    added = Table(
        Container(True), Trivia(trail=newline), False, name=table[-1], display_name=header
    )
    indent = _first_indent(before) if before is not None else ""
    for key, value in values.items():
        added.value.append(key, _line(value, indent, newline))
    if before is None:
        text = document.as_string()
        if text and not text.endswith("\n"):
            added.trivia.indent = newline + newline
        elif text:  # a blank line of its own, even after one: uninstall takes it out
            added.trivia.indent = newline
    else:
        trailing = _take_trailing(before)
        keys = [item for key, item in before.value.body if key is not None]
        _end_line(keys[-1] if keys else before, newline)
        added.trivia.indent = newline
        if trailing:
            added.value._raw_append(None, Whitespace(trailing))
    _place_at_end(chain[-1][1], table[-1], added)


def _place_at_end(container: Container, name: str, table: Table) -> None:
    """`table` after the last key of `container`, before its trailing blank lines and comments."""
    body = container.body
    at = len(body)
    while at > 0 and body[at - 1][0] is None:
        at -= 1
    if at < len(body):
        container._insert_at(at, name, table)
    else:
        container._raw_append(SingleKey(name), table)


def _take_trailing(table: Table) -> str:
    """The blank lines and comments after `table`'s last line, taken out of it."""
    body = table.value.body
    at = len(body)
    while at > 0 and body[at - 1][0] is None:
        at -= 1
    taken = "".join(item.as_string() for _, item in body[at:])
    del body[at:]  # the last entries: no key's place moves
    return taken


def _replace(container: Container, name: str, kept: str) -> None:
    """Take item `name` out of `container`, `kept` written in its place."""
    at = _index(container, name)
    container.remove(name)  # its place in the body left empty: no other place moves
    container.body[at] = (None, Whitespace(kept))


def _drop_blank_line_before(chain: Chain, name: str) -> None:
    """Take out the blank line right before table `name`, if any."""
    holder, index, owner = _written_before(chain, name)
    if holder is None or not isinstance(holder.body[index][1], Whitespace):
        return
    blank = holder.body[index][1].as_string()
    for newline in ("\r\n", "\n"):
        rest = blank[: -len(newline)]
        if not blank.endswith(newline):
            continue
        if rest.endswith("\n") or (not rest and _line_ended(holder, index, owner)):
            holder.body[index] = (None, Whitespace(rest))
        return


def _written_before(chain: Chain, name: str) -> tuple[Container | None, int, Table | None]:
    """The container, index and table of the item written right before table `name`."""
    container, owner = chain[-1][1], chain[-1][0]
    index = _index(container, name) - 1
    level = len(chain) - 1
    while index < 0 and level > 0:  # the first of its container: look before its owner
        inner = chain[level][0]
        level -= 1
        container, owner = chain[level][1], chain[level][0]
        index = next(n for n, (_, item) in enumerate(container.body) if item is inner) - 1
    if index < 0:
        return None, 0, None
    while isinstance(container.body[index][1], Table | AoT):
        last = _deepest_last(container.body[index][1])  # type: ignore[arg-type]
        if not last.value.body:
            break
        container, owner, index = last.value, last, len(last.value.body) - 1
    return container, index, owner


def _line_ended(holder: Container, index: int, owner: Table | None) -> bool:
    """Whether the line before item `index` of `holder` ends with a newline."""
    if index > 0:
        item = holder.body[index - 1][1]
        if isinstance(item, Whitespace | Comment):
            return item.as_string().endswith("\n")
        return item.trivia.trail.endswith("\n")
    return owner is not None and not owner.is_super_table() and owner.trivia.trail.endswith("\n")
