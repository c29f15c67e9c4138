"""Which model Memtab talks to: resolve, save and instantiate provider settings.

Each of provider, model and base URL comes from, in order: the command line, the
environment (`MEMTAB_PROVIDER`, `MEMTAB_MODEL`, `MEMTAB_BASE_URL`), the settings file
(`settings.json` in `$MEMTAB_CONFIG_DIR`, else the platform config dir), then defaults.
A model or base URL configured for another provider does not follow a provider switch
(`--provider openai` does not send the file's Claude model to OpenAI).

With no provider configured anywhere the provider is "offline": consolidation works out of
the box and a key lying in the environment never switches Memtab to a paid API by itself.
A model or base URL set while no provider is named anywhere is a config error, not a
silent offline run.

Keys: `api_key` in the settings file (when the file names the same provider) — a key put
there was meant for Memtab — else `ANTHROPIC_API_KEY` / `OPENAI_API_KEY`. A key read from
the environment is never written to the settings file.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_args

import platformdirs

from memtab.llm.endpoints import DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_OPENAI_BASE_URL
from memtab.llm.types import ChatProvider, ProviderError

if TYPE_CHECKING:
    from memtab.llm.http import HttpOptions

logger = logging.getLogger(__name__)

ProviderName = Literal["anthropic", "openai", "offline"]
PROVIDER_NAMES: tuple[ProviderName, ...] = get_args(ProviderName)

SETTINGS_FILE_NAME = "settings.json"
OFFLINE_MODEL = "offline"
DEFAULT_MODELS: dict[ProviderName, str] = {
    "anthropic": "claude-sonnet-4-5",
    "openai": "gpt-4o-mini",
    "offline": OFFLINE_MODEL,
}
DEFAULT_BASE_URLS: dict[ProviderName, str] = {
    "anthropic": DEFAULT_ANTHROPIC_BASE_URL,
    "openai": DEFAULT_OPENAI_BASE_URL,
    "offline": "",
}
KEY_ENV_VARS: dict[ProviderName, str] = {
    "anthropic": "ANTHROPIC_API_KEY",
    "openai": "OPENAI_API_KEY",
}
_FILE_KEYS = ("provider", "model", "base_url", "api_key")


@dataclass(frozen=True)
class ProviderSettings:
    """The model Memtab uses. The key never shows in repr/str; `describe()` is safe to show.

    `api_key_env` names the environment variable the key came from (None when it came from
    the settings file or the caller); such a key is not saved to the settings file.
    """

    provider: ProviderName
    model: str
    base_url: str
    api_key: str | None = field(default=None, repr=False)
    api_key_env: str | None = None

    def describe(self) -> str:
        """A one-line label, e.g. `anthropic · claude-sonnet-4-5 · https://api.anthropic.com`."""
        if self.provider == "offline":
            return "offline · built-in rules, no model"
        from memtab.llm.http import display_url  # httpx loads only when asked

        return f"{self.provider} · {self.model} · {display_url(self.base_url)}"

    @property
    def is_offline(self) -> bool:
        """True when no model server is involved."""
        return self.provider == "offline"


def config_dir(env: Mapping[str, str] | None = None) -> Path:
    """Memtab's config dir: `$MEMTAB_CONFIG_DIR`, else the platform's user config dir."""
    env = os.environ if env is None else env
    configured = env.get("MEMTAB_CONFIG_DIR", "").strip()
    return Path(configured) if configured else Path(platformdirs.user_config_dir("memtab"))


def settings_path(env: Mapping[str, str] | None = None) -> Path:
    """Where provider settings are stored."""
    return config_dir(env) / SETTINGS_FILE_NAME


def load_settings_file(path: Path) -> dict[str, Any]:
    """The settings file as a dict ({} when absent). ProviderError("config") when unusable."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise ProviderError("config", f"cannot read the settings file {path}: {exc}") from None
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProviderError(
            "config",
            f"the settings file {path} is not valid JSON (line {exc.lineno}, column {exc.colno}: "
            f"{exc.msg}); fix or delete it",
        ) from None
    if not isinstance(data, dict):
        raise ProviderError(
            "config", f"the settings file {path} must hold a JSON object, not {type(data).__name__}"
        )
    for key in _FILE_KEYS:
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise ProviderError(
                "config", f"the settings file {path}: '{key}' must be a string, not {value!r}"
            )
    return data


def _clean(value: object) -> str | None:
    """A configured string value, or None when unset or blank."""
    if not isinstance(value, str):
        return None
    stripped = value.strip()
    return stripped or None


@dataclass(frozen=True)
class _Layer:
    """One source of settings (command line, environment, settings file)."""

    source: str
    provider: str | None
    model: str | None
    base_url: str | None
    api_key: str | None = None

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


