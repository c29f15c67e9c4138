"""One statement in two memories, found by what it says (issue 83): the same rule or fact
reworded in global memory and a project's is a `rule` group; a frame filled with another
thing or value, a template's header, an index's entry, a question or a contradiction is
not (tests/support/statement_cases.py, written apart from the trust corpus)."""

from __future__ import annotations

from pathlib import Path

from memtab.check.documents import Document
from memtab.store.home import Home
from memtab.trust.duplicates.clauses import a_rule, own_clause
from memtab.trust.duplicates.engine import DuplicatesEngine
from memtab.trust.duplicates.meaning import denied
from memtab.trust.duplicates.records import DuplicateGroup
from support.meaning_cases import FILLERS
from support.seeded_memories import memory
from support.statement_cases import CASES, notes

BACKGROUND = [
    memory("global" if i % 2 else "project:bg", f"bg-{i}.md", f"# Bg {i}\n\n- {line}\n")
    for i, line in enumerate(FILLERS)
]


def groups(tmp_path: Path, *documents: Document) -> list[DuplicateGroup]:
    return DuplicatesEngine(Home(tmp_path)).groups_of([*documents, *BACKGROUND])


def joined(found: list[DuplicateGroup], *documents: Document) -> bool:
    return any({d.path for d in documents} <= {m.path for m in g.members} for g in found)


def said_together(tmp_path: Path, one: str, other: str, *fillers: str) -> bool:
    """Whether a global note saying `one` and a project's saying `other`, each with a filler
    line of its own (and `fillers`, one a note), are in one group."""
    a_more = "".join(f"- {line}\n" for line in fillers[0::2])
    b_more = "".join(f"- {line}\n" for line in fillers[1::2])
    a = memory("global", "a.md", f"# A\n\n- {one}\n- {FILLERS[0]}\n{a_more}")
    b = memory("project:acme-api", "b.md", f"# B\n\n- {other}\n- {FILLERS[1]}\n{b_more}")
    return joined(groups(tmp_path, a, b), a, b)


def test_the_same_statement_in_other_words_is_found_and_a_near_miss_is_not(
    tmp_path: Path,
) -> None:
    """Measured on this set (docs/trust-quality.md "Meaning"): 7 of 10 rewordings found
    (3 before statements were compared by what they say), no near miss; an index's entry,
    a question, code alone or a record's field saying a rule's words is no statement of
    it."""
    made = notes()
    found = {"duplicate": 0, "neither": 0}
    for number, case in enumerate(CASES):
        pair = [memory(place, name, text) for _, place, name, n, text in made if n == number]
        found[case.expected] += joined(groups(tmp_path / str(number), *pair), *pair)
    assert found["duplicate"] >= 7
    assert found["neither"] == 0
    topic = memory(
        "claude:acme-api",
        "feedback_testing.md",
        "# Testing\n\n- Run the api suite with `pnpm test --filter api` before pushing.\n",
    )
    index = memory(
        "claude:acme-api",
        "MEMORY.md",
        "- [feedback_testing.md](feedback_testing.md) — run the api suite with pnpm test "
        "before pushing\n- [user_role.md](user_role.md) — Dana, backend lead\n"
        "- [reference_sentry.md](reference_sentry.md) — where errors go\n",
    )
    asked = memory("global", "q.md", "# Q\n\n- Should the api suite run before pushing?\n")
    code = memory("global", "b.md", "# B\n\n- `PAY-1432-api-suite-before-pushing`\n")
    found = groups(tmp_path / "index", topic, index, asked, code)
    assert not joined(found, topic, index)  # an index's entry restates its topic
    assert not joined(found, topic, asked)  # a question states nothing
    assert not joined(found, topic, code)  # nor a ticket in code alone
    handoffs = [
        memory("workspace", f"handoff-{day}.md", f"# Handoff\n\nschema_version: 1.0.0\n\n{said}\n")
        for day, said in ((1, FILLERS[2]), (2, FILLERS[3]))
    ]
    assert not joined(groups(tmp_path / "fields", *handoffs), *handoffs)  # a record's field


