"""Which provider a writer run talks to: the offline writer, or a model over HTTP."""

from __future__ import annotations

from memtab.llm.settings import ProviderSettings, create_provider
from memtab.llm.types import ChatProvider
from memtab.store.home import Home
from memtab.store.registry import Workspace
from memtab.transcripts import EventBudget
from memtab.writer.config import OfflineNotes, WriterSettings
from memtab.writer.offline import OfflineWriterProvider
from memtab.writer.suggestions import SuggestionQueue


def create_writer_provider(settings: ProviderSettings) -> ChatProvider:
    """The offline writer for the "offline" provider, else the HTTP provider.

    Raises ProviderError("config") when a model provider cannot be used (no key).
    """
    if settings.is_offline:
        return OfflineWriterProvider()
    return create_provider(settings)


def bind_to_run(
    provider: ChatProvider,
    home: Home,
    workspace: Workspace,
    budget: EventBudget,
    settings: WriterSettings,
) -> ChatProvider:
    """The provider for one run over the events of `budget` (the run's window, with the
    run's `max_json_chars`). A model gets everything from the run's messages and is
    returned as it is; the offline writer is given the events as data and, unless
    `offline_notes` is "write", the workspace's review queue for its notes."""
    if not isinstance(provider, OfflineWriterProvider):
        return provider
    queue = None
    if settings.offline_notes is OfflineNotes.SUGGEST:
        queue = SuggestionQueue(home, workspace.id)
    return provider.for_run(budget, queue=queue, memory_path=settings.memory_path)


def known_secrets(settings: ProviderSettings) -> tuple[str, ...]:
    """The secrets of these settings that must never reach a dump or a log."""
    return (settings.api_key,) if settings.api_key else ()


def close_provider(provider: ChatProvider) -> None:
    """Release a provider's connections (HTTP providers hold a connection pool)."""
    close = getattr(provider, "close", None)  # duck-typed: httpx loads only with a model
    if callable(close):
        close()
