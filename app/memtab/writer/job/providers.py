"""Which provider a writer run talks to: the offline writer, or a model over HTTP."""

from __future__ import annotations

from pathlib import Path

from memtab.llm.local_servers import context_tokens
from memtab.llm.settings import ProviderSettings, create_provider, resolve_provider_settings
from memtab.llm.settings_model import WRITER_JOB
from memtab.llm.types import ChatProvider
from memtab.store.home import Home
from memtab.store.sidecars.registry import Workspace
from memtab.transcripts.budget import DEFAULT_MAX_JSON_CHARS, EventBudget
from memtab.transcripts.events import TranscriptFormat
from memtab.transcripts.window import NewestEvents
from memtab.writer.config import OfflineNotes, WriterSettings
from memtab.writer.inbox.suggestions import SuggestionQueue
from memtab.writer.job.offline_provider import OfflineWriterProvider
from memtab.writer.job.run import asks_for_lessons, load_writer_events
from memtab.writer.offline.extract import TranscriptDigest
from memtab.writer.offline.findings import Findings


def default_provider_factory() -> tuple[ChatProvider, tuple[str, ...]]:
    """The provider the user configured (the offline writer by default) and the secrets it
    holds, resolved for each run so a settings change applies to the next run."""
    settings = resolve_provider_settings()
    return create_writer_provider(settings), known_secrets(settings)


def create_writer_provider(settings: ProviderSettings) -> ChatProvider:
    """The offline writer for the "offline" provider, else the HTTP provider. Raises
    ProviderError("config") when a model provider cannot be used (no key)."""
    if settings.is_offline:
        return OfflineWriterProvider()
    return create_provider(settings, job=WRITER_JOB)


CHARS_PER_TOKEN = 3
"""Characters of a transcript's JSON a token holds, at least (JSON tokenizes at ~4)."""
PROMPT_TOKENS = 4096
"""What the instructions, the tools and the memory file take of a request, room kept."""
MIN_WINDOW_CHARS = 4_000


def window_chars(provider: ChatProvider) -> int:
    """How much of a transcript's JSON a run shows `provider`'s model: the default budget,
    or less when a server on this machine says its context is smaller (a llama.cpp
    server started with `-c 16384` refuses a request past it, every run)."""
    base_url = getattr(provider, "base_url", None)
    if isinstance(provider, OfflineWriterProvider) or not isinstance(base_url, str):
        return DEFAULT_MAX_JSON_CHARS
    context = context_tokens(base_url, provider.model)
    if context is None:
        return DEFAULT_MAX_JSON_CHARS
    reply = getattr(provider, "max_tokens", WRITER_JOB.max_tokens)
    room = (context - reply - PROMPT_TOKENS) * CHARS_PER_TOKEN
    return max(MIN_WINDOW_CHARS, min(DEFAULT_MAX_JSON_CHARS, room))


def read_for_run(
    provider: ChatProvider,
    path: Path,
    transcript_format: TranscriptFormat | None = None,
    max_json_chars: int | None = None,
) -> tuple[NewestEvents, Findings | None]:
    """Read a transcript once for a run, in bounded memory: the newest events that fit the budget
    (what a model is shown, docs/formats.md §9; `window_chars` unless given) and the offline
    writer's digest of the whole transcript made in the same pass, for the offline writer and a
    model given the lessons task (its run proposes those notes, and writes them when the model's
    answer is not usable); None for another model."""
    if max_json_chars is None:
        max_json_chars = window_chars(provider)
    if not isinstance(provider, OfflineWriterProvider) and not asks_for_lessons(provider):
        return load_writer_events(path, transcript_format, max_json_chars), None
    digest = TranscriptDigest()
    events = load_writer_events(path, transcript_format, max_json_chars, observe=digest.add)
    return events, digest.findings()


def bind_to_run(
    provider: ChatProvider,
    home: Home,
    workspace: Workspace,
    budget: EventBudget,
    settings: WriterSettings,
    whole: Findings | None = None,
) -> ChatProvider:
    """The provider for one run over the events of `budget` (the run's window, with the run's
    `max_json_chars`)."""
    if not isinstance(provider, OfflineWriterProvider):
        return provider
    suggest = settings.offline_notes is OfflineNotes.SUGGEST
    queue = SuggestionQueue(home, workspace.id) if suggest else None
    return provider.for_run(budget, queue=queue, memory_path=settings.memory_path, whole=whole)


def known_secrets(settings: ProviderSettings) -> tuple[str, ...]:
    """The secrets of these settings that must never reach a dump or a log."""
    return (settings.api_key,) if settings.api_key else ()
