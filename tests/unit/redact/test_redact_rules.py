"""Secret redaction, docs/formats.md §12.1: every pattern, what it keeps, and what it must leave
alone."""

from __future__ import annotations

import pytest

from memtab.redact import REDACTED, redact_json, redact_secrets, rules

_PEM_BODY = "MIIEowIBAAKCAQEA7bq\nZ2VuZXJhdGVkIGtleQ==\n"
_RSA_BLOCK = f"-----BEGIN RSA PRIVATE KEY-----\n{_PEM_BODY}-----END RSA PRIVATE KEY-----"
_PGP_BLOCK = (
    f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n{_PEM_BODY}-----END PGP PRIVATE KEY BLOCK-----"
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("key sk-" + "a1B2" * 5 + " end", f"key {REDACTED} end"),
        ("sk-proj" + "Xk9m" * 8, REDACTED),
        ("id AKIAIOSFODNN7QWERTY2.", f"id {REDACTED}."),
        ("Authorization: Bearer abc.def-ghi_jklmnop", f"Authorization: Bearer {REDACTED}"),
        ("authorization: bearer abcdefghijklmnopqrstu", f"authorization: bearer {REDACTED}"),
        ("api_key=abcd1234efgh", f"api_key={REDACTED}"),
        ("export API-KEY: 'abcd1234efgh'", f"export API-KEY: '{REDACTED}'"),
        ('apikey = "abcd1234efgh"', f'apikey = "{REDACTED}"'),
        ("the secret:hunter2hunter2 is out", f"the secret:{REDACTED} is out"),
        ("the password is hunter2hunter2", f"the password is {REDACTED}"),  # said (issue 82)
        ("Password=correcthorse and more", f"Password={REDACTED} and more"),
        ("TOKEN: ghp_0123456789abcdef", f"TOKEN: {REDACTED}"),
        (
            "GET https://partner.steam-api.com/v1/?key=96367AB82DDC690D3348FA0FF3C7C2EE&appid=7",
            f"GET https://partner.steam-api.com/v1/?key={REDACTED}&appid=7",
        ),
        (f"before\n{_RSA_BLOCK}\nafter", f"before\n{REDACTED}\nafter"),
        (f"-----BEGIN PRIVATE KEY-----\n{_PEM_BODY}-----END PRIVATE KEY-----", REDACTED),
        (f"{_PGP_BLOCK}!", f"{REDACTED}!"),
        (f"-----BEGIN OPENSSH PRIVATE KEY-----\n{_PEM_BODY}[output truncated]", REDACTED),
    ],
)
def test_each_secret_pattern_is_redacted(text: str, expected: str) -> None:
    assert redact_secrets(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "sk-" + "a" * 19,  # too short
        "sk-test-12345",  # hyphens break the run
        "AKIA123",  # too short
        "XAKIAIOSFODNN7QWERTY2",  # no word boundary before AKIA
        "AKIAIOSFODNN7QWERTY2X",  # nor after
        "Bearer abcdefghijklmno",  # 15 characters
        "a Bearer of bad news",
        "password=hunter2",  # 7 characters
        "token: 'short'",
        "max_tokens=4096000000",  # not the word "token"
        "https://docs.example.org/page?key=onboarding-checklist",  # a name in a URL's query
        "https://docs.example.org/page?key=20261129000000",  # an id
        "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkq\n-----END PUBLIC KEY-----",
        "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+g\n-----END CERTIFICATE-----",
        "",
    ],
)
def test_things_that_are_not_secrets_are_left_alone(text: str) -> None:
    assert redact_secrets(text) == text


def test_redaction_is_idempotent_and_handles_several_secrets() -> None:
    text = "a sk-" + "Zq8" * 8 + " b Bearer " + "t7Rq" * 5 + " c password: 'p4ssw0rd!!' d"
    once = redact_secrets(text)

    assert once == f"a {REDACTED} b Bearer {REDACTED} c password: '{REDACTED}' d"
    assert redact_secrets(once) == once


def test_redact_json_walks_every_string_and_secret_named_member() -> None:
    value = {
        "text": "use api_key=abcdefgh123",
        "toolCalls": [
            {"input": {"password": "hunter2hunter2", "token": "short", "cmd": "ls"}, "exitCode": 1},
            ("AKIAIOSFODNN7QWERTY2", 3, None, True),
        ],
        "api-key": "abcdefghijklmnop",
        "max_tokens": "whatever-value-long",
        "sk-" + "k" * 25: "keys stay as they are",
    }

    assert redact_json(value) == {
        "text": f"use api_key={REDACTED}",
        "toolCalls": [
            {"input": {"password": REDACTED, "token": "short", "cmd": "ls"}, "exitCode": 1},
            [REDACTED, 3, None, True],
        ],
        "api-key": REDACTED,
        "max_tokens": "whatever-value-long",
        "sk-" + "k" * 25: "keys stay as they are",
    }
    assert value["api-key"] == "abcdefghijklmnop", "the input is not modified"


def test_a_text_is_matched_only_by_the_rules_whose_needles_it_holds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Round 7: a model's reply of 40,000 short lessons took 30 s to redact for its dump, every
    string tried by every rule. A rule whose needles a text lacks cannot match it: not tried."""
    tried: list[str] = []
    apply = rules.Rule.apply

    def counted(rule: rules.Rule, text: str, lowered: str | None = None) -> str:
        tried.append(rule.name)
        return apply(rule, text, lowered)

    monkeypatch.setattr(rules.Rule, "apply", counted)
    assert redact_secrets("File src/part5.ts holds part 5.") == "File src/part5.ts holds part 5."
    assert tried == []
    assert redact_secrets("api_key=abcd1234efgh") == f"api_key={REDACTED}"
    assert 0 < len(tried) < len(rules.RULES) / 4
