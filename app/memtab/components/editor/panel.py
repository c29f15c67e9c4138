"""The editor panel around the open files, without Qt (`gui/editor/` shows it): its tabs,
which actions apply to the file shown, a tab's view, message bar and bars over Claude Code's
cut, the keys held while a text is read, and where a link in a preview leads."""

from __future__ import annotations

import posixpath
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Generic, NamedTuple, Protocol, TypeVar

from memtab.components.editor.session import Choice, FileState, OpenFile, Situation
from memtab.components.loads.loads import (
    IMPORT_HREF,
    Shown,
    bar_now,
    cut_note,
    is_cut_file,
    reads_imports,
)
from memtab.file_protocol.file_ref import MUX_SOURCE_ID, MemoryFileRef
from memtab.markdown import link_path
from memtab.sources.claude.index import lines_past_cut
from memtab.sources.claude.instructions import import_target
from memtab.store.paths import PathError, VirtualPath, parse_file_path

COLLAPSED_LINES = 2  # The lines a message takes until its bar is expanded.


class BarFit(NamedTuple):
    """Whether More/Less shows, what it says, and the message's greatest height (None: all)."""

    toggle_shown: bool
    toggle_text: str
    max_height: int | None


def bar_fit(needed: int, collapsed: int, *, expanded: bool) -> BarFit:
    """How a message `needed` pixels high fits a bar whose collapsed text is `collapsed`
    high (COLLAPSED_LINES lines)."""
    return BarFit(True, "Less", None) if expanded else BarFit(needed > collapsed, "More", collapsed)


def default_choice_of(default: str | None, offered: Collection[str]) -> str | None:
    """The choice Enter picks: `default` if it is offered (None: Enter picks nothing)."""
    return default if default in offered else None


class ActionsNow(NamedTuple):
    """Which of the editor's actions apply now."""

    find: bool  # Find, find next and previous, go to line: a file is shown.
    replace: bool  # Replace: a file that can be edited is shown.
    on_disk: bool  # Open in an external editor, copy the real path: the file is somewhere on disk.
    close: bool  # Close the tab: a file is shown.


def actions_now(*, has_file: bool, read_only: bool, on_disk: bool) -> ActionsNow:
    """What applies to the file shown (`has_file`: one is; `on_disk`: its real path is known)."""
    return ActionsNow(has_file, has_file and not read_only, on_disk, has_file)


def tab_moves_focus_said(on: bool) -> str:
    """What the status bar says once Ctrl+M turned "Tab moves focus" on or off."""
    if on:
        return "Tab moves the focus now (Ctrl+M: Tab indents again)"
    return "Tab indents again (Ctrl+M: Tab moves the focus)"


def opened_elsewhere_note(name: str, *, dirty: bool) -> str | None:
    """What the bar says once the file opened in the external editor `name`: the unsaved
    changes here are not in what it shows (None: there are none)."""
    if not dirty:
        return None
    return (
        f"Opened the file on disk with {name}; your unsaved changes here are not in it. "
        "Save first, or merge when it changes."
    )


MIRROR_DELAY_MS = 120
"""Typing pauses this long before the description field follows the frontmatter."""
PREVIEW_DELAY_MS = 250
PREVIEW_MAX_DELAY_MS = 2000
DESCRIPTION_HINT = "What this file is for — shown in the tree"
READING = "Reading…"  # What the text of a file whose content is on its way from disk says.


class ViewMode(Enum):
    """What the panel shows: the source, the rendered preview, or both side by side."""

    SOURCE = "Source"
    SPLIT = "Split"
    PREVIEW = "Preview"

    @property
    def tip(self) -> str:
        """The mode button's tooltip."""
        return _MODE_TIPS[self]

    @property
    def shows_source(self) -> bool:
        return self is not ViewMode.PREVIEW

    @property
    def shows_preview(self) -> bool:
        return self is not ViewMode.SOURCE


_MODE_TIPS = {
    ViewMode.SOURCE: "Edit the Markdown source",
    ViewMode.SPLIT: "Source and rendered preview side by side",
    ViewMode.PREVIEW: "Rendered preview only",
}


def with_source(mode: ViewMode) -> ViewMode:
    """The mode that shows the source for a command acting on it (find, go to line):
    the preview alone gives way to both side by side."""
    return ViewMode.SPLIT if mode is ViewMode.PREVIEW else mode


def preview_delay(render_ms: float) -> int:
    """How long typing pauses before the next render, the last one having taken
    `render_ms`: four times the render, within PREVIEW_DELAY_MS…PREVIEW_MAX_DELAY_MS."""
    return int(min(PREVIEW_MAX_DELAY_MS, max(PREVIEW_DELAY_MS, render_ms * 4)))


