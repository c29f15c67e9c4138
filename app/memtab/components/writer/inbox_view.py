"""The Inbox without Qt: what it says of each proposed memory (who, its row, where accepting
puts it, its evidence), which buttons work, what the details show, and what the review of
an agent's proposal or a Gemini CLI patch says above its diff, or why it would be refused."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from memtab import humanize
from memtab.components.rich_text import escape_html
from memtab.components.text_diff import DiffLine, DiffResult, LineKind
from memtab.file_protocol.file_ref import MemoryFileRef, SourceError, parse_file_ref
from memtab.humanize import plural
from memtab.sources.model import Layout, Source
from memtab.store.actors import actor_name
from memtab.store.home import PathKind, PathPlace
from memtab.store.proposals.preview import ProposalPreview
from memtab.store.proposals.queue import GLOBAL_QUEUE
from memtab.store.sidecars.registry import Workspace
from memtab.store.text.frontmatter import find_frontmatter, full_description, heading_text

if TYPE_CHECKING:  # lazy: the engine loads with its first job; components name its types only
    from memtab.writer.inbox.inbox import InboxItem

LIST_ROWS = 5  # the list's height in rows (and LIST_LINES lines); more scroll
LIST_LINES = 8
LIST_LEAST_LINES = 3  # short of room, its first row stays whole up to so many lines

# The buttons' tooltips; Edit's and Reject's are their keys' too, listed before the buttons
# are made (Help → Keyboard shortcuts, the palette).
ACCEPT_TIP = (
    "Write the selected memories into the memory chosen in Accept into: where each "
    "belongs (a preference in global memory, a project fact in the project's), or "
    "the file you choose"
)
EDIT_TIP = "Edit the selected memory, then accept it"
REJECT_TIP = (
    "Drop the selected memories (a harvest candidate leaves its harvest file; a "
    "suggestion is not proposed again)"
)


ItemT = TypeVar("ItemT", bound="InboxItem")


def origin_text(item: InboxItem) -> str:
    """Who proposed an item, in a few words."""
    if item.kind == "harvest":
        confidence = "" if item.confidence is None else f" · confidence {item.confidence:.2f}"
        return f"mux harvest · {item.category}{confidence}"
    if item.kind == "agent":
        return f"{actor_name(item.source)} · {item.category}"
    if item.kind == "gemini":
        return f"Gemini CLI auto memory · {item.category} memory patch"
    return "Memtab's offline writer"


def row_tag(item: InboxItem) -> str:
    """Who proposed an item, as its row's first words."""
    if item.kind == "harvest":
        return "mux" if item.confidence is None else f"mux {item.confidence:.2f}"
    if item.kind == "agent":
        return f"{actor_name(item.source, how=False)} {item.category}"
    if item.kind == "gemini":
        return "Gemini patch" if item.problem is None else "Gemini patch (invalid)"
    return "writer"


def item_words(item: InboxItem) -> str:
    """What an item says: its text — a Gemini patch, what it changes (a diff is no line)."""
    return item.rationale or "" if item.kind == "gemini" else item.text


AGENT_CHANGES = {
    "create": "a new file {path}",
    "str_replace": "an edit of {path}",
    "insert": "an edit of {path}",
    "delete": "the deletion of {path}",
    "rename": "the rename of {path}",
}
"""What accepting an agent's proposal does, by its memory-tool command."""
ROW_GIST_CHARS = 160
"""At most this much of a proposed text on its row (its tooltip and review show it whole)."""


def is_deletion(item: InboxItem) -> bool:
    """Whether accepting the item deletes a file (an agent's `delete`)."""
    return item.kind == "agent" and item.category == "delete"


def row_text(item: InboxItem) -> str:
    """An item's row: who proposed it, then its text on one line — an agent's proposal
    says the file it changes and the gist of what it writes (never the whole file,
    frontmatter and all, run together)."""
    if item.kind != "agent":
        return f"{row_tag(item)} · {' '.join(item_words(item).split())}"
    gist = text_gist(item.text) if item.category in ("create", "str_replace", "insert") else ""
    name = item.memory_path.removeprefix("/memories/")
    return f"{row_tag(item)} · {name}" + (f" — {gist}" if gist else "")


