"""What a trust action will write, shown file by file before anything is written (issue 94):
for each choice of where to keep a group (`CombineChoice`), a `Reviewed` — every file as it
is and as it will be (`FileChange`, with its difference), what each becomes in words, and
every move of memory into another project's, agent's or scope's memory named, with who
stops or starts reading it. Combine of a rule group takes out only the lines that say the
kept line's text (`same_text`); the others are shown, left as they are."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from memtab.components.merge import ThreeWayTexts
from memtab.components.text_diff import DiffResult
from memtab.humanize import plural
from memtab.store.text.content_lines import content_lines
from memtab.trust.duplicates.records import DuplicateGroup, listed
from memtab.trust.leaks.records import Leak
from memtab.trust.memories import AGENT_NAMES, where_in_words
from memtab.trust.records import MemoryPlace

REVIEW_NOTE = (
    "Every line either file says, once, under the kept file's title. Check it and edit it "
    "if needed: Combine keeps exactly this text."
)
"""The note under the text to keep."""
NOTHING_YET = "Nothing changes until you accept; Edit → Undo then brings every file back."


@dataclass(frozen=True)
class CombineChoice:
    """Where a group is combined: member `member` (an index), or global memory (None)."""

    label: str
    member: int | None


def combine_choices(group: DuplicateGroup) -> list[CombineChoice]:
    """Where `group` can go: each member, then mux's global memory for a group of whole
    files none of which is there already."""
    choices = [
        CombineChoice(f"{file_name(m.path)} — {where_in_words(m)}", index)
        for index, m in enumerate(group.members)
    ]
    in_global = any(m.agent == "mux" and m.scope == "global" for m in group.members)
    if group.kind != "rule" and not in_global:
        choices.append(CombineChoice("A new file in mux's global memory (every session)", None))
    return choices


def file_name(path: str) -> str:
    """A place's file name (`testing.md` of `/memories/project/testing.md`, of a file id)."""
    return path.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1]


def newest(places: Sequence[MemoryPlace]) -> int:
    """The index of the place changed last."""
    return max(range(len(places)), key=lambda i: places[i].modified_at)


def new_global_place(members: Sequence[MemoryPlace]) -> MemoryPlace:
    """Where Combine's new file in mux's global memory goes: named as the newest member."""
    return MemoryPlace(
        path=f"/memories/global/{file_name(members[newest(members)].path)}",
        agent="mux",
        scope="global",
    )


LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
"""A list item's marker, and its task box: no part of what the line says."""
_LINK = re.compile(r"!?\[([^\[\]]*)\]\([^()\s]*\)")  # neither part reads past another's start
_MARKUP = re.compile(r"[`*_~]+")


def said_as(text: str) -> str:
    """What a line says, as two lines are compared for the same text: its list marker,
    Markdown markup (emphasis, code, a link's target) and closing punctuation left out,
    whitespace runs one space, case folded."""
    text = _LINK.sub(r"\1", LIST_MARK.sub("", text))
    return " ".join(_MARKUP.sub("", text).split()).rstrip(".;:!, ").casefold()


def same_text(one: str, other: str) -> bool:
    """Whether two lines say the same text (`said_as`): only such a line is ever taken
    out by Combine; a line in other words is left as it is."""
    return said_as(one) == said_as(other)


@dataclass(frozen=True)
class FileChange:
    """One file of a review: its text before (None: a file made new) and after (None:
    removed), the sha it must still hold when written (`sha256`, "" for a new file), what
    it becomes in words, and the difference shown (`diff`; None for the file whose text
    the review edits). `counted`: its write is one use of the file."""

    place: MemoryPlace
    before: str | None
    after: str | None
    sha256: str
    becomes: str
    diff: DiffResult | None = None
    counted: bool = True

    @property
    def name(self) -> str:
        return file_name(self.place.path)

    @property
    def changes(self) -> bool:
        return self.before != self.after


