"""Free text a model brings is capped where Memtab keeps it (issue 19): four 1 MB reasons
once grew mux's journal to 8 MB, and mux reads that file at every start."""

from __future__ import annotations

import json

from memtab.consolidation.service import ConsolidationService
from memtab.llm.types import ModelReply, ToolCall
from memtab.store.history.records import RunEntry, RunOp
from memtab.store.history.runs import RunsLog
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.journal import JournalOp
from support.scripted_provider import ScriptedProvider

from .helpers import WS, put

MEGABYTE_REASON = "because " * 131_072  # 1 MiB


def test_megabyte_reasons_and_summary_are_capped_in_the_journal_and_runs_log(
    home: Home, store: MemoryStore
) -> None:
    views = [{"command": "view", "path": f"/memories/global/{name}.md"} for name in "abcd"]
    calls = [ToolCall(f"view-{index}", "memory", view) for index, view in enumerate(views)]
    for name in "abcd":
        put(store, f"/memories/global/{name}.md", f"- keep this\n- drop this {name}\n")
        arguments = {
            "command": "str_replace",
            "path": f"/memories/global/{name}.md",
            "old_str": f"- drop this {name}\n",
            "new_str": "",
            "reason": MEGABYTE_REASON,
        }
        calls.append(ToolCall(f"call-{name}", "memory", arguments))
    replies = [ModelReply("", tuple(calls)), ModelReply("Summary. " * 200_000)]
    service = ConsolidationService(home, provider_factory=lambda _: ScriptedProvider(replies))
    record = service.run(WS)
    assert record.applied_count == 4
    assert home.journal_path.stat().st_size < 32 * 1024  # was 8 MB
    journal = json.loads(home.journal_path.read_text(encoding="utf-8"))
    for bucket in ("workspaces", "projects"):
        saved = next(iter(journal[bucket].values()))
        assert len(saved["summary"].encode()) <= 4096
        assert all(len(op["note"].encode()) <= 1024 for op in saved["ops"])
        assert saved["ops"][0]["note"].startswith("because because") and saved["ops"][0][
            "note"
        ].endswith("…")
    assert home.runs_log_path.stat().st_size < 32 * 1024
    (run,) = RunsLog(home).runs()
    assert len(run.summary.encode()) <= 4096


def test_every_record_caps_its_free_text_wherever_it_comes_from() -> None:
    from memtab.store.text.free_text import MAX_ERROR_BYTES, MAX_NOTE_BYTES, MAX_SUMMARY_BYTES

    huge = "x" * 5_000_000
    assert len(
        JournalOp(command="delete", path="/memories/global/a.md", applied=False, note=huge).note
        or ""
    ) <= (MAX_NOTE_BYTES)
    op = RunOp(command="delete", path="/memories/global/a.md", applied=True, note=huge)
    assert len((op.note or "").encode()) <= MAX_NOTE_BYTES
    run = RunEntry(
        id="run-1",
        at=1,
        kind="consolidation",
        trigger="manual",
        workspace_id=WS,
        summary=huge,
        ops=(op,),
        error=huge,
    )
    assert len(run.summary.encode()) <= MAX_SUMMARY_BYTES
    assert len((run.error or "").encode()) <= MAX_ERROR_BYTES
