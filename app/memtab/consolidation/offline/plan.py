"""What the offline consolidator changes, decided from the files it read (no model involved). Only
Markdown memory files (`.md`) take part; every other file is left alone. A file is read as units,
sections and blocks (`offline_units`; one file as the planner sees it: `offline_analysis`)."""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import Any, Literal

from memtab.consolidation.offline.combine import carry_into, keeper_rank, near_duplicate_groups
from memtab.consolidation.offline.describe import build_description, with_description
from memtab.consolidation.offline.inputs import MemoryFile
from memtab.consolidation.offline.units import (
    Cleaned,
    Coverage,
    add_coverage,
    compared_lines,
    coverage_of,
    settle,
    split_units,
    text_size,
)
from memtab.fs.heap import collector_paused
from memtab.humanize import plural
from memtab.store.paths import SHARED_SCOPES, Scope
from memtab.store.text.frontmatter import description_from_text, description_prefix

_FRONTMATTER_TYPE = re.compile(r"^type:\s*+(\S.*)", re.MULTILINE)  # the rest of its line
# Markdown links, wiki links and bare `name.md` mentions: files named this way are never
# deleted (an index such as Claude Code's MEMORY.md would point at nothing). A wiki link
# names a page without its extension.
# A mention is looked for from where its run of name characters begins only (from each of
# them, a long run was read to its end again: quadratic).
_REFERENCE = re.compile(r"\]\(\s*<?([^)>\s#?]+)|\[\[([^\]|#]+)|(?<![\w.\-/])([\w.\-/]+\.md)\b")


def short(path: str) -> str:
    """A virtual path as the summary names it: `project/testing.md`."""
    return path.removeprefix("/memories/")


class FileAnalysis:
    """One readable Markdown file as the planner sees it."""

    def __init__(self, file: MemoryFile) -> None:
        assert file.lines is not None
        self.file = file
        self.lines: tuple[str, ...] = file.lines
        self.units = split_units(file.lines)

    @property
    def path(self) -> str:
        return self.file.path

    @cached_property
    def size(self) -> int:
        return text_size(self.lines)

    @cached_property
    def coverage(self) -> Coverage:
        return coverage_of(self.units)

    @cached_property
    def content_count(self) -> int:
        return sum(1 for unit in self.units if unit.substantive)

    @property
    def empty(self) -> bool:
        return all(not line.strip() for line in self.lines)

    @property
    def changeable(self) -> bool:
        """May the offline consolidator edit or delete it at all."""
        return not self.file.pinned

    @cached_property
    def description(self) -> str:
        return description_from_text(description_prefix("\n".join(self.lines)))

    @cached_property
    def note_type(self) -> str:
        """The frontmatter `type:` (Claude Code: feedback, project, reference…), or ""."""
        frontmatter = [unit for unit in self.units if unit.kind == "frontmatter"]
        if not frontmatter:
            return ""
        block = "\n".join(self.lines[frontmatter[0].start : frontmatter[0].end])
        match = _FRONTMATTER_TYPE.search(block)
        return match.group(1).rstrip().strip("'\"").lower() if match else ""

    @cached_property
    def body_lines(self) -> set[str]:
        """Its non-blank lines outside frontmatter, as compared."""
        return compared_lines(self.lines, self.units)

    def rank(self) -> tuple[Any, ...]:
        return keeper_rank(
            path=self.path,
            pinned=self.file.pinned,
            described=bool(self.description),
            uses=self.file.uses,
            content_count=self.content_count,
        )


def referenced_paths(analyses: Iterable[FileAnalysis]) -> set[str]:
    """Virtual paths that some other memory file links to or names: a link or a bare
    `name.md` resolves against the folder of the file that mentions it, and against its
    scope root (`rollout_summaries/x.md` in Codex's MEMORY.md)."""
    found: set[str] = set()
    for analysis in analyses:
        scope_root = analysis.file.scope.virtual_root
        folder = analysis.path.rsplit("/", 1)[0]
        text = "\n".join(analysis.lines)
        if "](" not in text and "[[" not in text and ".md" not in text:
            continue  # nothing the pattern could match: skip its slow scan
        for match in _REFERENCE.finditer(text):
            link, wiki, mention = match.groups()
            target = (link or mention or f"{wiki}.md").strip()
            for base in (folder, scope_root):
                resolved = posixpath.normpath(posixpath.join(base, target))
                if resolved != analysis.path and resolved.startswith(scope_root + "/"):
                    found.add(resolved)
    return found


