"""The sources' settings (docs/formats.md §15.1 `sources`, §14.4 `sources.json`): each
agent's entry is read on its own — a malformed one is reported and left at its defaults,
the others kept; `isolated` is true only when it says `true`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.sources.config import AgentSettings, load_home_overrides, parse_sources_settings
from memtab.store.home import Home


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ({}, AgentSettings(enabled=True, path=None)),
        ({"enabled": False}, AgentSettings(enabled=False, path=None)),
        ({"path": "  /data/codex  "}, AgentSettings(enabled=True, path="/data/codex")),
        ({"path": "   "}, AgentSettings(enabled=True, path=None)),
        ({"path": ""}, AgentSettings(enabled=True, path=None)),
        ({"path": None, "extra": [1]}, AgentSettings(enabled=True, path=None)),
    ],
)
def test_an_agents_entry_reads_leniently(entry: object, expected: AgentSettings) -> None:
    settings = parse_sources_settings({"codex": entry}, origin="s.json")
    assert settings.agent("codex") == expected and settings.problems == ()


@pytest.mark.parametrize(
    "entry",
    [
        "off",
        False,
        [],
        3,
        {"enabled": "no"},
        {"enabled": 0},
        {"enabled": None},
        {"path": 5},
        {"path": ["/data"]},
        {"enabled": True, "path": {"p": 1}},
    ],
)
def test_a_malformed_entry_is_reported_and_the_others_kept(entry: object) -> None:
    raw = {"codex": entry, "claude-code": {"enabled": False}, "unknown-agent": 1}
    settings = parse_sources_settings(raw, origin="s.json")
    assert settings.problems == ("s.json: sources.codex is malformed; using the defaults",)
    assert settings.agent("codex") == AgentSettings()
    assert settings.agent("claude-code") == AgentSettings(enabled=False, path=None)


@pytest.mark.parametrize("raw", [[], "sources", 3, True])
def test_a_section_that_is_no_object_is_reported(raw: object) -> None:
    settings = parse_sources_settings(raw, origin="s.json")
    assert settings.problems == ("s.json: `sources` is not an object; ignored",)
    assert settings.agents == {}


@pytest.mark.parametrize(
    ("isolated", "expected"),
    [(True, True), (False, False), ("true", False), (1, False), (None, False), ([True], False)],
)
def test_a_home_is_isolated_only_by_true(tmp_path: Path, isolated: object, expected: bool) -> None:
    home = Home(tmp_path / "home")
    home.memtab_dir.mkdir(parents=True)
    document = {"isolated": isolated, "codex": {"path": "codex-home"}}
    (home.memtab_dir / "sources.json").write_text(json.dumps(document), encoding="utf-8")
    overrides = load_home_overrides(home)
    assert overrides.isolated is expected
    assert overrides.agents["codex"].path == str(home.root / "codex-home")


@pytest.mark.parametrize("text", ["[1]", '"isolated"', "null"])
def test_a_sources_file_that_is_no_object_isolates_nothing(tmp_path: Path, text: str) -> None:
    home = Home(tmp_path / "home")
    home.memtab_dir.mkdir(parents=True)
    (home.memtab_dir / "sources.json").write_text(text, encoding="utf-8")
    assert load_home_overrides(home).isolated is False


@pytest.mark.parametrize(
    ("document", "problems"),
    [
        ({"isolated": True, "codex": {"path": 5}, "loki": None}, ["sources.codex is malformed"]),
        (
            {"claude-code": [], "codex": "off", "extra": 1},
            ["sources.claude-code is malformed", "sources.codex is malformed"],
        ),
        ({"claude_code": {"enabled": "no"}, "codex": {}}, []),
        ([1], ["`sources` is not an object; ignored"]),
        (None, []),
    ],
)
def test_a_homes_sources_report_each_malformed_agent(
    tmp_path: Path, document: object, problems: list[str]
) -> None:
    home = Home(tmp_path / "home")
    home.memtab_dir.mkdir(parents=True)
    path = home.memtab_dir / "sources.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    overrides = load_home_overrides(home)
    said = [
        f"{path}: {problem}" + ("; using the defaults" if "malformed" in problem else "")
        for problem in problems
    ]
    assert list(overrides.problems) == said
    assert "claude-code" not in overrides.agents and "loki" not in overrides.agents
