"""The key fields of a settings.json written by hand or by another program (docs/formats.md
§12.3, §15.1): which keys are read and for which place, the problem a command reports,
and the bytes a save writes — a value of the wrong type skipped, the rest kept, every
other field written back where it was. Pinned on the hand reader these replaced."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from memtab.fs.config.settings_file import SettingsFileError
from memtab.llm.settings import (
    ProviderSettings,
    resolve_provider_settings,
    save_provider_settings,
    saved_keys,
)

OBJECT_OF = '\'api_keys\' must be an object of {"<provider>": {"<https://host>": "<key>"}}'
LOCAL = "http://127.0.0.1:8099/v1"
SAVED_AS = {"provider": "openai", "model": "gpt-x", "base_url": LOCAL}


class Case(NamedTuple):
    document: dict[str, Any]
    keys: dict[tuple[str, str], str]
    """What a command reads (`saved_keys`): every key by place…"""
    unbound: tuple[str, str | None] | None
    """…and a top-level key written without a provider, with the file's base URL."""
    problem: str | None
    """What a command that resolves the settings reports (SettingsFileError)."""
    used: dict[str, tuple[str | None, tuple[str, ...]]]
    """The key each provider resolves to at its default host, and the hosts a key is
    saved for when none is used."""
    saved: dict[str, Any]
    """The file after the form saves openai at LOCAL without a key (`SAVED_AS`)."""


NOTHING: dict[str, tuple[str | None, tuple[str, ...]]] = {
    "openai": (None, ()),
    "anthropic": (None, ()),
}