def test_a_template_s_header_is_no_rule(tmp_path: Path) -> None:
    """A sentence opening four unrelated notes is their template's, not a rule said four
    times (issue 83's "Context: harbor-api — …" atop notes of other things)."""
    header = "Context: acme-api runs Django, Postgres and Celery. Owner: Priya.\n\n"
    bodies = (
        "- The PDF renderer needs fonts installed in the image.",
        "- Celery beat runs the cleanup task hourly.",
        "- The admin is at /admin, behind SSO.",
        "- Priya reviews every migration.",
    )
    documents = [
        memory("project:acme-api", f"n{i}.md", f"# Note {i}\n\n{header}{body}\n")
        for i, body in enumerate(bodies)
    ]
    assert [g for g in groups(tmp_path, *documents) if g.kind == "rule"] == []


def test_statements_that_disagree_are_never_one(tmp_path: Path) -> None:
    """Alike in words, at odds in what they say: another number, another command, a line
    whose rule is the opposite ("Don't rebase onto main. We merge main into the branch…"),
    another number stated, the first's only in an aside ("listens on 5433 (… has 5432)")."""
    for one, other in (
        ("The exports queue retries 3 times with exponential backoff.",
         "The exports queue retries 5 times with exponential backoff and a jitter."),
        ("Sign every commit (`git commit -S`), the org rejects unsigned pushes.",
         "Sign every release tag (`git tag -s`), the org rejects unsigned pushes."),
        ("Always rebase your branch on main before review, so the diff stays clean.",
         "Don't rebase onto main. We merge main into the branch; the review diff stays clean."),
        ("Postgres (compose) listens on 5432",
         "Postgres in compose listens on 5433 on the host (my system Postgres has 5432)."),
        ("Keycloak runs on port 8180 locally",
         "Keycloak runs on port 8181 locally in the compose profile (8180 is the old one)."),
    ):  # fmt: skip
        assert not said_together(tmp_path, one, other), (one, other)


def test_a_statement_and_its_denial_are_never_one(tmp_path: Path) -> None:
    """The same words, one denying what the other says ("is not shared", "never retries"),
    are at odds; a denial of something the other does not say ("…, never floats") or one
    each ("Use pnpm, not npm" / "Prefer pnpm over npm") is no denial of the other."""
    for one, other, together in (
        ("The cache is shared between workers.",
         "The cache is not shared between workers, each one builds its own.", False),
        ("The exports queue retries failed jobs.",
         "The exports queue never retries failed jobs; they go to the dead-letter queue.",
         False),
        ("The staging database is reset every night.",
         "The staging database isn't reset every night any more.", False),
        ("Store money as integer cents.", "Store money as integer cents, never floats.", True),
        ("Never log full credit card numbers; mask all but the last four digits.",
         "Card numbers must be masked in logs, except the last 4 digits.", True),
    ):  # fmt: skip
        assert said_together(tmp_path, one, other) is together, (one, other)


def test_a_statement_said_whole_in_a_longer_one_is_one(tmp_path: Path) -> None:
    """Every word of a short statement said in a longer one, and a thing few memories name
    among them, is the same statement ("Table-driven tests." of a note on Go code in "In Go
    code, prefer table-driven tests even for two cases…"); not when the longer says when it
    holds ("only when", "unless"), nor tells as past what the shorter states ("revoked")."""
    go = ("Go code: wrap errors with context.", "Deploys go out on Tuesdays.")
    assert said_together(
        tmp_path / "go",
        "Table-driven tests.",
        "In Go code, prefer table-driven tests even for two cases; it makes the third one cheap.",
        *go,
    )
    for one, other, together in (
        ("Squash commits on merge.",
         "We squash commits on merge so the history on the default branch reads as one entry"
         " per PR.", True),
        ("Squash commits on merge.",
         "We squash commits on merge only when the PR has a single author, so the history on"
         " the default branch reads as one entry per PR.", False),
        ("Table-driven tests.",
         "In Go code, prefer table-driven tests unless the cases share no setup; it makes the"
         " third one cheap.", False),
    ):  # fmt: skip
        assert said_together(tmp_path, one, other) is together, (one, other)
    rule = "A reused refresh token revokes the whole family (theft detection)."
    told = (
        "Two browser tabs refreshing within a few milliseconds both read the same row; the"
        " second rotation looked like a reused refresh token, so the theft detection revoked"
        " the whole family and the user was logged out (401)."
    )
    assert not said_together(tmp_path, rule, told, FILLERS[2], FILLERS[3])


