"""What each agent loads, in the window, without Qt (`gui/loads/`, `gui/editor/` show it;
docs/formats.md §17.6, §17.8): the loads view's and a recall's rows, what the editor's bar
says of Claude Code's cut of MEMORY.md, Go and Move past it, and `@`-imports as links."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, NamedTuple

from memtab.components.activity.change_batch import ChangeBatch
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.humanize import display_path, plural
from memtab.loads.recall.records import (
    AgentRecall,
    ModelPick,
    Recall,
    RecallFile,
    Unrecallable,
)
from memtab.loads.records import AGENT_LABELS, AgentLoads, AgentName, LoadedFile
from memtab.markdown import LineKind, classify
from memtab.sources.claude.index import (
    INDEX_MAX_LINES,
    INDEX_MAX_UNITS,
    IndexCut,
    index_cut,
    is_cut_index,
    lines_past_cut,
)
from memtab.sources.claude.instructions import import_spans
from memtab.store.home import PathKind

IMPORT_HREF = "@"  # How a link of the preview says it is an `@`-import (`@docs/style.md`).
_READERS = frozenset({"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md"})
_NOT_PROSE = (LineKind.FRONTMATTER, LineKind.FENCE, LineKind.CODE)


def reads_imports(ref: MemoryFileRef | None) -> bool:
    """Whether Claude Code follows the `@`-imports of the file `ref` names: one of its
    instruction files or rules."""
    if ref is None or ref.agent != "claude-code":
        return False
    parts = posixpath.normpath(ref.path).split("/")
    return ref.name in _READERS or ("rules" in parts[:-1] and ref.name.endswith(".md"))


def import_at(line: str, column: int) -> str | None:
    """The `@`-import of a prose `line` at `column` (0-based), as written, or None."""
    return next(
        (written for start, end, written in import_spans(line) if start <= column <= end), None
    )


def with_import_links(text: str) -> str:
    """`text` with each `@path` of its prose a Markdown link to `@path` (for the preview;
    code and the frontmatter as they are)."""
    lines = text.split("\n")
    for number, (line, found) in enumerate(zip(lines, classify(lines), strict=True)):
        if found.kind in _NOT_PROSE or "@" not in line:
            continue
        linked = line
        for start, end, written in reversed(import_spans(line)):
            link = f"[{line[start:end]}](<{IMPORT_HREF}{written}>)"
            linked = linked[:start] + link + linked[end:]
        lines[number] = linked
    return "\n".join(lines)


GO_TO_CUT = "loads.go_to_cut"  # the cursor to the first line Claude Code does not read
MOVE_PAST_CUT = "loads.move_past_cut"  # the lines past the cut into a topic file beside the index
SAVE_PAST_CUT = "save_past_cut"  # the bar's *Save anyway*, though lines go past the cut

Choice = tuple[str, str]  # An action id and its button label (as `components.editor.session`'s).

NOTE_CHOICES: tuple[Choice, ...] = (
    (GO_TO_CUT, "&Go to the cut"),
    (MOVE_PAST_CUT, "&Move them to a topic file"),
)
SAVE_CHOICES: tuple[Choice, ...] = (
    (SAVE_PAST_CUT, "Save &anyway"),
    (MOVE_PAST_CUT, "&Move them to a topic file"),
    (GO_TO_CUT, "&Go to the cut"),
)


def _past(cut: IndexCut) -> int:
    """Lines of the text `cut` is of that Claude Code does not read whole."""
    return 0 if cut.cut_at_line is None else cut.lines - cut.cut_at_line + 1


def cut_note(text: str) -> str | None:
    """The cut's note for a `MEMORY.md` holding `text` (None: Claude Code reads it whole)."""
    cut = index_cut(text)
    if cut.cut_at_line is None:
        return None
    upto = f"{INDEX_MAX_UNITS:,} characters" if cut.reason == "size" else f"{INDEX_MAX_LINES} lines"
    return (
        f"Claude Code does not read {plural(_past(cut), 'line')} of MEMORY.md, from line "
        f"{cut.cut_at_line} on: it loads only its first {upto} into a session."
    )


