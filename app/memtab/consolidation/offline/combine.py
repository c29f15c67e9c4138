"""Near-duplicate Markdown files: finding them, choosing the keeper, carrying what it lacks."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from memtab.consolidation.offline.units import Coverage, Unit, split_units
from memtab.store.text.near_duplicates import (
    COMMON_FILES,
    alike_groups,
    jaccard,
    near_duplicate_pairs,
)

NEAR_DUPLICATE_THRESHOLD = 0.5
# Two items of at least VARIANT_MIN_WORDS distinct words are variants of each other when
# this share of their words (Jaccard) is the same but not all of it.
VARIANT_SIMILARITY = 0.6
VARIANT_MIN_WORDS = 4
# A shingle found in more files than this is boilerplate: it never makes two files a
# candidate pair on its own (keeps candidate generation near-linear on big stores).
COMMON_SHINGLE_FILES = COMMON_FILES

_UNCLEAN_NAME = re.compile(
    r"(?:^|[-_ .])(?:copy|backup|bak|tmp|temp|old|draft|scratch|untitled|new)(?:$|[-_ .])"
    r"|[-_ ]\d+$|\(\d+\)$",
    re.IGNORECASE,
)


def near_duplicate_groups(
    shingles: Sequence[frozenset[int]], compatible: Sequence[str], rank: Callable[[int], Any]
) -> list[tuple[list[int], float]]:
    """Groups of near-duplicates (indexes, keeper first, at least two each) with the lowest
    similarity of a member to the keeper."""
    pairs = near_duplicate_pairs(shingles, NEAR_DUPLICATE_THRESHOLD, common=COMMON_SHINGLE_FILES)
    return alike_groups(((s, i, j) for s, i, j in pairs if compatible[i] == compatible[j]), rank)


def name_of(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name[: -len(".md")] if name.lower().endswith(".md") else name


def keeper_rank(
    *, path: str, pinned: bool, described: bool, uses: int, content_count: int
) -> tuple[Any, ...]:
    """Sort key of the naming heuristic: the smallest key is the file to keep."""
    name = name_of(path)
    unclean = bool(_UNCLEAN_NAME.search(name))
    return (not pinned, not described, -uses, unclean, len(name), -content_count, path)


# --- carrying a member's content into the keeper ------------------------------------------


@dataclass
class Carried:
    """What carrying members into a keeper produced."""

    lines: list[str]
    units: int = 0  # bullets, paragraphs and code blocks carried


def _title_section(units: Sequence[Unit]) -> int:
    """The section index of a file's title heading (its only top-level heading, with no
    content before it), or -1 (the lines before any heading) when it has none."""
    headings = [(position, unit) for position, unit in enumerate(units) if unit.kind == "heading"]
    if not headings:
        return -1
    levels = [len(unit.key) - len(unit.key.lstrip("#")) for _, unit in headings]
    top = min(levels)
    first_position, first = headings[0]
    has_content_before = any(unit.content for unit in units[:first_position])
    if levels[0] == top and levels.count(top) == 1 and not has_content_before:
        return first.section
    return -1


def _section_end(lines: Sequence[str], units: Sequence[Unit], section: int) -> int:
    """Where lines added at the end of a section go: after its last non-blank line."""
    members = [unit for unit in units if unit.section == section]
    end = max((unit.end for unit in members if unit.kind != "blank"), default=0)
    if section == -1 and not members:
        return 0
    return end if end else len(lines)


def _heading_index(units: Sequence[Unit], key: str) -> int | None:
    wanted = key.casefold()
    for unit in units:
        if unit.kind == "heading" and unit.key.casefold() == wanted:
            return unit.section
    return None


_ITEM_WORD = re.compile(r"\w+")


def item_words(key: str) -> frozenset[str]:
    """The distinct words of an item (its compared form), as variants are told by."""
    return frozenset(_ITEM_WORD.findall(key.casefold()))


def is_variant(words: frozenset[str], others: Sequence[frozenset[str]]) -> bool:
    """Whether an item with these words says what one of `others` says with a few words
    changed (the same item is no variant of itself)."""
    return len(words) >= VARIANT_MIN_WORDS and any(
        len(other) >= VARIANT_MIN_WORDS
        and other != words
        and jaccard(words, other) >= VARIANT_SIMILARITY
        for other in others
    )


def carry_into(keeper_lines: Sequence[str], members: Sequence[Sequence[str]]) -> Carried | None:
    """The keeper's lines with what each member adds to them, or None when a member holds something
    that cannot be carried (a table the keeper lacks, a variant of one of the keeper's items)."""
    lines = list(keeper_lines)
    carried_units = 0
    for member in members:
        keeper_units = split_units(lines)
        known = Coverage()
        present = set()
        keeper_items: list[frozenset[str]] = []
        for unit in keeper_units:
            if unit.substantive:
                known.add(unit)
                keeper_items.append(item_words(unit.key))
            if unit.kind in ("text", "code", "table", "label"):
                present.add(unit.key)
        member_units = split_units(member)
        if any(unit.kind == "table" and unit.key not in present for unit in member_units):
            return None
        title = _title_section(member_units)
        additions: dict[int, list[str]] = defaultdict(list)  # member section → lines
        labels_done: set[tuple[int, int]] = set()
        for unit in member_units:
            if unit.kind not in ("text", "code"):
                continue
            new = not known.covers(unit) if unit.substantive else unit.key not in present
            if not new:
                continue
            if unit.substantive and is_variant(item_words(unit.key), keeper_items):
                return None
            owner = member_units[unit.block] if unit.block >= 0 else None
            if owner is not None and owner.kind == "label":
                if (unit.section, unit.block) not in labels_done and owner.key not in present:
                    additions[unit.section].extend(member[owner.start : owner.end])
                labels_done.add((unit.section, unit.block))
            additions[unit.section].extend(member[unit.start : unit.end])
            known.add(unit)
            present.add(unit.key)
            carried_units += 1
        for section, added in additions.items():
            lines = _place(lines, member, member_units, section, title, added)
    return Carried(lines, carried_units)


def _place(
    lines: list[str],
    member: Sequence[str],
    member_units: Sequence[Unit],
    section: int,
    member_title: int,
    added: list[str],
) -> list[str]:
    keeper_units = split_units(lines)
    heading: str | None = None
    target: int | None
    if section in (member_title, -1):
        target = _title_section(keeper_units)
        if target == -1 and not any(u.content for u in keeper_units if u.section == -1):
            target = None  # no title and nothing before the first heading: at the end
    else:
        target = _heading_index(keeper_units, member_units[section].key)
        if target is None:
            heading = member[member_units[section].start]
    if target is not None:
        at = _section_end(lines, keeper_units, target)
        return [*lines[:at], *added, *lines[at:]]
    body = lines[:]
    while body and not body[-1].strip():
        body.pop()
    trailing = lines[len(body) :]
    if heading is None:
        return [*body, *added, *trailing]
    return [*body, "", heading, "", *added, *trailing]
