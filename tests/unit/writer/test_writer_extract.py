"""What the offline writer takes from a transcript, rule by rule."""

from __future__ import annotations

from typing import Any

import pytest

from memtab.writer.extract import (
    Failure,
    command_family,
    command_kind,
    directives_in,
    error_signature,
    extract_findings,
    is_project_command,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "From now on, always run `make check` before pushing.",
            ["Always run `make check` before pushing."],
        ),
        ("Remember that staging is read-only", ["Staging is read-only."]),
        ("Please never commit to main!", ["Never commit to main!"]),
        ("Fix the bug. Also, prefer pathlib over os.path.", ["Prefer pathlib over os.path."]),
        ("We should always pin versions in CI.", ["We should always pin versions in CI."]),
        ("I prefer small commits", ["I prefer small commits."]),
        ("- always use uv\n- never use pip", ["Always use uv.", "Never use pip."]),
        ("Why does it always fail?", []),
        ("It always fails on CI.", []),
        ("Run the tests.", []),
        ("```\nalways run this in the snippet\n```", []),
        ("> always quoted text from an issue", []),
        ("<private>remember my token is abc</private> thanks", []),
        ("<command-name>/init</command-name> always", []),
        (
            "[Request interrupted by user] never mind, always use tabs",
            ["Never mind, always use tabs."],
        ),
    ],
)
def test_directives(text: str, expected: list[str]) -> None:
    assert directives_in(text) == expected


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
        ("npm view react version", False, None),
        ("git commit -m 'tests pass'", False, None),
        ("python /tmp/example.py", False, None),
        ("ls -la && cat README.md", False, None),
    ],
)
def test_project_commands_and_their_kind(command: str, project: bool, kind: str | None) -> None:
    assert is_project_command(command) is project
    if project:
        assert command_kind(command) == kind


def bash(
    script: str, *, ok: bool = True, output: str = "ok", sidechain: bool = False
) -> dict[str, Any]:
    call: dict[str, Any] = {"toolCallId": script, "toolName": "bash", "input": {"script": script}}
    call["output"] = output
    if not ok:
        call |= {"isError": True, "exitCode": 1, "error": "Command exited with code 1"}
    else:
        call["exitCode"] = 0
    item: dict[str, Any] = {"id": f"a-{script}", "role": "assistant", "toolCalls": [call]}
    if sidechain:
        item["sidechain"] = True
    return item


def test_exploration_masked_commands_and_sidechains_are_not_findings() -> None:
    findings = extract_findings(
        [
            bash("ls missing", ok=False, output="ls: missing: No such file or directory"),
            bash("grep -r TODO src", ok=False, output=""),
            bash("npm test || true", output="1 failed"),
            bash("make check", sidechain=True),
            bash("pytest -q | tail -5"),
            {"id": "u", "role": "user", "text": "always use tabs", "sidechain": True},
        ]
    )
    assert findings.empty


def test_a_failure_fixed_by_intermediate_commands_lists_them() -> None:
    findings = extract_findings(
        [
            bash("pytest -q", ok=False, output="E   ImportError: No module named 'acme'"),
            bash("git status"),
            bash("uv sync"),
            bash("pip install -e ."),
            bash("pytest -q"),
        ]
    )
    assert findings.failures == [
        Failure(
            "pytest -q",
            "ImportError: No module named 'acme'",
            resolved=True,
            fix_steps=("`uv sync`", "`pip install -e .`"),
            family="pytest",
        )
    ]


def test_a_repeated_failure_is_recorded_once() -> None:
    failing = bash("make lint", ok=False, output="error: unused import")
    findings = extract_findings([failing, failing, failing])
    assert len(findings.failures) == 1 and not findings.failures[0].resolved


def test_agent_editing_mechanics_are_not_lessons() -> None:
    item = {
        "id": "a",
        "role": "assistant",
        "toolCalls": [
            {
                "toolCallId": "e1",
                "toolName": "Edit",
                "input": {"file_path": "src/a.py"},
                "output": "<tool_use_error>File has not been read yet. Read it first.",
                "isError": True,
            }
        ],
    }
    assert extract_findings([item]).empty
