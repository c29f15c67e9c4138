"""What the Inbox's review of an agent's proposal says above its diff, in words (no Qt):
what the proposal would do to its file (`store.proposals.preview`, diffed off the GUI
thread: `components.text_diff`), or why the memory tool would refuse it now."""

from __future__ import annotations

from memtab import humanize
from memtab.components.text_diff import DiffResult
from memtab.store.proposals.preview import ProposalPreview

MOVED_UNCHANGED = "Its text moves unchanged."


def review_heading(preview: ProposalPreview, diff: DiffResult | None) -> str:
    """What a proposal would do, in one line above its diff ("Changes /memories/…: 2
    lines added, 1 removed"), or why it cannot be done now."""
    if preview.problem is not None:
        return f"Cannot be applied now: {preview.problem}"
    path = preview.path
    if preview.command == "create":
        return f"Creates {path} ({_lines(preview.after)})"
    if preview.command == "delete":
        return f"Deletes {path} ({_lines(preview.before)})"
    if preview.command == "rename":
        return f"Moves {path} to {preview.new_path}"
    if diff is None or diff.identical:
        return f"Leaves {path} as it is"
    counts = [f"{humanize.plural(diff.added, 'line')} added"] if diff.added else []
    if diff.removed:
        removed = f"{diff.removed}" if counts else humanize.plural(diff.removed, "line")
        counts.append(f"{removed} removed")
    return f"Changes {path}: {', '.join(counts)}"


def _lines(text: str | None) -> str:
    return humanize.plural(len((text or "").splitlines()), "line")
