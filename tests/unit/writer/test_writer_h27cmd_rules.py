"""Commands and fixes (issue 24, the tenth pass): rules from real lines of the sessions
tuned on, each for a class of notes seen in several projects or fixed by the transcript
format itself."""

from __future__ import annotations

from memtab.transcripts.claude import background_task, ended_task
from memtab.transcripts.events import TranscriptEvent
from memtab.writer.offline.extract import extract_findings
from memtab.writer.offline.notes import render_solved_problem
from memtab.writer.offline.shell.command_scope import does_less, narrows
from memtab.writer.offline.shell.commands import command_kind
from memtab.writer.offline.shell.outcomes import output_shows_failure
from memtab.writer.offline.solved_problems import can_solve

from .events import bash, calls, shell, tool

# matthsena/reef-coder: `bun test` failed on a flaky test; the agent then ran the one file.
_BUN_FAILED = (
    "Exit code 1\nsrc/components/App.test.tsx:\n"
    "error: expect(received).toContain(expected)\n\n 12 pass\n 1 fail\n"
)
_ONE_FILE_PASSED = (
    "bun test v1.3.3 (274e01c7)\n\nsrc/components/App.test.tsx:\n\n 31 pass\n 0 fail\n"
)


def test_a_narrower_run_of_the_failed_command_is_no_fix() -> None:
    failed = bash("bun test 2>&1", ok=False, output=_BUN_FAILED)
    narrower = bash("bun test src/components/App.test.tsx 2>&1", output=_ONE_FILE_PASSED)
    assert extract_findings([failed, narrower]).solved_problems == []
    # the same through a wrapper that failed (`rtk bun test`): a part passing fixes nothing
    wrapped = bash("rtk bun test", ok=False, output="error: unrecognized subcommand 'bun'")
    assert extract_findings([wrapped, narrower]).solved_problems == []


def test_dropping_a_word_of_a_narrowed_run_is_still_a_fix() -> None:
    # jdx/mise: `cargo test wildcard --lib` failed (no library target); without `--lib`
    # the same tests ran — what was learnt is the flag, kept
    failed = bash(
        "cargo test wildcard --lib",
        ok=False,
        output="error: no library targets found in package `mise`",
    )
    worked = bash("cargo test wildcard", output="test result: ok. 4 passed; 0 failed")
    [fix] = extract_findings([failed, worked]).solved_problems
    assert render_solved_problem(fix) == (
        "`cargo test wildcard --lib` failed: `` error: no library targets found in package "
        "`mise` `` — `cargo test wildcard` worked instead."
    )


def test_narrows_names_runs_of_part_of_a_command() -> None:
    assert narrows("bun test src/components/App.test.tsx", "bun test")
    assert narrows("pytest -k login", "pytest")
    assert narrows("pnpm test -- --run src/a.test.tsx", "pnpm test")
    assert not narrows("cargo test wildcard", "cargo test wildcard --lib")
    assert not narrows("bun run test", "rtk bun run test")
    assert not narrows("npm run build", "npm run build -- --watch")


# marot/spotter and Viniciuscarvalho/FitToday (Claude Code): a command sent to the
# background, and the TaskOutput poll that reports how it ended.
def _background(command: str, task: str) -> TranscriptEvent:
    started = shell(
        command,
        output=f"Command running in background with ID: {task}. Output is "
        f"being written to: /tmp/claude-1000/-home-USER-projects-spotter/tasks/{task}.output",
    )
    return calls(started)


def _task_output(task: str, exit_code: int, output: str) -> TranscriptEvent:
    report = (
        f"<retrieval_status>success</retrieval_status>\n\n<task_id>{task}</task_id>\n\n"
        "<task_type>local_bash</task_type>\n\n<status>completed</status>\n\n"
        f"<exit_code>{exit_code}</exit_code>\n\n<output>\n{output}\n</output>"
    )
    return calls(
        tool("TaskOutput", {"task_id": task, "block": True, "timeout": 300000}, output=report)
    )


_EXUNIT_PASSED = (
    "Running ExUnit with seed: 583328, max_cases: 32\n\nFinished in 0.8 seconds\n"
    "49 tests, 0 failures"
)
_EXUNIT_FAILED = (
    "  1) test sync (Spotter.SyncTest)\n     ** (MatchError) no match\n\n49 tests, 1 failure"
)


def _commands(*events: TranscriptEvent) -> list[str]:
    return [command.command for command in extract_findings(events).commands]