def is_warning(state: FileState) -> bool:
    """Whether the state label says it in the warning's colour (work that may be lost)."""
    return state in (FileState.UNSAVED, FileState.NOT_ON_DISK)


class DescriptionField(NamedTuple):
    """What the description field invites: its hint, and whether Tab stops at it."""

    hint: str
    focusable: bool


def description_field(read_only: bool) -> DescriptionField:
    """A read-only file's field invites no typing: no hint to fill it, no Tab stop."""
    return DescriptionField("", False) if read_only else DescriptionField(DESCRIPTION_HINT, True)


T = TypeVar("T")

READING_SHOWN_AFTER_MS = 100
"""How long the file shown before stays while the next one's text is read (its keys held
already) before the page says "Reading…"."""


class ReadingPage:
    """Whether, and when, one tab's page says "Reading…"."""

    def __init__(self) -> None:
        self.title = ""
        self.tooltip = ""
        self.page = False
        """Whether the page says "Reading…" (else, while reading, it still shows the file
        before, and its state)."""

    def say(self, title: str, tooltip: str, *, has_file: bool) -> int | None:
        """The text is still on its way, under `title`: None — say "Reading…" now (no
        file's text is shown, or the page says it already) — else how many ms the file
        shown before stays first (then the page says it)."""
        self.title, self.tooltip = title, tooltip
        return None if self.page or not has_file else READING_SHOWN_AFTER_MS

    def shown(self) -> None:
        """The page says "Reading…" now."""
        self.page = True

    def ended(self) -> None:
        """A page is shown in place of "Reading…" (the text, or why there is none)."""
        self.page = False


class Held(Generic[T]):
    """What is typed while a text is on its way, in order, until the text is there
    (`release`) or another takes its place (`drop`)."""

    def __init__(self) -> None:
        self._items: list[T] = []
        self._holding = False

    @property
    def holding(self) -> bool:
        """Whether what is typed is held."""
        return self._holding

    def hold(self) -> bool:
        """Hold from now on (what is held already stays: the same text is read again);
        whether holding starts now (the caller catches the keys from now on)."""
        started = not self._holding
        self._holding = True
        return started

    def add(self, item: T) -> bool:
        """Hold `item` if holding; whether it was held (else it goes where it was sent)."""
        if self._holding:
            self._items.append(item)
        return self._holding

    def release(self) -> tuple[list[T], bool]:
        """Stop holding: what was held, in order, and whether it was holding (the caller
        stops catching the keys)."""
        items, self._items = self._items, []
        was_holding, self._holding = self._holding, False
        return items, was_holding

    def drop(self) -> bool:
        """Stop holding and forget what was held; whether it was holding."""
        return self.release()[1]


CUT_FOLLOW_MS = 150
"""Typing settles this long before the cut's bar follows the text (a 25 KB file: a ms)."""

_SHOWN: dict[Situation, Shown] = {
    Situation.CUT_NOTE: "note",
    Situation.PAST_CUT: "save",
    Situation.NONE: "none",
}


has_cut = is_cut_file  # Whether `ref` is a file Claude Code reads only to its cut (MEMORY.md).


class CutStep(NamedTuple):
    """What the bar does as the text changed: nothing, go (`clear`), or show a cut bar."""

    clear: bool = False
    situation: Situation = Situation.NONE
    text: str = ""
    choices: tuple[Choice, ...] = ()


KEEP = CutStep()  # The bar stays as it is.


class CutFollow:
    """One tab's cut bars."""

    def __init__(self) -> None:
        self._saved_anyway = ""  # the text the user chose to save past the cut
        self._past = 0  # lines past the cut when the bar last looked

    def opened(self, text: str) -> None:
        """A file's `text` is shown (the note, if any, came with it)."""
        self._past = lines_past_cut(text)

    def save_waits(self, file: OpenFile, text: str) -> str | None:
        """Why a save of `text` waits for the user's word (`OpenFile.past_cut_warning`),
        unless they gave it for this text; None: it need not wait."""
        return file.past_cut_warning(text) if text != self._saved_anyway else None

    def save_anyway(self, text: str) -> None:
        """The user chose *Save anyway* for `text`."""
        self._saved_anyway = text

    def follow(self, file: OpenFile, text: str, bar: tuple[str, list[str]]) -> CutStep:
        """What the bar does now that the buffer holds `text` (`bar`: the words and the
        action ids it shows); a bar that is not the cut's (a conflict's) is left alone."""
        if not has_cut(file.ref):
            return KEEP
        was_past, self._past = self._past, lines_past_cut(text)
        shown = _SHOWN.get(file.situation)
        if shown is None:
            return KEEP
        now = bar_now(shown, was_past, file.clean_text, text)
        if now is None:
            return CutStep(clear=True) if shown != "none" else KEEP
        if (now.text, [choice for choice, _label in now.choices]) == bar:
            return KEEP
        situation = Situation.CUT_NOTE if now.note else Situation.PAST_CUT
        return CutStep(False, situation, now.text, now.choices)


