"""What may leave the machine (issue 82): `<private>` blocks, secrets said in prose, and a
memory file as a model sees it — with its edits made on the file, the secrets kept."""

from __future__ import annotations

import pytest

from memtab.redact import REDACTED, redact_json, redact_outgoing, redact_secrets, redact_view
from support.leaks import LEAKS, LOOK_ALIKES

SAID = [
    ("the schema password is hunter2", "the schema password is {}"),
    ("Password: hunter2", "Password: {}"),
    ("pin: 4921.", "pin: {}."),
    ("my token is abc123xyz", "my token is {}"),
    ("the admin password is swordfish.", "the admin password is {}."),
    ("the password for staging is now Tr0ub4dor", "the password for staging is now {}"),
    ("My GitHub token for the CI job is AbCdEfGhIj", "My GitHub token for the CI job is {}"),
    ("the passphrase is 'correct horse battery staple'", "the passphrase is '{}'"),
    ("the API key was `k3y-2024-prod`", "the API key was `{}`"),
    ("The PIN is 8812", "The PIN is {}"),
]
NOT_SECRETS = [
    "password reset flow",
    "the token bucket refills every second",
    "the password is required",
    "the token is expired, refresh it",
    "the token is invalid",
    "the password is stored hashed",
    "the secret is to retry",
    "the API key is in .env",
    "the token is a JWT",
    "the password is not set",
    "The PIN is 4 digits",
    "token: str",
    "password: str = ''",
    "the token is short-lived",
    "the password is ${DB_PASSWORD}",
    "the token is <your-token>",
    "the token is now rotated daily",
    "the token is process.env.GITHUB_TOKEN",
    "Token is refreshed every hour",
    "the API key is configured",
    "tokens are counted per request",
    "the password field is empty",
]


@pytest.mark.parametrize(("text", "expected"), SAID)
def test_a_secret_said_in_prose_is_redacted(text: str, expected: str) -> None:
    assert redact_secrets(text) == expected.format(REDACTED)


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_prose_about_passwords_and_tokens_is_left_alone(text: str) -> None:
    assert redact_secrets(text) == text


def test_private_blocks_never_leave_the_machine() -> None:
    text = "Add a renderer <private>my API key is sk-test-12345</private> and wire it\n"
    text += "Tests added. <PRIVATE>the schema\npassword is hunter2</PRIVATE> All green."
    assert redact_outgoing(text) == (
        f"Add a renderer {REDACTED} and wire it\nTests added. {REDACTED} All green."
    )
    assert redact_json({"text": text})["text"] == redact_outgoing(text)
    assert redact_secrets("a <private>x</private> b") == "a <private>x</private> b"
    assert redact_outgoing("wrap it in <private> tags") == "wrap it in <private> tags"


def _corpus() -> list[str]:
    texts = ["".join(leak) for leak in LEAKS.values()] + list(LOOK_ALIKES.values())
    texts += [text for text, _ in SAID] + NOT_SECRETS
    return [
        "\n".join(texts),
        "# Notes\n<private>a\nb</private>\n- DB password: hunter22x\n" + "\n".join(texts[:9]),
    ]


@pytest.mark.parametrize("text", _corpus())
def test_the_view_is_what_is_sent_and_knows_what_each_token_hides(text: str) -> None:
    view = redact_view(text)
    assert view.text == redact_outgoing(text)
    assert view.text.count(REDACTED) == len(view.tokens) > 0
    rebuilt, cursor = [], 0
    for start, hidden_start, hidden_end in view.tokens:
        assert view.text[start : start + len(REDACTED)] == REDACTED
        assert cursor <= hidden_start < hidden_end
        rebuilt += [text[cursor:hidden_start], REDACTED]
        cursor = hidden_end
    assert "".join([*rebuilt, text[cursor:]]) == view.text


def test_an_edit_of_what_the_model_saw_keeps_the_secrets_it_never_saw() -> None:
    original = (
        "# Notes\n- DB password: hunter22x (prod)\n- psql -h db\n"
        "<private>never remember this</private>\n- old line\n"
    )
    view = redact_view(original)
    assert "hunter22x" not in view.text and "never remember" not in view.text
    shown = f"- DB password: {REDACTED} (prod)\n- psql -h db\n{REDACTED}\n- old line"
    assert shown in view.text
    edit = view.original_edit(shown, shown.replace("- old line", "- new line"))
    assert edit is not None
    old, new = edit
    assert original.replace(old, new) == original.replace("- old line", "- new line")
    # A line the model wrote itself keeps the token; a text it did not see is not found.
    _, added = view.original_edit("- psql -h db", f"- psql -h db\n- pw {REDACTED}") or ("", "")
    assert added == f"- psql -h db\n- pw {REDACTED}"
    assert view.original_edit("- nowhere", "x") is None
    assert view.original_edit(REDACTED, "x") is None  # twice in the view: which one?
