"""Rules read from where a thing sits in a transcript, not from its words — from real lines
of the sessions tuned on (tests/fixtures/shared/claude-code: EntityProcess/agentv,
PackmindHub/context-evaluator, JanDeDobbeleer/oh-my-posh, marot/spotter): the hooks a push
ran, the package scripts a commit's hooks ran, a wrapper the project's command failed
under, a command whose cut output was silent or ended on a test runner's counts; and what
is not a finding: the plan of a change, a failure's cause said mid-work, a word in quotes,
a line of a file."""

from __future__ import annotations

from memtab.writer.offline.answers import fact_weight, facts_in
from memtab.writer.offline.extract import extract_findings
from memtab.writer.offline.notes import render_solved_problem
from memtab.writer.offline.shell.commands import git_hook_stage, unwrapped
from memtab.writer.offline.shell.outcomes import (
    closing_verdict,
    hooks_that_passed,
    output_shows_success,
    says_nothing,
)

from .events import bash, calls, shell, tool

# EntityProcess/agentv, "Entire enabled, pushed and merged": pre-commit's report in the
# output of `git push` (the hooks run at pre-push), first with a failing lint, then clean.
PRE_PUSH_FAILED = (
    "[entire] Pushing entire/checkpoints/v1 to origin.... done\n"
    "Build....................................................................Passed\n"
    "Typecheck................................................................Passed\n"
    "Lint.....................................................................Failed\n"
    "- hook id: lint\n- exit code: 1\n"
)
PRE_PUSH_PASSED = (
    "[entire] Pushing entire/checkpoints/v1 to origin.... done\n"
    "Build....................................................................Passed\n"
    "Typecheck................................................................Passed\n"
    "Lint.....................................................................Passed\n"
    "Test.....................................................................Passed\n"
    "Validate eval YAML files.................................................Passed\n"
    "To https://github.com/EntityProcess/agentv.git\n   6c08f5a5..b02b3c07  main -> main\n"
)
# PackmindHub/context-evaluator, "evaluate as the default subcommand": husky's pre-commit
# hook ran three package scripts, which bun echoes as `$ …` before running each.
HUSKY_COMMIT = (
    "$ bun test src/\nbun test v1.3.5 (1e86cebd)\n 1351 pass\n 0 fail\n"
    "$ biome check --error-on-warnings\nChecked 292 files in 142ms. No fixes applied.\n"
    "$ tsc --noEmit\n[main 50d8160] Make evaluate the default CLI subcommand\n"
    " 1 file changed, 27 insertions(+), 1 deletion(-)\n"
)
NPM_HOOK = "\n> acme@1.0.0 lint\n> eslint .\n\n[main 1a2b3c4] x\n"


def test_the_hooks_a_push_passed_are_the_projects_checks_before_a_push() -> None:
    findings = extract_findings(
        [
            bash("git push -u origin chore/enable-entire", ok=False, output=PRE_PUSH_FAILED),
            bash("git push -u origin chore/enable-entire", output=PRE_PUSH_PASSED),
        ]
    )
    assert findings.findings == [
        "`git push` runs the project's pre-push hooks: Build, Typecheck, Lint, Test, "
        "Validate eval YAML files."
    ]
    assert git_hook_stage("git add AGENTS.md && git -C repo commit -m x") == "commit"
    assert git_hook_stage("git pull --rebase origin main && git push origin main") == "push"
    assert git_hook_stage("git log --oneline origin/next..HEAD") is None


def test_the_package_scripts_a_commits_hook_ran_are_its_checks() -> None:
    assert hooks_that_passed(HUSKY_COMMIT) == [
        "`bun test src/`",
        "`biome check --error-on-warnings`",
        "`tsc --noEmit`",
    ]
    assert hooks_that_passed(NPM_HOOK) == ["`eslint .`"]
    findings = extract_findings(
        [
            bash(
                "git add src/cli/index.ts && git commit -m \"$(cat <<'EOF'\nx\nEOF\n)\"",
                output=HUSKY_COMMIT,
            )
        ]
    )
    assert findings.findings == [
        "`git commit` runs the project's pre-commit hooks: `bun test src/`, "
        "`biome check --error-on-warnings`, `tsc --noEmit`."
    ]


