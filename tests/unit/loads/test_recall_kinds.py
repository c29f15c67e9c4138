"""Claude Code's predicted pick reads the kind of work a prompt is about (`relevance.KINDS`): a
file named or described for that work is picked over one sharing an incidental word, and a
symptom reaches the file about its cause."""

from __future__ import annotations

import os
import time
from pathlib import Path

from memtab.loads.recall.claude import predict
from memtab.loads.recall.relevance import Fields, Prompt, _stem, judge, kinds
from memtab.loads.topics import scan_topics

TOPICS = {
    "feedback_screens.md": "Screens live under app/(tabs); each gets a route file and a deep link",
    "reference_build-service.md": "The hosted build service: who may submit to the stores",
    "feedback_events.md": "Product analytics: event names in snake_case, no personal data",
    "project_zones.md": "Visit times kept in UTC with the clinic's IANA zone, shown in that zone",
    "project_visits.md": "What a patient's visit record holds and who may read it",
    "reference_local.md": "Local stack (docker compose) and the seed data",
    "feedback_calendar-ui.md": "The calendar widget's colours and spacing",
}


def _picks(tmp_path: Path, prompt: str) -> list[str]:
    now = time.time()
    for age, (name, description) in enumerate(TOPICS.items(), start=1):
        path = tmp_path / name
        path.write_text(f"---\nname: {name}\ndescription: {description}\n---\n\nText.\n")
        os.utime(path, (now - 3600 * age, now - 3600 * age))
    topics = scan_topics(tmp_path, {})
    picks, _ = predict(Prompt(prompt), topics)
    return [topics[i].name for i in picks]


def test_a_prompt_naming_an_action_picks_the_file_about_that_work(tmp_path: Path) -> None:
    assert _picks(tmp_path, "add a screen listing a clinic's patients")[0] == (
        "feedback_screens.md"
    )
    assert _picks(tmp_path, "ship a build to the testers") == ["reference_build-service.md"]
    assert _picks(tmp_path, "track when someone cancels a visit")[0] == "feedback_events.md"


def test_a_symptom_reaches_the_file_about_its_cause(tmp_path: Path) -> None:
    picks = _picks(tmp_path, "the calendar shows the wrong time for people abroad")
    assert picks[0] == "project_zones.md"
    assert _picks(tmp_path, "set up the project on my new laptop") == ["reference_local.md"]


def test_a_field_saying_only_the_prompts_own_word_is_no_kind() -> None:
    """The kind counts when said in other words: the prompt's word itself is counted once."""
    own, other = judge(
        Prompt("write a migration"),
        [Fields.of(("the migration steps", 1.0)), Fields.of(("alembic and the schema", 1.0))],
        kinds_weights=(1.0,),
    )
    assert (own.matched, own.kinds) == (("migration",), ())
    assert (other.matched, other.kinds) == ((), ("schema change",))
    assert judge(Prompt("write a migration"), [Fields.of(("alembic", 1.0))])[0].score == 0


def test_every_kind_is_said_by_stems_a_prompt_can_hold() -> None:
    """No word of a kind is lost to the stop words (a phrase of them would match anything)."""
    for kind in kinds(_stem):
        assert kind.words and all(phrase for phrase in kind.words), kind.name
