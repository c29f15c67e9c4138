"""How long one model request may take and how long its reply may be."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from memtab.llm.endpoints import is_loopback_host, url_host

REQUEST_TIMEOUT_KEY = "request_timeout_s"
MAX_TOKENS_KEY = "max_tokens"
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
    """What a job asks of each of its requests: a name for messages, its reply limit unless
    settings.json sets one, and what its replies are (`Structured`; None: left to the model)."""

    name: str
    max_tokens: int
    structured: Structured | None = None


# The jobs that call a model, in one place (doctor shows their limits). The writer's every
# reply is a call: a note or two, the whole file at worst. Consolidate now's are calls (a
# whole file with `create` at most) and a summary.
WRITER_JOB = ModelJob("the writer", 2048, "calls")
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
