"""Which model Memtab talks to: resolve, save and instantiate provider settings (docs/formats.md
§12.3)."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_args

from memtab.fs.config.settings_file import (
    SettingsFileError,
    load_settings_file,
    settings_path,
    update_settings_file,
)
from memtab.llm.endpoints import (
    DEFAULT_ANTHROPIC_BASE_URL,
    DEFAULT_BASE_URLS,
    DEFAULT_OPENAI_BASE_URL,
    OFFICIAL_HOSTS,
    base_url_problem,
    display_url,
    is_official_endpoint,
    key_origin,
    origin_label,
    url_host,
)
from memtab.llm.saved_keys import KeyPlace, SavedKeys, configured, place_of, store_keys
from memtab.llm.settings_model import (
    REQUEST_TIMEOUT_HINT,
    REQUEST_TIMEOUT_KEY,
    ModelJob,
    default_request_timeout,
    is_local,
    provider_section,
    read_provider_section,
)
from memtab.llm.types import ChatProvider, ProviderError

if TYPE_CHECKING:  # lazy: httpx2 (~6 MiB, ~40 ms) with the first model call
    from memtab.llm.http import HttpOptions

logger = logging.getLogger(__name__)

ProviderName = Literal["anthropic", "openai", "offline"]
PROVIDER_NAMES: tuple[ProviderName, ...] = get_args(ProviderName)

OFFLINE_MODEL = "offline"
DEFAULT_MODELS: dict[ProviderName, str] = {
    "anthropic": "claude-sonnet-4-5",
    "openai": "gpt-4o-mini",
    "offline": OFFLINE_MODEL,
}
KEY_ENV_VARS: dict[ProviderName, str] = {
    "anthropic": "ANTHROPIC_API_KEY",
    "openai": "OPENAI_API_KEY",
}
MEMTAB_KEY_VAR = "MEMTAB_API_KEY"
# The provider, model, base URL and key as the environment overrides them, in that order.
OVERRIDE_VARIABLES = ("MEMTAB_PROVIDER", "MEMTAB_MODEL", "MEMTAB_BASE_URL", MEMTAB_KEY_VAR)
_PROVIDER_TITLES: dict[ProviderName, str] = {"anthropic": "Anthropic", "openai": "OpenAI"}


@dataclass(frozen=True)
class ProviderSettings:
    """The model Memtab uses. The key never shows in repr/str; `describe()` is safe to show.
    `api_key_env` names the environment variable the key came from (None when it came from the
    settings file or the caller); such a key is not saved to the settings file."""

    provider: ProviderName
    model: str
    base_url: str
    api_key: str | None = field(default=None, repr=False)
    api_key_env: str | None = None
    withheld_key_env: str | None = None
    saved_key_origins: tuple[str, ...] = ()
    request_timeout_s: float | None = None
    max_tokens: int | None = None

    def request_limit(self) -> float:
        """How long one request may take, in seconds (`settings_model.default_request_timeout`)."""
        if self.request_timeout_s is not None:
            return self.request_timeout_s
        return default_request_timeout(self.base_url)

    def request_limit_origin(self) -> str:
        """Where `request_limit()` comes from, in words."""
        if self.request_timeout_s is not None:
            return f"{REQUEST_TIMEOUT_KEY} in settings.json"
        if is_local(self.base_url):
            return "the default for a server on this machine"
        return "the default for a remote server"

    def reply_limit(self, job: ModelJob) -> int:
        """The `max_tokens` of `job`'s requests: settings.json's, else the job's own."""
        return self.max_tokens if self.max_tokens is not None else job.max_tokens

    def describe(self) -> str:
        """A one-line label, e.g. `anthropic · claude-sonnet-4-5 · https://api.anthropic.com
        · key from $ANTHROPIC_API_KEY`."""
        if self.provider == "offline":
            return "offline · built-in rules, no model"
        return (
            f"{self.provider} · {self.model} · {display_url(self.base_url)} · {self._key_label()}"
        )

    def _key_label(self) -> str:
        if self.api_key:
            return f"key from ${self.api_key_env}" if self.api_key_env else "key from settings"
        if self.withheld_key_env:
            return f"no key (${self.withheld_key_env} is kept for the official API)"
        if self.saved_key_origins:
            return f"no key (the saved one is for {self._saved_hosts()})"
        return "no key"

    def _saved_hosts(self) -> str:
        return " and ".join(origin_label(origin) for origin in self.saved_key_origins)

    def key_note(self) -> str:
        """Which key requests carry and why, in one sentence (never the key itself)."""
        if self.provider == "offline":
            return "No model is called, so no key is used and nothing leaves this machine."
        official = OFFICIAL_HOSTS[self.provider]
        title = _PROVIDER_TITLES[self.provider]
        if self.api_key and self.api_key_env in KEY_ENV_VARS.values():
            return (
                f"Uses ${self.api_key_env}: the base URL is the official {title} API ({official})."
            )
        if self.api_key and self.api_key_env:
            return f"Uses ${self.api_key_env}, the key you gave Memtab for this provider."
        if self.api_key:
            return "Uses the key saved in the settings file for this provider and host."
        if self.withheld_key_env:
            return f"No key is sent: {self.withheld_key_reason()}"
        if self.saved_key_origins:
            return f"No key is sent: {self.saved_key_reason()}"
        return "No key is sent."

    def saved_key_reason(self) -> str:
        """Why a key saved for this provider is not sent to this base URL."""
        here = origin_label(key_origin(self.base_url)) or self.base_url
        return (
            f"the key saved for {_PROVIDER_TITLES.get(self.provider, self.provider)} is for "
            f"{self._saved_hosts()}, not {here}. Save one for this base URL in File → "
            f"Settings, or set ${MEMTAB_KEY_VAR}."
        )

    def withheld_key_reason(self) -> str:
        """Why the provider variable in `withheld_key_env` is not sent, and what to do."""
        return (
            f"${self.withheld_key_env} goes only to {OFFICIAL_HOSTS[self.provider]}, not to "
            f"{url_host(self.base_url) or self.base_url}. To use a key there, set "
            f"${MEMTAB_KEY_VAR} or save one in File → Settings."
        )

    @property
    def is_offline(self) -> bool:
        """True when no model server is involved."""
        return self.provider == "offline"


