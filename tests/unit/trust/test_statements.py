"""One statement in two memories, found by what it says (issue 83): the same rule or fact
reworded in global memory and a project's is a `rule` group; a frame filled with another
thing or value, a template's header, an index's entry, a question or a contradiction is
not (tests/support/statement_cases.py, written apart from the trust corpus)."""

from __future__ import annotations

from pathlib import Path

from memtab.check.documents import Document
from memtab.store.home import Home
from memtab.trust.duplicates.engine import DuplicatesEngine
from memtab.trust.duplicates.records import DuplicateGroup
from support.meaning_cases import FILLERS
from support.seeded_memories import memory
from support.statement_cases import CASES, notes

BACKGROUND = [
    memory("global" if i % 2 else "project:bg", f"bg-{i}.md", f"# Bg {i}\n\n- {line}\n")
    for i, line in enumerate(FILLERS)
]


def groups(tmp_path: Path, *documents: Document) -> list[DuplicateGroup]:
    return DuplicatesEngine(Home(tmp_path)).groups_of([*documents, *BACKGROUND])


def joined(found: list[DuplicateGroup], *documents: Document) -> bool:
    return any({d.path for d in documents} <= {m.path for m in g.members} for g in found)


def test_the_same_statement_in_other_words_is_found_and_a_near_miss_is_not(
    tmp_path: Path,
) -> None:
    """Measured on this set (docs/trust-quality.md "Meaning"): 7 of 10 rewordings found
    (3 before statements were compared by what they say), no near miss; an index's entry,
    a question or code alone saying a rule's words is no statement of it."""
    made = notes()
    found = {"duplicate": 0, "neither": 0}
    for number, case in enumerate(CASES):
        pair = [memory(place, name, text) for _, place, name, n, text in made if n == number]
        found[case.expected] += joined(groups(tmp_path / str(number), *pair), *pair)
    assert found["duplicate"] >= 7
    assert found["neither"] == 0
    topic = memory(
        "claude:acme-api",
        "feedback_testing.md",
        "# Testing\n\n- Run the api suite with `pnpm test --filter api` before pushing.\n",
    )
    index = memory(
        "claude:acme-api",
        "MEMORY.md",
        "- [feedback_testing.md](feedback_testing.md) — run the api suite with pnpm test "
        "before pushing\n- [user_role.md](user_role.md) — Dana, backend lead\n"
        "- [reference_sentry.md](reference_sentry.md) — where errors go\n",
    )
    asked = memory("global", "q.md", "# Q\n\n- Should the api suite run before pushing?\n")
    code = memory("global", "b.md", "# B\n\n- `PAY-1432-api-suite-before-pushing`\n")
    found = groups(tmp_path / "index", topic, index, asked, code)
    assert not joined(found, topic, index)  # an index's entry restates its topic
    assert not joined(found, topic, asked)  # a question states nothing
    assert not joined(found, topic, code)  # nor a ticket in code alone


def test_a_template_s_header_is_no_rule(tmp_path: Path) -> None:
    """A sentence opening four unrelated notes is their template's, not a rule said four
    times (issue 83's "Context: harbor-api — …" atop notes of other things)."""
    header = "Context: acme-api runs Django, Postgres and Celery. Owner: Priya.\n\n"
    bodies = (
        "- The PDF renderer needs fonts installed in the image.",
        "- Celery beat runs the cleanup task hourly.",
        "- The admin is at /admin, behind SSO.",
        "- Priya reviews every migration.",
    )
    documents = [
        memory("project:acme-api", f"n{i}.md", f"# Note {i}\n\n{header}{body}\n")
        for i, body in enumerate(bodies)
    ]
    assert [g for g in groups(tmp_path, *documents) if g.kind == "rule"] == []


def test_statements_that_disagree_are_never_one(tmp_path: Path) -> None:
    """Alike in words, at odds in what they say: another number, another command, a line
    whose rule is the opposite ("Don't rebase onto main. We merge main into the branch…")."""
    for one, other in (
        ("The exports queue retries 3 times with exponential backoff.",
         "The exports queue retries 5 times with exponential backoff and a jitter."),
        ("Sign every commit (`git commit -S`), the org rejects unsigned pushes.",
         "Sign every release tag (`git tag -s`), the org rejects unsigned pushes."),
        ("Always rebase your branch on main before review, so the diff stays clean.",
         "Don't rebase onto main. We merge main into the branch; the review diff stays clean."),
    ):  # fmt: skip
        a = memory("global", "a.md", f"# A\n\n- {one}\n- {FILLERS[0]}\n")
        b = memory("project:acme-api", "b.md", f"# B\n\n- {other}\n- {FILLERS[1]}\n")
        assert not joined(groups(tmp_path, a, b), a, b), (one, other)
