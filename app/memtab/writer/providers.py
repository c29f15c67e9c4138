"""Which provider a writer run talks to: the offline writer, or a model over HTTP."""

from __future__ import annotations

from memtab.llm.settings import ProviderSettings, create_provider
from memtab.llm.types import ChatProvider
from memtab.writer.offline import OfflineWriterProvider


def create_writer_provider(settings: ProviderSettings) -> ChatProvider:
    """The offline writer for the "offline" provider, else the HTTP provider.

    Raises ProviderError("config") when a model provider cannot be used (no key).
    """
    if settings.is_offline:
        return OfflineWriterProvider()
    return create_provider(settings)


def known_secrets(settings: ProviderSettings) -> tuple[str, ...]:
    """The secrets of these settings that must never reach a dump or a log."""
    return (settings.api_key,) if settings.api_key else ()


def close_provider(provider: ChatProvider) -> None:
    """Release a provider's connections (HTTP providers hold a connection pool)."""
    close = getattr(provider, "close", None)  # duck-typed: httpx loads only with a model
    if callable(close):
        close()
