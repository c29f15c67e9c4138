"""What the window shows of a recall, without Qt (components.loads.loads): a group an
agent with its counts, how it picks and its notes, a row a file in its order — loaded,
recalled by rank with the lines it reads, missed and why — then what no agent can recall;
where each row opens; which changes on disk ask again."""

from __future__ import annotations

from pathlib import Path

from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.loads.loads import (
    FilePlace,
    RecallCounts,
    asks_again,
    recall_counts,
    recall_groups,
    summary,
)
from memtab.loads.recall.records import AgentRecall, ModelPick, Recall, RecallFile, Unrecallable
from memtab.store.home import Home

TOPIC_ID = "claude-code:project-acme:deploy.md"


def a_recall() -> Recall:
    claude = AgentRecall(
        agent="claude",
        how="Claude Code picks up to 5 topic files",
        notes=("Claude Code 2.1.332 makes this pick when its recall is on",),
        files=(
            RecallFile(
                id="claude-code:project-acme:MEMORY.md",
                physical_path="/home/u/.claude/projects/acme/memory/MEMORY.md",
                name="claude-code:project-acme:MEMORY.md",
                kind="memory",
                verdict="loaded",
                reason="Read at the start of every session, whatever the prompt — up to line 200",
                first_line=1,
                last_line=200,
                cut_reason="Claude Code reads only the first 200 lines of MEMORY.md",
            ),
            RecallFile(
                id=TOPIC_ID,
                physical_path="/home/u/.claude/projects/acme/memory/deploy.md",
                name="deploy.md",
                kind="topic",
                verdict="recalled",
                rank=1,
                matched=("deploy",),
                reason="Its name and description hold the prompt's words: deploy",
                first_line=1,
                last_line=200,
                cut_reason="Claude Code reads a recalled memory up to 200 lines",
            ),
            RecallFile(
                id="claude-code:project-acme:staging.md",
                name="staging.md",
                kind="topic",
                verdict="missed",
                matched=("staging",),
                reason="Its name and description answer the prompt less well",
            ),
        ),
    )
    xum = AgentRecall(
        agent="xum",
        how="xum ranks its index",
        files=(
            RecallFile(
                path="/memories/global/deploy.md",
                name="/memories/global/deploy.md",
                kind="note",
                verdict="recalled",
                rank=1,
                reason="Its index entry holds deploy",
                first_line=9,
                last_line=11,
            ),
        ),
    )
    codex = AgentRecall(
        agent="codex",
        how="Codex searches MEMORY.md",
        files=(
            RecallFile(
                path="/srv/acme/docs/deploy.md",
                physical_path="/srv/acme/docs/deploy.md",
                name="docs/deploy.md",
                kind="rollout",
                verdict="missed",
                reason="No section of MEMORY.md points to it",
            ),
        ),
    )
    never = Unrecallable(
        agent="claude",
        id="claude-code:project-acme:notes.md",
        physical_path="/home/u/.claude/projects/acme/memory/notes.md",
        reason="No description",
    )
    return Recall(
        prompt="deploy to staging",
        agents=(claude, xum, codex),
        unrecallable=(never,),
        directory="/srv/acme",
    )


def test_a_group_an_agent_with_its_counts_then_what_none_can_recall() -> None:
    groups = recall_groups(a_recall())
    assert [g.title for g in groups] == [
        "Claude Code — 1 recalled, 1 missed, 1 never",
        "xum — 1 recalled",
        "Codex — 0 recalled, 1 missed",
        "No agent can recall 1 memory",
    ]
    claude = groups[0]
    assert claude.how == "Claude Code picks up to 5 topic files"
    assert claude.notes == ("Claude Code 2.1.332 makes this pick when its recall is on",)
    # What the prompt brings first, by rank, then what it misses; what every start
    # reads apart.
    picked, missed = claude.rows
    (loaded,) = claude.loaded
    assert claude.loaded_title == "1 file read at every start"
    # Loaded: named by where it is, its cut said in its reason, not in its name.
    assert (loaded.mark, loaded.name) == ("start", "/home/u/.claude/projects/acme/memory/MEMORY.md")
    assert loaded.place == FilePlace("claude-code:project-acme:MEMORY.md")
    # Recalled: its rank, the lines read, why and where it stops.
    assert (picked.mark, picked.name) == ("#1", "deploy.md, lines 1–200")
    assert picked.why == (
        "Its name and description hold the prompt's words: deploy. Claude Code reads a "
        "recalled memory up to 200 lines"
    )
    assert picked.place == FilePlace(TOPIC_ID, tuple(range(200)))
    assert picked.tip == TOPIC_ID
    assert (missed.mark, missed.why) == (
        "missed",
        "Its name and description answer the prompt less well (it holds staging)",
    )
    (never,) = groups[3].rows
    assert (never.mark, never.name) == ("never", "Claude Code: notes.md")
    assert never.why == "No description"


