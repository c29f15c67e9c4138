"""Two memories that disagree on one fact: precision over recall."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.check.markdown import scan_markdown
from memtab.check.rules.facts import facts_of
from memtab.store.sidecars.registry import add_workspace

from .helpers import check, home_with_project, of_kind


def facts(text: str) -> list[tuple[str, str, str]]:
    return [(f.kind, f.key, f.value) for f in facts_of(scan_markdown(text))]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("- The API runs on port 8080.\n", [("port", "api", "8080")]),
        ("- Make sure the API server listens on :8000\n", [("port", "api server", "8000")]),
        ("- Grafana port: 3001\n", [("port", "grafana", "3001")]),
        ("- The docs site is served at localhost:4000\n", [("port", "docs site", "4000")]),
        ("- We use Postgres 16.\n", [("version", "postgres", "16")]),
        ("# Decision: Postgres 16 (2026-09)\n", [("version", "postgres", "16")]),
        ("- Python 3.12 everywhere\n", [("version", "python", "3.12")]),
        ("- Set `MAX_WORKERS=8` for the importer\n", [("setting", "MAX_WORKERS", "8")]),
        # issue 83's trust corpus: a hedge in the next sentence, Go's version, a default
        (
            "The API listens on port 3000. The gateway is on `/ws` in development.\n",
            [("port", "api", "3000")],
        ),
        ("- Go 1.23.\n", [("version", "go", "1.23")]),
        ("Go 1.22 (go.mod).\n", [("version", "go", "1.22")]),
        ("- Default Python is 3.12.\n", [("version", "default python", "3.12")]),
        ("- My default Python is 3.11 (pyenv global).\n", [("version", "default python", "3.11")]),
    ],
)
def test_facts_stated_plainly(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert facts(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # The demo's and the real stores' own lines:
        "- Redis in docker-compose listens on 6380, not 6379.\n",
        "- Upgraded from 13 for logical replication of the `events` table.\n",
        "- Python via pyenv (3.11 default, 3.12 and 3.13 installed); never `sudo pip`.\n",
        "- This host is old enough that modern official Node binaries can install but not run: "
        "Node `v24.15.0` failed on missing `GLIBC_2.25+`\n",
        "- Node `v16.20.2` is a known-good version here and produced working `npm 8.19.4`\n",
        "- Can be installed via `PORT=3400 npx @kimuson/claude-code-viewer@latest`\n",
        # The traps:
        "- The API used to run on port 8080.\n",
        "- e.g. the API runs on port 1234\n",
        "- Node 18+ or Node 20\n",
        "- Requires Python >= 3.11\n",
        "- Upgrade to Postgres 17 next quarter\n",
        "- In production the API runs on port 443\n",
        "- `NODE_ENV=production` and `API_TOKEN=abc`\n",
        "- It runs on port 3000\n",
        "- The API runs on port 8000 in development. Staging differs.\n",
        "- e.g. a service. The API runs on port 1234.\n",  # an example: the whole line
        "- Node via fnm; default Node 20 for random scripts.\n",
        "- Python is 3 times faster here\n",
        "- We go 1.5 km further\n",
        "- Swift 6 language mode is on for LanternKit, not yet for the app target.\n",
    ],
)
def test_what_is_not_a_plain_fact_is_not_read(text: str) -> None:
    assert facts(text) == []


def test_two_files_that_disagree_are_one_finding_on_the_older(tmp_path: Path) -> None:
    home, workspace = home_with_project(
        tmp_path,
        "/nowhere/acme",
        {"architecture.md": "# Architecture\n\n- The API runs on port 8080.\n"},
        global_memory={"services.md": "- The API runs on port 8000\n"},
    )
    older = home.global_root / "services.md"
    older.touch()
    import os

    os.utime(older, (1_000_000, 1_000_000))
    [found] = of_kind(check(home, tmp_path), "disagreement")
    assert (found.path, found.line, found.subject) == (
        "/memories/global/services.md",
        1,
        "port:api",
    )
    assert [(p.path, p.line) for p in found.related] == [("/memories/project/architecture.md", 3)]
    assert "8000" in found.message and "8080" in found.message
    assert found.fix is None
    del workspace


def test_versions_agree_as_far_as_both_are_precise(tmp_path: Path) -> None:
    home, _ = home_with_project(
        tmp_path,
        "/nowhere/acme",
        {"a.md": "- We use Postgres 16.\n", "b.md": "- Postgres 16.2 in CI\n"},
    )
    assert of_kind(check(home, tmp_path), "disagreement") == []


def test_a_record_of_a_past_session_disagrees_with_no_memory(tmp_path: Path) -> None:
    """A Codex rollout summary says what held in that session; a note may say otherwise now."""
    home, _ = home_with_project(
        tmp_path, "/nowhere/acme", global_memory={"stack.md": "- We use Redis 7.\n"}
    )
    rollouts = tmp_path / "codex" / "memories" / "rollout_summaries"
    rollouts.mkdir(parents=True)
    (rollouts / "2026-10-01T09-00-00-abcd-cache.md").write_text(
        "# Cache: Redis 6 warm-up\n\n- The session warmed the cache.\n", encoding="utf-8"
    )
    overrides = {"isolated": True, "codex": {"enabled": True, "path": str(tmp_path / "codex")}}
    (home.memtab_dir / "sources.json").write_text(json.dumps(overrides), encoding="utf-8")
    report = check(home, tmp_path)
    assert report.files_checked == 2
    assert of_kind(report, "disagreement") == []


def test_one_file_telling_a_story_does_not_disagree_with_itself(tmp_path: Path) -> None:
    text = "- First we ran Postgres 15.\n\n- Now we run Postgres 16.\n"
    home, _ = home_with_project(tmp_path, "/nowhere/acme", {"history.md": text})
    assert of_kind(check(home, tmp_path), "disagreement") == []


def test_two_projects_and_two_workspaces_are_not_compared(tmp_path: Path) -> None:
    home, _ = home_with_project(
        tmp_path,
        "/nowhere/acme",
        {"a.md": "- We use Postgres 16.\n"},
        workspace_memory={"n.md": "- Python 3.12 everywhere\n"},
    )
    other = add_workspace(home, "/nowhere/webapp", "main")
    (home.project_root("/nowhere/webapp")).mkdir(parents=True)
    (home.project_root("/nowhere/webapp") / "a.md").write_text("- We use Postgres 15.\n")
    sibling = add_workspace(home, "/nowhere/acme", "feature")
    home.workspace_root(sibling).mkdir(parents=True)
    (home.workspace_root(sibling) / "n.md").write_text("- Python 3.13 everywhere\n")
    assert of_kind(check(home, tmp_path), "disagreement") == []
    del other
