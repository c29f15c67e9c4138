"""Redaction against the secrets developers actually paste into a coding agent's session.

Each leak is (context before, secret, context after) as it shows up in a transcript: the
secret must be gone, the context kept. Each look-alike must come through unchanged.
"""

from __future__ import annotations

import json

import pytest

from memtab.redact import REDACTED, redact_json, redact_secrets
from support.leaks import B64, LEAKS, LOOK_ALIKES


@pytest.mark.parametrize(("before", "secret", "after"), LEAKS.values(), ids=list(LEAKS))
def test_each_leak_is_redacted_and_its_context_kept(before: str, secret: str, after: str) -> None:
    redacted = redact_secrets(before + secret + after)
    assert redacted == before + REDACTED + after
    assert redact_secrets(redacted) == redacted, "redaction is idempotent"


def test_there_are_at_least_twenty_leaks_and_ten_look_alikes() -> None:
    assert len(LEAKS) >= 20 and len(LOOK_ALIKES) >= 10


@pytest.mark.parametrize("text", LOOK_ALIKES.values(), ids=list(LOOK_ALIKES))
def test_look_alikes_are_left_alone(text: str) -> None:
    assert redact_secrets(text) == text


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("password", "correct horse battery staple"),
        ("DB_PASSWORD", "x9!Lq2#vR8"),
        ("refresh_token", "1//0gAbCdEfGhIjKlMnOpQrStUvWxYz"),
        ("client_secret", "abcdefgh12345678"),
        ("aws_secret_access_key", B64),
        ("github.token", "abcdefgh12345678"),
        ("PGPASSWORD", "Tr0ub4dor3xyz"),
        ("MYSQL_PWD", "Tr0ub4dor3xyz"),
    ],
)
def test_secret_named_json_members_are_redacted_whole(key: str, value: str) -> None:
    assert redact_json({key: value, "note": "kept"}) == {key: REDACTED, "note": "kept"}


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("token_count", "123456789012"),
        ("max_tokens", "whatever-value-long"),
        ("password_hint", "the name of our first dog"),
        ("password", "${DB_PASSWORD}"),
        ("token", "short"),
        ("PWD", "/home/dev/src/acme-api"),
        ("PGPASSFILE", "/home/dev/.pgpass"),
    ],
)
def test_other_json_members_are_left_alone(key: str, value: str) -> None:
    assert redact_json({key: value}) == {key: value}


def test_a_whole_event_keeps_its_shape() -> None:
    before, secret, after = LEAKS["github fine-grained PAT in a clone URL"]
    event = {"role": "assistant", "toolCalls": [{"input": {"command": before + secret + after}}]}
    redacted = redact_json(event)
    assert secret not in json.dumps(redacted)
    assert redacted["toolCalls"][0]["input"]["command"].endswith("@github.com/acme/app.git")
