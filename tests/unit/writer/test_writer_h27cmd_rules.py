"""Commands and fixes (issue 24, the tenth pass): rules from real lines of the sessions
tuned on, each for a class of notes seen in several projects or fixed by the transcript
format itself."""

from __future__ import annotations

from memtab.writer.command_scope import narrows
from memtab.writer.extract import extract_findings
from memtab.writer.notes import render_fix

from .events import bash

# matthsena/reef-coder: `bun test` failed on a flaky test; the agent then ran the one file.
_BUN_FAILED = (
    "Exit code 1\nsrc/components/App.test.tsx:\n"
    "error: expect(received).toContain(expected)\n\n 12 pass\n 1 fail\n"
)
_ONE_FILE_PASSED = "bun test v1.3.3 (274e01c7)\n\nsrc/components/App.test.tsx:\n\n 31 pass\n 0 fail\n"


def test_a_narrower_run_of_the_failed_command_is_no_fix() -> None:
    failed = bash("bun test 2>&1", ok=False, output=_BUN_FAILED)
    narrower = bash("bun test src/components/App.test.tsx 2>&1", output=_ONE_FILE_PASSED)
    assert extract_findings([failed, narrower]).fixes == []
    # the same through a wrapper that failed (`rtk bun test`): a part passing fixes nothing
    wrapped = bash("rtk bun test", ok=False, output="error: unrecognized subcommand 'bun'")
    assert extract_findings([wrapped, narrower]).fixes == []


def test_dropping_a_word_of_a_narrowed_run_is_still_a_fix() -> None:
    # jdx/mise: `cargo test wildcard --lib` failed (no library target); without `--lib`
    # the same tests ran — what was learnt is the flag, kept
    failed = bash(
        "cargo test wildcard --lib",
        ok=False,
        output="error: no library targets found in package `mise`",
    )
    worked = bash("cargo test wildcard", output="test result: ok. 4 passed; 0 failed")
    [fix] = extract_findings([failed, worked]).fixes
    assert render_fix(fix) == (
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
