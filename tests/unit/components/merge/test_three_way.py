"""A conflict's texts prepared for the three-way view: the changed words, each line's
place beside the others, and what Keep both keeps (no Qt)."""

from __future__ import annotations

from memtab.components.merge import MAX_WORDS, three_way_texts

BASE = b"# Notes\nThe quick brown fox jumps over the lazy dog.\nend\n"


def test_only_the_changed_words_of_a_changed_line_are_marked() -> None:
    mine = BASE.replace(b"quick brown", b"slow red")
    theirs = BASE.replace(b"lazy", b"sleepy") + b"added\n"
    texts = three_way_texts(BASE, mine, theirs)
    line = mine.decode().splitlines()[1]
    assert [line[a:b] for a, b in texts.mine_words[1]] == ["slow red"]  # one mark a phrase
    line = theirs.decode().splitlines()[1]
    assert [line[a:b] for a, b in texts.theirs_words[1]] == ["sleepy"]
    assert 3 in texts.theirs_changed and 3 not in texts.theirs_words  # new whole: no marks


def test_each_line_knows_its_place_in_the_common_version() -> None:
    mine = b"first\n" + BASE  # a line above
    theirs = BASE.replace(b"end\n", b"")  # the last line gone
    texts = three_way_texts(BASE, mine, theirs)
    assert texts.places == ((0, 1, 2), (0, 0, 1, 2), (0, 1))
    # Without one, theirs is the order the other side's lines take their places in.
    texts = three_way_texts(None, mine, theirs)
    assert texts.places == ((), (0, 0, 1, 2), (0, 1))


def test_keep_both_is_every_line_of_each_the_shared_ones_once() -> None:
    mine = BASE.replace(b"end", b"mine's end")
    theirs = BASE.replace(b"end", b"theirs' end")
    both = three_way_texts(BASE, mine, theirs).both
    assert both == BASE.decode().replace("end", "mine's end\ntheirs' end")
    assert three_way_texts(BASE, None, theirs).both == theirs.decode()  # one side deleted
    assert three_way_texts(None, b"\xff", theirs).both is None  # not text


def test_a_line_too_long_to_compare_word_by_word_keeps_its_tint_alone() -> None:
    long = " ".join(f"w{n}" for n in range(MAX_WORDS + 1))
    base = f"{long}\n".encode()
    texts = three_way_texts(base, base.replace(b"w7 ", b"x7 "), base)
    assert texts.mine_changed == {0} and texts.mine_words == {}
