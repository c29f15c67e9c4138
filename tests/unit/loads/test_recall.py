"""`memtab recall`: what each agent loads and would recall for a prompt, and why each memory
is taken or missed (docs/formats.md §17.8), on a machine holding the real stores of
../shared/fixtures (a Korean Claude Code auto memory, a Codex memories folder)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from memtab.components.loads.loads import recall_groups
from memtab.loads.recall.claude import WORDS_NOTE, iso_time, manifest, manifest_line
from memtab.loads.recall.engine import compute_recall
from memtab.loads.recall.records import AgentRecall, Recall
from memtab.loads.topics import scan_topics
from memtab.sources.claude.recall import has_description
from support.agent_machine import WORKSPACE_ID, Machine


def recall(machine: Machine, prompt: str, *agents: str, **env: str) -> Recall:
    return compute_recall(
        machine.home,
        prompt,
        workspace_id=WORKSPACE_ID,
        agents=agents or ("claude", "codex", "xum"),  # type: ignore[arg-type]
        context=machine.context(**env),
    )


def only(result: Recall) -> AgentRecall:
    (agent,) = result.agents
    return agent


def verdicts(agent: AgentRecall, verdict: str) -> list[str]:
    return [f.name for f in agent.files if f.verdict == verdict]


def topic(memory: Path, name: str, text: str, age_hours: float) -> Path:
    path = memory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    moment = time.time() - 3600 * age_hours
    os.utime(path, (moment, moment))
    return path


def described(name: str, description: str, kind: str = "project") -> str:
    return f"---\nname: {name}\ndescription: {description}\ntype: {kind}\n---\n\nBody of {name}.\n"


def test_claude_code_is_sent_its_manifest_as_2_1_332_builds_it(machine: Machine) -> None:
    memory = machine.claude_memory
    for path in list(memory.iterdir()):
        if path.name != "MEMORY.md":
            path.unlink()
    topic(memory, "deploy.md", described("deploy", "How to deploy: make ship", "reference"), 1)
    topic(memory, "bare.md", "# Just notes\n\nNo frontmatter.\n", 2)
    topic(memory, "odd.md", described("odd", "x", "weird"), 3)  # a type it does not know
    topic(memory, "nested/MEMORY.md", described("nested", "an index"), 4)  # never a topic
    topic(memory, "logs/2026.md", described("log", "a log"), 5)
    topic(memory, ".hidden/x.md", described("x", "hidden"), 6)
    topic(memory, "sub/api.md", described("api", "API notes", "feedback"), 7)
    topics = scan_topics(memory, {})
    assert [t.name for t in topics] == ["deploy.md", "bare.md", "odd.md", "sub/api.md"]
    stamp = iso_time(topics[0].mtime_ms)
    assert len(stamp) == 24 and stamp.endswith("Z") and stamp[19] == "."
    lines = manifest(topics).split("\n")
    assert lines[0] == "Available memories:"
    assert lines[1] == f"- [reference] deploy.md ({stamp}): How to deploy: make ship"
    assert lines[2] == f"- bare.md ({iso_time(topics[1].mtime_ms)})"  # no colon, no type
    assert lines[3].startswith("- odd.md (") and lines[3].endswith("): x")
    assert lines[4].startswith("- [feedback] sub/api.md (")
    # With memory stores set, an undescribed file is described by its first line.
    stores = scan_topics(memory, {"CLAUDE_MEMORY_STORES": '["/elsewhere"]'})
    assert manifest_line(stores[1]).endswith("): Just notes")


def test_claude_code_recalls_by_name_and_description_and_says_why_others_are_missed(
    machine: Machine,
) -> None:
    memory = machine.claude_memory
    topic(
        memory,
        "project_payment-webhooks.md",
        described("webhooks", "Stripe webhooks are deduplicated by event id"),
        0.5,
    )
    topic(
        memory, "release-notes.md", "# Release\n\nThe stripe webhook secret rotates monthly.\n", 0.6
    )
    result = only(recall(machine, "the stripe webhook fires twice", "claude"))
    assert verdicts(result, "loaded")[-1].endswith("MEMORY.md")
    assert verdicts(result, "recalled") == ["project_payment-webhooks.md"]
    (picked,) = [f for f in result.files if f.verdict == "recalled"]
    assert (picked.rank, picked.matched) == (1, ("stripe", "webhook"))
    assert (picked.first_line, picked.cut_reason) == (1, None)
    (missed,) = [f for f in result.files if f.name == "release-notes.md"]
    assert missed.verdict == "missed"
    assert missed.reason.startswith("Its text holds the prompt's words, but it has no description")
    assert result.sent is not None and result.sent.startswith("Available memories:\n- ")
    assert "project_payment-webhooks.md" in result.sent
    # One word is no prompt to recall for (Claude Code tests /\s/).
    single = only(recall(machine, "webhooks", "claude"))
    assert verdicts(single, "recalled") == []
    assert any("one word" in note for note in single.notes)


def test_claude_codes_predicted_pick_says_how_often_the_words_agree(machine: Machine) -> None:
    """The words' pick is a prediction, right about two times in three on unseen prompts:
    the user is told so, and how to have the model asked, wherever a pick is predicted."""
    topic(
        machine.claude_memory,
        "project_payment-webhooks.md",
        described("webhooks", "Stripe webhooks are deduplicated by event id"),
        0.5,
    )
    result = only(recall(machine, "the stripe webhook fires twice", "claude"))
    assert WORDS_NOTE in result.notes
    assert "68–80 %" in WORDS_NOTE and "--model" in WORDS_NOTE
    (group,) = recall_groups(Recall(prompt="the stripe webhook fires twice", agents=(result,)))
    assert WORDS_NOTE in group.notes  # the window's "How it picks" lines
    # No pick is predicted for a prompt of one word: Claude Code makes none.
    assert WORDS_NOTE not in only(recall(machine, "webhooks", "claude")).notes


def test_a_recalled_memory_is_read_to_200_lines_or_4096_bytes(machine: Machine) -> None:
    memory = machine.claude_memory
    long = described("tall", "Payment outage notes, line by line") + "line\n" * 300
    topic(memory, "tall.md", long, 0.1)
    wide = described("wide", "Payment outage notes, wide lines") + ("x" * 100 + "\n") * 60
    topic(memory, "wide.md", wide, 0.2)
    files = {f.name: f for f in only(recall(machine, "payment outage notes", "claude")).files}
    assert (files["tall.md"].verdict, files["wide.md"].verdict) == ("recalled", "recalled")
    assert files["tall.md"].last_line == 200
    assert files["tall.md"].cut_reason == "Claude Code reads a recalled memory up to 200 lines"
    assert files["wide.md"].last_line is not None and files["wide.md"].last_line < 60
    assert files["wide.md"].cut_reason == ("Claude Code reads a recalled memory up to 4,096 bytes")


def test_a_description_with_a_colon_is_one_claude_code_reads(machine: Machine) -> None:
    # YAML refuses `description: Frontend code: strict`; Claude Code's reader takes it whole.
    head = "---\nname: style\ndescription: Frontend code: TypeScript strict\ntype: feedback\n---\n"
    assert has_description(head)
    topic(machine.claude_memory, "feedback_style.md", head + "\nBody.\n", 0.1)
    result = recall(machine, "typescript frontend code style", "claude")
    assert "feedback_style.md" in verdicts(only(result), "recalled")
    assert not any(u.id and u.id.endswith("feedback_style.md") for u in result.unrecallable)


def test_claude_code_shows_its_model_only_the_newest_200(machine: Machine) -> None:
    memory = machine.claude_memory
    topic(memory, "ancient-redis.md", described("redis", "Redis cache keys and TTLs"), 500)
    for number in range(200):
        topic(
            memory, f"t{number:03}.md", described(f"t{number}", f"note {number}"), 1 + number / 10
        )
    result = recall(machine, "redis cache keys", "claude")
    assert "ancient-redis.md" not in verdicts(only(result), "recalled")
    (missed,) = [f for f in only(result).files if f.name == "ancient-redis.md"]
    assert missed.reason == (
        "Older than the newest 200 topic files: Claude Code never shows it to its model"
    )
    assert any(
        u.id and u.id.endswith("ancient-redis.md") and "newest 200" in u.reason
        for u in result.unrecallable
    )


def test_the_real_korean_store_is_listed_and_its_undescribed_topic_is_unrecallable(
    machine: Machine,
) -> None:
    result = recall(machine, "vercel env newline 문제", "claude")
    agent = only(result)
    assert agent.sent is not None
    assert "notiontalk-landing-strategy.md" in agent.sent
    assert [u.id.rsplit("/", 1)[-1] for u in result.unrecallable if u.id] == [
        "notiontalk-landing-strategy.md"
    ]
    assert verdicts(agent, "recalled")[0] == "feedback_vercel-env-newline.md"


def test_codex_searches_memory_md_and_opens_what_it_points_to(machine: Machine) -> None:
    agent = only(recall(machine, "restore an archived codex session jsonl", "codex"))
    loaded = [f.name for f in agent.files if f.verdict == "loaded"]
    assert (loaded[0], loaded[-1]) == ("codex:user:AGENTS.md", "codex:memories:memory_summary.md")
    recalled = [f for f in agent.files if f.verdict == "recalled"]
    assert recalled[0].name == "MEMORY.md" and recalled[0].first_line is not None
    assert recalled[0].reason.startswith("Its search of MEMORY.md for ")
    assert recalled[1].name.startswith("rollout_summaries/2026-05-19T06-56-30-0Yov-restore")
    assert len(recalled) <= 3  # MEMORY.md and the 1-2 files it points to


def test_codex_misses_what_lies_past_its_summary_cut(machine: Machine) -> None:
    summary = machine.codex / "memories" / "memory_summary.md"
    filler = "".join(f"- filler line {n} about nothing in particular\n" for n in range(600))
    summary.write_text("v1\n\n" + filler + "- zookeeper quorum needs 3 nodes\n" + filler)
    agent = only(recall(machine, "zookeeper quorum size", "codex"))
    (missed,) = [f for f in agent.files if f.kind == "summary" and f.verdict == "missed"]
    assert missed.matched == ("zookeeper", "quorum")
    assert "Codex reads at most 2,500 tokens of memory_summary.md" in missed.reason


def test_xum_recalls_by_path_and_description_then_chunks(machine: Machine) -> None:
    root = machine.home.global_root
    root.mkdir(parents=True, exist_ok=True)
    (root / "release.md").write_text(
        "---\ndescription: How we release the API\n---\n# Release\n\nTag, then run make ship.\n"
        "\n## Rollback\n\nRun make rollback VERSION=previous to undo a release.\n",
        encoding="utf-8",
    )
    (root / "scratch.md").write_text("# Scratch\n\nrelease rollback make ship steps\n")
    result = recall(machine, "how do I rollback a release", "xum")
    agent = only(result)
    (picked,) = [f for f in agent.files if f.verdict == "recalled"]
    assert (picked.name, picked.first_line, picked.last_line) == (
        "/memories/global/release.md",
        8,
        10,
    )
    (missed,) = [f for f in agent.files if f.name == "/memories/global/scratch.md"]
    assert missed.reason.startswith("Its text holds the prompt's words, but it has no description")
    assert [u.path for u in result.unrecallable] == ["/memories/global/scratch.md"]


def test_a_note_the_prompt_brings_up_is_shown_once_under_its_agent(machine: Machine) -> None:
    # scratch.md has no description (unrecallable, whatever the prompt) and its text holds
    # the prompt's words (missed for this one): the window lists it once, under xum, and
    # --json says of the unrecallable entry that xum's files list it as missed.
    root = machine.home.global_root
    root.mkdir(parents=True, exist_ok=True)
    (root / "scratch.md").write_text("# Scratch\n\nrelease rollback make ship steps\n")
    (root / "later.md").write_text("# Later\n\nbuy milk\n")
    result = recall(machine, "how do I rollback a release", "xum")
    assert [(u.path, u.verdict) for u in result.unrecallable] == [
        ("/memories/global/later.md", None),
        ("/memories/global/scratch.md", "missed"),
    ]
    assert result.to_json()["unrecallable"][1]["verdict"] == "missed"
    xum, never = recall_groups(result)
    names = [row.name for group in (xum, never) for row in group.rows]
    assert names.count("/memories/global/scratch.md") == 1
    assert xum.title == "xum — 0 recalled, 1 missed, 1 never"
    assert [row.name for row in never.rows] == ["xum: /memories/global/later.md"]
    assert never.title == "No agent can recall 1 memory"
    elsewhere = "; 1 more like them is under its agent above, as this prompt finds it"
    assert never.how.endswith(elsewhere)


def test_a_topic_whose_text_names_the_prompts_word_is_what_its_description_is_about(
    machine: Machine,
) -> None:
    # "Riverpod" is in no name or description: a model knows Riverpod is Flutter state;
    # Memtab knows it from the text the description stands for.
    memory = machine.claude_memory
    state = "---\ndescription: How Flutter state is kept\ntype: project\n---\n\nRiverpod 2.\n"
    topic(memory, "notes-flutter-state.md", state, 0.5)
    topic(memory, "project_sync.md", described("sync", "Offline edits sync per field"), 0.6)
    bare = "---\nname: bare\n---\n\nRiverpod appears here too.\n"  # no description
    topic(memory, "bare.md", bare, 0.7)
    result = only(recall(machine, "move the Riverpod providers into their own file", "claude"))
    assert verdicts(result, "recalled") == ["notes-flutter-state.md"]
    (picked,) = [f for f in result.files if f.verdict == "recalled"]
    assert picked.matched == ("riverpod",)
    assert picked.reason.startswith("Its text holds riverpod: what its description is about")
    # A topic its model sees by name alone is judged by its name alone.
    (bare_file,) = [f for f in result.files if f.name == "bare.md"]
    assert bare_file.verdict == "missed" and "no description" in bare_file.reason


def test_the_prompts_topic_word_counts_though_many_texts_hold_it(machine: Machine) -> None:
    # "auth" is in two names and descriptions and in the texts of three more: what Claude
    # Code's model sees still tells the auth note apart (issue 83: the trust corpus's
    # "add a middleware for auth").
    memory = machine.claude_memory
    topic(memory, "reference_auth.md", described("Auth", "How requests are authenticated"), 0.5)
    carriers = described("Carriers", "Tracking APIs: base URLs, auth, quotas")
    topic(memory, "reference_carriers.md", carriers, 0.6)
    for index, name in enumerate(("websockets", "admin", "deploy")):
        text = described(name, f"The {name} notes").replace("Body", "Every call needs auth. Body")
        topic(memory, f"project_{name}.md", text, 0.7 + index / 10)
    result = only(recall(machine, "add a middleware for auth", "claude"))
    assert verdicts(result, "recalled")[0] == "reference_auth.md"
