"""Claude Code's `modified:` frontmatter: refreshed on a save, in its own shape; a file
without one never gets one (docs/formats.md §17.2)."""

from __future__ import annotations

import pytest

from memtab.sources.modified_stamp import refresh_modified

NOW = 1_795_000_000_123  # 2026-11-18T...Z, with milliseconds 123


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-06-04T10:20:30.456Z", "2026-11-18T11:06:40.123Z"),
        ("'2026-06-04T10:20:30.456Z'", "'2026-11-18T11:06:40.123Z'"),
        ('"2026-06-04T10:20:30Z"', '"2026-11-18T11:06:40Z"'),
        ("2026-06-04", "2026-11-18"),
        ("2026-06-04 10:20:30", "2026-11-18 11:06:40"),
        ("2026-06-04T10:20:30+09:00", "2026-11-18T11:06:40+00:00"),
    ],
)
def test_the_stamp_is_set_to_the_save_in_its_own_shape(value: str, expected: str) -> None:
    text = f"---\nname: Deploy\nmodified: {value}\ntype: feedback\n---\n\nBody\n"
    assert refresh_modified(text, NOW) == text.replace(value, expected)


def test_a_file_without_the_stamp_or_frontmatter_is_left_alone() -> None:
    for text in (
        "---\nname: Deploy\n---\n\nmodified: 2026-06-04\n",  # in the body: not frontmatter
        "# Notes\n\nmodified: 2026-06-04\n",
        "---\nmodified: yesterday\n---\n",  # not a timestamp: Memtab does not guess
    ):
        assert refresh_modified(text, NOW) == text


def test_crlf_files_keep_their_line_breaks() -> None:
    text = "---\r\nmodified: 2026-06-04T10:20:30.456Z\r\n---\r\nBody\r\n"
    assert refresh_modified(text, NOW) == text.replace(
        "2026-06-04T10:20:30.456Z", "2026-11-18T11:06:40.123Z"
    )
