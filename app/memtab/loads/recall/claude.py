"""What Claude Code recalls of its auto memory for a prompt (docs/formats.md §17.8).

From Claude Code 2.1.332's bundle (`memdir`: `selectRelevantMemories`, its scan and its
`relevant_memories` attachment; the strings are quoted in the formats section):

- Only when the prompt holds more than one word (`/\\s/`) does it look for memories.
- The candidates are the `.md` files under the auto memory directory, every file named
  `MEMORY.md` left out, nor anything in `team/`, `logs/`, `sessions/`, `proposals/` or a
  folder or file beginning with `.`; each is read to its first 30 lines for its frontmatter:
  `description`, and `type` when it is `user`, `feedback`, `project` or `reference`. With
  `CLAUDE_MEMORY_STORES` set a file without a description is described by its first line
  that is not blank (a heading's `#`s taken off, 120 characters at most). The newest 200
  by modification time are kept.
- A side request to the model sends them as `Available memories:` and a line each,
  `- [type] <file name> (<mtime, ISO 8601>): <description>`, then `Select memories
  relevant to:` and the prompt; the system prompt asks for "up to 5" file names it is
  "certain will be helpful based on their name and description", "especially
  conservative with user-profile and project-overview memories ([user], [project])".
- Each file picked is read to its first 200 lines or 4,096 bytes and put before the turn
  under "Retrieved for possible relevance — use only if it actually applies to what the
  user asked.", each as `Memory: <path>:` (after "This memory is N days old. …" when it is
  older than a day).

Memtab cannot ask the model; it predicts the pick from the words of each name and
description (`relevance`): the files that hold the prompt's words best, at most 5, each
at least half as good as the best, and a `[user]` or `[project]` memory only when it holds
two of the prompt's words.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from memtab.fs.readable import read_readable_path
from memtab.loads.measure import Identify, named
from memtab.loads.recall.records import AgentRecall, RecallFile, Unrecallable
from memtab.loads.recall.relevance import NOTHING, Fields, Judgement, Prompt, holds, judge, ranked
from memtab.loads.recall.starts import loaded_files
from memtab.loads.records import AgentLoads
from memtab.sources.claude.recall import (
    NO_DESCRIPTION,
    RECALL_CANDIDATES,
    RECALL_PICKS,
    RECALL_READ_BYTES,
    RECALL_READ_LINES,
    is_recalled_topic,
    topic_frontmatter,
)
from memtab.store.text.frontmatter import FrontmatterSpan, find_frontmatter

TOPIC_TYPES = ("user", "feedback", "project", "reference")
CONSERVATIVE_TYPES = ("user",)
HEAD_BYTES = 8 * 1024
DESCRIPTION_LINE_CHARS = 120
PICK_SHARE_OF_BEST = 0.9
HOW = (
    f"For each prompt of more than one word Claude Code has its model pick up to "
    f"{RECALL_PICKS} topic files by name and description among the newest "
    f"{RECALL_CANDIDATES}, and reads each up to {RECALL_READ_LINES} lines or "
    f"{RECALL_READ_BYTES:,} bytes; MEMORY.md is read at the start"
)
GATE_NOTE = (
    "Claude Code 2.1.332 makes this pick when its recall is on for the account (a server "
    "flag) or CLAUDE_MEMORY_STORES is set; without it the model opens a topic file only "
    "from what MEMORY.md says of it"
)
RETRIEVED_HEADER = (
    "Retrieved for possible relevance — use only if it actually applies to what the user asked."
)


@dataclass(frozen=True)
class Topic:
    """A candidate as Claude Code's scan reads it."""

    name: str  # the path under the memory directory, as the manifest spells it
    path: Path
    mtime_ms: int
    description: str | None
    topic_type: str | None
    body: str

    def manifest_line(self) -> str:
        kind = f"[{self.topic_type}] " if self.topic_type else ""
        line = f"- {kind}{self.name} ({iso_time(self.mtime_ms)})"
        return f"{line}: {self.description}" if self.description else line