def past_cut_warning(on_disk: str, text: str) -> str | None:
    """Why saving `text` over `on_disk` waits for the user's word: more of its lines would
    be past the cut than the file on disk has (None: the save need not wait)."""
    cut = index_cut(text)
    more = _past(cut) - lines_past_cut(on_disk)
    if more <= 0 or cut.cut_at_line is None:
        return None
    return (
        f"Not saved: Claude Code would not read {plural(_past(cut), 'line')} of MEMORY.md, "
        f"from line {cut.cut_at_line} on — {more} more than the file on disk."
    )


class CutBar(NamedTuple):
    """What the cut's bar shows: the note (`note`) or *Not saved*, its words, its buttons."""

    note: bool
    text: str
    choices: tuple[Choice, ...]


# Which bar shows: the cut's note, *Not saved*, or none (another's, a conflict's, is not the cut's).
Shown = Literal["note", "save", "none"]


def bar_now(shown: Shown, was_past: int, on_disk: str, text: str) -> CutBar | None:
    """What the cut's bar shows now that the buffer holds `text` (`on_disk`: the file's; `was_past`:
    lines past the cut when last looked), or None. *Not saved* gives way to the note; the note
    comes when lines go past a cut they were all within, not again once dismissed."""
    if shown == "save":
        warning = past_cut_warning(on_disk, text)
        if warning is not None:
            return CutBar(False, warning, SAVE_CHOICES)
    if shown == "none" and was_past:
        return None
    note = cut_note(text)
    return CutBar(True, note, NOTE_CHOICES) if note is not None else None


GO_TO_ONLY = "Go to the cut is for Claude Code's MEMORY.md"
MOVE_ONLY = "Move lines past the cut is for Claude Code's MEMORY.md"
NO_CUT = "Claude Code reads all of MEMORY.md: it has no cut"
NOTHING_TO_MOVE = "Claude Code reads all of MEMORY.md: nothing to move"


def is_cut_file(ref: MemoryFileRef | None) -> bool:
    """Whether `ref` (None: no file open) is a file Claude Code reads only to its cut."""
    return ref is not None and is_cut_index(ref.agent, ref.name)


def cut_line(text: str) -> int | str:
    """Where Go to the cut puts the cursor in `text`: the first line Claude Code does not
    read (1-based), or why it goes nowhere."""
    return index_cut(text).cut_at_line or NO_CUT  # 1-based: never 0


def move_refused(ref: MemoryFileRef | None, *, has_source: bool, text: str) -> str | None:
    """Why the lines past the cut of `text` (the file `ref`, its agent's source listed or
    not) cannot be moved (None: they can)."""
    if not has_source or not is_cut_file(ref):
        return MOVE_ONLY
    return NOTHING_TO_MOVE if not lines_past_cut(text) else None


@dataclass(frozen=True)
class MoveLanded:
    """What the editor does once a move is made."""

    take_text: bool  # The editor's text becomes the index's as it is now (one undoable edit).
    follow: bool  # The editor follows the disk for the file (saved).


class PendingMove:
    """The move under way, of the text of one file."""

    def __init__(self) -> None:
        self._moving: tuple[str, str] | None = None  # (the index's ref key, its text then)

    def started(self, key: str, text: str) -> None:
        """The lines past the cut of `text`, the file `key`'s, are being moved."""
        self._moving = (key, text)

    def landed(self, open_key: str | None, text_now: str) -> MoveLanded:
        """The move was made: the file `open_key` is open (None: none) holding `text_now`."""
        moving, self._moving = self._moving, None
        if moving is None or open_key is None or open_key != moving[0]:
            return MoveLanded(take_text=False, follow=False)
        return MoveLanded(take_text=text_now == moving[1], follow=True)


class LoadsRow(NamedTuple):
    """One file of an agent's: its importer's row (None: the agent's), its name, the cut."""

    file: LoadedFile
    parent: int | None
    label: str
    stops: str


