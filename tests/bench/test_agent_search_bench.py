"""Benchmark: the MCP server's ranked `search` over 20,000 memory files in three scopes
(issue 73's targets: a fresh server's first search with the index on disk ≤ 1× `grep -rli`
of one word over the same folders; with no index yet, an answer within 1 s saying what is
not indexed yet, and the whole index within 3 s; warm p95 ≤ 5 ms).

Run: .venv/bin/python -m pytest --bench tests/bench/test_agent_search_bench.py -s

In one run, against the grep floor measured in it (warm page cache, median of 3): a
`memtab mcp` child's first `search`, timed from its request once `initialize` is
answered, with no index yet and then (three fresh children) with the index on disk; the
time to index everything; then what a tool call costs inside the server
(`MemoryService.call`, JSON included) over 300 queries of one to three words — words most
notes hold ("build test"), rare and absent ones; and, with the server watching, the search
after its own `insert` and `list`'s rows after it. The files' words follow a Zipf law
over a 3,000-word vocabulary, so a word's files are as uneven as in real notes; the files
are older than the racy margin (formats §15.4), as a home's are.

The same on a home of 20,001 notes alike (issue 81): 20,000 made from one template, as
generated notes, imports and copies make them, and one other; a word of the template ties
every note at one score, and the answer is the first ones by path (the first search after
a restart ≤ 1× `grep -rli` of that word).
"""

from __future__ import annotations

import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bench.homes import PROJECT, WORKSPACE
from bench.table import Row, median, p95, record
from memtab.agent_server.bridge.rendezvous import rendezvous
from memtab.agent_server.catalog import INDEXING_BUDGET_S
from memtab.agent_server.hosting.status import host_status
from memtab.agent_server.service import MemoryService
from memtab.search_index.index import index_file_for
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace, load_registry
from support.mcp_hosts import wait_for

pytestmark = pytest.mark.bench

FILES = 20_000
QUERIES = 300
_VOCABULARY = [f"w{index}" for index in range(3000)]
_WEIGHTS = [1 / (rank + 1) for rank in range(len(_VOCABULARY))]


def _note(rng: random.Random, index: int) -> str:
    words = rng.choices(_VOCABULARY, weights=_WEIGHTS, k=300)
    lines = [" ".join(words[i : i + 12]) for i in range(0, len(words), 12)]
    head = f"---\ndescription: note {index} about {words[0]} and {words[1]}\n---\n\n"
    return head + "\n".join(f"- {line}" for line in lines) + "\n"


def _build(home: Home, note: Callable[[int], str], files: int) -> Home:
    """`files` notes (`note(n)`) in 40 folders of each of three scopes, older than the
    racy margin."""
    add_workspace(home, PROJECT, "bench", workspace_id=WORKSPACE)
    roots = [home.global_root, home.project_root(PROJECT), home.workspace_root(WORKSPACE)]
    for index in range(files):
        folder = roots[index % 3] / f"area{index % 40:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"note{index:05d}.md").write_text(note(index), encoding="utf-8")
    time.sleep(2.1)  # past the racy margin (formats §15.4): a home's files are older
    return home


@pytest.fixture(scope="module")
def big_home(tmp_path_factory: pytest.TempPathFactory) -> Home:
    rng = random.Random(38)
    home = Home(tmp_path_factory.mktemp("agent-search-bench") / "home")
    return _build(home, lambda index: _note(rng, index), FILES)


TIED_WORD = "staging"
_TEMPLATE = """---
description: generated from the release template
---

- The release runs on the staging cluster first, then production.
- Tag the commit, wait for the pipeline, then announce it in the channel.
- Roll back with the previous tag when the health checks fail.
"""


@pytest.fixture(scope="module")
def alike_home(tmp_path_factory: pytest.TempPathFactory) -> Home:
    """20,000 notes from one template and one other (`_TEMPLATE`)."""
    home = Home(tmp_path_factory.mktemp("agent-search-alike") / "home")

    def note(index: int) -> str:
        return _TEMPLATE + ("- Ask the oncall before a hotfix.\n" if index == FILES else "")

    return _build(home, note, FILES + 1)


