"""What Claude Code recalls of its auto memory for a prompt (docs/formats.md §17.8): without a
model, Memtab predicts its model's pick of up to 5 topics from the words of each name and
description, at half weight of the text a description stands for (`relevance`), and the kinds
of work they name that the prompt is about (`kinds`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

from memtab.fs.readable import read_readable_path
from memtab.loads.measure import Identify, named
from memtab.loads.recall.records import AgentRecall, RecallFile, Unrecallable, loaded_files
from memtab.loads.recall.relevance import NOTHING, Fields, Judgement, Prompt, holds, judge, ranked
from memtab.loads.records import AgentLoads
from memtab.loads.topics import Topic, TopicHeads, scan_topics
from memtab.sources.claude.recall import (
    NO_DESCRIPTION,
    RECALL_CANDIDATES,
    RECALL_PICKS,
    RECALL_READ_BYTES,
    RECALL_READ_LINES,
)

CONSERVATIVE_TYPES = ("user",)
PICK_SHARE_OF_BEST = 0.9
SHARED_BY = 3
"""A word shared with this many files' names and descriptions tells none apart."""
KINDS_WEIGHTS = (1.0, 0.3, 0.15)
"""What a topic's name, description and text saying the kind of work the prompt is about in
other words (`kinds`) weigh against one of the prompt's words: a file named for the kind is
about it; a description or text may name it in passing."""
TEXT_WEIGHT = 0.5
"""What a word of a described topic's text weighs against one of its name or description
(docs/performance.md, "Why recalled")."""
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
HELD_OUT_AGREEMENT = (0.68, 0.8)
"""How often the words' pick agreed with a careful reader's on the top five, on prompts it was
not tuned on (tests/unit/loads/test_recall_cases.py)."""
WORDS_NOTE = (
    "Memtab predicts this pick from the words of each name and description and the kinds "
    "of work they name, not a model's reading: on prompts it was not tuned on it agreed "
    "with a careful reader's pick "
    f"{HELD_OUT_AGREEMENT[0] * 100:.0f}–{HELD_OUT_AGREEMENT[1] * 100:.0f} % of the time; "
    "asking the model (--model, or Ask the model too) sends it Claude Code's own request"
)


def manifest_line(topic: Topic) -> str:
    """The topic's line in the manifest: `- [type] <name> (<mtime>): <description>`."""
    kind = f"[{topic.topic_type}] " if topic.topic_type else ""
    line = f"- {kind}{topic.name} ({iso_time(topic.mtime_ms)})"
    return f"{line}: {topic.description}" if topic.description else line


