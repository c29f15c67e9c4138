"""An index that cannot be used leaves every searcher working (docs/formats.md §22.11): a
FIFO, a folder or a link to /dev/null at the index's name, a read-only cache, a full
disk. MCP `list` and `search`, `memtab search` and the window's search answer from the
files (the index rebuilt where it can be, else read into memory, the answer's note saying
why), the log says so once — no "Internal error … OperationalError" reaches an agent."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from memtab.agent_server.service import MemoryService
from memtab.cli.main import main
from memtab.components.search.indexed import IndexedTexts
from memtab.components.search.search import SearchQuery, find_matches
from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.nodes import file_key
from memtab.components.tree.scan import ScanRequest
from memtab.search_index.index import SearchIndex, index_file_for
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from support.processes import python_child

WARNED = r"cannot be used|was no folder"


def make_home(tmp_path: Path) -> Home:
    home = Home(tmp_path / "home")
    home.global_root.mkdir(parents=True)
    (home.global_root / "birds.md").write_text("the kestrel hovers\n")
    # Words enough to need pages the index has not got yet (a full disk is found).
    words = " ".join(f"word{number}" for number in range(3000))
    (home.global_root / "fish.md").write_text(f"the pike waits\n{words}\n")
    return home


def fifo(path: Path) -> None:
    os.mkfifo(path)


def folder(path: Path) -> None:
    path.mkdir()
    (path / "kept.txt").write_text("the user's")


def dev_null(path: Path) -> None:
    path.symlink_to("/dev/null")


BREAKAGES: dict[str, tuple[Callable[[Path], None], bool]] = {
    # What is at the index's name, and whether the index is rebuilt on disk.
    "fifo": (fifo, True),
    "folder": (folder, False),
    "dev-null": (dev_null, True),
}


@pytest.fixture(params=list(BREAKAGES))
def broken(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Home, bool]:
    """A home whose index cannot be used as the case says, and whether it is rebuilt."""
    home = make_home(tmp_path)
    path = index_file_for(home.root)
    path.parent.mkdir(parents=True, exist_ok=True)
    breakage, rebuilt = BREAKAGES[request.param]
    breakage(path)
    return home, rebuilt


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.expect_log("memtab.search_index", "WARNING", WARNED)
def test_list_and_search_answer_from_the_files_and_say_why_once(
    broken: tuple[Home, bool], caplog: pytest.LogCaptureFixture
) -> None:
    home, rebuilt = broken
    service = MemoryService(home, None, writes="off", other_agents=False)
    try:
        for _ in range(3):
            answer = service.call("search", {"query": "kestrel"}, "test")
            assert answer.error is None, answer.error
            found = json.loads(answer.text)
            assert [hit["path"] for hit in found["results"]] == ["/memories/global/birds.md"]
            assert found["results"][0]["snippet"] == "the kestrel hovers"
            listed = service.call("list", {}, "test")
            assert listed.error is None, listed.error
            assert "/memories/global/fish.md" in listed.text
        saying = [note for note in found.get("notes", []) if "without the index" in note]
        assert bool(saying) is not rebuilt, found
    finally:
        service.catalog.close()
    assert len(warnings(caplog)) == 1, warnings(caplog)
    assert "Traceback" not in caplog.text


@pytest.mark.expect_log("memtab.search_index", "WARNING", WARNED)
def test_memtab_search_answers(
    broken: tuple[Home, bool], capsys: pytest.CaptureFixture[str]
) -> None:
    home, rebuilt = broken
    assert main(["search", "--home", str(home.root), "kestrel", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [hit["path"] for hit in found["results"]] == ["/memories/global/birds.md"]
    assert any("without the index" in note for note in found["notes"]) is not rebuilt


@pytest.mark.expect_log("memtab.search_index", "WARNING", WARNED)
def test_the_window_search_answers(broken: tuple[Home, bool]) -> None:
    home, rebuilt = broken
    scan = scan_home(ScanRequest(home, None))
    texts = IndexedTexts()
    try:
        for query in ("kestrel", "pike", "kestrel"):
            found = find_matches(scan, SearchQuery.parse(query), texts)
            name = "birds.md" if query == "kestrel" else "fish.md"
            assert set(found) == {file_key(parse_file_path(f"/memories/global/{name}"))}
        assert (texts.problem is None) is rebuilt
    finally:
        texts.close()


def test_a_folder_at_the_index_path_is_left_as_it_is(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)  # the warning is the other tests'
    home = make_home(tmp_path)
    path = index_file_for(home.root)
    path.parent.mkdir(parents=True)
    folder(path)
    index = SearchIndex(path)
    assert index.problem is not None and "search index" in index.problem
    index.close()
    assert (path / "kept.txt").read_text() == "the user's"


# A process whose disk takes no more: no file grows past its first byte (RLIMIT_FSIZE,
# SIGXFSZ ignored: a write fails with EFBIG as a full disk's with ENOSPC, the tests running
# as root, whom no mode stops). In a child: the limit holds for every file of the process.
_NO_ROOM = """
import json, logging, os, resource, signal, sys
from pathlib import Path
from memtab.agent_server.service import MemoryService
from memtab.components.search.indexed import IndexedTexts
from memtab.components.search.search import SearchQuery, find_matches
from memtab.components.tree.full_scan import scan_home
from memtab.components.tree.scan import ScanRequest
from memtab.search_index.index import SearchIndex, index_file_for
from memtab.store.home import Home

