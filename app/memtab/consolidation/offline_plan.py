"""What the offline consolidator changes, decided from the files it read (no model involved).

Files are read as *units*: a line, a list item with its indented continuation lines, or
a fenced code block (never split). Units compare equal modulo whitespace runs and the
bullet marker; units shorter than `MIN_LINE_CHARS` never count (too generic). A
one-line unit is also *covered* by a list item that starts with the same line and adds
detail below it.

The plan, in priority order — the budget (8 changes per run) is spent from the top:

1. **Merge near-duplicates.** Within a scope, two files are near-duplicates when the
   Jaccard similarity of their word 3-shingles (over their cleaned content: frontmatter,
   headings and the units step 2 would remove left out) is at least
   `NEAR_DUPLICATE_THRESHOLD` (0.5; exact copies score 1.0). The demo's `test-tips.md`
   and `testing.md` share three of four bullets and score 0.59; unrelated notes on one
   topic stay below 0.1. Near-duplicates are grouped (union-find); the *keeper* is the
   best-named file of a group — pinned first, then one with a `description:`, then more
   uses, then a clean name (no copy/tmp/old/draft/scratch/new or number suffix), then the
   shorter name, then more content, then path order. The units of the others that the
   keeper lacks are appended to it, then the others are deleted. A pinned file is never
   deleted, and never edited: a pinned keeper only absorbs files that add nothing to it.
2. **Clean files.** A unit repeated within a file loses its later copies; a unit of a
   narrower scope (workspace ⊂ project ⊂ global) that already stands in a wider scope
   is removed from the narrower file; a file left with no content is deleted instead.
3. **Delete empty files** (whitespace only).
4. **Add missing descriptions** from the file's first heading. This is the only change
   that adds bytes, so it is made only while the run's savings pay for it: a run never
   grows the total size of memory.

Each file gets at most one edit per run (all its changes in one call), which keeps a run
within budget and lets a second run pick up where a big store made the first one stop.
Pinned, binary and over-cap files are never changed. Every planned content is already
what the next run would make of it, so on a store that fits the budget a second run
right after the first is a no-op.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations
from typing import Any, Literal

from memtab.consolidation.offline_edits import edit_arguments
from memtab.fs.atomic import encode_utf8
from memtab.humanize import plural
from memtab.store.files import MAX_FILE_BYTES
from memtab.store.frontmatter import (
    DESCRIPTION_PREFIX_BYTES,
    clean_description,
    description_from_text,
    frontmatter_block,
)
from memtab.store.paths import Scope

NEAR_DUPLICATE_THRESHOLD = 0.5
MIN_LINE_CHARS = 12
SHINGLE_WORDS = 3
# A shingle found in more files than this is boilerplate: it never makes two files a
# candidate pair on its own (keeps candidate generation near-linear on big stores).
COMMON_SHINGLE_FILES = 50

# Each scope's units are checked against every wider scope.
WIDER_SCOPES: dict[Scope, tuple[Scope, ...]] = {
    Scope.WORKSPACE: (Scope.PROJECT, Scope.GLOBAL),
    Scope.PROJECT: (Scope.GLOBAL,),
    Scope.GLOBAL: (),
}

_BULLET = re.compile(r"^(?:[-*+]|\d+[.)])\s+")
_HEADING = re.compile(r"^#{1,6}(?:\s|$)")
_RULE = re.compile(r"^(?:(?:\*\s*){3,}|(?:-\s*){3,}|(?:_\s*){3,})$")
_FENCE = re.compile(r"^(`{3,}|~{3,})")
_WORD = re.compile(r"\w+")
_UNCLEAN_NAME = re.compile(
    r"(?:^|[-_ .])(?:copy|backup|bak|tmp|temp|old|draft|scratch|untitled|new)(?:$|[-_ .])"
    r"|[-_ ]\d+$|\(\d+\)$",
    re.IGNORECASE,
)

UnitKind = Literal["frontmatter", "blank", "heading", "rule", "text", "code"]


@dataclass(frozen=True)
class MemoryFile:
    """A memory file as the consolidator read it: its lines as `view` showed them."""

    path: str
    scope: Scope
    lines: tuple[str, ...]
    pinned: bool = False
    uses: int = 0


@dataclass(frozen=True)
class Unit:
    """Lines that stand or go together (see module doc). `head` is the compared form of
    the first line of a multi-line list item, else ""."""

    start: int
    end: int
    kind: UnitKind
    key: str = ""
    head: str = ""

    @property
    def substantive(self) -> bool:
        """Content worth comparing: text or code, long enough not to be generic."""
        return self.kind in ("text", "code") and len(self.key) >= MIN_LINE_CHARS

    @property
    def single(self) -> bool:
        return self.end - self.start == 1


def normalize_line(line: str) -> str:
    """A line as compared: whitespace runs collapsed, any bullet marker written `- `."""
    text = " ".join(line.split())
    return _BULLET.sub("- ", text, count=1)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def split_units(lines: Sequence[str]) -> list[Unit]:
    """Cut a file's lines into units (see `Unit`)."""
    units: list[Unit] = []
    index = 0
    if lines and lines[0].strip() == "---":
        closing = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
        if closing is not None:
            units.append(Unit(0, closing + 1, "frontmatter"))
            index = closing + 1
    while index < len(lines):
        stripped = lines[index].strip()
        fence = _FENCE.match(stripped)
        if not stripped:
            units.append(Unit(index, index + 1, "blank"))
        elif fence:
            end = index + 1
            while end < len(lines) and not lines[end].strip().startswith(fence.group(1)):
                end += 1
            end = min(end + 1, len(lines))
            key = "\n".join(normalize_line(text) for text in lines[index:end])
            units.append(Unit(index, end, "code", key))
        elif _HEADING.match(stripped):
            units.append(Unit(index, index + 1, "heading"))
        elif _RULE.match(stripped):
            units.append(Unit(index, index + 1, "rule"))
        else:
            end = index + 1
            base = _indent(lines[index])
            while end < len(lines) and lines[end].strip() and _indent(lines[end]) > base:
                end += 1
            normalized = [normalize_line(text) for text in lines[index:end]]
            head = normalized[0] if end - index > 1 else ""
            units.append(Unit(index, end, "text", "\n".join(normalized), head))
        index = units[-1].end
    return units