@dataclass(frozen=True)
class Reviewed:
    """What accepting one choice writes: `summary` in words; `moves`, each move of memory
    into another memory, named (whose memory, who stops or starts reading it); `files`,
    each file changed or shown; `edited`, the file whose text the review edits (its
    `texts`: the three-way view's); `accept`, the button's words; `refused`, why there is
    nothing to accept ("" when there is); `done`, what the status says once written."""

    choice: CombineChoice | None
    summary: str
    files: tuple[FileChange, ...]
    moves: tuple[str, ...] = ()
    edited: int | None = None
    texts: ThreeWayTexts | None = None
    accept: str = "C&ombine"
    refused: str = ""
    done: str = ""
    action: str = "Combining"
    """What it does, said in a failure ("Combining failed")."""
    undo_as: str = "combine of duplicates"
    """What Edit → Undo names it."""

    def with_text(self, text: str) -> tuple[FileChange, ...]:
        """The files as accepted: the edited file's after-text `text`."""
        return tuple(
            _replaced(change, after=text) if index == self.edited else change
            for index, change in enumerate(self.files)
        )


def _replaced(change: FileChange, *, after: str) -> FileChange:
    return FileChange(
        change.place,
        change.before,
        after,
        change.sha256,
        change.becomes,
        change.diff,
        change.counted,
    )


@dataclass(frozen=True)
class Proposal:
    """What an action proposes: its title, what it acts on (`found`), and one review for
    each choice, the one proposed first."""

    title: str
    found: object
    reviews: tuple[Reviewed, ...]

    def labels(self) -> list[str]:
        return [r.choice.label for r in self.reviews if r.choice is not None]


# Whose memory a place is, and who reads it.


def whose(place: MemoryPlace) -> str:
    """ "mux's global memory", "project /src/a's Claude Code memory", "workspace a1b2's mux
    memory", "Codex's memory (imported from Claude Code (cwd /src/a))"."""
    agent = AGENT_NAMES.get(place.agent, place.agent)
    if place.imported:
        return f"{agent}'s memory ({place.imported})"
    if place.scope == "workspace" and place.workspace:
        return f"workspace {place.workspace}'s {agent} memory"
    if place.scope == "project":
        return (
            f"project {place.project}'s {agent} memory"
            if place.project
            else f"a project's {agent} memory"
        )
    return f"{agent}'s global memory"


def _sessions(place: MemoryPlace) -> str:
    """Who reads `place`: "Claude Code sessions in project /src/a"."""
    agent = AGENT_NAMES.get(place.agent, place.agent)
    if place.scope == "workspace" and place.workspace:
        return f"{agent} sessions in workspace {place.workspace}"
    if place.scope == "project":
        return f"{agent} sessions in project {place.project or '(unknown)'}"
    return f"every {agent} session"


def _memory_of(place: MemoryPlace) -> tuple[object, ...]:
    """Which memory a place is in: an agent's scope (of a project, a workspace)."""
    return (place.agent, place.scope, place.project, place.workspace, place.imported)


def _same_memory(one: MemoryPlace, other: MemoryPlace) -> bool:
    return _memory_of(one) == _memory_of(other)


def reads_all(wider: MemoryPlace, narrower: MemoryPlace) -> bool:
    """Whether every session that reads `narrower` reads `wider` too: the same agent, and
    `wider` its global memory, the same memory, or the project of `narrower`'s workspace."""
    if wider.agent != narrower.agent or wider.imported or narrower.imported:
        return _same_memory(wider, narrower)
    if wider.scope == "global" or _same_memory(wider, narrower):
        return True
    return (
        wider.scope == "project"
        and narrower.scope == "workspace"
        and wider.project is not None
        and wider.project == narrower.project
    )


