"""Merging findings into a Markdown memory file without repeating or losing anything."""

from __future__ import annotations

from memtab.store.frontmatter import description_from_text
from memtab.writer.extract import Failure, Findings, WorkingCommand
from memtab.writer.notes import NEW_FILE_HEADER, merge_findings

FINDINGS = Findings(
    directives=["Always run `make check` before pushing."],
    commands=[WorkingCommand("pytest -q", "tests")],
    failures=[Failure("make db-up", "Error: port 5432 is taken")],
)


def test_a_new_file_gets_frontmatter_a_title_and_the_sections_in_order() -> None:
    text = merge_findings("", FINDINGS)
    assert text.startswith(NEW_FILE_HEADER)
    assert description_from_text(text).startswith("What this workspace taught")
    assert text.index("## Directives") < text.index("## Commands that work")
    assert text.index("## Commands that work") < text.index("## Known failures")
    assert text.endswith(
        "## Known failures\n\n- `make db-up` failed: `Error: port 5432 is taken`\n"
    )


def test_nothing_new_returns_the_file_unchanged() -> None:
    text = merge_findings("", FINDINGS)
    assert merge_findings(text, FINDINGS) == text
    assert merge_findings("# My notes\n", Findings()) == "# My notes\n"


def test_existing_wording_in_another_case_or_format_counts_as_known() -> None:
    existing = (
        "# Notes\n\n- always run make check before pushing\n- Tests: **`pytest -q`**\n"
        "- make db-up failed: Error: port 6543 is taken\n"
    )
    assert merge_findings(existing, FINDINGS) == existing


def test_user_content_is_kept_and_new_bullets_join_their_sections() -> None:
    existing = (
        "# Acme\n\nFree text the user wrote.\n\n## Commands that work\n\n- `make build`\n\n"
        "## Architecture\n\n- Services talk over NATS.\n"
    )
    merged = merge_findings(existing, FINDINGS)
    assert merged == (
        "# Acme\n\nFree text the user wrote.\n\n## Commands that work\n\n- `make build`\n"
        "- `pytest -q` (tests)\n\n## Architecture\n\n- Services talk over NATS.\n\n"
        "## Directives\n\n- Always run `make check` before pushing.\n\n"
        "## Known failures\n\n- `make db-up` failed: `Error: port 5432 is taken`\n"
    )


def test_a_fix_replaces_the_known_failure_it_resolves() -> None:
    first = merge_findings("# Notes\n", Findings(failures=[Failure("make db-up", "Error: x")]))
    fixed = Failure("make db-up", "Error: x", resolved=True, fix_steps=("`docker compose down`",))
    merged = merge_findings(first, Findings(failures=[fixed]))
    assert "## Known failures" not in merged
    assert merged.endswith(
        "## Fixes\n\n- `make db-up` failed: `Error: x` — fixed by `docker compose down`.\n"
    )
    assert merge_findings(merged, Findings(failures=[fixed])) == merged


def test_a_failure_already_recorded_as_fixed_is_not_added_as_known() -> None:
    fixed = Failure("npm test", "Error: y", resolved=True, worked_with="npm test -- --runInBand")
    merged = merge_findings("", Findings(failures=[fixed]))
    assert "— `npm test -- --runInBand` worked instead." in merged
    assert merge_findings(merged, Findings(failures=[Failure("npm test", "Error: y")])) == merged


def test_a_command_mentioned_only_as_failing_is_still_added_as_working() -> None:
    existing = "# Notes\n\n- `npm test` failed: `Error: y`\n"
    merged = merge_findings(existing, Findings(commands=[WorkingCommand("npm test", "tests")]))
    assert merged.endswith("## Commands that work\n\n- `npm test` (tests)\n")


def test_notes_in_the_users_own_words_count_as_known() -> None:
    existing = (
        "# Notes\n\n- Always run `make check` before pushing (user directive).\n"
        "- `pytest tests/integration -k refresh` needs `make db-up`; it failed with "
        '"connection refused" until the container ran.\n'
        "- npm install breaks with ERESOLVE unable to resolve dependency tree\n"
    )
    findings = Findings(
        directives=["Always run `make check` before you push anything."],
        failures=[
            Failure(
                "pytest tests/integration -k refresh -q",
                "sqlalchemy.exc.OperationalError: port 5432 failed: Connection refused",
                resolved=True,
                fix_steps=("`make db-up`",),
                family="pytest tests/integration",
            ),
            Failure(
                "npm install --legacy",
                "npm ERR! ERESOLVE unable to resolve dependency tree",
                family="npm install",
            ),
        ],
    )
    assert merge_findings(existing, findings) == existing


def test_a_different_directive_sharing_some_words_is_still_added() -> None:
    existing = "# Notes\n\n- Always run `make check` before pushing.\n"
    merged = merge_findings(
        existing, Findings(directives=["Always run `make docs` after a release."])
    )
    assert merged.endswith("## Directives\n\n- Always run `make docs` after a release.\n")