def test_a_background_command_that_ended_failing_is_not_a_command_that_works() -> None:
    assert _commands(_background("mix test 2>&1", "be613ab")) == ["mix test"]  # it started
    ended_well = _task_output("be613ab", 0, _EXUNIT_PASSED)
    assert _commands(_background("mix test 2>&1", "be613ab"), ended_well) == ["mix test"]
    ended_failing = _task_output("be613ab", 2, _EXUNIT_FAILED)
    assert _commands(_background("mix test 2>&1", "be613ab"), ended_failing) == []
    # a poll of a task the session never started in the background (a sub-agent's) is no run
    assert _commands(_task_output("aef9ffc", 0, _EXUNIT_PASSED)) == []


def test_a_command_that_failed_after_it_worked_is_not_a_command_that_works() -> None:
    """A command kept as working worked after its last failure (issue 95): a background run
    that ended failing takes back the note an earlier run kept; one more run that passes
    keeps it again."""
    events = [
        bash("mix test 2>&1", output=_EXUNIT_PASSED),
        _background("mix test 2>&1", "b7b23b2"),
        _task_output("b7b23b2", 2, _EXUNIT_FAILED),
    ]
    assert _commands(*events) == []
    assert _commands(*events, bash("mix test", output=_EXUNIT_PASSED)) == ["mix test"]


_BUILD = (
    "cd FitToday && xcodebuild -scheme FitToday -destination 'platform=iOS Simulator,"
    "name=iPhone 16' build"
)
_XCODE = f"{_BUILD} 2>&1 | tail -20"


def test_a_background_command_cut_by_tail_is_judged_by_the_end_of_its_output() -> None:
    # the poll's exit code is tail's: what the output shows decides (`commands.uncut`)
    destinations = "\t\t{ platform:iOS Simulator, arch:arm64, id:EB79, OS:26.0, name:iPhone Air }"
    assert (
        _commands(_background(_XCODE, "b2qk0amdo"), _task_output("b2qk0amdo", 0, destinations))
        == []
    )
    built = "note: Disabling hardened runtime with ad-hoc codesigning.\n** BUILD SUCCEEDED **"
    assert _commands(_background(_XCODE, "b2qk0amdo"), _task_output("b2qk0amdo", 0, built)) == [
        _BUILD
    ]


def test_task_polls_are_read_in_both_formats() -> None:
    [poll] = _task_output("be613ab", 0, "ok").tool_calls
    assert ended_task(poll) == ("be613ab", 0, "ok")
    older = tool(
        "BashOutput",
        {"bash_id": "b2f8b9"},
        output="<status>failed</status>\n\n<exit_code>1</exit_code>\n\n<stdout>\nboom\n</stdout>",
    )
    assert ended_task(older) == ("b2f8b9", 1, "boom")
    running = tool("BashOutput", {"bash_id": "b2f8b9"}, output="<status>running</status>")
    assert ended_task(running) is None
    assert (
        background_task(
            shell("npm run dev", output="Command running in background with ID: b2f8b9")
        )
        == "b2f8b9"
    )
    assert background_task(shell("npm run dev", output="ready in 812 ms")) is None


def test_a_run_cut_by_tail_that_shows_it_failed_is_a_failure_a_fix_can_follow() -> None:
    # PackmindHub/context-evaluator: the wrapper's error shown through `| tail`, then the
    # bare command passed — the same lesson as when the wrapper's own status said it failed
    failed = bash(
        "rtk bun run test 2>&1 | tail -20",
        output="error: unrecognized subcommand 'bun'\n\nUsage: rtk [OPTIONS] <COMMAND>\n\n"
        "For more information, try '--help'.",
    )
    worked = bash(
        "bun run test 2>&1 | tail -30",
        output=" 1351 pass\n 0 fail\n 2939 expect() calls\nRan 1351 tests across 61 files.",
    )
    [fix] = extract_findings([failed, worked]).solved_problems
    assert render_solved_problem(fix) == (
        "`rtk bun run test` failed: `error: unrecognized subcommand 'bun'` — `bun run test` "
        "worked instead."
    )


