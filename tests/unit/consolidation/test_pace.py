"""The time model of a run on a server on this machine (`RunPace`): how many files it is
given, how much of a view it is shown, how long a reply may be, when it asks no more — its
plan spent by what its requests read and write at the speed its server's runs are planned
at, not by the clock — and the memo of where runs left off, private and never trusted
blindly (issue 95)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memtab.consolidation.engine.reading import (
    READING_FILE,
    FileRead,
    ReadingPlace,
    RunReading,
    text_digest,
)
from memtab.fs.memo import memo_path
from memtab.llm.loop import run_tool_loop
from memtab.llm.pace import (
    BUSY_SLOWDOWN,
    CALL_TOKENS,
    CHANGE_TOKENS,
    MIN_REPLY_TOKENS,
    SAFETY_SHARE,
    RunPace,
    estimated_tokens,
)
from memtab.llm.speed import Speed, stepped
from memtab.llm.types import (
    ModelReply,
    Timings,
    ToolCall,
    ToolOutcome,
    Usage,
    UserMessage,
)
from memtab.store.files import FileEntry
from memtab.store.paths import Scope, parse_file_path
from support.private_modes import mode_of
from support.scripted_provider import ScriptedProvider

SLOW = Speed(8.0, 4.0)  # the machine's step: Qwen2.5-Coder-1.5B on one thread


class Seconds:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def spend(pace: RunPace, seconds: float) -> None:
    """A reply to a request planned to take `seconds` to read (at the run's speed)."""
    speed = pace.speed
    assert speed is not None
    pace.observe(ModelReply(""), round(seconds * speed.prompt_per_s))


def test_a_run_reads_the_store_when_its_time_holds_every_file_and_a_change() -> None:
    clock = Seconds()
    pace = RunPace(300.0, SLOW, now=clock)
    left = 300 * (1 - SAFETY_SHARE)
    read, write = 8 / BUSY_SLOWDOWN, 4 / BUSY_SLOWDOWN  # planned as a busy machine's
    each = 300 / read + CALL_TOKENS / write
    after = (CALL_TOKENS + CHANGE_TOKENS) / write
    fit = int((left - 200 / read - after) // each)  # a 200-token listing
    assert fit == 1
    assert pace.reads_whole(200, [300] * fit) and not pace.reads_whole(200, [300] * (fit + 1))
    assert RunPace(300.0, None, now=clock).reads_whole(200, [300] * 7)  # no speed: no sizing


def test_a_view_is_shown_as_far_as_the_time_left_reads_it_and_says_the_rest_waits() -> None:
    clock = Seconds()
    pace = RunPace(300.0, SLOW, now=clock)
    spend(pace, 250)  # 20 s left, less than writing even a one-line reply takes: no room
    view = "\n".join(f"{n}\t- rule {n}: keep the build green" for n in range(1, 301))
    shown = pace.fitted(view, "view", "/memories/project/big.md")
    assert shown.startswith("[Not shown: this run has no time left to read more on this machine")
    assert "/memories/project/big.md is left for the next run" in shown
    assert pace.fitted("Edited /memories/project/big.md.", "str_replace", None) == (
        "Edited /memories/project/big.md."
    )  # a change's answer is always shown

    pace = RunPace(300.0, SLOW, now=clock)
    shown = pace.fitted(view, "view", "/memories/project/big.md")
    kept = [line for line in shown.split("\n") if line[:1].isdigit()]
    assert 0 < len(kept) < 300 and shown.split("\n")[: len(kept)] == view.split("\n")[: len(kept)]
    assert f"its other {300 - len(kept)} lines are left for the next run" in shown
    read, write = 8 / BUSY_SLOWDOWN, 4 / BUSY_SLOWDOWN
    room = (300 * (1 - SAFETY_SHARE) - CHANGE_TOKENS / write) * read
    assert estimated_tokens("\n".join(kept)) <= room
    assert pace.cut


def test_with_no_time_to_write_a_change_a_view_is_shown_as_far_as_a_reply_leaves() -> None:
    clock = Seconds()
    pace = RunPace(300.0, SLOW, now=clock)
    spend(pace, 200)  # 70 s left: less than writing a change takes, more than a reply does
    view = "\n".join(f"{n}\t- rule {n}: keep the build green" for n in range(1, 301))
    shown = pace.fitted(view, "view", "/memories/project/big.md")
    kept = [line for line in shown.split("\n") if line[:1].isdigit()]
    read, write = 8 / BUSY_SLOWDOWN, 4 / BUSY_SLOWDOWN
    assert 0 < estimated_tokens("\n".join(kept)) <= (70 - MIN_REPLY_TOKENS / write) * read
    assert f"its other {300 - len(kept)} lines are left for the next run" in shown


def test_a_reply_may_write_what_the_time_left_holds_and_none_is_asked_past_it() -> None:
    clock = Seconds()
    pace = RunPace(100.0, SLOW, now=clock)
    read, write = 8 / BUSY_SLOWDOWN, 4 / BUSY_SLOWDOWN
    assert pace.reply_cap(100) == int((90 - 100 / read) * write)
    spend(pace, 75)  # 15 s left
    assert pace.reply_cap(10) == MIN_REPLY_TOKENS
    assert pace.may_ask(10) is False  # 2 s to read + 25.6 s to write the least reply
    assert RunPace(100.0, None, now=clock).may_ask(10**6) is True


def test_the_run_s_own_replies_lower_its_plan_only_below_its_server_s_step() -> None:
    pace = RunPace(300.0, stepped(Speed(100.0, 50.0)), now=Seconds())
    pace.pending = 500
    pace.observe(ModelReply("", timings=Timings(400, 40.0, 40, 10.0)))
    assert pace.measured == Speed(10.0, 4.0) and pace.pending == 0
    assert pace.speed == Speed(2**3.25 / BUSY_SLOWDOWN, 4 / BUSY_SLOWDOWN)  # far slower: its step
    for timings in (Timings(400, 4.0, 40, 1.0), Timings(400, 33.0, 40, 7.0)):  # faster; busier
        held = RunPace(300.0, SLOW, now=Seconds())
        held.observe(ModelReply("", timings=timings))
        assert held.speed == Speed(8 / BUSY_SLOWDOWN, 4 / BUSY_SLOWDOWN)


def test_what_a_run_asks_is_planned_by_its_tokens_not_by_the_clock() -> None:
    """A probe that took 25 s and replies that took twice what was planned (the machine's
    load) leave every size the same: the same session, the same requests."""
    view = "\n".join(f"{n}\t- rule {n}: keep the build green" for n in range(1, 301))
    sizes = []
    for late_s in (0.0, 25.0):
        clock = Seconds()
        pace = RunPace(300.0, SLOW, now=clock, started=clock.now)
        clock.now += late_s
        sized = [pace.reads_whole(200, [300] * 5), pace.reply_cap(500)]
        reply = ModelReply("", usage=Usage(0, 40), timings=Timings(900, 140.0, 40, 11.0))
        pace.observe(reply, 900)
        clock.now += 2 * 140 + late_s
        sized += [pace.reply_cap(100), pace.fitted(view, "view", "/memories/a.md"), pace.cut]
        sizes.append(sized)
    assert sizes[0] == sizes[1] and sizes[0][-1] is True


def test_a_machine_far_slower_than_planned_stops_the_run_between_requests() -> None:
    clock = Seconds()
    pace = RunPace(300.0, SLOW, now=clock)
    pace.observe(ModelReply("", timings=Timings(900, 100.0, 40, 10.0)), 900)  # its step's
    read, write = 8 / BUSY_SLOWDOWN, 4 / BUSY_SLOWDOWN
    assert pace.left_s() == 270 - 900 / read - 40 / write  # what it read and wrote, as planned
    assert pace.may_ask(200)  # 66 s of the plan's 74 left
    clock.now += 290  # by the clock, 10 s left: less than reading 200 tokens at 9 a second
    assert not pace.may_ask(200)


def test_a_plan_holds_while_the_machine_keeps_to_its_band_and_the_clock_decides_after() -> None:
    """Replies read at 6 tokens a second (the step of 8 over 1.6 is 5: in time as planned)
    leave the plan's sizes to its tokens; at 4, slower than the plan holds time for, the
    run's clock says what is left, its safety share kept."""
    for read_s, planned in ((150.0, True), (225.0, False)):
        clock = Seconds()
        pace = RunPace(300.0, SLOW, now=clock)
        pace.observe(ModelReply("", timings=Timings(900, read_s, 40, 8.0)), 900)
        clock.now += read_s + 8.0
        by_tokens = 270 - 900 / (8 / BUSY_SLOWDOWN) - 40 / (4 / BUSY_SLOWDOWN)
        by_clock = 270 - read_s - 8.0
        assert pace.left_s() == (by_tokens if planned else by_clock)


def test_the_loop_stops_before_a_step_it_may_not_ask() -> None:
    view = ToolCall("c1", "memory", {"command": "view", "path": "/memories"})
    provider = ScriptedProvider([ModelReply("", (view,)), ModelReply("never asked")])
    asked: list[int] = []

    def may_ask(messages: list[object]) -> bool:
        asked.append(len(messages))
        return len(asked) == 1

    result = run_tool_loop(
        provider,
        "system",
        [UserMessage("go")],
        [],
        lambda call: ToolOutcome(call.id, "listing"),
        may_ask=may_ask,
    )
    assert (result.stop_reason, result.steps, provider.calls) == ("spent", 1, 1)
    assert result.detail == "stopped after 1 steps: no time left for another"
    assert not result.ok and asked == [1, 3]


def entry(path: str, size: int = 100) -> FileEntry:
    return FileEntry(parse_file_path(path), "", size, 0)


def test_the_next_run_starts_with_what_was_left_and_a_new_round_once_all_is_read() -> None:
    files = [entry(f"/memories/global/{name}.md") for name in "abcd"]
    texts = {str(file.path): f"text of {file.path}\n" * 3 for file in files}
    digest = {path: text_digest(text) for path, text in texts.items()}
    earlier = {
        "/memories/global/a.md": FileRead(digest["/memories/global/a.md"], 3, 3),
        "/memories/global/c.md": FileRead(digest["/memories/global/c.md"], 1, 3),
        "/memories/global/d.md": FileRead("0" * 64, 3, 3),  # changed since
    }
    reading = RunReading.start(files, earlier, digest.get)
    assert [file.path.name for file in reading.files] == ["c.md", "b.md", "d.md", "a.md"]
    assert reading.resume == {"/memories/global/c.md": 2}
    asked, note = reading.viewing({"command": "view", "path": "/memories/global/c.md"})
    assert asked["offset"] == 2 and note.startswith("[Lines 1–1 of this file were read")
    assert reading.viewing({"command": "view", "path": "global/c.md", "offset": 1})[1] == ""

    everything = {p: FileRead(digest[p], 3, 3) for p in texts}
    again = RunReading.start(files, everything, digest.get)
    assert [file.path.name for file in again.files] == ["a.md", "b.md", "c.md", "d.md"]
    assert again.earlier == {} and again.resume == {}


def test_what_a_run_read_joins_what_the_last_left() -> None:
    path = "/memories/global/a.md"
    text = "".join(f"line {n}\n" for n in range(1, 11))
    reading = RunReading.start(
        [entry(path)], {path: FileRead(text_digest(text), 4, 10)}, lambda p: text_digest(text)
    )
    reading.viewed(path, text, 5, "\n".join(f"{n}\tline {n}" for n in range(5, 9)))
    assert reading.reads()[path] == FileRead(text_digest(text), 8, 10)
    assert reading.summary() == (0, 0, "a.md from line 9")
    reading.viewed(path, text, 9, "9\tline 9\n10\tline 10")
    assert reading.summary() == (1, 0, "")


def test_where_runs_left_off_is_kept_private_and_a_damaged_memo_is_read_from_the_start(
    tmp_path: Path, umask: int
) -> None:
    place = ReadingPlace(tmp_path / "home", "ws1", [Scope.WORKSPACE, Scope.GLOBAL])
    read = FileRead("a" * 64, 3, 9)
    place.keep({"/memories/global/a.md": read})
    assert place.earlier() == {"/memories/global/a.md": read}
    path = memo_path(tmp_path / "home", READING_FILE)
    assert mode_of(path) == 0o600 and mode_of(path.parent) == 0o700
    other = ReadingPlace(tmp_path / "home", "ws2", [Scope.GLOBAL])
    assert other.earlier() == {}

    document = json.loads(path.read_text(encoding="utf-8"))
    key = next(iter(document["places"]))
    document["places"][key]["/memories/global/b.md"] = ["not a digest", 3, 9]
    document["places"][key]["/memories/global/c.md"] = ["b" * 64, -1, 9]
    path.write_text(json.dumps(document), encoding="utf-8")
    assert place.earlier() == {"/memories/global/a.md": read}
    path.write_text("{", encoding="utf-8")
    assert place.earlier() == {}


def test_a_link_at_the_memo_s_name_is_never_followed(tmp_path: Path) -> None:
    target = tmp_path / "target.json"
    target.write_text("kept", encoding="utf-8")
    path = memo_path(tmp_path / "home", READING_FILE)
    path.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, path)
    place = ReadingPlace(tmp_path / "home", "ws1", [Scope.GLOBAL])
    assert place.earlier() == {}
    place.keep({"/memories/global/a.md": FileRead("a" * 64, 3, 9)})
    assert target.read_text(encoding="utf-8") == "kept" and not path.is_symlink()


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("12\t- Run `make check` before pushing the branch.", 14),
        ("항상 커밋 전에 테스트를 실행", 12),
    ],
)
def test_tokens_are_counted_by_script_near_what_the_model_reads(text: str, tokens: int) -> None:
    # `tokens`: what Qwen2.5-Coder-1.5B's tokenizer counts (llama-server's /tokenize)
    assert tokens <= estimated_tokens(text) <= tokens * 1.2


def test_an_empty_file_is_read_whole_and_one_no_view_shows_is_never_left() -> None:
    empty = entry("/memories/global/empty.md", 0)
    binary = FileEntry(parse_file_path("/memories/global/blob.md"), "", 10, 0, binary=True)
    reading = RunReading.start([empty, binary], {}, lambda path: None)
    reading.viewed("/memories/global/empty.md", "", 1, "(empty file: /memories/global/empty.md)")
    assert reading.summary() == (1, 0, "")