def _who_else(source: MemoryPlace, target: MemoryPlace, them: str) -> str:
    """Who stops and who starts reading what goes from `source` to `target` ("" when the
    same sessions read both)."""
    lost = gained = ""
    if not reads_all(target, source):
        if source.scope == "global" and source.agent == target.agent and not source.imported:
            agent = AGENT_NAMES.get(source.agent, source.agent)
            lost = f"{agent} sessions outside {_sessions(target).split(' in ', 1)[-1]}"
        else:
            lost = _sessions(source)
    if not reads_all(source, target):
        gained = _sessions(target)
    if lost and gained:
        return f": {lost} will no longer read {them}, and {gained} will"
    if lost:
        return f": {lost} will no longer read {them}"
    return f": {gained} will read {them} too" if gained else ""


def moved(what: str, source: MemoryPlace, target: MemoryPlace, them: str) -> str:
    """A move of `what` from `source`'s memory into `target`'s, in words, with who stops
    or starts reading `them` ("" within one memory)."""
    if _same_memory(source, target):
        return ""
    return (
        f"Moves {what} from {whose(source)} into {whose(target)}{_who_else(source, target, them)}."
    )


def taken_out(source: MemoryPlace, kept: MemoryPlace) -> str:
    """A line taken out of `source`, said in `kept`, in words when some session that read
    it no longer does ("" when every one still reads it in `kept`)."""
    if reads_all(kept, source):
        return ""
    return (
        f"Takes the line out of {whose(source)}; it stays in {whose(kept)}: "
        f"{_sessions(source)} will no longer read it."
    )


# Combine of a rule group: the kept line stays, the same text elsewhere goes.

Differ = Callable[[str, str], DiffResult]
"""The difference of two texts, as shown (`components.text_diff.compute_diff`)."""
Without = Callable[[str, MemoryPlace], "str | None"]
"""A file's text without a place's line (None: no line of it holds the place)."""


FileKey = tuple[str, str, "str | None", "str | None"]


def file_key(place: MemoryPlace) -> FileKey:
    """Which file a place is in: its path is not enough (`/memories/project/go.md` is in
    every project's memory)."""
    project = place.project if place.scope == "project" else None
    workspace = place.workspace if place.scope == "workspace" else None
    return (place.path, place.scope, project, workspace)


@dataclass(frozen=True)
class ReadFile:
    """A file as read for a review: its text and sha; `refused`: why it may not be
    changed ("" when it may)."""

    text: str
    sha256: str
    refused: str = ""


def lines_review(
    group: DuplicateGroup,
    kept: int,
    files: Mapping[FileKey, ReadFile],
    without: Without,
    differ: Differ,
) -> Reviewed:
    """What Combine of the rule `group` writes with member `kept` kept: each other member
    whose line says the kept line's text (`same_text`) loses that line; a member saying it
    in other words, or in a file that may not be changed, is shown and left as it is."""
    keeper = group.members[kept]
    by_file: dict[FileKey, list[int]] = {}
    for index, member in enumerate(group.members):
        by_file.setdefault(file_key(member), []).append(index)
    changes: list[FileChange] = []
    moves: list[str] = []
    left: list[str] = []
    removed = 0
    for key, indexes in by_file.items():
        read = files[key]
        going = [i for i in indexes if i != kept and same_text(group.members[i].text, keeper.text)]
        staying = [i for i in indexes if i != kept and i not in going]
        place = group.members[indexes[0]]
        if going and read.refused:
            staying, going = staying + going, []
        text = read.text
        for index in sorted(going, key=lambda i: -(group.members[i].line or 0)):
            shorter = without(text, group.members[index])
            if shorter is None:
                return _refused_review(group, kept, f"{key[0]} no longer holds its line")
            text = shorter
            if taken := taken_out(group.members[index], keeper):
                moves.append(taken)
        removed += len(going)
        becomes = []
        if kept in indexes:
            becomes.append(f"keeps {_numbered(group, [kept])}")
        if going:
            becomes.append(f"loses {_numbered(group, going)}")
        if staying:
            why = read.refused or "says it in other words"
            becomes.append(f"keeps {_numbered(group, staying)}: {why}")
            left += [group.members[i].path for i in staying]
        diff = differ(read.text, text) if text != read.text else None
        changes.append(FileChange(place, read.text, text, read.sha256, "; ".join(becomes), diff))
    choice = CombineChoice(f"{file_name(keeper.path)} — {where_in_words(keeper)}", kept)
    kept_words = f"{file_name(keeper.path)} ({where_in_words(keeper)})"
    if not removed:
        return Reviewed(
            choice,
            f"{group.why}.\nNo other memory says “{keeper.text.strip()}” in the same words: "
            "Combine takes nothing out. Compare them, or ask your model.",
            tuple(changes),
            refused="Nothing to take out: no other line says the kept line's text",
        )
    others = ""
    if left:
        them = "it is" if len(left) == 1 else "they are"
        others = f" {plural(len(left), 'line')} in other words: left as {them}."
    summary = (
        f"{group.why}.\nCombine keeps the line in {kept_words} and takes the same line out of "
        f"{plural(removed, 'other place')}.{others} {NOTHING_YET}"
    )
    done = f"Combined into {keeper.path}: {_taken_out(removed, 'line')}"
    return Reviewed(choice, summary, tuple(changes), tuple(moves), done=done)


