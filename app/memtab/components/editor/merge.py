"""The editor's draft merged with a file changed on disk (`store.text.line_merge`: overlaps
refused), what it says of it, and the diff window's job (`compare`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from memtab.components import text_diff
from memtab.components.jobs import CancelToken, JobContext
from memtab.components.merge import KEEP_BOTH, ThreeWayTexts, three_way_texts
from memtab.humanize import plural
from memtab.store.text.line_merge import LineMerge, merge_lines


@dataclass(frozen=True)
class MergeBasis:
    """A draft's base text and the disk version by sha (the merge holds only while disk does)."""

    base: str
    disk_sha: str


@dataclass(frozen=True)
class MergeResult(LineMerge):
    """The merged text, or None when the changes overlap (`conflicts`), and the editor's words."""

    def counts(self) -> str:
        """`Your 2 changes and 1 change on disk`."""
        mine, theirs = plural(self.mine_changes, "change"), plural(self.theirs_changes, "change")
        return f"Your {mine} and {theirs} on disk"

    def describe(self) -> str:
        """One line for the user: what was merged, or why nothing was."""
        if self.clean:
            return f"{self.counts()} touch different lines: {KEEP_BOTH.button} keeps them all."
        first, last = self.conflicts[0]
        where = f"line {first}" if first == last else f"lines {first}–{last}"
        more = len(self.conflicts) - 1
        also = f" (and {plural(more, 'other place')})" if more else ""
        return (
            f"Your draft and the file on disk both changed {where}{also}, so they cannot be "
            "merged automatically: keep one version, or copy what you need by hand."
        )


@dataclass(frozen=True)
class MergeOutcome:
    """The text to put in place of the draft, its merge and disk version; `edited` by the user."""

    text: str
    result: MergeResult
    disk_sha: str
    edited: bool = False


def keep_both_outcome(
    merged: MergeOutcome | None, kept_text: str | None, *, edited: bool
) -> MergeOutcome | None:
    """What Keep both puts in place of the draft: the three-way view's kept text (the clean merge as
    edited, or a conflict resolved by hand), else the clean merge; None when there is none."""
    if merged is None or (merged.result.text is None and not edited):
        return None
    if kept_text is None:
        return merged
    return MergeOutcome(kept_text, merged.result, merged.disk_sha, edited=edited)


class KeepBoth:
    """What the open diff window's Keep both keeps, as the merge computed with its diff
    comes (`merged`) and the user edits the three-way view's text to keep (`text_edited`)."""

    def __init__(self) -> None:
        self._merge: MergeOutcome | None = None
        self._edited = False

    def reset(self) -> None:
        """A diff window opens or closes: no merge yet, nothing edited."""
        self._merge = None
        self._edited = False

    def merged(self, result: MergeResult | None, disk_sha: str | None) -> None:
        """The diff's merge came: `result` of the draft with the disk version `disk_sha`."""
        if result is not None and disk_sha:
            self._merge = MergeOutcome(result.text or "", result, disk_sha)

    def text_edited(self) -> bool:
        """The user changed the text to keep; True when Keep both keeps it now (there is
        a merge it stands for)."""
        if self._merge is None:
            return False
        self._edited = True
        return True

    def outcome(self, kept_text: str | None) -> MergeOutcome | None:
        """What Keep both puts in place of the draft (`keep_both_outcome`)."""
        return keep_both_outcome(self._merge, kept_text, edited=self._edited)


def merge_three_way(
    base: str, mine: str, theirs: str, ctx: CancelToken | None = None
) -> MergeResult:
    """Merge the changes `base` → `mine` (the draft) and `base` → `theirs` (the disk)."""
    merged = merge_lines(base, mine, theirs, check=ctx.raise_if_cancelled if ctx else None)
    return MergeResult(merged.text, merged.mine_changes, merged.theirs_changes, merged.conflicts)


THREE_WAY_LABELS = ("When you opened it", "Your draft", "On disk now")


@dataclass(frozen=True)
class Comparison:
    """The diff, and the merge and three-way texts when a merge was asked for."""

    diff: text_diff.DiffResult
    merge: MergeResult | None
    disk_sha: str | None
    three_way: ThreeWayTexts | None = None


def compare(old: str, new: str, basis: MergeBasis | None, ctx: JobContext) -> Comparison:
    """The job: the diff of the text on disk (`old`) and the draft (`new`); with a merge
    `basis`, the merge and the three-way texts too."""
    diff = text_diff.compute_diff(old, new, ctx)
    if basis is None:
        return Comparison(diff, None, None)
    merged = merge_three_way(basis.base, new, old, ctx)
    texts = three_way_texts(
        basis.base.encode(), new.encode(), old.encode(), labels=THREE_WAY_LABELS
    )
    # The text to keep starts as the editor's own merge (appends at one place are a
    # conflict here, as Keep both says), else as the draft.
    start = merged.text if merged.text is not None else new
    texts = dataclasses.replace(texts, draft=start, clean=merged.text is not None)
    return Comparison(diff, merged, basis.disk_sha, texts)
