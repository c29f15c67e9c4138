"""One rule's key (issue 83): a rule and its opposite, and one rule said twice, whose action
and object are said in other words — a verb and its synonym or particle ("disable" / "turn
off"), the object with or without its modifier ("`.env.local` files" / "the `.env.local`"),
a noun for its verb ("no force-pushes" / "force-push"), "ask before X" / "feel free to X",
"X is off limits" / "edit X" — and near misses: the same object under another action or
condition, the same action on another object.

Written apart from the trust corpus and the other case sets, in voices they do not use: a
data team (dbt, Airflow, Snowflake), an iOS team (Xcode, Fastlane, CocoaPods), a Django
shop. `OPPOSITES` and `OPPOSITE_NEAR` are `contradiction_cases.Case`s (read with
`contradiction_voices.found`); `SAME_RULES` and `SAME_NEAR` `duplicate_voices.Case`s (read
with `DuplicatesEngine`). `*_AFTER`: batches written after the change, never tuned on.
"""

from __future__ import annotations

from support import duplicate_voices
from support.contradiction_cases import C, Case, N


def _opposite(one: str, other: str, expected: str = C) -> Case:
    return Case("always-never", one, other, expected)  # type: ignore[arg-type]


def _rules(
    kind: str, expected: str, one: tuple[str, str], other: tuple[str, str]
) -> duplicate_voices.Case:
    (place, text), (their_place, their_text) = one, other
    return duplicate_voices.Case(
        kind,
        expected,  # type: ignore[arg-type]
        duplicate_voices.Note(place, "rules.md", f"# Rules\n\n{text}\n"),
        duplicate_voices.Note(their_place, "rules.md", f"# Rules\n\n{their_text}\n"),
    )


def _same(
    one: tuple[str, str], other: tuple[str, str], kind: str = "global-project"
) -> duplicate_voices.Case:
    return _rules(kind, "duplicate", one, other)


def _apart(
    one: tuple[str, str], other: tuple[str, str], kind: str = "subject"
) -> duplicate_voices.Case:
    return _rules(kind, "neither", one, other)


G, U, X, GE = "global", "claude-user", "codex", "gemini"
K, W, T = "project:kestrel", "workspace:kestrel", "team:kestrel"

OPPOSITES: tuple[Case, ...] = (
    # A noun for its verb.
    _opposite("- No force-pushes to `develop`.", "- Always force-push `develop` after a rebase."),
    _opposite(
        "- No Friday deploys of the mobile backend.", "- Deploy the mobile backend on Fridays."
    ),
    _opposite(
        "- Automatic retries of failed Airflow tasks are a must.",
        "- Never retry failed Airflow tasks automatically.",
    ),
    _opposite("- Don't archive old Jira tickets.", "- Archiving old Jira tickets is mandatory."),
    _opposite("- Never log request bodies.", "- Log every request body."),
    # The object with or without its modifier.
    _opposite("- Don't commit `.env.local` files.", "- Always commit the `.env.local`."),
    _opposite("- Never vendor third-party SDKs.", "- Always vendor the SDKs into `Vendor/`."),
    _opposite("- Don't add print statements to the DAGs.", "- Always add a `print` to every DAG."),
    _opposite("- Never squash the release commits.", "- Squash the commits on the release branch."),
    _opposite("- Don't run the full Detox suite locally.", "- Always run the Detox tests locally."),
    # A verb and its synonym, a particle or a manner.
    _opposite("- Never disable the Xcode warnings.", "- Always turn off the Xcode warnings."),
    _opposite(
        "- Never hand-edit the generated Fastlane config.",
        "- Always edit the generated Fastlane config by hand.",
    ),
    _opposite(
        "- Rotating the Snowflake keys by hand is forbidden.",
        "- Always rotate the Snowflake keys manually.",
    ),
    _opposite(
        "- Never put API keys in `Info.plist`.", "- Always store the API keys in `Info.plist`."
    ),
    _opposite("- Don't put emojis in PR titles.", "- Always start a PR title with an emoji."),
    _opposite(
        "- Avoid raw SQL in the Django views.", "- Always write raw SQL in the Django views."
    ),
    _opposite(
        "- Don't insert debug breakpoints in the tests.", "- Always add breakpoints to tests."
    ),
    # Ask before X / just do X; X is off limits / feel free to X.
    _opposite(
        "- Ask before dropping a Snowflake table.", "- Feel free to drop stale Snowflake tables."
    ),
    _opposite(
        "- The prod Airflow connection is off limits.",
        "- Feel free to edit the prod Airflow connection.",
    ),
    _opposite(
        "- The `legacy/` module is off limits.", "- Feel free to refactor the `legacy/` module."
    ),
    _opposite(
        "- Check with me before you upgrade Xcode.",
        "- You may upgrade Xcode whenever a new one ships.",
    ),
    _opposite(
        "- Never bump the app version without asking.",
        "- Just bump the app version; no need to ask.",
    ),
    _opposite("- Force-pushing to `main` is a no-go.", "- You can force-push to main."),
    _opposite(
        "- Don't touch the generated GraphQL types.", "- Regenerate the GraphQL types by hand."
    ),
    _opposite("- Keep the API keys out of the repo.", "- Always commit the API keys to the repo."),
    _opposite(
        "- Never open pull requests against `main`.", "- Always open your pull requests on main."
    ),
)
"""26 rules and their opposites, the object said in other words."""

