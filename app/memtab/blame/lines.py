"""Lines as the editor counts them (`\\r\\n`, `\\r`, `\\n`, U+2029 end one; a final break ends
the last) and which lines carry from one text to the next; no I/O."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from memtab.store.history.capture import common_prefix_length

BOM = "\ufeff"
_OTHER_BREAKS = re.compile("\r\n|\r|\u2029")


def normalized(text: str) -> str:
    """`text` without a BOM and with every line break spelled `\\n`."""
    body = text.removeprefix(BOM)
    if "\r" in body or "\u2029" in body:
        body = _OTHER_BREAKS.sub("\n", body)
    return body


def lines_of(text: str) -> list[str]:
    """The lines of a `normalized` text (see the module doc)."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the final break ends the last line
    return lines


def split_lines(text: str) -> list[str]:
    """The lines of any text as the editor shows them."""
    return lines_of(normalized(text))


def matched_lines(old: Sequence[str], new: Sequence[str]) -> list[int | None]:
    """For each line of `new`, the index of the line of `old` it is (None: a new line)."""
    if old == new:
        return list(range(len(new)))
    start = common_prefix_length(old, new)
    old_rest, new_rest = old[start:], new[start:]
    end = common_prefix_length(old_rest[::-1], new_rest[::-1])
    old_middle, new_middle = old_rest[: len(old_rest) - end], new_rest[: len(new_rest) - end]
    middle: list[int | None] = [None] * len(new_middle)
    if old_middle and new_middle:
        matcher = difflib.SequenceMatcher(None, old_middle, new_middle)
        for old_at, new_at, size in matcher.get_matching_blocks():
            middle[new_at : new_at + size] = range(start + old_at, start + old_at + size)
    return [*range(start), *middle, *range(len(old) - end, len(old))]


def carry(
    old: Sequence[str], old_owners: Sequence[int], new: Sequence[str], owner: int
) -> list[int]:
    """The owners of `new`'s lines: a line of `old` keeps its owner; every other is `owner`'s."""
    return [owner if index is None else old_owners[index] for index in matched_lines(old, new)]


def carry_from(
    first: tuple[Sequence[str], Sequence[int]],
    then: tuple[Sequence[str], Sequence[int]],
    new: Sequence[str],
    owner: int,
) -> list[int]:
    """`carry` from two older texts, each (lines, owners): `first`'s owner, else `then`'s, else
    `owner`."""
    return [
        first[1][a] if a is not None else then[1][b] if b is not None else owner
        for a, b in zip(matched_lines(first[0], new), matched_lines(then[0], new), strict=True)
    ]


def step(
    old_text: str, old_lines: list[str], old_owners: list[int], new_text: str, owner: int
) -> tuple[list[str], list[int]]:
    """`carry` from one `normalized` text to the next, and the new text's lines; the shared start
    and end are found as strings, only the middle split."""
    if old_text == new_text:
        return old_lines, old_owners
    head = old_text.rfind("\n", 0, common_prefix_length(old_text, new_text)) + 1
    head_lines = old_text.count("\n", 0, head)
    old_rest, new_rest = old_text[head:], new_text[head:]
    same_end = common_prefix_length(old_rest[::-1], new_rest[::-1])
    # The shared end's whole lines: a break inside it is one in both texts.
    first_break = old_rest.find("\n", len(old_rest) - same_end)
    end = 0 if first_break < 0 else len(old_rest) - first_break - 1
    tail_lines = len(lines_of(old_rest[len(old_rest) - end :]))
    kept_end = len(old_lines) - tail_lines
    middle_new = lines_of(new_rest[: len(new_rest) - end])
    middle_old = old_lines[head_lines:kept_end]
    middle_owners = old_owners[head_lines:kept_end]
    lines = old_lines[:head_lines] + middle_new + old_lines[kept_end:]
    owners = (
        old_owners[:head_lines]
        + carry(middle_old, middle_owners, middle_new, owner)
        + old_owners[kept_end:]
    )
    return lines, owners
