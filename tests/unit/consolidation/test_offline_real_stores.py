"""The offline consolidator on real memory stores other people's agents wrote.

Each test reproduces one harm seen on real stores (see issue 11) and checks it is gone.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from memtab.consolidation.offline import provider as offline_module
from memtab.consolidation.offline.plan import plan_consolidation
from memtab.consolidation.offline.units import split_units
from memtab.consolidation.service import ConsolidationService
from memtab.llm.settings import ProviderSettings
from memtab.store.files import MAX_FILE_BYTES
from memtab.store.home import Home
from memtab.store.paths import Scope, VirtualPath, parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.journal import ConsolidationRecord
from quality.stores import CLAUDE, CODEX, LOKI, install, real_files

from .helpers import WS, exists, put, read

OFFLINE = ProviderSettings("offline", "offline", "")


def consolidate(home: Home) -> ConsolidationRecord:
    return ConsolidationService(home, settings=OFFLINE).run(WS)


def put_over(store: MemoryStore, path: str, text: str) -> None:
    """Replace a memory file's content on disk (as an agent writing it would)."""
    store.physical(parse_file_path(path)).write_text(text)


def disk(store: MemoryStore, path: str) -> bytes:
    return store.physical(parse_file_path(path)).read_bytes()


def labels_and_headings(text: str) -> list[str]:
    lines = text.split("\n")
    return [lines[unit.start] for unit in split_units(lines) if unit.kind in ("heading", "label")]


def filled_blocks(text: str) -> list[bool]:
    """For each heading and label in order: whether any content stands under it."""
    lines = text.split("\n")
    units = split_units(lines)
    return [
        any(u.content for u in units if u.block == position)
        for position, unit in enumerate(units)
        if unit.kind in ("heading", "label")
    ]


def test_json_files_are_never_touched_and_never_merged_with_their_markdown_twin(
    home: Home, store: MemoryStore
) -> None:
    written = install(store, LOKI)
    record = consolidate(home)
    assert record.ops == ()
    for path, data in written.items():
        assert disk(store, path) == data, path


def test_codex_raw_memories_keep_the_labels_of_every_thread_block(
    home: Home, store: MemoryStore
) -> None:
    install(store, CODEX)
    before = read(store, "/memories/global/raw_memories.md")
    assert before.count("Preference signals:") == 2  # one per thread block
    consolidate(home)
    after = read(store, "/memories/global/raw_memories.md")
    assert labels_and_headings(after) == labels_and_headings(before)
    assert after == before  # no item is said twice under one heading


def test_key_value_bullets_are_items_and_a_repeated_one_goes(
    home: Home, store: MemoryStore
) -> None:
    # Codex writes its failures as `- Symptom: … Cause: … Fix: …` bullets: ordinary items,
    # not labels. The same failure recorded twice under one heading loses its copy; the
    # real labels (`scope:`, `applies_to:`) and every heading stay.
    install(store, CODEX, derived=False)
    original = read(store, "/memories/global/MEMORY.md")
    lines = original.split("\n")
    [symptom] = [i for i, line in enumerate(lines) if line.startswith("- Symptom: `curl`")]
    twice = "\n".join([*lines[: symptom + 1], lines[symptom], *lines[symptom + 1 :]])
    put_over(store, "/memories/global/MEMORY.md", twice)
    record = consolidate(home)
    [op] = [op for op in record.ops if op.path == "/memories/global/MEMORY.md"]
    assert op.applied and op.note.startswith("Removed 1 item said twice under the same heading.")
    after = read(store, "/memories/global/MEMORY.md")
    body = after.split("---\n", 2)[2] if after.startswith("---\n") else after
    assert body == original
    assert labels_and_headings(body) == labels_and_headings(original)
    assert [line for line in labels_and_headings(original) if line.startswith("- ")] == []


VERCEL = "reference_vercel-cli-rest-api.md"
TOKEN_LINE = "`.token` 필드에 `vca_...` 형태."
JQ_TOKEN = "TOK=$(jq -r .token ~/.local/share/com.vercel.cli/auth.json)"


