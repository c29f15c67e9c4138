"""With a model, the model decides (issue 94): the pairs the words only suspect are asked many
a call, numbered, a control pair of each verdict among them; each pair once (kept by content);
a run makes at most a tenth of a call a memory file and says how many pairs wait; a reply is
untrusted input — what cannot be read, a pair not asked, a verdict of no kind, a call whose
controls come back wrong — leaves those pairs as the words found them, and the report says
why."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from memtab.check.documents import Document
from memtab.kept.per_file import cache_file_for
from memtab.llm.settings import ProviderSettings
from memtab.llm.types import ChatProvider, ProviderError
from memtab.store.home import Home
from memtab.trust.duplicates.engine import DuplicatesEngine
from memtab.trust.duplicates.records import DuplicateGroup, DuplicatesReport
from memtab.trust.judging import questions
from memtab.trust.judging.asking import ModelJudge
from memtab.trust.judging.duplicates import judge_duplicates, wider_duplicates
from memtab.trust.records import MemoryPlace
from support.pair_models import PairsModel, by_words, control_verdict
from support.private_modes import mode_of
from support.scripted_provider import ScriptedProvider
from support.seeded_memories import memory

SETTINGS = ProviderSettings(provider="openai", model="judge-1", base_url="http://127.0.0.1:9")
GLOBAL = "(global memory, read in every project)"
API = "(project memory of project api)"


def judge_of(home: Home, provider: ChatProvider, files: int = 100) -> ModelJudge:
    def make(settings: ProviderSettings, limit: int | None) -> ChatProvider:
        return provider

    return ModelJudge(home, SETTINGS, files=files, make=make)


def place(scope: str, name: str, line: int, text: str) -> MemoryPlace:
    if scope == "global":
        return MemoryPlace(
            path=f"/memories/global/{name}", agent="mux", scope="global", line=line, text=text
        )
    return MemoryPlace(
        path=f"/memories/project/{name}",
        agent="mux",
        scope="project",
        line=line,
        text=text,
        project="/src/api",
    )


def candidate(number: int, one: str, other: str) -> DuplicateGroup:
    """A pair the words only suspect: `one` in global memory, `other` in project api's."""
    return DuplicateGroup(
        kind="rule",
        similarity=0.3,
        why="Might say the same",
        members=(
            place("global", f"g{number}.md", 3, one),
            place("project", f"p{number}.md", 3, other),
        ),
        key=f"key-{number}",
    )


PNPM = ("Use pnpm, not npm.", "Prefer pnpm over npm in this repo.")
UTC = ("Timestamps are stored in UTC.", "Store every timestamp as timestamptz.")
PORTS = ("The API runs on port 8000.", "The API runs on port 8080.")


def report_of(*pairs: tuple[str, str]) -> DuplicatesReport:
    return DuplicatesReport(
        candidates=tuple(candidate(n, *pair) for n, pair in enumerate(pairs)), files_read=100
    )


MODEL = by_words({("pnpm, not npm", "pnpm over npm"): "same", ("8000", "8080"): "conflict"})