def test_a_row_opens_a_xum_note_at_its_lines_and_a_file_no_source_holds_on_disk() -> None:
    groups = recall_groups(a_recall())
    (note,) = groups[1].rows
    assert note.name == "/memories/global/deploy.md, lines 9–11"
    assert note.place == FilePlace("/memories/global/deploy.md", (8, 9, 10))
    assert note.place.virtual and not note.place.outside
    (outside,) = groups[2].rows
    assert outside.place == FilePlace("/srv/acme/docs/deploy.md", outside=True)
    assert outside.place.outside and not outside.place.virtual
    assert outside.tip.endswith("(not among Memtab's files: it opens in the external editor)")


def test_counts_for_any_view_that_says_why_recalled() -> None:
    counts = recall_counts(a_recall())
    assert counts == {
        "claude": RecallCounts(loaded=1, recalled=1, missed=1, unrecallable=1),
        "xum": RecallCounts(recalled=1),
        "codex": RecallCounts(missed=1),
    }


def test_the_summary_says_what_was_found_and_that_it_is_a_prediction() -> None:
    said = summary(a_recall())
    assert said.startswith("For “deploy to staging” in /srv/acme: 2 memories recalled, 2 missed.")
    assert "not by asking its model" in said
    nothing = Recall(prompt="the weather", agents=(AgentRecall(agent="xum"),))
    assert summary(nothing).startswith("For “the weather”: no memory holds its words.")


def test_only_changes_to_what_a_recall_reads_ask_again(tmp_path: Path) -> None:
    home = Home(tmp_path / ".mux")
    note = home.global_root / "deploy.md"
    assert asks_again(ChangeBatch.classify([str(note)], home))
    elsewhere = tmp_path / ".claude" / "projects" / "acme" / "memory" / "deploy.md"
    assert asks_again(ChangeBatch.classify([str(elsewhere)], home))  # another agent's
    history = home.memtab_dir / "history" / "index" / "global.jsonl"
    assert not asks_again(ChangeBatch.classify([str(history)], home))  # Memtab's own


def test_the_models_pick_leads_its_agents_rows_each_opening_as_a_topic_does() -> None:
    words = a_recall()
    pick = ModelPick(
        model="claude-sonnet-5-5",
        provider="anthropic · claude-sonnet-5-5 · https://api.anthropic.com",
        picks=("release.md", "deploy.md"),
        not_listed=("nowhere.md",),
        agreement=0.5,
        input_tokens=1234,
        output_tokens=20,
    )
    claude = words.agents[0].replaced(model_pick=pick)
    asked = words.replaced(agents=(claude, *words.agents[1:]))
    group = recall_groups(asked)[0]
    assert group.title.startswith("Claude Code — 2 by the model, 1 recalled")
    assert group.notes[0] == (
        "Asked claude-sonnet-5-5 as Claude Code asks its model (1,234 tokens in, 20 out): "
        "2 files, agreeing with the words' prediction on 50%; it also named nowhere.md, "
        "which Claude Code drops"
    )
    first, second, words_pick = group.rows[:3]
    assert (first.mark, first.name) == ("model", "release.md")
    assert first.why.endswith("; its words hold none of the prompt's")
    assert first.place == FilePlace("claude-code:project-acme:release.md")  # beside deploy.md
    assert (second.mark, second.name, second.place) == ("model", "deploy.md", FilePlace(TOPIC_ID))
    assert (
        second.why
        == "claude-sonnet-5-5's pick #2, asked as Claude Code asks its model; the words' #1 too"
    )
    assert words_pick.mark == "#1"
    assert "Memtab asked claude-sonnet-5-5 as Claude Code asks its model (1,234 tokens in" in (
        summary(asked)
    )
    failed = pick.replaced(picks=(), not_listed=(), problem="The answer was cut")
    group = recall_groups(words.replaced(agents=(words.agents[0].replaced(model_pick=failed),)))[0]
    assert group.notes[0].endswith("(1,234 tokens in, 20 out): no pick — The answer was cut")
    assert group.rows[0].mark == "#1"
