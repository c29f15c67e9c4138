"""What the session takes back is never a note (issue 95): a value a later message says is wrong
(the user: "it isn't on 8000, it's 8123"; the agent: "I was wrong about the port: … 5433") is
not kept at its earlier value, by the offline writer nor as a model's evidence; a rule the user
withdraws later ("Scratch the check-before-every-commit thing I said earlier") is no rule, and
what they say to do instead is."""

from __future__ import annotations

from memtab.writer.lessons.digest import digest_of
from memtab.writer.lessons.judge import Lesson, judge
from memtab.writer.offline.corrections import corrections_in, is_corrected_by
from memtab.writer.offline.directives import standing_rules, withdrawn
from memtab.writer.offline.extract import extract_findings
from memtab.writer.offline.notes import plan_notes

from .events import answer, bash, user

GUESS = "The dev server runs on port 8000, so the page is at http://localhost:8000/events."
RULE = "Also always run the full `make check` before each commit."
WITHDRAWAL = (
    "Scratch the check-before-every-commit thing I said earlier — it takes four minutes. "
    "Locally just run `make test` before you commit."
)


def note_texts(*events: object) -> list[str]:
    return [note.text for note in plan_notes("", extract_findings(events))]  # type: ignore[arg-type]


def test_a_value_the_user_corrects_later_is_not_kept_at_its_guess() -> None:
    guessed = answer(GUESS)
    assert any("8000" in note for note in note_texts(guessed))
    corrected = user("No. The dev server isn't on 8000, it's 8123 — see deno.json's dev task.")
    assert not any("8000" in note for note in note_texts(guessed, corrected))
    # a later message that names the same value without saying it is wrong takes nothing back
    agreed = user("Good, and the page at 8000 shows the races.")
    assert any("8000" in note for note in note_texts(guessed, agreed))


def test_the_agents_admission_takes_its_guess_back_and_keeps_the_right_value() -> None:
    guessed = answer("Right. The tests need Postgres; it must be on the default port 5432.")
    failed = bash("make test", ok=False, output="Connection to localhost:5433 refused.")
    admitted = answer(
        "I was wrong about the port: docker compose maps Postgres to 5433 on the host, and the "
        "tests read DB_URL from .env."
    )
    notes = note_texts(guessed, failed, admitted)
    assert not any("5432" in note for note in notes)
    assert "Docker compose maps Postgres to 5433 on the host." in notes
    # an admission about a subject the note gives the same value for takes nothing back, nor
    # a remark that the user was right
    kept = "The dev server is on port 8123 (deno.json)."
    assert not is_corrected_by(kept, "I was wrong about the port: the dev task passes 8123.")
    assert is_corrected_by(GUESS, "I was wrong about the port: the dev task passes 8123.")
    assert not is_corrected_by(GUESS, "You're right about the tests, they are flaky.")


def test_the_users_rule_is_set_right_by_the_user_only() -> None:
    rule = user("Always pin Node 20 in .nvmrc.")
    assert "Always pin Node 20 in .nvmrc." in note_texts(rule)
    agent = answer("The CI image is not 20 but 22, so `.nvmrc` pins nothing there.")
    assert "Always pin Node 20 in .nvmrc." in note_texts(rule, agent)
    corrected = user("Sorry, not 20 — it's Node 22 now.")
    assert not any("Node 20" in note for note in note_texts(rule, corrected))
    # as a model's evidence too
    lines = [line.text for line in digest_of([rule, agent]).lines]
    assert "Always pin Node 20 in .nvmrc." in lines
    lines = [line.text for line in digest_of([rule, corrected]).lines]
    assert "Always pin Node 20 in .nvmrc." not in lines


def test_an_admission_without_a_value_is_no_correction_note() -> None:
    assert corrections_in("I was wrong about the port: I misread the config.") == []
    assert corrections_in("I was wrong about the port: it is 5433 on the host.") == [
        "It is 5433 on the host."
    ]
    assert corrections_in("I was wrong about the port: it's localhost:5433 — see .env.") == [
        "It's localhost:5433."
    ]


def test_a_rule_the_user_withdraws_is_no_rule_and_what_they_say_instead_is() -> None:
    first = user(f"Add `read_gauges()`. {RULE}")
    assert "Also always run the full `make check` before each commit." not in note_texts(first)
    assert "Always run the full `make check` before each commit." in note_texts(first)
    later = user(WITHDRAWAL)
    notes = note_texts(first, later)
    assert not any("make check" in note for note in notes)
    assert "Locally just run `make test` before you commit." in notes
    rules = standing_rules([first.text, later.text])
    assert rules.withdrawn == ["Always run the full `make check` before each commit."]
    assert rules.kept == ["Locally just run `make test` before you commit."]


def test_a_withdrawal_takes_back_only_the_rule_it_names() -> None:
    rules = ["Never commit to main directly.", "Always run `make check` before each commit."]
    assert withdrawn("Forget what I said earlier about the lint config.", rules) == []
    assert withdrawn("Scratch the make check thing I said before.", rules) == [rules[1]]
    # no withdrawal: a rule that merely shares the words stays
    assert withdrawn("Run `make check` before you push, too.", rules) == []
    assert withdrawn("Ignore the flaky test for now.", rules) == []


def test_a_models_lesson_never_rests_on_what_the_session_took_back() -> None:
    events = [
        user(f"Add the events page. {RULE}"),
        answer(GUESS),
        user("The dev server isn't on 8000, it's 8123."),
        user(WITHDRAWAL),
    ]
    digest = digest_of(events)
    assert digest.rules == ("Locally just run `make test` before you commit.",)
    # the guess stands only beside its correction (the exchange the user's answer leans on)
    holding = [line.text for line in digest.lines if "localhost:8000/events" in line.text]
    assert holding and all("isn't on 8000" in text for text in holding)
    guess = judge(Lesson("fact", "The dev server runs on port 8000.", GUESS), digest)
    assert guess.note is None
    rule = "Always run the full `make check` before each commit."
    withdrawn_rule = judge(Lesson("preference", rule, RULE), digest).note
    assert withdrawn_rule is None or "make check" not in withdrawn_rule.text
    instead = judge(Lesson("preference", "Run `make test` before you commit.", WITHDRAWAL), digest)
    assert instead.note is not None and "make test" in instead.note.text


def test_a_rule_the_next_sentence_takes_back_at_once_is_no_rule_nor_evidence() -> None:
    said = user(
        "Always rebuild the docs site after each API change. Hmm, actually no, the CI does "
        "that now — scratch that."
    )
    assert not any("docs site" in note for note in note_texts(said))
    rules = standing_rules([said.text])
    assert rules.kept == [] and rules.withdrawn == [
        "Always rebuild the docs site after each API change."
    ]
    digest = digest_of([said])
    assert not any("docs site" in line.text for line in digest.lines)
    # a "no" that answers the agent takes back nothing the user stated before it
    kept = user("Never push to main directly. No, the second test is fine as it is.")
    assert standing_rules([kept.text]).kept == ["Never push to main directly."]