def where_it_stops(file: LoadedFile) -> str:
    """Where the agent stops reading `file`, in words."""
    if file.when == "on demand" and file.cut_reason is None:
        return "Read only when the agent opens it"
    if file.cut_at_line is None:
        return "Read whole"
    if file.resumes_at_line is not None:
        return (
            f"Lines {file.cut_at_line}–{file.resumes_at_line - 1} are not read: {file.cut_reason}"
        )
    if file.cut_at_line == 1 and file.loaded_lines == 0:
        return file.cut_reason or "Not read"
    return f"From line {file.cut_at_line} on it is not read: {file.cut_reason}"


def file_label(file: LoadedFile) -> str:
    """How a row names its file: as its agent names it (`~/.claude/CLAUDE.md`,
    `./AGENTS.md`), else where it is on disk (`~/…`), else its id or path."""
    if file.name:
        return file.name
    return display_path(file.physical_path) if file.physical_path else file.path or file.id or ""


def file_tip(file: LoadedFile) -> str:
    """What a row's tooltip says of its file: where it is on disk, and its id."""
    where = [display_path(file.physical_path)] if file.physical_path else []
    return "\n".join([*where, *(name for name in (file.id or file.path,) if name)])


def agent_rows(agent: AgentLoads) -> list[LoadsRow]:
    """The rows of `agent`'s files, in its order; an `@`-import under the row of the file
    that imports it, named by its file name and saying which line imports it."""
    rows: list[LoadsRow] = []
    at: dict[str, int] = {}  # a file's path on disk → its row
    for file in agent.files:
        parent = at.get(os.path.normpath(file.imported_by)) if file.imported_by else None
        stops = where_it_stops(file)
        label = file_label(file)
        if parent is not None:
            importer = os.path.basename(file.imported_by or "")
            line = f", line {file.imported_at_line}" if file.imported_at_line else ""
            stops = f"Imported by {importer}{line}. {stops}"
            label = os.path.basename(file.physical_path or label)
        if file.physical_path:
            at[os.path.normpath(file.physical_path)] = len(rows)
        rows.append(LoadsRow(file, parent, label, stops))
    return rows


def opens_outside(file: LoadedFile) -> bool:
    """Whether `file` is none of Memtab's memory files, only a file on disk (the external
    editor opens it)."""
    virtual = (file.path or "").startswith("/memories/")
    return file.id is None and file.physical_path is not None and not virtual


LOADED, NEVER = "start", "never"  # a file read at the start; one no prompt can reach
MISSED = "missed"
MODEL = "model"  # The mark of a file the user's model picked, asked as the agent asks its own.


# What a recall shown reads: xum's scopes, its pins and use, the registry, and what lies
# outside the home (the other agents' files) — not Memtab's own files, transcripts or queues.
ASKED_AGAIN_FOR = frozenset(
    {
        PathKind.HOME,
        PathKind.MEMORY_DIR,
        PathKind.GLOBAL_SCOPE,
        PathKind.PROJECT_SCOPE,
        PathKind.WORKSPACE_DIR,
        PathKind.WORKSPACE_SCOPE,
        PathKind.MEMORY_META,
        PathKind.CONFIG,
        PathKind.OTHER,
    }
)


def asks_again(batch: ChangeBatch) -> bool:
    """Whether a change on disk may change a recall shown."""
    return not batch.kinds.isdisjoint(ASKED_AGAIN_FOR)


@dataclass(frozen=True)
class FilePlace:
    """Where a row opens: a memory file (`lines` from 0 to highlight) or a file `outside`."""

    key: str
    lines: tuple[int, ...] = ()
    outside: bool = False

    @property
    def virtual(self) -> bool:
        """Whether `key` is a xum note's virtual path."""
        return not self.outside and self.key.startswith("/memories/")


@dataclass(frozen=True)
class RecallRow:
    """One file of a group: its mark (`start`, `#1`, `missed`, `never`), name, why, place."""

    mark: str
    name: str
    why: str
    place: FilePlace | None
    tip: str = ""  # The whole path or id, for a row that names the file shorter.


@dataclass(frozen=True)
class RecallGroup:
    """An agent's rows (or, `agent` None, the memories no agent can recall): what the
    prompt brings (`rows`: recalled by rank, then missed), and what every session reads
    whatever the prompt (`loaded`)."""

    agent: AgentName | None
    title: str
    how: str
    notes: tuple[str, ...]
    rows: tuple[RecallRow, ...]
    loaded: tuple[RecallRow, ...] = ()

    @property
    def loaded_title(self) -> str:
        """What the loaded rows are, in a line."""
        return f"{plural(len(self.loaded), 'file')} read at every start"