def _count_overlapping(haystack: str, needle: str) -> int:
    """Occurrences, overlapping ones included: a needle found once this way is found at
    that one place by the tool's own (non-overlapping) search too."""
    count, index = 0, haystack.find(needle)
    while index != -1:
        count += 1
        index = haystack.find(needle, index + 1)
    return count


def edit_arguments(path: str, old: list[str], new: list[str]) -> dict[str, Any] | None:
    """One memory-tool call turning a file's lines `old` into `new`. A pure insertion becomes
    `insert`; anything else a `str_replace` of the smallest changed block, widened by context lines
    until `old_str` is unique."""
    if old == new:
        return None
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(old), len(new)) - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    low, high, grow = prefix, len(old) - suffix, len(new) - len(old)
    if low == high:
        text = "\n".join(new[low : high + grow]) + "\n"  # the tool drops one trailing ""
        return {"command": "insert", "path": path, "insert_line": low, "insert_text": text}
    # Matches are counted on the content with a final newline: a superset of the real one.
    haystack = "\n".join(old) + "\n"
    while True:
        old_str, new_str = _render_block(old, new, low, high, grow)
        if old_str and _count_overlapping(haystack, old_str) == 1:
            return {"command": "str_replace", "path": path, "old_str": old_str, "new_str": new_str}
        if high < len(old):
            high += 1
        elif low > 0:
            low -= 1
        else:
            return None


def _render_block(
    old: list[str], new: list[str], low: int, high: int, grow: int
) -> tuple[str, str]:
    """old_str/new_str replacing old[low:high] by new[low:high+grow], with the separators
    placed so the match never needs the file's final newline."""
    old_block, new_block = old[low:high], new[low : high + grow]
    if low > 0:
        replacement = "\n" + "\n".join(new_block) if new_block else ""
        return "\n" + "\n".join(old_block), replacement
    if high < len(old):
        replacement = "\n".join(new_block) + "\n" if new_block else ""
        return "\n".join(old_block) + "\n", replacement
    return "\n".join(old_block), "\n".join(new_block)


# Each scope's units are checked against every wider scope.
WIDER_SCOPES: dict[Scope, tuple[Scope, ...]] = {
    Scope.WORKSPACE: (Scope.PROJECT, Scope.GLOBAL),
    Scope.PROJECT: (Scope.GLOBAL,),
    Scope.GLOBAL: (),
}
_WIDER = frozenset(scope for wider in WIDER_SCOPES.values() for scope in wider)
# --- the plan ------------------------------------------------------------------------------


@dataclass
class Effects:
    """What one planned change does, for the run's summary."""

    repeated: int = 0
    redundant: int = 0
    carried: int = 0
    described: bool = False
    combined_into: str | None = None
    empty: bool = False
    superseded: bool = False
    wider_keys: tuple[str, ...] = ()  # the items removed as already in a wider scope


@dataclass(frozen=True)
class PlannedChange:
    """One memory-tool call of the plan. A delete with `requires` runs only if the edit of
    that path succeeded (its lines were carried there first). `sha256` is the file as it
    was read: the change is made only while the file is still exactly that."""

    path: str
    kind: Literal["edit", "delete"]
    arguments: dict[str, Any]
    reason: str = ""
    effects: Effects = field(default_factory=Effects, compare=False)
    requires: str | None = None
    sha256: str = ""


@dataclass(frozen=True)
class Plan:
    """Edits (run first), deletes (run after their edits), and the files left alone with why."""

    edits: tuple[PlannedChange, ...] = ()
    deletes: tuple[PlannedChange, ...] = ()
    left_alone: tuple[tuple[str, str], ...] = ()

    @property
    def empty(self) -> bool:
        return not self.edits and not self.deletes


