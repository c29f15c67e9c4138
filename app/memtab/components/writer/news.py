"""What the background writer's last run means for the user, in words (no Qt)."""

from __future__ import annotations

import difflib
import enum
from dataclasses import dataclass

from memtab import humanize
from memtab.markdown import LineKind, classify, text_lines
from memtab.store.paths import PathError, parse_file_path


class NewsKind(enum.StrEnum):
    """What the run did that is worth saying."""

    RECORDED = "recorded"
    SUGGESTED = "suggested"


def added_lines(before: str, after: str) -> tuple[int, ...]:
    """The numbers (from 0) of the lines of `after` that are not in `before` — the lines
    a run added or changed — leaving out blank ones."""
    old, new = text_lines(before), text_lines(after)
    added: list[int] = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag in ("insert", "replace"):
            added.extend(j for j in range(j1, j2) if new[j].strip())
    return tuple(added)


def count_notes(after: str, lines: tuple[int, ...]) -> int:
    """How many notes the added `lines` hold: the bullets among them (a note written as
    a plain line counts too when no bullet was added)."""
    kinds = [line.kind for line in classify(text_lines(after))]
    added = [kinds[n] for n in lines if n < len(kinds)]
    bullets = added.count(LineKind.LIST_ITEM)
    return bullets or len(added) - added.count(LineKind.HEADING)


def file_name(virtual_path: str) -> str:
    """The file's name for a sentence (`notes.md`), or the path when it is not one."""
    try:
        return parse_file_path(virtual_path).name
    except PathError:
        return virtual_path


@dataclass(frozen=True)
class WriterNews:
    """A run's news for one workspace."""

    kind: NewsKind
    workspace_id: str
    workspace_name: str
    memory_path: str
    count: int
    at_ms: int
    lines: tuple[int, ...] = ()
    left_out: int = 0
    """Notes past the offline writer's per-run limit, not kept (the less sure ones)."""

    def text(self, now: int | None = None) -> str:
        """The status bar's line."""
        notes = humanize.plural(self.count, "note") + self._left_out_clause()
        if self.kind is NewsKind.RECORDED:
            when = humanize.relative_time(self.at_ms, now)
            return f"Recorded {notes} in {file_name(self.memory_path)} · {when}"
        return f"Suggested {notes} — review"

    def _left_out_clause(self) -> str:
        # The words of the run's summary in the runs log and the CLI (writer/job/run.py).
        return f" ({self.left_out} less sure left out)" if self.left_out else ""

    def details(self) -> str:
        """A tooltip: where, for which workspace, and what clicking does."""
        where = f"{self.memory_path} of workspace {self.workspace_name}"
        when = humanize.absolute_time(self.at_ms)
        left_out = (
            f" It found {humanize.plural(self.left_out, 'more note')} and left "
            f"{'them' if self.left_out > 1 else 'it'} out: a run keeps only its surest, so "
            "that a review stays short."
            if self.left_out
            else ""
        )
        if self.kind is NewsKind.RECORDED:
            return f"The memory writer added to {where} at {when}.{left_out} Click to open it."
        return (
            f"The offline memory writer suggested notes for {where} at {when}.{left_out} "
            "Click to review them: accept, edit then accept, or dismiss each."
        )

    def notification(self) -> tuple[str, str]:
        """(title, body) of a desktop notification."""
        notes = humanize.plural(self.count, "note")
        if self.kind is NewsKind.RECORDED:
            return (
                f"Memtab recorded {notes}",
                f"In {file_name(self.memory_path)} of {self.workspace_name}",
            )
        return (f"Memtab suggested {notes}", f"For {self.workspace_name}: review them in Memtab")


def news_from_run(
    *,
    outcome: str,
    workspace_id: str,
    workspace_name: str,
    memory_path: str,
    before: str,
    after: str,
    suggested: int,
    at_ms: int,
    left_out: int = 0,
) -> WriterNews | None:
    """The news of a finished run (None when it found nothing new, or failed)."""
    if outcome == "wrote":
        lines = added_lines(before, after)
        count = count_notes(after, lines)
        if count <= 0:
            return None  # it only removed or reworded: nothing recorded
        return WriterNews(
            NewsKind.RECORDED,
            workspace_id,
            workspace_name,
            memory_path,
            count,
            at_ms,
            lines,
            left_out,
        )
    if outcome == "suggested" and suggested > 0:
        return WriterNews(
            NewsKind.SUGGESTED,
            workspace_id,
            workspace_name,
            memory_path,
            suggested,
            at_ms,
            left_out=left_out,
        )
    return None