def test_a_verb_s_irregular_past_is_the_verb(tmp_path: Path) -> None:
    """ "The Docker image is built with BuildKit" says "Build the Docker image with BuildKit":
    an irregular verb's past forms are its stem, as a regular one's are ("pinned": pin)."""
    for one, other in (
        ("Build the Docker image with BuildKit.", "The Docker image is built with BuildKit."),
        ("Rebuild the search index after a schema change.",
         "The search index is rebuilt after every schema change."),
        ("Take a database snapshot before each migration.",
         "A database snapshot is taken before each migration."),
    ):  # fmt: skip
        assert said_together(tmp_path, one, other), (one, other)


def test_a_statement_limited_or_no_longer_so_is_not_one_said_always(tmp_path: Path) -> None:
    """Alike in words, but one limits what the other says always ("…, but npm for the docs
    site", "only when the schema changed", "except the billing ones") or says it held once
    ("used to be"): not one statement; a time the fact happened is no limit ("when the
    token had been re-signed")."""
    for one, other, together in (
        ("Use pnpm for the web app.", "Use pnpm for the web app, but npm for the docs site.",
         False),
        ("Run the integration tests before merging.",
         "Run the integration tests before merging only when the schema changed.", False),
        ("Feature flags live in Unleash.",
         "Feature flags live in Unleash, except the billing ones which are in LaunchDarkly.",
         False),
        ("The webhook signature is verified with HMAC-SHA256.",
         "The webhook signature used to be verified with HMAC-SHA256; we moved to Ed25519.",
         False),
        ("The export job double-counted refunds: the fix sums them once per invoice.",
         "The export job double-counted refunds when an invoice was edited; the fix sums them"
         " once per invoice.", True),
    ):  # fmt: skip
        assert said_together(tmp_path, one, other) is together, (one, other)


def test_a_rule_narrowed_is_not_the_rule(tmp_path: Path) -> None:
    """A rule of the same polarity whose action is the other's and more — more the other
    never says — holds in fewer cases ("… from forks", "… before a release freeze"): not
    one rule; the more said elsewhere in the other ("Tests for auth: run …") is."""
    for one, other, together in (
        ("Always squash-merge PRs.", "Always squash-merge PRs from forks.", False),
        ("Don't edit `CHANGELOG.md` by hand.",
         "Don't edit `CHANGELOG.md` by hand before a release freeze.", False),
        ("Never log `Authorization` headers.",
         "Never log `Authorization` headers or cookies at debug level.", False),
        ("Tests for auth: run `pnpm test --filter auth`.",
         "Run `pnpm test --filter auth` to test auth.", True),
    ):  # fmt: skip
        assert said_together(tmp_path, one, other) is together, (one, other)


def test_sentences_sharing_only_a_subject_are_not_one(tmp_path: Path) -> None:
    """A person's profile and a line of what they do, a service's link and what is done
    there: one subject, two claims (issue 83's false groups); the same claim of one
    person in other words is one."""
    assert not said_together(
        tmp_path / "maintainer",
        "Marta Kowalczyk — lead maintainer of the importer, merges and cuts releases.",
        "Jonas helps with reviews of the importer; Marta Kowalczyk is the lead.",
    )
    assert not said_together(
        tmp_path / "link",
        "Stripe: payouts and card payments, account `acct_ledger`.",
        "Stripe webhooks for payouts and card payments must have their signature checked.",
    )
    assert said_together(
        tmp_path / "same",
        "Marta Kowalczyk reviews every change to the importer's parser.",
        "Every change to the importer's parser is reviewed by Marta Kowalczyk.",
    )


