"""Every source is read whole by the commands that judge memory (issue 83): Claude Code's
memory past 1,000 files was read by none of `leaks`, `duplicates`, `contradictions` and
`check` — the listing the tree shows stops at 1,000 — and only a vague "shown" said so. Now
each reads every file, a file still as it was read before is not opened again, and a file
that cannot be read is said in `problems`, never skipped in silence."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memtab.check import documents
from memtab.cli.main import main
from memtab.kept.per_file import cache_file_for
from memtab.kept.texts import KeptTexts
from memtab.sources.claude.source import encode_project_path
from memtab.sources.config import SourceContext
from memtab.sources.discovery import discover
from memtab.sources.listing import MAX_FILES_PER_SOURCE, list_source
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace
from memtab.trust.leaks.engine import LeaksEngine
from memtab.trust.memories import read_memories

TOPICS = MAX_FILES_PER_SOURCE + 4
KEY = "ghp_R4nd0mT0k3nV4lu3Xy9Zq8Wp7Lm6Kj5Hg4Fd3S"


def _topic(index: int) -> str:
    return f"---\nname: t{index}\ndescription: Topic {index}\ntype: project\n---\n- Fact {index}.\n"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Home:
    """A project whose Claude Code memory holds 1,004 topic files, the last ones a secret
    and a port the project's mux memory says otherwise; Claude Code found where its
    variable says."""
    project = tmp_path / "src" / "acme-api"
    project.mkdir(parents=True)
    home = Home(tmp_path / "home")
    add_workspace(home, str(project), "main", workspace_id="a1b2c3d4e5")
    (home.project_root(str(project))).mkdir(parents=True)
    (home.project_root(str(project)) / "ports.md").write_text(
        "# Ports\n\n- The API runs on port 8080.\n"
    )
    claude = tmp_path / "claude"
    memory = claude / "projects" / encode_project_path(str(project)) / "memory"
    memory.mkdir(parents=True)
    for index in range(TOPICS - 2):
        (memory / f"topic_{index:04d}.md").write_text(_topic(index))
    (memory / "zz_keys.md").write_text(f"# Keys\n\n- CI token: {KEY}\n")
    (memory / "zz_ports.md").write_text("# Ports\n\n- The API runs on port 8000.\n")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(claude))
    for agent in ("CODEX_HOME", "LOKI_DIR", "GEMINI_CLI_HOME"):
        monkeypatch.setenv(agent, str(tmp_path / "none"))
    return home


def _json(home: Home, command: str, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    capsys.readouterr()
    assert main(["--home", str(home.root), command, "--json"]) in (0, 1)
    answer: dict[str, object] = json.loads(capsys.readouterr().out)
    return answer


def test_every_command_reads_a_source_past_a_thousand_files(
    home: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    """The tree shows the first 1,000 and says so; the commands read all 1,004."""
    [claude] = [
        s for s in discover(SourceContext.load(home)).sources if s.layout == "claude-memory"
    ]
    shown = list_source(claude)
    assert len(shown.files) == MAX_FILES_PER_SOURCE and shown.truncated
    leaks = _json(home, "leaks", capsys)
    assert [leak["path"].rsplit(":", 1)[-1] for leak in leaks["leaks"]] == ["memory/zz_keys.md"]  # type: ignore[index, union-attr]
    assert leaks["filesRead"] == TOPICS + 1 and leaks["problems"] == []
    contradictions = _json(home, "contradictions", capsys)
    sides = [
        c[side]["path"] for c in contradictions["contradictions"] for side in ("first", "second")
    ]  # type: ignore[index, union-attr]
    assert any(path.endswith("zz_ports.md") for path in sides)
    duplicates = _json(home, "duplicates", capsys)
    assert duplicates["filesRead"] == TOPICS + 1 and duplicates["problems"] == []
    check = _json(home, "check", capsys)
    assert check["filesChecked"] == TOPICS + 1, check.keys()


def test_a_source_file_as_it_was_read_is_not_opened_again(
    home: Home, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As mux's files (`kept.texts`): a next process opens only what changed."""
    read: list[str] = []
    real = documents.read_source_file

    def counted(source: object, file: documents.SourceFile) -> object:
        read.append(file.relative)
        return real(source, file)  # type: ignore[arg-type]

    def next_process() -> list[str]:
        """The files a next process's read opens (a minute later: none changed since)."""
        read.clear()
        later = KeptTexts(home, now_ns=lambda: time.time_ns() + 60_000_000_000)
        texts = {d.key: d.text for d in read_memories(home, texts=later).documents}
        assert len(texts) == TOPICS + 1 and KEY in texts[next(k for k in texts if "zz_keys" in k)]
        return list(read)

    monkeypatch.setattr(documents, "read_source_file", counted)
    assert len(next_process()) == TOPICS
    assert next_process() == []
    [path] = [p for p in home.root.parent.rglob("zz_ports.md")]
    path.write_text("# Ports\n\n- The API runs on port 8000, behind nginx.\n")
    assert next_process() == ["memory/zz_ports.md"]


def test_a_source_file_that_cannot_be_read_is_said(home: Home) -> None:
    """Another hard link to a file (one may be anywhere) is not read: the answer says so."""
    [path] = [p for p in home.root.parent.rglob("zz_keys.md")]
    os.link(path, home.root.parent / "elsewhere.md")
    report = LeaksEngine(home).find()
    assert report.leaks == ()
    [problem] = report.problems
    assert problem.startswith("Cannot read claude-code:") and "zz_keys.md" in problem


@pytest.mark.slow  # slow: two processes import memtab and read 1,006 files (~1 s of CPU)
def test_the_leaks_cache_serves_a_next_process_whatever_its_hash_seed(home: Home) -> None:
    """Projects whose names are of one length were ordered as a set iterates — by the
    process's hash seed — and the cache is kept for the names in their order: every next
    process worked every file out again."""
    for other in ("billing-svc", "search-api", "mailer-jobs"):
        add_workspace(home, str(home.root.parent / "src" / other), "main")
    run = (
        "import sys; from pathlib import Path; from memtab.store.home import Home; "
        "from memtab.trust.leaks.engine import LeaksEngine; "
        "LeaksEngine(Home(Path(sys.argv[1]))).find()"
    )
    kept = []
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-c", run, str(home.root)], env=env, check=True)
        kept.append(cache_file_for(home, "leaks").read_bytes())
    assert kept[0] == kept[1] == kept[2]