def _rank_of(analyses: Sequence[FileAnalysis], index: int) -> tuple[Any, ...]:
    """The keeper rank of one file (asked only of files with a near-duplicate)."""
    return analyses[index].rank()


class _Workbench:
    """The plan being built: planned content per file, deletes, budget and byte balance."""

    def __init__(self, analyses: Sequence[FileAnalysis], budget: int) -> None:
        self.analyses = analyses
        self.remaining = budget
        self.delta = 0  # bytes added (negative: saved) by everything chosen so far
        self.content: dict[str, list[str]] = {}
        self.effects: dict[str, Effects] = {}
        self.reasons: dict[str, str] = {}
        self.deletes: dict[str, tuple[str | None, Effects]] = {}
        self.order: list[str] = []  # files in the order their change was chosen
        self.wider = self._wider_coverage()
        self.wider_lines = self._wider_lines()
        self.cleaned = {
            a.path: settle(a.lines, self.wider[a.file.scope], a.units) for a in analyses
        }
        self.referenced = referenced_paths(analyses)

    def _wider_coverage(self) -> dict[Scope, Coverage]:
        by_scope = {scope: Coverage() for scope in SHARED_SCOPES}
        for analysis in self.analyses:
            if analysis.file.scope in _WIDER:  # straight into the scope's (no set per file)
                add_coverage(by_scope[analysis.file.scope], analysis.units)
        wider = {}
        for scope in SHARED_SCOPES:
            coverage = Coverage()
            for other in WIDER_SCOPES[scope]:
                coverage.update(by_scope[other])
            wider[scope] = coverage
        return wider

    def _wider_lines(self) -> dict[Scope, set[str]]:
        by_scope: dict[Scope, set[str]] = {scope: set() for scope in SHARED_SCOPES}
        for analysis in self.analyses:
            if analysis.file.scope in _WIDER:
                by_scope[analysis.file.scope] |= analysis.body_lines
        return {
            scope: set().union(*(by_scope[other] for other in WIDER_SCOPES[scope]))
            for scope in SHARED_SCOPES
        }

    def touched(self, path: str) -> bool:
        return path in self.content or path in self.deletes

    def deletable(self, analysis: FileAnalysis) -> bool:
        return analysis.changeable and analysis.path not in self.referenced

    def choose(self, path: str, reason: str) -> None:
        self.reasons[path] = reason
        self.order.append(path)

    # --- 1. combines ------------------------------------------------------------------

    def combine_groups(self) -> list[tuple[list[FileAnalysis], float]]:
        """Near-duplicate groups of every scope, the most valuable first."""
        groups: list[tuple[list[FileAnalysis], float]] = []
        by_prose: dict[tuple[str, ...], frozenset[int]] = {}
        for scope in SHARED_SCOPES:
            items: list[FileAnalysis] = []
            shingles: list[frozenset[int]] = []
            for analysis in self.analyses:
                if analysis.file.scope is scope:
                    words = self._shingles(self.cleaned[analysis.path], by_prose)
                    if words:
                        items.append(analysis)
                        shingles.append(words)
            found = near_duplicate_groups(
                shingles, [a.note_type for a in items], partial(_rank_of, items)
            )
            groups.extend(([items[i] for i in group], low) for group, low in found)

        def value(group: tuple[list[FileAnalysis], float]) -> tuple[int, str]:
            keeper = min(group[0], key=FileAnalysis.rank)
            return (-sum(a.size for a in group[0] if a is not keeper), keeper.path)

        return sorted(groups, key=value)

    @staticmethod
    def _shingles(
        cleaned: Cleaned, by_prose: dict[tuple[str, ...], frozenset[int]]
    ) -> frozenset[int]:
        """A file's shingles, made once for all files whose kept content is the same
        (copies of a note, notes made from one template): shingling is most of the time
        a plan of a big home takes."""
        prose = tuple([unit.prose for unit in cleaned.kept])
        found = by_prose.get(prose)
        if found is None:
            found = by_prose[prose] = cleaned.shingles
        return found

    def combine(self, group: list[FileAnalysis], similarity: float) -> None:
        keeper, *others = sorted(group, key=FileAnalysis.rank)
        if self.touched(keeper.path):
            return
        members = [m for m in others if self.deletable(m) and not self.touched(m.path)]
        if keeper.file.pinned:  # never edited: it may only absorb files that add nothing
            members = [m for m in members if self._combined(keeper, [m]) is not None]
        members.sort(key=lambda m: (-m.size, m.path))
        for count in range(len(members), 0, -1):
            chosen = members[:count]
            combined = self._combined(keeper, chosen)
            if combined is None:
                continue
            new_lines, effects = combined
            edit = new_lines != list(keeper.lines)
            if edit and keeper.file.pinned:
                continue  # a pinned keeper is never edited
            cost = len(chosen) + (1 if edit else 0)
            delta = text_size(new_lines) - keeper.size - sum(m.size for m in chosen)
            if cost > self.remaining or delta > 0:
                continue
            self.remaining -= cost
            self.delta += delta
            alike = f"{round(similarity * 100)}% alike"
            names = ", ".join(short(m.path) for m in chosen)
            if edit:
                self.content[keeper.path] = new_lines
                self.effects[keeper.path] = effects
                what = plural(effects.carried, "item")
                self.choose(
                    keeper.path,
                    f"Took {what} it lacked from {names} ({alike}), "
                    + ("which is" if len(chosen) == 1 else "which are")
                    + " then deleted."
                    + self._cleanup_note(keeper.file.scope, effects),
                )
            for member in chosen:
                requires = keeper.path if edit else None
                self.deletes[member.path] = (requires, Effects(combined_into=keeper.path))
                said = "everything else it said" if edit else "everything it said"
                self.choose(
                    member.path,
                    f"Combined into {short(keeper.path)} ({alike}): {said} is already there.",
                )
            return

    def _combined(
        self, keeper: FileAnalysis, members: list[FileAnalysis]
    ) -> tuple[list[str], Effects] | None:
        base = self.cleaned[keeper.path]
        source = list(keeper.lines) if keeper.file.pinned else base.lines
        carried = carry_into(source, [self.cleaned[m.path].lines for m in members])
        if carried is None:
            return None
        if keeper.file.pinned:
            return (source, Effects()) if carried.units == 0 else None
        combined = settle(carried.lines, self.wider[keeper.file.scope])
        effects = Effects(
            repeated=base.repeated + combined.repeated,
            redundant=base.redundant + combined.redundant,
            carried=carried.units,
            wider_keys=(*base.wider_keys, *combined.wider_keys),
        )
        return combined.lines, effects

    # --- 2. cleanups, 3. empty files ---------------------------------------------------

    def cleanups(self) -> list[tuple[int, FileAnalysis, Cleaned]]:
        """Files that step 2 changes, the biggest savings first."""
        found: list[tuple[int, FileAnalysis, Cleaned]] = []
        if self.remaining < 1:
            return found  # none could be made: the budget is spent
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
        self.delta += delta
        self.content[analysis.path] = result.lines
        effects = Effects(
            repeated=result.repeated,
            redundant=result.redundant,
            wider_keys=tuple(result.wider_keys),
        )
        self.effects[analysis.path] = effects
        self.choose(analysis.path, self._cleanup_note(analysis.file.scope, effects).strip())

    def _cleanup_note(self, scope: Scope, effects: Effects) -> str:
        holders = self._holders(scope, effects.wider_keys)
        parts = []
        if effects.repeated:
            parts.append(
                f"Removed {plural(effects.repeated, 'item')} said twice under the same heading."
            )
        if effects.redundant:
            where = f" ({holders})" if holders else ""
            parts.append(
                f"Removed {plural(effects.redundant, 'item')} already in a wider scope{where}."
            )
        return "".join(f" {part}" for part in parts)

    def _holders(self, scope: Scope, keys: Sequence[str]) -> str:
        """The files of wider scopes (at most two named) where these removed items stand."""
        wanted = set(keys)
        if not wanted:
            return ""
        found = sorted(
            (
                a
                for a in self.analyses
                if a.file.scope in WIDER_SCOPES[scope] and a.coverage.keys & wanted
            ),
            key=lambda a: (-len(a.coverage.keys & wanted), a.path),
        )
        names = " and ".join(short(a.path) for a in found[:2])
        return names + (f" and {plural(len(found) - 2, 'other file')}" if len(found) > 2 else "")

    def _covering_files(self, scope: Scope, lines: set[str]) -> str:
        """The fewest wider-scope files that hold all these lines, named (greedy cover)."""
        candidates = [a for a in self.analyses if a.file.scope in WIDER_SCOPES[scope]]
        missing, chosen = set(lines), []
        while missing:
            best = max(candidates, key=lambda a: len(a.body_lines & missing))  # first of ties
            if not best.body_lines & missing:
                break
            chosen.append(short(best.path))
            missing -= best.body_lines
        if len(chosen) <= 2:
            return " and ".join(chosen)
        return f"{chosen[0]}, {chosen[1]} and {plural(len(chosen) - 2, 'other file')}"

    def supersede(self, analysis: FileAnalysis) -> bool:
        """Delete a file whose every line stands in wider scopes (and say where)."""
        if self.remaining < 1 or self.touched(analysis.path) or not self.deletable(analysis):
            return False
        lines = analysis.body_lines
        if analysis.empty or not lines or not lines <= self.wider_lines[analysis.file.scope]:
            return False
        names = self._covering_files(analysis.file.scope, lines)
        self.remaining -= 1
        self.delta -= analysis.size
        self.deletes[analysis.path] = (None, Effects(superseded=True))
        self.choose(analysis.path, f"Every line of it is already in {names}.")
        return True

    def delete_empty(self, analysis: FileAnalysis) -> None:
        if self.remaining < 1 or not self.deletable(analysis) or self.touched(analysis.path):
            return
        self.remaining -= 1
        self.delta -= analysis.size
        self.deletes[analysis.path] = (None, Effects(empty=True))
        self.choose(analysis.path, "It was empty.")

    # --- 4. descriptions ----------------------------------------------------------------

    def describe(self, analysis: FileAnalysis) -> None:
        if not analysis.changeable or analysis.path in self.deletes:
            return
        already_edited = analysis.path in self.content
        if not already_edited and self.remaining < 1:
            return  # (before reading its description: most files of a big home stop here)
        if analysis.description:
            return
        current = self.content.get(analysis.path, list(analysis.lines))
        description = build_description(current)
        if description is None:
            return
        updated = with_description(current, description)
        if updated is None:
            return
        extra = text_size(updated) - text_size(current)
        if self.delta + extra > 0:
            return  # only savings elsewhere in this run may pay for the added line
        self.delta += extra
        self.content[analysis.path] = updated
        self.effects.setdefault(analysis.path, Effects()).described = True
        note = f"Added a description built from {description.basis}: “{description.text}”."
        if already_edited:
            self.reasons[analysis.path] = f"{self.reasons[analysis.path]} {note}"
        else:
            self.remaining -= 1
            self.choose(analysis.path, note)

    # --- result ----------------------------------------------------------------------------

    def plan(self, left_alone: tuple[tuple[str, str], ...]) -> Plan:
        by_path = {analysis.path: analysis for analysis in self.analyses}
        edits: list[PlannedChange] = []
        failed: set[str] = set()
        for path in self.order:
            if path not in self.content:
                continue
            arguments = edit_arguments(path, list(by_path[path].lines), self.content[path])
            if arguments is None:
                failed.add(path)
                continue
            edits.append(
                PlannedChange(
                    path,
                    "edit",
                    arguments,
                    self.reasons.get(path, ""),
                    self.effects.get(path, Effects()),
                    sha256=by_path[path].file.sha256,
                )
            )
        deletes = []
        for path in self.order:
            if path in self.deletes:
                requires, effects = self.deletes[path]
                if requires not in failed:
                    deletes.append(
                        PlannedChange(
                            path,
                            "delete",
                            {"command": "delete", "path": path},
                            self.reasons.get(path, ""),
                            effects,
                            requires,
                            by_path[path].file.sha256,
                        )
                    )
        return Plan(tuple(edits), tuple(deletes), left_alone)


