"""Memories that say the same thing: copies, the same note reworded, one rule in two
memories — and what is not the same (issue 72 point 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.check.documents import Document
from memtab.store.home import Home
from memtab.trust.duplicates import engine as duplicates
from memtab.trust.duplicates.engine import DuplicatesEngine
from memtab.trust.duplicates.kept import forget_kept, keep_group, load_kept
from memtab.trust.duplicates.records import DuplicateGroup
from support.private_modes import mode_of
from support.seeded_memories import memory

VERCEL = """---
name: vercel-env
description: Vercel env vars need no trailing newline
type: feedback
---

When adding env vars with `vercel env add`, pipe the value with `printf`, not `echo`:
echo adds a trailing newline that breaks the `NEXT_PUBLIC_API_URL` check in prod.
"""
TESTING = """# Testing acme-api

- Run the API tests with `pnpm test --filter api` before pushing.
- The flaky `auth.spec.ts` needs `--retries 2` on CI.
- Fixtures live in `tests/fixtures/`; regenerate them with `pnpm fixtures`.
"""
TESTING_AGAIN = """# How we test

Before a push, the api suite must pass: `pnpm test --filter api`. On CI, give the flaky
auth.spec.ts `--retries 2`. To rebuild the fixtures in tests/fixtures/, run `pnpm fixtures`.
"""
DEPLOYING = """# Deploying acme-api