def test_many_pairs_are_asked_in_one_call_numbered_with_a_control_of_each_verdict(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    provider = PairsModel(MODEL)
    judge = judge_of(home, provider)
    judged = judge_duplicates(report_of(PNPM, UTC, PORTS), judge, {})
    judge.close()
    assert provider.calls == 1
    [asked] = provider.asked
    assert [n for n, _, _ in asked] == [1, 2, 3, 4, 5, 6]
    controls = [control_verdict(one, other) for _, one, other in asked]
    assert sorted(filter(None, controls)) == ["conflict", "neither", "same"]
    assert provider.statements() == [
        (f"{GLOBAL} {PNPM[0]}", f"{API} {PNPM[1]}"),
        (f"{GLOBAL} {UTC[0]}", f"{API} {UTC[1]}"),
        (f"{GLOBAL} {PORTS[0]}", f"{API} {PORTS[1]}"),
    ]
    message = provider.messages[0][0].text  # type: ignore[union-attr]
    assert message.startswith(questions.QUESTION)
    [group] = judged.groups  # confirmed: a finding the model judged
    pnpm = next(n for n, one, _ in asked if PNPM[0] in one)
    assert (group.key, group.judged_by, group.reason) == ("key-0", "judge-1.q4", f"judged {pnpm}")
    assert judged.candidates == ()
    assert [(g.key, g.judged_by) for g in judged.dismissed] == [
        ("key-1", "judge-1.q4"),
        ("key-2", "judge-1.q4"),
    ]
    assert judged.judged == (
        "Judged by judge-1: 1 call asked 3 pairs, 0 answered before; 1 confirmed, 2 dismissed; "
        "1 call took 0 s, 100 tokens in and 10 out."
    )


def test_each_pair_is_asked_once_its_answer_kept_by_content_and_question(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = Home(tmp_path / "home")
    report = report_of(PNPM, UTC)
    judge = judge_of(home, PairsModel(MODEL))
    judged = judge_duplicates(report, judge, {})
    judge.close()
    again = PairsModel(MODEL)
    judge = judge_of(home, again)
    assert judge_duplicates(report, judge, {}) == judged.replaced(
        judged="Judged by judge-1: 0 calls asked 0 pairs, 2 answered before; 1 confirmed, "
        "1 dismissed."
    )
    assert again.calls == 0
    assert mode_of(cache_file_for(home, "judge")) == 0o600
    # A pair shown in the other order is the same pair; asked in other words, asked again.
    first = report.candidates[0]
    swapped = report.replaced(candidates=(first.replaced(members=first.members[::-1]),))
    [group] = judge_duplicates(swapped, judge_of(home, again), {}).groups
    assert group.reason == judged.groups[0].reason and again.calls == 0
    monkeypatch.setattr(questions, "QUESTION", questions.QUESTION + " Say why.")
    judge_duplicates(report, judge_of(home, again), {})
    assert again.calls == 1


def test_a_run_asks_a_tenth_of_a_call_a_memory_file_and_says_how_many_pairs_wait(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    pairs = [(f"Deploy service {n} with Helm.", f"Service {n} ships via Helm.") for n in range(25)]
    report = report_of(*pairs)
    provider = PairsModel(by_words({("Helm.", "Helm."): "same"}))
    judge = judge_of(home, provider, files=10)  # one call a run
    judged = judge_duplicates(report, judge, {})
    judge.close()
    assert provider.calls == 1 and len(judged.groups) == 20
    assert [g.key for g in judged.candidates] == [f"key-{n}" for n in range(20, 25)]
    assert "; 5 pairs wait (at most 1 call a run of 20 pairs: the next run asks them)" in (
        judged.judged
    )
    judge = judge_of(home, provider, files=10)
    judged = judge_duplicates(report, judge, {})
    assert provider.calls == 2 and len(judged.groups) == 25 and judged.candidates == ()
    assert "wait" not in judged.judged and "1 call asked 5 pairs, 20 answered before" in (
        judged.judged
    )


def test_a_call_whose_control_comes_back_wrong_is_not_heard_and_nothing_more_is_asked(
    tmp_path: Path,
) -> None:
    """A small model calls nearly every pair the same: what it says of a call whose controls
    it gets wrong is not used — no candidate confirmed, no finding dismissed."""
    home = Home(tmp_path / "home")
    finding = candidate(9, "Ask Priya about billing.", "Priya handles billing questions.")
    report = report_of(*[(f"Rule {n} one way.", f"Rule {n} another way.") for n in range(30)])
    report = report.replaced(groups=(finding,))
    provider = PairsModel(by_words({}), controls_right=False)
    judged = judge_duplicates(report, judge_of(home, provider), {})
    assert provider.calls == 1  # no second call
    assert judged.groups == (finding,) and judged.candidates == report.candidates
    assert judged.dismissed == ()
    assert judged.judged == (
        "Judged by judge-1: 1 call asked 0 pairs, 0 answered before; the model did not call an "
        "always/never opposite a conflict (a control pair every judge answers alike): its "
        "answers in that call were not used and nothing more was asked; "
        "31 pairs wait (at most 10 calls a run of 20 pairs: the next run asks them); 1 call "
        "took 0 s, 100 tokens in and 10 out."
    )


def test_a_failed_call_leaves_everything_as_the_words_found_it(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    report = report_of(PNPM, UTC).replaced(groups=(candidate(7, *PORTS),))
    provider = ScriptedProvider(fail=ProviderError("connection", "judge-1: connection refused"))
    judged = judge_duplicates(report, judge_of(home, provider), {})
    assert provider.calls == 1
    assert (judged.groups, judged.candidates) == (report.groups, report.candidates)
    assert judged.judged.endswith(
        "3 pairs wait (at most 10 calls a run of 20 pairs: the next run asks them); 1 call took "
        "0 s, 0 tokens in and 0 out; 1 call failed; refused or failed: judge-1: connection "
        "refused."
    )


Given = dict[int, dict[str, object] | list[dict[str, object]]]


def _answers(asked: Sequence[tuple[int, str, str]], given: Given) -> list[dict[str, object]]:
    """Right answers to the controls, and `given` by the pair's place among the others (from
    1; an answer's own "pair" stands)."""
    answers: list[dict[str, object]] = []
    others = 0
    for number, one, other in asked:
        control = control_verdict(one, other)
        if control is not None:
            answers.append({"pair": number, "reason": "a control", "verdict": control})
            continue
        others += 1
        answer = given.get(others, [])
        for one_answer in answer if isinstance(answer, list) else [answer]:
            answers.append({"pair": number, **one_answer})
    return answers


@pytest.mark.parametrize(
    ("given", "confirmed", "refused"),
    [
        (  # reordered, one skipped: the answered ones are used, the skipped one waits
            {3: {"verdict": "same", "reason": "both pnpm"}, 1: {"verdict": "same"}},
            ["key-0", "key-2"],
            "",
        ),
        (
            {1: {"verdict": "maybe", "reason": "hard to say"}, 2: {"verdict": "same"}},
            ["key-1"],
            "a verdict of no kind: 'maybe'",
        ),
        (
            {1: {"verdict": "same"}, 2: {"pair": 99, "verdict": "same", "reason": "x"}},
            ["key-0"],
            "an answer for pair 99, which was not asked",
        ),
        (
            {1: {"verdict": "same"}, 2: [{"verdict": "same"}, {"verdict": "neither"}]},
            ["key-0"],
            "that disagree",
        ),
    ],
    ids=["reordered-and-skipped", "no-verdict", "a-pair-not-asked", "answered-twice"],
)
def test_a_reply_that_skips_reorders_or_garbles_leaves_those_pairs_unasked(
    tmp_path: Path, given: Given, confirmed: list[str], refused: str
) -> None:
    home = Home(tmp_path / "home")

    def reply(asked: list[tuple[int, str, str]]) -> str:  # one a line, the last first
        return "Answers:\n" + "\n".join(json.dumps(a) for a in reversed(_answers(asked, given)))

    report = report_of(PNPM, UTC, PORTS)
    judged = judge_duplicates(report, judge_of(home, PairsModel(raw=reply)), {})
    assert [g.key for g in judged.groups] == confirmed
    assert judged.dismissed == ()
    waiting = len(report.candidates) - len(confirmed)
    assert [g.key for g in judged.candidates] == sorted(
        {"key-0", "key-1", "key-2"} - set(confirmed)
    )
    assert f"{waiting} pair{'s' if waiting > 1 else ''} wait" in judged.judged
    assert refused in judged.judged


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (
            "I think they all look fine.",
            "an answer that is no verdict: 'I think they all look fine.'",
        ),
        ('[{"pair": 1, "verdict": "same", "reason": "' + "x" * 400_000 + '"}]', "a reply of 400,"),
        ('{"pair": 1, "verdict": "same"', "an answer that is no verdict"),
    ],
    ids=["nonsense", "huge", "cut-short"],
)
def test_a_reply_that_cannot_be_read_confirms_nothing_and_says_why(
    tmp_path: Path, reply: str, said: str
) -> None:
    home = Home(tmp_path / "home")
    report = report_of(PNPM, UTC)
    judged = judge_duplicates(report, judge_of(home, PairsModel(raw=lambda asked: reply)), {})
    assert judged.groups == () and judged.candidates == report.candidates
    assert "could not answer a control pair" in judged.judged
    assert said in judged.judged


def test_a_reason_or_a_model_name_with_control_characters_is_kept_visible(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")

    def reply(asked: list[tuple[int, str, str]]) -> str:
        given: Given = {1: {"verdict": "same", "reason": "both \x1b[31mpnpm\u202e"}}
        return json.dumps(_answers(asked, given))

    provider = PairsModel(raw=reply)
    judged = judge_duplicates(report_of(PNPM), judge_of(home, provider), {})
    [group] = judged.groups
    assert group.reason == "both \\x1b[31mpnpm\\u202e"


def test_the_wider_net_holds_what_three_runs_ask_then_a_run_asks_only_what_changed(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    services = ["billing", "search", "gateway", "ledger", "mailer", "tracker", "notifier"]
    services += ["scheduler", "exporter", "importer", "renderer"]

    def home_of(last: str) -> list[Document]:
        lines = [f"- The {name} service ships with the zeta chart.\n" for name in services]
        other = [f"- Zeta charts pin the {name} image.\n" for name in services[:-1]]
        return [
            memory("global", "charts.md", "# Charts\n\n" + "".join(lines)),
            memory("project:api", "images.md", "# Images\n\n" + "".join(other) + f"- {last}\n"),
        ]

    engine = DuplicatesEngine(home)
    calls = []
    same, changed = "Zeta charts pin every image.", "Zeta charts pin no image tag."
    for last in (same, same, same, same, changed):
        documents = home_of(last)
        report = engine.report_of(documents).replaced(files_read=1)
        wider = wider_duplicates(report, engine.read)
        assert len(wider) == 60  # three runs of one call of 20 pairs
        provider = PairsModel(by_words({}))
        judge = judge_of(home, provider, files=1)
        judge_duplicates(report, judge, engine.said, wider)
        judge.close()
        calls.append((provider.calls, len(provider.statements()), judge.stats.waiting))
    # The two notes, a candidate of whole notes, are one pair more than the net's 60: it is
    # asked first and the net's last pair waits a fourth run; a changed line asks its own
    # pairs, and the notes again (their content changed).
    assert calls == [(1, 20, 41), (1, 20, 21), (1, 20, 1), (1, 1, 0), (1, 12, 0)]
