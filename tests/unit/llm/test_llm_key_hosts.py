"""A key reaches only the host it was meant for; plain http only to this machine
(docs/formats.md §12.3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.components.window.ui_state import default_state_path
from memtab.fs.config.config_dir import config_dir
from memtab.fs.config.settings_file import settings_path
from memtab.llm.endpoints import base_url_problem, is_loopback_host, is_official_endpoint
from memtab.llm.http import HttpChatProvider
from memtab.llm.openai import OpenAIProvider
from memtab.llm.settings import (
    ProviderSettings,
    create_provider,
    resolve_provider_settings,
    save_provider_settings,
)
from memtab.llm.types import ChatProvider, ProviderError, UserMessage
from support.fake_model_server import FakeModelServer

OPENAI_ENV_KEY = "sk-envOPENAI0123456789abcdefghijkl"
ANTHROPIC_ENV_KEY = "sk-ant-env-ANTHROPIC-0123456789abcdef"
MEMTAB_KEY = "memtab-explicit-KEY-0123456789abcdef"


def _env(tmp_path: Path, **values: str) -> dict[str, str]:
    return {"MEMTAB_CONFIG_DIR": str(tmp_path / "config"), **values}


def _http(provider: ChatProvider) -> HttpChatProvider:
    assert isinstance(provider, HttpChatProvider)
    return provider


def _write_settings(tmp_path: Path, data: object) -> None:
    (tmp_path / "config").mkdir(parents=True, exist_ok=True)
    (tmp_path / "config" / "settings.json").write_text(json.dumps(data))


# -- a provider variable's key goes to the official host only -------------------------------


def test_provider_variable_is_used_for_the_official_api(tmp_path: Path) -> None:
    env = _env(tmp_path, OPENAI_API_KEY=OPENAI_ENV_KEY, ANTHROPIC_API_KEY=ANTHROPIC_ENV_KEY)
    openai = resolve_provider_settings("openai", env=env)
    anthropic = resolve_provider_settings("anthropic", env=env)

    assert (openai.api_key, openai.api_key_env) == (OPENAI_ENV_KEY, "OPENAI_API_KEY")
    assert (anthropic.api_key, anthropic.api_key_env) == (ANTHROPIC_ENV_KEY, "ANTHROPIC_API_KEY")
    assert "official OpenAI API" in openai.key_note()
    assert openai.describe().endswith("key from $OPENAI_API_KEY")


@pytest.mark.parametrize(
    "base_url",
    [
        "http://localhost:11434/v1",  # Ollama
        "https://openrouter.ai/api/v1",
        "https://llm.lan.example/v1",
        "https://api.openai.com.attacker.example/v1",
        "https://api.openai.com:8443/v1",
        "https://user:pw@api.openai.com/v1",
    ],
)
def test_provider_variable_is_never_sent_to_a_custom_base_url(
    tmp_path: Path, base_url: str
) -> None:
    settings = resolve_provider_settings(
        "openai", base_url=base_url, env=_env(tmp_path, OPENAI_API_KEY=OPENAI_ENV_KEY)
    )

    assert settings.api_key is None
    assert settings.withheld_key_env == "OPENAI_API_KEY"
    note = settings.key_note()
    assert "No key is sent" in note and "api.openai.com" in note and "MEMTAB_API_KEY" in note
    assert OPENAI_ENV_KEY not in note + settings.describe() + repr(settings)
    assert "no key ($OPENAI_API_KEY" in settings.describe()


def test_anthropic_variable_is_withheld_from_a_proxy_with_a_clear_error(tmp_path: Path) -> None:
    env = _env(tmp_path, ANTHROPIC_API_KEY=ANTHROPIC_ENV_KEY, MEMTAB_BASE_URL="https://gw.example")
    settings = resolve_provider_settings("anthropic", env=env)
    assert settings.api_key is None

    with pytest.raises(ProviderError) as caught:
        create_provider(settings)
    assert caught.value.kind == "config"
    assert "ANTHROPIC_API_KEY goes only to api.anthropic.com" in caught.value.message
    assert "gw.example" in caught.value.message


def test_environment_key_is_not_sent_to_a_local_server(
    tmp_path: Path, fake_model_server: FakeModelServer
) -> None:
    """End to end: the request that reaches a custom server carries no Authorization."""
    env = _env(
        tmp_path, OPENAI_API_KEY=OPENAI_ENV_KEY, MEMTAB_BASE_URL=fake_model_server.openai_base_url
    )
    fake_model_server.add_openai_reply("hi")
    with _http(create_provider(resolve_provider_settings("openai", env=env))) as provider:
        provider.complete("", [UserMessage("hello")], [])

    sent = fake_model_server.requests[0].headers
    assert "authorization" not in {name.lower() for name in sent}
    assert OPENAI_ENV_KEY not in json.dumps(sent)


# -- a key given to Memtab goes where Memtab is told to send requests ------------------------


def test_memtab_api_key_is_sent_to_a_custom_server(
    tmp_path: Path, fake_model_server: FakeModelServer
) -> None:
    env = _env(
        tmp_path,
        OPENAI_API_KEY=OPENAI_ENV_KEY,
        MEMTAB_API_KEY=MEMTAB_KEY,
        MEMTAB_BASE_URL=fake_model_server.openai_base_url,
    )
    settings = resolve_provider_settings("openai", env=env)
    assert (settings.api_key, settings.api_key_env) == (MEMTAB_KEY, "MEMTAB_API_KEY")
    assert "MEMTAB_API_KEY" in settings.key_note()
    fake_model_server.add_openai_reply("hi")
    with _http(create_provider(settings)) as provider:
        provider.complete("", [UserMessage("hello")], [])

    sent = {name.lower(): value for name, value in fake_model_server.requests[0].headers.items()}
    assert sent["authorization"] == f"Bearer {MEMTAB_KEY}"
    path = save_provider_settings(settings, env=env)
    assert "api_key" not in json.loads(path.read_text()), "an environment key is never saved"


def test_settings_file_key_is_sent_to_its_custom_base_url(tmp_path: Path) -> None:
    _write_settings(
        tmp_path,
        {"provider": "openai", "base_url": "https://openrouter.ai/api/v1", "api_key": MEMTAB_KEY},
    )
    settings = resolve_provider_settings(env=_env(tmp_path, OPENAI_API_KEY=OPENAI_ENV_KEY))
    assert (settings.api_key, settings.api_key_env) == (MEMTAB_KEY, None)
    assert (
        settings.key_note() == "Uses the key saved in the settings file for this provider and host."
    )


def test_memtab_api_key_follows_only_its_own_provider(tmp_path: Path) -> None:
    env = _env(tmp_path, MEMTAB_PROVIDER="openai", MEMTAB_API_KEY=MEMTAB_KEY)
    assert resolve_provider_settings(env=env).api_key == MEMTAB_KEY
    assert resolve_provider_settings("anthropic", env=env).api_key is None


# -- plain http only to this machine ---------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "http://localhost:11434/v1",
        "http://LOCALHOST/v1",
        "http://127.0.0.1:8080",
        "http://127.1.2.3/v1",
        "http://[::1]:8000/v1",
        "https://192.168.1.20/v1",
        "https://api.openai.com/v1",
    ],
)
def test_allowed_base_urls(url: str) -> None:
    assert base_url_problem(url) is None


@pytest.mark.parametrize(
    "url",
    [
        "http://192.168.1.20:11434/v1",
        "http://10.0.0.5/v1",
        "http://ollama.lan/v1",
        "http://0.0.0.0:11434",
        "http://127.0.0.1.nip.io/v1",
        "http://localhost.attacker.example/v1",
        "http://[::ffff:192.168.0.1]/v1",
        "http://api.openai.com/v1",
    ],
)
def test_plain_http_off_this_machine_is_refused_before_any_request(
    tmp_path: Path, url: str
) -> None:
    problem = base_url_problem(url)
    assert problem is not None and "plain http://" in problem and "https://" in problem

    with pytest.raises(ProviderError) as resolved:
        resolve_provider_settings("openai", base_url=url, env=_env(tmp_path))
    assert resolved.value.kind == "config" and "command-line" in resolved.value.message
    with pytest.raises(ProviderError) as built:
        OpenAIProvider("llama3", MEMTAB_KEY, base_url=url)
    assert built.value.kind == "config" and "plain http://" in built.value.message
    assert MEMTAB_KEY not in built.value.message
    with pytest.raises(ProviderError):
        save_provider_settings(ProviderSettings("openai", "m", url), env=_env(tmp_path))
    assert not settings_path(_env(tmp_path)).exists()


def test_plain_http_from_the_settings_file_names_the_file(tmp_path: Path) -> None:
    _write_settings(tmp_path, {"provider": "openai", "base_url": "http://gpu-box:8000/v1"})
    with pytest.raises(ProviderError) as caught:
        resolve_provider_settings(env=_env(tmp_path))
    assert "settings.json" in caught.value.message and "gpu-box:8000" in caught.value.message


def test_host_rules() -> None:
    assert is_loopback_host("[::1]") and is_loopback_host("127.255.0.1")
    assert not is_loopback_host("localhost.example") and not is_loopback_host("::ffff:10.0.0.1")
    assert is_official_endpoint("anthropic", "https://api.anthropic.com")
    assert is_official_endpoint("openai", "https://API.openai.com:443/v1")
    assert not is_official_endpoint("openai", "https://api.anthropic.com")
    assert not is_official_endpoint("offline", "https://api.openai.com/v1")


# -- one config dir ----------------------------------------------------------------------------


@pytest.mark.parametrize("configured", ["~/cfg", "rel/cfg", " ~/cfg "])
def test_settings_and_ui_state_share_one_absolute_config_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, configured: str
) -> None:
    home = tmp_path / "user"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("MEMTAB_CONFIG_DIR", configured)
    monkeypatch.chdir(tmp_path)
    expected = (home if "~" in configured else tmp_path) / configured.strip().lstrip("~/")

    assert config_dir() == expected and expected.is_absolute()
    assert settings_path().parent == expected
    assert default_state_path().parent == expected


@pytest.mark.expect_log(
    "memtab.components.window.ui_state",
    "WARNING",
    r"^Ignoring the UI state .*ui-state.json: nested too deeply to read",
)
def test_a_deeply_nested_ui_state_file_is_an_empty_state(tmp_path: Path) -> None:
    from memtab.components.window.ui_state import UiState

    path = tmp_path / "ui-state.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert UiState.load(path).workspace_for(tmp_path) is None