- Deploy to staging with `make deploy ENV=staging`; production needs Priya's approval.
- Tests run with `pnpm test --filter api` before every deploy.
- The deploy key lives in 1Password, never in the repo.
"""


def groups(*documents: Document) -> list[DuplicateGroup]:
    return DuplicatesEngine(Home(Path("/nowhere"))).groups_of(documents)


def paths(group: DuplicateGroup) -> list[str]:
    return [member.path for member in group.members]


def test_codex_s_import_of_a_claude_code_memory_is_a_copy() -> None:
    claude = memory("claude:acme-api", "feedback_vercel-env.md", VERCEL)
    imported = memory("codex-import:acme-api", "feedback_vercel-env.md", VERCEL)
    [group] = groups(claude, imported)
    assert group.kind == "copy" and group.similarity == 1.0
    assert sorted(paths(group)) == sorted([claude.path, imported.path])
    assert group.why.startswith("The same text: feedback_vercel-env.md is Codex's import of")


def test_a_copy_under_other_frontmatter_and_spacing_is_a_copy() -> None:
    body = VERCEL.split("---\n", 2)[2]
    spaced = body.replace("with `printf`", "with   `printf`") + "\n\n"
    [group] = groups(
        memory("claude:acme-api", "vercel.md", VERCEL), memory("global", "vercel.md", spaced)
    )
    assert group.kind == "copy"
    assert "under other frontmatter or spacing" in group.why


def test_the_same_note_reworded_is_a_candidate_and_a_note_on_the_same_subject_is_not() -> None:
    found = DuplicatesEngine(Home(Path("/nowhere"))).found_in(
        [
            memory("project:acme-api", "testing.md", TESTING),
            memory("claude:acme-api", "how-we-test.md", TESTING_AGAIN),
            memory("project:acme-api", "deploying.md", DEPLOYING),
        ]
    )
    assert found.groups == []
    [group] = [g for g in found.candidates if g.kind == "reworded"]
    assert sorted(paths(group)) == [
        "/memories/project/testing.md",
        "claude-code:project-acme-api:memory/how-we-test.md",
    ]
    assert group.similarity >= duplicates.REWORDED_SIMILARITY
    assert "the same note in other words" in group.why and "fixtures" in group.why


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Branch names are kebab-case and start with the team's prefix.",
         "Test names are kebab-case and start with the team's prefix."),
        ("Locally, the docs site is served on port 4000.",
         "Locally, the docs site is served on port 4001."),
        ("We switched from webpack to vite; do not bring webpack back.",
         "We switched from webpack to esbuild; do not bring webpack back."),
    ],
)  # fmt: skip
def test_sentences_about_different_things_are_no_rule_group(one: str, other: str) -> None:
    assert (
        groups(
            memory("global", "a.md", f"# A\n\n- {one}\n- Something else entirely here.\n"),
            memory("project:acme-api", "b.md", f"# B\n\n- {other}\n- Quite another subject.\n"),
        )
        == []
    )


def test_records_of_what_happened_are_not_compared() -> None:
    summary = memory("claude:acme-api", "summary.md", TESTING)
    record = Document(**{**_fields(summary), "record": True})
    assert groups(record, memory("global", "testing.md", TESTING)) == []


def _fields(document: Document) -> dict[str, object]:
    return {name: getattr(document, name) for name in Document.__dataclass_fields__}


def test_a_second_run_works_out_only_the_changed_file(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = DuplicatesEngine(Home(Path("/nowhere")))
    made: list[str] = []
    real = duplicates.note_words

    def counted(document: Document) -> duplicates.NoteWords:
        made.append(document.path)
        return real(document)

    monkeypatch.setattr(duplicates, "note_words", counted)
    first = [memory("global", "a.md", TESTING), memory("global", "b.md", DEPLOYING)]
    engine.groups_of(first)
    assert sorted(made) == ["/memories/global/a.md", "/memories/global/b.md"]
    made.clear()
    changed = [first[0], memory("global", "b.md", TESTING_AGAIN)]
    [group] = engine.found_in(changed).candidates
    assert made == ["/memories/global/b.md"] and group.kind == "reworded"


def test_a_kept_group_is_left_out_until_a_member_changes(tmp_path: Path) -> None:
    home = Home(tmp_path)
    copies = [memory("global", "a.md", TESTING), memory("project:acme-api", "a.md", TESTING)]
    [group] = groups(*copies)
    keep_group(home, group)
    assert load_kept(home) == {group.key}
    changed = memory("project:acme-api", "a.md", TESTING + "- One more thing to keep in mind.\n")
    [again] = DuplicatesEngine(Home(Path("/nowhere"))).found_in([copies[0], changed]).candidates
    assert again.key != group.key  # a member changed: shown again
    forget_kept(home, group.key)
    assert load_kept(home) == frozenset()


def test_the_groups_kept_are_private_whatever_the_umask(tmp_path: Path, umask: int) -> None:
    """duplicates-kept.json names memory files and what they hold: 0600 in a 0700
    `memtab/` even when it is the first thing Memtab writes in the home (docs/formats.md
    §16.2; issue 70 point 1)."""
    home = Home(tmp_path / "home")
    [group] = groups(memory("global", "a.md", TESTING), memory("project:acme-api", "a.md", TESTING))
    keep_group(home, group)
    assert mode_of(home.memtab_dir) == 0o700
    assert mode_of(home.memtab_dir / "duplicates-kept.json") == 0o600


def test_a_run_reads_each_memory_s_claims_and_lines_once_however_many_pairs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three notes reworded: three pairs searched, each note's claims and content lines
    read once (issue 94: a run over 20,000 notes read them again for every pair)."""
    from memtab.trust.duplicates import boilerplate, meaning

    read: list[str] = []
    for module, name in ((meaning, "claims_of"), (boilerplate, "content_lines")):
        real = getattr(module, name)

        def counted(text: str, *more: str, real: object = real, name: str = name) -> object:
            read.append(f"{name} {text}")
            return real(text, *more)  # type: ignore[operator]

        monkeypatch.setattr(module, name, counted)
    notes = [
        TESTING,
        TESTING_AGAIN,
        "# Tests\n\nRun `pnpm test --filter api` before you push. The flaky auth.spec.ts gets "
        "`--retries 2` on CI. Fixtures are in tests/fixtures/; `pnpm fixtures` rebuilds them.\n",
    ]
    DuplicatesEngine(Home(Path("/nowhere"))).found_in(
        [memory("global", f"n{i}.md", text) for i, text in enumerate(notes)]
    )
    assert len({line for line in read if line.startswith("claims_of")}) == 3
    assert len(read) == len(set(read))


def test_notes_alike_only_in_the_lines_they_share_have_no_claim_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Four notes, each another's lines but one: alike in words, but only in lines three
    hold word for word (boilerplate) — no pair of them is asked whether it disagrees."""
    from memtab.trust.duplicates import meaning

    read: list[str] = []
    real = meaning.claims_of

    def counted(text: str) -> object:
        read.append(text)
        return real(text)

    monkeypatch.setattr(meaning, "claims_of", counted)
    notes = [
        TESTING,
        TESTING.replace("before pushing", "before every push"),
        TESTING.replace("on CI", "in CI"),
        TESTING.replace("regenerate them", "rebuild them"),
    ]
    found = DuplicatesEngine(Home(Path("/nowhere"))).found_in(
        [memory("global", f"n{i}.md", text) for i, text in enumerate(notes)]
    )
    assert {g.kind for g in (*found.groups, *found.candidates)} == {"rule"}
    assert read == []