home = Home(Path(sys.argv[1]))
said = []
handler = logging.Handler()
handler.emit = lambda record: said.append((record.levelno, record.name, record.getMessage()))
logging.getLogger().addHandler(handler)
if sys.argv[2] == "full-disk":
    SearchIndex(index_file_for(home.root)).close()
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (1, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
service = MemoryService(home, None, writes="off", other_agents=False)
answers = [json.loads(service.call("search", {"query": "kestrel"}, "t").text) for _ in range(3)]
listed = service.call("list", {}, "t").text
service.catalog.close()
texts = IndexedTexts()
window = sorted(find_matches(scan_home(ScanRequest(home, None)), SearchQuery.parse("pike"), texts))
problem = texts.problem
texts.close()
print("held", flush=True)
print(json.dumps({"answers": answers, "listed": listed, "window": window, "problem": problem,
                  "said": [entry for entry in said if entry[0] >= logging.WARNING]}), flush=True)
"""


@pytest.mark.slow  # slow: a child process importing the server and the window's search (~1 s)
@pytest.mark.parametrize("case", ["read-only", "full-disk"])
def test_a_disk_that_takes_no_write_leaves_every_searcher_answering(
    tmp_path: Path, case: str
) -> None:
    home = make_home(tmp_path)
    with python_child(_NO_ROOM, str(home.root), case) as child:
        assert child.stdout is not None
        report = json.loads(child.stdout.readline())
    for answer in report["answers"]:
        assert [hit["path"] for hit in answer["results"]] == ["/memories/global/birds.md"]
        assert any("without the index" in note for note in answer["notes"]), answer
    assert "/memories/global/fish.md" in report["listed"]
    assert report["window"] == [file_key(parse_file_path("/memories/global/fish.md"))]
    assert report["problem"] and "cannot be used" in report["problem"]
    index_said = [entry for entry in report["said"] if entry[1].startswith("memtab.search_index")]
    assert len(index_said) == 2, report["said"]  # once by the server, once by the window
    assert "Traceback" not in json.dumps(report)
    # Plain words where the agent and the user read them (round 5, row 4): tantivy's Rust
    # debug text ("Failed to open file for write: 'IoError { io_error: Custom { kind: …")
    # goes to the log alone.
    plain = "cannot be used (a file of the index would grow past the largest file this system"
    for said in (json.dumps(report["answers"]), report["problem"]):
        assert plain in said and "IoError" not in said and "os error" not in said, said
    assert any("os error 27" in entry[2] or "FileTooLarge" in entry[2] for entry in index_said)


@pytest.mark.expect_log("memtab.search_index", "WARNING", r"is damaged \(a folder at meta\.json")
def test_a_folder_at_the_indexs_meta_json_is_moved_aside_and_the_index_rebuilt(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Round 5, row 4: a folder at `meta.json` inside Memtab's own index folder left the
    index unused for good — every search answered from memory until the user removed the
    index by hand, the note naming no remedy. It is damage, rebuilt as a damaged index is;
    a folder is never removed, so the index goes aside whole, the folder's files in it."""
    home = make_home(tmp_path)
    path = index_file_for(home.root)
    SearchIndex(path).close()
    (path / "meta.json").unlink()
    folder(path / "meta.json")
    for _ in range(2):  # the second: a new process's look, the index on disk again
        service = MemoryService(home, None, writes="off", other_agents=False)
        try:
            found = json.loads(service.call("search", {"query": "kestrel"}, "test").text)
        finally:
            service.catalog.close()
        assert [hit["path"] for hit in found["results"]] == ["/memories/global/birds.md"]
        assert not any("without the index" in note for note in found.get("notes", [])), found
    assert (path / "meta.json").is_file()
    (aside,) = path.parent.glob(f"{path.name}.corrupt-*")
    assert (aside / "meta.json" / "kept.txt").read_text() == "the user's"
    assert os.stat(aside).st_mode & 0o077 == 0  # in the private cache dir, still private
    assert len(warnings(caplog)) == 1, warnings(caplog)
    assert str(aside) in warnings(caplog)[0]