def vercel_with_jq() -> tuple[str, str]:
    """Claude Code's real Vercel note, and the same with the token read by `jq`: the
    paragraph that says where the token is stays, the code block under it differs."""
    real = real_files(CLAUDE)[VERCEL].decode()
    node = next(line for line in real.split("\n") if line.startswith("TOK=$(node"))
    return real, real.replace(node, JQ_TOKEN)


def code_follows_its_paragraph(text: str) -> bool:
    """Every `TOK=` code block stands right under the paragraph that says what it reads."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if line.startswith("TOK="):
            above = [text for text in lines[: index - 1] if text.strip()]
            if not above or not above[-1].startswith(TOKEN_LINE):
                return False
    return True


def test_a_paragraph_and_the_code_under_it_go_or_stay_together(
    home: Home, store: MemoryStore
) -> None:
    install(store, CLAUDE, derived=False)
    real, with_jq = vercel_with_jq()
    paragraph = next(line for line in real.split("\n") if line.startswith(TOKEN_LINE))
    # The workspace's own note: the project's paragraph, with this PC's way to read it.
    local = (
        f"---\ndescription: 이 PC의 Vercel 토큰\n---\n# 이 PC의 Vercel 토큰\n\n{paragraph}\n\n"
        f"```bash\n{JQ_TOKEN}\n```\n\n- node 없음.\n"
    )
    put(store, "/memories/workspace/vercel-token.md", local)
    # The agent wrote the section again under the same heading, with the other command:
    # the copy of the paragraph goes with its code block, the first pair stays whole.
    again = with_jq.split("---\n", 2)[2].split("## CLI에 없어서")[0]
    section = again.split("## 토큰 위치")[1]
    twice = f"{again}{section}"
    put(store, "/memories/workspace/vercel-twice.md", f"---\ndescription: twice\n---\n{twice}")
    consolidate(home)
    after = read(store, "/memories/workspace/vercel-twice.md")
    assert after.count(TOKEN_LINE) == 1 and after.count(JQ_TOKEN) == 1
    assert code_follows_its_paragraph(after)
    assert read(store, "/memories/workspace/vercel-token.md") == local


def test_a_merge_never_carries_a_code_block_without_its_paragraph(
    home: Home, store: MemoryStore
) -> None:
    real, with_jq = vercel_with_jq()
    put(store, f"/memories/project/{VERCEL}", real)
    # Saved again (without its name and description), the token read with jq.
    copy = "---\ntype: reference\n---\n" + with_jq.split("---\n", 2)[2]
    put(store, "/memories/project/vercel-api-copy.md", copy)
    record = consolidate(home)
    for path in (f"/memories/project/{VERCEL}", "/memories/project/vercel-api-copy.md"):
        if exists(store, path):
            assert code_follows_its_paragraph(read(store, path)), path
    # The two notes differ by one command for the same step: parallel, not duplicates.
    assert record.ops == ()


def test_a_wider_scope_copy_never_leaves_a_shell_of_headings(
    home: Home, store: MemoryStore
) -> None:
    install(store, CLAUDE, derived=False)
    text = real_files(CLAUDE)["project_config-sync.md"].decode()
    body = text.split("---\n", 2)[2]
    # The same notes in the workspace, with one line of its own under the last heading.
    local = body.rstrip("\n") + "\n- 이 PC에서는 `/sync-pull`만 쓴다.\n"
    put(store, "/memories/workspace/config-sync.md", local)
    record = consolidate(home)
    after = read(store, "/memories/workspace/config-sync.md")
    assert filled_blocks(after) == filled_blocks(local), after
    assert labels_and_headings(after) == labels_and_headings(local)
    assert "이 PC에서는" in after
    assert all(op.note for op in record.ops if op.applied)


def test_a_wider_scope_copy_whose_every_line_is_elsewhere_is_deleted_and_says_where(
    home: Home, store: MemoryStore
) -> None:
    install(store, CLAUDE, derived=False)
    text = real_files(CLAUDE)["reference_vercel-cli-rest-api.md"].decode()
    put(store, "/memories/workspace/vercel.md", text.split("---\n", 2)[2])
    record = consolidate(home)
    [op] = [op for op in record.ops if op.path == "/memories/workspace/vercel.md"]
    assert (op.command, op.applied) == ("delete", True)
    assert op.note == ("Every line of it is already in project/reference_vercel-cli-rest-api.md.")


def savings(store: MemoryStore, scope: Scope) -> None:
    """A file with a repeated item, so a run saves bytes (and may pay for descriptions)."""
    repeated = "- The VPN must be up before `make deploy`; it hangs otherwise.\n" * 6
    put(store, f"{scope.virtual_root}/deploy.md", f"---\ndescription: Deploy\n---\n{repeated}")


def descriptions(store: MemoryStore, scope: Scope) -> dict[str, str]:
    return {
        file.path.name: file.description
        for file in store.list_scope(scope).files
        if file.description
    }


def test_descriptions_name_the_topics_of_index_files_in_their_language(
    home: Home, store: MemoryStore
) -> None:
    install(store, CODEX)
    install(store, CLAUDE)
    savings(store, Scope.GLOBAL)
    savings(store, Scope.PROJECT)
    consolidate(home)
    codex = descriptions(store, Scope.GLOBAL)
    assert codex["MEMORY.md"].startswith(
        "Index: Codex local version management and folder continuity, "
    )
    assert "Task Group" not in codex["MEMORY.md"]
    # Codex's own markers stay first: no frontmatter above `v1` or `thread_id:` lines.
    assert "memory_summary.md" not in codex
    assert read(store, "/memories/global/memory_summary.md").startswith("v1\n")
    assert read(store, "/memories/global/raw_memories.md").startswith("# Raw Memories\n")
    claude = descriptions(store, Scope.PROJECT)
    assert claude["MEMORY.md"].startswith("색인: ppt-deck 스킬 (PPT 자동 생성), ")
    # A title over sections that are sentences: a description could only copy the title,
    # which the tree shows already, so the file is left as it is.
    assert "notiontalk-landing-strategy.md" not in claude
    notiontalk = next(
        file
        for file in store.list_scope(Scope.PROJECT).files
        if file.path.name == "notiontalk-landing-strategy.md"
    )
    assert notiontalk.heading == "Notiontalk.com 랜딩 페이지(메인 index) 구성안"


def test_a_template_heading_never_becomes_a_description(home: Home, store: MemoryStore) -> None:
    summary = (
        "# Session Title\n\n"
        "## Résumé\n\n"
        "- La migration vers Postgres 16 est terminée ; les index ont été recréés.\n"
        "- Les tests d'intégration passent de nouveau après la correction du fuseau horaire.\n\n"
        "## Prochaines étapes\n\n"
        "- Vérifier les sauvegardes nocturnes.\n"
    )
    put(store, "/memories/workspace/session-2026-03-02.md", summary)
    ledger = real_files(LOKI)["ledgers/LEDGER-20260101T120000Z.md"].decode()
    put(store, "/memories/workspace/ledger.md", ledger)
    savings(store, Scope.WORKSPACE)
    record = consolidate(home)
    assert any(op.path == "/memories/workspace/deploy.md" for op in record.ops)  # it saved
    assert read(store, "/memories/workspace/session-2026-03-02.md") == summary
    assert read(store, "/memories/workspace/ledger.md") == ledger


def test_every_change_on_the_real_stores_says_why(home: Home, store: MemoryStore) -> None:
    for real in (CODEX, CLAUDE, LOKI):
        install(store, real)
        savings(store, real.scope)
    record = consolidate(home)
    applied = [op for op in record.ops if op.applied]
    assert applied
    for op in applied:
        assert op.note and op.note[0].isupper() and op.note.endswith((".", "”.")), op


def test_a_file_linked_from_an_index_is_never_deleted(home: Home, store: MemoryStore) -> None:
    note = "---\ndescription: Vercel env\n---\n- Use `printf` with `vercel env add`, never `<<<`.\n"
    put(store, "/memories/project/feedback_vercel.md", note)
    put(store, "/memories/project/feedback_vercel-2.md", note)  # the copy, worse name…
    index = "# Memory\n\n- [feedback_vercel-2.md](feedback_vercel-2.md) — env newline bug\n"
    put(store, "/memories/project/MEMORY.md", index)  # …but the index points at it
    record = consolidate(home)
    assert not [op for op in record.ops if op.command == "delete"]
    assert read(store, "/memories/project/feedback_vercel-2.md") == note


def test_notes_of_different_types_never_merge(home: Home, store: MemoryStore) -> None:
    body = "- `vercel env add` with `<<<` appends a newline to the value.\n"
    put(store, "/memories/project/a.md", f"---\ndescription: A\ntype: feedback\n---\n{body}")
    put(store, "/memories/project/b.md", f"---\ndescription: B\ntype: reference\n---\n{body}")
    assert consolidate(home).ops == ()


def test_a_file_changed_on_disk_after_the_plan_is_left_as_it_is_now(
    home: Home, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    repeated = "- Rebase onto main before opening a pull request.\n" * 2
    put(store, "/memories/global/git.md", f"---\ndescription: Git\n---\n{repeated}")
    changed = f"---\ndescription: Git\n---\n{repeated}- Added by mux meanwhile.\n"
    real_plan = offline_module.plan_consolidation

    def plan_then_mux_writes(*args: object, **kwargs: object) -> object:
        plan = real_plan(*args, **kwargs)  # type: ignore[arg-type]
        store.physical(parse_file_path("/memories/global/git.md")).write_text(changed)
        return plan

    monkeypatch.setattr(offline_module, "plan_consolidation", plan_then_mux_writes)
    record = consolidate(home)
    assert record.ops == ()
    assert read(store, "/memories/global/git.md") == changed
    assert record.summary == "1 file skipped: changed on disk during the run."


def test_files_over_the_cap_are_listed_and_never_read(
    home: Home, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    big = store.home.global_root / "huge.md"
    big.parent.mkdir(parents=True, exist_ok=True)
    big.write_bytes(b"- the same line again and again\n" * 200_000)  # 6.4 MB
    put(store, "/memories/global/small.md", "- a small note that is read\n")
    asked: list[str] = []
    real_read_many = MemoryStore.read_many

    def spy(self: MemoryStore, paths: Iterable[VirtualPath]) -> Iterator[tuple[object, object]]:
        paths = list(paths)
        asked.extend(str(path) for path in paths)
        return real_read_many(self, paths)

    monkeypatch.setattr(MemoryStore, "read_many", spy)
    files = {f.path: f for f in offline_module.collect_memory_files(store)}
    assert files["/memories/global/huge.md"].skipped == "larger than the 102,400-byte cap"
    assert asked == ["/memories/global/small.md"]  # the big one listed by size, never read
    assert consolidate(home).ops == ()


def test_read_capped_never_reads_past_the_cap(tmp_path: Path, store: MemoryStore) -> None:
    from memtab.consolidation.offline.inputs import read_capped

    put(store, "/memories/global/a.md", "x" * MAX_FILE_BYTES)
    put(store, "/memories/global/b.md", "x" * (MAX_FILE_BYTES - 1))
    (store.home.global_root / "b.md").write_text("x" * (MAX_FILE_BYTES + 1))
    at_cap = read_capped(store, parse_file_path("/memories/global/a.md"))
    assert at_cap is not None and at_cap.content == "x" * MAX_FILE_BYTES
    assert read_capped(store, parse_file_path("/memories/global/b.md")) is None


def test_real_stores_plan_only_markdown(store: MemoryStore) -> None:
    for real in (CODEX, CLAUDE, LOKI):
        install(store, real)
    from memtab.consolidation.offline.inputs import collect_memory_files

    files = collect_memory_files(store)
    plan = plan_consolidation(files, budget=8)
    touched = {change.path for change in (*plan.edits, *plan.deletes)}
    assert all(path.endswith(".md") for path in touched)
    assert {path for path, _ in plan.left_alone} == {
        f.path for f in files if not f.path.endswith(".md")
    }


def test_files_sharing_only_their_template_are_not_duplicates(
    home: Home, store: MemoryStore
) -> None:
    summaries = real_files(CODEX)
    names = [name for name in summaries if name.startswith("rollout_summaries/")]
    template = (
        "# {title}\n\nPreference signals:\n- {signal}\n\nKey steps:\n- {step}\n\n"
        "Failures and how to do differently:\n- None this time.\n\nReusable knowledge:\n"
        "- {fact}\n\nReferences:\n- [1] the rollout\n"
    )
    put(
        store,
        "/memories/global/a.md",
        template.format(
            title="Restore an archived session",
            signal="The user wants the exact destination checked first.",
            step="Copied the archived rollout back with the same filename.",
            fact="The sessions directory may be mounted read-only.",
        ),
    )
    put(
        store,
        "/memories/global/b.md",
        template.format(
            title="Install a skill without Node",
            signal="The user asked for the exact install command.",
            step="Tried npx skills add, then a sparse clone.",
            fact="This Git is too old for --filter=blob:none.",
        ),
    )
    assert names  # the template is Codex's rollout-summary shape
    assert consolidate(home).ops == ()


def test_consolidation_does_not_depend_on_the_view_output(
    home: Home, store: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memtab.store.scopes.tool import MemoryTool

    repeated = "- Rebase onto main before opening a pull request.\n" * 2
    put(store, "/memories/global/git.md", f"---\ndescription: Git\n---\n{repeated}")
    monkeypatch.setattr(MemoryTool, "_view", lambda self, args: "a format nobody parses")
    record = consolidate(home)
    assert [(op.command, op.applied) for op in record.ops] == [("str_replace", True)]
    assert read(store, "/memories/global/git.md").count("Rebase onto main") == 1


def test_merge_groups_never_chain_a_file_to_a_keeper_it_is_not_alike(
    home: Home, store: MemoryStore
) -> None:
    # One Codex note saved three times as it changed: preferences giving way to facts.
    # v1 ~ v2 (64 %) and v2 ~ v3 (61 %), but v1 and v3 share a third (36 %).
    files = real_files(CODEX)
    preferences = [line for line in files["memory_summary.md"].decode().split("\n")]
    preferences = [line for line in preferences if line.startswith("- ")]
    facts = [
        line
        for line in files["MEMORY.md"].decode().split("\n")
        if line.startswith("- ") and "[Task" in line and ("bwrap" in line or "nvm" in line)
    ]

    def note(items: list[str]) -> str:
        body = "\n".join(items)
        return f"---\ndescription: The HPC host\n---\n# Working on the HPC host\n\n{body}\n"

    put(store, "/memories/global/hpc-host.md", note(preferences[:12]))
    put(store, "/memories/global/hpc-host-2.md", note(preferences[:10] + facts[:2]))
    put(store, "/memories/global/hpc-host-draft.md", note(preferences[:6] + facts[:3]))
    record = consolidate(home)
    notes = {op.path: op.note for op in record.ops}
    assert notes["/memories/global/hpc-host-2.md"].startswith("Combined into global/hpc-host.md")
    assert "/memories/global/hpc-host-draft.md" not in notes  # alike to v2 only
    kept = read(store, "/memories/global/hpc-host.md")
    assert facts[0] in kept and facts[1] in kept and facts[2] not in kept
    assert read(store, "/memories/global/hpc-host-draft.md") == note(preferences[:6] + facts[:3])
