"""`memtab recall --json`'s records (docs/formats.md §17.8): stable, write-only, fields only
added."""

from __future__ import annotations

from typing import Annotated, Literal

from memtab.fs.records import OmitNone, Record
from memtab.loads.records import AgentLoads, AgentName, LoadedFile

Verdict = Literal["loaded", "recalled", "missed"]


class RecallFile(Record, write_only=True):
    """One memory file as an agent would take it for the prompt: `loaded`, `recalled` (`rank` 1
    first) or `missed` (`reason` says why)."""

    path: Annotated[str | None, OmitNone] = None
    """A xum file's virtual path, or the file's path on disk when no source holds it."""
    id: Annotated[str | None, OmitNone] = None
    """Another agent's file id (`claude-code:project-acme:deploy.md`), when a source holds it."""
    physical_path: Annotated[str | None, OmitNone] = None
    name: str = ""
    """How the agent lists it."""
    kind: str = ""
    """What it is to the agent (`index`, `topic`, `summary`, `note`…, and the loads' kinds)."""
    verdict: Verdict = "recalled"
    rank: Annotated[int | None, OmitNone] = None
    score: float = 0.0
    """Memtab's estimate of how well the file's listed words answer the prompt."""
    matched: tuple[str, ...] = ()
    """The prompt's words found where the agent looks (its name, description, lines)."""
    reason: str = ""
    """Why it is taken or missed, in words."""
    first_line: Annotated[int | None, OmitNone] = None
    """The first line (1-based) the agent would read, when it reads only some lines."""
    last_line: Annotated[int | None, OmitNone] = None
    """The last line it would read (inclusive), with `firstLine`."""
    cut_reason: Annotated[str | None, OmitNone] = None
    """Why the agent stops reading before its end."""


class ModelPick(Record, write_only=True):
    """What the user's configured model picked, asked as the agent asks its own."""

    model: str
    """The model that answered (as the server names it, else as it was asked for)."""
    provider: str = ""
    """Which provider and where, in a line (`anthropic · claude-sonnet-4-5 · …`; no key)."""
    picks: tuple[str, ...] = ()
    """The files it picked, in its order, as the agent keeps them (its manifest's names)."""
    not_listed: tuple[str, ...] = ()
    """What else it named (no file the agent listed): the agent drops them."""
    problem: Annotated[str | None, OmitNone] = None
    """Why there is no pick, in words: the call failed, or its answer is no selection."""
    agreement: float = 0.0
    """The share of the top five this pick and the word prediction share (1 when both none)."""
    input_tokens: int = 0
    output_tokens: int = 0
    elapsed_ms: Annotated[int | None, OmitNone] = None


class AgentRecall(Record, write_only=True):
    """What one agent would load and recall for the prompt, in its own way."""

    agent: AgentName
    how: str = ""
    """How this agent picks what it recalls, in a sentence."""
    files: tuple[RecallFile, ...] = ()
    """`loaded` first, then `recalled` by rank, then `missed`."""
    sent: Annotated[str | None, OmitNone] = None
    """What the agent sends its model to choose with, when it does."""
    notes: tuple[str, ...] = ()
    model_pick: Annotated[ModelPick | None, OmitNone] = None
    """What the user's model picked when asked as the agent asks its own (`--model`)."""


class Unrecallable(Record, write_only=True):
    """A memory its agent cannot recall whatever the prompt."""

    agent: AgentName
    path: Annotated[str | None, OmitNone] = None
    id: Annotated[str | None, OmitNone] = None
    physical_path: Annotated[str | None, OmitNone] = None
    reason: str = ""
    verdict: Annotated[Verdict | None, OmitNone] = None
    """`recalled` or `missed` when the agent's `files` list it for this prompt too (shown there
    alone); absent otherwise."""


class Recall(Record, write_only=True):
    """`memtab recall PROMPT --json`."""

    prompt: str
    agents: tuple[AgentRecall, ...] = ()
    unrecallable: tuple[Unrecallable, ...] = ()
    workspace: Annotated[str | None, OmitNone] = None
    directory: Annotated[str | None, OmitNone] = None

    def never_shown(self) -> tuple[Unrecallable, ...]:
        """The unrecallable memories this prompt does not bring up (those it does are shown
        under their agent)."""
        return tuple(item for item in self.unrecallable if item.verdict is None)


# --- The files `memtab loads` finds an agent reads at a session's start, as `loaded` rows.


def loaded_files(loads: AgentLoads) -> list[RecallFile]:
    """The files `loads` reads at the start, each `loaded` (with where it stops)."""
    return [_loaded(file) for file in loads.files if file.when == "start"]


def _loaded(file: LoadedFile) -> RecallFile:
    cut = file.cut_at_line is not None
    reason = "Read at the start of every session, whatever the prompt"
    if cut:
        reason += f" — up to line {file.loaded_lines}"
    return RecallFile(
        path=file.path,
        id=file.id,
        physical_path=file.physical_path,
        name=file.id or file.path or "",
        kind=file.kind,
        verdict="loaded",
        reason=reason,
        first_line=1 if cut else None,
        last_line=file.loaded_lines if cut else None,
        cut_reason=file.cut_reason,
    )
