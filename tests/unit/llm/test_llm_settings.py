"""Provider settings: precedence, defaults, the settings file, keys, create_provider."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from memtab.fs.config.settings_file import SettingsFileError, save_settings_section, settings_path
from memtab.llm.anthropic import AnthropicProvider
from memtab.llm.openai import OpenAIProvider
from memtab.llm.settings import (
    DEFAULT_ORIGIN,
    ProviderSettings,
    create_provider,
    explain_provider_settings,
    form_settings,
    resolve_provider_settings,
    save_provider_settings,
    saved_key,
)
from memtab.llm.types import ProviderError

SECRET = "sk-ant-file-SECRET-0123456789abcdef"


@pytest.fixture
def config(tmp_path: Path) -> Path:
    """An isolated config dir (MEMTAB_CONFIG_DIR in the env mappings below)."""
    return tmp_path / "config"


def _env(config: Path, **values: str) -> dict[str, str]:
    return {"MEMTAB_CONFIG_DIR": str(config), **values}


def _write(config: Path, data: object) -> Path:
    config.mkdir(parents=True, exist_ok=True)
    path = config / "settings.json"
    path.write_text(json.dumps(data))
    return path


def test_nothing_configured_is_offline_even_with_a_key_in_the_environment(config: Path) -> None:
    settings = resolve_provider_settings(env=_env(config, ANTHROPIC_API_KEY="sk-ant-x" * 4))
    assert settings.provider == "offline"
    assert settings.is_offline
    assert settings.api_key is None
    assert settings.describe().startswith("offline")


def test_defaults_per_provider(config: Path) -> None:
    anthropic = resolve_provider_settings("anthropic", env=_env(config))
    assert (anthropic.model, anthropic.base_url) == (
        "claude-sonnet-4-5",
        "https://api.anthropic.com",
    )
    openai = resolve_provider_settings("openai", env=_env(config))
    assert (openai.model, openai.base_url) == ("gpt-4o-mini", "https://api.openai.com/v1")


def test_precedence_flags_over_env_over_file_over_default(config: Path) -> None:
    _write(
        config, {"provider": "openai", "model": "file-model", "base_url": "https://file.example/v1"}
    )
    env = _env(
        config,
        MEMTAB_PROVIDER="openai",
        MEMTAB_MODEL="env-model",
        MEMTAB_BASE_URL="https://env.example/v1",
    )

    from_file = resolve_provider_settings(env=_env(config))
    assert (from_file.provider, from_file.model, from_file.base_url) == (
        "openai",
        "file-model",
        "https://file.example/v1",
    )
    from_env = resolve_provider_settings(env=env)
    assert (from_env.model, from_env.base_url) == ("env-model", "https://env.example/v1")
    from_flags = resolve_provider_settings(
        "openai", "flag-model", "https://flag.example/v1/", env=env
    )
    assert (from_flags.model, from_flags.base_url) == ("flag-model", "https://flag.example/v1")
    partial = resolve_provider_settings(model="flag-model", env=_env(config))
    assert (partial.provider, partial.model, partial.base_url) == (
        "openai",
        "flag-model",
        "https://file.example/v1",
    )


def test_values_for_another_provider_do_not_follow_a_switch(config: Path) -> None:
    _write(
        config,
        {
            "provider": "anthropic",
            "model": "claude-x",
            "base_url": "https://proxy.example",
            "api_key": SECRET,
        },
    )
    settings = resolve_provider_settings("openai", env=_env(config))
    assert settings.provider == "openai"
    assert settings.model == "gpt-4o-mini"
    assert settings.base_url == "https://api.openai.com/v1"
    assert settings.api_key is None


def test_model_without_any_provider_is_a_config_error(config: Path) -> None:
    with pytest.raises(ProviderError) as caught:
        resolve_provider_settings(model="claude-x", env=_env(config))
    assert caught.value.kind == "config"
    assert "command-line" in caught.value.message and "no provider" in caught.value.message
    _write(config, {"provider": "offline"})
    assert resolve_provider_settings(env=_env(config, MEMTAB_MODEL="x")).provider == "offline"


def test_provider_names_are_case_insensitive(config: Path) -> None:
    assert resolve_provider_settings(env=_env(config, MEMTAB_PROVIDER=" OpenAI ")).provider == (
        "openai"
    )


@pytest.mark.parametrize(
    ("flag", "env_value", "file_value", "source"),
    [
        ("gemini", None, None, "command-line"),
        (None, "gemini", None, "MEMTAB_"),
        (None, None, "gemini", "settings.json"),
    ],
)
def test_unknown_provider_names_its_source(
    config: Path, flag: str | None, env_value: str | None, file_value: str | None, source: str
) -> None:
    env = _env(config)
    if env_value:
        env["MEMTAB_PROVIDER"] = env_value
    if file_value:
        _write(config, {"provider": file_value})
    with pytest.raises(ProviderError) as caught:
        resolve_provider_settings(flag, env=env)
    assert caught.value.kind == "config"
    assert "'gemini'" in caught.value.message
    assert source in caught.value.message
    assert "anthropic, openai, offline" in caught.value.message


@pytest.mark.parametrize(
    ("content", "why"),
    [
        ('{"provider": "openai",', "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"model": 42}', "'model' must be a string, not 42"),
        ('{"provider": true}', "'provider' must be a string, not True"),
        ('{"base_url": ["x"]}', "'base_url' must be a string, not ['x']"),
        ('{"api_key": 7}', "'api_key' must be a string"),
        ('{"api_keys": {"openai": "sk"}}', "'api_keys' must be an object of {\"<provider>\""),
        ('{"api_keys": {"openai": {"https://h": 5}}}', "'api_keys' must be an object of"),
    ],
)
def test_unusable_settings_file_is_a_clear_error(config: Path, content: str, why: str) -> None:
    """The settings file's own error (not a model's ProviderError), naming file and key."""
    config.mkdir()
    path = config / "settings.json"
    path.write_text(content)
    with pytest.raises(SettingsFileError) as caught:
        resolve_provider_settings(env=_env(config))
    assert str(path) in str(caught.value)
    assert why in str(caught.value)


def test_keys_file_first_then_environment(config: Path) -> None:
    env = _env(config, ANTHROPIC_API_KEY="sk-ant-env-0123456789abcdef")
    from_env = resolve_provider_settings("anthropic", env=env)
    assert from_env.api_key == "sk-ant-env-0123456789abcdef"
    assert from_env.api_key_env == "ANTHROPIC_API_KEY"

    _write(config, {"provider": "anthropic", "api_key": SECRET})
    from_file = resolve_provider_settings(env=env)
    assert from_file.api_key == SECRET
    assert from_file.api_key_env is None

    openai = resolve_provider_settings("openai", env=_env(config, OPENAI_API_KEY="sk-openai-k"))
    assert openai.api_key == "sk-openai-k"


def test_key_hidden_from_repr_and_describe() -> None:
    settings = ProviderSettings(
        "anthropic", "claude-sonnet-4-5", "https://api.anthropic.com", SECRET
    )
    assert SECRET not in repr(settings)
    assert SECRET not in str(settings)
    assert settings.describe() == (
        "anthropic · claude-sonnet-4-5 · https://api.anthropic.com · key from settings"
    )


def test_save_is_private_atomic_and_keeps_unknown_keys(config: Path) -> None:
    _write(config, {"provider": "anthropic", "theme": "dark", "window": {"w": 800}})
    env = _env(config)

    path = save_provider_settings(
        ProviderSettings("anthropic", "claude-opus", "https://api.anthropic.com", SECRET), env=env
    )

    assert path == settings_path(env) == config / "settings.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    data = json.loads(path.read_text())
    assert data == {
        "provider": "anthropic",
        "model": "claude-opus",
        "base_url": "https://api.anthropic.com",
        "api_key": SECRET,
        "theme": "dark",
        "window": {"w": 800},
    }
    # No temp file is left; the lock file that serializes writers stays.
    assert sorted(p.name for p in config.iterdir()) == [".settings.json.lock", "settings.json"]
    again = resolve_provider_settings(env=env)
    assert (again.provider, again.model, again.api_key) == ("anthropic", "claude-opus", SECRET)


def test_save_creates_the_config_dir_with_mode_0600(config: Path) -> None:
    path = save_provider_settings(
        ProviderSettings("openai", "llama3", "http://localhost:11434/v1"), env=_env(config)
    )
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text()) == {
        "provider": "openai",
        "model": "llama3",
        "base_url": "http://localhost:11434/v1",
    }


def test_save_never_writes_an_environment_key(config: Path) -> None:
    env = _env(config, ANTHROPIC_API_KEY="sk-ant-env-0123456789abcdef")
    settings = resolve_provider_settings("anthropic", env=env)
    path = save_provider_settings(settings, env=env)
    assert "api_key" not in json.loads(path.read_text())


def test_save_keeps_the_file_key_and_a_switch_keeps_it_with_its_provider(config: Path) -> None:
    _write(config, {"provider": "anthropic", "api_key": SECRET})
    env = _env(config)
    save_provider_settings(
        ProviderSettings("anthropic", "claude-haiku", "https://api.anthropic.com"), env=env
    )
    assert json.loads((config / "settings.json").read_text())["api_key"] == SECRET
    save_provider_settings(
        ProviderSettings("openai", "gpt-4o", "https://api.openai.com/v1"), env=env
    )
    stored = json.loads((config / "settings.json").read_text())
    assert "api_key" not in stored  # OpenAI has no key: Anthropic's is not its
    assert stored["api_keys"] == {"anthropic": {"https://api.anthropic.com": SECRET}}
    assert resolve_provider_settings(env=env).api_key is None
    assert resolve_provider_settings("anthropic", env=env).api_key == SECRET


def test_save_refuses_to_overwrite_a_corrupt_file(config: Path) -> None:
    config.mkdir()
    (config / "settings.json").write_text("{ half written")
    with pytest.raises(SettingsFileError, match="fix or delete it"):
        save_provider_settings(ProviderSettings("offline", "offline", ""), env=_env(config))
    assert (config / "settings.json").read_text() == "{ half written"


def test_config_dir_comes_from_the_environment_by_default(
    monkeypatch: pytest.MonkeyPatch, config: Path
) -> None:
    monkeypatch.setenv("MEMTAB_CONFIG_DIR", str(config))
    _write(config, {"provider": "openai"})
    assert resolve_provider_settings().provider == "openai"


def test_create_provider() -> None:
    anthropic = create_provider(
        ProviderSettings("anthropic", "claude-x", "https://api.anthropic.com", SECRET)
    )
    assert isinstance(anthropic, AnthropicProvider)
    assert anthropic.model == "claude-x"
    anthropic.close()
    openai = create_provider(ProviderSettings("openai", "llama3", "http://localhost:11434/v1"))
    assert isinstance(openai, OpenAIProvider)
    assert openai.url == "http://localhost:11434/v1/chat/completions"
    openai.close()


@pytest.mark.parametrize(
    ("settings", "why"),
    [
        (ProviderSettings("anthropic", "claude-x", "https://api.anthropic.com"), "no API key"),
        (ProviderSettings("offline", "offline", ""), "offline"),
    ],
)
def test_create_provider_refuses(settings: ProviderSettings, why: str) -> None:
    with pytest.raises(ProviderError) as caught:
        create_provider(settings)
    assert caught.value.kind == "config"
    assert why in caught.value.message


@pytest.mark.parametrize(
    ("base_url", "advice"),
    [
        (
            "https://api.anthropic.com",
            "no API key; set ANTHROPIC_API_KEY or add api_key to the settings file",
        ),
        # $ANTHROPIC_API_KEY would not be sent there: say which key would be.
        (
            "https://llm.internal.example",
            "no API key; set MEMTAB_API_KEY or add api_key to the settings file",
        ),
    ],
)
def test_a_missing_anthropic_key_names_the_key_that_would_be_sent(
    base_url: str, advice: str
) -> None:
    with pytest.raises(ProviderError) as caught:
        create_provider(ProviderSettings("anthropic", "claude-x", base_url))
    assert caught.value.message == f"anthropic claude-x: {advice}"


def test_a_withheld_key_is_explained_in_one_sentence() -> None:
    settings = ProviderSettings("anthropic", "claude-x", "https://llm.internal.example")
    settings = replace(settings, withheld_key_env="ANTHROPIC_API_KEY")
    with pytest.raises(ProviderError) as caught:
        create_provider(settings)
    assert caught.value.message == (
        "anthropic claude-x: no API key: $ANTHROPIC_API_KEY goes only to api.anthropic.com, "
        "not to llm.internal.example. To use a key there, set $MEMTAB_API_KEY or save one "
        "in File → Settings."
    )


_SAVER = """
import sys
from memtab.fs.config.settings_file import save_settings_section
env = {"MEMTAB_CONFIG_DIR": sys.argv[1]}
for n in range(int(sys.argv[3])):
    save_settings_section(f"{sys.argv[2]}-{n}", {"n": n}, env=env)