@dataclass(frozen=True)
class _Layer:
    """One source of settings (command line, environment, settings file)."""

    source: str
    provider: str | None
    model: str | None
    base_url: str | None
    api_key: str | None = None
    key_variable: str | None = None  # the environment variable `api_key` was read from

    def applies_to(self, chosen: ProviderName) -> bool:
        """Its values count when it names no provider or the chosen one."""
        return self.provider is None or self.provider.strip().lower() == chosen


def _provider_name(value: str, source: str) -> ProviderName:
    name = value.strip().lower()
    for known in PROVIDER_NAMES:
        if name == known:
            return known
    raise ProviderError(
        "config",
        f"unknown provider {value!r} (from {source}); choose one of {', '.join(PROVIDER_NAMES)}",
    )


DEFAULT_ORIGIN = "the default"


@dataclass(frozen=True)
class ResolvedProvider:
    """Resolved settings and where each of provider, model and base URL came from (the
    source of a layer, e.g. "environment variables MEMTAB_*", or DEFAULT_ORIGIN). Where
    the key came from, and why, is `settings.key_note()`."""

    settings: ProviderSettings
    origins: Mapping[str, str]


def resolve_provider_settings(
    provider: str | None = None,
    model: str | None = None,
    base_url: str | None = None,
    *,
    env: Mapping[str, str] | None = None,
) -> ProviderSettings:
    """The settings to use: command line > environment > settings file > defaults.

    Raises SettingsFileError for an unusable settings file (the message names the file and
    the key), ProviderError("config") for an unknown provider or a base URL requests may not
    go to (plain http off this machine; the message names where it was set).
    """
    return explain_provider_settings(provider, model, base_url, env=env).settings


