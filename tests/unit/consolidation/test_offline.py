"""The offline consolidator on the demo home and on crafted stores."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memtab.consolidation.offline.combine import NEAR_DUPLICATE_THRESHOLD
from memtab.consolidation.offline.describe import (
    build_description,
    detect_language,
    is_generic_heading,
)
from memtab.consolidation.offline.plan import edit_arguments
from memtab.consolidation.offline.units import Coverage, clean_lines, is_label
from memtab.consolidation.service import ConsolidationService
from memtab.demo import DARK_MODE_ID, MAIN_ID, MULTI_ID, acme_api
from memtab.llm.settings import ProviderSettings
from memtab.store.home import Home
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import MemoryTool
from memtab.store.sidecars.journal import ConsolidationRecord, Journal
from memtab.store.text.near_duplicates import jaccard
from support.demo_homes import copied_demo_home
from support.memory_paths import vpath
from support.property_examples import examples

from .helpers import MULTI, WS, exists, memory_bytes, new_home, put, read, store_for

OFFLINE = ProviderSettings("offline", "offline", "")


def consolidate(home: Home, workspace_id: str = WS) -> ConsolidationRecord:
    return ConsolidationService(home, settings=OFFLINE).run(workspace_id)


def described(description: str, body: str) -> str:
    """A memory file with frontmatter (so no description gets added to it)."""
    return f"---\ndescription: {description}\n---\n{body}"


def applied(record: ConsolidationRecord) -> list[tuple[str, str]]:
    assert all(op.applied for op in record.ops), record.ops
    return [(op.command, op.path) for op in record.ops]


# --- the demo home -------------------------------------------------------------------------


@pytest.fixture
def demo(tmp_path: Path) -> Home:
    return copied_demo_home(tmp_path / "demo")


def pinned_files(home: Home) -> dict[Path, bytes]:
    store = MemoryStore.open(home, MAIN_ID)
    pinned = {"global:preferences.md", f"project:{acme_api(home)}:architecture.md"}
    found = {}
    for listing in store.list_all():
        for file in listing.files:
            key = store.meta_key(file.path)
            if store.is_pinned(file.path):
                found[store.physical(file.path)] = store.physical(file.path).read_bytes()
                pinned.discard(key)
    assert pinned == set(), "the demo's pins moved"
    return found


def test_the_demo_home_is_consolidated_and_a_second_run_is_a_no_op(demo: Home) -> None:
    store = MemoryStore.open(demo, MAIN_ID)
    pins = pinned_files(demo)
    size_before = memory_bytes(demo)

    record = consolidate(demo, MAIN_ID)

    assert sorted(applied(record)) == [
        ("delete", "/memories/project/test-tips.md"),
        ("insert", "/memories/project/testing.md"),
        ("str_replace", "/memories/project/gotchas.md"),
        ("str_replace", "/memories/workspace/scratch.md"),
    ]
    testing = read(store, "/memories/project/testing.md")
    assert testing.endswith("- Use `pytest --lf` to rerun only the last failures.\n")
    assert testing.count("`make test` runs everything") == 1
    assert not exists(store, "/memories/project/test-tips.md")
    gotchas = read(store, "/memories/project/gotchas.md")
    assert gotchas.count("Alembic autogenerate misses server defaults") == 1
    assert gotchas.endswith("Redis in docker-compose listens on 6380, not 6379.\n")
    scratch = read(store, "/memories/workspace/scratch.md")
    # Its title is all a description could say, and the tree shows the title already.
    assert scratch.startswith("# Scratch: refresh race repro\n")
    assert "uv pip" not in scratch and "Two tabs refreshing" in scratch
    assert "uv pip" in read(store, "/memories/global/tools/python.md")
    assert {path: path.read_bytes() for path in pins} == pins
    assert memory_bytes(demo) < size_before
    assert record.summary == (
        "Combined project/test-tips.md into project/testing.md; removed 1 item said twice under "
        "one heading; removed 1 item already in a wider scope."
    )
    notes = {op.path: op.note for op in record.ops}
    assert notes == {
        "/memories/project/testing.md": "Took 1 item it lacked from project/test-tips.md "
        "(59% alike), which is then deleted.",
        "/memories/project/test-tips.md": "Combined into project/testing.md (59% alike): "
        "everything else it said is already there.",
        "/memories/project/gotchas.md": "Removed 1 item said twice under the same heading.",
        "/memories/workspace/scratch.md": "Removed 1 item already in a wider scope "
        "(global/tools/python.md).",
    }
    assert Journal(demo).load().workspaces[MAIN_ID] == record

    again = consolidate(demo, MAIN_ID)
    assert again.ops == () and again.summary == "no changes needed"


@pytest.mark.parametrize("workspace_id", [MULTI_ID, DARK_MODE_ID])
def test_other_demo_workspaces_settle_in_one_run(demo: Home, workspace_id: str) -> None:
    size_before = memory_bytes(demo)
    consolidate(demo, workspace_id)
    assert memory_bytes(demo) <= size_before
    assert consolidate(demo, workspace_id).ops == ()


# --- crafted stores --------------------------------------------------------------------------


@pytest.fixture
def home(tmp_path: Path) -> Home:
    return new_home(tmp_path / "home")


def test_exact_duplicates_keep_the_better_named_file(home: Home, store: MemoryStore) -> None:
    text = described("Git", "# Git\n\n- Rebase onto main before opening a pull request.\n")
    put(store, "/memories/global/git-copy.md", text)
    put(store, "/memories/global/git.md", text)
    record = consolidate(home)
    assert applied(record) == [("delete", "/memories/global/git-copy.md")]
    assert read(store, "/memories/global/git.md") == text
    assert consolidate(home).ops == ()


def test_a_group_of_near_duplicates_merges_into_one_keeper(home: Home, store: MemoryStore) -> None:
    shared = "- The staging database is read-only for developers.\n- Redis listens on 6380.\n"
    put(store, "/memories/project/db.md", f"---\ndescription: Databases\n---\n# DB\n\n{shared}")
    put(
        store,
        "/memories/project/db-notes.md",
        f"# DB notes\n\n{shared}- Backups run at 02:00 UTC.\n",
    )
    put(store, "/memories/project/db-old.md", f"# Old\n\n{shared}- Postgres 16 since September.\n")
    size_before = memory_bytes(home)
    record = consolidate(home)
    assert sorted(applied(record)) == [
        ("delete", "/memories/project/db-notes.md"),
        ("delete", "/memories/project/db-old.md"),
        ("insert", "/memories/project/db.md"),
    ]
    merged = read(store, "/memories/project/db.md")
    assert merged.endswith(f"{shared}- Backups run at 02:00 UTC.\n- Postgres 16 since September.\n")
    assert memory_bytes(home) < size_before
    assert consolidate(home).ops == ()


STAGING = """# Deploying to staging