def _roots(home: Home) -> list[str]:
    return [
        os.fspath(root)
        for root in (home.global_root, home.project_root(PROJECT), home.workspace_root(WORKSPACE))
    ]


def _grep_s(home: Home, word: str = "w2999") -> float:
    """`grep -rli` of one word over the three scopes, warm (median of 3 after one)."""
    command = ["grep", "-rli", word, *_roots(home)]
    subprocess.run(command, stdout=subprocess.DEVNULL, check=False)
    timings = []
    for _ in range(3):
        started = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, check=False)
        timings.append(time.perf_counter() - started)
    return median(timings)


def _send(child: subprocess.Popen[bytes], message: dict[str, object]) -> None:
    assert child.stdin is not None
    child.stdin.write(json.dumps(message).encode() + b"\n")
    child.stdin.flush()


def _answer(child: subprocess.Popen[bytes], request_id: int) -> dict[str, object]:
    assert child.stdout is not None
    while True:
        message = json.loads(child.stdout.readline())
        if message.get("id") == request_id:
            return dict(message)


def _cpu_s(pid: int) -> float:
    """A process's CPU so far, every thread's (user and system: /proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _grep_cpu_s(home: Home, word: str = "w2999") -> float:
    """`grep -rli`'s CPU (user and system), warm: the median of 3."""
    command = ["grep", "-rli", word, *_roots(home)]
    spent = []
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, stdout=subprocess.DEVNULL, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        spent.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return median(spent)


def _first_search_s(home: Home, query: str) -> tuple[float, str, float]:
    """A fresh `memtab mcp`'s first search (serving itself: no warm host), from its
    request (once `initialize` is answered) to its answer; the answer's text; and the
    server's CPU meanwhile."""
    command = [sys.executable, "-m", "memtab", "mcp", "--home", os.fspath(home.root)]
    command += ["--workspace", WORKSPACE, "--writes", "off"]
    env = dict(os.environ, MEMTAB_MCP_SHARED="off")  # a server of its own: no warm host
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env) as child:
        _send(child, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"},
        }})  # fmt: skip
        _answer(child, 1)
        _send(child, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        started, started_cpu = time.perf_counter(), _cpu_s(child.pid)
        _send(child, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "search", "arguments": {"query": query},
        }})  # fmt: skip
        answer = _answer(child, 2)
        elapsed, cpu = time.perf_counter() - started, _cpu_s(child.pid) - started_cpu
        assert child.stdin is not None
        child.stdin.close()
        child.wait(120)
    result = answer["result"]
    assert isinstance(result, dict)
    return elapsed, str(result["content"][0]["text"]), cpu


def _indexed_after_s(home: Home) -> tuple[float, float]:
    """How long the whole index takes from nothing, in this process: the index folder
    removed, then one refresh of every file; and the CPU it took (every thread's: the
    engine's own too)."""
    index_path = index_file_for(home.root)
    shutil.rmtree(index_path, ignore_errors=True)
    workspace = load_registry(home).require_workspace(WORKSPACE)
    service = MemoryService(home, workspace, writes="off", other_agents=False)
    started, started_cpu = time.perf_counter(), time.process_time()
    service.call("search", {"query": "w1"}, None)
    assert service.catalog.wait_until_indexed(600)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - started_cpu
    service.catalog.close()
    return elapsed, cpu


def _query(rng: random.Random) -> str:
    """One to three words: words most notes hold (the first dozen of the Zipf vocabulary
    are in nearly every note, as "build", "test" and "project" are), a rare word, an
    absent one."""
    common = rng.sample(_VOCABULARY[:12], 3)
    rare = rng.choice(_VOCABULARY[1000:])
    shapes = [common[0], " ".join(common[:2]), " ".join(common), rare, f"{common[0]} {rare}"]
    return rng.choice([*shapes, *shapes[:3], "zz9"])


