"""A sentence of the agent's that opens on a path ("test/runtests.jl can't be run directly: …")
is a sentence of its own, a fact when it says one, and keeps its path as written (issue 95)."""

from __future__ import annotations

from memtab.writer.offline.answers import facts_in_text, stands_alone

FACT = (
    "test/runtests.jl can't be run directly: Test is only in test/Project.toml, so the suite "
    "has to go through `julia --project=. -e 'using Pkg; Pkg.test()'`."
)


def test_a_sentence_opening_on_a_path_is_read_apart_and_kept_as_written() -> None:
    assert facts_in_text(f"Tests pass (41/41). {FACT} OK to go ahead?", concluded=True) == [FACT]
    assert stands_alone(FACT)
    # a lower-case opening that is no path still leans on what came before
    assert not stands_alone("and the suite has to go through `make test` in test/.")