"""


# slow: starts other processes (several processes saving at once; ~0.5 s of CPU or more)
@pytest.mark.slow
def test_concurrent_saves_from_several_processes_lose_nothing(config: Path) -> None:
    """Read-modify-write under a cross-process lock (without it, 42 of 100 survived)."""
    processes, saves = 4, 25
    running = [
        subprocess.Popen([sys.executable, "-c", _SAVER, str(config), f"p{i}", str(saves)])
        for i in range(processes)
    ]
    assert [process.wait(timeout=120) for process in running] == [0] * processes
    data = json.loads((config / "settings.json").read_text())
    assert len(data) == processes * saves


def test_where_each_value_came_from(config: Path) -> None:
    path = _write(config, {"provider": "openai", "model": "from-file"})
    env = _env(config, MEMTAB_MODEL="from-env")
    resolved = explain_provider_settings(env=env)
    assert resolved.settings.model == "from-env"
    assert resolved.origins == {
        "provider": f"settings file {path}",
        "model": "environment variables MEMTAB_*",
        "base_url": DEFAULT_ORIGIN,
    }
    flagged = explain_provider_settings("anthropic", base_url="https://proxy.test", env=env)
    assert flagged.origins["provider"] == "command-line options"
    assert flagged.origins["base_url"] == "command-line options"
    # The file's model was saved for openai: it does not follow the switch to anthropic.
    assert flagged.origins["model"] == "environment variables MEMTAB_*"
    nothing = explain_provider_settings(env=_env(config.parent / "elsewhere"))
    assert nothing.origins == {"provider": DEFAULT_ORIGIN}


def test_a_malformed_key_is_named_but_never_shown(config: Path) -> None:
    _write(config, {"provider": "anthropic", "api_key": [SECRET]})
    with pytest.raises(SettingsFileError) as caught:
        resolve_provider_settings(env=_env(config))
    assert "'api_key' must be a string" in str(caught.value)
    assert SECRET not in str(caught.value)


def test_a_malformed_provider_value_leaves_the_other_sections_usable(
    config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memtab.writer.config import load_writer_settings

    _write(config, {"model": 42, "writer": {"max_dumps": 9}})
    monkeypatch.setenv("MEMTAB_CONFIG_DIR", str(config))
    with pytest.raises(SettingsFileError, match="'model' must be a string, not 42"):
        resolve_provider_settings()
    assert load_writer_settings().max_dumps == 9


def test_saving_a_section_keeps_its_keys_this_version_does_not_know(config: Path) -> None:
    _write(config, {"writer": {"max_dumps": 9, "future_knob": [1, 2]}, "theme": "dark"})
    save_settings_section("writer", {"max_dumps": 3}, env=_env(config))
    stored = json.loads((config / "settings.json").read_text())
    assert stored == {"writer": {"max_dumps": 3, "future_knob": [1, 2]}, "theme": "dark"}


def test_a_form_stands_for_its_own_values_and_the_resolvers_key(config: Path) -> None:
    """The form's provider, model and base URL (blank: the provider's defaults), not the
    environment's; its key in the resolver's order: $MEMTAB_API_KEY (unless
    $MEMTAB_PROVIDER names another provider), the key typed, the one saved for this
    provider and host, then the provider's own variable (its official API only)."""
    env = _env(config, ANTHROPIC_API_KEY="sk-ant-env-0123456789")
    blank = form_settings("anthropic", " ", "", env=env)
    assert (blank.model, blank.base_url) == ("claude-sonnet-4-5", "https://api.anthropic.com")
    assert (blank.api_key, blank.api_key_env) == ("sk-ant-env-0123456789", "ANTHROPIC_API_KEY")
    assert form_settings("anthropic", "m", " / ", env=env).base_url == "https://api.anthropic.com"
    overridden = {**env, "MEMTAB_MODEL": "env-model", "MEMTAB_BASE_URL": "https://env.test"}
    own = form_settings("anthropic", "", "https://proxy.test//", env=overridden)
    assert (own.model, own.base_url) == ("claude-sonnet-4-5", "https://proxy.test")
    assert (own.api_key, own.withheld_key_env) == (None, "ANTHROPIC_API_KEY")
    assert own.saved_key_origins == ()
    saved = form_settings("anthropic", "m", "https://proxy.test/", saved_key="kept", env=env)
    assert (saved.api_key, saved.api_key_env, saved.base_url) == (
        "kept",
        None,
        "https://proxy.test",
    )
    typed = form_settings("anthropic", "m", "", typed_key=" typed ", saved_key="kept", env=env)
    assert (typed.api_key, typed.api_key_env) == ("typed", None)
    memtab = form_settings(
        "anthropic", "m", "", typed_key="typed", env={**env, "MEMTAB_API_KEY": "mk"}
    )
    assert (memtab.api_key, memtab.api_key_env) == ("mk", "MEMTAB_API_KEY")
    for named in ("openai", "bogus"):
        other = {**env, "MEMTAB_API_KEY": "mk", "MEMTAB_PROVIDER": named}
        assert form_settings("anthropic", "m", "", typed_key="typed", env=other).api_key == "typed"
    same = {**env, "MEMTAB_API_KEY": "mk", "MEMTAB_PROVIDER": " Anthropic "}
    assert form_settings("anthropic", "m", "", typed_key="typed", env=same).api_key == "mk"
    offline = form_settings(
        "offline", "", "", typed_key="typed", env={**env, "MEMTAB_API_KEY": "mk"}
    )
    assert (offline.provider, offline.api_key, offline.key_note()) == (
        "offline",
        None,
        "No model is called, so no key is used and nothing leaves this machine.",
    )


def test_the_saved_key_is_the_one_saved_for_that_provider(config: Path) -> None:
    env = _env(config)
    assert saved_key("anthropic", "", env) is None
    _write(config, {"provider": "Anthropic", "api_key": SECRET})
    assert saved_key("anthropic", "", env) == SECRET
    assert saved_key("anthropic", "https://api.anthropic.com/v1/", env) == SECRET
    assert saved_key("anthropic", "https://proxy.example", env) is None
    assert saved_key("openai", "", env) is None
    _write(config, {"provider": "anthropic", "api_key": 5})
    assert saved_key("anthropic", "", env) is None
