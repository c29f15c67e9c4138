"""A variable named for a secret is redacted in every shape agents' sessions print one
(issue 95): `*_PASS`, `*_PASSWD`, `*_PWD`, `*_SECRET`, `*_TOKEN`, `*_KEY` and lower-camel
`storePassword`, set in an env file or a shell (`X=…`, `export X=…`) or given in YAML (`X: …`) —
where a trace dump kept `PG_PASS=<password>` in clear while the same value inside the DSN beside
it was redacted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.unit.writer.events import answer, bash, user

from memtab.redact import REDACTED, redact_json, redact_outgoing
from memtab.store.home import Home
from memtab.store.sidecars.registry import add_workspace, load_registry
from memtab.writer.config import WriterSettings
from memtab.writer.job.run import run_writer
from support.writer_models import WritingModel

VALUE = "Tr0ub4dor-3x-9k"
ENV = (
    f"PG_HOST=warehouse.internal\nPG_PASS={VALUE}\n"
    f"DATABASE_URL=postgresql://etl:{VALUE}@warehouse.internal:5432/etl\n"
)


SECRET_NAMED = [
    f"PG_PASS={VALUE}",
    f"export PG_PASS={VALUE}",
    "ADMIN_PASS=hunter2",
    f'DB_PASSWD="{VALUE}"',
    f"MYSQL_ROOT_PWD={VALUE}",
    f"APP_SECRET: {VALUE}",
    f"SLACK_BOT_TOKEN='{VALUE}'",
    "STRIPE_KEY=rk9Xk29vLq8mZ",
    f"  db_pass: {VALUE}",
    f"x-api-key: {VALUE}",
    f"storePassword={VALUE}",
    f"keyPassword={VALUE}",
    f"clientSecret: {VALUE}",
    f"DB_PASSWORD= {VALUE}",
    f"DB_PASSWORD= {VALUE} # the dev box",
]
NO_SECRET = [
    "PG_PASS=${PG_PASS}",
    "PG_PASS=<password>",
    "DB_PASS=postgres",
    "SSH_KEY=~/.ssh/id_ed25519",
    "JWKS_KEY=https://auth.example/jwks.json",
    "SORT_KEY=created_at",
    'const SORT_KEY = "updatedAt"',
    "PRIMARY_KEY=user_id",
    "ENABLE_TOKEN=true",
    "PGPASSFILE=/home/dev/.pgpass",
    "bypass=Xk29vLq8mZ",
    "storePassword=${KEYSTORE_PASS}",
    "nextPageToken: cursor",
    "showPassword=false",
    "DB_PASSWORD= stays empty in the example.",
    "PGPASSWORD= psql -h db01 warehouse",
]


def test_a_secret_named_variable_is_redacted_and_a_name_given_no_secret_is_not() -> None:
    for text in SECRET_NAMED:
        redacted = redact_outgoing(text)
        assert REDACTED in redacted, text
        assert not any(value in redacted for value in (VALUE, "hunter2", "rk9Xk29vLq8mZ"))
    assert [redact_outgoing(text) for text in NO_SECRET] == NO_SECRET


def test_a_json_member_named_for_a_password_is_redacted() -> None:
    assert redact_json({"pg_pass": VALUE, "sort_key": "created_at"}) == {
        "pg_pass": REDACTED,
        "sort_key": "created_at",
    }


@pytest.mark.expect_log("memtab.writer.job.run", "WARNING", "Memory writer failed.*holds a secret")
def test_the_trace_dump_and_the_notes_keep_no_secret_named_value(tmp_path: Path) -> None:
    """The model writes the value it was never shown: the note is refused as a secret, and
    neither the dump (the transcript's events, what was sent) nor the result holds it."""
    home = Home(tmp_path / "home")
    add_workspace(home, "/src/etl", "etl", workspace_id="e1e1e1e1e1", workspace_path="/src/etl")
    workspace = load_registry(home).require_workspace("e1e1e1e1e1")
    events = [
        user("The load step dies."),
        bash("cat .env", output=ENV),
        answer(f"The .env sets PG_PASS={VALUE} and DATABASE_URL for the load step."),
    ]
    model = WritingModel(f"# Notes\n\n- The load step reads `PG_PASS={VALUE}` from .env.\n")
    result = run_writer(
        home, workspace, events, model, settings=WriterSettings(dump_successful_runs=True)
    )
    assert result.trace_path is not None
    dumped = result.trace_path.read_text(encoding="utf-8")
    assert (
        VALUE not in dumped
        and "PG_PASS=[REDACTED_SECRET]" in json.loads(dumped)["events"][1]["toolCalls"][0]["output"]
    )
    assert VALUE not in result.after and VALUE not in json.dumps(result.to_json())
