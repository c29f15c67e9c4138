"""A saved key belongs to the provider and host it was saved for (docs/formats.md §12.3):
settings.json's `api_key` (the selection's) and `api_keys` (every other place)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.fs.config.settings_file import SettingsFileError
from memtab.llm.endpoints import key_origin
from memtab.llm.settings import (
    ProviderSettings,
    create_provider,
    resolve_provider_settings,
    save_provider_settings,
)
from memtab.llm.types import ProviderError

ANTHROPIC_KEY = "sk-ant-saved-ANTHROPIC-0123456789abcdef"
LOCAL_KEY = "local-server-key-0123456789"
ROUTER_KEY = "sk-or-v1-ROUTER-0123456789abcdef"
LOCAL = "http://127.0.0.1:8099/v1"


def _env(tmp_path: Path, **values: str) -> dict[str, str]:
    return {"MEMTAB_CONFIG_DIR": str(tmp_path / "config"), **values}


def _file(tmp_path: Path) -> dict[str, object]:
    stored: dict[str, object] = json.loads((tmp_path / "config" / "settings.json").read_text())
    return stored


def _write(tmp_path: Path, data: object) -> None:
    (tmp_path / "config").mkdir(parents=True, exist_ok=True)
    (tmp_path / "config" / "settings.json").write_text(json.dumps(data))


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("https://api.anthropic.com", "https://api.anthropic.com"),
        ("HTTPS://API.Anthropic.com:443/v1/", "https://api.anthropic.com"),
        ("http://127.0.0.1:8099/v1", "http://127.0.0.1:8099"),
        ("http://localhost:80/v1", "http://localhost"),
        ("https://openrouter.ai/api/v1", "https://openrouter.ai"),
        ("http://[::1]:8000/v1", "http://[::1]:8000"),
        ("not a url", ""),
        ("http://host:port", ""),
    ],
)
def test_a_keys_place_is_the_origin_of_its_base_url(url: str, origin: str) -> None:
    assert key_origin(url) == origin


def test_each_provider_and_host_keeps_its_own_key(tmp_path: Path) -> None:
    env = _env(tmp_path)
    save_provider_settings(
        ProviderSettings("anthropic", "claude-x", "https://api.anthropic.com", ANTHROPIC_KEY),
        env=env,
    )
    save_provider_settings(ProviderSettings("openai", "llama", LOCAL, LOCAL_KEY), env=env)
    stored = _file(tmp_path)
    assert stored["api_key"] == LOCAL_KEY  # the selection's key, where every Memtab reads it
    assert stored["api_keys"] == {"anthropic": {"https://api.anthropic.com": ANTHROPIC_KEY}}

    assert resolve_provider_settings(env=env).api_key == LOCAL_KEY
    assert resolve_provider_settings("anthropic", env=env).api_key == ANTHROPIC_KEY
    # The local server's key does not follow the provider to another host…
    elsewhere = resolve_provider_settings(base_url="https://openrouter.ai/api/v1", env=env)
    assert elsewhere.api_key is None
    assert elsewhere.saved_key_origins == ("http://127.0.0.1:8099",)
    assert "the key saved for OpenAI is for http://127.0.0.1:8099, not openrouter.ai" in (
        elsewhere.key_note()
    )
    assert LOCAL_KEY not in elsewhere.key_note() and "saved one is for" in elsewhere.describe()
    # …nor does it go there from the environment's base URL.
    assert resolve_provider_settings(env={**env, "MEMTAB_BASE_URL": LOCAL + "/x"}).api_key == (
        LOCAL_KEY
    )
    assert (
        resolve_provider_settings(env={**env, "MEMTAB_BASE_URL": "http://localhost:8099"}).api_key
        is None
    )

    # Saving Anthropic again brings its key back to the top and keeps the local one.
    save_provider_settings(
        ProviderSettings("anthropic", "claude-x", "https://api.anthropic.com"), env=env
    )
    stored = _file(tmp_path)
    assert stored["api_key"] == ANTHROPIC_KEY
    assert stored["api_keys"] == {"openai": {"http://127.0.0.1:8099": LOCAL_KEY}}


def test_keys_typed_for_other_places_are_saved_for_them_and_can_be_forgotten(
    tmp_path: Path,
) -> None:
    env = _env(tmp_path)
    save_provider_settings(
        ProviderSettings("openai", "llama", LOCAL),
        env=env,
        other_keys={
            ("anthropic", "https://api.anthropic.com"): ANTHROPIC_KEY,
            ("openai", "https://openrouter.ai"): ROUTER_KEY,
        },
    )
    assert "api_key" not in _file(tmp_path)
    assert resolve_provider_settings(env=env).api_key is None
    routed = resolve_provider_settings(base_url="https://openrouter.ai/api/v1/", env=env)
    assert routed.api_key == ROUTER_KEY
    save_provider_settings(
        ProviderSettings("openai", "llama", LOCAL),
        env=env,
        forget=frozenset({("openai", "https://openrouter.ai")}),
    )
    assert _file(tmp_path)["api_keys"] == {
        "anthropic": {"https://api.anthropic.com": ANTHROPIC_KEY}
    }


def test_an_existing_top_level_key_keeps_working_where_it_was_used(tmp_path: Path) -> None:
    """settings.json as every earlier Memtab wrote it."""
    _write(tmp_path, {"provider": "openai", "base_url": LOCAL, "api_key": LOCAL_KEY})
    env = _env(tmp_path)
    assert resolve_provider_settings(env=env).api_key == LOCAL_KEY
    assert resolve_provider_settings("anthropic", env=env).api_key is None
    assert resolve_provider_settings(base_url="http://127.0.0.2:8099/v1", env=env).api_key is None
    # Written by hand without a provider: the chosen one's, at the file's base URL.
    _write(tmp_path, {"api_key": ANTHROPIC_KEY})
    assert resolve_provider_settings("anthropic", env=env).api_key == ANTHROPIC_KEY
    proxied = resolve_provider_settings("anthropic", base_url="https://proxy.example", env=env)
    assert proxied.api_key is None
    # A save binds it to the provider saved, where it was used.
    save_provider_settings(ProviderSettings("openai", "gpt-4o", LOCAL), env=env)
    assert _file(tmp_path)["api_keys"] == {"openai": {"https://api.openai.com": ANTHROPIC_KEY}}


def test_a_missing_key_names_the_host_a_key_is_saved_for(tmp_path: Path) -> None:
    _write(tmp_path, {"provider": "anthropic", "api_key": ANTHROPIC_KEY})
    settings = resolve_provider_settings(base_url="https://proxy.example", env=_env(tmp_path))
    with pytest.raises(ProviderError) as caught:
        create_provider(settings)
    assert "the key saved for Anthropic is for api.anthropic.com, not proxy.example" in (
        caught.value.message
    )
    assert ANTHROPIC_KEY not in caught.value.message


def test_malformed_saved_keys_are_named_but_never_shown(tmp_path: Path) -> None:
    _write(tmp_path, {"provider": "openai", "api_keys": {"openai": [ROUTER_KEY]}})
    with pytest.raises(SettingsFileError) as caught:
        resolve_provider_settings(env=_env(tmp_path))
    assert "'api_keys' must be an object of" in str(caught.value)
    assert ROUTER_KEY not in str(caught.value)
