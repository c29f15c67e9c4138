"""The editor's operations: what the diff window shows — the diff of the file on disk and
the draft and, where both changed, the editor's three-way merge and its texts
(`components.text_diff`, `components.editor.merge`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from memtab.components import text_diff
from memtab.components.editor import merge
from memtab.components.editor.merge import MergeBasis
from memtab.components.jobs import JobContext
from memtab.components.merge.three_way import ThreeWayTexts, three_way_texts

THREE_WAY_LABELS = ("When you opened it", "Your draft", "On disk now")


@dataclass(frozen=True)
class Comparison:
    """The diff, and the merge and three-way texts when a merge was asked for."""

    diff: text_diff.DiffResult
    merge: merge.MergeResult | None
    disk_sha: str | None
    three_way: ThreeWayTexts | None = None


def compare(old: str, new: str, basis: MergeBasis | None, ctx: JobContext) -> Comparison:
    """The diff of the text on disk (`old`) and the draft (`new`); with a merge `basis`,
    the merge and the three-way texts too (resolved through the modules so tests can
    watch)."""
    diff = text_diff.compute_diff(old, new, ctx)
    if basis is None:
        return Comparison(diff, None, None)
    merged = merge.merge_three_way(basis.base, new, old, ctx)
    texts = three_way_texts(
        basis.base.encode(), new.encode(), old.encode(), labels=THREE_WAY_LABELS
    )
    # The text to keep starts as the editor's own merge (appends at one place are a
    # conflict here, as Keep both says), else as the draft.
    start = merged.text if merged.text is not None else new
    texts = dataclasses.replace(texts, draft=start, clean=merged.text is not None)
    return Comparison(diff, merged, basis.disk_sha, texts)
