"""Redaction beyond docs/formats.md §12.1's minimum: the key formats developers actually paste."""

from __future__ import annotations

import pytest

from memtab.redact import REDACTED, redact_json, redact_secrets


@pytest.mark.parametrize(
    "secret",
    [
        "sk-ant-api03-" + "A1b2C3d4E5f6G7h8I9j0-_x" * 2,
        "sk-proj-" + "Ab12_Cd34-Ef56Gh78Ij90Kl12",
        "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
        "xoxb-1234567890-abcdefghij",
    ],
)
def test_prefixed_tokens_are_redacted(secret: str) -> None:
    text = f"export X={secret} and more"
    assert secret not in redact_secrets(text)
    assert REDACTED in redact_secrets(text)


@pytest.mark.parametrize("name", ["OPENAI_API_KEY", "GITHUB_TOKEN", "DB_PASSWORD", "AWS_SECRET"])
def test_env_style_names_keep_the_name_and_lose_the_value(name: str) -> None:
    assert redact_secrets(f"{name}=s3cr3tvalue99") == f"{name}={REDACTED}"
    assert redact_json({name: "s3cr3tvalue99"}) == {name: REDACTED}


@pytest.mark.parametrize(
    "text",
    [
        "the task-management-system-handles-it",
        "risk-assessment-for-the-quarterly-plan",
        "tokenizer: whitespace",
        "password reset flow documented",
    ],
)
def test_ordinary_prose_is_left_alone(text: str) -> None:
    assert redact_secrets(text) == text
