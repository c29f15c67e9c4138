"""Lines as the editor counts them, and which lines carry from one text to the next."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memtab.blame.lines import carry, carry_from, matched_lines, split_lines, step


def test_lines_are_the_editors_blocks_without_the_empty_one_after_a_final_break() -> None:
    assert split_lines("") == []
    assert split_lines("a") == ["a"]
    assert split_lines("a\n") == ["a"]
    assert split_lines("a\n\n") == ["a", ""]
    assert split_lines("\ufeffa\r\nb\rc\u2029d\n") == ["a", "b", "c", "d"]
    assert split_lines("\n") == [""]


def test_a_line_inserted_in_the_middle_is_the_only_new_one() -> None:
    old = ["# T", "", "- a", "- b", "- c"]
    new = ["# T", "", "- a", "- new", "- b", "- c"]
    assert matched_lines(old, new) == [0, 1, 2, None, 3, 4]
    assert carry(old, [7, 7, 7, 8, 9], new, 10) == [7, 7, 7, 10, 8, 9]


def test_a_changed_line_is_new_and_a_removed_one_is_gone() -> None:
    assert carry(["a", "b", "c", "d"], [1, 2, 3, 4], ["a", "B", "d"], 5) == [1, 5, 4]


def test_a_line_found_in_neither_text_is_the_new_owners() -> None:
    restored = (["x", "y"], [1, 2])
    replaced = (["y", "z"], [3, 4])
    assert carry_from(restored, replaced, ["x", "z", "w"], 9) == [1, 4, 9]


LINE = st.sampled_from(["a", "b", "", "c d", "a b", "é"])


@given(st.lists(LINE, max_size=30), st.lists(LINE, max_size=30))
def test_matched_lines_are_equal_lines_in_order(old: list[str], new: list[str]) -> None:
    found = matched_lines(old, new)
    assert len(found) == len(new)
    pairs = [(o, n) for n, o in enumerate(found) if o is not None]
    assert all(old[o] == new[n] for o, n in pairs)
    assert [o for o, _ in pairs] == sorted({o for o, _ in pairs})  # increasing, once each


@given(
    st.lists(st.integers(0, 20), max_size=60),
    st.integers(0, 60),
    st.lists(st.integers(100, 120), max_size=5),
)
def test_lines_around_an_insertion_keep_their_owners(
    old_numbers: list[int], at: int, inserted: list[int]
) -> None:
    old = [str(n) for n in old_numbers]
    at = min(at, len(old))
    new = old[:at] + [str(n) for n in inserted] + old[at:]
    owners = carry(old, list(range(len(old))), new, -5)
    assert owners == list(range(at)) + [-5] * len(inserted) + list(range(at, len(old)))


TEXT = st.text(alphabet="ab\n", max_size=40)


@given(TEXT, TEXT)
def test_a_step_between_texts_is_a_carry_between_their_lines(old: str, new: str) -> None:
    old_lines = split_lines(old)
    owners = list(range(len(old_lines)))
    lines, stepped = step(old, old_lines, owners, new, -1)
    assert lines == split_lines(new)
    # The same lines are carried (the common subsequence found may differ where lines
    # repeat, never in how many lines carry).
    carried = carry(old_lines, owners, lines, -1)
    assert stepped.count(-1) == carried.count(-1)
    assert all(stepped[i] == -1 or old_lines[stepped[i]] == line for i, line in enumerate(lines))
    assert [o for o in stepped if o != -1] == sorted(o for o in stepped if o != -1)
