"""English rules from real lines of sessions tuned on (tests/fixtures/shared/claude-code:
FSM1/cipher-box, Safecast/safecast-map-MCP): a rule the user states with a modal about its
subject ("… should always go to …", "… should not be updated ever")."""

from __future__ import annotations

from memtab.writer.offline.answers import facts_in
from memtab.writer.offline.directives import directives_in


def test_a_rule_said_with_should_always_or_never_is_a_directive() -> None:
    # cipher-box, on a pull request CodeRabbit reviewed
    assert directives_in(
        "some very valid points raised by coderabbit on the pr. Please make sure the docs are "
        "consistent. full schema should not be updated ever, it is a point in time snapshot."
    ) == ["Full schema should not be updated ever, it is a point in time snapshot."]
    # safecast: where the MCP server's track links point
    [rule] = directives_in(
        "the url for the tracks references of the MCP server should always go to "
        "simplemap.safecast.org not api.safecast.org."
    )
    assert "should always go to simplemap.safecast.org" in rule
    # a wish of the moment, a question, or what should happen once: no standing rule
    assert directives_in("The build should pass now.") == []
    assert directives_in("Should we always rebuild the index?") == []
    assert directives_in("It should never have failed there.") == []


def test_what_the_code_does_currently_is_the_state_of_the_moment() -> None:
    # safecast: said just before the disclaimer was added to the chat's replies
    assert (
        facts_in(
            "Looking at the code in [index.html](go/cmd/web-chat/index.html), there's no code "
            "currently adding a disclaimer to the responses.",
            concluded=True,
        )
        == []
    )
