"""The provider keys of settings.json as a pydantic model: what each may hold, once.

`provider`, `model`, `base_url`, `api_key` and `api_keys` (the keys saved for other
providers and hosts, `saved_keys.py`) sit at the top of the file, beside the other
sections (`writer`, `sources`…), which this model ignores. Unlike a writer setting, a bad
provider value is an error, not a default: falling back to the official base URL or
another provider would send memories somewhere the user did not choose.

This module imports pydantic (about 0.1 s): it is loaded where a provider is resolved or
the Settings dialog opens, never on the way to the window's first paint.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memtab.fs.pydantic_once import BaseModel, ConfigDict, Field, ValidationError
from memtab.llm.types import ProviderError


class ProviderSection(BaseModel):
    """The provider keys; each is optional, blank counts as unset (see `settings._clean`)."""

    model_config = ConfigDict(strict=True, frozen=True, extra="ignore", protected_namespaces=())

    provider: str | None = None
    model: str | None = None
    base_url: str | None = None
    api_key: str | None = Field(default=None, repr=False)
    api_keys: dict[str, dict[str, str]] | None = Field(default=None, repr=False)


# Values shown in messages, except where a key may hide in a malformed value.
_SECRET_FIELDS = frozenset({"api_key", "api_keys"})
_EXPECTED = {"api_keys": 'an object of {"<provider>": {"<https://host>": "<key>"}}'}


def read_provider_section(document: dict[str, Any], path: Path) -> ProviderSection:
    """The provider keys of the settings file at `path`; ProviderError("config") naming the
    file and the key when one is not a string."""
    try:
        return ProviderSection.model_validate(document)
    except ValidationError as error:
        key = str(error.errors()[0]["loc"][0])
        shown = "" if key in _SECRET_FIELDS else f", not {document.get(key)!r}"
        expected = _EXPECTED.get(key, "a string")
        raise ProviderError(
            "config", f"the settings file {path}: '{key}' must be {expected}{shown}"
        ) from None
