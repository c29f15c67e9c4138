"""Asking the user's model what Claude Code's model would recall (`memtab recall --model`;
docs/formats.md §17.8), with Claude Code's own request; the other agents pick inside the
conversation, so theirs stays the words' prediction. Calls the network: off the GUI thread."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass

from memtab.fs.records import Record, ValidItems
from memtab.llm.settings import ProviderSettings, create_provider
from memtab.llm.types import ChatProvider, Message, ProviderError, UserMessage
from memtab.llm.written.calls import json_values_in
from memtab.loads.recall.records import AgentRecall, ModelPick, Recall
from memtab.loads.records import AGENT_LABELS, AgentName
from memtab.loads.topics import TOPIC_TYPES

ProviderFactory = Callable[[ProviderSettings, int], ChatProvider]
"""How a provider is made for settings and a token limit (tests: the fake server's)."""
CUT_REASONS = frozenset({"max_tokens", "length"})
"""Why a reply stopped when it was cut at its token limit (Anthropic, OpenAI)."""
NOT_ASKED: dict[AgentName, str] = {
    "codex": (
        "Codex asks no model apart: its model picks in the conversation (its quick memory "
        "pass over MEMORY.md), so this is the words' prediction"
    ),
    "gemini": (
        "Gemini CLI asks no model apart: its model follows MEMORY.md's pointers in the "
        "conversation, so this is the words' prediction"
    ),
    "xum": "xum asks no model apart: it ranks its index, so this is the words' prediction",
    "claude": "",
}


def make_provider(settings: ProviderSettings, max_tokens: int) -> ChatProvider:
    """The configured provider, as every model call of Memtab's makes it."""
    return create_provider(settings, max_tokens=max_tokens)


def ask_model(
    recall: Recall,
    settings: ProviderSettings,
    *,
    cancel: threading.Event | None = None,
    make: ProviderFactory = make_provider,
    clock: Callable[[], float] = time.perf_counter,
) -> Recall:
    """`recall` with what the model of `settings` picks for each agent that asks one, a note on
    the others. ProviderError when offline; other failures are the pick's `problem`."""
    if settings.is_offline:
        raise ProviderError(
            "config",
            "No model is configured: choose one in File → Settings or with memtab models",
        )
    agents = tuple(
        _claude(agent, recall.prompt, settings, cancel, make, clock)
        if agent.agent == "claude"
        else agent.replaced(notes=(*agent.notes, NOT_ASKED[agent.agent]))
        for agent in recall.agents
    )
    return recall.replaced(agents=agents)


def _claude(
    agent: AgentRecall,
    prompt: str,
    settings: ProviderSettings,
    cancel: threading.Event | None,
    make: ProviderFactory,
    clock: Callable[[], float],
) -> AgentRecall:
    label = AGENT_LABELS["claude"]
    if agent.sent is None:
        note = f"No model asked: {label} sends no selection request without topic files"
        return agent.replaced(notes=(*agent.notes, note))
    if not any(ch.isspace() for ch in prompt.strip()):
        note = f"No model asked: {label} asks none for a prompt of one word"
        return agent.replaced(notes=(*agent.notes, note))
    return agent.replaced(model_pick=ask_claude(agent, prompt, settings, cancel, make, clock))


def ask_claude(
    agent: AgentRecall,
    prompt: str,
    settings: ProviderSettings,
    cancel: threading.Event | None = None,
    make: ProviderFactory = make_provider,
    clock: Callable[[], float] = time.perf_counter,
) -> ModelPick:
    """Claude Code's selection request for `prompt` sent to the model of `settings`, its answer
    read as Claude Code reads it."""
    assert agent.sent is not None
    names = manifest_names(agent.sent)
    predicted = [f.name for f in agent.files if f.verdict == "recalled"]
    pick = ModelPick(model=settings.model, provider=settings.describe())
    started = clock()
    try:
        provider = make(settings, MAX_TOKENS)  # as every model request carries a limit
        try:
            messages: list[Message] = [UserMessage(agent.sent), UserMessage(query(prompt))]
            reply = provider.complete(SYSTEM_PROMPT, messages, [], cancel=cancel)
        finally:
            close = getattr(provider, "close", None)
            if close is not None:
                close()
    except ProviderError as error:
        return pick.replaced(problem=error.message, agreement=0.0)
    elapsed = round((clock() - started) * 1000)
    reading = read_answer(reply.text, names, cut=reply.stop_reason in CUT_REASONS)
    return pick.replaced(
        model=reply.served_model or settings.model,
        picks=reading.picks,
        not_listed=reading.unknown,
        problem=reading.problem,
        agreement=0.0 if reading.problem else agreement(list(reading.picks), predicted),
        input_tokens=reply.usage.input_tokens,
        output_tokens=reply.usage.output_tokens,
        elapsed_ms=elapsed,
    )


def manifest_names(sent: str) -> frozenset[str]:
    """The file names of a manifest's lines (`- [type] NAME (TIME)…`)."""
    names: set[str] = set()
    for line in sent.split("\n")[1:]:
        entry = line.removeprefix("- ")
        kind, _, rest = entry.partition("] ")
        if kind.startswith("[") and kind[1:] in TOPIC_TYPES:
            entry = rest
        at = entry.find(" (")
        while at >= 0 and not _is_iso_time(entry[at + 2 : at + 3 + ISO_LENGTH]):
            at = entry.find(" (", at + 1)
        if at > 0:
            names.add(entry[:at])
    return frozenset(names)


ISO_LENGTH = len("2026-11-26T06:21:41.895Z")
_ISO_SHAPE = "dddd-dd-ddTdd:dd:dd.dddZ)"


def _is_iso_time(text: str) -> bool:
    """Whether `text` is a time as JavaScript's `toISOString` writes it, then `)`."""
    if len(text) != len(_ISO_SHAPE):
        return False
    return all(c.isdigit() if s == "d" else c == s for c, s in zip(text, _ISO_SHAPE, strict=True))


def agreement(picked: list[str], predicted: list[str]) -> float:
    """The share of the top five two picks have in common (1 when both are empty)."""
    if not picked and not predicted:
        return 1.0
    common = set(picked[:5]) & set(predicted[:5])
    return round(len(common) / max(len(picked[:5]), len(predicted[:5])), 3)


# --- Claude Code's memory selection request, and reading a model's answer as Claude Code reads
# it (§17.8): pure, no model called.

SYSTEM_PROMPT = (
    "You are selecting memories that will be useful to Claude Code as it processes a "
    "user's query. The first message lists the available memory files with their "
    "filenames and descriptions; subsequent messages each contain one user query.\n"
    "\n"
    "Return a list of filenames for the memories that will clearly be useful to Claude "
    "Code as it processes the user's query (up to 5). Only include memories that you are "
    "certain will be helpful based on their name and description.\n"
    "- If you are unsure if a memory will be useful in processing the user's query, then "
    "do not include it in your list. Be selective and discerning.\n"
    "- If there are no memories in the list that would clearly be useful, feel free to "
    "return an empty list.\n"
    "- Be especially conservative with user-profile and project-overview memories "
    "([user], [project]). These describe the user's ongoing focus, not what every "
    'question is about. A profile saying "works on DB performance" is NOT relevant to a '
    'question that merely contains the word "performance" unless the question is '
    "actually about that DB work. Match on what the question IS ABOUT, not on surface "
    "keyword overlap with who the user is.\n"
    "- Do not re-select memories you already returned for an earlier query in this "
    "conversation.\n"
    "\n"
    'Reply with only a JSON object of the form {"selected_memories": ["<filename>", ...]}.\n'
)
"""The system prompt of Claude Code 2.1.332's selection request, byte for byte."""
QUERY_PREFIX = "Select memories relevant to:\n"
MAX_TOKENS = 2560
"""The token limit of Claude Code 2.1.332's selection request (without thinking)."""
ANSWER_SHOWN = 300
"""How much of an answer that is no selection a note quotes."""
NAMED_TYPES = ("user", "feedback", "project", "reference", "account")
"""The `[type] ` a name may carry from its manifest line, which Claude Code takes off."""


def query(prompt: str) -> str:
    """The second message: what the selection is for."""
    return QUERY_PREFIX + prompt


class SelectionAnswer(Record):
    """The answer the selection request asks for (its JSON schema's one property)."""

    selected_memories: ValidItems[tuple[str, ...]]


@dataclass(frozen=True)
class Reading:
    """A model's answer read as Claude Code reads it."""

    picks: tuple[str, ...]
    """The manifest's file names the answer names, in its order, each once."""
    unknown: tuple[str, ...]
    """What else it named (no file of the manifest): Claude Code drops them."""
    problem: str | None
    """Why the answer is no selection, in words (None: it is one)."""


def read_answer(text: str, names: Collection[str], *, cut: bool = False) -> Reading:
    """`text` (a model's answer) as Claude Code reads it against the manifest's `names`; `cut`:
    stopped at the token limit (then none)."""
    if cut:
        return Reading((), (), f"The answer was cut at its {MAX_TOKENS:,}-token limit")
    answer = _answer(text)
    if answer is None:
        shown = " ".join(text.split())
        if len(shown) > ANSWER_SHOWN:
            shown = shown[:ANSWER_SHOWN] + "…"
        return Reading(
            (),
            (),
            'The answer is not a JSON object {"selected_memories": [...]}: '
            + (repr(shown) if shown else "it was empty"),
        )
    picks: list[str] = []
    unknown: list[str] = []
    for item in answer.selected_memories:
        name = item if item in names else _untyped(item)
        if name in names:
            if name not in picks:
                picks.append(name)
        elif item not in unknown:
            unknown.append(item)
    return Reading(tuple(picks), tuple(unknown), None)


def _answer(text: str) -> SelectionAnswer | None:
    """The selection `text` holds: the whole text, a code fence's, or from its first `{` to its
    last `}`."""
    for value in json_values_in(text):
        answer = SelectionAnswer.read(value)
        if answer is not None:
            return answer
    return None


def _untyped(name: str) -> str:
    """`name` without a leading `[type] ` of a manifest line (Claude Code's `^\\[(?:…)\\]\\s+`)."""
    if not name.startswith("["):
        return name
    close = name.find("]")
    rest = name[close + 1 :]
    if name[1:close] in NAMED_TYPES and rest[:1].isspace():
        return rest.lstrip()
    return name
