"""Facts in the agent's prose (issue 95): a sentence that opens on a path ("test/runtests.jl can't
be run directly: …") is read apart and keeps its path as written; what a command fixed, and
the flag a command needs, are facts."""

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


def test_what_a_command_fixed_and_the_flag_a_command_needs_are_facts() -> None:
    fixed = (
        "The new services were invisible to the runner at first: its daemon kept a stale graph, "
        "and `pnpm turbo daemon clean` fixed it."
    )
    needs = "The default branch is trunk, so `turbo run test --affected` needs --base=origin/trunk."
    assert facts_in_text(fixed, concluded=True) == [fixed]
    assert facts_in_text(needs, concluded=True) == [needs]
    # what the agent fixed, and what a person needs, are no facts of the project
    assert facts_in_text("I fixed it in `src/app.ts` by renaming the import.") == []


def test_what_the_agent_calls_the_catch_is_its_diagnosis() -> None:
    said = "The catch was sqlx's offline mode: `cargo sqlx prepare` writes the query cache."
    assert facts_in_text(f"Tests pass now. {said}", concluded=True) == [said]
    assert facts_in_text(f"Tests pass now. {said}", concluded=False) == []  # said mid-work
