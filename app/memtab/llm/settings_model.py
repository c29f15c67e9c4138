"""The provider keys of settings.json as a record: what each may hold, once."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from memtab.fs.config.declared import Setting
from memtab.fs.config.settings_file import SettingsFileError
from memtab.fs.records import Key, OmitNone, OrNone, Record, ValidEntries, ValidItems
from memtab.llm.endpoints import is_loopback_host, url_host

REQUEST_TIMEOUT_KEY = "request_timeout_s"
LOCAL_REQUEST_TIMEOUT_S = 1800.0
REMOTE_REQUEST_TIMEOUT_S = 300.0
MOST_REQUEST_TIMEOUT_S = 24 * 3600.0
MOST_MAX_TOKENS = 1_000_000
REQUEST_TIMEOUT_HINT = f"{REQUEST_TIMEOUT_KEY} in settings.json raises it"


Structured = Literal["calls", "calls or answer"]
"""What a job's replies are, asked by JSON schema of a server on this machine that can
(`llm.openai`): each a tool call (the writer's), or a tool call until a final
answer in words (Consolidate now's)."""


@dataclass(frozen=True)
class ModelJob:
    """What a job asks of its requests: a name, its reply limit, its replies' shape."""

    name: str
    max_tokens: int
    structured: Structured | None = None
    fresh_prompt: bool = False
    """Its one request a run read whole by a server on this machine, never from its cache:
    the same session, the same answer (`OpenAIProvider.fresh_prompt`)."""


# The jobs that call a model, in one place (doctor shows their limits). The writer's every
# reply is a call: a note or two, the whole file at worst. Consolidate now's are calls (a
# whole file with `create` at most) and a summary.
WRITER_JOB = ModelJob("the writer", 2048, "calls", fresh_prompt=True)
CONSOLIDATION_JOB = ModelJob("Consolidate now", 4096, "calls or answer")


def is_local(base_url: str) -> bool:
    """Whether the model server is on this machine."""
    return is_loopback_host(url_host(base_url))


def default_request_timeout(base_url: str) -> float:
    """The request limit when settings.json sets none: generous for a server here."""
    return LOCAL_REQUEST_TIMEOUT_S if is_local(base_url) else REMOTE_REQUEST_TIMEOUT_S


def request_timeout_problem(value: float) -> str | None:
    """Why `value` cannot be a request limit, or None."""
    if not 0 < value <= MOST_REQUEST_TIMEOUT_S:
        return f"must be more than 0 and at most {MOST_REQUEST_TIMEOUT_S:g} seconds"
    return None


def max_tokens_problem(value: int) -> str | None:
    """Why `value` cannot be a reply limit, or None."""
    if not 1 <= value <= MOST_MAX_TOKENS:
        return f"must be a whole number from 1 to {MOST_MAX_TOKENS}"
    return None


SavedKeysByPlace = ValidEntries[dict[str, ValidEntries[dict[str, str]]]]
"""`{"<provider>": {"<origin>": "<key>"}}`: a provider's keys that are not an object read
as none, a key that is not a string as absent."""


class UnusedKey(Record):
    """One of settings.json's `unused_keys` (docs/formats.md §15.1): a top-level key a save
    set aside because Memtab could not place it, with the top-level `provider` and
    `base_url` it was written with, each as written (absent: not written)."""

    provider: Annotated[OrNone[str], OmitNone] = None
    base_url: Annotated[OrNone[str], OmitNone, Key("base_url")] = None
    api_key: Annotated[str, Key("api_key")]

    def __repr__(self) -> str:  # the key stays out of logs and tracebacks
        return f"UnusedKey(provider={self.provider!r}, base_url={self.base_url!r}, …)"


UnusedKeys = ValidItems[tuple[UnusedKey, ...]]
"""`[{"provider", "base_url", "api_key"}, …]`: an item that is no such object is skipped."""


class ProviderSection(Record):
    """settings.json's provider keys (docs/formats.md §15.1); blank counts as unset. The model
    form's controls are made from the `Setting`s (gui/settings/dialog.py, `SectionBox`)."""

    provider: Annotated[
        OrNone[str],
        Setting(
            "provider",
            "&Provider:",
            "",
            choices={
                "offline": "Offline — Memtab's built-in rules, no model",
                "anthropic": "Anthropic (Claude)",
                "openai": "OpenAI-compatible (OpenAI, Ollama, llama.cpp, vLLM, LM Studio, "
                "OpenRouter)",
            },
            title="Model provider",
        ),
    ] = None
    model: Annotated[OrNone[str], Setting("model", "&Model:", "")] = None
    base_url: Annotated[OrNone[str], Setting("base_url", "&Base URL:", "")] = None
    api_key: Annotated[OrNone[str], Key("api_key")] = None
    # A union reads left to right: null stays null, anything else reads as the entries.
    api_keys: Annotated[None | SavedKeysByPlace, Key("api_keys")] = None  # noqa: RUF036
    # Read for what the user is told only: a save appends to the list as it is on disk.
    unused_keys: Annotated[None | UnusedKeys, Key("unused_keys")] = None  # noqa: RUF036
    request_timeout_s: Annotated[OrNone[float], Key("request_timeout_s")] = None
    max_tokens: Annotated[OrNone[int], Key("max_tokens")] = None

    def __repr__(self) -> str:  # the keys stay out of logs and tracebacks
        return f"ProviderSection(provider={self.provider!r}, model={self.model!r}, …)"


# Values shown in messages, except where a key may hide in a malformed value.
_SECRET_FIELDS = frozenset({"api_key", "api_keys"})
# Nothing there is ever sent, so nothing there is a reason to refuse a command.
_UNCHECKED_FIELDS = frozenset({"unused_keys"})
_EXPECTED = {
    "api_keys": 'an object of {"<provider>": {"<https://host>": "<key>"}}',
    "request_timeout_s": "a number of seconds",
    "max_tokens": "a whole number",
}


def provider_section(document: dict[str, Any]) -> ProviderSection:
    """The provider keys of a settings document, read leniently (what a save keeps)."""
    return ProviderSection.read_or_raise(document)  # every field reads: never raises


def read_provider_section(document: dict[str, Any], path: Path) -> ProviderSection:
    """The provider keys of the settings file at `path`, as the file says them;
    SettingsFileError naming the file and the first key whose value the record could not
    take as it is (not a string; `api_keys` not an object of objects of strings)."""
    section = provider_section(document)
    for key, value in section.to_json().items():  # in declared order
        if key in document and key not in _UNCHECKED_FIELDS and document[key] != value:
            shown = "" if key in _SECRET_FIELDS else f", not {document[key]!r}"
            expected = _EXPECTED.get(key, "a string")
            raise SettingsFileError(f"the settings file {path}: '{key}' must be {expected}{shown}")
    timeout, tokens = section.request_timeout_s, section.max_tokens
    problems = (
        ("request_timeout_s", None if timeout is None else request_timeout_problem(timeout)),
        ("max_tokens", None if tokens is None else max_tokens_problem(tokens)),
    )
    for key, problem in problems:
        if problem is not None:
            raise SettingsFileError(
                f"the settings file {path}: '{key}' {problem}, not {document[key]!r}"
            )
    return section