CASES = {
    "empty": Case({}, {}, None, None, NOTHING, SAVED_AS),
    "keys not an object": Case({"api_keys": "x"}, {}, None, OBJECT_OF, {}, SAVED_AS),
    "keys a list": Case({"api_keys": []}, {}, None, OBJECT_OF, {}, SAVED_AS),
    "keys null": Case({"api_keys": None}, {}, None, None, NOTHING, SAVED_AS),
    "a provider's keys not an object": Case(
        {"api_keys": {"anthropic": "x", "openai": {"https://openrouter.ai": "k1"}}},
        {},
        None,
        OBJECT_OF,
        {},
        {"api_keys": {"openai": {"https://openrouter.ai": "k1"}}, **SAVED_AS},
    ),
    "a key not a string, blank, or for no host": Case(
        {
            "api_keys": {
                "openai": {
                    "https://openrouter.ai/api/v1": 5,
                    "http://127.0.0.1:8099": " k2 ",
                    "not a url": "k3",
                    "https://blank.example": "   ",
                }
            }
        },
        {},
        None,
        OBJECT_OF,
        {},
        {**SAVED_AS, "api_key": "k2"},  # the good one, trimmed, is the selection's now
    ),
    "names and hosts normalised": Case(
        {"api_keys": {" OpenAI ": {"HTTPS://OpenRouter.ai:443/x": "k"}}},
        {("openai", "https://openrouter.ai"): "k"},
        None,
        None,
        {"openai": (None, ("https://openrouter.ai",)), "anthropic": (None, ())},
        {"api_keys": {"openai": {"https://openrouter.ai": "k"}}, **SAVED_AS},
    ),
    "the same place twice: the later wins": Case(
        {
            "api_keys": {
                "openai": {"https://openrouter.ai": "k1"},
                "OpenAI": {"https://openrouter.ai/": "k2"},
            }
        },
        {("openai", "https://openrouter.ai"): "k2"},
        None,
        None,
        {"openai": (None, ("https://openrouter.ai",)), "anthropic": (None, ())},
        {"api_keys": {"openai": {"https://openrouter.ai": "k2"}}, **SAVED_AS},
    ),
    "a provider Memtab does not know": Case(
        {"api_keys": {"mistral": {"https://api.mistral.ai": "km"}}},
        {("mistral", "https://api.mistral.ai"): "km"},
        None,
        None,
        NOTHING,
        {"api_keys": {"mistral": {"https://api.mistral.ai": "km"}}, **SAVED_AS},
    ),
    "the selection's key wins over a stale copy": Case(
        {
            "provider": "anthropic",
            "api_key": " ka ",
            "api_keys": {"anthropic": {"https://api.anthropic.com": "stale"}},
        },
        {("anthropic", "https://api.anthropic.com"): "ka"},
        None,
        None,
        {"openai": (None, ()), "anthropic": ("ka", ())},
        {
            "provider": "openai",
            "api_keys": {"anthropic": {"https://api.anthropic.com": "ka"}},
            "model": "gpt-x",
            "base_url": LOCAL,
        },
    ),
    "a top-level key without a provider": Case(
        {"api_key": "ku"},
        {},
        ("ku", None),
        None,
        {"openai": ("ku", ()), "anthropic": ("ku", ())},
        {**SAVED_AS, "api_keys": {"openai": {"https://api.openai.com": "ku"}}},
    ),
    "a top-level key without a provider, with a base URL": Case(
        {"api_key": "ku", "base_url": "https://proxy.example/v1"},
        {},
        ("ku", "https://proxy.example/v1"),
        None,
        {"openai": ("ku", ()), "anthropic": ("ku", ())},
        {
            "base_url": LOCAL,
            "provider": "openai",
            "model": "gpt-x",
            "api_keys": {"openai": {"https://proxy.example": "ku"}},
        },
    ),
    "a provider not a string": Case(
        {"provider": 5, "api_key": "k"},
        {},
        None,
        "'provider' must be a string, not 5",
        {},
        {**SAVED_AS, "api_keys": {"openai": {"https://api.openai.com": "k"}}},
    ),
    "a blank provider": Case(
        {"provider": " ", "api_key": "k"},
        {},
        ("k", None),
        None,
        {"openai": ("k", ()), "anthropic": ("k", ())},
        {**SAVED_AS, "api_keys": {"openai": {"https://api.openai.com": "k"}}},
    ),
    # A key saved for a provider that has no default host, with no base URL, has no place:
    # it is not read, and a save does not write it back.
    "an unknown provider's key without a base URL": Case(
        {"provider": "bogus", "api_key": "k"}, {}, None, None, NOTHING, SAVED_AS
    ),
    "a key not a string": Case(
        {"provider": "openai", "api_key": 7}, {}, None, "'api_key' must be a string", {}, SAVED_AS
    ),
    "a blank key": Case(
        {"provider": "anthropic", "api_key": ""}, {}, None, None, NOTHING, SAVED_AS
    ),
    "a base URL not a string": Case(
        {"provider": "openai", "base_url": 5, "api_key": "k"},
        {},
        None,
        "'base_url' must be a string, not 5",
        {},
        {
            "provider": "openai",
            "base_url": LOCAL,
            "model": "gpt-x",
            "api_keys": {"openai": {"https://api.openai.com": "k"}},
        },
    ),
    "a base URL with no host": Case(
        {"provider": "openai", "base_url": "not a url", "api_key": "k"},
        {},
        None,
        None,
        {"anthropic": (None, ())},  # openai: the base URL is refused (test_llm_key_hosts)
        {"provider": "openai", "base_url": LOCAL, "model": "gpt-x"},
    ),
    "other fields kept where they are": Case(
        {
            "writer": {"max_dumps": 3},
            "api_keys": {"openai": {"https://openrouter.ai": "kr"}},
            "theme": "dark",
            "provider": "anthropic",
            "zzz": [1, {"a": None}],
            "api_key": "ka",
        },
        {
            ("anthropic", "https://api.anthropic.com"): "ka",
            ("openai", "https://openrouter.ai"): "kr",
        },
        None,
        None,
        {"openai": (None, ("https://openrouter.ai",)), "anthropic": ("ka", ())},
        {
            "writer": {"max_dumps": 3},
            "api_keys": {
                "anthropic": {"https://api.anthropic.com": "ka"},
                "openai": {"https://openrouter.ai": "kr"},
            },
            "theme": "dark",
            "provider": "openai",
            "zzz": [1, {"a": None}],
            "model": "gpt-x",
            "base_url": LOCAL,
        },
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES)
def test_what_a_settings_file_holds_is_read_and_saved_as_before(tmp_path: Path, case: Case) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(case.document), encoding="utf-8")
    env = {"MEMTAB_CONFIG_DIR": str(tmp_path)}

    read = saved_keys(env)
    assert dict(read.keys) == case.keys
    assert (None if read.unbound is None else (read.unbound, read.unbound_base_url)) == (
        case.unbound
    )
    for provider, (key, origins) in case.used.items():
        resolved = resolve_provider_settings(provider, env=env)
        assert (resolved.api_key, resolved.saved_key_origins) == (key, origins)
    if case.problem is not None:
        with pytest.raises(SettingsFileError) as caught:
            resolve_provider_settings(env=env)
        assert str(caught.value) == f"the settings file {path}: {case.problem}"

    save_provider_settings(ProviderSettings("openai", "gpt-x", LOCAL), env=env)
    written = json.dumps(case.saved, indent=2, ensure_ascii=False) + "\n"
    assert path.read_bytes() == written.encode()
