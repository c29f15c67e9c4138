"""Offline, a contradiction is what the claims prove (issue 94): the wrong findings of the
owners' real stores read by general rules, and always/never rules said in other words only
candidates."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.check.documents import Document
from memtab.store.home import Home
from memtab.trust.contradictions.engine import ContradictionsEngine, Found
from support.seeded_memories import memory


def found(*documents: Document) -> Found:
    return ContradictionsEngine(Home(Path("/nowhere")), line_time=lambda d, _: 0).found_in(
        documents
    )


def test_a_cron_time_and_an_incident_s_times_are_no_one_thing() -> None:
    """1000ssam/claude-config: "크론(KST 03:00)" against "(16:41/16:42 KST)" was "the time of
    kst" — a zone before its time is its zone, times one after another are several, and
    a clause in another script names no thing ("매일 KST 05:00", daily, of no job)."""
    cron = "- **자동화**: 크론(KST 03:00)·수동·노션버튼 어느 트리거든 갱신.\n"
    incident = "**실제 원인**: 처음 2건(16:41/16:42 KST)은 자동화가 미발화.\n"
    daily = "- `cron-community.yml`: **매일 KST 05:00** 자동 실행.\n"
    morning = "- `api/cron/daily-morning.js` — 매일 08:00 KST: 첫날·마지막날 알림.\n"
    result = found(
        memory("claude:site", "metrics.md", f"# Metrics\n\n{cron}"),
        memory("claude:site", "webhook.md", f"# Webhook\n\n{incident}"),
        memory("claude:site", "relay.md", f"# Relay\n\n{daily}"),
        memory("claude:site", "toggle.md", f"# Toggle\n\n{morning}"),
    )
    assert result == ([], [])


def test_a_one_word_label_s_value_is_its_memory_s() -> None:
    """Two tools' credentials ("크리덴셜:" in a note on Canva, in one on Threads) are two
    things; the same label in two copies of one note is one."""
    canva = memory("claude:sns", "project_sns-automation.md", "- 크리덴셜: `~/.secrets/canva.md`\n")
    threads = memory("claude:sns", "project_threads.md", "- 크리덴셜: `~/.secrets/threads.env`\n")
    assert found(canva, threads) == ([], [])
    mine = memory("global", "deploy.md", "- Token: `~/.secrets/deploy-a.env`\n")
    theirs = memory("project:sns", "deploy.md", "- Token: `~/.secrets/deploy-b.env`\n")
    [contradiction] = found(mine, theirs).contradictions
    assert (contradiction.first.value, contradiction.second.value) == (
        "~/.secrets/deploy-a.env",
        "~/.secrets/deploy-b.env",
    )


def test_a_memory_telling_how_a_value_changed_claims_none_of_its_values() -> None:
    """ShengLin1001/codex-config, laid into mux's memory: a rollout summary and Codex's
    MEMORY.md each tell 0.130.0, then 0.131.0, then 0.132.0 — a story, no claim."""
    story = (
        "# Codex versions\n\n- `codex --version` returned `codex-cli 0.130.0`.\n"
        "- Then `codex-cli 0.131.0` was validated.\n- Now `codex-cli 0.132.0` runs.\n"
    )
    told = memory("global", "summary.md", story)
    again = memory("global", "MEMORY.md", story.replace("Then", "After that"))
    assert found(told, again) == ([], [])
    one = memory("global", "a.md", "# A\n\n- We run `codex-cli 0.131.0`.\n")
    other = memory("global", "b.md", "# B\n\n- We run `codex-cli 0.132.0`.\n")
    assert len(found(one, other).contradictions) == 1


def test_each_episode_s_field_is_its_own() -> None:
    """loki-mode's episodes laid into mux's memory: seven `"duration_seconds"` were one thing
    of seven values."""
    episodes = [
        memory("global", f"episodic/ep-{n}.json", f'{{\n  "duration_seconds": {seconds},\n}}\n')
        for n, seconds in enumerate((349, 761, 2103))
    ]
    assert found(*episodes) == ([], [])


@pytest.mark.parametrize(
    ("never", "always", "proven"),
    [
        ("- Never rebase on main.", "- Always rebase on main.", True),
        ("- Never write raw SQL.", "- Always write migrations in raw SQL.", False),
        (
            "- Never squash-merge here.",
            "- Squash-merge PRs; the PR title becomes the commit.",
            False,
        ),
    ],
)
def test_always_and_never_of_one_action_said_alike_is_proven_else_a_candidate(
    never: str, always: str, proven: bool
) -> None:
    """The one that says more may be the other's exception: the words only suspect it."""
    result = found(
        memory("global", "a.md", f"# A\n\n{never}\n"),
        memory("project:x", "b.md", f"# B\n\n{always}\n"),
    )
    assert (len(result.contradictions), len(result.candidates)) == ((1, 0) if proven else (0, 1))
