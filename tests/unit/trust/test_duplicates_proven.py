"""Offline, a duplicate finding is only what the text proves (issue 94 point 1): the same
text in any layout, one sentence said again in one normal form; what the words only
suspect is a candidate, and what the offline readers know disagree is neither."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.check.documents import Document
from memtab.sources.claude.source import encode_project_path
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace
from memtab.trust.duplicates.engine import DuplicatesEngine, Found
from memtab.trust.duplicates.records import DuplicateGroup
from memtab.trust.memories import read_memories
from support.seeded_memories import memory

BULLETS = """---
description: How migrations work in acme-api
---
# Migrations

- Tool: node-pg-migrate
- Files live in `src/db/migrations/`, one change per file
- Down migrations are mandatory
"""
PROSE = """---
name: Migrations
type: project
---
Tool: node-pg-migrate. Files live in src/db/migrations/, one change per file.
Down migrations are **mandatory**.
"""


def found(*documents: Document) -> Found:
    return DuplicatesEngine(Home(Path("/nowhere"))).found_in(documents)


def places(group: DuplicateGroup) -> list[tuple[str, int | None]]:
    return [(member.path, member.line) for member in group.members]


def test_bullets_and_the_same_sentences_as_prose_are_the_same_text() -> None:
    bullets = memory("project:acme-api", "migrations.md", BULLETS)
    prose = memory("claude:acme-api", "project_migrations.md", PROSE)
    result = found(bullets, prose)
    [group] = result.groups
    assert group.kind == "copy" and group.similarity == 1.0
    assert sorted(places(group)) == sorted([(bullets.path, None), (prose.path, None)])
    assert "laid out otherwise" in group.why
    assert result.candidates == []


def test_the_same_bullets_under_other_headings_are_not_the_same_text() -> None:
    """Not a copy, nor a line said again: under "Don't" a line says its opposite."""
    do = memory("global", "do.md", "# Git\n\n## Do\n\n- force-push to `main`\n- rebase often\n")
    dont = memory(
        "project:acme-api",
        "dont.md",
        "# Git\n\n## Don't\n\n- force-push to `main`\n- rebase often\n",
    )
    assert found(do, dont).groups == []


def test_a_rule_in_other_words_is_a_candidate_the_same_line_a_finding() -> None:
    mine = memory(
        "global",
        "habits.md",
        "# Habits\n\n- Use pnpm, not npm.\n- Always run `make check` before pushing.\n"
        "- Answer in English, briefly.\n",
    )
    theirs = memory(
        "project:acme-api",
        "tooling.md",
        "# Tooling\n\n- Prefer pnpm over npm in this repo.\n"
        "- The API runs on port 8080. **always run make check before pushing**\n"
        "- Deploys go out on Tuesdays from the release branch.\n",
    )
    result = found(mine, theirs)
    [group] = result.groups
    assert group.kind == "rule" and group.similarity == 1.0
    assert places(group) == [("/memories/global/habits.md", 4), ("/memories/project/tooling.md", 4)]
    assert group.why.startswith("The same rule in mux, global and mux, project")
    [candidate] = result.candidates
    assert candidate.kind == "rule" and candidate.why.startswith("Might be one statement")
    assert [m.text for m in candidate.members] == [
        "Use pnpm, not npm.",
        "Prefer pnpm over npm in this repo.",
    ]


@pytest.mark.parametrize(
    ("one", "other"),
    [
        (
            "Always answer 404 for objects the caller may not see.",
            "Never answer 404 for objects the caller may not see; return 403.",
        ),
        (
            "Use tmux for long-running jobs on the build box.",
            "Use screen for long-running jobs on the build box; tmux isn't installed there.",
        ),
        (
            "Icons come from lucide-react in every component.",
            "Use heroicons for every icon in every component; lucide-react was dropped.",
        ),
    ],
)
def test_statements_that_disagree_are_never_grouped(one: str, other: str) -> None:
    """The issue's three seeded contradictions, grouped as "the same statement" on main: at
    most a candidate the user's model or the user judges, never a group to combine."""
    result = found(
        memory("global", "a.md", f"# Conventions\n\n- {one}\n- Keep PRs small.\n"),
        memory("project:acme-api", "b.md", f"# API\n\n- {other}\n- Deploys go out on Tuesdays.\n"),
    )
    assert result.groups == []


def test_a_link_and_a_labelled_link_are_no_statement() -> None:
    """1000ssam/claude-config's "관련: [[project_newsletter-self-host]]" beside the bare link."""
    one = memory(
        "claude:site",
        "send.md",
        "# Send\n\nIdempotent sends.\n\n[[project_newsletter-self-host]]\n",
    )
    other = memory(
        "claude:site",
        "metrics.md",
        "# Metrics\n\nDaily rollups.\n\n관련: [[project_newsletter-self-host]]\n",
    )
    labelled = memory("global", "see.md", "# See\n\nSee also: [self-host](self-host.md)\n")
    plain = memory("project:site", "also.md", "# Also\n\n- [self-host](self-host.md)\n")
    result = found(one, other, labelled, plain)
    assert (result.groups, result.candidates) == ([], [])


