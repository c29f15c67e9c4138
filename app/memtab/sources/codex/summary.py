"""What Codex requires of `memories/memory_summary.md` (docs/formats.md §17.3): its first line
(Rust's `str::lines`) exactly `v1`, or its consolidation rewrites it from scratch; a save without
it is refused."""

from __future__ import annotations

from memtab.file_protocol.file_ref import source_id

SUMMARY_NAME = "memory_summary.md"
VERSION_LINE = "v1"
SUMMARY_FILE_ID = f"{source_id('codex', 'memories')}:{SUMMARY_NAME}"
"""The summary's file id (docs/formats.md §17.1): the only summary Codex reads now."""
HANDBOOK_FILE_ID = f"{source_id('codex', 'memories')}:MEMORY.md"
"""The handbook Codex's consolidation writes, which the summary restates in short."""

WITHOUT_VERSION_LINE = (
    "Codex's memory_summary.md must begin with the line `v1`: without it, Codex's "
    "consolidation does not read the summary and writes it again from scratch (what it says "
    "is lost), and counts its run as failed. Put the line `v1` back at the top"
)


def first_line(text: str) -> str | None:
    """The first line as Codex reads it (Rust's `str::lines`); None for an empty text."""
    if not text:
        return None
    return text.split("\n", 1)[0].removesuffix("\r")


def has_version_line(text: str) -> bool:
    """Whether `text` begins with the exact line `v1`."""
    return first_line(text) == VERSION_LINE


def summary_problem(text: str) -> str | None:
    """Why Codex would not read `text` as its summary (None: it begins with `v1`)."""
    return None if has_version_line(text) else WITHOUT_VERSION_LINE


def restates(one: str, other: str) -> bool:
    """Whether of two files (by id) one is Codex's summary of the other: what the summary
    says again of the handbook is Codex's own short form, not a note written twice."""
    return {one, other} == {SUMMARY_FILE_ID, HANDBOOK_FILE_ID}
