"""The rails a model's new memory lines pass (issue 82): what they refuse, and what they
leave alone — a fact, a command, a fix, a rule the user did state."""

from __future__ import annotations

import pytest

from memtab.trust.rails import (
    ASKS,
    HOLDS_A_SECRET,
    IN_THE_FIRST_PERSON,
    PUTS_WORDS_IN_THE_USERS_MOUTH,
    RESTATES_INSTRUCTIONS,
    SAYS_NOTHING,
    Rails,
    is_standing_rule,
)
from memtab.writer.job.rails import UNHEARD, UNSTATED_RULE, writer_instructions
from memtab.writer.offline.directives import directives_in

SAID = [
    "Add a bottle renderer to the worker and wire it up",
    "Now write the tests and make them pass",
    "run the suite now",
    "Always use bun, never npm.",
    "I prefer tabs over spaces in Go files.",
]


HEARD = [
    *SAID,
    "bun test",
    "12 pass",
    "The bottle renderer lives in src/render/bottle.ts",
    "hello.py",
]


def rails() -> Rails:
    rules = [rule for text in SAID for rule in directives_in(text)]
    told = f"{writer_instructions()}\nmain\n/src/acme\n/memories/workspace/notes.md"
    heard = "\n".join(HEARD)
    return Rails(told, rules, SAID, unstated_rule=UNSTATED_RULE, heard=heard, unheard=UNHEARD)


def refused(text: str) -> dict[str, str]:
    lines = text.split("\n")
    return {found.line: found.why for found in rails().refusals(text, range(len(lines))).values()}


REFUSED = {
    # the writer's own instructions, as the 1.5B and 0.5B models wrote them (issue 82)
    "- Durable lessons specific to this workspace or project": RESTATES_INSTRUCTIONS,
    "- Each note must stand on its own: name the file, command, API or setting it is about": (
        RESTATES_INSTRUCTIONS
    ),
    "## What to record": RESTATES_INSTRUCTIONS,
    "- Keep the file tidy Markdown: short bullets under sections such as": RESTATES_INSTRUCTIONS,
    "<memory-file>": RESTATES_INSTRUCTIONS,  # the 1.5B, above its notes
    "The whole new file": RESTATES_INSTRUCTIONS,  # the 0.5B, from a tool's answer
    "/memories/workspace/notes.md": RESTATES_INSTRUCTIONS,  # the 1.5B and 0.5B, as a note
    # one-off requests made standing rules
    "- Always run the suite before committing": UNSTATED_RULE,
    "- always run typecheck": UNSTATED_RULE,
    "- Never push without running the tests": UNSTATED_RULE,
    "- from now on, if the worker service fails, log the error and retry": UNSTATED_RULE,
    "- remember to add the bottle renderer to the worker service": UNSTATED_RULE,
    "- Make sure to lint the project": UNSTATED_RULE,
    # words put in the user's mouth
    "- The user prefers small commits": PUTS_WORDS_IN_THE_USERS_MOUTH,
    "- User wants every function documented": PUTS_WORDS_IN_THE_USERS_MOUTH,
    "- I prefer React over Vue": IN_THE_FIRST_PERSON,
    "- I never repeat failures.": IN_THE_FIRST_PERSON,  # the 1.5B
    "- Great! Now let me start with the architecture design.": IN_THE_FIRST_PERSON,
    "- Can you add a task for security review as well?": ASKS,
    # noise
    "- None.": SAYS_NOTHING,
    "REDACTED_SECRET": SAYS_NOTHING,  # the 0.5B
    "[REDACTED_NEW_FILE_SHA]": SAYS_NOTHING,  # the 0.5B, a Codex rollout's placeholder
    "src/render/bottle.ts": SAYS_NOTHING,  # a path alone, as the 0.5B wrote one
    "<tool_response>": SAYS_NOTHING,  # the 1.5B, as a whole file
    "- </tool_call>": SAYS_NOTHING,
    "- Please review and refine the content as needed.": UNHEARD,
    "- The project is a Flask application with a simple REST API.": UNHEARD,
    "- `goodbye.py` says goodbye": UNHEARD,
    # a secret
    "- the schema password is hunter2": HOLDS_A_SECRET,
    "- deploy with GH_TOKEN=ghp_R4nd0mT0k3nV4lu3Xy9Zq8Wp7Lm6Kj5Hg4Fd3S": HOLDS_A_SECRET,
}
KEPT = [
    "- Always use `bun`, never npm",  # the user said it as a standing rule
    "- The user prefers tabs over spaces in Go files",  # and this
    "- I prefer tabs in Go files",
    "- `bun test` runs the suite (12 tests)",
    "- The bottle renderer always lives in src/render/bottle.ts",  # a fact, not a rule
    "- The bottle renderer lives in src/render/bottle.ts",
    "## Commands that work",
    "## Directives",
    "- `hello.py` holds the hello function",
    "- Run the tests with `bun test` (12 pass)",
    "|--------|------|",  # a table's delimiter row
    "`hello.py`",
    "Rebase.",  # a word alone is a (short) note
    "",
]


@pytest.mark.parametrize(("line", "why"), REFUSED.items())
def test_a_harmful_line_is_refused_with_why(line: str, why: str) -> None:
    assert refused(line) == {line: why}


@pytest.mark.parametrize("line", KEPT)
def test_a_true_note_passes(line: str) -> None:
    assert refused(line) == {}


def test_an_item_under_a_heading_of_rules_is_a_rule_and_a_private_key_is_refused_whole() -> None:
    text = (
        "## Directives\n- Run the suite now\n- Use bun, never npm\n"
        "## Notes\n-----BEGIN RSA PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0B\n"
        "-----END RSA PRIVATE KEY-----\n- tail\n"
    )
    assert refused(text) == {
        "- Run the suite now": UNSTATED_RULE,
        "-----BEGIN RSA PRIVATE KEY-----": HOLDS_A_SECRET,
        "MIIEvQIBADANBgkqhkiG9w0B": HOLDS_A_SECRET,
        "-----END RSA PRIVATE KEY-----": HOLDS_A_SECRET,
    }
    assert is_standing_rule("Use pnpm", under="Preferences")
    assert not is_standing_rule("Use pnpm", under="Commands that work")
