"""File → Settings' model form without Qt: each provider's fields and key, the note under
the key, what Save and Test connection may do (docs/formats.md §12.3), and the local model
servers' box before, during and after a search."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from memtab.llm.endpoints import base_url_problem, origin_label
from memtab.llm.saved_keys import KeyPlace, place_of
from memtab.llm.settings import (
    DEFAULT_MODELS,
    OVERRIDE_VARIABLES,
    ProviderName,
    ProviderSettings,
    form_settings,
)

if TYPE_CHECKING:  # lazy: the local-server probe loads with the first search for servers
    from memtab.llm.local_servers import LocalServer, ServerKind

TEST_LABEL = "&Test connection"
CANCEL_TEST_LABEL = "Cancel &test"
TEST_CANCELLED = "Test cancelled."
NO_KEY_NOTE = "No key yet: enter a key above."
UNTESTED_NO_KEY = "Not tested: there is no API key yet — enter one above."
NOT_SAVED_KEY_HOST = "Not saved: say where the key you typed may go, or clear it."
STORAGE_NOTE = (
    "A key typed here is stored in the settings file (readable only by you) and never "
    "written to logs, dumps or the journal."
)


@dataclass(frozen=True)
class TypedKey:
    """A key typed in the form, and the origin of the base URL it was typed with."""

    key: str
    origin: str


@dataclass
class FormKeys:
    """Keys typed, saved (by host only) and to forget, by provider."""

    saved_origins: Mapping[str, frozenset[str]] = field(default_factory=dict)
    typed: dict[str, TypedKey] = field(default_factory=dict)
    forget: set[KeyPlace] = field(default_factory=set)

    def type(self, provider: str, origin: str, text: str) -> None:
        """The user typed `text` (blank: cleared it) for `provider` at `origin`."""
        if text.strip():
            self.typed[provider] = TypedKey(text.strip(), origin)
        else:
            self.typed.pop(provider, None)

    def shown(self, provider: str) -> str:
        """What the key field shows for `provider`: its own typed key, or nothing."""
        typed = self.typed.get(provider)
        return typed.key if typed is not None else ""

    def here(self, provider: str, origin: str) -> str:
        """The key typed for `provider` at `origin` ('' if none)."""
        typed = self.typed.get(provider)
        return typed.key if typed is not None and typed.origin == origin else ""

    def elsewhere(self, provider: str, origin: str) -> TypedKey | None:
        """The key typed for `provider` at another origin than `origin`, if any."""
        typed = self.typed.get(provider)
        return typed if typed is not None and typed.origin != origin else None

    def move(self, provider: str, origin: str) -> None:
        """The user said `provider`'s typed key may go to `origin`: it belongs there now."""
        typed = self.typed.get(provider)
        if typed is not None:
            self.typed[provider] = TypedKey(typed.key, origin)

    def is_saved(self, place: KeyPlace | None) -> bool:
        """Whether the file holds a key for `place` that is not to be forgotten."""
        if place is None or place in self.forget:
            return False
        return place[1] in self.saved_origins.get(place[0], frozenset())

    def others(self, provider: str) -> Mapping[KeyPlace, str]:
        """Keys typed for the providers other than `provider`, by where they belong."""
        return {
            (name, typed.origin): typed.key
            for name, typed in self.typed.items()
            if name != provider and typed.origin
        }


@dataclass(frozen=True)
class Switch:
    """The fields for a provider just chosen; `left`: another was shown (a test was of it)."""

    model: str
    base_url: str
    key: str
    left: bool


@dataclass(frozen=True)
class KeyView:
    """The key field's placeholder, the note under it, and whether Forget is shown."""

    placeholder: str
    note: str
    forget_shown: bool


@dataclass(frozen=True)
class KeyQuestion:
    """The question before a key typed for one host goes to another."""

    text: str
    informative: str
    confirm: str


def key_question(typed_for: str, host: str, action: str) -> KeyQuestion:
    """Asked before a key typed for origin `typed_for` goes to origin `host` (`action`:
    "Send" or "Save")."""
    return KeyQuestion(
        f"The API key was typed for {origin_label(typed_for)}. "
        f"{action} it for {origin_label(host)}?",
        f"Whoever runs {origin_label(host)} can read the key. Memtab sends a key only to "
        "the provider and host it was given for, unless you say so here.",
        f"{action} to {origin_label(host)}",
    )


def lacks_key(preview: ProviderSettings) -> bool:
    """No key at all for the form as it is: none typed, saved or in the environment (not
    one held back for another host: the note says why)."""
    return not (preview.api_key or preview.withheld_key_env or preview.saved_key_origins)


def override_note(env: Mapping[str, str]) -> str:
    """Which environment variables override the form ('' when none is set)."""
    overrides = [name for name in OVERRIDE_VARIABLES if env.get(name, "").strip()]
    if not overrides:
        return ""
    return f"Set in the environment, {', '.join(overrides)} override these settings."


def local_server_used(model: str, server_title: str) -> str:
    """What the test line says once a local server filled the form."""
    return (
        f"The form now uses {model} on {server_title} (no key needed): Test connection "
        "tries it, Save keeps it."
    )