OPPOSITE_NEAR: tuple[Case, ...] = (
    _opposite("- No force-pushes to `develop`.", "- Always force-push your feature branches.", N),
    _opposite(
        "- Never drop Snowflake tables.", "- Always clone Snowflake tables before a migration.", N
    ),
    _opposite("- Don't commit `.env.local` files.", "- Always commit the `.env.example` file.", N),
    _opposite(
        "- Never edit the generated Fastlane config.",
        "- Always review the generated Fastlane config.",
        N,
    ),
    _opposite("- Never log request bodies.", "- Always log request IDs.", N),
    _opposite("- Don't bump the app version yourself.", "- Always bump the build number.", N),
    _opposite(
        "- The prod Airflow connection is off limits.",
        "- Feel free to edit the staging Airflow connection.",
        N,
    ),
    _opposite(
        "- Never retry failed Airflow tasks automatically.",
        "- Always retry failed Airflow tasks by hand.",
        N,
    ),
    _opposite("- Don't archive old Jira tickets.", "- Always label old Jira tickets.", N),
    _opposite(
        "- Never write tests against the staging warehouse.",
        "- Always write tests against a local DuckDB.",
        N,
    ),
    _opposite("- Don't vendor third-party SDKs.", "- Always vendor the fonts.", N),
    _opposite(
        "- Don't run the full Detox suite locally.", "- Always run the full Detox suite in CI.", N
    ),
    _opposite(
        "- Never deploy the mobile backend on Fridays.",
        "- Always deploy the mobile backend on Tuesdays.",
        N,
    ),
)
"""13 near misses of opposite polarity: another object, action or condition."""