def unit_keys(plan: Plan, calls: Sequence[Mapping[str, Any]]) -> list[str | None]:
    """For each call of a run making `plan`'s changes (its arguments), the merge it belongs
    to: the path of the file the merge keeps, for that file's edit and the deletes that need
    it; None for a change that stands alone (`runner.KnowsUnits`)."""
    combined_into = {change.path: change.requires for change in plan.deletes}
    keepers = {keeper for keeper in combined_into.values() if keeper is not None}
    keys: list[str | None] = []
    for call in calls:
        path = call.get("path")
        if not isinstance(path, str):
            keys.append(None)
        elif call.get("command") == "delete":
            keys.append(combined_into.get(path))
        else:
            keys.append(path if path in keepers else None)
    return keys


def plan_consolidation(files: Iterable[MemoryFile], *, budget: int) -> Plan:
    """Decide the changes for these files within `budget` tool calls (see module doc)."""
    with collector_paused():
        return _plan(list(files), budget)


def _plan(files: list[MemoryFile], budget: int) -> Plan:
    left_alone = tuple((f.path, f.skipped) for f in files if f.skipped is not None)
    analyses = [FileAnalysis(file) for file in files if file.readable]
    bench = _Workbench(analyses, budget)
    for group, similarity in bench.combine_groups():
        bench.combine(group, similarity)
    for analysis in analyses:
        if analysis.file.scope is not Scope.GLOBAL:
            bench.supersede(analysis)
    for delta, analysis, result in bench.cleanups():
        bench.cleanup(delta, analysis, result)
    for analysis in analyses:
        if analysis.empty:
            bench.delete_empty(analysis)
    for analysis in sorted(analyses, key=lambda a: (a.path not in bench.content, a.path)):
        bench.describe(analysis)
    return bench.plan(left_alone)