def iso_time(mtime_ms: int) -> str:
    """JavaScript's `new Date(ms).toISOString()`."""
    moment = datetime.fromtimestamp(mtime_ms // 1000, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{mtime_ms % 1000:03d}Z"


def manifest(topics: list[Topic]) -> str:
    """The first message of Claude Code's selection request."""
    return "Available memories:\n" + "\n".join(manifest_line(t) for t in topics)


def predict(
    prompt: Prompt, topics: list[Topic], shown: list[Judgement] | None = None
) -> tuple[list[int], list[Judgement]]:
    """The topics Memtab expects Claude Code's model to pick, best first, and every topic's
    judgement; `shown`: each judged by what its model is shown alone, when the caller has it."""
    judgements = judge(prompt, [_fields(t) for t in topics], kinds_weights=KINDS_WEIGHTS)
    order = ranked(judgements)
    if not order:
        return [], judgements
    best = judgements[order[0]].score
    if shown is None:
        shown = judge(prompt, [_listed(t) for t in topics])
    held_by = Counter(word for j in shown for word in j.matched)
    picks: list[int] = []
    for index in order:
        judgement = judgements[index]
        if judgement.score < best * PICK_SHARE_OF_BEST:
            break
        if topics[index].topic_type in CONSERVATIVE_TYPES and len(judgement.matched) < 2:
            continue
        if (
            not judgement.kinds
            and len(judgement.matched) == 1
            and held_by[judgement.matched[0]] >= SHARED_BY
        ):
            continue  # a word many files share tells none of them apart: no certainty
        picks.append(index)
        if len(picks) == RECALL_PICKS:
            break
    return picks, judgements


def _fields(topic: Topic) -> Fields:
    """What Claude Code's model judges a topic by (name, description) and a described topic's
    text."""
    if not topic.description:
        return _listed(topic)
    return Fields.of(
        (_name_words(topic.name), 1.0), (topic.description, 1.0), (topic.body, TEXT_WEIGHT)
    )


def _listed(topic: Topic) -> Fields:
    """What Claude Code's model is shown of a topic: its file name and its description."""
    return Fields.of((_name_words(topic.name), 1.0), (topic.description or "", 1.0))


def _name_words(name: str) -> str:
    return name.removesuffix(".md").replace("/", " ").replace("-", " ")


def claude_recall(
    prompt: Prompt,
    loads: AgentLoads,
    memory: Path | None,
    env: Mapping[str, str],
    identify: Identify,
    heads: TopicHeads | None = None,
) -> tuple[AgentRecall, list[Unrecallable]]:
    """What Claude Code loads and would recall for `prompt` with its auto memory in `memory`
    (None: off), and the topics it can never recall."""
    files = loaded_files(loads)
    notes = list(loads.notes)
    if memory is None:
        return AgentRecall(agent="claude", how=HOW, files=tuple(files), notes=tuple(notes)), []
    topics = scan_topics(memory, env, heads)
    candidates, older = topics[:RECALL_CANDIDATES], topics[RECALL_CANDIDATES:]
    notes.append(GATE_NOTE)
    if not any(ch.isspace() for ch in prompt.text.strip()):
        notes.append("The prompt is one word: Claude Code looks for no memory for it")
        picks: list[int] = []
        judgements: list[Judgement] = [NOTHING] * len(candidates)
        shown = judgements
    else:
        notes.append(WORDS_NOTE)
        # What its model is shown of each of the newest 200
        shown = judge(prompt, [_listed(t) for t in candidates])
        picks, judgements = predict(prompt, candidates, shown)
    # what their texts hold, and only the others' names: their text never reaches its model.
    for rank, index in enumerate(picks, start=1):
        files.append(_recalled(candidates[index], judgements[index], shown[index], rank, identify))
    picked = set(picks)
    body_hits = judge(prompt, [Fields.of((t.body, 1.0)) for t in candidates])
    past = judge(prompt, [Fields.of((_name_words(t.name), 1.0)) for t in older])
    for index, topic in enumerate(topics):
        if index in picked:
            continue
        in_view = index < len(candidates)
        listed = shown[index] if in_view else past[index - len(candidates)]
        body = body_hits[index] if in_view else NOTHING
        reason = _missed_reason(topic, in_view, listed, body)
        if reason is not None:
            best = listed if listed.score > 0 else body
            files.append(_file(topic, identify, "missed", best, reason))
    unrecallable = [
        _never(topic, identify, NO_DESCRIPTION) for topic in candidates if not topic.description
    ]
    unrecallable += [_never(topic, identify, _TOO_OLD) for topic in older]
    recall = AgentRecall(
        agent="claude",
        how=HOW,
        files=tuple(files),
        sent=manifest(candidates) if candidates else None,
        notes=tuple(notes),
    )
    return recall, unrecallable


_TOO_OLD = (
    f"Older than the newest {RECALL_CANDIDATES} topic files: Claude Code never shows it to its "
    "model"
)


def _missed_reason(topic: Topic, in_view: bool, listed: Judgement, body: Judgement) -> str | None:
    """Why a topic holding the prompt's words is not picked; None when it holds none."""
    if not in_view:
        return _TOO_OLD if listed.score > 0 else None
    if listed.score > 0:
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


def _recalled(
    topic: Topic, judgement: Judgement, shown: Judgement, rank: int, identify: Identify
) -> RecallFile:
    record = _file(topic, identify, "recalled", judgement, _recalled_reason(judgement, shown))
    lines, cut = _read_cut(topic.path)
    return record.replaced(rank=rank, first_line=1, last_line=lines, cut_reason=cut)


def _recalled_reason(judgement: Judgement, shown: Judgement) -> str:
    """Why a topic is expected picked: the prompt's words its name and description hold, those
    only its text holds, then the kinds of work it says in other words."""
    listed = ", ".join(shown.matched)
    within = ", ".join(word for word in judgement.matched if word not in shown.matched)
    parts: list[str] = []
    if listed:
        parts.append("its name and description hold the prompt's words: " + listed)
    if within:
        parts.append(
            f"its text holds {within}: what its description is about, as a model reading it "
            "would know"
        )
    if judgement.kinds:
        parts.append(
            "it is about the prompt's kind of work in other words: " + ", ".join(judgement.kinds)
        )
    reason = "; ".join(parts) or "its name and description hold the prompt's words"
    return reason[0].upper() + reason[1:]


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
        **named(topic.physical, identify),
    )


def _never(topic: Topic, identify: Identify, reason: str) -> Unrecallable:
    return Unrecallable(agent="claude", reason=reason, **named(topic.physical, identify))