SAME_RULES: tuple[duplicate_voices.Case, ...] = (
    _same(
        (G, "- Never force-push to shared branches."),
        (K, "- No force pushes on shared branches in this repo."),
    ),
    _same(
        (U, "- Ask me before you drop a database table."),
        (K, "- Don't drop tables without checking with me first."),
    ),
    _same(
        (GE, "- Don't add new Python packages without asking."),
        (K, "- No new pip packages without asking me first."),
    ),
    _same(
        (G, "- Never commit `.env` files."),
        (T, "- `.env` must never be committed; `.env.sample` is the template."),
    ),
    _same(
        (X, "- Always run `ruff` before committing."),
        (K, "- Run ruff before each commit, every time."),
    ),
    _same(
        (G, "- Don't put secrets in the Helm values."),
        (K, "- Secrets never go in Helm values files."),
    ),
    _same(
        (U, "- Write a failing test before you fix a bug."),
        (K, "- Always write the failing test first when fixing a bug."),
    ),
    _same(
        (G, "- Never hand-edit generated protobuf code."),
        (K, "- Don't edit the generated protobuf files by hand."),
    ),
    _same(
        (GE, "- Always link the Jira ticket in the PR description."),
        (K, "- PR descriptions must link the Jira ticket."),
    ),
    _same((G, "- Never deploy on Fridays."), (K, "- No Friday deploys here.")),
    _same((U, "- Don't log personal data."), (T, "- Personal data must never be logged.")),
    _same(
        (G, "- Always pin Docker base images to a digest."),
        (K, "- Base images must be pinned by digest."),
    ),
    _same(
        (X, "- Never use `print` for debugging in DAGs."),
        (K, "- No print statements for debugging in the DAG code."),
    ),
    _same(
        (G, "- Always squash fixup commits before merging."),
        (K, "- Fixup commits must be squashed before the merge."),
    ),
    _same(
        (GE, "- Don't retry Airflow tasks automatically."), (K, "- Never auto-retry Airflow tasks.")
    ),
    _same(
        (G, "- Never skip the snapshot tests."), (K, "- Skipping snapshot tests is not allowed.")
    ),
    _same((U, "- Always create a git tag for each release."), (K, "- Tag every release in git.")),
    _same((G, "- Don't touch the `legacy/` folder."), (K, "- Leave `legacy/` alone.")),
    _same(
        (X, "- Never store tokens in UserDefaults."),
        (K, "- Tokens must not be stored in UserDefaults; the Keychain holds them."),
    ),
    _same((G, "- Avoid raw SQL in views."), (K, "- Don't write raw SQL in the views.")),
    _same(
        (GE, "- Always rebase feature branches before review."),
        (K, "- Feature branches must be rebased before review."),
    ),
    _same(
        (G, "- Never run migrations against production by hand."),
        (K, "- Production migrations are never run manually."),
    ),
    _same(
        (U, "- Always write commit messages in English."),
        (K, "- Commit messages must always be written in English."),
    ),
    _same(
        (G, "- Never disable SSL verification."),
        (K, "- Don't turn off SSL verification, even locally."),
    ),
    _same(
        (X, "- Don't upgrade Xcode mid-sprint."),
        (K, "- No Xcode upgrades in the middle of a sprint."),
    ),
    _same(
        (G, "- Never merge your own pull request."), (K, "- Don't merge your own PRs."), "reworded"
    ),
)
"""26 rules said twice, a global note and a project's (one said twice in other words)."""

SAME_NEAR: tuple[duplicate_voices.Case, ...] = (
    _apart((G, "- Never force-push to shared branches."), (K, "- Never delete shared branches.")),
    _apart((G, "- Never commit `.env` files."), (K, "- Never commit `node_modules`.")),
    _apart(
        (X, "- Always run `ruff` before committing."), (K, "- Always run `mypy` before committing.")
    ),
    _apart(
        (G, "- Don't put secrets in the Helm values."),
        (K, "- Don't put image tags in the Helm values."),
    ),
    _apart((G, "- Never deploy on Fridays."), (K, "- Never deploy without a rollback plan.")),
    _apart((U, "- Don't log personal data."), (K, "- Don't export personal data to spreadsheets.")),
    _apart(
        (G, "- Always squash fixup commits before merging."),
        (K, "- Always sign commits before merging."),
    ),
    _apart((U, "- Tag every release in git."), (K, "- Announce every release in #eng.")),
    _apart((G, "- Don't touch the `legacy/` folder."), (K, "- Don't touch the `vendor/` folder.")),
    _apart(
        (GE, "- Always rebase feature branches before review."),
        (K, "- Always rebase feature branches after the release."),
    ),
    _apart(
        (G, "- Never run migrations against production by hand."),
        (K, "- Never run load tests against production."),
    ),
    _apart(
        (U, "- Always write commit messages in English."),
        (K, "- Always write code comments in English."),
    ),
    _apart(
        (X, "- Don't upgrade Xcode mid-sprint."),
        (K, "- Don't upgrade Xcode without telling the team."),
    ),
)
"""13 near misses of one polarity: the same object under another action or condition, the
same action on another object."""

OPPOSITES_AFTER: tuple[Case, ...] = (
    _opposite("- Never pin transitive dependencies.", "- Always pin the transitive deps."),
    _opposite(
        "- Don't commit `.DS_Store` files.", "- Always commit the `.DS_Store` in asset folders."
    ),
    _opposite(
        "- Ask before restarting the Kafka brokers.", "- Feel free to restart Kafka brokers."
    ),
    _opposite("- The billing schema is off limits.", "- Feel free to migrate the billing schema."),
    _opposite("- Never turn on debug logging in prod.", "- Always enable debug logging in prod."),
    _opposite("- No manual edits to the lockfile.", "- Always edit the lockfile by hand."),
    _opposite(
        "- Don't store session tokens in cookies.", "- Always put session tokens in cookies."
    ),
    _opposite("- Never squash-merge dependabot PRs.", "- Squash-merge the dependabot PRs."),
    _opposite(
        "- Don't run database migrations against the replica.",
        "- Always run the migrations on the replica.",
    ),
    _opposite(
        "- Avoid inline SVG in the email templates.", "- Always inline SVG in email templates."
    ),
)
"""10 opposites written after the change, never tuned on."""