def _warm_searches(
    service: MemoryService, query: Callable[[random.Random], str]
) -> tuple[list[float], list[float]]:
    """`QUERIES` searches of `query`'s words at a model's pace: each one's time and CPU (ms)."""
    rng = random.Random(7)
    timings, cpu = [], []
    for _ in range(QUERIES):
        arguments = {"query": query(rng), "limit": 10}
        started, started_cpu = time.perf_counter(), time.thread_time()
        answer = service.call("search", arguments, None)
        timings.append((time.perf_counter() - started) * 1000)
        cpu.append((time.thread_time() - started_cpu) * 1000)
        assert answer.error is None
        time.sleep(0.02)  # a model's pace is slower still
    return timings, cpu


@pytest.mark.timeout(1800)  # indexing takes minutes under load
def test_ranked_search_over_20000_files(big_home: Home) -> None:
    grep_s, grep_cpu_s = _grep_s(big_home), _grep_cpu_s(big_home)
    cold_s, cold_text, _ = _first_search_s(big_home, "w1 w2000")
    # With no index yet the server indexes for at most its budget, then answers from what is
    # ready and says so; a quiet machine may index the whole home within it.
    cold_was_partial = "Still indexing" in cold_text
    assert cold_was_partial or cold_s <= INDEXING_BUDGET_S + 1.0, (cold_s, cold_text[:200])
    cold_indexed_s, cold_indexed_cpu_s = _indexed_after_s(big_home)
    workspace = load_registry(big_home).require_workspace(WORKSPACE)
    service = MemoryService(big_home, workspace, writes="off", other_agents=False)
    while "Still indexing" in service.call("search", {"query": "w1"}, None).text:
        time.sleep(0.1)
    warm_first = [_first_search_s(big_home, "w1 w2000") for _ in range(3)]
    assert all("Still indexing" not in text for _, text, _ in warm_first)
    first_s = median([elapsed for elapsed, _, _ in warm_first])
    first_cpu_s = median([cpu for _, _, cpu in warm_first])
    timings, cpu = _warm_searches(service, _query)
    service.catalog.invalidate()
    started = time.perf_counter()
    service.catalog.rows()
    relist_s = time.perf_counter() - started
    service.catalog.close()
    load = os.getloadavg()[0]
    cold_answer = "saying it is indexing" if cold_was_partial else "every file indexed within it"
    record(
        "mcp-first-search-20k",
        Row(
            f"a fresh `memtab mcp`'s first search, {FILES:,} files in three scopes, the index "
            f"on disk: median of 3, request → answer (load {load:.1f}; with no index yet "
            f"{cold_s:.2f} s, {cold_answer}; the whole index {cold_indexed_s:.2f} s from "
            f"nothing, CPU {cold_indexed_cpu_s:.2f} s)",
            f"{first_s * 1000:.0f} ms (CPU {first_cpu_s * 1000:.0f} ms, "
            f"{first_cpu_s / grep_cpu_s:.2f}× grep's {grep_cpu_s * 1000:.0f} ms)",
            "≤ 1× grep",
            floor=f"{grep_s * 1000:.0f} ms (grep -rli of one word, warm)",
            ratio=first_s / grep_s,
        ),
    )
    record(
        "mcp-search-20k",
        Row(
            f"`memtab mcp` search, {FILES:,} files, warm, one to three words most notes hold, "
            f"rare and absent: p50 / p95 (load {load:.1f}; a re-listing after a change "
            f"{relist_s:.2f} s)",
            f"{median(timings):.1f} / {p95(timings):.1f} ms "
            f"(CPU {median(cpu):.1f} / {p95(cpu):.1f} ms)",
            "p95 ≤ 5 ms",
        ),
    )