def note_after_saving_anyway(saved: bool, situation: Situation, text: str) -> str | None:
    """The cut's note once *Save anyway* saved `text` (None: not saved, another bar shows,
    or Claude Code reads it whole)."""
    return None if not saved or situation is not Situation.NONE else cut_note(text)


class OpenTab(Protocol):
    """What the rules ask of a tab (`gui.editor.tab.file_tab.FileTab`)."""

    # A kept tab stays when another file opens; a preview tab is replaced.
    @property
    def kept(self) -> bool: ...
    @property
    def is_dirty(self) -> bool: ...
    # What tells two tabs apart (None: nothing is shown).
    @property
    def identity(self) -> str | None: ...
    # The mux file's virtual path (None: none, or another agent's file).
    @property
    def path(self) -> VirtualPath | None: ...
    # Which memory file it shows (None: none, or one opened by physical path).
    @property
    def ref(self) -> MemoryFileRef | None: ...
    # Its file's text is on its way from disk.
    @property
    def reading(self) -> bool: ...
    # A save is on its way to disk.
    @property
    def saving(self) -> bool: ...


TabT = TypeVar("TabT", bound=OpenTab)


def preview_to_replace(tabs: Sequence[TabT], identity: str | None, *, keep: bool) -> TabT | None:
    """The tab a file (`identity`) opens in in place of what it shows: the preview tab — not
    kept, no unsaved changes — unless the file opens for good (`keep`) or is the one the
    preview shows; None: a new tab."""
    preview = next((tab for tab in tabs if not tab.kept and not tab.is_dirty), None)
    return None if preview is None or keep or identity == preview.identity else preview


def new_tab_index(count: int, current: int, *, shown: bool) -> int:
    """Where a new tab goes among `count`: after the current one; one opened behind it
    (restoring tabs) goes last."""
    return current + 1 if count and shown else count


def stepped_index(count: int, current: int, step: int) -> int | None:
    """The tab `step` away from the current one, around the ends (None: one tab or none)."""
    return (current + step) % count if count > 1 else None


def tabs_within(tabs: Sequence[TabT], paths: Collection[VirtualPath]) -> list[TabT]:
    """The tabs of mux files at or under `paths`."""
    return [
        tab
        for tab in tabs
        if tab.path is not None and any(tab.path.is_within(path) for path in paths)
    ]


def moved_path(path: VirtualPath, old: VirtualPath, new: VirtualPath) -> VirtualPath:
    """Where `path`, at or under `old`, is once `old` moved to `new`."""
    return VirtualPath(new.scope, new.segments + path.segments[len(old.segments) :])


def tab_text(title: str, *, dirty: bool) -> str:
    """What a tab says: the file's name, ● before it with unsaved changes."""
    return f"● {title}" if dirty else title