def test_what_a_cut_output_shows_decides_whether_it_failed() -> None:
    # dOwOd/exvs2-cost-calculator: `pnpm exec tsc --noEmit 2>&1 | tail -20`
    tsc = (
        "src/components/__tests__/HealthSelector.test.tsx(17,16): error TS2339: Property 'fn' "
        "does not exist on type 'typeof vi'."
    )
    assert output_shows_failure(tsc)
    assert output_shows_failure("Tests  4 failed | 433 passed (437)")
    assert output_shows_failure('error: script "test" exited with code 1')
    assert not output_shows_failure("Tests  450 passed (450)\n   Duration  1.47s")
    assert not output_shows_failure("[Parser] Warning: could not parse\n 1351 pass\n 0 fail")
    assert not output_shows_failure("Total in 325 ms")


def test_an_option_that_skips_a_step_names_no_kind() -> None:
    # Viniciuscarvalho/FitToday: a release that skips the tests is not a test run
    assert command_kind("./deploy.sh appstore --release --skip-tests") is None
    assert command_kind("cargo build --no-default-features") == "build"
    assert command_kind("mix test --exclude integration") == "tests"


def test_a_commit_made_with_the_hooks_skipped_is_no_fix_of_the_hook_that_failed() -> None:
    # yutakobayashidev/repiq: the commit-msg hook failed, the commits went through with
    # `--no-verify` — that the hooks were skipped is no way that works
    failed = bash(
        'git commit -m "build(nix): migrate flake.nix to flake-parts"',
        ok=False,
        output="gitleaks.................................................................Failed\n"
        "error: commit-msg hook failed",
    )
    for skipped in (
        'git commit --no-verify -m "build(nix): migrate flake.nix to flake-parts"',
        'git commit -n -m "build(nix): migrate flake.nix to flake-parts"',
        'SKIP=gitleaks git commit -m "build(nix): migrate flake.nix to flake-parts"',
    ):
        worked = bash(skipped, output="[main 302b107] build(nix): migrate flake.nix to flake-parts")
        assert extract_findings([failed, worked]).solved_problems == [], skipped
    assert does_less("mvn package -DskipTests", "mvn package")
    assert not does_less("git commit --no-verify -m x", "git commit --no-verify -m y")


def test_a_rerun_cut_by_tail_that_shows_it_passed_proves_the_fix_between() -> None:
    # context-evaluator's rerun `bun run test 2>&1 | tail -30` ends on bun's closing counts:
    # its status is tail's, what it shows says it passed — as good as its own exit status
    failed = bash(
        "bun run test",
        ok=False,
        output="error: Cannot find module '@shared/constants' from 'src/cli/index.ts'",
    )
    install = bash("bun install", output="bun install v1.3.5\n\nChecked 412 installs")
    rerun = bash(
        "bun run test 2>&1 | tail -30",
        output=" 1351 pass\n 0 fail\n 2939 expect() calls\nRan 1351 tests across 61 files.",
    )
    [fix] = extract_findings([failed, install, rerun]).solved_problems
    assert render_solved_problem(fix) == (
        "`bun run test` failed: `error: Cannot find module '@shared/constants' from "
        "'src/cli/index.ts'` — fixed by `bun install`."
    )
    unclear = bash("bun run test 2>&1 | tail -3", output="src/cli/index.ts:\n(skip) slow")
    assert extract_findings([failed, install, unclear]).solved_problems == []


def test_git_bookkeeping_and_workflow_tool_calls_are_no_part_of_a_fix() -> None:
    # marot/spotter: between a failed `mix test` and the run that passed, the session
    # updated its bead and shelved changes — the edit was the work, nothing was learnt
    failed = bash(
        "mix test",
        ok=False,
        output="** (CompileError) lib/spotter/services/active_session_registry.ex:3: "
        "undefined function foo/0",
    )
    bead = bash("bd update spotter-a0y.1 --status in_progress", output="✓ Updated spotter-a0y.1")
    stash = bash("git stash", output="Saved working directory and index state WIP on main")
    edit = calls(
        tool(
            "Edit",
            {"file_path": "lib/spotter/services/active_session_registry.ex", "old_string": "a"},
        )
    )
    passed = bash("mix test", output="49 tests, 0 failures")
    assert extract_findings([failed, bead, stash, edit, passed]).solved_problems == []
    # a project command between them still is (`mix deps.get`), and a task run (`mise run fmt`)
    deps = bash("mix deps.get", output="All dependencies are up to date")
    [fix] = extract_findings([failed, bead, deps, stash, edit, passed]).solved_problems
    assert fix.solving_steps == (
        "`mix deps.get`",
        "editing `lib/spotter/services/active_session_registry.ex`",
    )
    assert can_solve("mise run fmt") and can_solve("git submodule update --init test/bats")
    assert not can_solve("git add -A") and not can_solve("rtk git diff")