def iso_time(mtime_ms: int) -> str:
    """JavaScript's `new Date(ms).toISOString()`."""
    moment = datetime.fromtimestamp(mtime_ms // 1000, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{mtime_ms % 1000:03d}Z"


def scan_topics(memory: Path, env: Mapping[str, str]) -> list[Topic]:
    """Every topic file of the auto memory directory `memory`, newest first."""
    stores = bool(env.get("CLAUDE_MEMORY_STORES", "").strip())
    topics: list[Topic] = []
    for folder, dirs, names in os.walk(memory):
        relative = Path(folder).relative_to(memory).parts
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for file_name in names:
            segments = (*relative, file_name)
            if not is_recalled_topic(segments):
                continue
            path = Path(folder, file_name)
            topic = _read_topic(path, "/".join(segments), stores)
            if topic is not None:
                topics.append(topic)
    return sorted(topics, key=lambda t: (-t.mtime_ms, t.name))


def _read_topic(path: Path, name: str, stores: bool) -> Topic | None:
    try:
        mtime_ms = path.stat().st_mtime_ns // 1_000_000
        data = read_readable_path(path, limit=HEAD_BYTES, follow_link=True)
    except OSError:
        return None
    text = data.decode("utf-8", errors="replace").lstrip("\ufeff")
    values = topic_frontmatter(text)
    description: str | None = values.get("description") or None
    span: FrontmatterSpan | None = find_frontmatter(text)
    body = text[span.end :] if span is not None else text
    if description is None and stores:
        description = _first_line(body)
    kind = values.get("type")
    return Topic(
        name=name,
        path=path,
        mtime_ms=mtime_ms,
        description=description,
        topic_type=kind if kind in TOPIC_TYPES else None,
        body=body,
    )


def _first_line(body: str) -> str | None:
    for line in body.split("\n"):
        stripped = line.lstrip("#").strip() if line.lstrip().startswith("#") else line.strip()
        if stripped:
            return stripped[:DESCRIPTION_LINE_CHARS]
    return None


def manifest(topics: list[Topic]) -> str:
    """The first message of Claude Code's selection request."""
    return "Available memories:\n" + "\n".join(t.manifest_line() for t in topics)


def predict(prompt: Prompt, topics: list[Topic]) -> tuple[list[int], list[Judgement]]:
    """The indexes of the topics Memtab expects Claude Code's model to pick, best first,
    and every topic's judgement by its name and description."""
    judgements = judge(prompt, [_fields(t) for t in topics])
    order = ranked(judgements)
    if not order:
        return [], judgements
    best = judgements[order[0]].score
    picks: list[int] = []
    for index in order:
        judgement = judgements[index]
        if judgement.score < best * PICK_SHARE_OF_BEST:
            break
        if topics[index].topic_type in CONSERVATIVE_TYPES and len(judgement.matched) < 2:
            continue
        picks.append(index)
        if len(picks) == RECALL_PICKS:
            break
    return picks, judgements


def _fields(topic: Topic) -> Fields:
    """What Claude Code's model judges a topic by: its file name and its description."""
    return Fields.of((_name_words(topic.name), 1.0), (topic.description or "", 1.0))


def _name_words(name: str) -> str:
    return name.removesuffix(".md").replace("/", " ").replace("-", " ")


def claude_recall(
    prompt: Prompt,
    loads: AgentLoads,
    memory: Path | None,
    env: Mapping[str, str],
    identify: Identify,
) -> tuple[AgentRecall, list[Unrecallable]]:
    """What Claude Code loads and would recall for `prompt` with its auto memory in
    `memory` (None: auto memory is off), and the topics it can never recall."""
    files = loaded_files(loads)
    notes = list(loads.notes)
    if memory is None:
        return AgentRecall(agent="claude", how=HOW, files=tuple(files), notes=tuple(notes)), []
    topics = scan_topics(memory, env)
    candidates, older = topics[:RECALL_CANDIDATES], topics[RECALL_CANDIDATES:]
    notes.append(GATE_NOTE)
    if not any(ch.isspace() for ch in prompt.text.strip()):
        notes.append("The prompt is one word: Claude Code looks for no memory for it")
        picks: list[int] = []
        judgements: list[Judgement] = [NOTHING] * len(candidates)
    else:
        picks, judgements = predict(prompt, candidates)
    for rank, index in enumerate(picks, start=1):
        files.append(_recalled(candidates[index], judgements[index], rank, identify))
    picked = set(picks)
    body_hits = judge(prompt, [Fields.of((t.body, 1.0)) for t in topics])
    past = judge(prompt, [_fields(t) for t in older])
    for index, topic in enumerate(topics):
        if index in picked:
            continue
        in_view = index < len(judgements)
        listed = judgements[index] if in_view else past[index - RECALL_CANDIDATES]
        body = body_hits[index]
        reason = _missed_reason(topic, index, listed, body)
        if reason is not None:
            best = listed if listed is not None and listed.score > 0 else body
            files.append(_file(topic, identify, "missed", best, reason))
    unrecallable = [
        _never(topic, identify, NO_DESCRIPTION) for topic in candidates if not topic.description
    ]
    unrecallable += [
        _never(
            topic,
            identify,
            f"Older than the newest {RECALL_CANDIDATES} topic files: "
            "Claude Code never shows it to its model",
        )
        for topic in older
    ]
    recall = AgentRecall(
        agent="claude",
        how=HOW,
        files=tuple(files),
        sent=manifest(candidates) if candidates else None,
        notes=tuple(notes),
    )
    return recall, unrecallable


def _missed_reason(
    topic: Topic, index: int, listed: Judgement | None, body: Judgement
) -> str | None:
    """Why a topic that holds the prompt's words is not picked; None when it holds none."""
    if index >= RECALL_CANDIDATES:
        if not holds(body) and (listed is None or listed.score <= 0):
            return None
        return (
            f"Older than the newest {RECALL_CANDIDATES} topic files: Claude Code never shows "
            "it to its model"
        )
    if listed is not None and listed.score > 0:
        if topic.topic_type in CONSERVATIVE_TYPES and len(listed.matched) < 2:
            return (
                f"A [{topic.topic_type}] memory sharing one word with the prompt: Claude Code "
                "tells its model to be especially conservative with these"
            )
        return (
            "Its name and description answer the prompt less well than the files picked "
            "(its model takes only those it is certain of, up to 5)"
        )
    if not holds(body):
        return None
    if not topic.description:
        return (
            "Its text holds the prompt's words, but it has no description: Claude Code's "
            "model sees only its file name"
        )
    return (
        "Its text holds the prompt's words, but its name and description do not: Claude "
        "Code's model judges by those alone"
    )


def _recalled(topic: Topic, judgement: Judgement, rank: int, identify: Identify) -> RecallFile:
    record = _file(
        topic,
        identify,
        "recalled",
        judgement,
        "Its name and description hold the prompt's words: " + ", ".join(judgement.matched),
    )
    lines, cut = _read_cut(topic.path)
    return record.replaced(rank=rank, first_line=1, last_line=lines, cut_reason=cut)


def _read_cut(path: Path) -> tuple[int, str | None]:
    """How many lines Claude Code reads of a recalled file, and why it stops, if it does."""
    try:
        data = read_readable_path(path, limit=RECALL_READ_BYTES * 64, follow_link=True)
    except OSError:
        return 0, None
    text = data.decode("utf-8", errors="replace")
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    kept, size = 0, 0
    for line in lines[:RECALL_READ_LINES]:
        grown = size + (1 if kept else 0) + len(line.encode("utf-8", errors="surrogatepass"))
        if grown > RECALL_READ_BYTES:
            return kept, f"Claude Code reads a recalled memory up to {RECALL_READ_BYTES:,} bytes"
        size, kept = grown, kept + 1
    if len(lines) > RECALL_READ_LINES:
        return kept, f"Claude Code reads a recalled memory up to {RECALL_READ_LINES} lines"
    return kept, None


def _file(
    topic: Topic, identify: Identify, verdict: str, judgement: Judgement, reason: str
) -> RecallFile:
    return RecallFile(
        name=topic.name,
        kind="topic",
        verdict=verdict,  # type: ignore[arg-type]
        score=judgement.score,
        matched=judgement.matched,
        reason=reason,
        **named(topic.path, identify),
    )


def _never(topic: Topic, identify: Identify, reason: str) -> Unrecallable:
    return Unrecallable(agent="claude", reason=reason, **named(topic.path, identify))