def resolve_provider_settings(
    provider: str | None = None,
    model: str | None = None,
    base_url: str | None = None,
    *,
    env: Mapping[str, str] | None = None,
) -> ProviderSettings:
    """The settings to use: command line > environment > settings file > defaults.

    Raises ProviderError("config") for an unknown provider or an unusable settings file
    (the message names the file).
    """
    env = os.environ if env is None else env
    path = settings_path(env)
    stored = load_settings_file(path)

    # Each layer: where it came from, the provider it names, its model and base URL.
    layers = [
        _Layer("command-line options", _clean(provider), _clean(model), _clean(base_url)),
        _Layer(
            "environment variables MEMTAB_*",
            _clean(env.get("MEMTAB_PROVIDER")),
            _clean(env.get("MEMTAB_MODEL")),
            _clean(env.get("MEMTAB_BASE_URL")),
        ),
        _Layer(
            f"settings file {path}",
            _clean(stored.get("provider")),
            _clean(stored.get("model")),
            _clean(stored.get("base_url")),
            _clean(stored.get("api_key")),
        ),
    ]
    chosen: ProviderName = "offline"
    for layer in layers:
        if layer.provider is not None:
            chosen = _provider_name(layer.provider, layer.source)
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
        return ProviderSettings("offline", OFFLINE_MODEL, "")
    model_name = next((layer.model for layer in usable if layer.model), None)
    url = next((layer.base_url for layer in usable if layer.base_url), None)
    api_key = next((layer.api_key for layer in usable if layer.api_key), None)
    api_key_env = None
    if api_key is None:
        api_key = _clean(env.get(KEY_ENV_VARS[chosen]))
        api_key_env = KEY_ENV_VARS[chosen] if api_key is not None else None
    return ProviderSettings(
        provider=chosen,
        model=model_name or DEFAULT_MODELS[chosen],
        base_url=(url or DEFAULT_BASE_URLS[chosen]).rstrip("/"),
        api_key=api_key,
        api_key_env=api_key_env,
    )


def save_provider_settings(
    settings: ProviderSettings, *, env: Mapping[str, str] | None = None
) -> Path:
    """Write the settings to `settings.json` atomically (mode 0600), keeping unknown keys.

    A key from the environment is not written; a file key stays unless a new key is given.
    Refuses (ProviderError("config")) to overwrite a settings file it cannot parse.
    """
    path = settings_path(env)
    data = load_settings_file(path)
    if data.get("provider") != settings.provider:
        data.pop("api_key", None)  # a key belongs to the provider it was saved for
    data["provider"] = settings.provider
    data["model"] = settings.model
    if settings.base_url:
        data["base_url"] = settings.base_url
    else:
        data.pop("base_url", None)
    if settings.api_key and settings.api_key_env is None:
        data["api_key"] = settings.api_key
    _write_private_json(path, data)
    logger.info("saved provider settings to %s (%s)", path, settings.describe())
    return path


def save_settings_section(
    key: str, value: Mapping[str, Any], *, env: Mapping[str, str] | None = None
) -> Path:
    """Store one section (e.g. `"writer"`) of the settings file, keeping everything else.

    Refuses (ProviderError("config")) to overwrite a settings file it cannot parse.
    """
    path = settings_path(env)
    data = load_settings_file(path)
    data[key] = dict(value)
    _write_private_json(path, data)
    return path


def _write_private_json(path: Path, data: Mapping[str, Any]) -> None:
    """Temp file in the same dir, fsync, rename over: readers see the old or the new file."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    payload = (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:  # mkstemp creates the file with mode 0600
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise
    with contextlib.suppress(OSError):  # not every platform can fsync a directory
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def create_provider(
    settings: ProviderSettings, *, options: HttpOptions | None = None
) -> ChatProvider:
    """The HTTP provider for `settings`. ProviderError("config") for offline or a missing key.

    Offline engines live next to the job they serve, so callers handle "offline" first.
    """
    # Imported here: httpx costs a noticeable part of the window's start-up.
    from memtab.llm.anthropic import AnthropicProvider
    from memtab.llm.openai import OpenAIProvider

    if settings.provider == "anthropic":
        if not settings.api_key:
            raise ProviderError(
                "config",
                f"anthropic {settings.model}: no API key; set ANTHROPIC_API_KEY or add api_key "
                "to the settings file",
            )
        return AnthropicProvider(
            settings.model,
            settings.api_key,
            settings.base_url or DEFAULT_ANTHROPIC_BASE_URL,
            options=options,
        )
    if settings.provider == "openai":
        return OpenAIProvider(
            settings.model,
            settings.api_key,
            settings.base_url or DEFAULT_OPENAI_BASE_URL,
            options=options,
        )
    raise ProviderError(
        "config", "the offline provider has no model server; use the built-in offline engine"
    )
