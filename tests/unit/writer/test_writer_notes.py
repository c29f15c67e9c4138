"""Merging findings into a Markdown memory file without repeating or losing anything."""

from __future__ import annotations

from memtab.store.text.frontmatter import description_from_text
from memtab.writer.offline.extract import Findings, SolvedProblem, WorkingCommand
from memtab.writer.offline.notes import (
    COMMANDS,
    DIRECTIVES,
    FINDINGS,
    NEW_FILE_HEADER,
    SOLVED_PROBLEMS,
    Note,
    apply_notes,
    notes_missing_from,
    plan_notes,
    surest_notes,
)

FINDINGS_OF_A_RUN = Findings(
    directives=["Always run `make check` before pushing."],
    commands=[WorkingCommand("pytest -q", "tests")],
    solved_problems=[
        SolvedProblem("make db-up", "Error: port 5432 is taken", ("`docker compose down`",))
    ],
    findings=["`vitest` needs `happy-dom` for DOM tests."],
)


def add_findings(existing: str, findings: Findings) -> str:
    """`existing` with the notes of `findings` it lacks (`plan_notes`, then `apply_notes`)."""
    return apply_notes(existing, plan_notes(existing, findings))


def test_a_new_file_gets_frontmatter_a_title_and_the_sections_in_order() -> None:
    text = add_findings("", FINDINGS_OF_A_RUN)
    assert text.startswith(NEW_FILE_HEADER)
    assert description_from_text(text).startswith("What this workspace taught")
    order = ["## Directives", "## Commands that work", "## Fixes", "## Findings"]
    assert [text.index(heading) for heading in order] == sorted(text.index(h) for h in order)
    assert (
        "- `make db-up` failed: `Error: port 5432 is taken` — fixed by `docker compose down`."
        in text.splitlines()
    )
    assert text.endswith("## Findings\n\n- `vitest` needs `happy-dom` for DOM tests.\n")


def test_nothing_new_returns_the_file_unchanged() -> None:
    text = add_findings("", FINDINGS_OF_A_RUN)
    assert add_findings(text, FINDINGS_OF_A_RUN) == text
    assert add_findings("# My notes\n", Findings()) == "# My notes\n"


def test_existing_wording_in_another_case_or_format_counts_as_known() -> None:
    existing = (
        "# Notes\n\n- always run make check before pushing\n- Tests: **`pytest -q`**\n"
        "- make db-up failed: Error: port 6543 is taken; fixed by docker compose down\n"
        "- Vitest needs happy-dom for the DOM tests\n"
    )
    assert add_findings(existing, FINDINGS_OF_A_RUN) == existing


def test_user_content_is_kept_and_new_bullets_join_their_sections() -> None:
    existing = (
        "# Acme\n\nFree text the user wrote.\n\n## Commands that work\n\n- `make build`\n\n"
        "## Architecture\n\n- Services talk over NATS.\n"
    )
    findings = Findings(
        directives=["Always run `make check` before pushing."],
        commands=[WorkingCommand("pytest -q", "tests")],
    )
    assert add_findings(existing, findings) == (
        "# Acme\n\nFree text the user wrote.\n\n## Commands that work\n\n- `make build`\n"
        "- `pytest -q` (tests)\n\n## Architecture\n\n- Services talk over NATS.\n\n"
        "## Directives\n\n- Always run `make check` before pushing.\n"
    )


def test_a_fix_replaces_the_known_failure_an_older_version_recorded() -> None:
    older = "# Notes\n\n## Known failures\n\n- `make db-up` failed: `Error: x`\n"
    fixed = SolvedProblem("make db-up", "Error: x", ("`docker compose down`",))
    merged = add_findings(older, Findings(solved_problems=[fixed]))
    assert "## Known failures" not in merged
    assert merged.endswith(
        "## Fixes\n\n- `make db-up` failed: `Error: x` — fixed by `docker compose down`.\n"
    )
    assert add_findings(merged, Findings(solved_problems=[fixed])) == merged


def test_a_command_that_worked_instead_is_named() -> None:
    fix = SolvedProblem("npm test", "Error: y", worked_with="npm test -- --runInBand")
    merged = add_findings("", Findings(solved_problems=[fix]))
    assert "- `npm test` failed: `Error: y` — `npm test -- --runInBand` worked instead." in merged


def test_a_command_mentioned_only_as_failing_is_still_added_as_working() -> None:
    existing = "# Notes\n\n- `npm test` failed: `Error: y`\n"
    merged = add_findings(existing, Findings(commands=[WorkingCommand("npm test", "tests")]))
    assert merged.endswith("## Commands that work\n\n- `npm test` (tests)\n")


def test_notes_in_the_users_own_words_count_as_known() -> None:
    existing = (
        "# Notes\n\n- Always run `make check` before pushing (user directive).\n"
        "- `pytest tests/integration -k refresh` needs `make db-up`; it failed with "
        '"connection refused" until the container ran.\n'
    )
    findings = Findings(
        directives=["Always run `make check` before you push anything."],
        solved_problems=[
            SolvedProblem(
                "pytest tests/integration -k refresh -q",
                "sqlalchemy.exc.OperationalError: port 5432 failed: Connection refused",
                ("`make db-up`",),
                family="pytest tests/integration",
            )
        ],
    )
    assert add_findings(existing, findings) == existing


def test_a_different_directive_sharing_some_words_is_still_added() -> None:
    existing = "# Notes\n\n- Always run `make check` before pushing.\n"
    merged = add_findings(
        existing, Findings(directives=["Always run `make docs` after a release."])
    )
    assert merged.endswith("## Directives\n\n- Always run `make docs` after a release.\n")


def test_secrets_never_reach_a_note() -> None:
    leaked = "The deploy needs `GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789AB`."
    [note] = plan_notes("", Findings(findings=[leaked]))
    assert "ghp_abcdef" not in note.text and note.section == FINDINGS


def test_accepted_notes_already_in_the_file_are_not_written_twice() -> None:
    note = Note(FINDINGS, "`x` needs `y`.")
    text = apply_notes("# Notes\n", [note])
    assert notes_missing_from(text, [note]) == []
    assert notes_missing_from("# Notes\n", [note]) == [note]


def test_an_accepted_note_the_file_says_in_other_words_is_not_written_again() -> None:
    existing = "# Notes\n\n- Always run `make check` before pushing (user directive).\n"
    same = Note(DIRECTIVES, "Always run `make check` before pushing anything.")
    new = Note(DIRECTIVES, "Run `make docs` after every release.")
    assert notes_missing_from(existing, [same, new]) == [new]


def test_past_the_limit_the_surest_sections_are_kept_in_section_order() -> None:
    notes = [
        Note(COMMANDS, "`make build` (build)"),
        Note(FINDINGS, "The API listens on port 8080."),
        Note(DIRECTIVES, "Never push to main."),
        Note(SOLVED_PROBLEMS, "`make` failed: `missing go.sum` — fixed by `go mod tidy`."),
    ]
    kept, left_out = surest_notes(notes, limit=3)
    assert [note.section for note in kept] == [COMMANDS, DIRECTIVES, SOLVED_PROBLEMS]
    assert left_out == 1
    assert surest_notes(notes, limit=10) == (notes, 0)
