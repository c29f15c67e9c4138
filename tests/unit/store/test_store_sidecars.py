"""Sidecars are never wiped: BOM and CRLF read, unparsable files kept aside, unknown fields kept.

Covers `memtab.fs.sidecar` and every file that goes through it: memory-meta.json, the
journal, config.json, the writer state and the UI state.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtab.components.window.ui_state import UiState
from memtab.fs.sidecar import KeptAside, edit_sidecar, keep_aside, on_kept_aside, read_sidecar
from memtab.store.home import Home
from memtab.store.sidecars.journal import ConsolidationRecord, Journal, JournalOp
from memtab.store.sidecars.meta import MetaStore, global_key, parse_meta_document
from memtab.store.sidecars.registry import add_project, add_workspace, load_recency, load_registry
from memtab.store.text.free_text import MAX_SUMMARY_BYTES, cap_text
from memtab.writer.job.policy import load_state, save_state
from memtab.writer.records import WriterState
from support.property_examples import examples

from .helpers import FakeClock

BOM = b"\xef\xbb\xbf"
DEEP = "[" * 100_000 + "]" * 100_000


def crlf_bom(value: Any) -> bytes:
    """`value` as JSON the way a Windows editor saves it: BOM, CRLF line ends."""
    return BOM + json.dumps(value, indent=2).replace("\n", "\r\n").encode()


def kept_copies(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.corrupt-*"))


@pytest.fixture
def notices() -> Any:
    received: list[KeptAside] = []
    stop = on_kept_aside(received.append)
    yield received
    stop()


# --- the helper ---------------------------------------------------------------------------


def test_a_bom_and_crlf_read_as_the_object(tmp_path: Path) -> None:
    path = tmp_path / "side.json"
    path.write_bytes(crlf_bom({"a": [1, 2], "b": {"c": None}}))
    read = read_sidecar(path)
    assert read.document == {"a": [1, 2], "b": {"c": None}} and read.problem is None


@pytest.mark.expect_log(
    "memtab.fs.sidecar",
    "WARNING",
    r"^side.json could not be used \(.*\); its content was kept as side.json.corrupt-",
)
@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b'{"entries": {"global:a.md": {"pinned": tr', "not valid JSON"),  # truncated
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not UTF-8"),  # binary
        (b"pinned: yes\n", "not valid JSON"),  # not JSON
        (b"[1, 2, 3]", "not a JSON object (found a list)"),  # wrong top-level type
        (b'"text"', "not a JSON object (found a string)"),
        (DEEP.encode(), "nested too deeply"),
    ],
)
def test_an_unparsable_file_is_kept_aside_before_the_first_write(
    tmp_path: Path,
    data: bytes,
    problem: str,
    notices: list[KeptAside],
    caplog: pytest.LogCaptureFixture,
) -> None:
    path = tmp_path / "side.json"
    path.write_bytes(data)
    read = read_sidecar(path)
    assert read.document == {} and problem in (read.problem or "")
    assert path.read_bytes() == data and kept_copies(path) == []  # reading keeps it as is
    with caplog.at_level(logging.WARNING), edit_sidecar(path, tmp_path / "lock") as document:
        document["fresh"] = True
    (copy,) = kept_copies(path)
    assert copy.read_bytes() == data
    assert copy.stat().st_mode & 0o777 == 0o600
    assert json.loads(path.read_text()) == {"fresh": True}
    assert [kept.backup for kept in notices] == [copy]
    assert problem in notices[0].reason and copy.name in notices[0].message
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and copy.name in warnings[0].getMessage()


@pytest.mark.expect_log(
    "memtab.fs.sidecar", "WARNING", r"^memory-meta.json could not be used \((why|again)\)"
)
def test_the_copy_is_named_after_the_file_with_a_utc_timestamp(tmp_path: Path) -> None:
    path = tmp_path / "memory-meta.json"
    first = keep_aside(path, b"one", "why").backup
    second = keep_aside(path, b"two", "why").backup
    assert first.parent == tmp_path
    assert first.name.startswith("memory-meta.json.corrupt-") and first.name.endswith("Z")
    assert second != first and second.read_bytes() == b"two"  # never overwrites a copy
    assert keep_aside(path, b"one", "again").backup == first  # same bytes: reused


def test_an_unreadable_file_is_never_replaced(tmp_path: Path) -> None:
    path = tmp_path / "side.json"
    path.mkdir()  # reading a directory fails like an unreadable file
    with pytest.raises(OSError), edit_sidecar(path, None) as document:
        document["x"] = 1
    assert path.is_dir()


def test_a_failing_change_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "side.json"
    path.write_text('{"a": 1}')
    with pytest.raises(RuntimeError), edit_sidecar(path, None) as document:
        document["a"] = 2
        raise RuntimeError("boom")
    assert json.loads(path.read_text()) == {"a": 1}


def test_an_unchanged_document_is_not_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "side.json"
    path.write_bytes(crlf_bom({"a": 1}))
    before = path.read_bytes()
    with edit_sidecar(path, None) as document:
        document["a"] = 1
    assert path.read_bytes() == before


@pytest.mark.expect_log("memtab.fs.sidecar", "ERROR", r"^a kept-aside listener failed")
@pytest.mark.expect_log(
    "memtab.fs.sidecar", "WARNING", r"^side.json could not be used \(not valid JSON"
)
def test_a_listener_that_fails_does_not_fail_the_write(tmp_path: Path) -> None:
    def broken(kept: KeptAside) -> None:
        raise RuntimeError("listener bug")

    stop = on_kept_aside(broken)
    try:
        path = tmp_path / "side.json"
        path.write_text("{")
        with edit_sidecar(path, None) as document:
            document["ok"] = 1
    finally:
        stop()
    assert json.loads(path.read_text()) == {"ok": 1}


# --- memory-meta.json ---------------------------------------------------------------------

PINS = {
    global_key(name): {"pinned": True, "accessCount": 3, "lastAccessedAt": 5, "lastWriteAt": None}
    for name in ("a.md", "b.md", "c.md")
}


def test_a_meta_file_with_a_bom_keeps_its_pins(home: Home, clock: FakeClock) -> None:
    home.root.mkdir(parents=True)
    home.meta_path.write_bytes(crlf_bom({"entries": PINS}))
    store = MetaStore(home, clock)
    assert {key for key, entry in store.load().items() if entry.pinned} == set(PINS)
    store.record_read(global_key("new.md"))
    entries = json.loads(home.meta_path.read_text())["entries"]
    assert {key for key, raw in entries.items() if raw["pinned"]} == set(PINS)


@pytest.mark.expect_log(
    "memtab.fs.sidecar", "WARNING", r"^memory-meta.json could not be used \(not valid JSON"
)
def test_a_corrupt_meta_file_is_kept_aside(home: Home, clock: FakeClock) -> None:
    home.root.mkdir(parents=True)
    home.meta_path.write_text('{"entries": {"global:a.md": {"pinned": tru')
    MetaStore(home, clock).set_pinned(global_key("b.md"), True)
    (copy,) = kept_copies(home.meta_path)
    assert copy.read_text().endswith("tru")
    assert set(json.loads(home.meta_path.read_text())["entries"]) == {global_key("b.md")}


def test_meta_keeps_fields_it_does_not_know(home: Home, clock: FakeClock) -> None:
    home.root.mkdir(parents=True)
    entry = {"pinned": True, "accessCount": 1, "color": "red", "nested": {"x": [1]}}
    original = {
        "version": 3,
        "entries": {global_key("a.md"): entry, global_key("b.md"): {"pinnedBy": "mux"}},
        "owner": {"app": "future mux"},
    }
    home.meta_path.write_text(json.dumps(original))
    store = MetaStore(home, clock)
    store.record_write(global_key("a.md"))
    store.set_pinned(global_key("a.md"), False)
    store.move_subtree(global_key("a.md"), global_key("moved.md"), record_write=False)
    document = json.loads(home.meta_path.read_text())
    assert document["version"] == 3 and document["owner"] == {"app": "future mux"}
    moved = document["entries"][global_key("moved.md")]
    assert moved["color"] == "red" and moved["nested"] == {"x": [1]}
    assert moved["pinned"] is False and moved["accessCount"] == 2
    assert document["entries"][global_key("b.md")] == {
        "pinnedBy": "mux",
        "pinned": False,
        "accessCount": 0,
        "lastAccessedAt": None,
        "lastWriteAt": None,
    }
    store.drop_subtree(global_key("moved.md"))
    assert global_key("moved.md") not in json.loads(home.meta_path.read_text())["entries"]


@pytest.mark.expect_log(
    "memtab.fs.sidecar",
    "WARNING",
    r"^memory-meta.json could not be used \(its .entries. is not an object\)",
)
def test_meta_entries_that_are_not_an_object_are_kept_aside(home: Home, clock: FakeClock) -> None:
    home.root.mkdir(parents=True)
    home.meta_path.write_text('{"version": 1, "entries": ["global:a.md"]}')
    MetaStore(home, clock).set_pinned(global_key("a.md"), True)
    assert len(kept_copies(home.meta_path)) == 1
    document = json.loads(home.meta_path.read_text())
    assert document["version"] == 1 and list(document["entries"]) == [global_key("a.md")]


# --- the journal -------------------------------------------------------------------------


def _record(at: int, **extra: Any) -> dict[str, Any]:
    return {"lastRunAt": at, "trigger": "manual", "summary": "s", "ops": [], **extra}


JOURNAL = {
    "workspaces": {f"w{i}": _record(i + 1) for i in range(4)},
    "projects": {"/p/a": _record(10), "/p/b": _record(11)},
    "harvestsByWorkspace": {"w0": {"msg-1": {"status": "completed", "attemptCount": 1}}},
}


def test_a_journal_with_a_bom_keeps_every_record_and_mux_harvests(home: Home) -> None:
    home.root.mkdir(parents=True)
    home.journal_path.write_bytes(crlf_bom(JOURNAL))
    journal = Journal(home)
    assert len(journal.load().workspaces) == 4 and journal.load().problems == ()
    journal.save_run(
        "w9", "/p/c", ConsolidationRecord(last_run_at=99, trigger="manual", summary="new")
    )
    document = json.loads(home.journal_path.read_text())
    assert set(document["workspaces"]) == {"w0", "w1", "w2", "w3", "w9"}
    assert set(document["projects"]) == {"/p/a", "/p/b", "/p/c"}
    assert document["harvestsByWorkspace"] == JOURNAL["harvestsByWorkspace"]


@pytest.mark.expect_log(
    "memtab.fs.sidecar", "WARNING", r"^memory-consolidation.json could not be used \(not valid JSON"
)
def test_a_corrupt_journal_is_kept_aside(home: Home) -> None:
    home.root.mkdir(parents=True)
    home.journal_path.write_text('{"workspaces": {"w0": ')
    journal = Journal(home)
    (problem,) = journal.load().problems
    assert problem.startswith("the journal is not valid JSON (")
    journal.save_run(
        "w9", None, ConsolidationRecord(last_run_at=99, trigger="manual", summary="new")
    )
    assert kept_copies(home.journal_path)[0].read_text() == '{"workspaces": {"w0": '
    assert set(json.loads(home.journal_path.read_text())["workspaces"]) == {"w9"}


def test_the_journal_keeps_fields_and_buckets_it_does_not_know(home: Home) -> None:
    home.root.mkdir(parents=True)
    original = {
        "version": 2,
        "workspaces": {
            "w0": _record(
                1, model="m", ops=[{"command": "create", "path": "/p", "applied": True, "why": "x"}]
            )
        },
        "projects": {},
        "futureBucket": {"anything": [1, {"deep": True}]},
    }
    home.journal_path.write_text(json.dumps(original))
    journal = Journal(home)
    journal.save_run(
        "w1", "/p/a", ConsolidationRecord(last_run_at=5, trigger="launch", summary="s")
    )
    document = json.loads(home.journal_path.read_text())
    assert document["version"] == 2 and document["futureBucket"] == original["futureBucket"]
    assert document["workspaces"]["w0"] == original["workspaces"]["w0"]
    # Records read back serialize with their unknown fields, down to each op.
    record = journal.load().workspaces["w0"]
    assert record.to_json()["model"] == "m" and record.to_json()["ops"][0]["why"] == "x"


@pytest.mark.expect_log(
    "memtab.fs.sidecar",
    "WARNING",
    r"^memory-consolidation.json could not be used \(its .workspaces. is not an object\)",
)
def test_a_journal_bucket_that_is_not_an_object_is_kept_aside_and_replaced(home: Home) -> None:
    home.root.mkdir(parents=True)
    home.journal_path.write_text(
        json.dumps({"workspaces": ["oops"], "harvestsByWorkspace": JOURNAL["harvestsByWorkspace"]})
    )
    Journal(home).save_run(
        "w1", None, ConsolidationRecord(last_run_at=5, trigger="manual", summary="s")
    )
    assert len(kept_copies(home.journal_path)) == 1
    document = json.loads(home.journal_path.read_text())
    assert list(document["workspaces"]) == ["w1"]
    assert document["harvestsByWorkspace"] == JOURNAL["harvestsByWorkspace"]


def test_the_journaled_summary_is_capped_on_a_character_boundary(home: Home) -> None:
    summary = "é" * 5000  # 10 000 bytes; every cut point inside a character is tempting
    capped = cap_text(summary, MAX_SUMMARY_BYTES)
    assert capped.endswith("…") and len(capped.encode()) <= MAX_SUMMARY_BYTES
    assert capped[:-1] == "é" * len(capped[:-1])
    assert cap_text("short", MAX_SUMMARY_BYTES) == "short"
    assert cap_text("x" * MAX_SUMMARY_BYTES, MAX_SUMMARY_BYTES) == "x" * MAX_SUMMARY_BYTES
    Journal(home).save_run(
        "w1", None, ConsolidationRecord(last_run_at=5, trigger="manual", summary="🚀" * 20_000)
    )
    stored = json.loads(home.journal_path.read_text())["workspaces"]["w1"]["summary"]
    assert len(stored.encode()) <= MAX_SUMMARY_BYTES and stored.endswith("🚀…")


def test_a_journal_op_keeps_its_unknown_fields() -> None:
    raw = {"extra": 1, "applied": True, "command": "delete", "path": "/memories/global/a.md"}
    op = JournalOp.read_or_raise(raw)
    assert op.unknown == {"extra": 1} and op.to_json() == raw
    assert list(op.replaced(note="n").to_json()) == ["command", "path", "applied", "note", "extra"]


# --- config.json and extensionMetadata.json ------------------------------------------------


def test_a_registry_with_a_bom_is_read_and_extended_without_loss(home: Home) -> None:
    home.root.mkdir(parents=True)
    original = {
        "projects": [["/p", {"workspaces": [{"path": "/p", "id": "abc", "name": "a"}], "x": 1}]],
        "muxGovernorToken": "keep me",
    }
    home.config_path.write_bytes(crlf_bom(original))
    assert load_registry(home).require_workspace("abc").project_path == "/p"
    add_workspace(home, "/p", "b", workspace_id="def")
    document = json.loads(home.config_path.read_text())
    assert document["muxGovernorToken"] == "keep me" and document["projects"][0][1]["x"] == 1
    assert [ws["id"] for ws in document["projects"][0][1]["workspaces"]] == ["abc", "def"]
    assert kept_copies(home.config_path) == []


@pytest.mark.expect_log(
    "memtab.fs.sidecar",
    "WARNING",
    r"^config.json could not be used \(its .projects. is not a list\)",
)
def test_a_registry_whose_projects_is_not_a_list_is_kept_aside(home: Home) -> None:
    home.root.mkdir(parents=True)
    home.config_path.write_text('{"projects": {"oops": 1}, "keep": true}')
    assert add_project(home, "/p") is True
    assert len(kept_copies(home.config_path)) == 1
    assert json.loads(home.config_path.read_text()) == {
        "projects": [["/p", {"workspaces": []}]],
        "keep": True,
    }


def test_adding_an_existing_project_does_not_touch_the_file(home: Home) -> None:
    add_project(home, "/p")
    before = home.config_path.stat().st_mtime_ns, home.config_path.read_bytes()
    os.utime(home.config_path, ns=(0, 0))
    assert add_project(home, "/p") is False
    assert home.config_path.stat().st_mtime_ns == 0 and home.config_path.read_bytes() == before[1]


@pytest.mark.parametrize("name", ["config.json", "extensionMetadata.json"])
def test_deeply_nested_registry_files_are_a_clean_error(home: Home, name: str) -> None:
    home.root.mkdir(parents=True)
    (home.root / name).write_text('{"projects": ' + DEEP + ', "version": 1, "workspaces": {}}')
    if name == "config.json":
        with pytest.raises(Exception) as failure:
            load_registry(home)
        assert "nested too deeply" in str(failure.value)
        assert not isinstance(failure.value, RecursionError)
        assert "\n" not in str(failure.value)
    else:
        assert load_recency(home) == {}


def test_deeply_nested_sidecars_read_as_empty(home: Home) -> None:
    home.root.mkdir(parents=True)
    home.meta_path.write_text('{"entries": ' + DEEP + "}")
    home.journal_path.write_text('{"workspaces": {"w": ' + DEEP + "}}")
    assert MetaStore(home).load() == {}
    assert Journal(home).load().problems == ("the journal is nested too deeply to read",)


# --- the writer state and the UI state -----------------------------------------------------


def test_the_writer_state_reads_a_bom_and_keeps_unknown_fields(tmp_path: Path) -> None:
    path = tmp_path / "system1-memory-writer-state.json"
    path.write_bytes(crlf_bom({"schemaVersion": 1, "turnsSinceLastRun": 3, "muxOnly": [1]}))
    assert load_state(path).turns_since_last_run == 3
    save_state(path, WriterState(turns_since_last_run=0, last_run_started_at=7))
    assert json.loads(path.read_text()) == {
        "schemaVersion": 1,
        "turnsSinceLastRun": 0,
        "muxOnly": [1],
        "lastRunStartedAt": 7,
    }


@pytest.mark.expect_log(
    "memtab.fs.sidecar",
    "WARNING",
    r"^system1-memory-writer-state.json could not be used \(not valid JSON",
)
def test_a_corrupt_writer_state_is_kept_aside(tmp_path: Path) -> None:
    path = tmp_path / "system1-memory-writer-state.json"
    path.write_text('{"turnsSinceLastRun": 1')
    assert load_state(path) == WriterState()
    save_state(path, WriterState(turns_since_last_run=1))
    assert kept_copies(path)[0].read_text() == '{"turnsSinceLastRun": 1'


@pytest.mark.expect_log(
    "memtab.components.window.ui_state",
    "WARNING",
    r"^Ignoring the UI state .*ui-state.json: not valid JSON",
)
@pytest.mark.expect_log(
    "memtab.fs.sidecar", "WARNING", r"^ui-state.json could not be used \(not valid JSON"
)
def test_the_ui_state_reads_a_bom_and_keeps_a_corrupt_file_aside(tmp_path: Path) -> None:
    path = tmp_path / "ui-state.json"
    path.write_bytes(crlf_bom({"version": 1, "homes": {"/h": {"workspace": "w1"}}, "x": 2}))
    state = UiState.load(path)
    assert state.workspace_for(Path("/h")) == "w1"
    assert state.save() and json.loads(path.read_text())["x"] == 2
    path.write_bytes(b"\x00\x01 not json")
    broken = UiState.load(path)
    assert broken.workspace_for(Path("/h")) is None
    assert broken.save()
    assert kept_copies(path)[0].read_bytes() == b"\x00\x01 not json"
    assert json.loads(path.read_text())["version"] == 1


def test_parse_meta_document_heals_what_the_helper_reads(tmp_path: Path) -> None:
    path = tmp_path / "memory-meta.json"
    path.write_bytes(BOM + json.dumps({"entries": PINS}).encode())
    assert set(parse_meta_document(read_sidecar(path).document)) == set(PINS)


# --- a property: any extra field, at any level, survives every write ------------------------

_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=8)
_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | _TEXT,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(_TEXT, children, max_size=3),
    max_leaves=8,
)


def _extras(known: set[str]) -> st.SearchStrategy[dict[str, Any]]:
    return st.dictionaries(_TEXT.filter(lambda key: key not in known), _JSON, max_size=3)


_META_ENTRY_FIELDS = {"pinned", "accessCount", "lastAccessedAt", "lastWriteAt"}
_RECORD_FIELDS = {"lastRunAt", "trigger", "summary", "ops", "usage"}
_JOURNAL_BUCKETS = {"workspaces", "projects", "harvestsByWorkspace"}


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(top=_extras({"entries"}), entry=_extras(_META_ENTRY_FIELDS))
def test_meta_writes_keep_any_extra_field(
    tmp_path: Path, top: dict[str, Any], entry: dict[str, Any]
) -> None:
    home = Home(tmp_path / "meta-home")
    home.root.mkdir(parents=True, exist_ok=True)
    kept_entry = {"pinned": True, "accessCount": 2, **entry}
    home.meta_path.write_text(json.dumps({**top, "entries": {global_key("a.md"): kept_entry}}))
    store = MetaStore(home, FakeClock())
    store.record_read(global_key("a.md"))
    store.set_pinned(global_key("b.md"), True)
    document = json.loads(home.meta_path.read_text())
    assert {key: document[key] for key in top} == top
    written = document["entries"][global_key("a.md")]
    assert {key: written[key] for key in entry} == entry


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(top=_extras(_JOURNAL_BUCKETS), record=_extras(_RECORD_FIELDS))
def test_journal_writes_keep_any_extra_field(
    tmp_path: Path, top: dict[str, Any], record: dict[str, Any]
) -> None:
    home = Home(tmp_path / "journal-home")
    home.root.mkdir(parents=True, exist_ok=True)
    other = {**_record(1), **record}
    home.journal_path.write_text(json.dumps({**top, "workspaces": {"w0": other}}))
    journal = Journal(home)
    journal.save_run("w1", "/p", ConsolidationRecord(last_run_at=5, trigger="manual", summary="s"))
    document = json.loads(home.journal_path.read_text())
    assert {key: document[key] for key in top} == top
    assert document["workspaces"]["w0"] == other
    parsed = journal.load().workspaces["w0"].to_json()
    assert {key: parsed[key] for key in record} == record


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    top=_extras({"projects"}),
    project=_extras({"workspaces"}),
    workspace=_extras({"path", "id", "name"}),
)
def test_registry_writes_keep_any_extra_field(
    tmp_path: Path, top: dict[str, Any], project: dict[str, Any], workspace: dict[str, Any]
) -> None:
    home = Home(tmp_path / "config-home")
    home.root.mkdir(parents=True, exist_ok=True)
    existing = {"path": "/p", "id": "abc", "name": "a", **workspace}
    home.config_path.write_text(
        json.dumps({**top, "projects": [["/p", {**project, "workspaces": [existing]}]]})
    )
    add_workspace(home, "/p/", "b", workspace_id="def")  # `/p/` is the same project
    document = json.loads(home.config_path.read_text())
    assert {key: document[key] for key in top} == top
    (entry,) = document["projects"]
    assert {key: entry[1][key] for key in project} == project
    assert entry[1]["workspaces"][0] == existing


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    top=_extras(
        {
            "schemaVersion",
            "turnsSinceLastRun",
            "lastRunStartedAt",
            "lastRunCompletedAt",
            "lastRunMessageId",
        }
    )
)
def test_writer_state_writes_keep_any_extra_field(tmp_path: Path, top: dict[str, Any]) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"schemaVersion": 1, "turnsSinceLastRun": 1, **top}))
    save_state(path, WriterState(turns_since_last_run=2))
    document = json.loads(path.read_text())
    assert {key: document[key] for key in top} == top and document["turnsSinceLastRun"] == 2