@dataclass(frozen=True)
class RecallCounts:
    """How many files an agent loads at the start, recalls, misses, and can never recall."""

    loaded: int = 0
    recalled: int = 0
    missed: int = 0
    unrecallable: int = 0


def recall_counts(recall: Recall) -> dict[AgentName, RecallCounts]:
    """Each agent's counts, in the recall's order."""
    counts: dict[AgentName, RecallCounts] = {}
    for agent in recall.agents:
        verdicts = [f.verdict for f in agent.files]
        counts[agent.agent] = RecallCounts(
            loaded=verdicts.count("loaded"),
            recalled=verdicts.count("recalled"),
            missed=verdicts.count("missed"),
            unrecallable=sum(1 for u in recall.never_shown() if u.agent == agent.agent),
        )
    return counts


def recall_groups(recall: Recall) -> list[RecallGroup]:
    """A group an agent, in the recall's order, then one of the memories no agent can
    recall (when there are any)."""
    counts = recall_counts(recall)
    groups = [_agent_group(agent, counts[agent.agent]) for agent in recall.agents]
    shown = recall.never_shown()
    if shown:
        never = plural(len(shown), "memory", "memories")
        how = "Whatever the prompt: what each agent picks by cannot reach them"
        elsewhere = len(recall.unrecallable) - len(shown)
        if elsewhere:
            one = elsewhere == 1
            how += (
                f"; {elsewhere} more like them {'is' if one else 'are'} under "
                f"{'its' if one else 'their'} agent above, as this prompt finds "
                f"{'it' if one else 'them'}"
            )
        groups.append(
            RecallGroup(
                agent=None,
                title=f"No agent can recall {never}",
                how=how,
                notes=(),
                rows=tuple(_never_row(item) for item in shown),
            )
        )
    return groups


def summary(recall: Recall) -> str:
    """A sentence of what the recall found, for the top of the view."""
    where = f" in {display_path(recall.directory)}" if recall.directory else ""
    counts = recall_counts(recall).values()
    recalled = sum(c.recalled for c in counts)
    missed = sum(c.missed for c in counts)
    found = (
        f"{plural(recalled, 'memory', 'memories')} recalled, {missed} missed"
        if recalled or missed
        else "no memory holds its words"
    )
    asked = next((a.model_pick for a in recall.agents if a.model_pick is not None), None)
    predicts = "predicts each agent's pick from the words of what it judges by"
    how = f"Memtab {predicts}, not by asking its model."
    if asked is not None:
        cost = f"{asked.input_tokens:,} tokens in, {asked.output_tokens:,} out"
        how = f"Memtab asked {asked.model} as Claude Code asks its model ({cost}), and {predicts}."
    return f"For “{recall.prompt}”{where}: {found}. {how}"


def _agent_group(agent: AgentRecall, counts: RecallCounts) -> RecallGroup:
    said = [f"{counts.recalled} recalled"]
    if counts.missed:
        said.append(f"{counts.missed} missed")
    if counts.unrecallable:
        said.append(f"{counts.unrecallable} never")
    recalled = sorted(
        (f for f in agent.files if f.verdict == "recalled"), key=lambda f: f.rank or 0
    )
    missed = [f for f in agent.files if f.verdict == "missed"]
    notes = agent.notes
    asked: tuple[RecallRow, ...] = ()
    if agent.model_pick is not None:
        said.insert(0, f"{len(agent.model_pick.picks)} by the model")
        notes = (pick_note(agent.model_pick), *notes)
        asked = tuple(_model_row(agent, agent.model_pick, name) for name in agent.model_pick.picks)
    return RecallGroup(
        agent=agent.agent,
        title=f"{AGENT_LABELS[agent.agent]} — {', '.join(said)}",
        how=agent.how,
        notes=notes,
        rows=(*asked, *(_file_row(file) for file in (*recalled, *missed))),
        loaded=tuple(_file_row(file) for file in agent.files if file.verdict == "loaded"),
    )


