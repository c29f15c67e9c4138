"""`compute_diff` on texts of many repeated lines: bounded, and always a diff of them
(issue 81 point 10: a patch's review diffed a file of 80,000 blank lines for minutes)."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memtab.components import text_diff
from memtab.components.text_diff import DiffResult, LineKind, compute_diff
from support.property_examples import examples

_HUNK = re.compile(r"^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$")


def _patched(old: list[str], diff: DiffResult) -> list[str]:
    """`old` with the diff's hunks applied, by the numbers their headers give."""
    result: list[str] = []
    at = 0
    for line in diff.lines:
        if line.kind is LineKind.HUNK:
            header = _HUNK.match(line.text)
            assert header is not None
            start = int(header.group(1)) - 1
            assert start >= at
            result += old[at:start]
            at = start
        elif line.kind is LineKind.CONTEXT:
            assert old[at] == line.text and line.old_number == at + 1
            result.append(line.text)
            at += 1
        elif line.kind is LineKind.REMOVED:
            assert old[at] == line.text and line.old_number == at + 1
            at += 1
        else:
            assert line.new_number == len(result) + 1
            result.append(line.text)
    return result + old[at:]


def test_a_line_added_to_80000_blank_lines_is_a_one_line_diff_at_once() -> None:
    old = "# Project Memory\n\n" + "\n" * 80_000 + "- The last line.\n"
    started = time.perf_counter()
    diff = compute_diff(old, old + "- Added.\n")
    both_ends = compute_diff(old, old.replace("Memory", "memory").replace("last", "final"))
    assert time.perf_counter() - started < 5  # difflib over the whole texts: minutes
    assert (diff.added, diff.removed) == (1, 0) and len(diff.lines) == 5
    assert (
        _patched(old.splitlines(), both_ends)
        == old.replace("Memory", "memory").replace("last", "final").splitlines()
    )


def _text(lines: list[str]) -> str:
    return "".join(f"{line}\n" for line in lines)


_LINE = st.sampled_from(["", "", "- a", "- b", "## H"])


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(_LINE, max_size=40),
    st.lists(_LINE, max_size=40),
    st.sampled_from([0, 1, 3]),
    st.sampled_from([0, 4, 1_000_000]),
)
def test_every_diff_turns_the_old_text_into_the_new(
    old: list[str], new: list[str], context: int, work: int
) -> None:
    """Whatever the texts, the context and how many line pairs the matching may compare
    (few: the frequent lines match only beside others), the diff is one of them."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(text_diff, "MAX_MATCHING_WORK", work)
        diff = compute_diff(_text(old), _text(new), context=context)
    assert _patched(old, diff) == new
    assert diff.added - diff.removed == len(new) - len(old)
