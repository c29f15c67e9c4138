"""The rule that hides the API keys Memtab holds (provider errors and trace dumps), with
the one token every redaction uses."""

from __future__ import annotations

from memtab.redact import REDACTED, KeyScrubber

LONG = "sk-local-0123456789abcdef"  # 25 characters: hidden anywhere


def test_a_long_key_is_hidden_anywhere_a_short_one_only_where_it_stands_alone() -> None:
    keys = KeyScrubber([LONG, "x", "ollama"])
    assert keys.text(f"key={LONG}; glued:abc{LONG}def") == f"key={REDACTED}; glued:abc{REDACTED}def"
    assert keys.text("key x, Bearer x (fix the x-axis)") == (
        f"key {REDACTED}, Bearer {REDACTED} (fix the {REDACTED}-axis)"
    )
    assert keys.text("is ollama up? ollamas, xylophone, fax") == (
        f"is {REDACTED} up? ollamas, xylophone, fax"
    )


def test_the_longest_key_wins_and_blank_keys_are_no_keys() -> None:
    keys = KeyScrubber(["abc", "abc-def", None, "", "  "])
    assert keys.text("abc-def and abc and a  b") == f"{REDACTED} and {REDACTED} and a  b"
    assert not KeyScrubber([None, "", " "])
    assert KeyScrubber([]).text("unchanged") == "unchanged"


def test_json_values_and_member_names_are_scrubbed_in_a_copy() -> None:
    value = {"error": f"bad key {LONG}", LONG: [f"x{LONG}", 3, None, ("ollama",)]}
    scrubbed = KeyScrubber([LONG, "ollama"]).json(value)
    assert scrubbed == {
        "error": f"bad key {REDACTED}",
        REDACTED: [f"x{REDACTED}", 3, None, [REDACTED]],
    }
    assert value["error"] == f"bad key {LONG}"  # the original is left alone
