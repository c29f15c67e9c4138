"""What the offline writer takes from a transcript, rule by rule (issue 11's harms first)."""

from __future__ import annotations

import pytest

from memtab.writer.offline.extract import extract_findings
from memtab.writer.offline.findings import WorkingCommand
from memtab.writer.offline.shell.commands import (
    command_family,
    command_kind,
    display_command,
    is_project_command,
)
from memtab.writer.offline.shell.outcomes import error_signature
from memtab.writer.offline.solved_problems import SolvedProblem

from .events import answer, bash, calls, shell, tool, user

# --- commands that work ------------------------------------------------------------------


def test_a_throwaway_script_the_agent_deleted_is_never_a_command() -> None:
    findings = extract_findings(
        [
            calls(tool("Write", {"file_path": "/src/acme/scripts/test_repro.py", "content": "…"})),
            bash("python scripts/test_repro.py", output="reproduced"),
            bash("./scripts/test_repro.sh"),
            bash("rm scripts/test_repro.py scripts/test_repro.sh"),
            bash("cat > build_check.sh <<'EOF'\nmake build\nEOF"),
            bash("bash build_check.sh"),
            bash("rm -f build_check.sh"),
            bash("python -c 'import acme; print(acme.__version__)'"),
            bash("python3 - <<'EOF'\nprint(1)\nEOF"),
            bash("/tmp/check-build.sh"),
            bash("npm install --save-dev happy-dom"),
            bash("cd /home/dev/src/acme/assets && npm test"),
            bash("make test"),
        ]
    )
    assert findings.commands == [WorkingCommand("make test", "tests")]


def test_exploration_and_commands_of_unknown_status_are_never_commands() -> None:
    findings = extract_findings(
        [
            bash("cd app"),
            bash("ls -la && cat README.md"),
            bash("git status"),
            bash("npm test || true", output="1 failed"),
            bash("pytest -q 2>&1 | tail -5", output="collected 3 items"),  # no end shown
            bash("go test ./... | tail -3", output="ok  pkg/a\nFAIL pkg/b"),
            bash("mix test | grep -v warning", output="3 tests, 0 failures"),  # lines hidden
            bash("make check", ok=False, output="error: lint"),
        ]
    )
    assert findings.commands == []


def test_a_command_cut_to_its_end_counts_when_that_end_says_it_passed() -> None:
    """`go test ./... 2>&1 | tail -30` reports tail's status, but what tail shows is how the
    run ended (real sessions of 135yshr/meow and marot/spotter)."""
    findings = extract_findings(
        [
            bash("go test ./... 2>&1 | tail -30", output="ok  \tgithub.com/x/meow/pkg/a\t0.4s"),
            bash(
                "mix test 2>&1 | tail -5", output="Finished in 2.1 seconds\n297 tests, 0 failures"
            ),
        ]
    )
    assert findings.commands == [
        WorkingCommand("go test ./...", "tests"),
        WorkingCommand("mix test", "tests"),
    ]


def test_a_run_of_tests_picked_by_name_is_that_moments_check() -> None:
    findings = extract_findings(
        [
            bash('go test ./cmd/entire/cli/ -run "Shell|Stanza" -count=1'),  # entireio/cli
            bash("pytest -k slow"),
            bash("pytest tests/test_api.py::test_health -q"),
            bash("mise run test:integration -- -run TestConcurrentSession"),
            bash("mise run test"),
            bash("mise run lint"),
            bash("mise run fmt"),
        ]
    )
    assert findings.commands == []
    # A task handed its tests through `--` is kept as the task: the project's own command.
    assert [tool.examples for tool in findings.tools] == [
        ("mise run test:integration", "mise run test", "mise run lint", "mise run fmt")
    ]


def test_a_command_too_long_to_write_whole_is_never_written_cut() -> None:
    long = "pytest tests/integration/" + "x" * 150 + " -q"
    findings = extract_findings([bash(long), bash("pytest tests/unit -q")])
    assert findings.commands == [WorkingCommand("pytest tests/unit -q", "tests")]
    assert display_command(long) is None


@pytest.mark.parametrize(
    ("command", "shown"),
    [
        # a real session of 135yshr/meow: the build, then a look at what it built
        (
            'hugo --gc --minify 2>&1 && echo "---SITEMAP---" && cat public/sitemap.xml',
            "hugo --gc --minify",
        ),
        ("cd assets && npm run build && ls dist", "cd assets && npm run build"),
        ("pytest -q > out.txt; cat out.txt", "pytest -q"),
        ("mise run fmt && mise run lint", "mise run fmt && mise run lint"),
        ("mise run lint 2>&1 && mise run fmt", "mise run lint && mise run fmt"),
        ("MIX_ENV=test mix ecto.migrate", "MIX_ENV=test mix ecto.migrate"),
        ("make test || echo failed", "make test || echo failed"),
    ],
)
def test_a_command_is_written_without_the_looking_around_chained_to_it(
    command: str, shown: str
) -> None:
    assert display_command(command) == shown