class ModelForm:
    """The model form's keys and each provider's fields; every
    question takes the form's provider, model and base URL as shown."""

    def __init__(self, env: Mapping[str, str]) -> None:
        """`env`: the environment whose keys and overrides count."""
        self.env = env
        self.keys = FormKeys()
        self._fields: dict[ProviderName, tuple[str, str]] = {}
        self._shown: ProviderName | None = None

    def load(self, saved_origins: Mapping[str, frozenset[str]]) -> None:
        """The hosts the settings file holds a key for, per provider."""
        self.keys = FormKeys(dict(saved_origins))

    def switch(self, provider: ProviderName, model: str, base_url: str) -> Switch | None:
        """`provider` is chosen with `model` and `base_url` in the fields: what they show now (None:
        it is the one shown). Model, base URL and key are a provider's own: a local server's URL
        must not become Anthropic's, a key typed for Anthropic must not go to it."""
        if provider == self._shown:
            return None
        left = self._shown is not None
        if self._shown is not None:
            self._fields[self._shown] = (model, base_url)
        model, base_url = self._fields.pop(provider, ("", ""))
        self._shown = provider
        return Switch(model, base_url, self.keys.shown(provider), left)

    def origin(self, provider: ProviderName, base_url: str) -> str:
        """The origin requests go to with the form as it is ('' offline or unparsable)."""
        place = self.place(provider, base_url)
        return place[1] if place is not None else ""

    def place(self, provider: ProviderName, base_url: str) -> KeyPlace | None:
        """Where a key typed with the form as it is belongs (None offline: no key goes anywhere)."""
        return place_of(provider, base_url) if provider != "offline" else None

    def typed_here(self, provider: ProviderName, base_url: str) -> str:
        """The key typed for `provider` with this base URL's host ('' if none)."""
        return self.keys.here(provider, self.origin(provider, base_url))

    def kept_key(self, provider: ProviderName, base_url: str) -> bool:
        """Whether the settings file holds a key for `provider` and this host."""
        return self.keys.is_saved(self.place(provider, base_url))

    def preview(self, provider: ProviderName, model: str, base_url: str) -> ProviderSettings:
        """What the form would resolve to, key included, without reading the disk."""
        # The saved key itself is not read back: a stand-in says "there is one", which is
        # all the note needs (it never shows a key).
        return form_settings(
            provider,
            model,
            base_url,
            typed_key=self.typed_here(provider, base_url),
            saved_key="saved key" if self.kept_key(provider, base_url) else None,
            env=self.env,
        )

    def key_view(self, provider: ProviderName, model: str, base_url: str) -> KeyView:
        """What the key field and the note under it say for the form as it is."""
        preview = self.preview(provider, model, base_url)
        kept = self.kept_key(provider, base_url)
        if provider == "offline":
            return KeyView("", preview.key_note(), kept)
        if kept:
            placeholder = "unchanged (a key is saved for this host)"
        elif preview.api_key_env:
            placeholder = f"from ${preview.api_key_env}"
        else:
            placeholder = "not set"
        problem = base_url_problem(preview.base_url)
        note = f"{problem[0].upper()}{problem[1:]}." if problem else preview.key_note()
        if not problem and lacks_key(preview):
            note = NO_KEY_NOTE
        here = self.origin(provider, base_url)
        elsewhere = self.keys.elsewhere(provider, here)
        if elsewhere is not None and not problem:
            note = (
                f"The key above was typed for {origin_label(elsewhere.origin)}: Memtab asks "
                f"before it goes to {origin_label(here) or 'another host'}."
            )
        local = " Local servers such as Ollama need none." if provider == "openai" else ""
        return KeyView(placeholder, f"{note}{local} {STORAGE_NOTE}", kept)

    def not_sent(self, provider: ProviderName, base_url: str) -> str:
        """The test line when the user kept the typed key from this host."""
        return (
            f"Not tested: the key was not sent to {origin_label(self.origin(provider, base_url))}."
        )

    def untested(self, preview: ProviderSettings) -> str | None:
        """Why a test is not sent for `preview` (None: it is)."""
        return UNTESTED_NO_KEY if preview.provider == "anthropic" and lacks_key(preview) else None

    def url_problem(self, provider: ProviderName, base_url: str) -> str | None:
        """Why Save refuses the base URL (None: it may be saved)."""
        url = base_url.strip().rstrip("/")
        problem = base_url_problem(url) if url and provider != "offline" else None
        return f"Not saved: {problem}." if problem else None

    def to_save(self, provider: ProviderName, model: str, base_url: str) -> ProviderSettings:
        """The provider's settings Save writes (the key typed for this host, if any)."""
        return ProviderSettings(
            provider=provider,
            model=model.strip() or DEFAULT_MODELS[provider],
            base_url=base_url.strip().rstrip("/"),
            api_key=self.typed_here(provider, base_url) or None,
        )


FIND_LABEL = "&Find local servers"
FINDING_LABEL = "Looking…"
FIND_TIP = "Ask the usual ports on this machine (never another one) which models they serve"
FOUND = "Use a model: Save keeps it for the writer and Consolidate now."
NO_MODEL = "no model loaded"


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


def kinds_named(kinds: Sequence[ServerKind]) -> str:
    """`Ollama (11434), LM Studio (1234) or vLLM (8000)`."""
    names = [f"{kind.title} ({kind.port})" for kind in kinds]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def before_search(kinds: Sequence[ServerKind]) -> str:
    """The box's line before any search."""
    return f"Running {kinds_named(kinds)} here? Find it, then use one of its models: no key needed."


def searching(kinds: Sequence[ServerKind]) -> str:
    """The box's line while it asks."""
    return f"Asking {kinds_named(kinds)} on this machine…"


def searched(kinds: Sequence[ServerKind], servers: Sequence[LocalServer]) -> str:
    """The box's line once a search found `servers`."""
    if servers:
        return FOUND
    return f"None of {kinds_named(kinds)} answered on this machine. Start one, then look again."


def search_failed(message: str) -> str:
    """The box's line when the search itself failed."""
    return f"Could not look for local servers: {message}"


def server_row(server: LocalServer) -> ServerRow:
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
