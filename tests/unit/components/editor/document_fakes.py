"""Fakes of what `components.editor.document.OpenDocument` needs of the window — its tab,
text view, bar and diff window, "Reading…" page and file channel — so its tests run
without a QApplication, on a real store in a temporary home."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memtab.components.activity.own_writes import OwnWrites
from memtab.components.editor.document import OpenDocument
from memtab.components.editor.merge import MergeBasis, MergeOutcome
from memtab.components.editor.session import BarKind, Choice
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.file_protocol.memory_file import MemoryFile, MuxFile
from memtab.store.paths import parse_file_path
from memtab.store.scopes.memory import MemoryStore


class FakeHost:
    """The tab: counts what it is told."""

    def __init__(self) -> None:
        self.refreshed = 0
        self.opened: list[MemoryFileRef] = []
        self.saved: list[MemoryFileRef] = []
        self.close_asked = 0
        self.moved: list[MemoryFile] = []

    def refresh_chrome(self) -> None:
        self.refreshed += 1

    def document_opened(self, ref: MemoryFileRef) -> None:
        self.opened.append(ref)

    def document_saved(self, ref: MemoryFileRef) -> None:
        self.saved.append(ref)

    def document_moved(self, document: MemoryFile) -> None:
        self.moved.append(document)

    def close_after_asking(self) -> None:
        self.close_asked += 1


class FakeView:
    """The text: a string and a modified flag, as a QTextDocument keeps them (an edit
    marks it modified, loading a file does not)."""

    def __init__(self) -> None:
        self.text = ""
        self.modified = False
        self.title = ""
        self.read_only = False
        self.rendered: str | None = None
        self.focused = False
        self.focus_given = 0
        self.past_frontmatter = 0

    def type(self, text: str) -> None:
        """The user edits the text."""
        self.text = text
        self.modified = True

    def buffer_text(self) -> str:
        return self.text

    def is_modified(self) -> bool:
        return self.modified

    def set_modified(self, modified: bool) -> None:
        self.modified = modified

    def replace_text(self, new_text: str) -> None:
        if new_text != self.text:
            self.type(new_text)

    def end_with_newline(self) -> bool:
        if self.text.endswith("\n"):
            return False
        self.type(self.text + "\n")
        return True

    @contextmanager
    def quietly(self) -> Iterator[None]:
        yield

    def show_file(self, title: str, text: str, read_only: bool, tooltip: str | None = None) -> None:
        self.title, self.text, self.read_only, self.modified = title, text, read_only, False
        self.rendered = None

    def show_rendered(self, markdown: str) -> None:
        self.rendered = markdown

    def start_past_frontmatter(self) -> None:
        self.past_frontmatter += 1

    def focus_text(self) -> None:
        self.focused = True
        self.focus_given += 1


@dataclass
class Bar:
    kind: BarKind
    text: str
    choices: list[Choice]

    @property
    def actions(self) -> list[str]:
        return [action for action, _label in self.choices]


@dataclass
class Diff:
    title: str
    old_label: str
    old: str
    new: str
    choices: list[Choice]
    merge_basis: MergeBasis | None


class FakePrompts:
    """The bar and the diff window: what they show, and the merge a test puts there."""

    def __init__(self) -> None:
        self.bar: Bar | None = None
        self.diffs: list[Diff] = []
        self.diff_open = False
        self.merge: MergeOutcome | None = None

    def show(self, kind: BarKind, text: str, choices: list[Choice] | None = None) -> None:
        self.bar = Bar(kind, text, list(choices or []))

    def clear(self) -> None:
        self.bar = None

    def open_diff(
        self,
        title: str,
        old_label: str,
        old: str,
        new: str,
        choices: list[Choice],
        merge_basis: MergeBasis | None = None,
    ) -> None:
        self.diffs.append(Diff(title, old_label, old, new, choices, merge_basis))
        self.diff_open = True

    def close_diff(self) -> None:
        self.diff_open = False
        self.merge = None


class FakeReading:
    """The "Reading…" page: what it was asked to do."""

    def __init__(self) -> None:
        self.page = False
        self.calls: list[str] = []

    def hold_keys(self) -> None:
        self.calls.append("hold")

    def say(self, title: str, tooltip: str) -> None:
        self.calls.append(f"say {title}")
        self.page = True

    def release_keys(self) -> None:
        self.calls.append("release")

    def ended(self) -> None:
        self.page = False

    def drop(self) -> None:
        self.calls.append("drop")


class _Token:
    def raise_if_cancelled(self) -> None:
        return None


@dataclass
class _Job:
    job_id: int
    key: str | None
    job: Callable[[Any], Any]
    done: Callable[[Any], None] | None
    failed: Callable[[str], None] | None


@dataclass
class FakeFiles:
    """The window's file channel as one lane run when the test says (`run`): writes in
    order, a newer read of a key supersedes the older one; a read with `wait_ms` and
    nothing ahead of it is delivered before `read` returns, as `FileChannel.read` does."""

    queue: list[_Job] = field(default_factory=list)
    next_id: int = 1

    def write(
        self,
        job: Callable[[Any], Any],
        done: Callable[[Any], None] | None = None,
        failed: Callable[[str], None] | None = None,
    ) -> int:
        return self._queue(None, job, done, failed)

    def read(
        self,
        key: str,
        job: Callable[[Any], Any],
        done: Callable[[Any], None] | None = None,
        failed: Callable[[str], None] | None = None,
        *,
        wait_ms: float = 0,
    ) -> int:
        ahead = bool(self.queue)
        self.queue = [queued for queued in self.queue if queued.key != key]
        job_id = self._queue(key, job, done, failed)
        if wait_ms > 0 and not ahead:
            self.run()
        return job_id

    def cancel(self, job_id: int) -> None:
        self.queue = [queued for queued in self.queue if queued.job_id != job_id]

    def _queue(
        self,
        key: str | None,
        job: Callable[[Any], Any],
        done: Callable[[Any], None] | None,
        failed: Callable[[str], None] | None,
    ) -> int:
        job_id, self.next_id = self.next_id, self.next_id + 1
        self.queue.append(_Job(job_id, key, job, done, failed))
        return job_id

    def run_one(self) -> None:
        """Run the first job on the lane and deliver what it returned (or raised)."""
        queued = self.queue.pop(0)
        try:
            result = queued.job(_Token())
        except Exception as error:  # a job that raised: `failed`, as the channel does
            if queued.failed is not None:
                queued.failed(str(error))
            return
        if queued.done is not None:
            queued.done(result)

    def run(self) -> None:
        """Run every job, those the delivered results ask for too."""
        while self.queue:
            self.run_one()


@dataclass
class Editor:
    """An `OpenDocument` over the fakes, with the store its file is in."""

    doc: OpenDocument
    host: FakeHost
    view: FakeView
    prompts: FakePrompts
    reading: FakeReading
    files: FakeFiles
    own_writes: OwnWrites
    store: MemoryStore

    def memory_file(self, raw: str = "/memories/global/notes.md") -> MemoryFile:
        return MuxFile(self.store, parse_file_path(raw))

    def physical(self, raw: str = "/memories/global/notes.md") -> Path:
        return self.store.physical(parse_file_path(raw))

    def write_outside(self, text: str, raw: str = "/memories/global/notes.md") -> None:
        """Another program (an agent's `echo >>`, an editor) writes the file."""
        physical = self.physical(raw)
        physical.parent.mkdir(parents=True, exist_ok=True)
        physical.write_text(text, encoding="utf-8", newline="")

    def on_disk(self, raw: str = "/memories/global/notes.md") -> str | None:
        physical = self.physical(raw)
        return physical.read_text(encoding="utf-8") if physical.exists() else None

    @property
    def bar(self) -> Bar:
        assert self.prompts.bar is not None, "the bar is hidden"
        return self.prompts.bar


def editor_on(store: MemoryStore) -> Editor:
    """A document with nothing open over fresh fakes, saving into `store`."""
    host, view, prompts, reading = FakeHost(), FakeView(), FakePrompts(), FakeReading()
    files, own_writes = FakeFiles(), OwnWrites()
    doc = OpenDocument(host, view, prompts, reading, own_writes, files)
    return Editor(doc, host, view, prompts, reading, files, own_writes, store)