def text_gist(text: str) -> str:
    """What a proposed file or text is about, on one line: its description when it has a
    frontmatter, else its first line of prose (a heading's words), cut at ROW_GIST_CHARS."""
    span = find_frontmatter(text)
    described = full_description(text) if span is not None else ""
    body = text[span.end :] if span is not None else text
    first = next((line.strip() for line in body.splitlines() if line.strip()), "")
    heading = heading_text(first.lstrip("#")) if first.startswith("#") else ""
    gist = " ".join((described or heading or _unbulleted(first)).split())
    return gist if len(gist) <= ROW_GIST_CHARS else gist[: ROW_GIST_CHARS - 1] + "…"


def _unbulleted(line: str) -> str:
    """A line without its list marker ("- Sign commits" → "Sign commits")."""
    return line[2:] if line[:2] in ("- ", "* ", "+ ") else line


def accepted_text(items: Sequence[InboxItem]) -> str:
    """What accepting `items` did, where each went: "Accepted 3 memories: 1 into
    /memories/workspace/notes.md, a new file /memories/global/shell.md" — or, all notes into
    one file, "Accepted 2 memories into /memories/workspace/notes.md"."""
    count = plural(len(items), "memory", "memories")
    notes: dict[str, int] = {}
    changes: list[str] = []
    for item in items:
        if item.kind == "agent":
            words = AGENT_CHANGES.get(item.category or "", "a change of {path}")
            changes.append(words.format(path=item.memory_path))
        else:
            notes[item.memory_path] = notes.get(item.memory_path, 0) + 1
    if not changes and len(notes) == 1:
        return f"Accepted {count} into {next(iter(notes))}"
    parts = [f"{n} into {path}" for path, n in notes.items()] + changes
    return f"Accepted {count}: {', '.join(parts)}"


def row_tooltip(item: InboxItem) -> str:
    """An item's row's tooltip: who proposed it, then its text whole (a Gemini patch: its
    file, and why it cannot be applied)."""
    if item.kind == "gemini":
        why = f"\nGemini CLI would not apply it: {item.problem}" if item.problem else ""
        return f"{origin_text(item)}\n{item.source}{why}"
    return f"{origin_text(item)}\n{item.text}"


def count_text(count: int) -> str:
    """The panel's title: `Inbox (3)`."""
    return f"Inbox ({count})"


def where_text(item: InboxItem, to: str | None) -> str:
    """Where accepting the edited text puts it (`to`: the file chosen, else its own)."""
    section = f", under “{item.section}”." if item.section else "."
    return f"Goes to {to or item.memory_path}{section}"


def details_html(item: InboxItem) -> str:
    """The item's provenance and evidence, for the details pane."""
    escape = escape_html
    if item.kind == "agent":  # a memory-tool call: what it writes is the review's
        return f"<p><b>{escape(origin_text(item))}</b><br>Changes {escape(item.memory_path)}</p>"
    parts = [
        f"<p><b>{escape(origin_text(item))}</b><br>"
        f"From {escape(item.source)} · goes to {escape(item.memory_path)}, "
        f"under “{escape(item.section)}”</p>"
    ]
    if item.rationale:
        parts.append(f"<p><i>Why:</i> {escape(item.rationale)}</p>")
    if item.target_reason:
        parts.append(f"<p><i>Why there:</i> {escape(item.target_reason)}</p>")
    if item.evidence:
        rows = [
            f"<li><code>{escape(evidence.id)}</code> — not in the transcript</li>"
            if evidence.text is None
            else f"<li><code>{escape(evidence.id)}</code> ({escape(evidence.role or '?')}): "
            + escape(evidence.text).replace("\n", "<br>")
            + "</li>"
            for evidence in item.evidence
        ]
        parts.append("<p><i>Evidence:</i></p><ul>" + "".join(rows) + "</ul>")
    return "".join(parts)


def inbox_places(workspace: Workspace | None) -> frozenset[PathPlace]:
    """Where a change changes `workspace`'s Inbox (`Home.classify`): its suggestions, harvest
    folder and the folders holding it, its and global proposals, and Gemini CLI's inbox."""
    places = {PathPlace(PathKind.PROPOSALS, GLOBAL_QUEUE), PathPlace(PathKind.AGENT_INBOX)}
    if workspace is not None:
        places |= {
            PathPlace(PathKind.SUGGESTIONS, workspace.id),
            PathPlace(PathKind.WORKSPACE_SCOPE, workspace.id, harvest=True),
            PathPlace(PathKind.WORKSPACE_DIR, workspace.id),
            PathPlace(PathKind.WORKSPACE_DIR),
            PathPlace(PathKind.PROPOSALS, workspace.id),
        }
    return frozenset(places)