def explain_provider_settings(
    provider: str | None = None,
    model: str | None = None,
    base_url: str | None = None,
    *,
    env: Mapping[str, str] | None = None,
) -> ResolvedProvider:
    """`resolve_provider_settings`, saying where each value came from."""
    env = os.environ if env is None else env
    path = settings_path(env)
    stored = read_provider_section(load_settings_file(path), path)
    layers = (
        _Layer(
            "command-line options", configured(provider), configured(model), configured(base_url)
        ),
        _environment(env),
        # The file's keys are looked up by provider and host once both are known.
        _Layer(
            f"settings file {path}",
            configured(stored.provider),
            configured(stored.model),
            configured(stored.base_url),
        ),
    )
    resolved = _resolve(layers, SavedKeys.of(stored), env)
    limited = replace(
        resolved.settings, request_timeout_s=stored.request_timeout_s, max_tokens=stored.max_tokens
    )
    return ResolvedProvider(limited, resolved.origins)


def _environment(env: Mapping[str, str]) -> _Layer:
    provider, model, base_url, key = (configured(env.get(name)) for name in OVERRIDE_VARIABLES)
    return _Layer("environment variables MEMTAB_*", provider, model, base_url, key, MEMTAB_KEY_VAR)


def _resolve(
    layers: Sequence[_Layer], saved: SavedKeys, env: Mapping[str, str], *, refuse_url: bool = True
) -> ResolvedProvider:
    """What `layers` stand for, the first to set a value winning (a layer that names
    another provider than the chosen one counts for nothing): the provider the first one
    names (offline when none does), its model and base URL (else the defaults), and the
    key the first gives, else the one `saved` for this provider and host, else the
    provider's own variable for its official API only (`with_key`). ProviderError("config")
    for an unknown provider, a model or base URL without one, and — unless not
    `refuse_url` (a form shows why instead) — a base URL requests may not go to."""
    chosen: ProviderName = "offline"
    provider_origin = DEFAULT_ORIGIN
    for layer in layers:
        if layer.provider is not None:
            chosen = _provider_name(layer.provider, layer.source)
            provider_origin = layer.source
            break
    # A value tied to another provider stays with it.
    usable = [layer for layer in layers if layer.applies_to(chosen)]
    if chosen == "offline":
        # Offline by default (no provider named anywhere) while a model is set is a mistake.
        named = any(layer.provider for layer in layers)
        for layer in usable:
            if not named and (layer.model or layer.base_url):
                raise ProviderError(
                    "config",
                    f"{layer.source} set a model or base URL but no provider is configured; "
                    f"choose one of {', '.join(PROVIDER_NAMES)}",
                )
        offline = ProviderSettings("offline", OFFLINE_MODEL, "")
        return ResolvedProvider(offline, {"provider": provider_origin})
    model_layer = next((layer for layer in usable if layer.model), None)
    url_layer = next((layer for layer in usable if layer.base_url), None)
    url = url_layer.base_url if url_layer and url_layer.base_url else DEFAULT_BASE_URLS[chosen]
    url = url.rstrip("/")
    problem = base_url_problem(url) if refuse_url else None
    if problem is not None:
        source = url_layer.source if url_layer else DEFAULT_ORIGIN
        raise ProviderError("config", f"{problem} (from {source})")
    key_layer = next((layer for layer in usable if layer.api_key), None)
    settings = ProviderSettings(
        provider=chosen,
        model=model_layer.model if model_layer and model_layer.model else DEFAULT_MODELS[chosen],
        base_url=url,
    )
    origins = {
        "provider": provider_origin,
        "model": model_layer.source if model_layer else DEFAULT_ORIGIN,
        "base_url": url_layer.source if url_layer else DEFAULT_ORIGIN,
    }
    if key_layer is not None:
        keyed = with_key(settings, env, key_layer.api_key, key_layer.key_variable)
        return ResolvedProvider(keyed, origins)
    keyed = with_key(settings, env, saved.key_for(chosen, url))
    if keyed.api_key is None:
        keyed = replace(keyed, saved_key_origins=tuple(sorted(saved.origins(chosen))))
    return ResolvedProvider(keyed, origins)