UNRECOGNIZED = "Exit code 2\nerror: unrecognized subcommand 'bun'\n\nUsage: rtk [OPTIONS] <COMMAND>"
BUN_TESTS = "$ bun test src/\n 1329 pass\n 0 fail\nRan 1329 tests across 60 files. [924.00ms]"


def test_a_wrapper_that_failed_where_the_bare_command_worked_is_the_lesson() -> None:
    """context-evaluator: the agent prefixed its commands with `rtk`, which has no `bun`
    subcommand; the bare `bun run test` then worked. The second call of the turn never ran
    (Claude Code: "Sibling tool call errored"): neither a failure nor a success."""
    sibling = "<tool_use_error>Sibling tool call errored</tool_use_error>"
    findings = extract_findings(
        [
            calls(
                shell("rtk bun run test", ok=False, output=UNRECOGNIZED),
                shell("rtk bun run lint", ok=False, output=sibling),
            ),
            calls(shell("bun run test", output=BUN_TESTS), shell("bun run lint", output="ok")),
        ]
    )
    assert [render_solved_problem(fix) for fix in findings.solved_problems] == [
        "`rtk bun run test` failed: `error: unrecognized subcommand 'bun'` — "
        "`bun run test` worked instead."
    ]
    assert unwrapped("rtk bun run test 2>&1") == "bun run test"
    # No wrapper: a known program, an option, or no project command inside.
    for command in ("npx vitest run", "time make test", "rtk --version x", "rtk git diff"):
        assert unwrapped(command) is None


def test_a_wrapper_retried_alone_that_failed_again_teaches_nothing() -> None:
    findings = extract_findings(
        [
            bash("rtk bun run test", ok=False, output=UNRECOGNIZED),
            bash("bun run test", ok=False, output="error: Cannot find module 'x'"),
        ]
    )
    assert findings.solved_problems == []


def test_a_command_whose_cut_output_was_silent_passed() -> None:
    """oh-my-posh: `go build` and `gofmt -l` print nothing when all is well, so the output a
    `| head -50` kept was empty (Claude Code writes "(Bash completed with no output)");
    marot/spotter's `mix compile 2>&1 | tail -10` the same."""
    quiet = "(Bash completed with no output)"
    assert says_nothing(quiet) and says_nothing("") and not says_nothing("./x.go:3: error")
    findings = extract_findings(
        [
            bash("cd src && go build ./... 2>&1 | head -50", output=quiet),
            bash("mix compile 2>&1 | tail -10", output=""),
            bash("go vet ./... 2>&1 | head -20", output="vet: ./x.go:12: unreachable code"),
        ]
    )
    assert [command.command for command in findings.commands] == [
        "cd src && go build ./...",
        "mix compile",
    ]


def test_the_plan_of_a_change_and_a_failures_cause_said_mid_work_are_not_findings() -> None:
    # oh-my-posh: the proposal an answer asked permission for.
    plan = (
        "No other logic needs to change — the step's `go mod download` doesn't depend on "
        "GoReleaser's output."
    )
    assert facts_in(plan, concluded=True) == []
    # agentv: why the push just failed, said before the agent fixed it.
    moment = (
        "The pre-push hook failed because of lint errors in `.claude/settings.json` and "
        "`.opencode/plugins/entire.ts`."
    )
    assert facts_in(moment) == []
    assert facts_in(moment, concluded=True) == [moment]


