"""The merge rules on their own: lines three ways, pins and usage, renames in trees."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memtab.store.sidecars.meta import MetaEntry
from memtab.store.text.line_merge import merge_lines, merge_union
from memtab.sync.export import (
    MetaRecord,
    export_entries,
    import_entry,
    merge_record,
    merge_trees,
    parse_records,
    render_records,
)


def test_two_insertions_at_one_place_conflict_for_the_editor_and_merge_for_sync() -> None:
    base, mine, theirs = "a\n", "a\nmine\n", "a\ntheirs\n"
    assert merge_lines(base, mine, theirs).conflicts == ((2, 2),)
    assert merge_lines(base, mine, theirs, insertions="both").text == "a\ntheirs\nmine\n"


def test_a_replacement_of_the_same_line_still_conflicts_for_sync() -> None:
    merged = merge_lines("a\nb\n", "a\nB1\n", "a\nB2\n", insertions="both")
    assert merged.text is None and merged.conflicts == ((2, 2),)


def test_lines_without_a_final_newline_do_not_run_together() -> None:
    assert merge_lines("a", "a\nb", "a\nc", insertions="both").text == "a\nc\nb"
    assert merge_union("x\ny", "x\nz") == "x\ny\nz"


LINES = st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), max_size=6)


@given(LINES, LINES)
def test_a_union_keeps_every_line_of_both_sides(mine: list[str], theirs: list[str]) -> None:
    merged = merge_union("".join(f"{x}\n" for x in mine), "".join(f"{x}\n" for x in theirs))
    lines = merged.splitlines()
    for side in (mine, theirs):  # each side is a subsequence of the union
        position = 0
        for line in side:
            position = lines.index(line, position) + 1


def test_counts_add_what_each_side_added_since_their_common_state() -> None:
    base = MetaRecord(access_count=5)
    merged = merge_record(base, MetaRecord(access_count=7), MetaRecord(access_count=9))
    assert merged.access_count == 11
    # Without a common state the larger count is kept: adding would count twice.
    assert (
        merge_record(None, MetaRecord(access_count=7), MetaRecord(access_count=9)).access_count == 9
    )


def test_pins_are_a_union_and_an_unpin_wins_only_when_newer() -> None:
    pinned, unpinned = MetaRecord(pinned=True, pin_changed_at=100), MetaRecord(pin_changed_at=50)
    assert merge_record(None, pinned, unpinned).pinned
    assert not merge_record(None, pinned, MetaRecord(pin_changed_at=200)).pinned
    assert merge_record(None, MetaRecord(), MetaRecord(pinned=True)).pinned
    # With a common state, the side that changed the pin wins.
    base = MetaRecord(pinned=True, pin_changed_at=10)
    assert not merge_record(base, MetaRecord(pin_changed_at=20), base).pinned


def test_times_are_the_latest() -> None:
    merged = merge_record(
        None,
        MetaRecord(last_accessed_at=5, last_write_at=9),
        MetaRecord(last_accessed_at=7, last_write_at=3),
    )
    assert (merged.last_accessed_at, merged.last_write_at) == (7, 9)


def test_an_export_sends_what_was_counted_since_the_last_sync() -> None:
    tree = {"x.md": MetaRecord(access_count=10)}
    baseline = {"x.md": MetaRecord(access_count=10)}
    local = {"x.md": MetaEntry(access_count=13, pinned=True)}
    exported = export_entries(tree, local, baseline, ["x.md"], now=77)
    assert exported["x.md"].access_count == 13
    assert exported["x.md"].pinned and exported["x.md"].pin_changed_at == 77
    # And the import adds what the others counted to what this machine holds now.
    now = MetaEntry(access_count=14, pinned=True)  # one more use since the export read 13
    entry = import_entry(now, MetaEntry(access_count=13, pinned=True), MetaRecord(access_count=20))
    assert entry.access_count == 21


def test_the_meta_file_is_sorted_and_reads_back() -> None:
    records = {
        "b.md": MetaRecord(pinned=True, pin_changed_at=3),
        "a.md": MetaRecord(access_count=2),
    }
    data = render_records(records)
    assert data.index(b'"a.md"') < data.index(b'"b.md"')
    assert parse_records(data) == records
    assert parse_records(b"not json") == {}


def test_an_edit_follows_a_rename_of_the_other_side() -> None:
    base = {"g/a.md": "1"}
    renamed = {"g/b.md": "1"}
    edited = {"g/a.md": "2"}
    merged = merge_trees(base, renamed, edited, lambda oids: {})
    assert merged.tree == {"g/b.md": "2"} and not merged.conflicts
    merged = merge_trees(base, edited, renamed, lambda oids: {})
    assert merged.tree == {"g/b.md": "2"}


def test_files_both_sides_created_differently_are_a_conflict() -> None:
    contents = {"1": b"one\n", "2": b"two\n"}
    merged = merge_trees({}, {"g/x.md": "1"}, {"g/x.md": "2"}, lambda oids: contents)
    assert [c.reason for c in merged.conflicts] == ["both sides created it with different contents"]
    assert merged.tree == {"g/x.md": "2"}  # the repository keeps the other side's
