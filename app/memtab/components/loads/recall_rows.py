"""What the window shows of a recall, without Qt (`gui/loads/recall_dialog` draws it;
docs/formats.md §17.8): per agent a group — title, how it picks, its notes — with a row a file
(recalled by rank, then missed and why, then read at every start), then the memories no agent
can recall; the model's picks (`modelPick`) lead, marked `model`. A row opens its `FilePlace`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from memtab.components.activity.change_batch import ChangeBatch
from memtab.humanize import display_path, plural
from memtab.loads.recall.records import (
    AgentRecall,
    ModelPick,
    Recall,
    RecallFile,
    Unrecallable,
)
from memtab.loads.records import AGENT_LABELS, AgentName
from memtab.store.home import PathKind

LOADED, NEVER = "start", "never"
"""The marks of a file read at the start, and of one no prompt can reach."""
MISSED = "missed"
MODEL = "model"
"""The mark of a file the user's model picked, asked as the agent asks its own."""


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
"""What a recall shown reads: xum's scopes, its pins and use, the registry, and what lies
outside the home (the other agents' files) — not Memtab's own files, transcripts or queues."""


def asks_again(batch: ChangeBatch) -> bool:
    """Whether a change on disk may change a recall shown."""
    return not batch.kinds.isdisjoint(ASKED_AGAIN_FOR)


@dataclass(frozen=True)
class FilePlace:
    """Where opening a row leads: a memory file (a xum note's virtual path or another
    agent's file id, `lines` counted from 0 to highlight), or a file on disk no source of
    Memtab's holds (`outside`)."""

    key: str
    lines: tuple[int, ...] = ()
    outside: bool = False

    @property
    def virtual(self) -> bool:
        """Whether `key` is a xum note's virtual path."""
        return not self.outside and self.key.startswith("/memories/")


@dataclass(frozen=True)
class RecallRow:
    """One file of a group: its mark (`start`, `#1`, `missed`, `never`), how it is named
    (with the lines the agent reads, when it reads only some), why, and where it opens."""

    mark: str
    name: str
    why: str
    place: FilePlace | None
    tip: str = ""
    """The whole path or id, for a row that names the file shorter."""


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
    if asked is not None:
        cost = f"{asked.input_tokens:,} tokens in, {asked.output_tokens:,} out"
        how = (
            f"Memtab asked {asked.model} as Claude Code asks its model ({cost}), and predicts "
            "each agent's pick from the words of what it judges by."
        )
    else:
        how = (
            "Memtab predicts each agent's pick from the words of what it judges by, not by "
            "asking its model."
        )
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
