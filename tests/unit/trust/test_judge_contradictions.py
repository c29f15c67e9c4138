"""`memtab contradictions` with a model (issue 94): a contradiction is asked as the lines that
disagree, each as written — every line of one value against every line of another — and a
pair dismissed is dismissed alone; a candidate the model confirms is a finding, one it
dismisses is dismissed, one it has not answered stays a candidate; the wider net asks what a
session sees together, and a project's memory beside another's that names it, whatever the
readers make of it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from memtab.check.documents import Document
from memtab.cli.main import main
from memtab.fs.atomic import atomic_write_text
from memtab.store.home import Home
from memtab.trust.contradictions.engine import ContradictionsEngine
from memtab.trust.contradictions.records import ContradictionsReport
from memtab.trust.judging import asking
from memtab.trust.judging.contradictions import judge_contradictions, wider_contradictions
from support.memory_home import PROJECT, make_home
from support.pair_models import PairsModel, by_words
from support.seeded_memories import memory
from unit.trust.test_judge import SETTINGS, judge_of

GLOBAL = "(global memory, read in every project)"
API = "(project memory of project api)"
PORTS = [
    memory("global", "a.md", "# A\n\n- The API listens on port 8000.\n"),
    memory("project:api", "b.md", "# B\n\n- The API runs on port 8080.\n"),
    memory("project:api", "c.md", "# C\n\n- API port: 8000 (see the compose file).\n"),
    memory("project:api", "d.md", "# D\n\n- The API's port is 9000 in the load-test stack.\n"),
]


def _found(
    home: Home, documents: list[Document]
) -> tuple[ContradictionsEngine, ContradictionsReport]:
    engine = ContradictionsEngine(home, line_time=lambda document, line: 0)
    return engine, engine.report_of(documents)


def _bullet(place: str, name: str, line: str) -> Document:
    """A memory at `place` holding one bullet under a heading of its name."""
    return memory(place, name, f"# {Path(name).stem}\n\n- {line}\n")


def _asked(engine: ContradictionsEngine, report: ContradictionsReport) -> list[set[str]]:
    """The pairs of statements the wider net asks the model, each as its two texts."""
    return [
        {candidate.one.text, candidate.other.text}
        for candidate in wider_contradictions(report, engine.compared, engine.records)
    ]


def test_a_contradiction_is_asked_as_each_line_of_one_value_against_each_of_another(
    tmp_path: Path,
) -> None:
    home = Home(tmp_path / "home")
    _, report = _found(home, PORTS)
    [found] = report.contradictions
    assert [s.value for s in (found.first, found.second, *found.others)] == ["8000", "8080", "9000"]
    provider = PairsModel(lambda one, other: "conflict")
    judged = judge_contradictions(report, judge_of(home, provider))
    assert provider.statements() == [
        (f"{GLOBAL} - The API listens on port 8000.", f"{API} - The API runs on port 8080."),
        (f"{API} - API port: 8000 (see the compose file).", f"{API} - The API runs on port 8080."),
        (
            f"{GLOBAL} - The API listens on port 8000.",
            f"{API} - The API's port is 9000 in the load-test stack.",
        ),
        (
            f"{API} - API port: 8000 (see the compose file).",
            f"{API} - The API's port is 9000 in the load-test stack.",
        ),
        (
            f"{API} - The API runs on port 8080.",
            f"{API} - The API's port is 9000 in the load-test stack.",
        ),
    ]
    [confirmed] = judged.contradictions
    assert confirmed == found.replaced(judged_by="judge-1.q4", reason=confirmed.reason)
    assert judged.dismissed == ()


def test_a_pair_dismissed_is_dismissed_alone_and_the_lines_still_standing_stay(
    tmp_path: Path,
) -> None:
    """The load-test stack's port is another thing: its three pairs are dismissed, each alone;
    the API's 8000 against 8080 stays, judged by the model."""
    home = Home(tmp_path / "home")
    _, report = _found(home, PORTS)
    provider = PairsModel(by_words({("9000", "port"): "neither", ("8000", "8080"): "conflict"}))
    judged = judge_contradictions(report, judge_of(home, provider))
    [kept] = judged.contradictions
    assert [
        (s.value, [p.path for p in s.places]) for s in (kept.first, kept.second, *kept.others)
    ] == [
        ("8000", ["/memories/global/a.md", "/memories/project/c.md"]),
        ("8080", ["/memories/project/b.md"]),
    ]
    assert (
        kept.judged_by == "judge-1.q4"
        and kept.why == "One says 8000, the other 8080: at most one is still true."
    )
    assert [
        sorted(p.path for s in (d.first, d.second, *d.others) for p in s.places)
        for d in judged.dismissed
    ] == [
        ["/memories/global/a.md", "/memories/project/d.md"],
        ["/memories/project/c.md", "/memories/project/d.md"],
        ["/memories/project/b.md", "/memories/project/d.md"],
    ]
    assert "1 confirmed, 3 dismissed" in judged.judged


