"""A settings change as news: which sections of settings.json changed and what it holds now,
published on the window's context (`WindowContext.settings`) as changes on disk are, so
each feature applies what it holds at once (docs/formats.md §15.1)."""

import enum
from collections.abc import Mapping
from typing import Any

from memtab.fs.slotted import Slotted


class SettingsSection(enum.StrEnum):
    """A part of settings.json a feature follows."""

    MODEL = "model"  # The provider, model, base URL and keys (the top-level keys).
    WRITER = "writer"
    CONSOLIDATION = "consolidation"
    SOURCES = "sources"
    HISTORY = "history"
    CHECK = "check"
    OTHER = "other"  # A key no section above names.


# llm.settings_model's `ProviderSection` (the first paint loads no llm; a test holds them equal).
_MODEL_KEYS = frozenset({"provider", "model", "base_url", "api_key", "api_keys", "unused_keys"})
_MODEL_KEYS |= {"request_timeout_s", "max_tokens"}  # the request's and the reply's limits
_SECTIONS = {section.value: section for section in SettingsSection if section.value != "model"}


def section_of(key: str) -> SettingsSection:
    """The section a top-level key of settings.json belongs to."""
    if key in _MODEL_KEYS:
        return SettingsSection.MODEL
    return _SECTIONS.get(key, SettingsSection.OTHER)


class SettingsChange(Slotted):
    """What changed in settings.json, and what it holds now."""

    __slots__ = ("sections", "settings")

    sections: frozenset[SettingsSection]
    settings: Mapping[str, Any]  # The file as it is now (empty when it could not be read).

    def __init__(self, sections: frozenset[SettingsSection], settings: Mapping[str, Any]) -> None:
        self.sections = sections
        self.settings = settings

    def touches(self, *sections: SettingsSection) -> bool:
        """Whether any of `sections` changed."""
        return not self.sections.isdisjoint(sections)

    def section(self, name: str) -> Any:
        """The value of section `name` now (None when absent)."""
        return self.settings.get(name)


def settings_change(
    before: Mapping[str, Any] | None, after: Mapping[str, Any] | None
) -> SettingsChange:
    """The change from `before` to `after` (None: a reading that failed — everything counts
    as changed, since what was or is there is unknown)."""
    if before is None or after is None:
        return SettingsChange(frozenset(SettingsSection), dict(after or {}))
    keys = before.keys() | after.keys()
    changed = frozenset(section_of(key) for key in keys if before.get(key) != after.get(key))
    return SettingsChange(changed, dict(after))