def _numbered(group: DuplicateGroup, indexes: Sequence[int]) -> str:
    numbers = sorted(group.members[i].line or 0 for i in indexes)
    if len(numbers) == 1:
        return f"line {numbers[0]}"
    return f"lines {listed([str(n) for n in numbers])}"


def _refused_review(group: DuplicateGroup, kept: int, why: str) -> Reviewed:
    keeper = group.members[kept]
    choice = CombineChoice(f"{file_name(keeper.path)} — {where_in_words(keeper)}", kept)
    return Reviewed(choice, f"{group.why}.\n{why}: nothing is changed.", (), refused=why)


def _taken_out(count: int, what: str) -> str:
    """`1 file taken out (Edit → Undo brings it back)`."""
    them = "it" if count == 1 else "them"
    return f"{plural(count, what)} taken out (Edit → Undo brings {them} back)"


# Combine of whole files: one keeps the text the user accepts, the others go.


@dataclass(frozen=True)
class CombineMember:
    """One file of the group as read: text, sha, and its description, uses and pin."""

    place: MemoryPlace
    text: str
    sha256: str
    described: bool = False
    uses: int | None = None
    """How often agents used it (mux's memory-meta.json); None: not counted (another
    agent's file)."""
    pinned: bool = False

    @property
    def name(self) -> str:
        return file_name(self.place.path)

    def facts(self) -> str:
        """`described · used 12× · pinned`, `no description · never used`."""
        said = ["described" if self.described else "no description"]
        if self.uses is not None:
            said.append(f"used {self.uses}×" if self.uses else "never used")
        if self.pinned:
            said.append("pinned")
        return " · ".join(said)


def side_labels(
    members: Sequence[CombineMember], choice: CombineChoice, keeper: int
) -> tuple[str, str, str]:
    """The three-way view's titles: (no common version), the file kept, the files taken out."""
    kept = keeper if choice.member is None else choice.member
    others = [m.name for i, m in enumerate(members) if i != kept]
    first = members[kept].name
    mine = f"From {first}" if choice.member is None else f"Kept: {first}"
    verb = "And" if choice.member is None else "Taken out"
    return ("", mine, f"{verb}: {', '.join(others)}")