def test_candidates_confirmed_dismissed_or_not_yet_answered(tmp_path: Path) -> None:
    home = Home(tmp_path / "home")
    _, found = _found(
        home,
        [
            memory("global", "c.md", "# C\n\n- Deploy with Helm.\n"),
            memory("project:api", "d.md", "# D\n\n- Deploy with Kustomize.\n"),
            memory("global", "a.md", "# A\n\n- The docs site builds with mkdocs.\n"),
            memory("project:api", "b.md", "# B\n\n- The docs site builds with sphinx.\n"),
            memory("global", "e.md", "# E\n\n- Lint with ruff.\n"),
            memory("project:api", "f.md", "# F\n\n- Lint with flake8.\n"),
        ],
    )
    assert len(found.contradictions) == 3
    report = ContradictionsReport(candidates=found.contradictions, files_read=6)
    provider = PairsModel(
        by_words(
            {
                ("Helm", "Kustomize"): "conflict",
                ("mkdocs", "sphinx"): "neither",
                ("ruff", "flake8"): None,
            }
        )  # type: ignore[dict-item]
    )
    judged = judge_contradictions(report, judge_of(home, provider))
    assert [c.first.place.text for c in judged.contradictions] == ["- Deploy with Helm."]
    assert judged.contradictions[0].judged_by == "judge-1.q4"
    assert [c.first.place.text for c in judged.dismissed] == ["- The docs site builds with mkdocs."]
    assert [c.first.place.text for c in judged.candidates] == ["- Lint with ruff."]
    assert "1 pair wait" in judged.judged


ICONS = "Icons come from lucide-react."
HEROICONS = "Use heroicons for every icon; lucide-react was dropped."
GONE = "Heroicons are the icon set; lucide-react is gone."


def test_the_wider_net_asks_what_a_session_sees_together_and_the_model_decides(
    tmp_path: Path,
) -> None:
    """The readers see no disagreement in a tool said dropped: the pair is asked, and the
    model's conflict is a finding; two projects' memories are never asked."""
    home = Home(tmp_path / "home")
    engine, report = _found(
        home,
        [
            memory("global", "g.md", f"# G\n\n- {ICONS}\n"),
            memory("project:api", "p.md", f"# P\n\n- {HEROICONS}\n"),
            memory("project:web", "w.md", f"# W\n\n- {GONE}\n"),
        ],
    )
    assert report.contradictions == ()
    provider = PairsModel(by_words({("lucide-react.", "heroicons for"): "conflict"}))
    judged = judge_contradictions(
        report,
        judge_of(home, provider),
        wider_contradictions(report, engine.compared),
        engine.contradiction_of,
    )
    assert provider.statements() == [
        (f"{GLOBAL} {ICONS}", f"{API} {HEROICONS}"),
        (f"{GLOBAL} {ICONS}", f"(project memory of project web) {GONE}"),
    ]
    [found] = judged.contradictions
    assert (found.first.place.text, found.second.place.text) == (f"- {ICONS}", f"- {HEROICONS}")
    assert (found.judged_by, found.first.value, found.second.value) == (
        "judge-1.q4",
        ICONS,
        HEROICONS,
    )


