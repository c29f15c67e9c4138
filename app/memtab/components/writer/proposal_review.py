"""What the Inbox's review of an agent's proposal says above its diff, in words (no Qt):
what the proposal would do to its file (`store.proposals.preview`, diffed off the GUI
thread: `components.text_diff`), or why the memory tool would refuse it now. A Gemini
CLI patch is reviewed the same way, over every file it writes (`patched_diff`), or as the
patch it is when it cannot be applied (`patch_diff`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memtab import humanize
from memtab.components.text_diff import DiffLine, DiffResult, LineKind
from memtab.file_protocol.file_ref import SourceError, parse_file_ref
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


@dataclass(frozen=True)
class PatchedFile:
    """A file a Gemini patch writes: its name, whether it creates it, its diff."""

    name: str
    new_file: bool
    diff: DiffResult


def patch_heading(files: Sequence[PatchedFile]) -> str:
    """What a patch would do, in one line ("Changes 2 files: deploy.md (new, 3 lines);
    MEMORY.md (1 line added)")."""
    parts = []
    for file in files:
        short = file.name.rsplit(":", 1)[-1]
        if file.new_file:
            parts.append(f"{short} (new, {humanize.plural(file.diff.added, 'line')})")
        else:
            counts = (
                [f"{humanize.plural(file.diff.added, 'line')} added"] if file.diff.added else []
            )
            if file.diff.removed:
                counts.append(
                    f"{file.diff.removed} removed"
                    if counts
                    else f"{humanize.plural(file.diff.removed, 'line')} removed"
                )
            parts.append(f"{short} ({', '.join(counts) or 'unchanged'})")
    return f"Changes {humanize.plural(len(files), 'file')}: {'; '.join(parts)}"


def _shown(name: str) -> str:
    """A file a patch writes, as a person is shown it (`MemoryFileRef.shown`)."""
    try:
        return parse_file_ref(name).shown
    except (SourceError, ValueError):  # ValueError: PathError
        return name


def patched_diff(files: Sequence[PatchedFile]) -> DiffResult:
    """Every file's diff, each under a line naming it as the tree does ("Gemini CLI ·
    GEMINI.md", not its file id)."""
    lines: list[DiffLine] = []
    for file in files:
        lines.append(
            DiffLine(LineKind.HUNK, f"{_shown(file.name)}{' (new file)' if file.new_file else ''}")
        )
        lines.extend(file.diff.lines)
    return DiffResult(
        tuple(lines),
        sum(f.diff.added for f in files),
        sum(f.diff.removed for f in files),
    )


def patch_diff(text: str) -> DiffResult:
    """A patch's own lines as a diff: headers and `@@` lines, added, removed, context."""
    lines: list[DiffLine] = []
    added = removed = 0
    for line in text.split("\n"):
        if line.startswith(("@@", "--- ", "+++ ")):
            lines.append(DiffLine(LineKind.HUNK, line))
        elif line.startswith("+"):
            lines.append(DiffLine(LineKind.ADDED, line[1:]))
            added += 1
        elif line.startswith("-"):
            lines.append(DiffLine(LineKind.REMOVED, line[1:]))
            removed += 1
        else:
            lines.append(DiffLine(LineKind.CONTEXT, line[1:] if line.startswith(" ") else line))
    return DiffResult(tuple(lines), added, removed)