def text_size(lines: Sequence[str]) -> int:
    """Bytes of the lines joined by newlines (a file's size, give or take its last newline)."""
    return len(encode_utf8("\n".join(lines)))


@dataclass
class Coverage:
    """Content that already stands somewhere: unit keys, and heads of detailed items."""

    keys: set[str] = field(default_factory=set)
    heads: set[str] = field(default_factory=set)

    def add(self, unit: Unit) -> None:
        self.keys.add(unit.key)
        if unit.head:
            self.heads.add(unit.head)

    def update(self, other: Coverage) -> None:
        self.keys |= other.keys
        self.heads |= other.heads

    def covers(self, unit: Unit) -> bool:
        """True when the unit says nothing this content does not already say."""
        return unit.key in self.keys or (unit.single and unit.key in self.heads)


@dataclass
class Cleaned:
    """A file's lines without repeated and wider-covered units, and what was removed."""

    lines: list[str]
    kept: list[tuple[Unit, list[str]]]  # content units left, with their lines
    repeated: int = 0
    redundant: int = 0

    @property
    def removed(self) -> int:
        return self.repeated + self.redundant

    @cached_property
    def shingles(self) -> frozenset[int]:
        """Word 3-shingles of the content left (hashed)."""
        words = _WORD.findall("\n".join(unit.key for unit, _ in self.kept).lower())
        if len(words) < SHINGLE_WORDS:
            return frozenset({hash(tuple(words))}) if words else frozenset()
        return frozenset(
            hash(tuple(words[i : i + SHINGLE_WORDS])) for i in range(len(words) - SHINGLE_WORDS + 1)
        )