@pytest.mark.timeout(1800)  # indexing takes minutes under load
def test_search_after_the_servers_own_write_and_list_after_a_change(big_home: Home) -> None:
    workspace = load_registry(big_home).require_workspace(WORKSPACE)
    service = MemoryService(big_home, workspace, writes="direct", other_agents=False)
    started = time.perf_counter()
    while "Still indexing" in service.call("search", {"query": "w1"}, None).text:
        time.sleep(0.1)
    while service.catalog._observer is None or service.catalog.notes():
        time.sleep(0.1)  # watching, and everything indexed
    watching = service.catalog._watching
    assert watching is not None
    watching.join()
    indexed_s = time.perf_counter() - started
    note = "/memories/global/area00/note00000.md"  # a scope holds at most 1,000 files
    service.catalog.rows()

    def edit() -> None:
        arguments = {"path": note, "insert_line": 0, "insert_text": "marker\n"}
        assert service.call("insert", arguments, None).error is None

    searches, listings = [], []
    for _ in range(5):
        edit()
        started = time.perf_counter()
        text = service.call("search", {"query": "marker"}, None).text
        searches.append(time.perf_counter() - started)
        assert note in text
    for _ in range(5):
        edit()
        started = time.perf_counter()
        service.catalog.rows()
        listings.append(time.perf_counter() - started)
    service.catalog.close()
    load = os.getloadavg()[0]
    record(
        "mcp-search-after-own-write-20k",
        Row(
            f"`memtab mcp`: the search after its own `insert`, {FILES:,} files (load "
            f"{load:.1f}; median of 5; indexed and watching after {indexed_s:.0f} s)",
            f"{median(searches) * 1000:.0f} ms",
            "—",
        ),
    )
    record(
        "mcp-list-after-change-20k",
        Row(
            f"`memtab mcp`: `list`'s rows after its own `insert`, {FILES:,} files (load "
            f"{load:.1f}; median of 5)",
            f"{median(listings) * 1000:.0f} ms",
            "—",
        ),
    )


def _alike_query(rng: random.Random) -> str:
    """A word every note holds (each ties), two, the one other note's own word, absent."""
    return rng.choice([TIED_WORD, f"{TIED_WORD} pipeline", "release", "oncall", "zz9"])


def _first_by_path(home: Home, count: int) -> list[str]:
    """The virtual paths of the first `count` notes by path: the answer to a word of the
    template, every note tied."""
    scopes = ("/memories/global", "/memories/project", "/memories/workspace")
    paths = [
        f"{scopes[index % 3]}/area{index % 40:02d}/note{index:05d}.md" for index in range(FILES)
    ]
    return sorted(paths)[:count]


def _in_order(text: str, paths: list[str]) -> bool:
    places = [text.find(path) for path in paths]
    return -1 not in places and places == sorted(places)


@pytest.mark.timeout(1800)  # indexing takes minutes under load
def test_ranked_search_over_20001_notes_alike(alike_home: Home) -> None:
    grep_s, grep_cpu_s = _grep_s(alike_home, TIED_WORD), _grep_cpu_s(alike_home, TIED_WORD)
    workspace = load_registry(alike_home).require_workspace(WORKSPACE)
    service = MemoryService(alike_home, workspace, writes="off", other_agents=False)
    while "Still indexing" in service.call("search", {"query": "oncall"}, None).text:
        time.sleep(0.1)
    assert service.catalog.wait_until_indexed(600)
    expected = _first_by_path(alike_home, 10)
    warm_first = [_first_search_s(alike_home, TIED_WORD) for _ in range(3)]
    assert all(_in_order(text, expected) for _, text, _ in warm_first), warm_first[0][1][:400]
    first_s = median([elapsed for elapsed, _, _ in warm_first])
    first_cpu_s = median([cpu for _, _, cpu in warm_first])
    timings, cpu = _warm_searches(service, _alike_query)
    assert _in_order(service.call("search", {"query": TIED_WORD}, None).text, expected)
    service.catalog.close()
    load = os.getloadavg()[0]
    record(
        "mcp-first-search-alike",
        Row(
            f"a fresh `memtab mcp`'s first search, {FILES + 1:,} notes alike (one template), "
            f"a word every note holds, the index on disk: median of 3, request → answer (load "
            f"{load:.1f})",
            f"{first_s * 1000:.0f} ms (CPU {first_cpu_s * 1000:.0f} ms, "
            f"{first_cpu_s / grep_cpu_s:.2f}× grep's {grep_cpu_s * 1000:.0f} ms)",
            "≤ 1× grep",
            floor=f"{grep_s * 1000:.0f} ms (grep -rli of that word, warm)",
            ratio=first_s / grep_s,
        ),
    )
    record(
        "mcp-search-alike",
        Row(
            f"`memtab mcp` search, {FILES + 1:,} notes alike, warm, words every note holds "
            f"(all tied), one note's own and absent: p50 / p95 (load {load:.1f})",
            f"{median(timings):.1f} / {p95(timings):.1f} ms "
            f"(CPU {median(cpu):.1f} / {p95(cpu):.1f} ms)",
            "—",
        ),
    )


