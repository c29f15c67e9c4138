"""What the editor's open document (`components.editor.document.OpenDocument`) needs of
the window, as small protocols — no Qt."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol

from memtab.components.editor.merge import MergeBasis, MergeOutcome
from memtab.components.editor.session import BarKind, Choice
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.file_protocol.memory_file import MemoryFile


class DocumentHost(Protocol):
    """What `OpenDocument` tells the tab (`FileTab`)."""

    def refresh_chrome(self) -> None:
        """The open file's state changed: update the header, Save and `dirty_changed`."""
        ...

    def document_opened(self, ref: MemoryFileRef) -> None:
        """A document was opened (or reopened) and its text is shown: `file_opened`."""
        ...

    def document_saved(self, ref: MemoryFileRef) -> None:
        """The document was saved: `saved`."""
        ...

    def document_moved(self, document: MemoryFile) -> None:
        """The open file was renamed or moved on disk, and followed: show its new name."""
        ...

    def close_after_asking(self) -> None:
        """Close the file once the user agreed to leave unsaved changes (Close)."""
        ...


class DocumentView(Protocol):
    """The text `OpenDocument` shows and edits (`EditorView`)."""

    def buffer_text(self) -> str:
        """What the editor holds, with `\\n` line breaks."""
        ...

    def is_modified(self) -> bool:
        """Whether the buffer was edited since it was loaded or marked clean."""
        ...

    def set_modified(self, modified: bool) -> None:
        """Mark the buffer edited (or clean)."""
        ...

    def replace_text(self, new_text: str) -> None:
        """Replace the buffer with one undoable edit (the cursor stays where it can)."""
        ...

    def end_with_newline(self) -> bool:
        """Add a final line break if the text lacks one (undoably); True when added."""
        ...

    def quietly(self) -> AbstractContextManager[None]:
        """Programmatic edits: no modified signal until the block ends."""
        ...

    def show_file(self, title: str, text: str, read_only: bool, tooltip: str | None = None) -> None:
        """A new text under `title`, with a fresh undo history."""
        ...

    def show_rendered(self, markdown: str) -> None:
        """What Preview shows in place of the text (a file shown in Source as it is)."""
        ...

    def start_past_frontmatter(self) -> None:
        """A cursor at the very top goes past the frontmatter."""
        ...

    def focus_text(self) -> None:
        """Give the text the keyboard focus."""
        ...


class DocumentPrompts(Protocol):
    """Where `OpenDocument` asks the user: the bar and the diff window (`EditorPrompts`)."""

    @property
    def merge(self) -> MergeOutcome | None:
        """The text the open diff window's Keep both would put in place of the draft."""
        ...

    def show(self, kind: BarKind, text: str, choices: list[Choice] | None = None) -> None:
        """Show `text` in the bar with a button for each choice."""
        ...

    def clear(self) -> None:
        """Hide the bar."""
        ...

    def open_diff(
        self,
        title: str,
        old_label: str,
        old: str,
        new: str,
        choices: list[Choice],
        merge_basis: MergeBasis | None = None,
    ) -> None:
        """Open a window comparing `old` with the draft `new`, offering `choices`."""
        ...

    def close_diff(self) -> None:
        """Close the diff window, if open."""
        ...


class Reading(Protocol):
    """The "Reading…" page and the keys held while a text is on its way (`WhileReading`)."""

    @property
    def page(self) -> bool:
        """Whether the page says "Reading…"."""
        ...

    def hold_keys(self) -> None:
        """The text is on its way: hold what is typed from now on."""
        ...

    def say(self, title: str, tooltip: str) -> None:
        """The text is still on its way: say "Reading…" under `title` (now or when due)."""
        ...

    def release_keys(self) -> None:
        """The text is loaded: type what was held into it."""
        ...

    def ended(self) -> None:
        """A page is shown in place of "Reading…"."""
        ...

    def drop(self) -> None:
        """No page to come: drop the keys held."""
        ...