def clean_lines(lines: Sequence[str], wider: Coverage) -> Cleaned:
    """Drop repeated units (a one-line item covered by a detailed one counts as repeated)
    and units `wider` covers; no double blank lines are left where units went away."""
    units = split_units(lines)
    own_heads = Coverage(heads={unit.head for unit in units if unit.head})
    result = Cleaned([], [])
    seen = Coverage()
    just_removed = False
    for unit in units:
        unit_lines = list(lines[unit.start : unit.end])
        if unit.substantive:
            if seen.covers(unit) or own_heads.covers(unit):
                result.repeated += 1
                just_removed = True
                continue
            if wider.covers(unit):
                result.redundant += 1
                just_removed = True
                continue
            seen.add(unit)
            result.kept.append((unit, unit_lines))
        after_blank = not result.lines or not result.lines[-1].strip()
        if unit.kind == "blank" and just_removed and after_blank:
            continue
        just_removed = just_removed and unit.kind == "blank"
        result.lines.extend(unit_lines)
    if result.removed and lines and lines[-1].strip():
        while result.lines and not result.lines[-1].strip():
            result.lines.pop()
    return result


def settle(lines: Sequence[str], wider: Coverage) -> Cleaned:
    """`clean_lines` until nothing more goes (what the next run would make of it)."""
    result = clean_lines(lines, wider)
    total_repeated, total_redundant = result.repeated, result.redundant
    while result.removed:
        result = clean_lines(result.lines, wider)
        total_repeated += result.repeated
        total_redundant += result.redundant
    result.repeated, result.redundant = total_repeated, total_redundant
    return result


class FileAnalysis:
    """One file as the planner sees it."""

    def __init__(self, file: MemoryFile) -> None:
        self.file = file
        self.units = split_units(file.lines)
        self.size = text_size(file.lines)

    @property
    def path(self) -> str:
        return self.file.path

    @cached_property
    def coverage(self) -> Coverage:
        coverage = Coverage()
        for unit in self.units:
            if unit.substantive:
                coverage.add(unit)
        return coverage

    @cached_property
    def content_count(self) -> int:
        return sum(1 for unit in self.units if unit.substantive)

    @property
    def empty(self) -> bool:
        return all(not line.strip() for line in self.file.lines)

    @property
    def editable(self) -> bool:
        return self.size <= MAX_FILE_BYTES

    @property
    def changeable(self) -> bool:
        """May the offline consolidator edit or delete it at all."""
        return self.editable and not self.file.pinned

    @cached_property
    def description(self) -> str:
        prefix = encode_utf8("\n".join(self.file.lines))[:DESCRIPTION_PREFIX_BYTES]
        return description_from_text(prefix.decode("utf-8", "replace"))


# --- near-duplicates -----------------------------------------------------------------------


def jaccard(a: frozenset[int], b: frozenset[int]) -> float:
    """|a ∩ b| / |a ∪ b| (0 when either is empty)."""
    if not a or not b:
        return 0.0
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared)


def near_duplicate_pairs(
    shingles: Sequence[frozenset[int]], threshold: float = NEAR_DUPLICATE_THRESHOLD
) -> list[tuple[float, int, int]]:
    """(similarity, i, j) for every pair of shingle sets at or above the threshold.

    Candidates come from an inverted index of shingles, so only sets sharing a
    non-boilerplate shingle are compared.
    """
    postings: dict[int, list[int]] = defaultdict(list)
    for index, shingle_set in enumerate(shingles):
        for shingle in shingle_set:
            postings[shingle].append(index)
    candidates: set[tuple[int, int]] = set()
    for members in postings.values():
        if 1 < len(members) <= COMMON_SHINGLE_FILES:
            candidates.update(combinations(members, 2))
    pairs = []
    for i, j in candidates:
        similarity = jaccard(shingles[i], shingles[j])
        if similarity >= threshold:
            pairs.append((similarity, i, j))
    return sorted(pairs, key=lambda pair: (-pair[0], pair[1], pair[2]))


def _groups(items: Sequence[FileAnalysis], shingles: Sequence[frozenset[int]]) -> list[list[int]]:
    """Indexes of near-duplicate groups (each has at least two members)."""
    parent = list(range(len(items)))

    def root(index: int) -> int:
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    for _, i, j in near_duplicate_pairs(shingles):
        parent[root(i)] = root(j)
    groups: dict[int, list[int]] = defaultdict(list)
    for index in range(len(items)):
        groups[root(index)].append(index)
    return [group for group in groups.values() if len(group) > 1]