def test_a_word_in_double_quotes_is_named_not_said() -> None:
    """oh-my-posh: a sub-agent's report on another project, kept only when firm — and
    "stale" there names a symbol, it says nothing is out of date."""
    line = (
        'There is no separate "stale/error" symbol before the branch in default settings — '
        "a fetch/status error instead replaces the whole bracketed status with "
        "`[PoshGitVcsPrompt error: ...]` in `ErrorColor` (Red)."
    )
    assert fact_weight(line, told_the_user=False) == 1
    assert fact_weight("The `dist/` folder is stale after a release.", told_the_user=False) == 2
    report = tool("Agent", {"prompt": "Research posh-git"}, output=line)
    assert extract_findings([calls(report)]).findings == []


def test_one_task_a_task_runner_ran_says_how_the_project_runs_it() -> None:
    """entireio/cli, "lint errors fixed": the session's only run of the linter went through
    mise; `<program> run <task>` is a task runner's shape, and its success proves the task.
    Another program Memtab does not know needs the session to lean on it (`bd`)."""
    lint_clean = "[lint] $ golangci-lint run ./...\n0 issues.\n"
    findings = extract_findings(
        [
            bash("mise run lint 2>&1 | head -50", output=lint_clean),
            bash("bd show spotter-4te", output="spotter-4te: OpenTelemetry tracing"),
        ]
    )
    assert [(tool.program, tool.examples) for tool in findings.tools] == [
        ("mise", ("mise run lint",))
    ]


# context-evaluator, "action summary grouped by file": `bun run test 2>&1 | tail -20`, whose
# tests of error handling log errors on the way; bun's closing counts are the verdict.
BUN_TAIL = (
    '315 |         submitJobError: new Error("Database connection failed"),\n'
    "                              ^\n"
    "error: Database connection failed\n"
    "      at <anonymous> (/src/api/routes/evaluation.test.ts:315:25)\n\n"
    "[EvaluationRepository] Deleted all evaluations (2 records)\n\n"
    " 1290 pass\n 0 fail\n 2795 expect() calls\n"
    "Ran 1290 tests across 58 files. [982.00ms]"
)


def test_a_test_runners_closing_counts_are_its_verdict() -> None:
    assert closing_verdict(BUN_TAIL) is True
    assert output_shows_success(BUN_TAIL)
    assert closing_verdict(" 1288 pass\n 2 fail\nRan 1290 tests across 58 files.") is False
    assert closing_verdict("===== 2 failed, 10 passed in 1.20s =====") is False
    assert closing_verdict("Finished in 0.4 seconds\n297 tests, 0 failures") is True
    assert closing_verdict("error: Database connection failed\nat x.ts:3") is None
    # Biome's closing line is its all-clear, unless it found something.
    assert output_shows_success("$ biome check --write\nChecked 286 files in 128ms. Fixed 1 file.")
    assert not output_shows_success("Checked 286 files in 106ms.\nFound 2 errors.")
    findings = extract_findings(
        [
            bash("rtk bun run test 2>&1", ok=False, output=UNRECOGNIZED),
            bash("bun run test 2>&1 | tail -20", output=BUN_TAIL),
        ]
    )
    assert [command.command for command in findings.commands] == ["bun run test"]
    assert [render_solved_problem(fix) for fix in findings.solved_problems] == [
        "`rtk bun run test` failed: `error: unrecognized subcommand 'bun'` — "
        "`bun run test` worked instead."
    ]


def test_a_line_of_a_file_is_the_code_of_the_moment() -> None:
    """context-evaluator and oh-my-posh: what was changed at `file:line`, or a pointer a
    review or an analysis gives, is no lasting fact — line numbers move. A host's port is
    not a line."""
    changed = (
        "The fix is a single-line removal from `src/api/routes/remediation.ts:613` — dropping "
        "`repositoryUrl: repoUrl` from the `submitJob` call in `evaluateImpact`."
    )
    assert facts_in(changed, concluded=True) == []
    port = "The API requires `api.example.com:443` because the proxy only forwards TLS."
    assert facts_in(port, concluded=True) == [port]