def test_a_path_at_a_sentence_s_end_is_the_path(tmp_path: Path) -> None:
    """A path ending a sentence ("… under infra/.") is the path, as inside one ("… under
    infra/ need …"): the stop is no part of it, and two notes saying one rule of it are
    one."""
    assert said_together(
        tmp_path,
        "Anything under infra/ needs Chen's review.",
        "Ask Chen to review anything under infra/.",
    )


def test_a_rule_in_other_words_of_the_same_meaning_is_one(tmp_path: Path) -> None:
    """A verb's noun, British spelling, a compound in two words and a synonym of the action
    say what the rule says with the verb, in American spelling, in one word; a count's
    "one" is 1, not 3."""
    for one, other in (
        ("Explain every schema change in the PR.",
         "Every schema change needs an explanation in the PR."),
        ("Optimise the tile renderer only after profiling it.",
         "Optimize the tile renderer only after profiling it."),
        ("Retries back off exponentially.", "Retries use exponential backoff."),
        ("Remove stale feature flags after each release.",
         "Delete stale feature flags after each release."),
    ):  # fmt: skip
        assert said_together(tmp_path, one, other), (one, other)
    assert not said_together(
        tmp_path,
        "Security reviews of the payment service finish within one working day.",
        "Security reviews of the payment service finish within three working days.",
    )


def test_a_rule_said_with_where_it_holds_to_whom_or_as_a_requirement_is_one(
    tmp_path: Path,
) -> None:
    """What points at the memory's own place ("in this project", the project's name as its
    owner), whom a rule is told to ("the agent must"), two negations ("never X without Y")
    and a prohibition said after its thing ("X is banned") or with "prefer X to Y" say the
    rule; a rule said of one place only ("in the preview server only"), or denied, is not
    it."""
    for one, other, together in (
        ("Never rebase a branch someone else pushed to.",
         "In this project, never rebase a branch someone else pushed to.", True),
        ("Keep the public HTTP API free of breaking changes.",
         "acme-api's public HTTP API is kept free of breaking changes.", True),
        ("Never merge a database migration without a down step.",
         "Every database migration is merged with a down step.", True),
        ("Monkeypatching `time.time` is banned; pass a clock in.",
         "Pass a clock in rather than monkeypatching `time.time`.", True),
        ("The agent must always quote shell variables in scripts.",
         "Quote shell variables in scripts.", True),
        ("Prefer dataclasses to plain dicts for config records.",
         "Use dataclasses instead of plain dicts for config records.", True),
        ("Cache the rendered map tiles for a day.",
         "Cache the rendered map tiles for a day in the preview server only.", False),
        ("Retry the nightly upload after a network timeout.",
         "Do not retry the nightly upload after a network timeout.", False),
        ("Outgoing webhooks always carry a signature made with the shared secret.",
         "Never send an outgoing webhook without a signature made with the shared secret.",
         True),
        ("Hotfixes go to production on Fridays without a review.",
         "Never send hotfixes to production on Fridays without a review.", False),
        ("Force-pushing to the release branches is banned.",
         "Force-pushing to the release branches is not banned.", False),
        ("The release branch is deployed to staging on Fridays.",
         "Never deploy the release branch to staging on Fridays without asking.", False),
    ):  # fmt: skip
        assert said_together(tmp_path, one, other) is together, (one, other)


def test_what_a_ban_names_is_not_denied_by_saying_so_and_the_ban_is() -> None:
    """ "Rather than mocking" does not deny "Mocking … is banned" (both say no); "is not
    banned" denies "is banned"."""
    banned = "Mocking `datetime` is banned; inject a clock instead."
    assert not denied("Inject a clock rather than mocking `datetime`.", banned)
    assert denied(
        "Force-pushing to release branches is not banned.",
        banned.replace("Mocking `datetime`", "Force-pushing to release branches"),
    )