class OpenTabs(Generic[TabT]):
    """The open tabs, in the tab bar's order, and what the panel asks of them."""

    def __init__(self) -> None:
        self._tabs: list[TabT] = []

    def __iter__(self) -> Iterator[TabT]:
        return iter(list(self._tabs))  # a copy: a tab may close while they are gone through

    def __len__(self) -> int:
        return len(self._tabs)

    def __contains__(self, tab: object) -> bool:
        return tab in self._tabs

    def index(self, tab: TabT) -> int:
        """Where `tab` is in the bar (ValueError: it is not open)."""
        return self._tabs.index(tab)

    def at(self, index: int) -> TabT | None:
        """The tab at `index` of the bar (None: there is none, e.g. -1)."""
        return self._tabs[index] if 0 <= index < len(self._tabs) else None

    def insert(self, tab: TabT, current: int, *, shown: bool) -> int:
        """Open `tab` where a new tab goes (`new_tab_index`); where it went."""
        index = new_tab_index(len(self._tabs), current, shown=shown)
        self._tabs.insert(index, tab)
        return index

    def remove(self, tab: TabT) -> int:
        """Close `tab`; where it was."""
        index = self._tabs.index(tab)
        del self._tabs[index]
        return index

    def tab_for(self, ref: MemoryFileRef) -> TabT | None:
        """The tab showing `ref`, if one does."""
        return next((tab for tab in self._tabs if tab.ref == ref), None)

    def with_identity(self, identity: str) -> TabT | None:
        """The tab showing what `identity` names (a file shown by its physical path)."""
        return next((tab for tab in self._tabs if tab.identity == identity), None)

    def of_refs(self, refs: Collection[MemoryFileRef]) -> list[TabT]:
        """The tabs of `refs`."""
        return [tab for tab in self._tabs if tab.ref in refs]

    def preview_to_replace(self, identity: str | None, *, keep: bool) -> TabT | None:
        """The preview tab a file opens in (`preview_to_replace`), or None: a new tab."""
        return preview_to_replace(self._tabs, identity, keep=keep)

    def within(self, paths: Collection[VirtualPath]) -> list[TabT]:
        """The tabs of mux files at or under `paths`."""
        return tabs_within(self._tabs, paths)

    @property
    def refs(self) -> list[MemoryFileRef]:
        """The memory files open, in the bar's order."""
        return [tab.ref for tab in self._tabs if tab.ref is not None]

    @property
    def reading_refs(self) -> list[MemoryFileRef]:
        """The files of the tabs whose text is still on its way."""
        return [tab.ref for tab in self._tabs if tab.reading and tab.ref is not None]

    @property
    def has_unsaved(self) -> bool:
        return any(tab.is_dirty for tab in self._tabs)

    @property
    def saving(self) -> bool:
        return any(tab.saving for tab in self._tabs)


WEB_SCHEMES = ("http", "https")


@dataclass(frozen=True)
class LinkTarget:
    """Where a link leads: a memory `ref`, an `anchor`, a `web` page, a `file`; else `why`."""

    ref: MemoryFileRef | None = None
    anchor: str | None = None
    web: str | None = None
    why: str = ""
    file: Path | None = None


def follow_link(
    source: MemoryFileRef | None, href: str, real_path: Path | None, home: Path
) -> LinkTarget:
    """Where `href`, clicked in the text or the preview of the file `source` (on disk at
    `real_path`; `home`: the user's, as `~/` in an import means it), leads: an `@`-import
    where Claude Code follows them, else `resolve_link`."""
    if not (href.startswith(IMPORT_HREF) and reads_imports(source)):
        return resolve_link(source, href)
    written = href.removeprefix(IMPORT_HREF)
    target = import_target(written, real_path.parent, home) if real_path is not None else None
    if target is None:
        return LinkTarget(why=f"Claude Code imports no file by @{written}")
    return LinkTarget(file=target)


def resolve_link(source: MemoryFileRef | None, href: str) -> LinkTarget:
    """Where `href`, a link in the file `source` (None: a file shown only to be read), leads."""
    written = href.strip()
    scheme = written.split(":", 1)[0].lower() if ":" in written else ""
    if scheme in WEB_SCHEMES:
        return LinkTarget(web=written)
    if written.startswith("#"):
        return LinkTarget(anchor=written[1:])
    path = link_path(written)
    if path is None:
        return LinkTarget(why=f"Memtab does not follow this link: {written}")
    if source is None:
        return LinkTarget(why=f"This file's links are not followed: {written}")
    if source.source_id == MUX_SOURCE_ID:
        return _mux_target(source, path, written)
    return _agent_target(source, path, written)


def _mux_target(source: MemoryFileRef, path: str, written: str) -> LinkTarget:
    if path.startswith("/"):
        resolved = posixpath.normpath(path)
    else:
        here = posixpath.dirname(source.path)
        resolved = posixpath.normpath(posixpath.join(here, path))
        scope_root = "/".join(source.path.split("/")[:3])  # /memories/<scope>
        if not resolved.startswith(f"{scope_root}/"):
            return LinkTarget(why=f"The link leads out of its scope: {written}")
    try:
        return LinkTarget(ref=MemoryFileRef.of_mux(parse_file_path(resolved)))
    except PathError as error:
        return LinkTarget(why=f"The link does not name a memory file ({error}): {written}")


def _agent_target(source: MemoryFileRef, path: str, written: str) -> LinkTarget:
    if path.startswith("/"):
        return LinkTarget(why=f"The link names a path outside the memory: {written}")
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(source.path), path))
    if resolved == "." or resolved.startswith("../") or resolved == "..":
        return LinkTarget(why=f"The link leads out of the memory folder: {written}")
    return LinkTarget(ref=MemoryFileRef(source.source_id, resolved))