def with_key(
    settings: ProviderSettings,
    env: Mapping[str, str],
    explicit_key: str | None = None,
    explicit_key_env: str | None = None,
) -> ProviderSettings:
    """`settings` with the key its requests will carry (docs/formats.md §12.3). `explicit_key` is
    one the user gave Memtab (`explicit_key_env` names its variable, None for the settings file): it
    goes to whatever base URL is configured."""
    if settings.provider == "offline":
        return replace(settings, api_key=None, api_key_env=None, withheld_key_env=None)
    if explicit_key:
        return replace(
            settings, api_key=explicit_key, api_key_env=explicit_key_env, withheld_key_env=None
        )
    variable = KEY_ENV_VARS[settings.provider]
    env_key = configured(env.get(variable))
    if env_key is None:
        return replace(settings, api_key=None, api_key_env=None, withheld_key_env=None)
    if is_official_endpoint(settings.provider, settings.base_url):
        return replace(settings, api_key=env_key, api_key_env=variable, withheld_key_env=None)
    logger.info(
        "not sending $%s to %s: it is only sent to %s",
        variable,
        url_host(settings.base_url),
        OFFICIAL_HOSTS[settings.provider],
    )
    return replace(settings, api_key=None, api_key_env=None, withheld_key_env=variable)


def form_settings(
    provider: ProviderName,
    model: str,
    base_url: str,
    *,
    typed_key: str = "",
    saved_key: str | None = None,
    env: Mapping[str, str],
) -> ProviderSettings:
    """What a settings form (the Settings dialog) stands for, key included, resolved as settings
    are: the form's own provider, model and base URL (blank: the provider's defaults; not the
    environment's, which the dialog names as overriding the file), and the key in the resolver's
    order — `$MEMTAB_API_KEY` (unless `$MEMTAB_PROVIDER` names another provider), the key typed in
    the form, `saved_key` (the one saved for this provider and host), then the provider's own
    variable (official API only)."""
    url = base_url.strip().rstrip("/")
    layers = (
        _Layer("the form", provider, configured(model), configured(url)),
        replace(_environment(env), model=None, base_url=None),
        _Layer("the form", None, None, None, configured(typed_key)),
    )
    here = place_of(provider, url)
    saved = SavedKeys({here: saved_key} if here is not None and saved_key else {})
    return _resolve(layers, saved, env, refuse_url=False).settings


def saved_keys(env: Mapping[str, str] | None = None) -> SavedKeys:
    """The keys the settings file holds, by provider and host (none when it cannot be
    read: a settings form says why elsewhere)."""
    path = settings_path(env)
    try:
        return SavedKeys.of(read_provider_section(load_settings_file(path), path))
    except SettingsFileError:
        return SavedKeys()