def _name_of(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name[: -len(".md")] if name.lower().endswith(".md") else name


def keeper_rank(analysis: FileAnalysis) -> tuple[Any, ...]:
    """Sort key of the naming heuristic: the smallest key is the file to keep."""
    name = _name_of(analysis.path)
    return (
        not analysis.file.pinned,
        not analysis.description,
        -analysis.file.uses,
        bool(_UNCLEAN_NAME.search(name)),
        len(name),
        -analysis.content_count,
        analysis.path,
    )


# --- the plan ------------------------------------------------------------------------------


@dataclass
class Effects:
    """What one planned change does, for the run's summary."""

    repeated: int = 0
    redundant: int = 0
    carried: int = 0
    described: bool = False
    merged_into: str | None = None
    empty: bool = False
    superseded: bool = False


@dataclass(frozen=True)
class PlannedChange:
    """One memory-tool call of the plan. A delete with `requires` runs only if the edit of
    that path succeeded (its lines were carried there first)."""

    path: str
    kind: Literal["edit", "delete"]
    arguments: dict[str, Any]
    effects: Effects = field(default_factory=Effects, compare=False)
    requires: str | None = None


@dataclass(frozen=True)
class Plan:
    """Edits (run first) and deletes (run after their edits succeeded)."""

    edits: tuple[PlannedChange, ...] = ()
    deletes: tuple[PlannedChange, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.edits and not self.deletes


def append_units(lines: list[str], carried: list[list[str]]) -> list[str]:
    """`lines` with the carried units appended after its last non-blank line."""
    end = len(lines)
    while end > 0 and not lines[end - 1].strip():
        end -= 1
    return lines[:end] + [line for unit in carried for line in unit] + lines[end:]


def _first_heading(lines: Sequence[str]) -> str | None:
    for line in lines:
        stripped = line.strip()
        if _HEADING.match(stripped):
            return clean_description(stripped.lstrip("#").rstrip("#").strip()) or None
    return None


def _yaml_line(value: str) -> str:
    plain = f"description: {value}"
    if description_from_text(f"---\n{plain}\n---\n") == value:
        return plain
    quoted = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'description: "{quoted}"'


def with_description(lines: list[str]) -> list[str] | None:
    """`lines` with a `description:` made from the first heading, or None when the file
    has no heading, already has a description key, or frontmatter that cannot take one."""
    heading = _first_heading(lines)
    if heading is None:
        return None
    block = frontmatter_block("\n".join(lines)[:DESCRIPTION_PREFIX_BYTES])
    if block is None:
        updated = ["---", _yaml_line(heading), "---", *lines]
    elif "description" in block:
        return None
    else:
        updated = [lines[0], _yaml_line(heading), *lines[1:]]
    check = "\n".join(updated)[:DESCRIPTION_PREFIX_BYTES]
    return updated if description_from_text(check) == heading else None


class _Workbench:
    """The plan being built: planned content per file, deletes, budget and byte balance."""

    def __init__(self, analyses: Sequence[FileAnalysis], budget: int) -> None:
        self.analyses = analyses
        self.remaining = budget
        self.delta = 0  # bytes added (negative: saved) by everything chosen so far
        self.content: dict[str, list[str]] = {}
        self.effects: dict[str, Effects] = {}
        self.deletes: dict[str, tuple[str | None, Effects]] = {}
        self.order: list[str] = []  # files in the order their change was chosen
        self.wider = self._wider_coverage()
        self.cleaned = {a.path: settle(a.file.lines, self.wider[a.file.scope]) for a in analyses}

    def _wider_coverage(self) -> dict[Scope, Coverage]:
        by_scope = {scope: Coverage() for scope in Scope}
        for analysis in self.analyses:
            by_scope[analysis.file.scope].update(analysis.coverage)
        wider = {}
        for scope in Scope:
            coverage = Coverage()
            for other in WIDER_SCOPES[scope]:
                coverage.update(by_scope[other])
            wider[scope] = coverage
        return wider

    def touched(self, path: str) -> bool:
        return path in self.content or path in self.deletes

    # --- 1. merges --------------------------------------------------------------------

    def merge_groups(self) -> list[list[FileAnalysis]]:
        """Near-duplicate groups of every scope, the most valuable first."""
        groups: list[list[FileAnalysis]] = []
        for scope in Scope:
            items = [
                a
                for a in self.analyses
                if a.file.scope is scope and a.editable and self.cleaned[a.path].shingles
            ]
            shingles = [self.cleaned[a.path].shingles for a in items]
            groups.extend([items[i] for i in group] for group in _groups(items, shingles))

        def value(group: list[FileAnalysis]) -> tuple[int, str]:
            keeper = min(group, key=keeper_rank)
            return (-sum(a.size for a in group if a is not keeper), keeper.path)

        return sorted(groups, key=value)

    def merge(self, group: list[FileAnalysis]) -> None:
        keeper, *others = sorted(group, key=keeper_rank)
        if self.touched(keeper.path):
            return
        members = [m for m in others if m.changeable and not self.touched(m.path)]
        if keeper.file.pinned:  # never edited: it may only absorb files that add nothing
            members = [m for m in members if not self._carried(keeper, [m])]
        members.sort(key=lambda m: (-m.size, m.path))
        for count in range(len(members), 0, -1):
            chosen = members[:count]
            new_lines, effects = self._merged(keeper, chosen)
            edit = new_lines != list(keeper.file.lines)
            cost = len(chosen) + (1 if edit else 0)
            delta = text_size(new_lines) - keeper.size - sum(m.size for m in chosen)
            if cost > self.remaining or delta > 0:
                continue
            self.remaining -= cost
            self.delta += delta
            if edit:
                self.content[keeper.path] = new_lines
                self.effects[keeper.path] = effects
                self.order.append(keeper.path)
            for member in chosen:
                requires = keeper.path if edit else None
                self.deletes[member.path] = (requires, Effects(merged_into=keeper.path))
                self.order.append(member.path)
            return

    def _carried(self, keeper: FileAnalysis, members: list[FileAnalysis]) -> list[list[str]]:
        """Units of `members` (cleaned) that the keeper does not already say."""
        known = Coverage()
        known.update(keeper.coverage)
        carried: list[list[str]] = []
        for member in members:
            for unit, lines in self.cleaned[member.path].kept:
                if not known.covers(unit):
                    known.add(unit)
                    carried.append(lines)
        return carried

    def _merged(
        self, keeper: FileAnalysis, members: list[FileAnalysis]
    ) -> tuple[list[str], Effects]:
        if keeper.file.pinned:
            return list(keeper.file.lines), Effects()
        base = self.cleaned[keeper.path]
        carried = self._carried(keeper, members)
        merged = settle(append_units(base.lines, carried), self.wider[keeper.file.scope])
        effects = Effects(repeated=base.repeated, redundant=base.redundant, carried=len(carried))
        return merged.lines, effects

    # --- 2. cleanups, 3. empty files ---------------------------------------------------

    def cleanups(self) -> list[tuple[int, FileAnalysis, Cleaned]]:
        """Files that step 2 changes, the biggest savings first."""
        found = []
        for analysis in self.analyses:
            if not analysis.changeable or analysis.empty or self.touched(analysis.path):
                continue
            result = self.cleaned[analysis.path]
            if result.removed:
                found.append((text_size(result.lines) - analysis.size, analysis, result))
        return sorted(found, key=lambda item: (item[0], item[1].path))

    def cleanup(self, delta: int, analysis: FileAnalysis, result: Cleaned) -> None:
        if self.remaining < 1 or self.touched(analysis.path):
            return
        self.remaining -= 1
        if not any(unit.kind in ("text", "code") for unit in split_units(result.lines)):
            # Everything it said stands elsewhere: only headings would be left.
            self.delta -= analysis.size
            self.deletes[analysis.path] = (None, Effects(superseded=True))
        else:
            self.delta += delta
            self.content[analysis.path] = result.lines
            self.effects[analysis.path] = Effects(
                repeated=result.repeated, redundant=result.redundant
            )
        self.order.append(analysis.path)

    def delete_empty(self, analysis: FileAnalysis) -> None:
        if self.remaining < 1 or not analysis.changeable or self.touched(analysis.path):
            return
        self.remaining -= 1
        self.delta -= analysis.size
        self.deletes[analysis.path] = (None, Effects(empty=True))
        self.order.append(analysis.path)

    # --- 4. descriptions ----------------------------------------------------------------

    def describe(self, analysis: FileAnalysis) -> None:
        if not analysis.changeable or analysis.description or analysis.path in self.deletes:
            return
        already_edited = analysis.path in self.content
        if not already_edited and self.remaining < 1:
            return
        current = self.content.get(analysis.path, list(analysis.file.lines))
        updated = with_description(current)
        if updated is None:
            return
        extra = text_size(updated) - text_size(current)
        if self.delta + extra > 0:
            return  # only savings elsewhere in this run may pay for the added line
        self.delta += extra
        self.content[analysis.path] = updated
        self.effects.setdefault(analysis.path, Effects()).described = True
        if not already_edited:
            self.remaining -= 1
            self.order.append(analysis.path)

    # --- result ----------------------------------------------------------------------------

    def plan(self) -> Plan:
        by_path = {analysis.path: analysis for analysis in self.analyses}
        edits: list[PlannedChange] = []
        failed: set[str] = set()
        for path in self.order:
            if path not in self.content:
                continue
            arguments = edit_arguments(path, list(by_path[path].file.lines), self.content[path])
            if arguments is None:
                failed.add(path)
                continue
            edits.append(PlannedChange(path, "edit", arguments, self.effects.get(path, Effects())))
        deletes = []
        for path in self.order:
            if path in self.deletes:
                requires, effects = self.deletes[path]
                if requires not in failed:
                    arguments = {"command": "delete", "path": path}
                    deletes.append(PlannedChange(path, "delete", arguments, effects, requires))
        return Plan(tuple(edits), tuple(deletes))


def plan_consolidation(files: Iterable[MemoryFile], *, budget: int) -> Plan:
    """Decide the changes for these files within `budget` tool calls (see module doc)."""
    analyses = [FileAnalysis(file) for file in files]
    bench = _Workbench(analyses, budget)
    for group in bench.merge_groups():
        bench.merge(group)
    for delta, analysis, result in bench.cleanups():
        bench.cleanup(delta, analysis, result)
    for analysis in analyses:
        if analysis.empty:
            bench.delete_empty(analysis)
    for analysis in sorted(analyses, key=lambda a: (a.path not in bench.content, a.path)):
        bench.describe(analysis)
    return bench.plan()


# --- summary ----------------------------------------------------------------------------------


def _short(path: str) -> str:
    return path.removeprefix("/memories/")


def summarize(applied: Sequence[PlannedChange], *, dry_run: bool = False, refused: int = 0) -> str:
    """One line saying what the applied (or, in a dry run, proposed) changes did."""
    merged = [change for change in applied if change.effects.merged_into]
    totals: Counter[str] = Counter()
    for change in applied:
        effects = change.effects
        totals["repeated"] += effects.repeated
        totals["redundant"] += effects.redundant
        totals["described"] += effects.described
        totals["empty"] += effects.empty
        totals["superseded"] += effects.superseded
    parts = []
    if merged:
        names = ", ".join(
            f"{_short(c.path)} into {_short(c.effects.merged_into or '')}" for c in merged[:3]
        )
        more = f" and {len(merged) - 3} more" if len(merged) > 3 else ""
        parts.append(f"merged {names}{more}")
    if totals["repeated"]:
        parts.append(f"removed {plural(totals['repeated'], 'repeated line')}")
    if totals["redundant"]:
        parts.append(f"removed {plural(totals['redundant'], 'line')} already in a wider scope")
    if totals["superseded"]:
        parts.append(f"deleted {plural(totals['superseded'], 'file')} already covered elsewhere")
    if totals["empty"]:
        parts.append(f"deleted {plural(totals['empty'], 'empty file')}")
    if totals["described"]:
        parts.append(f"added {plural(totals['described'], 'missing description')}")
    if refused:
        parts.append(f"{plural(refused, 'change')} refused")
    if not parts:
        return "no changes needed"
    text = "; ".join(parts)
    text = text[0].upper() + text[1:] + "."
    return f"Dry run, nothing applied: {text}" if dry_run else text
