"""`memtab duplicates`, `contradictions` and `leaks` on a home: what each prints, its JSON
and its exit status (issue 72)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memtab.cli.main import main
from memtab.sources.claude.source import encode_project_path
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace
from memtab.trust.contradictions import disagreements
from memtab.trust.contradictions.engine import ContradictionsEngine
from memtab.trust.contradictions.kept_report import KeptContradictions
from memtab.trust.contradictions.records import ClaimedLine, Contradiction, ContradictionsReport
from memtab.trust.duplicates.engine import DuplicatesEngine
from memtab.trust.duplicates.records import DuplicateGroup, DuplicatesReport
from memtab.trust.records import MemoryPlace

PROJECT = "/home/dev/src/acme-api"


def home_with(tmp_path: Path, files: dict[str, str]) -> Home:
    home = Home(tmp_path / "home")
    add_workspace(home, PROJECT, "main", workspace_id="a1b2c3d4e5")
    for relative, text in files.items():
        scope, name = relative.split("/", 1)
        root = home.global_root if scope == "global" else home.project_root(PROJECT)
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return home


def run(home: Home, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    status = main(["--home", str(home.root), *argv, "--no-sources"])
    return status, capsys.readouterr().out


def test_nothing_found_exits_0_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = home_with(tmp_path, {"global/a.md": "# A\n\n- Answer in English.\n"})
    assert run(home, capsys, "duplicates") == (0, "No duplicates in 1 memory file.\n")
    assert run(home, capsys, "contradictions") == (0, "No contradictions in 1 memory file.\n")
    assert run(home, capsys, "leaks") == (0, "No leaks in 1 memory file.\n")


def test_what_each_finds_in_a_home(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    note = "# Tooling\n\n- Use pnpm, not npm.\n- The API runs on port 8080.\n"
    home = home_with(
        tmp_path,
        {
            "global/tooling.md": note,
            "project/tooling.md": note.replace("8080", "9000"),
            "project/keys.md": "# Keys\n\n- GITHUB_TOKEN=ghp_" + "a1B2c3D4e5" * 4 + "\n",
        },
    )
    # The two notes say the same words but disagree on the port: a contradiction, never
    # the same note offered for Combine (issue 83) — their one rule is said twice.
    status, out = run(home, capsys, "duplicates")
    assert status == 1 and out.startswith("rule") and "1 group of duplicates" in out
    status, out = run(home, capsys, "contradictions", "--json")
    [found] = json.loads(out)["contradictions"]
    assert status == 1 and found["kind"] == "port" and found["about"] == "API's port"
    assert {found["first"]["value"], found["second"]["value"]} == {"8080", "9000"}
    status, out = run(home, capsys, "leaks")
    assert status == 1 and "[secret]" in out and "ghp_" not in out


def test_a_memory_that_cannot_be_read_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = home_with(tmp_path, {})
    capsys.readouterr()
    assert main(["--home", str(home.root), "leaks", "--workspace", "nope"]) == 2
    assert "Unknown workspace 'nope'" in capsys.readouterr().err


def test_copies_of_a_line_are_one_contradiction_listing_every_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three global memories say one port, two of the project another (copies: an agent's
    import, a rule written into each): one contradiction, each side's newest place first
    and its other places under it — not six pairs."""
    note = "# Tooling\n\n- The API runs on port 8080.\n"
    files = {f"global/{name}.md": note for name in ("a", "b", "c")}
    files |= {f"project/{name}.md": note.replace("8080", "9000") for name in ("d", "e")}
    home = home_with(tmp_path, files)
    for at, name in enumerate(("global/b.md", "global/a.md", "global/c.md", "project/e.md")):
        scope, file = name.split("/")
        root = home.global_root if scope == "global" else home.project_root(PROJECT)
        os.utime(root / file, (1_700_000_000 + at, 1_700_000_000 + at))
    os.utime(home.project_root(PROJECT) / "d.md", (1_800_000_000, 1_800_000_000))
    status, out = run(home, capsys, "contradictions")
    assert status == 1
    assert out.splitlines()[1:] == [
        "    /memories/global/c.md:3  (mux, global)",
        "        - The API runs on port 8080.",
        "        and in 2 more places, newest first:",
        "        /memories/global/a.md:3  (mux, global)",
        "        /memories/global/b.md:3  (mux, global)",
        "    /memories/project/d.md:3  (mux, project /home/dev/src/acme-api)  (newer)",
        "        - The API runs on port 9000.",
        "        and in 1 more place, newest first:",
        "        /memories/project/e.md:3  (mux, project /home/dev/src/acme-api)",
        "1 contradiction in 5 memory files.",
    ]
    assert "One says 8080 (in 3 places), the other 9000 (in 2 places)" in out.splitlines()[0]
    status, out = run(home, capsys, "contradictions", "--json")
    [found] = json.loads(out)["contradictions"]
    assert found["first"]["path"] == "/memories/global/c.md" and found["newer"] == "second"
    assert [said["path"] for said in found["first"]["elsewhere"]] == [
        "/memories/global/a.md",
        "/memories/global/b.md",
    ]
    assert found["first"]["elsewhere"][0]["writtenAt"] == 1_700_000_001_000
    assert found["second"]["elsewhere"][0]["line"] == 3


