"""`memtab contradictions` on tests/support/value_forms.py (issue 83): one thing given two
values in the forms config and docs write them — an assignment in a code span, a config
fence's key under its sections, a table's cell under its header, a version file, an
image's tag, a bound — found; two things, a change told as history, a bound that holds
the other value, an example, another environment or project, not."""

from __future__ import annotations

from support import contradiction_voices
from support.value_forms import AFTER, CASES, C, N, _claude

NOT_READ = {
    "- Set `GATEWAY_PORT` to 8443.",
    "- Mailhog UI — port 8025",
    'webpack dev:\n\n```json\n{\n  "devServer": {\n    "port": 5173\n  }\n}\n```\n',
    "- The admin panel: https://admin.localhost:8444",
    _claude("ports", "Temporal's web UI is on 8233."),
    "- The payments API, which we run in docker, listens on 4010.",
    "- Bumped Postgres to 16 last sprint.",
    "- Java: 17",
    "- `NEW_CHECKOUT=true` in the shared env file.",
    "- The uploader's chunk size defaults to 8 MB.",
    _claude("gunicorn", "Gunicorn's `workers = 3` in gunicorn.conf.py."),
    "release-please:\n\n```yaml\nrelease:\n  branch: stable\n```\n",
    "- Sentry DSN host: `o123.ingest.sentry.io`",
    "- `test:` `make check` (in the Makefile notes)",
    "compose notes:\n\n```yaml\nservices:\n  api:\n    port: 8000\n  web:\n    port: 3000\n```\n",
}
"""Cases' first notes whose contradiction is not found, and why: the other note's port
has no "on" ("binds 9443") or is told as a change ("→"); "Mailhog UI — port" and "The
admin panel:" open their clause on no service; "devServer" and "dev server", "web" and
"web app", "Temporal UI" and "Temporal's web UI", "Sentry DSN host" and "Sentry host",
"payments API, which…" and "payments API" are other words; "in compose", "in CI images"
and "in the shared env file" say where one value holds; "8 MB" is a size, "16MB" a
setting's string; `workers = 3` names no Gunicorn; a release branch cut from is no key's
value; "`test:` `make check`" labels no command."""
AFTER_NOT_READ = {
    "- Keycloak: `KC_HTTP_PORT=8180`",
    _claude("dev", "Flower's dashboard is on localhost:5555."),
    'package.json:\n\n```json\n{\n  "engines": {\n    "node": ">=22"\n  }\n}\n```\n',
}
"""The same for the batch written after the change (never tuned on): "KC" is no word
of "Keycloak"; "Flower's dashboard" is not "Flower"; "CI runs Node 18" says it for CI."""
found, test_each_kind_s_contradictions_found_and_near_misses_not = contradiction_voices.each_kind(
    CASES, NOT_READ
)

(
    test_what_is_not_read_is_still_not_found,
    test_the_batch_written_after_holds_its_near_misses_and_most_contradictions,
) = contradiction_voices.held_apart(CASES, NOT_READ, AFTER, AFTER_NOT_READ)


def test_the_corpus_is_as_large_as_the_brief_asks() -> None:
    """At least 50 contradictions and 30 near misses before, 15 and 10 after."""
    before = [case.expected for case in CASES]
    after = [case.expected for case in AFTER]
    assert before.count(C) >= 50 and before.count(N) >= 30
    assert after.count(C) >= 15 and after.count(N) >= 10
