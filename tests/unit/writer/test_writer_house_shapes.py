"""A standing rule in the shapes a house says one (issue 95): labelled ("Team convention: …",
"the rule here is …"), "X only, no Y", "X is never Y here", where anything of a kind goes, a
rule closed on "— always", "keep everything …"; a rule too short to name its subject with the
sentence before it, and a ban with what to use instead as one rule."""

from __future__ import annotations

import pytest

from memtab.writer.offline.directives import directives_in, is_directive


@pytest.mark.parametrize(
    "sentence",
    [
        "House convention: every service gets a /healthz route that the load balancer probes.",
        "Heads up — the rule here is every migration gets a down step, ops rolls back by hand.",
        "Signals only, no RxJS subjects in new components.",
        "Time is never a naive datetime here — everything carries its zone.",
        "Anything only the docs build needs goes in the docs extra, not the main dependencies.",
        "Anything the browser doesn't need stays server-rendered in this app.",
        "Every schema change regenerates the client in api/gen — always, CI diffs it.",
        "keep everything UTC in the database layer, convert at the edges.",
        "Keep each event under 64 KiB: the broker drops more, a hard limit for everything we send.",
    ],
)
def test_a_rule_in_a_house_shape_is_a_directive(sentence: str) -> None:
    assert is_directive(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "The rule engine is in src/rules.",
        "Python only, no worries, I'll fix the rest.",  # a remark: "no" opens no ban here
        "It is never going to pass here without the key?",
        "Everything stays as it is.",
        "Thanks for everything you did today.",
    ],
)
def test_what_only_looks_like_one_is_no_directive(sentence: str) -> None:
    assert not is_directive(sentence)


def test_a_short_rule_keeps_the_sentence_that_names_its_subject() -> None:
    text = (
        "This is a Gradle project, there's no Maven anywhere — builds are `./gradlew build`. "
        "Never mvn."
    )
    assert directives_in(text) == [text]
    # a rule that names its subject stands alone; a question before it is not its subject
    assert directives_in("Is this right? Never use mvn here.") == ["Never use mvn here."]


def test_a_ban_and_what_to_use_instead_are_one_rule() -> None:
    text = "We don't use moment.js anywhere. Use date-fns, it tree-shakes. Then fix the header."
    assert directives_in(text) == ["We don't use moment.js anywhere. Use date-fns, it tree-shakes."]
    # "Use …" after a rule that bans nothing, or after a sentence that is no rule, stays apart
    assert directives_in("Always run the linter. Use the repo's config.") == [
        "Always run the linter."
    ]
    assert directives_in("The CI is slow. Use the cache.") == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Queues go through the outbox table, never a direct publish from a handler.",
        "we render dates with Temporal everywhere, never moment or dayjs.",
        "one standing thing: each job logs its run id on start, always with the queue name.",
    ],
)
def test_what_to_do_and_after_a_comma_what_never_to_is_a_directive(sentence: str) -> None:
    assert is_directive(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "ok, never mind the flaky test for now.",
        "I pinged them twice, never got a reply.",
        'Their style guide says "Tabs only, never spaces" and we ignore it.',
        "For comparison, the billing team's README says “Yarn only, never npm installs”.",
    ],
)
def test_a_comma_never_that_is_no_rule_of_the_user_s_is_no_directive(sentence: str) -> None:
    assert not is_directive(sentence)


def test_a_statement_the_next_sentence_calls_the_house_s_way_is_a_rule() -> None:
    text = (
        "Every form posts through the CSRF middleware, no raw fetch calls. That's our convention."
    )
    assert directives_in(text) == [
        "Every form posts through the CSRF middleware, no raw fetch calls."
    ]
    # said of nothing before it, or of a question, it makes no rule
    assert directives_in("That's the house style.") == []
    assert directives_in("Is the CSRF middleware on every form? That's the rule.") == []


def test_a_ground_rule_for_the_repo_is_a_directive() -> None:
    assert is_directive("Ground rule for this repo: every schema change ships with its rollback.")
    assert not is_directive("The ground floor for this repo is the shared NAS.")
