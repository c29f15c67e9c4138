"""`memtab recall PROMPT`: per agent what it loads and would recall for the prompt, and why
(docs/cli.md; the engine's rules are tests/unit/loads/test_recall.py's)."""

from __future__ import annotations

import pytest

from memtab.cli.main import main
from support.agent_machine import WORKSPACE_ID, Machine
from support.fake_model_server import FakeModelServer


def test_recall_prints_each_agents_picks_and_what_none_can_recall(
    machine: Machine, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["recall", "vercel env newline", "--workspace", WORKSPACE_ID]) == 0
    out = capsys.readouterr().out
    # The window's words (What each agent recalls): its summary, groups and rows.
    assert out.startswith("For “vercel env newline” in ")
    assert "\nClaude Code — 1 recalled, 1 missed, 1 never\n  (For each prompt of more than" in out
    assert "\n#1      feedback_vercel-env-newline.md, lines 1–11 " in out
    assert "\nNo agent can recall 1 memory\n" in out
    assert "\nnever  Claude Code: memory/notiontalk-landing-strategy.md  No description" in out
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


def test_model_asks_the_configured_model_and_prints_its_pick_beside_the_words(
    machine: Machine,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    fake_model_server: FakeModelServer,
) -> None:
    monkeypatch.setenv("MEMTAB_PROVIDER", "anthropic")
    monkeypatch.setenv("MEMTAB_BASE_URL", fake_model_server.anthropic_base_url)
    monkeypatch.setenv("MEMTAB_API_KEY", "sk-ant-test-key")
    fake_model_server.add_anthropic_reply(
        '{"selected_memories": ["feedback_vercel-env-newline.md"]}', usage=(1234, 21)
    )
    argv = ["recall", "vercel env newline", "--workspace", WORKSPACE_ID, "--model"]
    assert main([*argv, "--agent", "claude"]) == 0
    out = capsys.readouterr().out
    asked = "Asked fake-model as Claude Code asks its model (1,234 tokens in, 21 out)"
    assert f"\n  ({asked}: 1 file, agreeing with the words' prediction on " in out
    assert "\nmodel   feedback_vercel-env-newline.md " in out
    fake_model_server.add_anthropic_reply("Sorry, I cannot help with that.")
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert ": no pick — The answer is not a JSON object" in out
    assert "(Codex asks no model apart: its model picks in the conversation" in out


def test_model_is_refused_when_none_is_configured(
    machine: Machine, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("MEMTAB_PROVIDER", "MEMTAB_MODEL", "MEMTAB_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    assert main(["recall", "vercel env", "--workspace", WORKSPACE_ID, "--model"]) == 1
    assert "--model asks the configured model, and none is" in capsys.readouterr().err


def test_a_note_the_prompt_brings_up_is_printed_once_under_its_agent(
    machine: Machine, capsys: pytest.CaptureFixture[str]
) -> None:
    root = machine.home.global_root
    root.mkdir(parents=True, exist_ok=True)
    (root / "scratch.md").write_text("# Scratch\n\nrelease rollback make ship steps\n")
    argv = ["recall", "how do I rollback a release", "--workspace", WORKSPACE_ID]
    assert main([*argv, "--agent", "xum"]) == 0
    out = capsys.readouterr().out
    # Missed for this prompt, its row says why: not again among what none can recall.
    assert "\nmissed  /memories/global/scratch.md  Its text holds the prompt's words" in out
    assert "No agent can recall" not in out
