"""The key fields of a settings.json written by hand or by another program (docs/formats.md
§12.3, §15.1): which keys are read and for which place, the problem a command reports,
what the Settings dialog and the doctor say of a key with no place, and the bytes a save
writes — a value of the wrong type skipped, the rest kept, a key with no place kept as
written (never sent), every other field written back where it was."""

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
    unused_key_problems,
)

OBJECT_OF = '\'api_keys\' must be an object of {"<provider>": {"<https://host>": "<key>"}}'
LOCAL = "http://127.0.0.1:8099/v1"
PROXY = "https://proxy.example/v1"
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
    unplaced: tuple[str, ...] = ()
    """What the dialog and the doctor say of the keys with no place, before the save."""


FIX = "Fix or remove it in {path}."
NO_HOST = "is not a URL with a host (scheme://host)"
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
        # The good one, trimmed, is the selection's now; the one for no host stays put.
        {"api_keys": {"openai": {"not a url": "k3"}}, **SAVED_AS, "api_key": "k2"},
        (f"The key under api_keys for 'openai' is not used: its origin {NO_HOST}. {FIX}",),
    ),
    "a key for no host, as written": Case(
        {"api_keys": {" OpenAI ": {"https://openrouter.ai": "k", "openrouter.ai": " k2 "}}},
        {("openai", "https://openrouter.ai"): "k"},
        None,
        None,
        {"openai": (None, ("https://openrouter.ai",)), "anthropic": (None, ())},
        {
            "api_keys": {
                " OpenAI ": {"openrouter.ai": " k2 "},
                "openai": {"https://openrouter.ai": "k"},
            },
            **SAVED_AS,
        },
        (f"The key under api_keys for ' OpenAI ' is not used: its origin {NO_HOST}. {FIX}",),
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
    # it is never sent, and a save for another provider sets it aside as written.
    "an unknown provider's key without a base URL": Case(
        {"provider": "bogus", "api_key": " k "},
        {},
        None,
        None,
        NOTHING,
        {**SAVED_AS, "unused_keys": [{"provider": "bogus", "api_key": " k "}]},
        (
            "The key saved for 'bogus' is not used: Memtab knows no provider 'bogus', and no "
            f"base URL says where the key goes. {FIX}",
        ),
    ),
    "offline's key": Case(
        {"provider": "offline", "api_key": "k"},
        {},
        None,
        None,
        NOTHING,
        {**SAVED_AS, "unused_keys": [{"provider": "offline", "api_key": "k"}]},
        (f"The key saved for 'offline' is not used: offline calls no model. {FIX}",),
    ),
    "a top-level key without a provider, with a base URL with no host": Case(
        {"api_key": "ku", "base_url": "not a url"},
        {},
        None,
        None,
        {},  # the base URL is refused for either
        {
            "base_url": LOCAL,
            "provider": "openai",
            "model": "gpt-x",
            "unused_keys": [{"base_url": "not a url", "api_key": "ku"}],
        },
        (f"The key saved without a provider is not used: its base URL has no host. {FIX}",),
    ),
    "keys set aside before, and one more": Case(
        {
            "unused_keys": [7, {"api_key": "k0"}, {"provider": "anthropic", "api_key": "k1"}],
            "provider": "bogus",
            "api_key": "k",
        },
        {},
        None,
        None,
        NOTHING,  # one under unused_keys is never sent, even where it could go
        {
            "unused_keys": [
                7,
                {"api_key": "k0"},
                {"provider": "anthropic", "api_key": "k1"},
                {"provider": "bogus", "api_key": "k"},
            ],
            **SAVED_AS,
        },
        (
            "The key saved for 'bogus' is not used: Memtab knows no provider 'bogus', and no "
            f"base URL says where the key goes. {FIX}",
            "The key under unused_keys is not used: Memtab never sends a key from there. Move "
            "it to api_keys under its provider and host, or remove it, in {path}.",
            "The key under unused_keys for 'anthropic' is not used: Memtab never sends a key "
            "from there. Move it to api_keys under its provider and host, or remove it, in "
            "{path}.",
        ),
    ),
    "unused keys that are no list": Case(
        {"unused_keys": {"k": "v"}, "provider": "bogus", "api_key": "k"},
        {},
        None,
        None,
        NOTHING,
        {"unused_keys": [{"k": "v"}, {"provider": "bogus", "api_key": "k"}], **SAVED_AS},
        (
            "The key saved for 'bogus' is not used: Memtab knows no provider 'bogus', and no "
            f"base URL says where the key goes. {FIX}",
        ),
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
        {
            "provider": "openai",
            "base_url": LOCAL,
            "model": "gpt-x",
            "unused_keys": [{"provider": "openai", "base_url": "not a url", "api_key": "k"}],
        },
        (f"The key saved for 'openai' is not used: its base URL has no host. {FIX}",),
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
def test_what_a_settings_file_holds_is_read_said_and_saved(tmp_path: Path, case: Case) -> None:
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
    said = tuple(note.format(path=path) for note in case.unplaced)
    assert unused_key_problems(env) == said
    if case.problem is not None:
        with pytest.raises(SettingsFileError) as caught:
            resolve_provider_settings(env=env)
        assert str(caught.value) == f"the settings file {path}: {case.problem}"

    save_provider_settings(ProviderSettings("openai", "gpt-x", LOCAL), env=env)
    written = json.dumps(case.saved, indent=2, ensure_ascii=False) + "\n"
    assert path.read_bytes() == written.encode()


def _set_aside(saved: dict[str, Any]) -> set[str]:
    """The keys a saved file holds with no place: under `unused_keys`, and under `api_keys`
    for an origin with no scheme://host."""
    listed = [entry for entry in saved.get("unused_keys", []) if isinstance(entry, dict)]
    aside = {entry["api_key"] for entry in listed if "api_key" in entry}
    for by_origin in saved.get("api_keys", {}).values():
        aside |= {key for origin, key in by_origin.items() if "://" not in origin}
    return aside


UNPLACED = {name: case for name, case in CASES.items() if case.unplaced}


@pytest.mark.parametrize("case", UNPLACED.values(), ids=UNPLACED)
def test_a_key_with_no_place_is_sent_nowhere_before_or_after_a_save(
    tmp_path: Path, case: Case
) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(case.document), encoding="utf-8")
    env = {"MEMTAB_CONFIG_DIR": str(tmp_path)}
    aside = _set_aside(case.saved)
    aside |= {key.strip() for key in aside}
    assert aside

    def sent() -> set[str | None]:
        """The keys requests would carry, to either provider at any host (the command
        line's base URL: the file's may be refused)."""
        return {
            resolve_provider_settings(provider, base_url=url, env=env).api_key
            for provider in ("anthropic", "openai")
            for url in ("https://api.anthropic.com", "https://api.openai.com/v1", LOCAL, PROXY)
        }

    if case.problem is None:  # else nothing is sent: the file is refused
        assert not sent() & aside
    save_provider_settings(ProviderSettings("openai", "gpt-x", LOCAL), env=env)
    assert not sent() & aside
    assert not set(saved_keys(env).keys.values()) & aside


def test_offline_saved_again_keeps_its_key_where_it_was(tmp_path: Path) -> None:
    """A save that leaves the provider and base URL a key with no place was written with
    has no need of its spot: it stays there, as written."""
    path = tmp_path / "settings.json"
    document = {"theme": "dark", "provider": "offline", "api_key": " k ", "model": "offline"}
    path.write_text(json.dumps(document), encoding="utf-8")
    env = {"MEMTAB_CONFIG_DIR": str(tmp_path)}
    save_provider_settings(ProviderSettings("offline", "offline", ""), env=env)
    assert json.loads(path.read_text()) == document
    assert unused_key_problems(env) == (
        f"The key saved for 'offline' is not used: offline calls no model. "
        f"Fix or remove it in {path}.",
    )