def test_the_command_asks_the_configured_model_unless_offline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = make_home(tmp_path / "home")
    atomic_write_text(home.global_root / "a.md", "# A\n\n- Never rebase on main.\n")
    atomic_write_text(
        home.project_root(PROJECT) / "b.md", "# B\n\n- Always rebase on main before review.\n"
    )
    provider = PairsModel(by_words({("Never rebase", "Always rebase"): "conflict"}))
    monkeypatch.setattr(asking, "make_provider", lambda settings, limit: provider)
    monkeypatch.setattr(
        "memtab.cli.health.trust_report.resolve_provider_settings", lambda: SETTINGS
    )
    argv = ["--home", str(home.root), "contradictions", "--no-sources"]
    # Offline, "before review" leaves it a candidate the words only suspect; the model asked
    # about it makes it a finding it judged.
    assert main([*argv, "--offline", "--json"]) == 0
    offline = json.loads(capsys.readouterr().out)
    [found] = offline["candidates"]
    assert offline["contradictions"] == [] and provider.calls == 0
    assert found["judgedBy"] == "offline" and "reason" not in found
    assert main([*argv, "--json"]) == 1
    answer = json.loads(capsys.readouterr().out)
    [found] = answer["contradictions"]
    assert found["judgedBy"] == "judge-1.q4" and found["reason"].startswith("judged")
    assert answer["judged"].startswith("Judged by judge-1: 1 call asked ")
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "judged by judge-1.q4: judged" in out and " answered before" in out
    assert provider.calls == 1


def test_the_wider_net_asks_another_project_s_memory_that_names_the_project(
    tmp_path: Path,
) -> None:
    """An infrastructure repository's notes of the shop it deploys say what the shop's own
    memory says: the pair is asked though no session sees both. A third project naming
    neither is not asked beside them."""
    home = Home(tmp_path / "home")
    shop = "Uploads go to the bucket shop-uploads-prod in eu-central-1."
    infra = "Uploads bucket: shop-prod-uploads, versioned, no public access."
    other = "Uploads bucket: ledger-files, versioned, no public access."
    engine, report = _found(
        home,
        [
            _bullet("project:shop", "storage.md", shop),
            _bullet("project:infra", "s3.md", infra),
            _bullet("project:ledger", "s3.md", other),
        ],
    )
    assert _asked(engine, report) == [{shop, infra}]


def test_the_wider_net_asks_a_record_beside_a_memory_never_two_records(tmp_path: Path) -> None:
    """A later session's record may say a memory's value has changed: the pair is asked. Two
    records each tell what happened then, and are not asked together."""
    home = Home(tmp_path / "home")
    loans = "A loan runs at most 14 days; renewals add 7."
    later = "2026-11-09: the longest loan is 21 days now, after the board vote."
    earlier = "2026-10-01: the longest loan stays at 14 days for the pilot."

    engine, report = _found(
        home,
        [
            _bullet("project:lendbench", "loans.md", loans),
            replace(_bullet("codex", "raw_memories.md", later), record=True),
            replace(_bullet("codex", "rollout_summary.md", earlier), record=True),
        ],
    )
    asked = _asked(engine, report)
    assert {loans, later} in asked and {loans, earlier} in asked
    assert {later, earlier} not in asked


def test_a_record_is_not_asked_beside_the_memory_its_own_agent_made_of_it(
    tmp_path: Path,
) -> None:
    """Codex writes its MEMORY.md out of its rollout summaries: what the handbook says again of
    a rollout is its own short form, and asking the pair would fill the net with restatements.
    Another agent's memory is asked beside the rollout."""
    home = Home(tmp_path / "home")
    rollout = "Restoring an archived session is a plain copy back into the sessions tree."
    handbook = "An archived session is restored by a plain copy back into the sessions tree."
    xum = "Archived sessions are restored with the restore script, never a plain copy."
    engine, report = _found(
        home,
        [
            replace(_bullet("codex", "rollout_summaries/restore.md", rollout), record=True),
            _bullet("codex", "MEMORY.md", handbook),
            _bullet("project:lendbench", "sessions.md", xum),
        ],
    )
    asked = _asked(engine, report)
    assert {rollout, xum} in asked and {handbook, xum} in asked
    assert {rollout, handbook} not in asked


WORKER = "Worker settings:\n\n```yaml\nworker:\n  concurrency: 4\n  prefetch: 1\n```\n"


def test_the_wider_net_asks_a_config_fence_s_line_as_written_beside_a_sentence(
    tmp_path: Path,
) -> None:
    """A config fence's line gives its thing a value no sentence says: the net asks it, as
    written, beside the sentence of another memory a session sees with it."""
    home = Home(tmp_path / "home")
    engine, report = _found(
        home,
        [
            memory("project:api", "worker.md", f"# Worker\n\n{WORKER}"),
            memory("project:api", "scaling.md", "# Scaling\n\n- Each worker runs 8 tasks.\n"),
        ],
    )
    assert report.contradictions == () and report.candidates == ()
    asked = _asked(engine, report)
    assert {"concurrency: 4", "Each worker runs 8 tasks."} in asked