RELEASE = """# Release plan

The billing service ships on Friday with the new invoice layout.
Staging runs Postgres 15 and Redis 7.

- [ ] Update the changelog before tagging the release
- [x] Rotate the staging keys
"""
ONBOARDING = """# Onboarding

New hires get access to Grafana and the on-call rota in week two.
The docs site is built with mkdocs.

- [ ] Before tagging the release, update the changelog
- [ ] Book the intro call with Sam
"""


def test_two_task_items_are_no_rule() -> None:
    """Main read these two tasks as "the same rule": a task is what is to be done once."""
    result = found(
        memory("global", "release.md", RELEASE), memory("project:x", "onboarding.md", ONBOARDING)
    )
    assert (result.groups, result.candidates) == ([], [])


HANDOFF = """# Session Handoff - 2026-03-2{day}

**Reason:** session_end
**Iteration:** {day}

## Files Modified
src/{file}.ts

## Notes
Session handoff generated automatically.
"""


def test_a_generators_line_in_every_file_it_writes_is_no_duplicate() -> None:
    """loki's handoffs, each ending "Session handoff generated automatically.", as mux memory."""
    handoffs = [
        memory("project:showtime", f"handoffs/{day}.md", HANDOFF.format(day=day, file=name))
        for day, name in ((1, "window"), (2, "onboarding"), (3, "rundown"))
    ]
    assert found(*handoffs).groups == []


SKILL = """---
name: {name}
description: {description}
---
# {title}

## When to use
Use this skill when the user asks for {what}.

## Steps
1. Read the request and collect the inputs.
2. {step}
3. Show the result to the user before saving anything.
"""


def test_two_skills_made_from_one_template_share_no_rule() -> None:
    deck = SKILL.format(
        name="ppt-deck", description="Slides", title="PPT deck", what="a slide deck",
        step="Build the slides with python-pptx.",
    )  # fmt: skip
    lab = SKILL.format(
        name="ppt-lab", description="Lab sheet", title="PPT lab", what="a lab worksheet",
        step="Fill the worksheet template with the exercises.",
    )  # fmt: skip
    result = found(
        memory("claude:ppt", "skill_deck.md", deck), memory("claude:ppt", "skill_lab.md", lab)
    )
    assert result.groups == []


OPENSPEC_SKILL = (
    "---\nname: openspec-{verb}-change\ndescription: {description}\n---\n\n{opening}\n\n"
    "**Input**: Optionally specify a change name. If omitted, check if it can be inferred from "
    "conversation context. If vague or ambiguous you MUST prompt for available changes.\n\n"
    "**Steps**\n\n1. {step}\n"
)


def test_a_line_two_skills_share_is_no_duplicate_but_two_notes_rule_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """showtime's openspec skills (Claude Code `.claude/skills/*/SKILL.md`) share their
    "**Input**" paragraph: each skill is read alone when invoked and needs it, so Combine
    must not take it from one. The same rule in two topic files of its memory is a finding."""
    project = tmp_path / "src" / "showtime"
    home = Home(tmp_path / "home")
    add_workspace(home, str(project), "main", workspace_id="a1b2c3d4e5")
    for verb, description, opening, step in (
        ("apply", "Implement tasks from a change.", "Implement tasks.", "Run the tasks."),
        ("archive", "Archive a finished change.", "Archive a change.", "Move the folder."),
    ):
        skill = project / ".claude" / "skills" / f"openspec-{verb}-change" / "SKILL.md"
        skill.parent.mkdir(parents=True)
        skill.write_text(
            OPENSPEC_SKILL.format(verb=verb, description=description, opening=opening, step=step)
        )
    claude = tmp_path / "claude"
    memory = claude / "projects" / encode_project_path(str(project)) / "memory"
    memory.mkdir(parents=True)
    for name, fact in (("deploy", "Deploys go out from main."), ("ci", "CI runs on Fridays.")):
        (memory / f"{name}.md").write_text(
            f"---\nname: {name}\ndescription: {name}\ntype: project\n---\n"
            f"- {fact}\n- Never push to main without a review.\n"
        )
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(claude))
    for agent in ("CODEX_HOME", "LOKI_DIR", "GEMINI_CLI_HOME"):
        monkeypatch.setenv(agent, str(tmp_path / "none"))
    documents = read_memories(home).documents
    assert sum(d.skill for d in documents) == 2
    [group] = DuplicatesEngine(home).found_in(documents).groups
    assert [member.text for member in group.members] == ["Never push to main without a review."] * 2