def test_a_rule_s_own_clause_leaves_out_its_reason_example_aside_and_command() -> None:
    assert own_clause("Squash fixup commits before merging, because reviewers read it.") == (
        "Squash fixup commits before merging"
    )
    assert own_clause("Squash them before the merge — `git rebase -i` does it.") == (
        "Squash them before the merge"
    )
    assert own_clause("Never paste emails into prompts; legal flagged it.") == (
        "Never paste emails into prompts"
    )
    assert own_clause("Keep secrets out of logs, e.g. tokens and cookies.") == (
        "Keep secrets out of logs"
    )
    assert own_clause("Add an index for foreign keys, Postgres doesn't create one") == (
        "Add an index for foreign keys"
    )
    assert own_clause("Run the suite before a release, it takes 12 minutes.") == (
        "Run the suite before a release"
    )
    assert own_clause("Every call gets a timeout (we use `httpx.Timeout`)") == (
        "Every call gets a timeout"
    )
    # a label is what the line is of; a condition is the rule's; a list is what it names
    assert own_clause("Go style: wrap errors with context, e.g. `%w`.") == (
        "Go style: wrap errors with context"
    )
    assert own_clause("If the build fails, ask first.") == "If the build fails, ask first."
    assert own_clause("Never commit `.env` files, keys or certificates.") == (
        "Never commit `.env` files, keys or certificates."
    )


def test_a_fact_and_the_rule_said_of_it_is_no_rule_s_own_clause() -> None:
    """What follows a fact can be its point: the fact is no rule, and the two together are
    the statement."""
    fact = "The CSV import drops messages after a reconnect; paginate the table first."
    assert own_clause(fact) == fact and not a_rule(fact)
    assert a_rule("Squash fixup commits before merging, because reviewers read it.")
    assert not a_rule("Gotcha: the export drops rows — the remedy is to stream it.")


def test_a_rule_with_a_reason_example_or_command_beside_it_is_the_rule_without(
    tmp_path: Path,
) -> None:
    """Two memories' rules, each with its own reason, example or command beside it
    (tests/support/duplicate_claims.py `ATTACHED`): their own clauses find them, and what
    they say is read there; two rules sharing only a reason or an example, or a rule and
    its opposite with the same reason, stay apart."""
    assert said_together(
        tmp_path / "squash",
        "Squash fixup commits before merging, because reviewers read the history commit by commit.",
        "Squash your fixup commits before the merge — `git rebase -i --autosquash main` "
        "does it in one go.",
    )
    assert said_together(
        tmp_path / "emails",
        "Never paste customer emails into prompts; legal flagged it after the March audit.",
        "Customer emails must never be pasted into a prompt, e.g. when asking for help with "
        "a support ticket.",
    )
    assert not said_together(
        tmp_path / "example",
        "Keep secrets out of log lines, e.g. tokens, passwords and session cookies.",
        "Keep secrets out of error messages, e.g. tokens, passwords and session cookies.",
    )
    assert not said_together(
        tmp_path / "reason",
        "Translate every new UI string, otherwise the German build falls back to English.",
        "Review every new UI string, otherwise the German build falls back to English.",
    )
    assert not said_together(
        tmp_path / "opposite",
        "Squash fixup commits before merging, because reviewers read the history commit by commit.",
        "Don't squash fixup commits before merging; reviewers read the history commit by commit.",
    )


def test_pairs_found_by_their_own_clauses_are_kept_for_the_next_run(tmp_path: Path) -> None:
    """A warm run over the same files answers with the pairs the last found (their own
    clauses alike, the statements not), not searching again."""
    a = memory("global", "a.md", "# A\n\n- Never paste customer emails into prompts; legal "
               "flagged it after the March audit.\n")  # fmt: skip
    b = memory("project:acme-api", "b.md", "# B\n\n- Customer emails must never be pasted "
               "into a prompt, e.g. when asking for help with a support ticket.\n")  # fmt: skip
    found = groups(tmp_path, a, b)
    assert joined(found, a, b)
    assert groups(tmp_path, a, b) == found