def agent_queues(sources: Iterable[Source]) -> frozenset[Path]:
    """The folders of other agents' memory holding a review queue the Inbox shows (Gemini CLI's
    `.inbox/`): one appearing or going is its proposals appearing or going."""
    return frozenset(source.root for source in sources if source.layout is Layout.GEMINI_MEMORY)


def queues_touched(sources: Iterable[Source], touched: Iterable[MemoryFileRef]) -> bool:
    """Whether changed or gone files (`touched`) are in a folder holding a review queue
    (`agent_queues`): what it holds is then unknown (a patch written before its watch began is
    in no batch)."""
    held = {source.id for source in sources if source.layout is Layout.GEMINI_MEMORY}
    return any(ref.source_id in held for ref in touched)


@dataclass(frozen=True)
class InboxButtons:
    """Which decisions the buttons (and their keys) offer now."""

    accept: bool
    edit: bool
    reject: bool


@dataclass(frozen=True)
class Accepting:
    """Whose an accepted item's write is: the agent's (`agent`), else the user's, into `path`."""

    path: str
    agent: str | None


@dataclass(frozen=True)
class DetailsPlan(Generic[ItemT]):
    """What the details show for a selection: the one item selected (None: several or
    none), an agent's proposal to review (its own pane), or the provenance, and whether
    its evidence is to be read."""

    one: ItemT | None
    review: ItemT | None
    provenance: bool
    read_evidence: bool


class InboxPresenter(Generic[ItemT]):
    """The shown workspace's Inbox: its items and the decisions under way."""

    def __init__(self) -> None:
        self.workspace: Workspace | None = None
        self.items: tuple[ItemT, ...] = ()
        self._decisions: set[object] = set()
        self._follow: tuple[str, ...] = ()  # what to select once decided items are gone
        self._decided_sorts: frozenset[str] = frozenset()  # of the items being decided
        self._queues: frozenset[Path] | None = None  # `agent_queues` last found (None: not yet)

    @property
    def workspace_id(self) -> str | None:
        return self.workspace.id if self.workspace is not None else None

    def is_current(self, workspace_id: str | None) -> bool:
        """Whether a read for `workspace_id` is still the shown workspace's."""
        return workspace_id == self.workspace_id

    def queues_found(self, queues: frozenset[Path]) -> bool:
        """Review queues found again (`agent_queues`): whether the inbox is to be read again —
        one came or went, or, the first time, there is any."""
        before, self._queues = self._queues, queues
        return queues != (before if before is not None else frozenset())

    def chosen(self, ids: Sequence[str]) -> list[ItemT]:
        """The items of `ids`, in list order."""
        wanted = set(ids)
        return [item for item in self.items if item.id in wanted]

    def deciding(self, token: object, ids: Sequence[str] = ()) -> None:
        """A decision about the items `ids` started."""
        self._decisions.add(token)
        if ids:
            self._follow = self._neighbours(ids)
            self._decided_sorts = frozenset(_sort_of(item) for item in self.chosen(ids))

    def decided(self, token: object, *, failed: bool = False) -> None:
        """A decision ended (done, or `failed`: its items stay, and so does the selection)."""
        self._decisions.discard(token)
        if failed:
            self._follow = ()

    def selection_after_decision(self) -> str | None:
        """The item to select once decided items leave the list: of those after them (else the
        nearest before), the first of the same sort, else the first that is not a deletion (Enter
        never deletes a file the user did not choose); None: only deletions left. Asked once."""
        follow, self._follow = self._follow, ()
        sorts, self._decided_sorts = self._decided_sorts, frozenset()
        waiting = {item.id: item for item in self.items}
        left = [waiting[item_id] for item_id in follow if item_id in waiting]
        same = next((item for item in left if _sort_of(item) in sorts), None)
        if same is None:
            same = next((item for item in left if not is_deletion(item)), None)
        return same.id if same is not None else None

    def _neighbours(self, ids: Sequence[str]) -> tuple[str, ...]:
        """The items that are not `ids`: those after the first of them in list order,
        then those before it, nearest first."""
        order = [item.id for item in self.items]
        decided = set(ids)
        first = next((index for index, item_id in enumerate(order) if item_id in decided), None)
        if first is None:
            return ()
        after = [item_id for item_id in order[first:] if item_id not in decided]
        return (*after, *reversed(order[:first]))

    @property
    def has_decisions(self) -> bool:
        return bool(self._decisions)

    def buttons(self, ids: Sequence[str]) -> InboxButtons:
        """Accept and reject what is selected (an invalid Gemini patch is only rejected);
        edit one that has a text to edit (not an agent's deletion or rename, not a Gemini
        patch: it is applied as it is); none while a decision runs."""
        free = not self._decisions
        chosen = self.chosen(ids)
        acceptable = bool(chosen) and all(item.problem is None for item in chosen)
        editable = len(chosen) == 1 and _has_text(chosen[0]) and chosen[0].kind != "gemini"
        return InboxButtons(acceptable and free, editable and free, bool(chosen) and free)

    def accepting(self, ids: Sequence[str], text: str | None, to: str | None) -> list[Accepting]:
        """Whose change each accepted item's write is (`text`: the user's edit, `to`: the
        file chosen): an agent's proposal taken as it is stays the agent's. A Gemini patch
        writes Gemini CLI's files, which history names it for: none here."""
        return [
            Accepting(item.memory_path, item.source)
            if item.kind == "agent" and text is None
            else Accepting(to or item.memory_path, None)
            for item in self.chosen(ids)
            if item.kind != "gemini"
        ]

    def details(self, ids: Sequence[str]) -> DetailsPlan[ItemT]:
        """What the details show for the selection `ids`."""
        chosen = self.chosen(ids)
        one = chosen[0] if len(chosen) == 1 else None
        agent = one if one is not None and one.kind in ("agent", "gemini") else None
        provenance = one is not None and agent is None and self.workspace is not None
        evidence = provenance and one is not None and bool(one.evidence)
        return DetailsPlan(one, agent, provenance, evidence)


