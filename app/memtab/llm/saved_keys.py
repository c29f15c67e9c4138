"""The API keys settings.json holds, each for the provider and host it was given for
(docs/formats.md §12.3, §15.1). A key typed for Anthropic is Anthropic's, at the host it was typed
with: switching the provider or the base URL never carries it somewhere else."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from memtab.llm.endpoints import DEFAULT_BASE_URLS, key_origin
from memtab.llm.settings_model import ProviderSection, UnusedKey

KEYS_SECTION = "api_keys"
UNUSED_SECTION = "unused_keys"
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
class KeptKey:
    """An `api_keys` entry whose origin has no host, as written: never sent, kept."""

    provider: str
    origin: str = field(repr=False)  # a key pasted in the wrong spot may be here
    key: str = field(repr=False)


def _why_unplaced(provider: str | None, base_url: str | None) -> str:
    """Why a top-level key given for `provider` (None: none named) at `base_url` has no place."""
    if configured(base_url) is not None or provider is None:
        return "its base URL has no host"
    if provider.strip().lower() == "offline":
        return "offline calls no model"
    return f"Memtab knows no provider {provider!r}, and no base URL says where the key goes"


@dataclass(frozen=True)
class SavedKeys:
    """The keys of a settings file by place, and a top-level key written without a provider
    (`unbound`: it goes with whichever provider is chosen, at `unbound_base_url` or that provider's
    default)."""

    keys: Mapping[KeyPlace, str] = field(default_factory=dict, repr=False)
    unbound: str | None = field(default=None, repr=False)
    unbound_base_url: str | None = None
    top: UnusedKey | None = None
    kept: tuple[KeptKey, ...] = ()
    unused: tuple[UnusedKey, ...] = ()

    @classmethod
    def of(cls, section: ProviderSection) -> SavedKeys:
        """The keys of a settings file's provider section (read leniently: what is not a
        string is not there); a blank key is none, one with no place is kept aside."""
        keys: dict[KeyPlace, str] = {}
        kept: list[KeptKey] = []
        for provider, by_origin in (section.api_keys or {}).items():
            for origin, key in by_origin.items():
                cleaned, where = configured(key), key_origin(origin)
                if cleaned and where:
                    keys[(provider.strip().lower(), where)] = cleaned
                elif cleaned:
                    kept.append(KeptKey(provider, origin, key))
        unused = section.unused_keys or ()
        top_key, top_provider = configured(section.api_key), configured(section.provider)
        base_url = configured(section.base_url)
        if top_key is None:
            return cls(keys, kept=tuple(kept), unused=unused)
        top = UnusedKey(  # as written
            provider=section.provider, base_url=section.base_url, api_key=section.api_key or ""
        )
        if top_provider is None:
            if base_url is None or key_origin(base_url):
                return cls(keys, top_key, base_url, top, tuple(kept), unused)
        elif (place := place_of(top_provider, base_url)) is not None:
            keys[place] = top_key  # the selection's own key wins over a stale copy
        return cls(keys, top=top, kept=tuple(kept), unused=unused)

    def placed_top(self, provider: str | None = None) -> bool:
        """Whether the top-level key has a place: its own provider's, else (written
        without one) `provider`'s, the one a save names; any provider's for a read."""
        top = self.top
        if top is None:
            return True
        own = configured(top.provider)
        if own is not None:
            return place_of(own, top.base_url) is not None
        if self.unbound is None:
            return False
        return provider is None or place_of(provider, self.unbound_base_url) is not None

    def problems(self, file: str) -> tuple[str, ...]:
        """Each key the settings `file` (as the user is to read its name) holds that has no
        place, in one sentence: where it is and why it is not used (never the key)."""
        fix = f"Fix or remove it in {file}."
        found: list[str] = []
        top = self.top
        if top is not None and not self.placed_top():
            name = configured(top.provider)
            who = f"saved for {name!r}" if name else "saved without a provider"
            found.append(f"The key {who} is not used: {_why_unplaced(name, top.base_url)}. {fix}")
        found.extend(
            f"The key under api_keys for {entry.provider!r} is not used: its origin is not "
            f"a URL with a host (scheme://host). {fix}"
            for entry in self.kept
        )
        for entry in self.unused:
            name = configured(entry.provider)
            where = f"under unused_keys for {name!r}" if name else "under unused_keys"
            found.append(
                f"The key {where} is not used: Memtab never sends a key from there. Move it "
                f"to api_keys under its provider and host, or remove it, in {file}."
            )
        return tuple(found)

    def without(self, places: Collection[KeyPlace]) -> SavedKeys:
        """These keys but those saved for `places` (the unbound one too, when it would
        go to one of them)."""
        if not places:
            return self
        kept = {place: key for place, key in self.keys.items() if place not in places}
        if self.unbound is not None and any(
            place == place_of(place[0], self.unbound_base_url) for place in places
        ):
            return replace(self, keys=kept, unbound=None, top=None)
        return replace(self, keys=kept)

    def key_for(self, provider: str, base_url: str) -> str | None:
        """The key saved for `provider` at `base_url`'s origin, or None."""
        place = place_of(provider, base_url)
        return self.bound(provider).get(place) if place is not None else None

    def origins(self, provider: str) -> frozenset[str]:
        """Every origin a key is saved for with `provider` (never the keys themselves)."""
        name = provider.strip().lower()
        return frozenset(origin for (saved, origin) in self.bound(name) if saved == name)

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
    """Write the key fields of a settings `document` being saved with `provider` at `base_url`:
    `saved` (read from the document before this save) plus `new_keys`, the selection's key at the
    top level and the others under `api_keys`."""
    keys = saved.bound(provider)
    keys.update({place: key for place, key in new_keys.items() if configured(key)})
    document.pop("api_key", None)
    here = place_of(provider, base_url) if provider != "offline" else None
    aside = saved.top if not saved.placed_top(provider) else None
    if here is not None and here in keys:
        document["api_key"] = keys.pop(here)
    elif aside is not None and _same_selection(aside, provider, base_url):
        document["api_key"] = aside.api_key
        aside = None
    if aside is not None:
        _set_aside(document, aside)
    nested: dict[str, dict[str, str]] = {}
    placed = [(name, origin, key) for (name, origin), key in keys.items()]
    kept = [(entry.provider, entry.origin, entry.key) for entry in saved.kept]
    for name, origin, key in sorted(placed + kept):
        nested.setdefault(name, {})[origin] = key
    if nested:
        document[KEYS_SECTION] = nested
    else:
        document.pop(KEYS_SECTION, None)


def _same_selection(top: UnusedKey, provider: str, base_url: str) -> bool:
    """Whether a save of `provider` at `base_url` leaves the top-level key `top` was
    written with where it was: the same provider and base URL (blanks as unset)."""
    own = configured(top.provider)
    same_provider = own is not None and own.lower() == provider
    return same_provider and configured(top.base_url) == configured(base_url)


def _set_aside(document: dict[str, Any], top: UnusedKey) -> None:
    """Append `top` to the document's `unused_keys`, keeping whatever the list holds."""
    entry = top.to_json()
    found = document.get(UNUSED_SECTION)
    listed = found if isinstance(found, list) else [] if found is None else [found]
    if entry not in listed:
        listed.append(entry)
    document[UNUSED_SECTION] = listed
