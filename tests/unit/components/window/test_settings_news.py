"""components.window.settings_news: which sections of settings.json a save changed."""

from __future__ import annotations

from typing import Any

import pytest

from memtab.components.window.settings_news import SettingsSection, section_of, settings_change
from memtab.llm.settings_model import ProviderSection

S = SettingsSection
SAVED: dict[str, Any] = {
    "provider": "anthropic",
    "model": "claude-sonnet-4-5",
    "writer": {"mode": "auto", "notify": False},
    "consolidation": {"review": "review-first"},
    "sources": {"codex": {"enabled": True, "path": None}},
}


@pytest.mark.parametrize(
    ("after", "sections"),
    [
        pytest.param(SAVED, set(), id="saved unchanged: no news"),
        pytest.param({**SAVED, "model": "claude-opus-4"}, {S.MODEL}, id="the model"),
        pytest.param({**SAVED, "api_keys": {"openai": {}}}, {S.MODEL}, id="a key"),
        pytest.param(
            {**SAVED, "request_timeout_s": 60, "max_tokens": 512},
            {S.MODEL},
            id="the model's limits: what Ask the model reads again",
        ),
        pytest.param(
            {**SAVED, "writer": {"mode": "off", "notify": False}}, {S.WRITER}, id="the writer"
        ),
        pytest.param(
            {**SAVED, "sources": {"codex": {"enabled": False, "path": None}}, "check": {}},
            {S.SOURCES, S.CHECK},
            id="two sections",
        ),
        pytest.param({**SAVED, "future": 1}, {S.OTHER}, id="a key no section names"),
        pytest.param(
            {k: v for k, v in SAVED.items() if k != "consolidation"},
            {S.CONSOLIDATION},
            id="a section taken out",
        ),
    ],
)
def test_a_save_names_the_sections_it_changed(
    after: dict[str, Any], sections: set[SettingsSection]
) -> None:
    change = settings_change(SAVED, after)
    assert change.sections == sections
    assert change.section("writer") == after.get("writer")


def test_a_file_that_could_not_be_read_counts_as_every_section_changed() -> None:
    assert settings_change(None, SAVED).sections == set(SettingsSection)
    unread = settings_change(SAVED, None)
    assert unread.touches(S.WRITER, S.SOURCES) and unread.section("writer") is None


def test_every_key_the_provider_section_declares_is_news_of_the_model() -> None:
    keys = [declared.key for declared in ProviderSection.fields()]
    assert [key for key in keys if section_of(key) is not S.MODEL] == []
