"""The limits of each request as settings: `request_timeout_s` and `max_tokens` in
settings.json, the defaults by where the server is and by job, what a provider is made with."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.fs.config.settings_file import SettingsFileError
from memtab.llm.openai import OpenAIProvider
from memtab.llm.settings import (
    ProviderSettings,
    create_provider,
    resolve_provider_settings,
    save_provider_settings,
)
from memtab.llm.settings_model import LOCAL_REQUEST_TIMEOUT_S, REMOTE_REQUEST_TIMEOUT_S, ModelJob

LOCAL = "http://127.0.0.1:8080/v1"
WRITER_LIKE = ModelJob("the writer", 2048, "calls")


def _env(tmp_path: Path, data: object) -> dict[str, str]:
    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    (config / "settings.json").write_text(json.dumps(data))
    return {"MEMTAB_CONFIG_DIR": str(config)}


def test_a_server_on_this_machine_gets_a_generous_request_limit_a_remote_api_a_shorter_one(
    tmp_path: Path,
) -> None:
    local = resolve_provider_settings(env=_env(tmp_path, {"provider": "openai", "base_url": LOCAL}))
    assert local.request_limit() == LOCAL_REQUEST_TIMEOUT_S == 1800
    assert local.request_limit_origin() == "the default for a server on this machine"
    remote = ProviderSettings("anthropic", "claude-x", "https://api.anthropic.com", "sk-x")
    assert remote.request_limit() == REMOTE_REQUEST_TIMEOUT_S == 300
    assert remote.request_limit_origin() == "the default for a remote server"


def test_the_settings_file_sets_the_request_limit_and_the_reply_limit(tmp_path: Path) -> None:
    env = _env(
        tmp_path,
        {"provider": "openai", "base_url": LOCAL, "request_timeout_s": 600, "max_tokens": 900},
    )
    settings = resolve_provider_settings(env=env)
    assert settings.request_limit() == 600
    assert settings.request_limit_origin() == "request_timeout_s in settings.json"
    assert settings.reply_limit(WRITER_LIKE) == 900
    # A save of the model keeps them.
    save_provider_settings(settings.__class__("openai", "other", LOCAL), env=env)
    again = resolve_provider_settings(env=env)
    assert (again.model, again.request_timeout_s, again.max_tokens) == ("other", 600, 900)


@pytest.mark.parametrize(
    ("key", "value", "why"),
    [
        ("request_timeout_s", "ten", "'request_timeout_s' must be a number of seconds"),
        ("request_timeout_s", 0, "'request_timeout_s' must be more than 0"),
        ("request_timeout_s", -5, "'request_timeout_s' must be more than 0"),
        ("max_tokens", 1.5, "'max_tokens' must be a whole number"),
        ("max_tokens", 0, "'max_tokens' must be a whole number from 1 to 1000000"),
        ("max_tokens", True, "'max_tokens' must be a whole number"),
    ],
)
def test_a_bad_limit_is_an_error_naming_it(
    tmp_path: Path, key: str, value: object, why: str
) -> None:
    env = _env(tmp_path, {"provider": "openai", "base_url": LOCAL, key: value})
    with pytest.raises(SettingsFileError, match=why):
        resolve_provider_settings(env=env)


def test_a_provider_is_made_with_the_settings_limits_and_its_jobs() -> None:
    settings = ProviderSettings("openai", "qwen", LOCAL)
    provider = create_provider(settings, job=WRITER_LIKE)
    assert isinstance(provider, OpenAIProvider)
    with provider:
        assert provider.max_tokens == 2048 and provider.structured == "calls"
        options = provider._http.options
        assert options.timeout_s == LOCAL_REQUEST_TIMEOUT_S
        assert options.timeout_hint == "request_timeout_s in settings.json raises it"
    limited = ProviderSettings("openai", "qwen", LOCAL, request_timeout_s=45, max_tokens=77)
    with create_provider(limited, job=WRITER_LIKE) as provider:  # type: ignore[attr-defined]
        assert provider.max_tokens == 77 and provider._http.options.timeout_s == 45


def test_replies_are_asked_by_schema_of_a_server_on_this_machine_alone() -> None:
    remote = ProviderSettings("openai", "gpt-x", "https://api.openai.com/v1", "sk-x")
    with create_provider(remote, job=WRITER_LIKE) as provider:  # type: ignore[attr-defined]
        assert provider.structured is None
    with create_provider(ProviderSettings("openai", "q", LOCAL)) as provider:  # type: ignore[attr-defined]
        assert provider.structured is None and provider.max_tokens == 4096
