"""Commands as the project runs them, from real lines of sessions tuned on
(tests/fixtures/shared/claude-code: FSM1/cipher-box, Safecast/safecast-map-MCP,
135yshr/meow): a package manager's choice of a workspace package is no test picked by name,
a package script whose only output is its banner passed, and a directory given by its
absolute path inside the session's project is written relative to it."""

from __future__ import annotations

from memtab.writer.offline.extract import extract_findings
from memtab.writer.offline.notes import render_solved_problem
from memtab.writer.offline.shell.command_scope import (
    in_project,
    is_narrowed,
    without_passthrough,
    worktree_added,
)
from memtab.writer.offline.shell.outcomes import says_nothing

from .events import bash

CIPHER_BOX = "/Users/michael/Code/cipher-box"
SAFECAST = "/home/rob/Documents/Safecast/safecast-map-MCP"


def test_a_workspace_package_is_no_test_picked_by_name() -> None:
    # cipher-box: pnpm's --filter picks the package; the words after `--` pick the tests
    assert not is_narrowed("pnpm --filter api test")
    assert not is_narrowed("pnpm -F web lint")
    assert is_narrowed("vitest run --filter login")  # a test runner's own filter still is
    assert (
        without_passthrough("pnpm --filter @cipherbox/crypto test -- --run registry 2>&1")
        == "pnpm --filter @cipherbox/crypto test"
    )
    assert without_passthrough("pnpm --filter=api test -- auth.controller.spec") == (
        "pnpm --filter=api test"
    )
    findings = extract_findings(
        [
            bash(
                "pnpm --filter @cipherbox/crypto test -- --run registry 2>&1",
                output=" ✓ src/__tests__/aes.test.ts (30 tests) 358ms\n Test Files  12 passed (12)",
            ),
            bash(
                "pnpm --filter api test -- auth.controller.spec 2>&1 | tail -15",
                output="Tests:       26 passed, 26 total\nRan all test suites matching /auth/i.",
            ),
        ]
    )
    assert [command.command for command in findings.commands] == [
        "pnpm --filter @cipherbox/crypto test",
        "pnpm --filter api test",
    ]


def test_a_package_script_that_printed_only_its_banner_passed() -> None:
    # cipher-box: `pnpm lint:fix 2>&1 | tail -20` — eslint said nothing: no warning left
    banner = "\n> cipher-box@0.13.2 lint:fix /Users/michael/Code/cipher-box\n> eslint . --fix\n\n"
    assert says_nothing(banner)
    assert not says_nothing(banner + "  12:3  warning  Unexpected any  no-explicit-any\n")
    findings = extract_findings([bash("pnpm lint:fix 2>&1 | tail -20", output=banner)])
    assert [command.command for command in findings.commands] == ["pnpm lint:fix"]


def test_a_directory_inside_the_project_is_written_relative_to_it() -> None:
    # meow: hugo built the site from the project's website/ folder, named by absolute path
    meow = "/Users/135yshr/go/src/github.com/135yshr/meow"
    assert in_project(f"cd {meow}/website && hugo --gc --minify 2>&1 | tail -40", meow) == (
        "cd website && hugo --gc --minify 2>&1 | tail -40"
    )
    assert in_project(f"hugo --gc --minify -s {meow}/website 2>&1", meow) == (
        "hugo --gc --minify -s website 2>&1"
    )
    assert in_project(f"cd {CIPHER_BOX} && git checkout main", CIPHER_BOX) == "git checkout main"
    assert in_project(f"pnpm --dir {CIPHER_BOX} lint", CIPHER_BOX) == "pnpm lint"
    # outside the project (or a sibling sharing its prefix) it stays as it is: a one-off
    assert in_project("cd /Users/michael/Code/other && make", CIPHER_BOX).startswith("cd /")
    assert in_project(f"cd {CIPHER_BOX}-old && make", CIPHER_BOX).startswith("cd /")
    assert in_project(f"cd {CIPHER_BOX} && make", None) == f"cd {CIPHER_BOX} && make"


def test_a_build_that_needed_the_go_toolchain_on_path_is_a_fix() -> None:
    # safecast: `go` was not on the shell's PATH; the same build with it added worked
    failed = bash(
        f"cd {SAFECAST}/go && go build ./cmd/mcp-server/ 2>&1",
        ok=False,
        output="Exit code 127\n/bin/bash: line 1: go: command not found\n",
    )
    worked = bash(
        f"PATH=$PATH:/usr/local/go/bin && cd {SAFECAST}/go && go build ./cmd/mcp-server/ 2>&1",
        output="",
    )
    # read without the session's directory, both name a folder in someone's home: one-offs
    assert extract_findings([failed, worked]).solved_problems == []
    for event in (failed, worked):
        event.cwd = SAFECAST
    [fix] = extract_findings([failed, worked]).solved_problems
    assert render_solved_problem(fix) == (
        "`cd go && go build ./cmd/mcp-server/` failed: `/bin/bash: line 1: go: command not "
        "found` — `PATH=$PATH:/usr/local/go/bin && cd go && go build ./cmd/mcp-server/` "
        "worked instead."
    )


def test_a_fix_whose_working_command_is_too_long_to_write_is_not_kept() -> None:
    # its family alone ("`go build` worked instead") would hide what made it work
    failed = bash("go build ./cmd/mcp-server/", ok=False, output="go: command not found")
    long_path = ":".join(f"/opt/toolchains/go-1.2{n}/bin" for n in range(4))
    worked = bash(f"PATH=$PATH:{long_path} && go build ./cmd/mcp-server/", output="")
    assert extract_findings([failed, worked]).solved_problems == []


ENTIRECONTEXT = "/Users/teslamint/workspace/entirecontext"


def test_a_worktree_the_session_added_is_the_project() -> None:
    # entirecontext (Korean): the migration was made, type-checked and tested in a worktree
    # the session added beside the repository; every command there named it by its path
    added = bash(
        "git worktree add ../entirecontext-mcp-sdk-2-migration -b feat/mcp-sdk-2-migration "
        "main 2>&1",
        output="Preparing worktree (new branch 'feat/mcp-sdk-2-migration')\n"
        "HEAD is now at a724e07 docs(retro): close mcp serve silent-failure release loop",
    )
    checked = bash(
        f"cd {ENTIRECONTEXT}-mcp-sdk-2-migration && uv run mypy src/entirecontext/ 2>&1 | tail -5",
        output="Success: no issues found in 125 source files\n"
        f"Shell cwd was reset to {ENTIRECONTEXT}",
    )
    for event in (added, checked):
        event.cwd = ENTIRECONTEXT
    found = extract_findings([added, checked]).commands
    assert [command.command for command in found] == ["uv run mypy src/entirecontext/"]
    # a folder beside the project that no `git worktree add` made stays another project's
    assert extract_findings([checked]).commands == []


def test_the_folder_a_worktree_is_added_in() -> None:
    assert worktree_added(
        "git worktree add ../worktrees/core -b feature/core 2>&1", "/w/repiq"
    ) == ("/w/worktrees/core")
    assert worktree_added("git worktree add -b fix/x --detach /tmp/x HEAD", "/w/app") == "/tmp/x"
    assert worktree_added("git fetch && git worktree add wt/feat", "/w/app") == "/w/app/wt/feat"
    assert worktree_added("git worktree add ~/elsewhere", "/w/app") is None  # a shell's path
    assert worktree_added("git worktree list", "/w/app") is None
    assert worktree_added("git worktree add ../x", None) is None  # no project folder known
