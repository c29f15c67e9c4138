"""`memtab sources`, `list --source`, `show`, `copy` and `source-log`: JSON contracts,
human output and one-line errors, on a machine built in a tmp dir."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.demo import acme_api
from memtab.sources.claude.source import encode_project_path
from memtab.store.home import Home
from memtab.store.paths import project_dir_name
from support.agent_machine import Machine, build_machine
from support.demo_homes import claude_memory

from .test_store_commands import FILE_FIELDS

SOURCE_FIELDS = {"id", "agent", "root", "project", "writable", "fileCount"}


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def claude_memory_id(machine: Machine) -> str:
    return f"claude-code:memory-{encode_project_path(str(machine.project))}"


def test_sources_json_lists_every_agent_with_the_contract_fields(
    machine: Machine, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_cli(["sources", "--json"], capsys)
    assert status == 0
    document = json.loads(out)
    rows = {row["id"]: row for row in document["sources"]}
    assert all(set(row) >= SOURCE_FIELDS for row in rows.values())
    assert {row["agent"] for row in rows.values()} == {"mux", "claude-code", "codex", "loki"}
    assert rows["mux"]["root"] == str(machine.home.root) and rows["mux"]["writable"]
    memory = rows[claude_memory_id(machine)]
    assert memory["project"] == str(machine.project) and memory["fileCount"] == 7
    loki = rows[f"loki:project-{project_dir_name(str(machine.project))}"]
    assert loki["writable"] is False and loki["fileCount"] == 7
    assert rows["codex:memories"]["project"] is None
    assert any(item["agent"] == "claude-code" and item["found"] for item in document["lookedFor"])


def test_sources_table_and_what_was_not_found(
    machine: Machine, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, err = run_cli(["sources"], capsys)
    assert status == 0 and "codex:memories" in out and "read-only" in out
    status, out, err = run_cli(["sources"], capsys)
    main_env_claude = tmp_path / "nothing-here"
    status, out, err = run_cli(["sources", "--path", f"claude-code={main_env_claude}"], capsys)
    assert status == 0 and "claude-code:user" not in out
    assert f"Claude Code: not found in {main_env_claude}" in err


def test_sources_settings_flags_are_saved(
    machine: Machine, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, err = run_cli(["sources", "--disable", "codex", "--json"], capsys)
    assert status == 0 and "Codex: off" in err
    agents = {row["agent"] for row in json.loads(out)["sources"]}
    assert "codex" not in agents
    stored = json.loads((Path(os.environ["MEMTAB_CONFIG_DIR"]) / "settings.json").read_text())
    assert stored["sources"]["codex"]["enabled"] is False
    run_cli(["sources", "--enable", "codex"], capsys)
    assert "codex" in {
        row["agent"] for row in json.loads(run_cli(["sources", "--json"], capsys)[1])["sources"]
    }
    status, _, err = run_cli(["sources", "--path", "nonsense"], capsys)
    assert status == 1 and err.startswith("memtab: --path takes AGENT=DIR")


def test_list_source_has_the_fields_of_list(
    machine: Machine, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["list", "--source", claude_memory_id(machine), "--json"], capsys)
    assert status == 0
    files = json.loads(out)["files"]
    assert len(files) == 7 and all(set(f) >= FILE_FIELDS for f in files)
    by_path = {f["path"].rsplit(":", 1)[1]: f for f in files}
    topic = by_path["memory/feedback_vercel-env-newline.md"]
    assert topic["scope"] == claude_memory_id(machine)
    assert (topic["kind"], topic["type"], topic["writable"]) == (
        "auto-memory-topic",
        "feedback",
        True,
    )
    index = by_path["memory/MEMORY.md"]
    assert index["warning"] and "200 lines" in index["warning"]
    assert "MEMORY.md" in err and "warning" in err  # said on stderr too


def test_list_source_table_and_mux(machine: Machine, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(["list", "--source", "codex:memories"], capsys)
    assert status == 0 and "ro  codex:memories:rollout_summaries/" in out and "generated" in out
    status, out, _ = run_cli(["list", "--source", "mux", "--json"], capsys)
    assert status == 0 and json.loads(out) == {"files": [], "unaddressable": []}


def test_show_prints_text_and_json(machine: Machine, capsys: pytest.CaptureFixture[str]) -> None:
    loki = f"loki:project-{project_dir_name(str(machine.project))}"
    status, out, _ = run_cli(["show", f"{loki}:handoffs/20260201-080000.json"], capsys)
    assert status == 0 and out.startswith("# Handoff 20260201-080000")
    status, out, _ = run_cli(["show", "claude-code:user:CLAUDE.md", "--json"], capsys)
    document = json.loads(out)
    assert document["content"] == "# My rules\n\n- Answer in English.\n"
    assert document["writable"] and len(document["sha256"]) == 64
    assert set(document) >= FILE_FIELDS


@pytest.mark.parametrize(
    ("file_id", "message"),
    [
        ("claude-code:user:.credentials.json", "No file '.credentials.json' in claude-code:user"),
        ("claude-code:nope:CLAUDE.md", "No source 'claude-code:nope'"),
        ("CLAUDE.md", "Not a file id"),
        ("mux:x:y", "Not a file id"),
    ],
)
def test_show_errors_are_one_line(
    machine: Machine, capsys: pytest.CaptureFixture[str], file_id: str, message: str
) -> None:
    (machine.claude / ".credentials.json").write_text('{"secret": "x"}')
    status, out, err = run_cli(["show", file_id], capsys)
    assert status == 1 and out == ""
    assert err.startswith(f"memtab: {message}") and err.count("\n") == 1


def test_copy_between_agents(machine: Machine, capsys: pytest.CaptureFixture[str]) -> None:
    topic = f"{claude_memory_id(machine)}:memory/feedback_vercel-env-newline.md"
    status, out, _ = run_cli(
        ["copy", topic, "--to", "/memories/global/vercel.md", "--json"], capsys
    )
    assert status == 0
    assert json.loads(out)["to"] == "/memories/global/vercel.md"
    assert (
        (machine.home.global_root / "vercel.md")
        .read_text(encoding="utf-8")
        .startswith("---\ndescription: vercel env add")
    )
    status, out, err = run_cli(["copy", topic, "--to", "/memories/global/vercel.md"], capsys)
    assert status == 1 and "already exists" in err
    target = f"{claude_memory_id(machine)}:memory/user_vercel.md"
    status, out, _ = run_cli(
        ["copy", "/memories/global/vercel.md", "--to", target, "--type", "user"], capsys
    )
    assert status == 0 and out.startswith("Copied /memories/global/vercel.md to")
    assert "type: user" in (machine.claude_memory / "user_vercel.md").read_text(encoding="utf-8")
    status, _, err = run_cli(["copy", topic, "--to", "codex:memories:raw_memories.md"], capsys)
    assert status == 1 and "generated by Codex" in err
    status, _, err = run_cli(["copy", topic, "--to", target + ".md", "--type", "diary"], capsys)
    assert status == 1 and "Unknown Claude Code memory type 'diary'" in err


def test_history_and_restore_of_another_agents_file(
    machine: Machine, capsys: pytest.CaptureFixture[str]
) -> None:
    target = f"{claude_memory_id(machine)}:memory/user_tips.md"
    status, _, _ = run_cli(["copy", "/memories/global/Zeta.md", "--to", target], capsys)
    assert status == 1  # no such mux file: nothing recorded
    (machine.home.global_root / "tips.md").parent.mkdir(parents=True, exist_ok=True)
    (machine.home.global_root / "tips.md").write_text("# Tips\n\nUse uv.\n", encoding="utf-8")
    status, _, _ = run_cli(["copy", "/memories/global/tips.md", "--to", target], capsys)
    assert status == 0
    copied = (machine.claude_memory / "user_tips.md").read_text(encoding="utf-8")
    (machine.claude_memory / "user_tips.md").write_text("Claude's rewrite\n", encoding="utf-8")
    status, out, _ = run_cli(["history", target, "--json"], capsys)
    (created,) = json.loads(out)["versions"]
    assert (created["op"], created["actor"], created["path"]) == ("create", "user", target)
    status, out, _ = run_cli(["restore", target, "--version", created["id"], "--json"], capsys)
    assert status == 0 and json.loads(out) == {
        "path": target,
        "version": created["id"],
        "unchanged": False,
    }
    assert (machine.claude_memory / "user_tips.md").read_text(encoding="utf-8") == copied
    status, out, _ = run_cli(["history", target], capsys)
    assert status == 0 and "Another program" in out and "Restored" in out  # the rewrite kept
    status, _, err = run_cli(["restore", target, "--version", "nope"], capsys)
    assert status == 1 and "No version 'nope'" in err
    status, _, err = run_cli(["history", target, "--workspace", "x"], capsys)
    assert status == 1 and "needs no --workspace" in err
    status, _, err = run_cli(["history", "claude-code:nothing"], capsys)
    assert status == 1 and "Not a file id" in err


def test_source_log(machine: Machine, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(["source-log", "codex:memories", "--json"], capsys)
    assert status == 0
    document = json.loads(out)
    assert document["commits"] == [] and "not a git repository" in document["note"]


@pytest.mark.slow
def test_the_source_commands_never_load_qt(machine: Machine) -> None:
    code = (
        "import sys; from memtab.cli.main import main; main(['sources', '--json']); "
        "assert 'PySide6' not in sys.modules and 'httpx2' not in sys.modules"
    )
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, check=False)
    assert completed.returncode == 0, completed.stderr.decode()


def test_a_demo_home_shows_its_own_agents_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real_elsewhere = build_machine(tmp_path / "real")
    monkeypatch.setenv("HOME", str(real_elsewhere.user))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(real_elsewhere.claude))
    demo = tmp_path / "demo"
    assert run_cli(["demo", str(demo)], capsys)[0] == 0
    _status, out, _ = run_cli(["--home", str(demo), "sources", "--json"], capsys)
    rows = json.loads(out)["sources"]
    roots = [Path(row["root"]) for row in rows]
    assert all(root == demo or demo.resolve() in root.parents for root in roots)
    assert {row["agent"] for row in rows} == {"mux", "claude-code", "codex", "loki", "gemini"}
    memory = next(row for row in rows if row["id"] == claude_memory(Home(demo)))
    assert memory["project"] == acme_api(Home(demo)) and memory["fileCount"] == 7