def test_one_command_per_family_the_shortest() -> None:
    findings = extract_findings(
        [bash("mix test --seed 0"), bash("mix test"), bash("mix test --trace")]
    )
    assert findings.commands == [WorkingCommand("mix test", "tests")]


# --- fixes --------------------------------------------------------------------------------


def test_a_failure_is_a_lesson_when_a_later_step_fixed_it_and_says_what() -> None:
    findings = extract_findings(
        [
            bash("pytest -q", ok=False, output="E   ImportError: No module named 'acme'"),
            bash("git status"),
            bash("uv sync"),
            bash("pip install -e ."),
            bash("pytest -q"),
        ]
    )
    assert findings.solved_problems == [
        SolvedProblem(
            "pytest -q",
            "ImportError: No module named 'acme'",
            ("`uv sync`", "`pip install -e .`"),
            family="pytest",
        )
    ]


def test_running_the_same_command_again_is_not_a_fix() -> None:
    findings = extract_findings(
        [
            bash("make test", ok=False, output="FAILED tests/test_clock.py::test_tick"),
            bash("make test"),
        ]
    )
    assert findings.solved_problems == []


def test_a_different_command_that_worked_is_named_not_called_a_rerun() -> None:
    first = 'git add -A && git commit -m "feat: refresh tokens\n\n- rotate on use"'
    second = 'git add -A && git commit --no-verify -m "feat: refresh tokens\n\n- rotate"'
    findings = extract_findings(
        [
            bash(first, ok=False, output="Pre-commit validation failed:\n[FORMAT] not formatted"),
            bash(second),
            bash("npm test", ok=False, output="Error: Cannot find module 'vitest'"),
            bash("npm test -- --runInBand"),
        ]
    )
    # The two commits differ only in the middle of a long line: a cut display would have
    # shown them equal ("it worked when run again"). Written whole or by family, never cut.
    assert findings.solved_problems == [
        SolvedProblem(
            "npm test",
            "Error: Cannot find module 'vitest'",
            (),
            "npm test -- --runInBand",
            "npm test",
        )
    ]


def test_editing_code_until_the_tests_pass_is_the_work_not_a_lesson() -> None:
    findings = extract_findings(
        [
            bash("cargo test", ok=False, output="error[E0425]: cannot find value `x`"),
            calls(tool("apply_patch", "*** Begin Patch\n*** Update File: src/lib.rs\n*** End")),
            bash("cargo test"),
        ]
    )
    assert findings.solved_problems == []


def test_a_commit_hook_fixed_by_a_command_is_a_lesson() -> None:
    findings = extract_findings(
        [
            bash(
                'git commit -m "feat: otel"',
                ok=False,
                output="Pre-commit validation failed:\\n\\n[FORMAT] Code is not formatted.",
            ),
            bash("mix format"),
            bash('git commit -m "feat: otel"'),
        ]
    )
    assert findings.solved_problems == [
        SolvedProblem(
            'git commit -m "feat: otel"',
            "Pre-commit validation failed",
            ("`mix format`",),
            family="git commit",
        )
    ]


def test_a_failed_guess_is_not_a_lesson() -> None:
    findings = extract_findings(
        [
            calls(
                tool(
                    "Read",
                    {"file_path": "/src/acme/pages/_document.js"},
                    output="<tool_use_error>File does not exist.</tool_use_error>",
                    ok=False,
                )
            ),
            calls(tool("Read", {"file_path": "/src/acme/src/pages/_document.tsx"})),
            bash(
                "pytest tests/test_auth.py",
                ok=False,
                output="ERROR: file or directory not "
                "found: tests/test_auth.py\nno such file or directory",
            ),
            bash("ls tests"),
            bash("pytest tests/unit/test_auth.py"),
            bash("cat missing.txt", ok=False, output="No such file or directory"),
        ]
    )
    assert findings.solved_problems == []


