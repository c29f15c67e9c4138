"""A Gemini CLI patch's review, without Qt: each file it writes named as the tree names
it, above its diff."""

from __future__ import annotations

from memtab.components.text_diff import LineKind, compute_diff
from memtab.components.writer.inbox_view import PatchedFile, patch_heading, patched_diff


def test_each_file_is_named_by_its_agent_not_by_its_file_id() -> None:
    # The review read "gemini:user:GEMINI.md", a name a person sees nowhere else.
    files = [
        PatchedFile("gemini:user:GEMINI.md", False, compute_diff("a\n", "a\nb\n")),
        PatchedFile("gemini:memory-1a2b:deploy.md", True, compute_diff("", "x\n")),
        PatchedFile("/elsewhere/notes.md", True, compute_diff("", "y\n")),  # no source holds it
    ]
    hunks = [line.text for line in patched_diff(files).lines if line.kind is LineKind.HUNK]
    names = [text for text in hunks if not text.startswith("@@")]
    assert names == [
        "Gemini CLI · GEMINI.md",
        "Gemini CLI · deploy.md (new file)",
        "/elsewhere/notes.md (new file)",
    ]
    assert patch_heading(files).startswith("Changes 3 files: GEMINI.md (1 line added)")
