"""The provider keys of settings.json as a record: what each may hold, once.

`provider`, `model`, `base_url`, `api_key` and `api_keys` (the keys saved for other
providers and hosts, `saved_keys.py`) sit at the top of the file, beside the other
sections (`writer`, `sources`…), which this record ignores. Unlike a writer setting, a bad
provider value is an error, not a default: falling back to the official base URL or
another provider would send memories somewhere the user did not choose.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from memtab.fs.config.settings_file import SettingsFileError
from memtab.fs.records import Key, Record


class ProviderSection(Record):
    """The provider keys of settings.json (docs/formats.md §15.1; snake_case keys); each is
    optional, blank counts as unset (see `settings._clean`)."""

    provider: str | None = None
    model: str | None = None
    base_url: Annotated[str | None, Key("base_url")] = None
    api_key: Annotated[str | None, Key("api_key")] = None
    api_keys: Annotated[dict[str, dict[str, str]] | None, Key("api_keys")] = None

    def __repr__(self) -> str:  # the keys stay out of logs and tracebacks
        return f"ProviderSection(provider={self.provider!r}, model={self.model!r}, …)"


# Values shown in messages, except where a key may hide in a malformed value.
_SECRET_FIELDS = frozenset({"api_key", "api_keys"})
_EXPECTED = {"api_keys": 'an object of {"<provider>": {"<https://host>": "<key>"}}'}


def read_provider_section(document: dict[str, Any], path: Path) -> ProviderSection:
    """The provider keys of the settings file at `path`; SettingsFileError naming the file
    and the key when one is not a string."""
    problems = ProviderSection.read_problems(document)
    if not problems:
        return ProviderSection.read_or_raise(document)
    key = str(problems[0].where[0])
    shown = "" if key in _SECRET_FIELDS else f", not {document.get(key)!r}"
    expected = _EXPECTED.get(key, "a string")
    raise SettingsFileError(f"the settings file {path}: '{key}' must be {expected}{shown}")
