"""Memories in the wrong place, and secrets (issue 72 point 5): the seeded corpus's targets
(at least 90% of the cross-project mentions named; no finding on a memory that names only
its own project) and each kind of leak."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from memtab.store.home import Home
from memtab.trust.leaks.engine import LeaksEngine, identity_of
from support.seeded_leaks import PROJECTS, Family, build
from support.seeded_memories import memory, project_path


@pytest.mark.parametrize("family", ["tune", "held-out"])
def test_the_targets_of_issue_72(family: Family) -> None:
    corpus = build(family)
    documents = [memory(m.place, m.name, m.text) for m in corpus.memories]
    by_path = {d.path: m for d, m in zip(documents, corpus.memories, strict=True)}
    projects = {project_path(p): identity_of(project_path(p)) for p in PROJECTS}
    leaks = [
        leak
        for leak in LeaksEngine(Home(Path("/nowhere"))).leaks_of(documents, projects)
        if leak.kind in ("other-project", "project-in-global")
    ]
    named = {by_path[leak.place.path].id for leak in leaks}
    seeded = corpus.seeded
    assert sum(m.id in named for m in seeded) >= 0.9 * len(seeded) and len(seeded) == 60
    assert [
        by_path[leak.place.path].id for leak in leaks if by_path[leak.place.path].names is None
    ] == []
    wrong = [
        leak
        for leak in leaks
        if leak.belongs_to not in (None, project_path(by_path[leak.place.path].names or ""))
    ]
    assert wrong == []


def test_a_secret_anywhere_is_named_and_never_printed() -> None:
    key = "sk-ant-api03-" + "x1y2z3" * 8
    [leak] = LeaksEngine(Home(Path("/nowhere"))).leaks_of(
        [memory("global", "keys.md", f"# Keys\n\n- The key is {key}\n")], {}
    )
    assert leak.kind == "secret" and leak.place.line == 3
    assert key not in leak.place.text and "[REDACTED_SECRET]" in leak.place.text
    assert key not in str(leak.to_json())


def test_a_personal_path_in_team_memory_but_not_in_one_s_own() -> None:
    text = "# Logs\n\n- Logs are in /home/alice/logs/acme.\n"
    leaks = LeaksEngine(Home(Path("/nowhere"))).leaks_of(
        [memory("team:acme-api", "logs.md", text), memory("claude:acme-api", "mine.md", text)], {}
    )
    assert [(leak.kind, leak.names, leak.place.path) for leak in leaks] == [
        ("personal-path", "/home/alice", "claude-code:project-acme-api:memory/team/shared/logs.md")
    ]


def test_a_project_folder_named_by_a_word_is_no_name() -> None:
    assert identity_of("/src/ledger").names == ("/src/ledger",)
    assert identity_of("/src/billing-ledger").names == ("/src/billing-ledger", "billing-ledger")


def test_a_path_is_named_in_its_own_case_and_matched_in_any() -> None:
    """Projects under a folder with capitals: a mention keeps the case it was written in
    and finds its project in any case, unless two projects' paths differ only by case."""
    acme, billing = "/Users/Alice/Code/acme-api", "/Users/Alice/Code/billing-svc"
    projects = {path: identity_of(path) for path in (acme, billing)}
    documents = [
        replace(memory("claude:x", "a.md", f"# A\n\n- See {billing}/docs.\n"), project=acme),
        replace(memory("claude:x", "b.md", f"# B\n\n- See {billing.lower()}.\n"), project=acme),
    ]
    leaks = LeaksEngine(Home(Path("/nowhere"))).leaks_of(documents, projects)
    assert [(leak.names, leak.belongs_to) for leak in leaks] == [
        (billing, billing),
        (billing.lower(), billing),
    ]
    twins = {path: identity_of(path) for path in (acme, billing, billing.upper())}
    leaks = LeaksEngine(Home(Path("/nowhere"))).leaks_of(documents, twins)
    assert [(leak.names, leak.belongs_to) for leak in leaks] == [(billing, billing)]
