"""Every answer of `memtab mcp` within its budget, measured as the client receives it (the
text as its JSON-RPC frame carries it), and every page reachable: `list` and `search` give
a `next` cursor, `view` of a long file says which lines come next; a cursor of a file that
changed is refused in words (docs/formats.md §22.10). Before, `list` with its defaults and
a `view` of a file at the cap passed what Claude Code and Codex show whole."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memtab.agent_server.pages.paging import DEFAULT_ANSWER_BUDGET, framed_size
from memtab.agent_server.service import Answer, MemoryService
from memtab.store.files import MAX_FILE_BYTES
from memtab.store.home import Home

# Text that costs more in a frame than it looks: 3-byte characters, 4-byte emoji, quotes
# and backslashes (two bytes each once escaped), tabs.
KOREAN = "메모리는 에이전트가 함께 쓰는 기억이다 "
ESCAPED = 'a "quoted" C:\\path\\to\tfile '
EMOJI = "🧠📝"


def _service(home: Home, budget: int = DEFAULT_ANSWER_BUDGET) -> Iterator[MemoryService]:
    served = MemoryService(home, None, writes="direct", other_agents=False, budget=budget)
    yield served
    served.catalog.close()


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return Home(tmp_path / "home")


@pytest.fixture
def service(home: Home) -> Iterator[MemoryService]:
    yield from _service(home)


def _call(service: MemoryService, tool: str, arguments: dict[str, Any]) -> Answer:
    answer = service.call(tool, arguments, "test")
    text = answer.error if answer.error is not None else answer.text
    assert framed_size(text) <= service.budget, (tool, framed_size(text))
    return answer


def _ok(service: MemoryService, tool: str, arguments: dict[str, Any]) -> Any:
    answer = _call(service, tool, arguments)
    assert answer.error is None, answer.error
    return json.loads(answer.text)


def _many_files(home: Home, count: int) -> list[str]:
    home.global_root.mkdir(parents=True)
    paths = []
    for number in range(count):
        name = f"노트-{number:04d}.md"
        description = (KOREAN + ESCAPED + EMOJI) * 2
        text = f"---\ndescription: '{description[:190]}'\n---\n{KOREAN} alpha {number}\n"
        (home.global_root / name).write_text(text, encoding="utf-8")
        paths.append(f"/memories/global/{name}")
    return paths


def test_list_pages_within_the_budget_and_every_file_is_reached(
    home: Home, service: MemoryService
) -> None:
    paths = _many_files(home, 300)
    page = _ok(service, "list", {})
    assert page["total"] == 300 and "next" in page
    assert "call list with `cursor` set to `next`" in page["more"]
    seen = [row["path"] for row in page["files"]]
    pages = 1
    while "next" in page:
        page = _ok(service, "list", {"cursor": page["next"]})
        assert page["offset"] == len(seen)
        seen += [row["path"] for row in page["files"]]
        pages += 1
    assert seen == paths and pages > 3  # in order, none twice, none missed
    again = _ok(service, "list", {})  # the same place, the same cursor
    assert again["next"] == _ok(service, "list", {})["next"]
    limited = _ok(service, "list", {"limit": 5})
    assert len(limited["files"]) == 5 and "an answer holds" not in limited["more"]
    following = _ok(service, "list", {"cursor": limited["next"]})
    assert [row["path"] for row in following["files"]] == paths[5:10]  # the same limit


def test_a_cursor_takes_the_arguments_of_the_first_page_repeated(
    home: Home, service: MemoryService
) -> None:
    """A model follows `more` ("call search with the same query and `cursor` set to
    `next`") by repeating its call with the cursor added: Claude Code and Codex sent
    `{"query", "limit": 100, "cursor"}` and were refused the next page. What the cursor
    carries is taken as it was given; another value is refused, saying the first one."""
    paths = _many_files(home, 300)
    first = _ok(service, "search", {"query": "alpha", "limit": 100})
    again = {"query": "alpha", "limit": 100, "cursor": first["next"]}
    following = _ok(service, "search", again)
    assert following["results"] and following["results"][0]["path"] not in {
        hit["path"] for hit in first["results"]
    }
    assert following == _ok(service, "search", {"query": "alpha", "cursor": first["next"]})
    scoped = _ok(service, "list", {"scope": "global"})
    repeated = {"scope": "global", "limit": 200, "cursor": scoped["next"]}
    assert _ok(service, "list", repeated)["files"][0]["path"] == paths[len(scoped["files"])]
    other = _call(service, "search", {"query": "alpha", "limit": 50, "cursor": first["next"]})
    assert other.error == (
        "`cursor` carries what the first page was asked with (`limit` 100): call with the "
        "cursor alone to go on, or without it to ask anew"
    )
    unscoped = _call(
        service, "list", {"scope": "global", "cursor": _ok(service, "list", {})["next"]}
    )
    assert unscoped.error is not None and "(`scope` none)" in unscoped.error


def test_a_list_cursor_goes_on_after_the_last_file_shown_when_files_changed(
    home: Home, service: MemoryService
) -> None:
    paths = _many_files(home, 120)
    first = _ok(service, "list", {"limit": 20})
    (home.global_root / paths[3].rsplit("/", 1)[1]).unlink()  # one already shown goes
    service.catalog.invalidate()
    page = _ok(service, "list", {"cursor": first["next"]})
    assert page["files"][0]["path"] == paths[20]  # nothing skipped, nothing shown twice
    assert any("changed since this cursor was given" in note for note in page["notes"])


def test_search_pages_its_results_and_snippets_are_bounded(
    home: Home, service: MemoryService
) -> None:
    _many_files(home, 150)
    (home.global_root / "long.md").write_text("alpha " + KOREAN * 2000 + "\n", encoding="utf-8")
    page = _ok(service, "search", {"query": "alpha", "limit": 100})
    found = page["results"]
    assert "next" in page and "with the same query" in page["more"]
    while "next" in page:
        page = _ok(service, "search", {"query": "alpha", "cursor": page["next"]})
        found += page["results"]
    assert len(found) == 100 and len({hit["path"] for hit in found}) == 100
    assert all(len(hit["snippet"]) <= 160 for hit in found)
    first = _ok(service, "search", {"query": "alpha", "limit": 100})
    other = _call(service, "search", {"query": "bravo", "cursor": first["next"]})
    assert other.error is not None and "pages the search for 'alpha'" in other.error


def _a_file_at_the_cap(home: Home) -> str:
    """A file just under the cap: multi-byte lines, an escaped one, and one line longer
    than any page."""
    lines = [f"{KOREAN}{number} {ESCAPED}{EMOJI}" for number in range(600)]
    lines.insert(200, "x" * 40_000)  # longer than a page: it is cut across pages
    text = "\n".join(lines) + "\n"
    while len(text.encode()) > MAX_FILE_BYTES:
        lines.pop()
        text = "\n".join(lines) + "\n"
    home.global_root.mkdir(parents=True, exist_ok=True)
    (home.global_root / "big.md").write_text(text, encoding="utf-8")
    return text


def _read_whole(service: MemoryService, path: str) -> tuple[str, int]:
    """A file as the pages of `view` give it, following each page's cursor; how many."""
    answer = _call(service, "view", {"path": path})
    text, pages = answer.text, 1
    pieces: dict[int, str] = {}
    while True:
        assert answer.error is None, answer.error
        body, _, rest = answer.text.partition("\n\n(")
        for line in body.split("\n"):
            number, _, content = line.partition("\t")
            pieces[int(number)] = pieces.get(int(number), "") + content
        if 'cursor "' not in rest:
            assert rest.startswith("sha256 of ")
            break
        cursor = rest.split('cursor "', 1)[1].split('"', 1)[0]
        answer = _call(service, "view", {"path": path, "cursor": cursor})
        text, pages = answer.text, pages + 1
    del text
    return "\n".join(pieces[number] for number in sorted(pieces)) + "\n", pages


def test_view_of_a_file_at_the_cap_pages_and_every_line_is_reached(
    home: Home, service: MemoryService
) -> None:
    text = _a_file_at_the_cap(home)
    first = _call(service, "view", {"path": "/memories/global/big.md"})
    assert first.error is None
    assert "are shown: an answer holds at most 24000 bytes. The next: view with offset" in (
        first.text
    )
    assert first.text.split("\n")[-1].startswith("(sha256 of /memories/global/big.md: ")
    whole, pages = _read_whole(service, "/memories/global/big.md")
    assert whole == text and pages > 4
    window = _call(service, "view", {"path": "/memories/global/big.md", "offset": 3, "limit": 2})
    assert window.text.split("\n")[:2] == [
        f"3\t{KOREAN}2 {ESCAPED}{EMOJI}",
        f"4\t{KOREAN}3 {ESCAPED}{EMOJI}",
    ]
    assert "are shown" not in window.text  # a window that fits is as before


def test_a_view_cursor_of_a_file_that_changed_is_refused_in_words(
    home: Home, service: MemoryService
) -> None:
    _a_file_at_the_cap(home)
    first = _call(service, "view", {"path": "/memories/global/big.md"})
    cursor = first.text.split('cursor "', 1)[1].split('"', 1)[0]
    assert (
        _call(service, "view", {"path": "/memories/global/big.md", "cursor": cursor}).error is None
    )
    (home.global_root / "big.md").write_text("changed\n")
    stale = _call(service, "view", {"path": "/memories/global/big.md", "cursor": cursor})
    assert stale.error is not None
    assert stale.error.startswith("/memories/global/big.md changed since this cursor was given")


BAD_CURSORS = [
    ("view", {"path": "/memories/global/a.md", "cursor": "nonsense"},
     "`cursor` is not one this server gave"),
    ("list", {"cursor": "c1.!!!"}, "`cursor` is not one this server gave"),
    ("list", {"cursor": "c1.eyJ0b29sIjoidmlldyIsImF0IjoxfQ"}, "This cursor pages `view`"),
    ("list", {"cursor": "c1.eyJ0b29sIjoibGlzdCIsImF0IjoxfQ", "offset": 3},
     "`cursor` goes without `offset`"),
]  # fmt: skip


def test_a_cursor_not_given_by_the_server_is_refused_in_words(
    home: Home, service: MemoryService
) -> None:
    home.global_root.mkdir(parents=True)
    (home.global_root / "a.md").write_text("a\n")
    for tool, arguments, says in BAD_CURSORS:
        answer = _call(service, tool, arguments)
        assert answer.error is not None and answer.error.startswith(says), (tool, arguments)


def test_any_other_answer_is_cut_to_the_budget_saying_so(
    home: Home, service: MemoryService
) -> None:
    answer = _call(service, "x" * 200_000, {})
    assert answer.error is not None and answer.error.startswith("Unknown tool 'xxx")
    assert answer.error.endswith("over 24000)")
    home.global_root.mkdir(parents=True)
    (home.global_root / "a.md").write_text("a\n" * 40_000)
    matches = _call(service, "str_replace", {"path": "/memories/global/a.md", "old_str": "a"})
    assert matches.error is not None and "matches 40000 locations" in matches.error
    assert "… (cut: the whole answer is" in matches.error


def test_a_larger_budget_pages_less(home: Home) -> None:
    _many_files(home, 300)
    for service in _service(home, budget=120_000):
        page = _ok(service, "list", {})
        assert framed_size(json.dumps(page, ensure_ascii=False, indent=1)) > 24_000