def test_the_wider_net_asks_terraform_s_values_and_a_name_s_words_in_prose(tmp_path: Path) -> None:
    """A Terraform fence's value is asked beside the sentence that says another (no claim is
    read of it offline: its blocks are not placed), and a setting named in code shares its
    words with the prose that names it (`rack_timeout_service_timeout`, "rack-timeout")."""
    home = Home(tmp_path / "home")
    rds = (
        '# RDS\n\n```hcl\nresource "aws_db_instance" "main" {\n'
        "  backup_retention_period = 7\n}\n```\n"
    )
    engine, report = _found(
        home,
        [
            memory("project:api", "rds.md", rds),
            memory("project:api", "backups.md", "# Backups\n\n- Backup retention is 14 days.\n"),
            memory(
                "project:api",
                "deploy.md",
                "# Deploy\n\n- rack-timeout's service timeout is 15 s.\n",
            ),
            memory("project:api", "env.md", "# Env\n\n- RACK_TIMEOUT_SERVICE_TIMEOUT is 25 now.\n"),
        ],
    )
    assert report.contradictions == ()
    asked = _asked(engine, report)
    assert {"backup_retention_period = 7", "Backup retention is 14 days."} in asked
    assert {
        "rack-timeout's service timeout is 15 s.",
        "RACK_TIMEOUT_SERVICE_TIMEOUT is 25 now.",
    } in asked


def test_the_wider_net_asks_nested_objects_one_line_objects_and_camel_case_names(
    tmp_path: Path,
) -> None:
    """An HCL object's version range (`aws = { version = "~> 5.60" }`), each key of an object
    written on one line (`"LateFees": { "PerDayRon": 5 }`) and a setting written in camel case
    (`replicaCount`) are asked beside the prose that gives them another value."""
    home = Home(tmp_path / "home")
    providers = (
        "# Providers\n\n```hcl\nterraform {\n  required_providers {\n    aws = {\n"
        '      source  = "hashicorp/aws"\n      version = "~> 5.60"\n    }\n  }\n}\n```\n'
    )
    fees = '# Fees\n\n```json\n"LateFees": { "PerDayRon": 5, "CapRon": 50 }\n```\n'
    engine, report = _found(
        home,
        [
            memory("project:api", "providers.md", providers),
            memory("project:api", "held.md", "# Held\n\n- hashicorp/aws is held at ~> 5.31.\n"),
            memory("project:api", "fees.md", fees),
            memory("project:api", "late.md", "# Late\n\n- Late fee is 3 RON a day.\n"),
            memory("project:api", "chart.md", "# Chart\n\n```yaml\nreplicaCount: 2\n```\n"),
            memory("project:api", "staging.md", "# Staging\n\n- Staging runs a single replica.\n"),
        ],
    )
    assert report.contradictions == ()
    asked = _asked(engine, report)
    assert {'version = "~> 5.60"', "hashicorp/aws is held at ~> 5.31."} in asked
    assert {fees.splitlines()[3], "Late fee is 3 RON a day."} in asked
    assert {"replicaCount: 2", "Staging runs a single replica."} in asked


def test_the_wider_net_asks_first_the_pairs_giving_one_named_thing_two_numbers(
    tmp_path: Path,
) -> None:
    """Of pairs a session sees together, "Postgres 16" beside "Postgres 15" is asked before
    pairs more alike in words: the net's size is what three runs ask, and few pairs give
    one thing two numbers."""
    home = Home(tmp_path / "home")
    sixteen = "Postgres 16 holds the shop's orders and the nightly backups."
    backups = "The shop's orders database takes nightly backups to S3."
    fifteen = "RDS runs Postgres 15 for the orders service."
    engine, report = _found(
        home,
        [
            _bullet("global", "db.md", sixteen),
            _bullet("project:api", "backups.md", backups),
            _bullet("project:api", "rds.md", fifteen),
        ],
    )
    assert report.contradictions == ()
    assert _asked(engine, report)[0] == {sixteen, fifteen}
    assert {sixteen, backups} in _asked(engine, report)
