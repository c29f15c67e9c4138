"""Commands that worked, read from how real sessions ran them (entireio/cli, 135yshr/meow
in tests/fixtures/shared/claude-code): a chain of tasks, output cut by `| head` that cut
nothing, a linter's or a build's all-clear, arguments handed to a task through `--`."""

from __future__ import annotations

from memtab.writer.offline.extract import extract_findings
from memtab.writer.offline.shell.command_scope import without_passthrough
from memtab.writer.offline.shell.commands import chained_commands, uncut
from memtab.writer.offline.shell.outcomes import hooks_that_passed, output_shows_success

from .events import bash

GOLANGCI_CLEAN = "[lint] $ golangci-lint run ./...\n0 issues.\n"
GOLANGCI_FAILED = "\t\treturn nil\n\t\t^\n6 issues:\n* nilerr: 6\n[lint] ERROR task failed\n"
HUGO_BUILT = (
    "                  │ EN\n"
    "──────────────────┼────\n"
    " Pages            │ 31\n"
    " Static files     │ 15\n"
    " Cleaned          │  0\n"
    "\n"
    "Total in 359 ms\n"
)
GO_TEST_PASSED = "ok  \tentire.io/cli/cmd/entire/cli/integration_test\t1.449s\n"


def test_a_linters_all_clear_and_a_builds_closing_time_say_it_passed() -> None:
    assert output_shows_success(GOLANGCI_CLEAN)
    assert output_shows_success(HUGO_BUILT)
    assert not output_shows_success(GOLANGCI_FAILED)
    assert not output_shows_success("6 issues:\n* nilerr: 6\n")
    assert not output_shows_success("Total in 359 ms\nError: template not found\n")


def test_a_head_that_cut_nothing_leaves_the_whole_output_to_judge() -> None:
    assert uncut("mise run lint 2>&1 | head -50", GOLANGCI_CLEAN) == "mise run lint"
    assert uncut("mise run test 2>&1 | head -n 100", GO_TEST_PASSED) == "mise run test"
    long_output = "\n".join(f"line {n}" for n in range(50))
    assert uncut("mise run lint 2>&1 | head -50", long_output) is None  # it cut
    assert uncut("mise run lint | head -50 || true", GOLANGCI_CLEAN) is None  # masked
    assert uncut("hugo --minify 2>&1 | tail -10", HUGO_BUILT) == "hugo --minify"


def test_each_task_of_a_chain_that_worked_worked() -> None:
    assert chained_commands("mise run test && mise run lint && mise run fmt 2>&1") == [
        "mise run test",
        "mise run lint",
        "mise run fmt",
    ]
    # Parts that depend on each other stay one command.
    for whole in (
        "cd website && hugo --minify",
        "mise run lint 2>&1 | tail -5 && mise run test 2>&1 | tail -12",
        "make build || make clean",
        "mise run test",
    ):
        assert chained_commands(whole) == [whole]


def test_arguments_handed_to_a_task_are_that_moments() -> None:
    command = "mise run test:integration -- -run TestConcurrentSessionWarning_DisabledViaSetting"
    assert without_passthrough(command + " 2>&1") == "mise run test:integration"
    assert without_passthrough("npm test -- -t login") == "npm test"
    assert without_passthrough("go test ./... -run TestX") == "go test ./... -run TestX"
    assert without_passthrough("mise run fmt && mise run lint -- --fix") == (
        "mise run fmt && mise run lint -- --fix"
    )


def test_a_task_runner_the_session_leaned_on_is_one_note_with_each_task() -> None:
    # entireio/cli, "a plan to turn the multi-session warning off": its only runs of the
    # test and lint tasks were chained or cut by head, its integration tests picked by name.
    findings = extract_findings(
        [
            bash("mise run lint 2>&1 | head -100", output=GOLANGCI_CLEAN),
            bash(
                "mise run test:integration -- -run TestConcurrentSessionWarning_DisabledViaSetting"
                " 2>&1",
                output="[test:integration] $ go test -tags=integration ./cmd/…\n" + GO_TEST_PASSED,
            ),
            bash(
                "mise run test && mise run lint && mise run fmt 2>&1",
                output=GO_TEST_PASSED + "0 issues.\n[fmt] $ gofmt -w .\n",
            ),
        ]
    )
    assert [(tool.program, tool.examples) for tool in findings.tools] == [
        (
            "mise",
            ("mise run lint", "mise run test:integration", "mise run test", "mise run fmt"),
        )
    ]
    assert findings.commands == []


DIALYZER_PASSED = (
    "Total errors: 0, Skipped: 0, Unnecessary Skips: 0\n"
    "done in 0m12.94s\n"
    "done (passed successfully)\n"
)
# 135yshr/meow, "placeholder names unified": pre-commit's report in the commit's output.
PRE_COMMIT_PASSED = (
    "go fmt...................................................................Passed\n"
    "go vet...................................................................Passed\n"
    "golangci-lint............................................................Passed\n"
    "go test..................................................................Passed\n"
    "[chore/unify-placeholder-names 402f9b1] 📝 docs: unify example placeholder names\n"
    " 22 files changed, 92 insertions(+), 92 deletions(-)\n"
)
PRE_COMMIT_FAILED = PRE_COMMIT_PASSED.replace("fmt.....Passed", "fmt.....Failed")


def test_a_count_of_zero_errors_is_not_an_error() -> None:
    # marot/spotter: `mix dialyzer 2>&1 | tail -5`
    assert output_shows_success(DIALYZER_PASSED)
    assert output_shows_success("Tests run: 12, Failures: 0, Errors: 0, Skipped: 1\nBUILD SUCCESS")
    assert not output_shows_success("Total errors: 3, Skipped: 0\ndone (warnings were emitted)")
    findings = extract_findings([bash("mix dialyzer 2>&1 | tail -5", output=DIALYZER_PASSED)])
    assert [command.command for command in findings.commands] == ["mix dialyzer"]


def test_the_hooks_a_commit_passed_are_the_projects_checks() -> None:
    findings = extract_findings(
        [
            bash('git commit -m "docs: unify names"', ok=False, output=PRE_COMMIT_FAILED),
            bash('git add -A && git commit -m "docs: unify names"', output=PRE_COMMIT_PASSED),
        ]
    )
    assert findings.findings == [
        "`git commit` runs the project's pre-commit hooks: go fmt, go vet, golangci-lint, go test."
    ]
    assert hooks_that_passed(" 1 file changed, 6 insertions(+)\n") == []
    # A commit with no hook report, or hooks only skipped, says nothing.
    skipped = "go fmt...........................(no files to check)Skipped\n[main 1a2b3c4] x\n"
    assert extract_findings([bash('git commit -m "x"', output=skipped)]).findings == []