def _host_cpu_s(home: Home, env: dict[str, str]) -> float:
    status = host_status(rendezvous(os.fspath(home.root), env).socket)
    assert status is not None, "no warm host answers"
    return _cpu_s(status.pid)


@pytest.mark.timeout(1800)  # indexing takes minutes under load
def test_search_over_mcp_through_the_warm_host_20001_notes_alike(alike_home: Home) -> None:
    """As an agent searches: its `memtab mcp` bridged to the home's warm host (`memtab mcp
    host`), `QUERIES` searches at a model's pace after 20 not counted and the host idle (the
    index on disk, its catalog listed and watched); each search's time, request → answer over
    stdio, and the host's CPU per search (every thread's, /proc)."""
    env = {key: value for key, value in os.environ.items() if key != "MEMTAB_MCP_SHARED"}
    root = os.fspath(alike_home.root)
    host = subprocess.Popen(
        [sys.executable, "-m", "memtab", "mcp", "host", "--home", root],
        stderr=subprocess.DEVNULL,
        env=env,
    )
    command = [sys.executable, "-m", "memtab", "mcp", "--home", root]
    command += ["--workspace", WORKSPACE, "--writes", "off"]
    try:
        wait_for(lambda: host_status(rendezvous(root, env).socket) is not None, "the host listens")
        with subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
        ) as child:
            _send(child, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "bench", "version": "1"},
            }})  # fmt: skip
            _answer(child, 1)
            _send(child, {"jsonrpc": "2.0", "method": "notifications/initialized"})
            rng = random.Random(7)

            def search(request_id: int) -> float:
                arguments = {"query": _alike_query(rng), "limit": 10}
                started = time.perf_counter()
                _send(child, {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                              "params": {"name": "search", "arguments": arguments}})  # fmt: skip
                answer = _answer(child, request_id)
                assert "Still indexing" not in json.dumps(answer), answer
                time.sleep(0.02)  # a model's pace is slower still
                return (time.perf_counter() - started - 0.02) * 1000

            while "Still indexing" in json.dumps(_search_answer(child, 2)):
                time.sleep(0.5)
            for request_id in range(3, 23):
                search(request_id)
            _settled(lambda: _host_cpu_s(alike_home, env))  # its listing and watch set up
            started_cpu = _host_cpu_s(alike_home, env)
            timings = [search(request_id) for request_id in range(23, 23 + QUERIES)]
            cpu_ms = (_host_cpu_s(alike_home, env) - started_cpu) * 1000 / QUERIES
            assert child.stdin is not None
            child.stdin.close()
    finally:
        host.send_signal(signal.SIGTERM)
        host.wait(timeout=60)
    load = os.getloadavg()[0]
    record(
        "mcp-search-alike-over-mcp",
        Row(
            f"an agent's search over MCP through the warm host, {FILES + 1:,} notes alike, words "
            f"every note holds (all tied), one note's own and absent: p50 / p95 over {QUERIES} "
            f"(load {load:.1f})",
            f"{median(timings):.1f} / {p95(timings):.1f} ms (the host's CPU {cpu_ms:.1f} ms a "
            "search)",
            "p95 ≤ 5 ms",
        ),
    )


def _settled(cpu_s: Callable[[], float]) -> None:
    """Wait until a process is idle: under 10 ms of CPU in a second (two minutes at most)."""
    deadline = time.monotonic() + 120
    before = cpu_s()
    while time.monotonic() < deadline:
        time.sleep(1.0)
        now = cpu_s()
        if now - before < 0.01:
            return
        before = now


def _search_answer(child: subprocess.Popen[bytes], request_id: int) -> dict[str, object]:
    _send(child, {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                  "params": {"name": "search", "arguments": {"query": TIED_WORD}}})  # fmt: skip
    return _answer(child, request_id)