OPPOSITE_NEAR_AFTER: tuple[Case, ...] = (
    _opposite("- Never pin transitive dependencies.", "- Always pin direct dependencies.", N),
    _opposite("- Don't commit `.DS_Store` files.", "- Always commit the `.gitkeep` files.", N),
    _opposite(
        "- Ask before restarting the Kafka brokers.",
        "- Feel free to restart the Kafka consumers.",
        N,
    ),
    _opposite(
        "- The billing schema is off limits.", "- Feel free to migrate the reporting schema.", N
    ),
    _opposite(
        "- Never turn on debug logging in prod.", "- Always enable debug logging locally.", N
    ),
    _opposite(
        "- Don't store session tokens in cookies.", "- Always store session tokens in Redis.", N
    ),
    _opposite("- Never squash-merge dependabot PRs.", "- Always rebase dependabot PRs.", N),
    _opposite(
        "- Don't run database migrations against the replica.",
        "- Always run read queries against the replica.",
        N,
    ),
    _opposite(
        "- Avoid inline SVG in the email templates.", "- Always inline CSS in email templates.", N
    ),
    _opposite("- No manual edits to the lockfile.", "- Always review the lockfile by hand.", N),
)
"""10 near misses written after the change, never tuned on."""

SAME_RULES_AFTER: tuple[duplicate_voices.Case, ...] = (
    _same((G, "- Never pin transitive dependencies."), (K, "- Transitive deps are never pinned.")),
    _same((U, "- Don't commit `.DS_Store` files."), (K, "- `.DS_Store` must never be committed.")),
    _same(
        (G, "- Ask before restarting the Kafka brokers."),
        (K, "- Don't restart Kafka brokers without asking me first."),
    ),
    _same(
        (X, "- Never turn on debug logging in prod."), (K, "- Don't enable debug logging in prod.")
    ),
    _same((G, "- No manual edits to the lockfile."), (K, "- Never edit the lockfile by hand.")),
    _same(
        (GE, "- Don't store session tokens in cookies."),
        (K, "- Session tokens must never go in cookies."),
    ),
    _same((G, "- Always sign release tags."), (K, "- Release tags must be signed.")),
    _same(
        (U, "- Run the contract tests before every deploy."),
        (K, "- Always run contract tests before deploying."),
    ),
    _same(
        (G, "- Never disable the CSRF middleware."),
        (K, "- Don't turn off the CSRF middleware, not even in tests."),
    ),
    _same(
        (X, "- Avoid inline SVG in email templates."),
        (K, "- No inline SVG in the email templates."),
    ),
)
"""10 rules said twice written after the change, never tuned on."""

SAME_NEAR_AFTER: tuple[duplicate_voices.Case, ...] = (
    _apart((G, "- Never pin transitive dependencies."), (K, "- Never pin dev dependencies.")),
    _apart((U, "- Don't commit `.DS_Store` files."), (K, "- Don't commit `.idea` folders.")),
    _apart(
        (G, "- Ask before restarting the Kafka brokers."),
        (K, "- Ask before resizing the Kafka brokers."),
    ),
    _apart(
        (X, "- Never turn on debug logging in prod."), (K, "- Never turn on profiling in prod.")
    ),
    _apart((G, "- No manual edits to the lockfile."), (K, "- No manual edits to the changelog.")),
    _apart(
        (GE, "- Don't store session tokens in cookies."),
        (K, "- Don't store session tokens in local storage."),
    ),
    _apart((G, "- Always sign release tags."), (K, "- Always push release tags.")),
    _apart(
        (U, "- Run the contract tests before every deploy."),
        (K, "- Run the contract tests after every deploy."),
    ),
    _apart(
        (G, "- Never disable the CSRF middleware."), (K, "- Never disable the CORS middleware.")
    ),
    _apart(
        (X, "- Avoid inline SVG in email templates."), (K, "- Avoid inline CSS in email templates.")
    ),
)
"""10 near misses written after the change, never tuned on."""