def unused_key_problems(env: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Each key the settings file holds that Memtab cannot place, in one sentence (none
    when the file cannot be parsed: that is reported elsewhere). Read leniently: a value
    of the wrong type elsewhere does not hide them."""
    path = settings_path(env)
    try:
        document = load_settings_file(path)
    except SettingsFileError:
        return ()
    return SavedKeys.of(provider_section(document)).problems(str(path))


def saved_key(provider: str, base_url: str, env: Mapping[str, str] | None = None) -> str | None:
    """The key the settings file holds for `provider` at `base_url`'s host (blank: the
    provider's default), or None."""
    return saved_keys(env).key_for(provider, base_url)


def save_provider_settings(
    settings: ProviderSettings,
    *,
    env: Mapping[str, str] | None = None,
    other_keys: Mapping[KeyPlace, str] | None = None,
    forget: frozenset[KeyPlace] = frozenset(),
) -> Path:
    """Write the settings to `settings.json` atomically (mode 0600), keeping unknown keys."""
    if settings.base_url and not settings.is_offline:
        problem = base_url_problem(settings.base_url)
        if problem is not None:
            raise ProviderError("config", problem)

    new_keys = dict(other_keys or {})
    here = place_of(settings.provider, settings.base_url)
    if here is not None and settings.api_key and settings.api_key_env is None:
        new_keys[here] = settings.api_key

    def update(data: dict[str, Any]) -> None:
        saved = SavedKeys.of(provider_section(data)).without(forget)  # read before it changes
        data["provider"] = settings.provider
        data["model"] = settings.model
        if settings.base_url:
            data["base_url"] = settings.base_url
        else:
            data.pop("base_url", None)
        store_keys(data, saved, settings.provider, settings.base_url, new_keys)

    path = update_settings_file(update, env)
    logger.info("saved provider settings to %s (%s)", path, settings.describe())
    return path


DEFAULT_JOB = ModelJob("a model call", 4096)
DETERMINISTIC = 0.0
"""Every job's temperature: the same session gives the same notes, the same store the same
plan (llama.cpp's server samples at 0.8 when asked none: a note one run, none the next)."""


def create_provider(
    settings: ProviderSettings,
    *,
    options: HttpOptions | None = None,
    max_tokens: int | None = None,
    job: ModelJob = DEFAULT_JOB,
    temperature: float | None = DETERMINISTIC,
) -> ChatProvider:
    """The HTTP provider for `settings`, for `job`. ProviderError("config") for offline or a missing
    key. Every request carries a reply limit: `max_tokens` when given, else the settings' or the
    job's (`reply_limit`). `options` default to the settings' request limit (`request_limit`);
    every request asks for `temperature` (None: the server's own; a server that refuses it is
    asked without)."""
    # lazy: httpx2 (~6 MiB, ~40 ms) with the first model call, never in an offline run
    # or the window's start (settings are read there)
    from memtab.llm import anthropic, http, openai

    if options is None:
        options = http.HttpOptions(
            timeout_s=settings.request_limit(), timeout_hint=REQUEST_TIMEOUT_HINT
        )
    limit = max_tokens if max_tokens is not None else settings.reply_limit(job)

    if settings.provider == "anthropic":
        if not settings.api_key:
            # The variable to suggest is the one that would be sent to this base URL.
            variable = (
                KEY_ENV_VARS["anthropic"]
                if is_official_endpoint(
                    "anthropic", settings.base_url or DEFAULT_ANTHROPIC_BASE_URL
                )
                else MEMTAB_KEY_VAR
            )
            if settings.withheld_key_env:
                how = f": {settings.withheld_key_reason()}"
            elif settings.saved_key_origins:
                how = f": {settings.saved_key_reason()}"
            else:
                how = f"; set {variable} or add api_key to the settings file"
            raise ProviderError("config", f"anthropic {settings.model}: no API key{how}")
        return anthropic.AnthropicProvider(
            settings.model,
            settings.api_key,
            settings.base_url or DEFAULT_ANTHROPIC_BASE_URL,
            limit,
            options=options,
            temperature=temperature,
        )
    if settings.provider == "openai":
        base_url = settings.base_url or DEFAULT_OPENAI_BASE_URL
        return openai.OpenAIProvider(
            settings.model,
            settings.api_key,
            base_url,
            limit,
            options=options,
            structured=job.structured if is_local(base_url) else None,
            temperature=temperature,
            fresh_prompt=job.fresh_prompt and is_local(base_url),
        )
    raise ProviderError(
        "config", "the offline provider has no model server; use the built-in offline engine"
    )
