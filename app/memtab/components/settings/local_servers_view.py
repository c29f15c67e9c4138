"""Settings → Model → Local model servers without Qt: what the box says before, during
and after a search, and each server's row (`gui/settings/local_servers.py` shows them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

FIND_LABEL = "&Find local servers"
FINDING_LABEL = "Looking…"
FIND_TIP = "Ask the usual ports on this machine (never another one) which models they serve"
FOUND = "Use a model: Save keeps it for the writer and Consolidate now."
NO_MODEL = "no model loaded"


class KindView(Protocol):
    """What the box reads of a kind of local server (`ServerKind`)."""

    @property
    def title(self) -> str: ...

    @property
    def port(self) -> int: ...


class ServerView(KindView, Protocol):
    """What the box reads of a server that answered (`LocalServer`)."""

    @property
    def base_url(self) -> str: ...

    @property
    def models(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class ServerRow:
    """A server's row: its name and tooltip, its models' choice, its Use button."""

    name: str
    name_tip: str
    models_name: str
    models: tuple[str, ...]
    use_name: str
    use_tip: str
    usable: bool


def kinds_named(kinds: Sequence[KindView]) -> str:
    """`Ollama (11434), LM Studio (1234) or vLLM (8000)`."""
    names = [f"{kind.title} ({kind.port})" for kind in kinds]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def before_search(kinds: Sequence[KindView]) -> str:
    """The box's line before any search."""
    return f"Running {kinds_named(kinds)} here? Find it, then use one of its models: no key needed."


def searching(kinds: Sequence[KindView]) -> str:
    """The box's line while it asks."""
    return f"Asking {kinds_named(kinds)} on this machine…"


def searched(kinds: Sequence[KindView], servers: Sequence[ServerView]) -> str:
    """The box's line once a search found `servers`."""
    if servers:
        return FOUND
    return f"None of {kinds_named(kinds)} answered on this machine. Start one, then look again."


def search_failed(message: str) -> str:
    """The box's line when the search itself failed."""
    return f"Could not look for local servers: {message}"


def server_row(server: ServerView) -> ServerRow:
    """What `server`'s row says; a server with no model loaded cannot be used."""
    return ServerRow(
        name=f"{server.title} · port {server.port}",
        name_tip=server.base_url,
        models_name=f"{server.title} models",
        models=server.models or (NO_MODEL,),
        use_name=f"Use {server.title}",
        use_tip=f"Use this model at {server.base_url} (OpenAI-compatible, no key)",
        usable=bool(server.models),
    )
