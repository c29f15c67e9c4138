"""Checked where it is recalled (issue 72 point 1, docs/formats.md §19.8): a code change
that breaks the claims of 30 of 200 memories is flagged in the MCP server's answers —
each broken line marked beside it with the evidence — with recall ≥ 0.9 and precision
≥ 0.95, on the wording the marks were built on and on a held-out wording. The answer
right after the change waits for no check: it comes unmarked, says so, and the check
runs in the background; `list` rows and `search` results carry the files' state."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from memtab.agent_server.service import MemoryService
from memtab.check.engine import CheckEngine
from memtab.check.recalled import RecallChecks
from memtab.checked.cache import CheckCache
from memtab.checked.marks import MARK, NOT_CHECKED_NOTE, VIEW_NOTE
from memtab.store.home import Home
from memtab.store.paths import Scope
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.registry import add_workspace, load_registry
from support.memory_paths import vpath
from support.seeded_claims import BROKEN, MEMORIES, Corpus, build, change_the_code

WORKSPACE = "a1a1a1a1a1"
WAIT_S = 60.0  # a loaded machine; what a check costs is the bench's
_LINE = re.compile(r"^\s*(\d+)\t(.*)$")
INSTALLED = frozenset({"make", "npm", "pnpm"})


def _installed(name: str) -> str | None:
    return f"/usr/bin/{name}" if name in INSTALLED else None


def _memory(tmp_path: Path, family: str) -> tuple[Corpus, Path, RecallChecks, MemoryService]:
    checkout = tmp_path / "acme"
    corpus = build(checkout, family=family)
    home = Home(tmp_path / "home")
    add_workspace(home, str(checkout), "main", workspace_id=WORKSPACE)
    workspace = load_registry(home).require_workspace(WORKSPACE)
    folder = MemoryStore(home, workspace).root(Scope.PROJECT)
    folder.mkdir(parents=True)
    for memory in corpus.memories:  # as an agent writes them
        (folder / memory.name).write_text(memory.text, "utf-8")
    engine = CheckEngine(home, find_program=_installed, sources=False)
    checks = RecallChecks(home, engine=engine, cache=CheckCache(home, path=tmp_path / "c.json"))
    checks.check_now(WORKSPACE)
    service = MemoryService(home, workspace, writes="off", checks=checks, other_agents=False)
    return corpus, checkout, checks, service


def _view(service: MemoryService, name: str) -> str:
    answer = service.call("view", {"path": f"/memories/project/{name}"}, "test")
    assert answer.error is None, answer.error
    return answer.text


def _flagged(service: MemoryService, corpus: Corpus) -> set[tuple[str, int]]:
    """(memory, line) of every line an answer marks."""
    found = set()
    for memory in corpus.memories:
        for line in _view(service, memory.name).splitlines():
            matched = _LINE.match(line)
            if matched and MARK in matched.group(2):
                found.add((memory.name, int(matched.group(1))))
    return found


def _wait_idle(checks: RecallChecks) -> None:
    deadline = time.monotonic() + WAIT_S
    while not checks.idle():
        assert time.monotonic() < deadline, "the background check never ended"
        time.sleep(0.02)


@pytest.mark.slow  # slow: 200 memories checked twice and viewed twice (~4-8 s)
@pytest.mark.parametrize("family", ["tuned", "held-out"])
def test_a_change_breaking_30_of_200_memories_is_flagged_where_they_are_recalled(
    tmp_path: Path, family: str
) -> None:
    corpus, checkout, checks, service = _memory(tmp_path, family)
    assert len(corpus.memories) == MEMORIES and len(corpus.broken) == BROKEN
    assert _flagged(service, corpus) == set()  # true of the code as it was

    change_the_code(checkout, corpus)
    first = corpus.memories[0].name
    right_after = _view(service, first)  # the cache is of the checkout before the change
    assert NOT_CHECKED_NOTE in right_after and MARK not in right_after
    _wait_idle(checks)  # the answer asked for a check in the background

    flagged = _flagged(service, corpus)
    hits = flagged & corpus.broken
    recall, precision = len(hits) / BROKEN, len(hits) / max(len(flagged), 1)
    print(f"\n{family}: recall {recall:.2f}, precision {precision:.2f} ({len(flagged)} flagged)")
    assert recall >= 0.9, sorted(corpus.broken - flagged)
    assert precision >= 0.95, sorted(flagged - corpus.broken)


def test_the_marks_say_why_and_list_and_search_carry_the_state(tmp_path: Path) -> None:
    corpus, checkout, checks, service = _memory(tmp_path, "tuned")
    change_the_code(checkout, corpus)
    checks.check_now(WORKSPACE)
    name, line = min(corpus.broken)
    memory = next(m for m in corpus.memories if m.name == name)
    claim = memory.claims[line]
    text = _view(service, name)
    (marked,) = [row for row in text.splitlines() if _LINE.match(row) and MARK in row]
    assert marked.startswith(f"{line}\t{claim.text}  ⟵ {MARK} ")
    assert VIEW_NOTE in text
    evidence = marked.split(MARK, 1)[1]
    assert claim.name in evidence  # the path, target or script that is not there

    checked: dict[str, str | None] = {}
    arguments: dict[str, object] = {}
    while True:  # every page of `list`
        page = json.loads(service.call("list", arguments, "test").text)
        checked |= {row["path"].rsplit("/", 1)[1]: row.get("check") for row in page["files"]}
        if any("check" in row for row in page["files"]):  # what `check` means, said once
            assert any("`check`" in note for note in page["notes"])
        if "next" not in page:
            break
        arguments = {"cursor": page["next"]}
    assert len(checked) == MEMORIES and checked[name] == f"1 line false or stale ({line})"
    assert {n for n, state in checked.items() if state} == {n for n, _ in corpus.broken}

    word = name.split("-", 1)[1].removesuffix(".md").split("_")[0]
    found = json.loads(service.call("search", {"query": claim.name}, "test").text)
    top = next(hit for hit in found["results"] if hit["path"].endswith(name))
    assert top["check"] == f"1 line false or stale ({line})", (word, top)
    if top["line"] == line:
        assert MARK in top["snippet"]


def test_an_answer_never_runs_a_check(tmp_path: Path) -> None:
    """A file the check has not read as it is now is answered at once, unmarked."""
    corpus, _checkout, checks, service = _memory(tmp_path, "tuned")
    store = MemoryStore(service.home, service.workspace)
    name = corpus.memories[3].name
    store.create_file(vpath("/memories/project/new.md"), "- The code lives in `src/nowhere.py`.\n")
    checks.stop()  # no background check: what the answer does alone
    text = _view(service, "new.md")
    assert NOT_CHECKED_NOTE in text and MARK not in text
    assert NOT_CHECKED_NOTE not in _view(service, name)  # the others are checked
