"""`memtab recall PROMPT`: per agent what it loads and would recall for the prompt, and why
(docs/cli.md; the engine's rules are tests/unit/loads/test_recall.py's)."""

from __future__ import annotations

import pytest

from memtab.cli.main import main
from support.agent_machine import WORKSPACE_ID, Machine


def test_recall_prints_each_agents_picks_and_what_none_can_recall(
    machine: Machine, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["recall", "vercel env newline", "--workspace", WORKSPACE_ID]) == 0
    out = capsys.readouterr().out
    assert out.startswith("For 'vercel env newline' in ")
    assert "\nClaude Code — For each prompt of more than one word" in out
    assert "\n#1      feedback_vercel-env-newline.md:1-" in out
    assert "No agent can recall these 1, whatever the prompt:" in out
    assert "notiontalk-landing-strategy.md — No description" in out
    assert "Available memories:" not in out  # only with --manifest


def test_manifest_and_agent(machine: Machine, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["recall", "vercel env", "--workspace", WORKSPACE_ID, "--agent", "claude"]
    assert main([*argv, "--manifest"]) == 0
    out = capsys.readouterr().out
    manifest = out[out.index("\nAvailable memories:\n") :]  # newest first: the files' order
    assert "\n- [feedback] feedback_vercel-env-newline.md (" in manifest  # is their writes'

    assert "Codex —" not in out and "xum —" not in out


def test_an_empty_prompt_is_refused(machine: Machine, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["recall", "  ", "--workspace", WORKSPACE_ID]) == 1
    assert "The prompt is empty" in capsys.readouterr().err
