"""Labelled note pairs for `memtab contradictions` (issue 83): a rule and its opposite about
one action whose object the two say in different words — an inflection, a compound split or
joined, a possessive or a plural, a product and its short name, a prefix of a named thing,
the object before or after its verb — and near misses (the same verb on another object, the
same object under another verb, a rule on a narrower case). `AFTER`: a batch written after
the change, never tuned on. Read with `contradiction_voices.found`.
"""

from __future__ import annotations

from support.contradiction_cases import SAME, C, Case, N


def _pair(one: str, other: str, expected: str = C) -> Case:
    return Case("always-never", one, other, expected, SAME)  # type: ignore[arg-type]


CASES: tuple[Case, ...] = (
    # Inflection.
    _pair("- Never rebase shared branches.", "- Rebasing shared branches is required."),
    _pair("- Shared branches must be rebased before merging.", "- Don't rebase shared branches."),
    _pair("- Avoid amending pushed commits.", "- Amend pushed commits when the message is wrong."),
    _pair(
        "- Never squash the commits of a feature branch.",
        "- Feature branch commits always get squashed.",
    ),
    # A compound split, hyphenated or joined.
    _pair(
        "- Don't run the pre-commit hooks on WIP commits.",
        "- Always run precommit hooks on WIP commits.",
    ),
    _pair("- Never force push to main.", "- Force-push to main after a bad merge."),
    _pair("- Forcepushing to main is forbidden.", "- Always force push to main after a rebase."),
    _pair("- Don't run the linter in watch mode.", "- Always run the linter in watchmode."),
    _pair("- Never hot-reload the worker in production.", "- Hotreload the worker in production."),
    _pair(
        "- Don't commit a lock file for the scripts.", "- Always commit a lockfile for the scripts."
    ),
    _pair(
        "- Never write end-to-end tests for the admin panel.",
        "- Always write e2e tests for the admin panel.",
    ),
    # A possessive or a plural.
    _pair("- Never edit the repo's git hooks.", "- Edit the git hooks of the repo freely."),
    _pair("- Don't touch the team's CI secrets.", "- Always update CI secrets yourself."),
    _pair("- Never add a changelog entry by hand.", "- Always add changelog entries by hand."),
    # A product and its short name.
    _pair(
        "- Never cache dependencies in GitHub Actions.", "- Always cache dependencies in Actions."
    ),
    _pair(
        "- Don't run migrations against PostgreSQL directly.",
        "- Always run migrations against Postgres directly.",
    ),
    _pair(
        "- Never deploy with Kubernetes manifests by hand.",
        "- Always deploy with k8s manifests by hand.",
    ),
    _pair(
        "- Don't pin the Node.js version in the Dockerfile.",
        "- Always pin the Node version in the Dockerfile.",
    ),
    _pair("- Never store secrets in the .env file.", "- Always store secrets in the env file."),
    # A prefix of a named thing.
    _pair("- Never put emojis in commit messages.", "- Always use gitmoji in commit messages."),
    _pair("- Don't use TypeScript enums.", "- Always use enums in the TS code."),
    # The object before or after its verb.
    _pair("- Commits are never squashed on merge.", "- Squash commits on merge."),
    _pair("- Never delete merged branches.", "- Branches that are merged always get deleted."),
    _pair("- Don't sign tags.", "- Tags must be signed."),
    _pair("- Never bump the version by hand.", "- Version bumps are always done by hand."),
    # Near misses: the same verb, another object.
    _pair("- Never rebase shared branches.", "- Always rebase feature branches.", N),
    _pair("- Never force push to main.", "- Always force push to your own branch.", N),
    _pair("- Don't skip the pre-commit hooks.", "- Always skip the pre-push hooks on WIP.", N),
    _pair(
        "- Never cache dependencies in GitHub Actions.",
        "- Always cache Docker layers in Actions.",
        N,
    ),
    _pair("- Never squash commits on merge.", "- Always squash migrations before release.", N),
    _pair("- Don't edit generated files.", "- Always edit the generator templates.", N),
    _pair("- Never delete merged branches.", "- Always delete stale preview environments.", N),
    # Near misses: the same object, another verb.
    _pair("- Never rebase shared branches.", "- Always protect shared branches.", N),
    _pair("- Don't amend pushed commits.", "- Always sign pushed commits.", N),
    _pair("- Never edit the repo's git hooks.", "- Always run the git hooks of the repo.", N),
    _pair(
        "- Don't run migrations against PostgreSQL directly.",
        "- Always back up Postgres before migrations.",
        N,
    ),
    _pair(
        "- Never put emojis in commit messages.", "- Always write commit messages in English.", N
    ),
    _pair("- Don't sign tags.", "- Tags must be annotated.", N),
    _pair("- Never bump the version by hand.", "- Always check the version by hand.", N),
    # Near misses: a rule on a narrower case.
    _pair("- Never force push.", "- Force push to your own draft branches.", N),
    _pair("- Never squash commits.", "- Squash fixup commits before review.", N),
    _pair(
        "- Don't use a lock file for the scripts.", "- Always use a lock file for the web app.", N
    ),
    _pair("- Never deploy on Fridays.", "- Always deploy hotfixes on Fridays.", N),
    _pair(
        "- Don't write end-to-end tests for the admin panel.",
        "- Always write end-to-end tests for the checkout.",
        N,
    ),
    _pair("- Never skip CI.", "- Skip CI for docs-only commits.", N),
)
"""25 pairs whose object is said two ways, then 20 near misses."""

AFTER: tuple[Case, ...] = (
    _pair("- Never hard-code the API base URL.", "- Always hardcode the API base URL in tests."),
    _pair("- Don't rewrite the git history of main.", "- Rewriting main's git history is fine."),
    _pair("- Never run the test suite in parallel.", "- Always run the testsuite in parallel."),
    _pair(
        "- Don't write inline styles in the templates.",
        "- Always write in-line styles in the templates.",
    ),
    _pair("- Never auto-format the generated SQL.", "- Always autoformat the generated SQL."),
    _pair("- Don't bump dependencies by hand.", "- Dependency bumps are always done by hand."),
    _pair("- Never squash-merge release PRs.", "- Always squash merge release PRs."),
    _pair("- Don't use the MySQL client directly.", "- Always use the mysql client directly."),
    _pair(
        "- Never check in the node_modules folder.", "- Always check the node modules folder in."
    ),
    _pair("- Don't hot-patch production servers.", "- Hotpatch production servers when paged."),
    _pair("- Never hard-code the API base URL.", "- Always hardcode the test fixtures' dates.", N),
    _pair(
        "- Don't rewrite the git history of main.",
        "- Always rewrite the commit messages of WIP branches.",
        N,
    ),
    _pair("- Never run the test suite in parallel.", "- Always run the linters in parallel.", N),
    _pair("- Never auto-format the generated SQL.", "- Always auto-format the Python code.", N),
    _pair("- Don't use the MySQL client directly.", "- Always use the Redis client directly.", N),
)
"""10 pairs and 5 near misses written after the change, never tuned on."""