def test_agent_mechanics_and_refused_tools_are_not_lessons() -> None:
    findings = extract_findings(
        [
            calls(
                tool(
                    "Edit",
                    {"file_path": "src/a.py"},
                    output="<tool_use_error>String to replace not found in file.",
                    ok=False,
                ),
                tool(
                    "Write",
                    {"file_path": "/path/CLAUDE.md"},
                    output="Claude requested permissions to write to /path/CLAUDE.md",
                    ok=False,
                ),
            ),
            calls(tool("Edit", {"file_path": "src/a.py"})),
        ]
    )
    assert findings.empty


def test_a_fix_must_follow_its_failure_closely() -> None:
    far = [bash("make check", ok=False, output="error: unused import")]
    far += [bash(f"git log -{n}") for n in range(4)] + [bash("make fmt")] * 1
    far += [calls(tool("Read", {"file_path": f"src/{n}.py"})) for n in range(8)]
    far += [bash("make check")]
    assert extract_findings(far).solved_problems == []


def test_sub_agent_events_are_skipped() -> None:
    findings = extract_findings(
        [user("always use tabs", sidechain=True), calls(shell("make check"), sidechain=True)]
    )
    assert findings.empty


def test_findings_and_directives_come_together() -> None:
    findings = extract_findings(
        [
            user("Run the tests. I prefer npm ci."),
            bash("npm ci"),
            answer(
                "Done. The root cause: `vitest` needs `happy-dom` installed for DOM tests.\n\n"
                "Want me to add it to CI?"
            ),
        ]
    )
    assert findings.directives == ["I prefer npm ci."]
    assert findings.commands == [WorkingCommand("npm ci", "install")]
    assert findings.findings == ["`vitest` needs `happy-dom` installed for DOM tests."]


# --- building blocks ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        (
            'Traceback (most recent call last):\n  File "a.py", line 3, in <module>\n'
            "    main()\nValueError: bad config key 'x'",
            "ValueError: bad config key 'x'",
        ),
        (
            "collected 3 items\n\nE   AssertionError: expected 2, got 3\nE   assert 3 == 2",
            "AssertionError: expected 2, got 3",
        ),
        (
            "Exit code 1\nbash: line 1: pnpm: command not found",
            "bash: line 1: pnpm: command not found",
        ),
        (
            "npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree",
            "npm ERR! code ERESOLVE",
        ),
        ("\x1b[31merror\x1b[0m: could not compile `app`", "error: could not compile `app`"),
        (
            "FAIL tests/a.test.ts\n  ● Test suite failed to run\n\n    Cannot find module 'x'\n",
            "Cannot find module 'x'",
        ),
        ("Pre-commit validation failed:\\n\\n[FORMAT] x", "Pre-commit validation failed"),
        ("Command exited with code 2", ""),
        ("all good", ""),
        ("x" * 300 + " failed", "x" * 159 + "…"),
    ],
)
def test_error_signatures(output: str, expected: str) -> None:
    assert error_signature(output) == expected


@pytest.mark.parametrize(
    ("command", "family"),
    [
        ("pytest tests -x", "pytest tests"),
        ("pytest -q tests", "pytest tests"),
        ("cd app && npm run lint -- --fix", "npm run lint"),
        ("TEST=1 bun x jest tests --runInBand", "bun x jest"),
        ("python -m pytest -q > out.txt 2>&1", "python -m pytest"),
        ("make db-up && pytest -q; echo done", "pytest"),
        ("/usr/bin/make check", "make check"),
        ('git add -A && git commit -m "x"', "git commit"),
    ],
)
def test_command_families(command: str, family: str) -> None:
    assert command_family(command) == family


@pytest.mark.parametrize(
    ("command", "project", "kind"),
    [
        ("make check", True, None),
        ("npm ci", True, "install"),
        ("uv run pytest -q", True, "tests"),
        ("cargo clippy --all-targets", True, "lint"),
        ("npx tsc --noEmit", True, "type check"),
        ("cargo fmt", True, "format"),
        ("bun run docs:build", True, "build"),
        ("python -m mypy app", True, "type check"),
        ("./scripts/test.sh", True, "tests"),
        ("mix credo --strict", True, "lint"),
        ("mix dialyzer", True, "type check"),
        ("pip install -e '.[test]'", True, "install"),
        ("npm view react version", False, None),
        ("git commit -m 'tests pass'", False, None),
        ("python /tmp/example.py", False, None),
        ("ls -la && cat README.md", False, None),
        ("pip install requests", False, None),
        ("node -e 'console.log(1)'", False, None),
    ],
)
def test_project_commands_and_their_kind(command: str, project: bool, kind: str | None) -> None:
    assert is_project_command(command) is project
    if project:
        assert command_kind(command) == kind
