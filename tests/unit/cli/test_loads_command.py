"""`memtab loads`: its JSON contract and its table, on a machine built in a tmp dir."""

from __future__ import annotations

import json

import pytest

from memtab.cli.main import main
from support.agent_machine import WORKSPACE_ID, Machine
from support.gemini_home import build_gemini_home

FILE_FIELDS = {"lines", "bytes", "tokens", "loadedLines", "loadedTokens", "kind", "when"}


def test_loads_json_has_every_agent_with_the_contract_fields(
    machine: Machine, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["loads", "--workspace", WORKSPACE_ID, "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [agent["agent"] for agent in document["agents"]] == ["claude", "codex", "xum", "gemini"]
    for agent in document["agents"]:
        assert isinstance(agent["totalTokens"], int)
        for file in agent["files"]:
            assert set(file) >= FILE_FIELDS and ("path" in file) != ("id" in file)
    index = next(file for file in document["agents"][0]["files"] if file["kind"] == "memory")
    assert (index["loadedLines"], index["cutAtLine"]) == (200, 201)
    assert document["directory"] == str(machine.project)


def test_loads_for_one_agent_as_a_table(
    machine: Machine, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["loads", "--workspace", WORKSPACE_ID, "--agent", "claude"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Session start in {machine.project}")
    assert "Claude Code — about " in out and "Codex" not in out
    # Where it stops in the window's words (What each agent loads)
    assert "From line 201 on it is not read: Claude Code reads only the first 200 lines" in out


def test_loads_for_gemini_cli_in_its_order_with_the_notes_it_reads_on_demand(
    machine: Machine, capsys: pytest.CaptureFixture[str]
) -> None:
    gemini = build_gemini_home(machine.user, machine.project)
    assert main(["loads", "--workspace", WORKSPACE_ID, "--agent", "gemini", "--json"]) == 0
    (agent,) = json.loads(capsys.readouterr().out)["agents"]
    shown = [(f["id"], f["kind"], f["when"]) for f in agent["files"]]
    assert shown == [
        ("gemini:user:GEMINI.md", "global", "start"),
        ("gemini:memory-acme-api:MEMORY.md", "memory", "start"),
        (next(f["id"] for f in agent["files"] if f["kind"] == "project"), "project", "start"),
        ("gemini:memory-acme-api:build-notes.md", "note", "on demand"),
    ]
    assert not any("cutAtLine" in f for f in agent["files"])
    assert "Gemini CLI reads each of these files whole: it cuts none of them" in agent["notes"]

    assert main(["loads", "--workspace", WORKSPACE_ID, "--agent", "gemini"]) == 0
    out = capsys.readouterr().out
    assert "Gemini CLI — about " in out and "Claude Code" not in out
    assert f"{gemini.memory}/MEMORY.md" not in out  # named by its file id
    assert "gemini:memory-acme-api:MEMORY.md" in out


def test_an_unknown_workspace_is_one_line(
    capsys: pytest.CaptureFixture[str], machine: Machine
) -> None:
    assert main(["loads", "--workspace", "nope"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nope" in err