def test_claude_code_memory_of_projects_under_a_folder_with_capitals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Projects under `…/Users/Alice/Code/` whose memory Claude Code keeps: one naming the
    other is a leak named with the path's own case (issue 81 point 3: a KeyError on the
    path lower-cased)."""
    code = tmp_path / "Users" / "Alice" / "Code"
    claude = tmp_path / "claude"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(claude))
    for name, text in (
        ("acme-api", f"# Deploys\n\n- Billing lives in {code}/billing-svc, ask there.\n"),
        ("billing-svc", "# Billing\n\n- Invoices go out on the 1st.\n"),
    ):
        (code / name).mkdir(parents=True)
        memory_dir = claude / "projects" / encode_project_path(str(code / name)) / "memory"
        memory_dir.mkdir(parents=True)
        (memory_dir / "MEMORY.md").write_text(text, encoding="utf-8")
    home = Home(tmp_path / "home")
    capsys.readouterr()
    assert main(["--home", str(home.root), "leaks", "--json"]) == 1
    [leak] = json.loads(capsys.readouterr().out)["leaks"]
    assert leak["kind"] == "other-project" and leak["names"] == f"{code}/billing-svc"
    assert leak["belongsTo"] == f"{code}/billing-svc"
    assert leak["path"].endswith("Users-Alice-Code-acme-api:memory/MEMORY.md")


def test_a_thing_said_three_ways_is_one_contradiction_and_a_cut_answer_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The API's port said three ways in global and project memory: one contradiction
    naming all three (`others` in its JSON) — not three pairs; a search stopped at its
    time bound says so (`cut`), in words and in the JSON."""
    note = "# Tooling\n\n- The API runs on port {}.\n"
    home = home_with(
        tmp_path,
        {
            "global/a.md": note.format(8000),
            "project/b.md": note.format(8080),
            "project/c.md": note.format(9000),
        },
    )
    status, out = run(home, capsys, "contradictions")
    assert status == 1 and [line[:7] for line in out.splitlines()].count("port · ") == 1
    assert "They say 3 values: 8000, 8080, 9000" in out
    assert "/memories/project/c.md:3" in out
    status, out = run(home, capsys, "contradictions", "--json")
    report = json.loads(out)
    [found] = report["contradictions"]
    assert [side["value"] for side in found["others"]] == ["9000"]
    assert "moreValues" not in found and "cut" not in report
    monkeypatch.setattr(KeptContradictions, "time_bound", -1.0)
    monkeypatch.setattr(disagreements, "TESTS_A_LOOK", 1)
    status, out = run(home, capsys, "contradictions")
    assert status == 0 and "Compared for -1 s and stopped" in out
    status, out = run(home, capsys, "contradictions", "--json")
    assert json.loads(out)["cut"].startswith("Compared for -1 s and stopped")


def test_candidates_are_listed_apart_after_the_findings_and_never_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 94: what the words only suspect is printed under its own heading, after the
    findings; the summary line and the exit status count findings only."""
    home = home_with(tmp_path, {"global/a.md": "# A\n\n- Answer in English.\n"})

    def place(name: str, text: str) -> MemoryPlace:
        return MemoryPlace(
            path=f"/memories/global/{name}", agent="mux", scope="global", line=3, text=text
        )

    copy = DuplicateGroup(
        kind="copy",
        similarity=1.0,
        why="The same text",
        members=(place("a.md", ""), place("b.md", "")),
    )
    rewording = DuplicateGroup(
        kind="rule", similarity=0.4, why="The same statement in other words",
        members=(place("c.md", "Lint before a push."), place("d.md", "The linter runs on push.")),
    )  # fmt: skip
    tools = Contradiction(
        kind="tool", about="the multiplexer", why="tmux or screen",
        first=ClaimedLine(place=place("t.md", "Use tmux."), value="tmux"),
        second=ClaimedLine(place=place("s.md", "Use screen: no tmux there."), value="screen"),
    )  # fmt: skip
    found = DuplicatesReport(groups=(copy,), candidates=(rewording,), files_read=4)
    monkeypatch.setattr(DuplicatesEngine, "find", lambda self, *_a, **_k: found)
    suspected = ContradictionsReport(candidates=(tools,), files_read=4)
    monkeypatch.setattr(ContradictionsEngine, "find", lambda self, *_a, **_k: suspected)

    status, out = run(home, capsys, "duplicates", "--offline")
    lines = out.splitlines()
    assert status == 1 and lines[0] == "copy · The same text"
    heading = lines.index("Might say the same — ask your model or compare (1, not counted):")
    assert lines[heading + 1] == "rule 40% · The same statement in other words"
    assert "        Lint before a push." in lines[heading:]
    assert lines[-1] == "1 group of duplicates in 4 memory files."
    status, out = run(home, capsys, "duplicates", "--offline", "--json")
    assert [g["why"] for g in json.loads(out)["candidates"]] == [
        "The same statement in other words"
    ]

    status, out = run(home, capsys, "contradictions", "--offline")
    lines = out.splitlines()
    assert (
        status == 0 and lines[0] == "Might disagree — ask your model or compare (1, not counted):"
    )
    assert lines[1] == "tool · the multiplexer · tmux or screen"
    assert lines[-1] == "No contradictions in 4 memory files."