def _file_row(file: RecallFile) -> RecallRow:
    mark = {"loaded": LOADED, "missed": MISSED}.get(file.verdict, f"#{file.rank}")
    name = file.name or file.id or file.path or ""
    if file.verdict == "loaded" and file.physical_path:
        name = display_path(file.physical_path)  # as What each agent loads names it
    if file.first_line is not None and file.last_line is not None and file.verdict != "loaded":
        name += f", lines {file.first_line}–{file.last_line}"
    why = file.reason
    if file.matched and not all(word in file.reason for word in file.matched):
        why += f" (it holds {', '.join(file.matched)})"
    if file.cut_reason and file.verdict != "loaded":
        why += f". {file.cut_reason}"
    return RecallRow(mark, name, why, _place(file, _lines(file)), tip=_where(file))


def pick_note(pick: ModelPick) -> str:
    """What the model's pick was, in a line: who answered, what it cost, how far it agrees
    with the words' prediction, or why there is none."""
    cost = f"{pick.input_tokens:,} tokens in, {pick.output_tokens:,} out"
    asked = f"Asked {pick.model} as Claude Code asks its model ({cost})"
    if pick.problem is not None:
        return f"{asked}: no pick — {pick.problem}"
    picked = plural(len(pick.picks), "file")
    said = f"{asked}: {picked}, agreeing with the words' prediction on {pick.agreement:.0%}"
    if pick.not_listed:
        said += f"; it also named {', '.join(pick.not_listed)}, which Claude Code drops"
    return said


def _model_row(agent: AgentRecall, pick: ModelPick, name: str) -> RecallRow:
    """A file the model picked, opening as the words' row of the same file does."""
    rank = pick.picks.index(name) + 1
    words = next((f for f in agent.files if f.name == name and f.verdict != "loaded"), None)
    why = f"{pick.model}'s pick #{rank}, asked as Claude Code asks its model"
    if words is None:
        return RecallRow(
            MODEL, name, why + "; its words hold none of the prompt's", _sibling(agent, name)
        )
    also = f"the words' #{words.rank} too" if words.verdict == "recalled" else "the words miss it"
    return RecallRow(MODEL, name, f"{why}; {also}", _place(words, ()), tip=_where(words))


def _sibling(agent: AgentRecall, name: str) -> FilePlace | None:
    """Where a topic the recall lists no row of opens: beside one it does (its id is the
    other's, its name in place of the other's — `claude-code:<root>:<name>`)."""
    for file in agent.files:
        if file.kind == "topic" and file.id and file.id.endswith(":" + file.name):
            return FilePlace(file.id[: -len(file.name)] + name)
    return None


def _never_row(item: Unrecallable) -> RecallRow:
    label = f"{AGENT_LABELS[item.agent]}: {_short(item.id or item.path or '')}"
    return RecallRow(NEVER, label, item.reason, _place(item, ()), tip=_where(item))


def _lines(file: RecallFile) -> tuple[int, ...]:
    """The lines to highlight, from 0: what the agent reads of a file it reads in part."""
    if file.verdict == "loaded" or file.first_line is None or file.last_line is None:
        return ()
    return tuple(range(file.first_line - 1, file.last_line))


def _place(file: RecallFile | Unrecallable, lines: Iterable[int]) -> FilePlace | None:
    if file.id:
        return FilePlace(file.id, tuple(lines))
    if file.path and file.path.startswith("/memories/"):
        return FilePlace(file.path, tuple(lines))
    physical = file.physical_path or file.path
    return FilePlace(physical, outside=True) if physical else None


def _where(file: RecallFile | Unrecallable) -> str:
    where = file.id or file.path or file.physical_path or ""
    if file.id is None and file.physical_path and not (file.path or "").startswith("/memories/"):
        where = display_path(file.physical_path) + " (not among Memtab's files: it opens in "
        where += "the external editor)"
    return where


def _short(key: str) -> str:
    """A file id or path by its place under its source: `claude-code:project-…:deploy.md`
    is `deploy.md`."""
    return key.rsplit(":", 1)[-1] if ":" in key and not key.startswith("/") else key
