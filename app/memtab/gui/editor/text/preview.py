"""The rendered Markdown preview shown beside or instead of the editor's source.

Qt's own Markdown reader (`QTextDocument.setMarkdown`, CommonMark with GitHub extensions)
renders the body; the frontmatter is left out (the description has its own field above the
editor). A click on a link is reported (`link_clicked`): the tab decides where it leads
(`components.editor.panel` — a memory file opens in Memtab, a web link in the browser,
`file:` and other schemes never: memory files are untrusted text). In Claude Code's
instruction files, `@`-imports are links too (`components.loads`).
"""

from __future__ import annotations

from PySide6.QtCore import QUrl, Signal, Slot
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QTextBrowser, QWidget

from memtab.components.editor.text_buffer import body_without_frontmatter
from memtab.components.loads import with_import_links


class MarkdownPreview(QTextBrowser):
    """A read-only view of a Markdown buffer, rendered; accessible name "Markdown preview".

    Signals:
        link_clicked(str): the target of a link clicked, as written.
    """

    link_clicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        """An empty preview."""
        super().__init__(parent)
        self.setAccessibleName("Markdown preview")
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self._on_anchor_clicked)
        self.document().setDocumentMargin(14)
        self._source = ""
        self._imports = False

    @property
    def source_text(self) -> str:
        """The Markdown (with frontmatter) last rendered."""
        return self._source

    def set_markdown_source(self, text: str) -> None:
        """Render `text`, leaving out its frontmatter; keeps the scroll position."""
        if text == self._source and not self.document().isEmpty():
            return
        self._source = text
        bar = self.verticalScrollBar()
        position = bar.value()
        body = body_without_frontmatter(text)
        if self._imports:
            body = with_import_links(body)
        self.document().setMarkdown(body, QTextDocument.MarkdownFeature.MarkdownDialectGitHub)
        bar.setValue(min(position, bar.maximum()))

    def set_imports(self, on: bool) -> None:
        """Render `@`-imports as links (Claude Code's instruction files), or not."""
        if on != self._imports:
            self._imports = on
            source, self._source = self._source, ""
            self.set_markdown_source(source)

    @Slot(QUrl)
    def _on_anchor_clicked(self, url: QUrl) -> None:
        self.link_clicked.emit(url.toString())
