"""`memtab blame`: the JSON contract on the demo and on real stores edited by several
actors, other agents' files by file id, the table, and one-line errors."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from memtab.cli.main import main, modules_for
from memtab.demo import DARK_MODE_ID, MAIN_ID
from memtab.sources.agent_file import SourceVersions
from memtab.sources.config import SourceContext
from memtab.sources.content import read_source_file, save_source_file
from memtab.sources.discovery import discover
from memtab.sources.listing import find_file
from memtab.store.catch_up.external import record_external
from memtab.store.history.runs import RunsLog
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import add_workspace, load_registry
from memtab.traces.catalog import list_traces
from quality.stores import CLAUDE, install, real_files
from support.demo_homes import claude_memory, copied_demo_home
from support.memory_paths import vpath

LINE_FIELDS = {"line", "text", "actor", "actorName", "at", "runId", "version", "source"}
NOTES = "/memories/workspace/notes.md"
CLAUDE_MEMORY = "{claude}"
"""Claude Code's memory of the demo's acme-api, named after where the demo is."""


def blame(home: Home, *args: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    status = main(["--home", str(home.root), "blame", *args, "--json"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    document: dict[str, Any] = json.loads(captured.out)
    assert set(document) == {"path", "lines"}
    for number, line in enumerate(document["lines"], 1):
        assert {"line", "text", "actor", "actorName", "at"} <= set(line) <= LINE_FIELDS
        assert line["line"] == number and isinstance(line["at"], int)
    return document


def actors(document: dict[str, Any]) -> list[tuple[str, str]]:
    return [(line["text"], line["actor"]) for line in document["lines"]]


@pytest.fixture
def demo(tmp_path: Path) -> Home:
    return copied_demo_home(tmp_path / "demo")


def test_blame_loads_only_its_own_module() -> None:
    assert modules_for(["blame", "/memories/global/a.md"]) == ["memtab.cli.memory.history_commands"]


def test_on_the_demo_a_writer_line_names_its_dump_and_a_consolidation_line_its_run(
    demo: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    document = blame(demo, NOTES, "--workspace", MAIN_ID, capsys=capsys)
    assert document["path"] == NOTES
    by_actor = {line["actor"]: line for line in document["lines"]}
    assert set(by_actor) == {"before-memtab", "writer", "consolidator"}

    writer = by_actor["writer"]
    source = writer["source"]
    assert source["kind"] == "transcript" and source["workspaceId"] == MAIN_ID
    assert source["messageIds"] == ["user-0001", "assistant-0001"]
    assert source["runId"] == writer["runId"]
    dumps = {summary.path.name: summary for summary in list_traces(demo, MAIN_ID)}
    assert dumps[source["traceDump"]].outcome.value == "wrote memory"  # the Traces tab's row
    lines = Path(source["transcriptPath"]).read_text().splitlines()
    transcript = [json.loads(line) for line in lines]
    assert set(source["messageIds"]) <= {message["id"] for message in transcript}

    consolidation = by_actor["consolidator"]
    source = consolidation["source"]
    runs = {run.id: run for run in RunsLog(demo).runs()}
    run = runs[source["runId"]]
    assert consolidation["runId"] == run.id and run.kind == "consolidation"
    op = run.ops[source["opIndex"]]
    assert (source["op"], source["path"], source["reason"]) == (op.command, op.path, op.note)
    assert any(line["version"] == op.files[0].after_version for line in document["lines"])


def test_on_the_demo_the_user_and_mux_have_lines_too(
    demo: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    todo = blame(demo, "/memories/workspace/todo.md", "--workspace", MAIN_ID, capsys=capsys)
    assert actors(todo)[-1] == (
        "- Ask security to review the family-revocation log message.",
        "user",
    )
    styling = blame(
        demo, "/memories/project/styling.md", "--workspace", DARK_MODE_ID, capsys=capsys
    )
    assert {line["actor"] for line in styling["lines"]} == {"mux"}
    source = styling["lines"][0]["source"]
    assert source["by"] == "mux" and source["op"] == "create"
    assert source["runId"] in {run.id for run in RunsLog(demo).runs() if run.source == "mux"}


def test_the_table_reads_like_git_blame(demo: Home, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--home", str(demo.root), "blame", NOTES, "--workspace", MAIN_ID]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 8
    version, actor, day, time, number, *text = lines[6].split()
    assert (actor, number) == ("writer", "7)") and len(version) == 16
    assert day.count("-") == 2 and time.count(":") == 1
    assert " ".join(text).startswith("- `pytest tests/integration -k refresh`")


def test_an_agents_change_through_mcp_is_blamed_on_the_agent(
    demo: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    """Codex's client calls itself codex-mcp-client: blame's table says "codex" (it said
    "mcp" for every agent), its JSON and History's add the words, the ids stay."""
    workspace = load_registry(demo).require_workspace(MAIN_ID)
    store = MemoryStore(demo, workspace, actor="mcp:codex-mcp-client")
    store.edit_text(vpath(NOTES), lambda text: text + "- Squash fixups before review.\n")
    assert main(["--home", str(demo.root), "blame", NOTES, "--workspace", MAIN_ID]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.split()[1] == "codex" and last.endswith("- Squash fixups before review.")
    line = blame(demo, NOTES, "--workspace", MAIN_ID, capsys=capsys)["lines"][-1]
    assert (line["actor"], line["actorName"]) == ("mcp:codex-mcp-client", "Codex via Memtab MCP")
    status = main(["--home", str(demo.root), "history", NOTES, "--workspace", MAIN_ID, "--json"])
    newest = json.loads(capsys.readouterr().out)["versions"][0]
    assert status == 0
    assert (newest["actor"], newest["actorName"]) == (
        "mcp:codex-mcp-client",
        "Codex via Memtab MCP",
    )
    assert main(["--home", str(demo.root), "history", NOTES, "--workspace", MAIN_ID]) == 0
    assert "Codex via Memtab MCP" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["/memories/global/none.md"], "memtab: No memory file at /memories/global/none.md"),
        (
            [f"{CLAUDE_MEMORY}:nowhere.md"],
            f"memtab: No file 'nowhere.md' in {CLAUDE_MEMORY} (see `memtab list --source",
        ),
        (["claude-code:user:CLAUDE.md", "--workspace", MAIN_ID], "memtab: A file id needs no"),
        # What to type instead: the virtual paths a bare name could mean, the workspace.
        (
            ["notes.md"],
            "memtab: 'notes.md' is not a memory file's path: name it by its virtual path — "
            f"memtab blame /memories/workspace/notes.md --workspace {MAIN_ID}",
        ),
        (
            ["/memories/workspace/notes.md"],
            "memtab: /memories/workspace/notes.md is workspace memory, which needs a "
            f"workspace: add --workspace ID — memtab blame /memories/workspace/notes.md "
            f"--workspace {MAIN_ID}",
        ),
        (
            ["nowhere.md"],
            "memtab: 'nowhere.md' is not a memory file's path: name it by its "
            "virtual path, e.g. /memories/global/notes.md",
        ),
    ],
)
def test_what_cannot_be_blamed_is_one_line_and_exit_1(
    demo: Home, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    args = [arg.replace(CLAUDE_MEMORY, claude_memory(demo)) for arg in args]
    message = message.replace(CLAUDE_MEMORY, claude_memory(demo))
    assert main(["--home", str(demo.root), "blame", *args]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(message)
    assert captured.err.count("\n") == 1


# --- other agents' files --------------------------------------------------------------------


def test_another_agents_file_is_the_agents_except_what_memtab_wrote(
    demo: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    # A real Claude Code topic file (Korean), as Claude Code left it in its memory folder.
    discovery = discover(SourceContext.load(demo))
    memory_dir = discovery.source(claude_memory(demo)).root / "memory"
    name, data = next(
        (n, d) for n, d in real_files(CLAUDE).items() if n.startswith("feedback_verify")
    )
    (memory_dir / name).write_bytes(data)
    os.utime(memory_dir / name, (1_700_000_000, 1_700_000_000))
    file_id = f"{claude_memory(demo)}:memory/{name}"
    before = blame(demo, file_id, capsys=capsys)
    assert {line["actor"] for line in before["lines"]} == {"claude-code"}
    assert {line["at"] for line in before["lines"]} == {1_700_000_000_000}
    assert [line["text"] for line in before["lines"]] == data.decode().splitlines()

    source, file = find_file(discovery, file_id)
    text = read_source_file(source, file)
    save_source_file(
        source, file, text.text + "- Added in Memtab\n", text.sha256, history=SourceVersions(demo)
    )
    with (memory_dir / name).open("a") as handle:
        handle.write("- Added by Claude Code later\n")
    after = blame(demo, file_id, capsys=capsys)
    assert actors(after)[:-2] == actors(before)
    assert actors(after)[-2:] == [
        ("- Added in Memtab", "user"),
        ("- Added by Claude Code later", "claude-code"),
    ]
    assert after["lines"][-2]["version"] and "version" not in after["lines"][-1]


# --- real stores, edited by several actors ------------------------------------------------


def test_a_real_store_edited_by_every_actor_is_blamed_line_by_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = Home(tmp_path / "home")
    add_workspace(home, "/home/dev/src/app", "main", workspace_id="a1a1a1a1a1")
    workspace = load_registry(home).require_workspace("a1a1a1a1a1")

    def store(actor: str, run_id: str | None = None) -> MemoryStore:
        return MemoryStore(home, workspace, actor=actor, run_id=run_id)

    installed = install(store("user"), CLAUDE, scope=Scope.PROJECT)
    record_external(store("user"))
    for path, data in installed.items():
        original = data.decode().splitlines()
        expected = [(line, "before-memtab") for line in original]
        # The user changes the first line that says something, the writer adds a note at the
        # end, a consolidator one at the start, and the file is renamed between them.
        first = next(i for i, line in enumerate(original) if line.strip() and line != "---")
        store("user").edit_text(vpath(path), lambda text, i=first: _replace_line(text, i, "- mine"))
        expected[first] = ("- mine", "user")
        store("writer", "run-w").edit_text(vpath(path), lambda text: text + "- from the writer\n")
        expected.append(("- from the writer", "writer"))
        renamed = path.replace(".md", "-renamed.md")
        store("user").move(vpath(path), vpath(renamed))
        store("consolidator", "run-c").edit_text(
            vpath(renamed), lambda text: "- merged in\n" + text
        )
        expected.insert(0, ("- merged in", "consolidator"))
        document = blame(home, renamed, "--workspace", "a1a1a1a1a1", capsys=capsys)
        assert actors(document) == expected, path


def _replace_line(text: str, index: int, new: str) -> str:
    lines = text.split("\n")
    lines[index] = new
    return "\n".join(lines)


def test_the_demo_home_copied_elsewhere_still_blames(
    demo: Home, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    moved = Home(tmp_path / "moved")
    shutil.copytree(demo.root, moved.root, symlinks=True)
    document = blame(moved, NOTES, "--workspace", MAIN_ID, capsys=capsys)
    writer = next(line for line in document["lines"] if line["actor"] == "writer")
    assert (moved.trace_dir(MAIN_ID) / writer["source"]["traceDump"]).is_file()


def test_show_of_a_workspace_path_without_a_workspace_says_what_to_type(
    demo: Home, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--home", str(demo.root), "show", NOTES]) == 1
    err = capsys.readouterr().err
    assert f"add --workspace ID — memtab show {NOTES} --workspace {MAIN_ID}" in err