# --- summary ----------------------------------------------------------------------------------


def summarize(
    applied: Sequence[PlannedChange],
    *,
    dry_run: bool = False,
    refused: int = 0,
    changed_on_disk: int = 0,
    left_alone: int = 0,
) -> str:
    """One line saying what the applied (or, in a dry run, proposed) changes did."""
    combined = [change for change in applied if change.effects.combined_into]
    totals: Counter[str] = Counter()
    for change in applied:
        effects = change.effects
        totals["repeated"] += effects.repeated
        totals["redundant"] += effects.redundant
        totals["described"] += effects.described
        totals["empty"] += effects.empty
        totals["superseded"] += effects.superseded
    parts = []
    if combined:
        names = ", ".join(
            f"{short(c.path)} into {short(c.effects.combined_into or '')}" for c in combined[:3]
        )
        more = f" and {len(combined) - 3} more" if len(combined) > 3 else ""
        parts.append(f"combined {names}{more}")
    if totals["repeated"]:
        parts.append(f"removed {plural(totals['repeated'], 'item')} said twice under one heading")
    if totals["redundant"]:
        parts.append(f"removed {plural(totals['redundant'], 'item')} already in a wider scope")
    if totals["superseded"]:
        parts.append(
            f"deleted {plural(totals['superseded'], 'file')} whose every line is in a wider scope"
        )
    if totals["empty"]:
        parts.append(f"deleted {plural(totals['empty'], 'empty file')}")
    if totals["described"]:
        parts.append(f"added {plural(totals['described'], 'missing description')}")
    if refused:
        parts.append(f"{plural(refused, 'change')} refused")
    if changed_on_disk:
        parts.append(f"{plural(changed_on_disk, 'file')} skipped: changed on disk during the run")
    if not parts:
        return "no changes needed"
    text = "; ".join(parts)
    text = text[0].upper() + text[1:] + "."
    if left_alone:
        text += f" Left {plural(left_alone, 'file')} that Memtab does not consolidate alone."
    return f"Dry run, nothing applied: {text}" if dry_run else text