def _sort_of(item: InboxItem) -> str:
    """An item's sort, for what is selected after a decision: its kind, an agent's
    deletion a sort of its own."""
    return "deletion" if is_deletion(item) else item.kind


def _has_text(item: InboxItem) -> bool:
    """Whether the item has a text to edit before accepting (an agent's deletion or rename
    has none)."""
    return item.kind != "agent" or item.category in ("create", "str_replace", "insert")


def list_heights(
    row_heights: Sequence[int], line: int, frame: int, *, held: int, first_whole: bool
) -> tuple[int, int]:
    """The list's (least, most) height: its first rows (at most LIST_ROWS, LIST_LINES lines),
    never below `held` (no shrinking while decisions land); short of room down to its first row
    whole (`first_whole`), up to LIST_LEAST_LINES lines, two at least."""
    heights = list(row_heights)[:LIST_ROWS]
    fitted = min(max(sum(heights), line), LIST_LINES * line) + frame
    fitted = max(fitted, held)
    first = heights[0] if heights and first_whole else 0
    least = min(max(first, 2 * line), LIST_LEAST_LINES * line) + frame
    return min(fitted, least), fitted


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
    return f"Changes {path}: {_counts(diff)}"


def _lines(text: str | None) -> str:
    return humanize.plural(len((text or "").splitlines()), "line")


def _counts(diff: DiffResult) -> str:
    """`2 lines added, 1 removed` ("" when neither)."""
    counts = [f"{humanize.plural(diff.added, 'line')} added"] if diff.added else []
    if diff.removed:
        removed = f"{diff.removed}" if counts else humanize.plural(diff.removed, "line")
        counts.append(f"{removed} removed")
    return ", ".join(counts)


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
        added = humanize.plural(file.diff.added, "line")
        what = f"new, {added}" if file.new_file else _counts(file.diff) or "unchanged"
        parts.append(f"{file.name.rsplit(':', 1)[-1]} ({what})")
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
        new = " (new file)" if file.new_file else ""
        lines += [DiffLine(LineKind.HUNK, f"{_shown(file.name)}{new}"), *file.diff.lines]
    added, removed = sum(f.diff.added for f in files), sum(f.diff.removed for f in files)
    return DiffResult(tuple(lines), added, removed)


def patch_diff(text: str) -> DiffResult:
    """A patch's own lines as a diff: headers and `@@` lines, added, removed, context."""
    lines: list[DiffLine] = []
    for line in text.split("\n"):
        if line.startswith(("@@", "--- ", "+++ ")):
            lines.append(DiffLine(LineKind.HUNK, line))
        else:
            kind = _PATCH_KINDS.get(line[:1], LineKind.CONTEXT)
            lines.append(DiffLine(kind, line[1:] if line[:1] in ("+", "-", " ") else line))
    count = [line.kind for line in lines].count
    return DiffResult(tuple(lines), count(LineKind.ADDED), count(LineKind.REMOVED))


_PATCH_KINDS = {"+": LineKind.ADDED, "-": LineKind.REMOVED}
