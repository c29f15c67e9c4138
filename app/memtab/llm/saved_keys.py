"""The API keys settings.json holds, each for the provider and host it was given for
(docs/formats.md §12.3, §15.1).

A key typed for Anthropic is Anthropic's, at the host it was typed with: switching the
provider or the base URL never carries it somewhere else. A key's place is its provider
and the origin of the base URL it was saved with (`endpoints.key_origin`,
`scheme://host[:port]`). On disk:

- `api_key` (top level, as every Memtab has written it) is the key of the top-level
  `provider` at the top-level `base_url`, or that provider's default base URL. An older
  Memtab reads it too, and sends it where it always did. Written without a `provider`
  (by hand), it belongs to whichever provider is chosen, at the file's base URL or that
  provider's default.
- `api_keys`, `{"<provider>": {"<origin>": "<key>"}}`, holds every other place a key was
  saved for. A save moves the old selection's key in here and the new selection's key
  out to `api_key`, so each key is stored once.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from memtab.llm.endpoints import DEFAULT_BASE_URLS, key_origin
from memtab.llm.settings_model import ProviderSection

KEYS_SECTION = "api_keys"
KeyPlace = tuple[str, str]
"""(provider, origin): where a key was given for."""


def configured(value: str | None) -> str | None:
    """A configured string value, or None when unset or blank."""
    return value.strip() or None if value is not None else None


def place_of(provider: str, base_url: str | None) -> KeyPlace | None:
    """The place of a key given for `provider` at `base_url` (blank: the provider's
    default), or None when it has none (offline, a URL without a host)."""
    name = provider.strip().lower()
    url = configured(base_url) or DEFAULT_BASE_URLS.get(name)
    origin = key_origin(url) if url else ""
    return (name, origin) if origin else None


@dataclass(frozen=True)
class SavedKeys:
    """The keys of a settings file by place, and a top-level key written without a
    provider (`unbound`: it goes with whichever provider is chosen, at `unbound_base_url`
    or that provider's default)."""

    keys: Mapping[KeyPlace, str] = field(default_factory=dict, repr=False)
    unbound: str | None = field(default=None, repr=False)
    unbound_base_url: str | None = None

    @classmethod
    def of(cls, section: ProviderSection) -> SavedKeys:
        """The keys of a settings file's provider section (read leniently: what is not a
        string is not there); a blank key, or one for no host, is skipped."""
        keys: dict[KeyPlace, str] = {}
        for provider, by_origin in (section.api_keys or {}).items():
            for origin, key in by_origin.items():
                cleaned, where = configured(key), key_origin(origin)
                if cleaned and where:
                    keys[(provider.strip().lower(), where)] = cleaned
        top_key, top_provider = configured(section.api_key), configured(section.provider)
        base_url = configured(section.base_url)
        if top_key is None:
            return cls(keys)
        if top_provider is None:
            return cls(keys, top_key, base_url)
        place = place_of(top_provider, base_url)
        if place is not None:
            keys[place] = top_key  # the selection's own key wins over a stale copy
        return cls(keys)

    def without(self, places: Collection[KeyPlace]) -> SavedKeys:
        """These keys but those saved for `places` (the unbound one too, when it would
        go to one of them)."""
        if not places:
            return self
        kept = {place: key for place, key in self.keys.items() if place not in places}
        unbound = self.unbound
        if unbound is not None and any(
            place == place_of(place[0], self.unbound_base_url) for place in places
        ):
            unbound = None
        return replace(self, keys=kept, unbound=unbound)

    def key_for(self, provider: str, base_url: str) -> str | None:
        """The key saved for `provider` at `base_url`'s origin, or None."""
        place = place_of(provider, base_url)
        if place is None:
            return None
        if place in self.keys:
            return self.keys[place]
        if self.unbound is not None and place == place_of(provider, self.unbound_base_url):
            return self.unbound
        return None

    def origins(self, provider: str) -> frozenset[str]:
        """Every origin a key is saved for with `provider` (never the keys themselves)."""
        name = provider.strip().lower()
        found = {origin for (saved, origin) in self.keys if saved == name}
        unbound = place_of(name, self.unbound_base_url) if self.unbound else None
        if unbound is not None:
            found.add(unbound[1])
        return frozenset(found)

    def bound(self, provider: str) -> dict[KeyPlace, str]:
        """Every key by place, the unbound one given to `provider` (a save names one)."""
        keys = dict(self.keys)
        place = place_of(provider, self.unbound_base_url) if self.unbound else None
        if place is not None and self.unbound is not None:
            keys.setdefault(place, self.unbound)
        return keys


def store_keys(
    document: dict[str, Any],
    saved: SavedKeys,
    provider: str,
    base_url: str,
    new_keys: Mapping[KeyPlace, str],
) -> None:
    """Write the key fields of a settings `document` being saved with `provider` at
    `base_url`: `saved` (read from the document before this save) plus `new_keys`, the
    selection's key at the top level and the others under `api_keys`."""
    keys = saved.bound(provider)
    keys.update({place: key for place, key in new_keys.items() if configured(key)})
    document.pop("api_key", None)
    here = place_of(provider, base_url) if provider != "offline" else None
    if here is not None and here in keys:
        document["api_key"] = keys.pop(here)
    nested: dict[str, dict[str, str]] = {}
    for (name, origin), key in sorted(keys.items()):
        nested.setdefault(name, {})[origin] = key
    if nested:
        document[KEYS_SECTION] = nested
    else:
        document.pop(KEYS_SECTION, None)