def files_review(
    group: DuplicateGroup,
    members: Sequence[CombineMember],
    choice: CombineChoice,
    texts: ThreeWayTexts,
    removals: Sequence[DiffResult],
) -> Reviewed:
    """What Combine of whole files writes for `choice`: the kept file (or a new one in mux's
    global memory) becomes the text to keep (`texts.draft`, edited in the review), each
    other file is removed; every file's lines moving into another memory named."""
    places = [m.place for m in members]
    files: list[FileChange] = []
    if choice.member is None:
        target = new_global_place(places)
        files.append(FileChange(target, None, texts.draft, "", "a new file: the text to keep"))
        target_lines: set[str] = set()
        where = "a new file in mux's global memory"
    else:
        kept = members[choice.member]
        target = kept.place
        files.append(
            FileChange(
                target,
                kept.text,
                texts.draft,
                kept.sha256,
                "becomes the text to keep",
                counted=False,
            )
        )
        target_lines = content_lines(kept.text)
        where = f"{kept.name} ({where_in_words(kept.place)})"
    kept_lines = content_lines(texts.draft)
    carried: dict[tuple[object, ...], tuple[MemoryPlace, set[str], list[str]]] = {}
    for index, member in enumerate(members):
        if index == choice.member:
            continue
        lines = content_lines(member.text)
        lost = len(lines - kept_lines)
        becomes = (
            f"removed — {plural(lost, 'line')} of it not in the text to keep"
            if lost
            else "removed — every line of it is in the text to keep"
        )
        files.append(
            FileChange(member.place, member.text, None, member.sha256, becomes, removals[index])
        )
        _, moving, names = carried.setdefault(_memory_of(member.place), (member.place, set(), []))
        moving |= (lines & kept_lines) - target_lines
        names.append(member.name)
    moves: list[str] = []
    for source, moving, names in carried.values():
        count = len(moving)
        what = plural(count, "line") if count else f"{listed(names)} (already said there)"
        if said := moved(what, source, target, "them" if count > 1 else "it"):
            moves.append(said)
    gone = [m.name for i, m in enumerate(members) if i != choice.member]
    summary = (
        f"{group.why}.\nCombine keeps the text to keep in {where}: every line either file "
        f"says, once. {', '.join(gone)} then {'goes' if len(gone) == 1 else 'go'}. "
        f"{NOTHING_YET}"
    )
    count = len(members) - (0 if choice.member is None else 1)
    done = f"Combined into {target.path}: {_taken_out(count, 'file')}"
    return Reviewed(choice, summary, tuple(files), tuple(moves), edited=0, texts=texts, done=done)


# Move of a leak: a memory file into the project it names, a secret's line out.


def move_review(
    leak: Leak, read: ReadFile, after: str | None, target: MemoryPlace | None, differ: Differ
) -> Reviewed:
    """What Move writes for `leak` (`read`: its file): a secret's file without its line
    (`after`), or the file made anew at `target` with the same text and removed where it
    is — the move named, with who stops and starts reading it."""
    source = leak.place
    name = file_name(source.path)
    if target is None:
        line = f"line {source.line}" if source.line is not None else "the secret's line"
        if after is None:
            refused = f"{name} no longer holds the line"
            return Reviewed(None, leak.why, (), refused=refused, action="Taking the line out")
        change = FileChange(
            source, read.text, after, read.sha256, f"loses {line} (the secret's)",
            differ(read.text, after),
        )  # fmt: skip
        summary = f"{leak.why}\nTake the line out removes {line} of {name}, whole. {NOTHING_YET}"
        done = f"Took the secret's line out of {source.path}"
        return Reviewed(
            None, summary, (change,), accept="&Take the line out", done=done,
            action="Taking the line out", undo_as="removal of a secret",
        )  # fmt: skip
    files = (
        FileChange(target, None, read.text, "", "a new file: the same text", differ("", read.text)),
        FileChange(source, read.text, None, read.sha256, "removed", differ(read.text, "")),
    )
    summary = (
        f"{leak.why}\nMove makes {name} in {whose(target)} with the same text, and takes it "
        f"out of {whose(source)}. {NOTHING_YET}"
    )
    moves = tuple(filter(None, [moved(name, source, target, "it")]))
    done = f"Moved {source.path} to project {leak.belongs_to}'s memory"
    return Reviewed(
        None, summary, files, moves, accept="&Move", done=done, action="Moving",
        undo_as="move of a leak",
    )  # fmt: skip