- Build the image with `make image TAG=$(git rev-parse --short HEAD)`.
- Push it with `make push REGISTRY=registry.staging.acme.io`.
- Apply with `kubectl --context staging apply -k deploy/overlays/staging`.
- Check the rollout with `kubectl --context staging rollout status deploy/api`.
- Smoke test: `curl https://api.staging.acme.io/healthz`.
"""
PRODUCTION = """# Deploying to production

- Build the image with `make image TAG=$(git rev-parse --short HEAD)`.
- Push it with `make push REGISTRY=registry.acme.io`.
- Apply with `kubectl --context production apply -k deploy/overlays/production`.
- Check the rollout with `kubectl --context production rollout status deploy/api`.
- Smoke test: `curl https://api.acme.io/healthz`.
- Announce in #releases before and after.
"""


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (STAGING, PRODUCTION),
        (
            "# Docker\n\n- `docker compose up -d db` starts only the database.\n"
            "- `docker system prune -af` frees disk space.\n",
            "# Podman\n\n- `podman compose up -d db` starts only the database.\n"
            "- `podman system prune -af` frees disk space.\n",
        ),
    ],
    ids=["staging and production", "docker and podman"],
)
def test_parallel_notes_about_different_things_are_not_merged(
    home: Home, store: MemoryStore, first: str, second: str
) -> None:
    # Their items say the same with one word changed: merging would put the production
    # commands under the staging title, one beside the other.
    put(store, "/memories/project/one.md", described("One", first))
    put(store, "/memories/project/two.md", described("Two", second))
    assert consolidate(home).ops == ()
    assert read(store, "/memories/project/one.md") == described("One", first)
    assert read(store, "/memories/project/two.md") == described("Two", second)


def test_a_pinned_file_is_never_deleted_nor_edited(home: Home, store: MemoryStore) -> None:
    lines = "- Always run make check before pushing anything.\n- Tests first for bug fixes.\n"
    put(store, "/memories/global/rules.md", f"# Rules\n\n{lines}", pinned=True)
    extra = described("More", f"# More\n\n{lines}- Sign every commit, always.\n")
    put(store, "/memories/global/rules-extra.md", extra)
    put(store, "/memories/global/rules-copy.md", f"# Rules\n\n{lines}")
    put(store, "/memories/global/blank.md", "  \n", pinned=True)
    record = consolidate(home)
    # The copy adds nothing to the pinned keeper: it goes. The extra adds a line the pinned
    # keeper would have to take: nothing happens to either.
    assert applied(record) == [("delete", "/memories/global/rules-copy.md")]
    assert read(store, "/memories/global/rules.md") == f"# Rules\n\n{lines}"
    assert exists(store, "/memories/global/rules-extra.md")
    assert exists(store, "/memories/global/blank.md")
    assert consolidate(home).ops == ()


def test_repeated_items_go_but_code_blocks_and_continuations_stay_whole(
    home: Home, store: MemoryStore
) -> None:
    text = (
        "---\ndescription: Release steps\n---\n# Release\n\n"
        "- Tag the release commit on main\n  with a signed annotated tag.\n"
        "- Push the tag to origin afterwards.\n\n"
        "```sh\ngit push origin main\ngit push origin main\n```\n\n"
        "- Tag the release commit on main\n  with a signed annotated tag.\n"
    )
    put(store, "/memories/project/release.md", text)
    record = consolidate(home)
    assert applied(record) == [("str_replace", "/memories/project/release.md")]
    result = read(store, "/memories/project/release.md")
    assert result.count("Tag the release commit") == 1
    assert result.count("with a signed annotated tag.") == 1
    assert result.count("git push origin main") == 2  # code is never deduplicated line by line
    assert result.endswith("```\n")
    assert "\n\n\n" not in result
    assert consolidate(home).ops == ()


def test_lines_standing_in_a_wider_scope_leave_the_narrower_one(
    home: Home, store: MemoryStore
) -> None:
    env = described("Env", "# Env\n\n- Python via pyenv; never use sudo pip.\n")
    put(store, "/memories/global/env.md", env)
    setup = "- Python via pyenv; never use sudo pip.\n- Run make db-up before tests.\n"
    put(store, "/memories/project/setup.md", described("Setup", setup))
    notes = "- Run make db-up before tests.\n- The refresh race needs two tabs.\n"
    put(store, "/memories/workspace/notes.md", described("Notes", notes))
    # Its only item stands in global, but its heading does not: it keeps both.
    dupe = described("Dupe", "# Dupe\n\n- Python via pyenv; never use sudo pip.\n")
    put(store, "/memories/workspace/dupe.md", dupe)
    copy = "# Env\n\n- Python via pyenv; never use sudo pip.\n"
    put(store, "/memories/project/env-copy.md", copy)  # every line is in global/env.md
    record = consolidate(home)
    assert sorted(applied(record)) == [
        ("delete", "/memories/project/env-copy.md"),
        ("str_replace", "/memories/project/setup.md"),
        ("str_replace", "/memories/workspace/notes.md"),
    ]
    assert read(store, "/memories/project/setup.md") == described(
        "Setup", "- Run make db-up before tests.\n"
    )
    assert read(store, "/memories/workspace/notes.md") == described(
        "Notes", "- The refresh race needs two tabs.\n"
    )
    assert read(store, "/memories/workspace/dupe.md") == dupe
    assert "sudo pip" in read(store, "/memories/global/env.md")
    notes_by_path = {op.path: op.note for op in record.ops}
    assert notes_by_path["/memories/project/env-copy.md"] == (
        "Every line of it is already in global/env.md."
    )
    assert notes_by_path["/memories/workspace/notes.md"] == (
        "Removed 1 item already in a wider scope (project/setup.md)."
    )
    assert "whose every line is in a wider scope" in record.summary
    assert consolidate(home).ops == ()


def test_without_project_identity_project_lines_do_not_count(home: Home) -> None:
    multi = store_for(home, MULTI)
    single = store_for(home, WS)
    put(single, "/memories/project/a.md", "# A\n\n- The API client is generated code.\n")
    put(multi, "/memories/workspace/a.md", "# A\n\n- The API client is generated code.\n")
    assert consolidate(home, MULTI).ops == ()


def test_the_budget_keeps_the_most_valuable_changes_and_a_second_run_continues(
    home: Home, store: MemoryStore
) -> None:
    for index in range(10):
        put(store, f"/memories/workspace/empty{index}.md", "")
    put(store, "/memories/global/a.md", "# A\n\n- One fact worth keeping around.\n")
    put(store, "/memories/global/a-copy.md", "# A\n\n- One fact worth keeping around.\n")
    first = consolidate(home)
    assert len(first.ops) == 8
    assert applied(first)[0] == ("delete", "/memories/global/a-copy.md")  # merges first
    second = consolidate(home)
    assert len(applied(second)) == 3
    assert consolidate(home).ops == ()
    assert not any(exists(store, f"/memories/workspace/empty{i}.md") for i in range(10))


def test_descriptions_are_added_only_when_savings_pay_for_them(
    home: Home, store: MemoryStore
) -> None:
    shell = "# Shell habits\n\n## Scripts\n\n- zsh with POSIX scripts only.\n\n"
    shell += "## Prompt\n\n- starship.\n"
    put(store, "/memories/global/shell.md", shell)
    assert consolidate(home).ops == ()  # the description would grow memory: not added
    repeated = "- A long obsolete note that somebody wrote down three times.\n" * 3
    put(store, "/memories/workspace/old.md", described("Old", f"# Old\n\n{repeated}"))
    record = consolidate(home)
    assert sorted(applied(record)) == [
        ("insert", "/memories/global/shell.md"),
        ("str_replace", "/memories/workspace/old.md"),
    ]
    assert read(store, "/memories/global/shell.md").startswith(
        '---\ndescription: "Shell habits: Scripts, Prompt"\n---\n'
    )
    assert consolidate(home).ops == ()


def test_files_deeper_than_the_tree_view_are_found(home: Home, store: MemoryStore) -> None:
    text = described("Deep", "# Deep\n\n- A fact buried four directories down.\n")
    put(store, "/memories/global/a/b/c/deep.md", text)
    put(store, "/memories/global/a/b/c/d/deep-copy.md", text)
    record = consolidate(home)
    assert applied(record) == [("delete", "/memories/global/a/b/c/d/deep-copy.md")]


def test_binary_and_unreadable_files_are_left_alone(home: Home, store: MemoryStore) -> None:
    path = store.home.global_root / "blob.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x00\x01binary")
    assert consolidate(home).ops == ()
    assert path.read_bytes() == b"\x00\x01binary"


# --- building blocks --------------------------------------------------------------------------


def test_the_demo_pair_is_near_duplicate_and_unrelated_files_are_not(demo: Home) -> None:
    store = MemoryStore.open(demo, MAIN_ID)

    def shingles(path: str) -> frozenset[int]:
        return clean_lines(read(store, path).rstrip("\n").split("\n"), Coverage()).shingles

    testing = shingles("/memories/project/testing.md")
    tips = shingles("/memories/project/test-tips.md")
    gotchas = shingles("/memories/project/gotchas.md")
    assert jaccard(testing, tips) >= NEAR_DUPLICATE_THRESHOLD
    assert jaccard(testing, gotchas) < 0.1


LINES = st.lists(st.sampled_from(["", "a", "b", "- x", "- x", "# h", "---"]), max_size=8)


@pytest.mark.slow
@settings(max_examples=examples(50), deadline=None)
@given(old=LINES, new=LINES, trailing_newline=st.booleans())
def test_edit_arguments_turn_old_content_into_new_through_the_real_tool(
    old: list[str], new: list[str], trailing_newline: bool
) -> None:
    content = "\n".join(old) + ("\n" if trailing_newline and old else "")
    shown = content.split("\n") if content else []  # the lines `view` shows
    if shown and shown[-1] == "":
        shown.pop()
    arguments = edit_arguments("/memories/global/f.md", shown, new)
    if shown == new or (arguments is None and all(not line for line in shown)):
        return  # nothing to do, or a file of blank lines (the planner deletes those)
    assert arguments is not None
    with tempfile.TemporaryDirectory() as root:
        store = MemoryStore(Home(Path(root)))
        store.create_file(vpath("/memories/global/f.md"), content)
        result = MemoryTool(store).execute(arguments)
        assert result.success, result.error
        expected = "\n".join(new) + ("\n" if content.endswith("\n") else "")
        assert read(store, "/memories/global/f.md") == expected


BULLETS = [
    f"- {fact}"
    for fact in (
        "Run make check before every push.",
        "The staging database is read-only.",
        "Redis listens on port 6380 here.",
        "Use uv pip inside existing venvs.",
        "Sign commits with the global key.",
    )
]
PIECES = st.sampled_from([*BULLETS, "", "# Notes", "  continued detail line", "```", "x = 1"])
FILE = st.tuples(
    st.sampled_from(["global", "project", "workspace"]),
    st.sampled_from(["a.md", "b.md", "notes.md", "sub/c.md"]),
    st.lists(PIECES, max_size=7),
    st.booleans(),  # pinned
    st.booleans(),  # has a description
)


@settings(max_examples=examples(15), deadline=None)
@given(files=st.lists(FILE, max_size=6))
def test_random_small_stores_never_grow_keep_pins_and_settle_in_one_run(
    files: list[tuple[str, str, list[str], bool, bool]],
) -> None:
    with tempfile.TemporaryDirectory() as root:
        home = new_home(Path(root) / "home")
        store = store_for(home, WS)
        pinned: dict[str, str] = {}
        for scope, name, lines, pin, has_description in files:
            path = f"/memories/{scope}/{name}"
            if exists(store, path):
                continue
            body = "\n".join(lines) + "\n"
            text = described("Topic", body) if has_description else body
            put(store, path, text, pinned=pin)
            if pin:
                pinned[path] = text
        size_before = memory_bytes(home)
        first = consolidate(home)
        assert memory_bytes(home) <= size_before
        assert {path: read(store, path) for path in pinned} == pinned
        assert all(op.applied for op in first.ops)
        if len(first.ops) < 8:
            assert consolidate(home).ops == ()


# --- units, labels, descriptions ------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "label"),
    [
        ("Preference signals:", True),
        ("Failures and how to do differently:", True),
        ("task_outcome: success", True),
        ("- Pending: 3", False),
        ("- Symptom: `curl` fails. Cause: the proxy. Fix: use the network path.", False),
        ("- 계정: `1000s-projects-a51f0c2a` (단일 계정 사용)", False),
        ("- Setup:", True),
        ("scope: updating Codex binaries under the local versioned directory", True),
        ("**Why:** bash heredoc adds a newline", True),
        ("- **How to apply:**", True),
        ("사용 방법：", True),
        ("- Run make check before every push.", False),
        ("- `make test` runs everything (needs the container: `make db-up` first).", False),
        ("The deploy job needs the VPN: it hangs otherwise and fails late.", False),
        ("https://example.com/a", False),
    ],
)
def test_labels_are_told_from_content(line: str, label: bool) -> None:
    assert is_label(line) is label


def test_an_item_repeats_across_headings_but_not_under_one() -> None:
    lines = [
        "## Thread a",
        "Reusable knowledge:",
        "- Copy the archived rollout back with the same filename.",
        "- Copy the archived rollout back with the same filename.",
        "## Thread b",
        "Reusable knowledge:",
        "- Copy the archived rollout back with the same filename.",
    ]
    cleaned = clean_lines(lines, Coverage())
    assert cleaned.lines == [*lines[:3], *lines[4:]]
    assert cleaned.repeated == 1


def test_a_wider_removal_never_empties_a_block() -> None:
    wider = Coverage(keys={"- Python via pyenv; never use sudo pip."})
    lines = [
        "## Python",
        "- Python via pyenv; never use sudo pip.",
        "## Node",
        "- Python via pyenv; never use sudo pip.",
        "- Node 22 through fnm.",
    ]
    assert clean_lines(lines, wider).lines == [*lines[:3], lines[4]]


@pytest.mark.parametrize(
    ("heading", "generic"),
    [
        ("Session Title", True),
        ("Résumé de la séance", True),
        ("Session Ledger 2026-01-01", True),
        ("Session Handoff - 2026-01-01T12:00:00Z", True),
        ("Thread `019e3f4a-2fbe-7d82-a450-4d4eb1b68060`", True),
        ("Zusammenfassung", True),
        ("会话摘要", True),
        ("無題", True),
        ("세션 요약", True),
        ("Memory", True),
        ("Testing acme-api", False),
        ("Déploiement en production", False),
        ("ppt-deck 스킬 (PPT 자동 생성)", False),
        ("Task Group: Codex local version management", False),
        ("数据库迁移", False),
    ],
)
def test_generic_headings(heading: str, generic: bool) -> None:
    assert is_generic_heading(heading) is generic


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Always run the tests before you push to the main branch.", "en"),
        ("Il faut toujours lancer les tests avant de pousser sur la branche.", "fr"),
        ("Die Tests laufen nicht ohne die Datenbank und den Container.", "de"),
        ("Los tests necesitan la base de datos y el contenedor para correr.", "es"),
        ("Os testes não rodam sem o banco de dados e o contêiner.", "pt"),
        ("测试需要数据库容器才能运行。", "zh"),
        ("テストはデータベースのコンテナが必要です。", "ja"),
        ("테스트는 데이터베이스 컨테이너가 필요합니다.", "ko"),
    ],
)
def test_language_of_a_file(text: str, language: str) -> None:
    assert detect_language(text) == language


def test_descriptions_come_from_titles_or_topics_or_not_at_all() -> None:
    def describe(text: str) -> str | None:
        found = build_description(text.split("\n"))
        return found.text if found else None

    # A title alone is what the tree shows already: no description copies it.
    assert describe("# Testing acme-api\n\n- `make test` runs everything.") is None
    assert describe("# Scratch: refresh race repro\n\n- Two tabs reproduce it.") is None
    titled = "# Testing acme-api\n\n## Fixtures\n\n- a\n\n## CI\n\n- b\n"
    assert describe(titled) == "Testing acme-api: Fixtures, CI"
    assert describe("# Session Title\n\n## Résumé\n\n- Fait.\n") is None
    topics = (
        "# Notes\n\n## Déploiement\n\n- Le script de déploiement a besoin du VPN.\n\n"
        "## Sauvegardes\n\n- Les sauvegardes tournent la nuit.\n\n"
        "## Réseau\n\n- Le proxy est obligatoire pour les paquets.\n"
    )
    assert describe(topics) == "Sommaire: Déploiement, Sauvegardes, Réseau"
    assert describe("Just prose, no heading.") is None


def test_a_fenced_block_is_one_unit_with_the_paragraph_or_item_above_it() -> None:
    from memtab.consolidation.offline.units import split_units

    lines = [
        "## Tokens",  # 0
        "```",  # 1: right under a heading: stands alone
        "~/.config/auth.json",
        "```",
        "The token is in the `.token` field,",  # 4: a paragraph of two lines…
        "read it without printing it.",
        "",
        "```bash",  # 7: …and the block that illustrates it
        "TOK=$(jq -r .token ~/.config/auth.json)",
        "```",
        "```",  # 10: a second block: whose it is, nobody knows
        "echo done",
        "```",
        "- Refresh it with `vercel ls`.",  # 13: an item and its block
        "  ```",
        "  vercel ls",
        "  ```",
    ]
    units = [(u.start, u.end, u.kind) for u in split_units(lines) if u.kind != "blank"]
    assert units == [
        (0, 1, "heading"),
        (1, 4, "code"),
        (4, 10, "text"),
        (10, 13, "code"),
        (13, 17, "text"),
    ]
    [pair] = [u for u in split_units(lines) if u.start == 4]
    assert pair.prose == "The token is in the `.token` field,\nread it without printing it."
    assert pair.key.endswith("TOK=$(jq -r .token ~/.config/auth.json)\n```")
