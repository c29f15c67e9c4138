"""`memtab write`: one run now, its output, exit status and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memtab.cli.background import writer_commands
from memtab.cli.main import main
from memtab.store.home import Home
from memtab.store.sidecars.registry import Workspace
from memtab.writer.config import WriterSettings, save_writer_settings
from support.fake_model_server import FakeModelServer

from .helpers import bash_part, mux_message, write_chat


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def chat(home: Home, workspace: Workspace) -> Path:
    path = home.transcript_path(workspace.id)
    write_chat(
        path,
        [
            mux_message("u1", "user", "From now on, prefer `uv run` for scripts.", sequence=0),
            mux_message(
                "a1",
                "assistant",
                "ok",
                sequence=1,
                tools=[bash_part("c1", "uv run pytest -q", ok=True, output="9 passed")],
            ),
        ],
    )
    return path


def test_write_suggests_by_default_then_nothing_new(
    home: Home, workspace: Workspace, chat: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--home", str(home.root), "write", "--workspace", workspace.id]
    status, out, err = run_cli(args, capsys)
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Suggested 2 memories for review — workspace main (offline")
    assert any(line.endswith("[Directives] Prefer `uv run` for scripts.") for line in lines)
    assert lines[-2] == f"Accept or reject them: memtab inbox --workspace {workspace.id}"
    assert lines[-1].startswith(f"Trace: {home.trace_dir(workspace.id)}/")  # every run's
    assert not (home.workspace_root(workspace.id) / "notes.md").exists()
    status, out, _ = run_cli([*args, "--json"], capsys)
    assert status == 0 and json.loads(out)["suggested"] == []  # already waiting for review


def test_one_suggestion_is_counted_in_the_singular_and_an_empty_transcript_says_so(
    home: Home, workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    path = home.transcript_path(workspace.id)
    command = bash_part("c1", "uv run pytest -q", ok=True, output="9 passed")
    write_chat(path, [mux_message("a1", "assistant", "ok", sequence=0, tools=[command])])
    args = ["--home", str(home.root), "write", "--workspace", workspace.id]
    status, out, err = run_cli(args, capsys)
    assert status == 0, err
    assert out.startswith("Suggested 1 memory for review — workspace main")
    write_chat(path, [])
    status, out, err = run_cli(args, capsys)
    assert status == 0, err
    assert out.startswith("Nothing in the transcript to read (no new messages) — workspace main")


def test_write_notes_prints_what_it_added_then_nothing_new(
    home: Home, workspace: Workspace, chat: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--home", str(home.root), "write", "--workspace", workspace.id, "--write-notes"]
    status, out, err = run_cli(args, capsys)
    assert status == 0, err
    assert out.startswith("Updated /memories/workspace/notes.md (+")
    assert "offline:offline-writer" in out
    assert "  +- Prefer `uv run` for scripts." in out.splitlines()
    assert "  +- `uv run pytest -q` (tests)" in out.splitlines()
    status, out, _ = run_cli(args, capsys)
    assert status == 0 and out.startswith("No new memories in the last 2 transcript events")
    # A manual run leaves the scheduling state alone.
    assert not home.writer_state_path(workspace.id).exists()


def test_write_json_and_another_transcript_format(
    fixtures_dir: Path, home: Home, workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    transcript = (
        fixtures_dir
        / "claude-code/thedotmack-claude-mem__tests__fixtures__claude-code-session.jsonl"
    )
    status, out, _ = run_cli(
        [
            "--home",
            str(home.root),
            "write",
            "--workspace",
            workspace.id,
            "--transcript",
            str(transcript),
            "--format",
            "claude",
            "--memory-path",
            "/memories/workspace/lessons.md",
            "--write-notes",
            "--json",
        ],
        capsys,
    )
    assert status == 0
    result = json.loads(out)
    assert result["outcome"] == "wrote" and result["ok"] is True
    assert result["memoryPath"] == "/memories/workspace/lessons.md"
    assert "+- `bun test` (tests)" in result["diff"]
    assert result["suggested"] == []
    assert (home.workspace_root(workspace.id) / "lessons.md").is_file()


@pytest.mark.expect_log(
    "memtab.writer.job.run", "WARNING", r"Memory writer failed: the model ended 2 attempts without"
)
def test_a_failed_run_exits_1_and_names_the_trace(
    fake_model_server: FakeModelServer,
    home: Home,
    workspace: Workspace,
    chat: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MEMTAB_API_KEY", "sk-ant-cli-SECRET-0123456789abcdef")
    fake_model_server.add_anthropic_reply(text="I would rather chat.")
    fake_model_server.add_anthropic_reply(text="Still chatting.")
    status, out, err = run_cli(
        [
            "--home",
            str(home.root),
            "write",
            "--workspace",
            workspace.id,
            "--provider",
            "anthropic",
            "--model",
            "claude-test",
            "--base-url",
            fake_model_server.anthropic_base_url,
        ],
        capsys,
    )
    assert status == 1 and out == ""
    assert "memory writer failed for workspace main (anthropic:claude-test" in err
    trace = Path(err.split("Trace: ", 1)[1].strip())
    assert trace.parent == home.trace_dir(workspace.id) and trace.is_file()
    assert "sk-ant-cli-SECRET" not in trace.read_text()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--workspace", "nope"], "Unknown workspace 'nope'"),
        (["--workspace", "a1b2c3d4e5"], "No transcript at "),
        (["--workspace", "a1b2c3d4e5", "--transcript", "/no/such.jsonl"], "No transcript at"),
        (["--workspace", "a1b2c3d4e5", "--timeout", "0"], "--timeout must be between"),
        (
            ["--workspace", "a1b2c3d4e5", "--memory-path", "/memories/global/x.md"],
            "workspace scope",
        ),
    ],
)
def test_clear_one_line_errors(
    home: Home,
    workspace: Workspace,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    message: str,
) -> None:
    status, _, err = run_cli(["--home", str(home.root), "write", *extra], capsys)
    assert status == 1
    assert err.startswith("memtab: ") and message in err and err.count("\n") == 1


def test_a_provider_without_a_key_is_a_one_line_error(
    home: Home, workspace: Workspace, chat: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run_cli(
        ["--home", str(home.root), "write", "--workspace", workspace.id, "--provider", "anthropic"],
        capsys,
    )
    assert status == 1 and "no API key" in err and err.count("\n") == 1


def test_write_says_which_key_it_uses_and_keeps_a_provider_key_from_a_custom_server(
    fake_model_server: FakeModelServer,
    home: Home,
    workspace: Workspace,
    chat: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    secret = "sk-envOPENAI0123456789abcdefghijkl"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    fake_model_server.add_openai_reply(text="chatting")
    fake_model_server.add_openai_reply(text="still chatting")
    base_url = fake_model_server.openai_base_url
    write = ["--home", str(home.root), "write", "--workspace", workspace.id]
    _, _, err = run_cli(
        [*write, "--provider", "openai", "--model", "llama3", "--base-url", base_url], capsys
    )
    assert "no key ($OPENAI_API_KEY is kept for the official API)" in err.splitlines()[0]
    assert secret not in err
    for request in fake_model_server.requests:
        assert "authorization" not in {name.lower() for name in request.headers}


def test_write_runs_with_every_stored_setting_the_command_line_does_not_override(
    home: Home,
    workspace: Workspace,
    chat: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stored = WriterSettings(notify=True, max_dumps=7, timeout_s=42.0)
    save_writer_settings(stored)
    received: list[WriterSettings] = []
    real_run = writer_commands.run_writer

    def recording_run(*args: Any, **kwargs: Any) -> Any:
        received.append(kwargs["settings"])
        return real_run(*args, **kwargs)

    monkeypatch.setattr(writer_commands, "run_writer", recording_run)
    args = ["--home", str(home.root), "write", "--workspace", workspace.id, "--json"]
    status, _, err = run_cli([*args, "--timeout", "30", "--dump"], capsys)
    assert status == 0, err
    assert received == [stored.replaced(timeout_s=30.0, dump_successful_runs=True)]
