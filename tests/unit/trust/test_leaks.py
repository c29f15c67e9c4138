"""Memories in the wrong place, and secrets (issue 72 point 5): the seeded corpus's targets
(at least 90% of the cross-project mentions named; no finding on a memory that names only
its own project) and each kind of leak."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from memtab.check.documents import Document
from memtab.store.home import Home
from memtab.trust.leaks import engine as leaks_engine
from memtab.trust.leaks.engine import LeaksEngine, identity_of
from memtab.trust.leaks.records import Leak
from support.seeded_leaks import PROJECTS, Family, build
from support.seeded_memories import memory, project_path


@pytest.mark.parametrize("family", ["tune", "held-out"])
def test_the_targets_of_issue_72(family: Family) -> None:
    corpus = build(family)
    documents = [memory(m.place, m.name, m.text) for m in corpus.memories]
    by_path = {d.path: m for d, m in zip(documents, corpus.memories, strict=True)}
    projects = {project_path(p): identity_of(project_path(p)) for p in PROJECTS}
    leaks = [
        leak
        for leak in LeaksEngine(Home(Path("/nowhere"))).leaks_of(documents, projects)
        if leak.kind in ("other-project", "project-in-global")
    ]
    named = {by_path[leak.place.path].id for leak in leaks}
    seeded = corpus.seeded
    assert sum(m.id in named for m in seeded) >= 0.9 * len(seeded) and len(seeded) == 60
    assert [
        by_path[leak.place.path].id for leak in leaks if by_path[leak.place.path].names is None
    ] == []
    wrong = [
        leak
        for leak in leaks
        if leak.belongs_to not in (None, project_path(by_path[leak.place.path].names or ""))
    ]
    assert wrong == []


def test_a_secret_anywhere_is_named_and_never_printed() -> None:
    key = "sk-ant-api03-" + "x1y2z3" * 8
    [leak] = LeaksEngine(Home(Path("/nowhere"))).leaks_of(
        [memory("global", "keys.md", f"# Keys\n\n- The key is {key}\n")], {}
    )
    assert leak.kind == "secret" and leak.place.line == 3
    assert key not in leak.place.text and "[REDACTED_SECRET]" in leak.place.text
    assert key not in str(leak.to_json())


def test_a_personal_path_in_team_memory_but_not_in_one_s_own() -> None:
    text = "# Logs\n\n- Logs are in /home/alice/logs/acme.\n"
    leaks = _leaks(
        memory("team:acme-api", "logs.md", text),
        memory("claude:acme-api", "mine.md", text),
        user="alice",
    )
    assert [(leak.kind, leak.names, leak.place.path) for leak in leaks] == [
        ("personal-path", "/home/alice", "claude-code:team-acme-api:logs.md")
    ]


def test_a_project_folder_named_by_a_word_names_it_only_as_the_owner_of_a_path() -> None:
    """`ledger` is a word: "ledger's src/Ledger/Api.hs" names the project, "the ledger's
    totals" and a global note on ledgers do not."""
    assert identity_of("/src/ledger").names == ("/src/ledger", "ledger")
    assert identity_of("/src/billing-ledger").names == ("/src/billing-ledger", "billing-ledger")
    borrowed = (
        "# Borrowed\n\n- Pagination mirrors ledger's Servant API (src/Ledger/Api.hs).\n"
        "- Same casing rule as ledger's lib/src/models, camelCase.\n"
        "- The ledger's totals/balances are summed nightly.\n"
        "- See ledger's notes on sql/joins for why.\n"
    )
    words = "# Words\n\n- A ledger-style log of each run, see the ledger's 2024/25 figures.\n"
    leaks = _leaks(
        memory("project:cairn-app", "borrowed.md", borrowed),
        memory("global", "words.md", words),
        memory("project:ledger", "own.md", "# Own\n\n- ledger's src/Ledger/Api.hs is ours.\n"),
        projects=["cairn-app", "ledger"],
    )
    assert [(leak.kind, leak.names, leak.place.line) for leak in leaks] == [
        ("other-project", "ledger", 3)
    ]
    assert [place.line for place in leaks[0].elsewhere] == [4]


def test_global_memory_naming_a_word_named_project_as_its_owner_is_that_project_s() -> None:
    """ "kilnmarket's Stripe account" in global memory is the project's; "the orchard's gate"
    is no one's, and a note naming two projects ("quire's UI", "crossings PRs") is about both."""
    stripe = "# Kiln\n\n- kilnmarket's Stripe account is acct_1Pq8 and pays out on Fridays.\n"
    garden = "# Garden\n\n- The orchard's gate sticks in the rain.\n"
    both = (
        "# PRs\n\n- Screenshots for anything in quire's UI.\n- Migrations bold in crossings PRs.\n"
    )
    leaks = _leaks(
        memory("global", "kiln.md", stripe),
        memory("global", "garden.md", garden),
        memory("global", "prs.md", both),
        projects=["kilnmarket", "orchard", "quire", "crossings"],
    )
    assert [(leak.kind, leak.names, leak.place.line) for leak in leaks] == [
        ("project-in-global", "kilnmarket", 3)
    ]


def test_a_customer_s_host_on_a_hosting_service_is_its_project_s_by_its_name() -> None:
    """Global memory alone names glossa's database: its label on the hosting service says
    whose it is; the service's own endpoint is nobody's."""
    ops = (
        "# Ops\n\n- glossa's prod RDS is glossa-prod.c8xk2mq1vz4p.eu-west-1.rds.amazonaws.com.\n"
        "- Backups go to s3.eu-west-1.amazonaws.com.\n"
    )
    leaks = _leaks(memory("global", "ops.md", ops), projects=["glossa", "cairn-app"])
    assert [(leak.kind, leak.names, leak.belongs_to) for leak in leaks] == [
        (
            "project-in-global",
            "glossa-prod.c8xk2mq1vz4p.eu-west-1.rds.amazonaws.com",
            project_path("glossa"),
        )
    ]


def test_a_path_is_named_in_its_own_case_and_matched_in_any() -> None:
    """Projects under a folder with capitals: a mention keeps the case it was written in
    and finds its project in any case, unless two projects' paths differ only by case."""
    acme, billing = "/Users/Alice/Code/acme-api", "/Users/Alice/Code/billing-svc"
    projects = {path: identity_of(path) for path in (acme, billing)}
    documents = [
        replace(memory("claude:x", "a.md", f"# A\n\n- See {billing}/docs.\n"), project=acme),
        replace(memory("claude:x", "b.md", f"# B\n\n- See {billing.lower()}.\n"), project=acme),
    ]
    leaks = LeaksEngine(Home(Path("/nowhere"))).leaks_of(documents, projects)
    assert [(leak.names, leak.belongs_to) for leak in leaks] == [
        (billing, billing),
        (billing.lower(), billing),
    ]
    twins = {path: identity_of(path) for path in (acme, billing, billing.upper())}
    leaks = LeaksEngine(Home(Path("/nowhere"))).leaks_of(documents, twins)
    assert [(leak.names, leak.belongs_to) for leak in leaks] == [(billing, billing)]


def _leaks(*documents: Document, projects: Sequence[str] = (), user: str = "dana") -> list[Leak]:
    engine = LeaksEngine(Home(Path("/nowhere")), env={"HOME": f"/home/{user}", "USER": user})
    known = {project_path(p): identity_of(project_path(p)) for p in projects}
    return engine.leaks_of(list(documents), known)


def test_documented_examples_and_defaults_are_no_secret_but_keys_given_by_name_are() -> None:
    """AWS's example pair, `sk-xxxx`, `<your-token>`, a compose file's default password on
    this machine and a token made in code are what documentation writes in a secret's place;
    a key given by its name and a SendGrid key are secrets (issue 83)."""
    examples = (
        "# Keys\n\n"
        "- The example pair is AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY.\n"
        "- Format for the .env.example: `OPENAI_API_KEY=sk-xxxx`, tokens as `<your-token>`.\n"
        "- Tests use `postgres://postgres:postgres@localhost:5432/app_test`.\n"
        '- token = s.dumps({"user": 42})  # signed with "new-secret"\n'
    )
    secrets = (
        "# Keys\n\n"
        "- Current key: `dhl_key=Qm9vZ3JhNzRkYWU1ZjE2NGI4YzNhMmY5ZDBl`\n"
        "- Staging sender: `SG.kT3mQ9xR2vL8.wP4nZ7bC1yH6jD0fS5aG8eU3iO2rW9tY1uX4cV7bN0m`\n"
        "- Staging DB: `postgres://postgres:Hb7vQ2mX9kR4@db.staging.internal:5432/app`\n"
    )
    leaks = _leaks(memory("global", "examples.md", examples), memory("global", "keys.md", secrets))
    assert [(leak.place.path, leak.place.line, leak.names) for leak in leaks] == [
        ("/memories/global/keys.md", 3, "a key given by name"),
        ("/memories/global/keys.md", 4, "SendGrid API Token"),
        ("/memories/global/keys.md", 5, "a password in a URL"),
    ]


def test_a_home_folder_is_a_leak_where_collaborators_read_it_or_it_is_someone_else_s() -> None:
    """Memory shared with collaborators (team memory, a committed CLAUDE.md) names no home
    folder; a project's memory and global memory name no one else's (no session here can
    open it); one's own memory may name one's own home. A CI runner's home, a relative
    path, a URL and a path inside a known project are no one's home."""
    text = (
        "# Paths\n\n"
        "- Marek's notes: /home/marek/notes/rls.md\n"
        "- My scripts: /home/dana/bin\n"
        "- CI checks out into /home/runner/work, the component is src/Users/List.tsx.\n"
        "- Docs: https://example.org/home/marek and the checkout /home/eve/src/acme-api\n"
    )
    shared = replace(memory("claude:acme-api", "CLAUDE.md", text), shared=True)
    acme = identity_of("/home/eve/src/acme-api")
    engine = LeaksEngine(Home(Path("/nowhere")), env={"HOME": "/home/dana"})
    leaks = engine.leaks_of(
        [
            memory("global", "paths.md", text),
            replace(
                memory("claude:billing-svc", "paths.md", text), project="/home/eve/src/billing"
            ),
            replace(shared, project=acme.path),
        ],
        {acme.path: acme, "/home/eve/src/billing": identity_of("/home/eve/src/billing")},
    )
    assert [
        (leak.kind, leak.names, leak.place.path, leak.place.line)
        for leak in leaks
        if leak.kind == "personal-path"
    ] == [
        ("personal-path", "/home/marek", "/memories/global/paths.md", 3),
        ("personal-path", "/home/marek", "claude-code:project-acme-api:memory/CLAUDE.md", 3),
        ("personal-path", "/home/dana", "claude-code:project-acme-api:memory/CLAUDE.md", 4),
        ("personal-path", "/home/marek", "claude-code:project-billing-svc:memory/paths.md", 3),
    ]


def test_a_home_folder_of_another_machine_in_global_memory_is_a_leak() -> None:
    """A login's home on another machine (`/Users/dana.k`, `C:\\Users\\dk`) in global memory,
    which every session here loads and none can open; the user's own home is not."""
    text = (
        "# Machines\n\n"
        "- The old laptop kept the keystore in /Users/dana.k/keys/release.jks\n"
        "- Windows box: C:\\Users\\dk\\AppData\\Roaming\\tool\n"
        "- My dotfiles: /home/dana/dotfiles\n"
    )
    engine = LeaksEngine(Home(Path("/nowhere")), env={"HOME": "/home/dana", "USER": "dana"})
    leaks = engine.leaks_of([memory("global", "machines.md", text)], {})
    assert [(leak.kind, leak.names, leak.place.line) for leak in leaks] == [
        ("personal-path", "/Users/dana.k", 3),
        ("personal-path", "C:\\Users\\dk", 4),
    ]


def test_a_host_named_after_a_project_is_its_wherever_it_is_named() -> None:
    """`staging.harbor.acme.io` is harbor-api's by its name, though harbor-api's memory
    names it once and another project's once; a company's Sentry named by one project and
    global memory is no project's; a hosting service's own endpoint, a public host and code
    are no host of a project's."""
    harbor = "# Staging\n\n- Staging: https://staging.harbor.acme.io (VPN).\n"
    common = (
        "# Tools\n\n- Errors go to https://sentry.acme.io.\n"
        "- Uploads: s3.eu-central-1.amazonaws.com; docs at https://docs.python.org/3/.\n"
        "- Log with request.log.info(msg).\n"
    )
    other = (
        "# Borrowed\n\n- I tested against https://staging.harbor.acme.io/api/session.\n"
        "- Errors: https://sentry.acme.io, uploads: s3.eu-central-1.amazonaws.com.\n"
        "- Log with request.log.info(msg).\n"
    )
    leaks = _leaks(
        memory("project:harbor-api", "staging.md", harbor),
        memory("project:harbor-api", "tools.md", common),
        memory("global", "tools.md", common),
        memory("claude:itsdangerous", "borrowed.md", other),
        projects=["harbor-api", "itsdangerous"],
    )
    assert [(leak.kind, leak.names, leak.place.path) for leak in leaks] == [
        (
            "other-project",
            "staging.harbor.acme.io",
            "claude-code:project-itsdangerous:memory/borrowed.md",
        )
    ]


def test_a_repository_is_named_by_its_remote_but_an_image_is_no_repository() -> None:
    """`git@github.com:acme/harbor-api.git` names harbor-api's repository; `image:
    acme/harbor-api` in a deploy tool's example names the image it deploys."""
    leaks = _leaks(
        memory("claude:dockyard", "clone.md", "# Clone\n\n- git@github.com:acme/harbor-api.git\n"),
        memory(
            "claude:dockyard", "example.md", "# Example\n\n```yaml\nimage: acme/harbor-api\n```\n"
        ),
        projects=["harbor-api", "dockyard"],
    )
    assert [(leak.names, leak.place.path) for leak in leaks] == [
        ("harbor-api", "claude-code:project-dockyard:memory/clone.md")
    ]


def test_lines_of_one_memory_naming_one_project_are_one_leak_at_each_line() -> None:
    """A memory naming another project's host, path and repository on three lines is one
    leak (it belongs in that project's memory), its other lines listed with it."""
    text = (
        "# Tokens\n\n"
        "- Real tokens: https://staging.harbor.acme.io/api/session\n"
        f"- The session code: {project_path('harbor-api')}/src/auth.ts\n"
        "- Clone: git@github.com:acme/harbor-api.git\n"
    )
    [leak] = _leaks(
        memory("project:harbor-api", "staging.md", "# S\n\n- https://staging.harbor.acme.io\n"),
        memory("claude:itsdangerous", "tokens.md", text),
        projects=["harbor-api", "itsdangerous"],
    )
    assert (leak.place.line, [place.line for place in leak.elsewhere]) == (3, [4, 5])
    assert leak.elsewhere[1].text == "- Clone: git@github.com:acme/harbor-api.git"
    assert leak.to_json()["elsewhere"][0]["line"] == 4


def test_a_host_whose_domain_is_a_project_s_folder_name_is_its() -> None:
    """`api.staging.tidewater.dev` and `db1.tidewater-prod.internal` are tidewater's by
    their domain's label; `sentry.acme.io`, whose domain is the first word of two projects'
    names, is the company's; a site's public face (`tidewater.dev`) is no host."""
    own = (
        "# Deploy\n\n- Staging API: https://api.staging.tidewater.dev/v2\n"
        "- Postgres on db1.tidewater-prod.internal:5432\n"
        "- Errors: https://sentry.acme.io, docs on https://tidewater.dev\n"
    )
    borrowed = (
        "# Notes\n\n- Compared against https://api.staging.tidewater.dev/v2 last week.\n"
        "- The replica: db1.tidewater-prod.internal:5432\n"
        "- Errors: https://sentry.acme.io; layout copied from https://tidewater.dev\n"
    )
    leaks = _leaks(
        memory("project:tidewater", "deploy.md", own),
        memory("claude:acme-web", "notes.md", borrowed),
        memory("project:acme-mobile", "errors.md", "# Errors\n\n- https://sentry.acme.io\n"),
        projects=["tidewater", "acme-web", "acme-mobile"],
    )
    assert [(leak.kind, leak.names, leak.place.line) for leak in leaks] == [
        ("other-project", "api.staging.tidewater.dev", 3)
    ]
    assert [place.line for place in leaks[0].elsewhere] == [4]


def test_hosts_written_in_other_ways_are_their_project_s() -> None:
    """A host logged in to over ssh, a private network's host of two labels, a project's API
    front door, and a host a line says is another project's (that project's memory naming it
    too) are that project's; an e-mail address, a public front door, a company's host and a
    decorator are no project's (issue 83)."""
    fjord = (
        "# Fjord\n\n- Deploy box: `ssh deploy@bastion.fjord.internal`\n"
        "- DB: fjord-db.internal:5432; API: https://api.fjord.app/v1\n"
        "- Metabase: https://bi.northwind.cloud; errors: https://sentry.northwind.cloud\n"
        "- Owner: ops@mail.fjord.io\n"
    )
    borrowed = (
        "# Borrowed\n\n- `ssh deploy@bastion.fjord.internal` to read the logs\n"
        "- pointed the test at fjord-db.internal:5432\n"
        "- compared with https://api.fjord.app/v1/health\n"
        "- fjord's Metabase (https://bi.northwind.cloud) has the revenue board\n"
    )
    common = (
        "# Common\n\n- errors: https://sentry.northwind.cloud, mail ops@mail.fjord.io\n"
        "- Stripe: https://api.stripe.com/v1; decorate with @pytest.mark.parametrize\n"
        "- `scp build.tar ci@runner.northwind.cloud:/tmp`\n"
    )
    leaks = _leaks(
        memory("project:fjord", "fjord.md", fjord),
        memory("claude:ledger-svc", "borrowed.md", borrowed),
        memory("claude:ledger-svc", "common.md", common),
        projects=["fjord", "ledger-svc"],
    )
    assert [(leak.names, leak.place.line, [p.line for p in leak.elsewhere]) for leak in leaks] == [
        ("bastion.fjord.internal", 3, [4, 5, 6])
    ]


def test_a_home_network_s_address_and_a_folder_named_projects_are_no_project_s_place() -> None:
    """A project's memory naming an address of a home or office network (`192.168.…`: the
    user's own machines) or a folder under `~/projects/` twice makes neither its place;
    its cloud project (`projects/<id>/…`, `--project <id>`) is (issue 83)."""
    own = (
        "# Own\n\n- NAS: 192.168.1.20:5000, the Pi: `ssh pi@192.168.1.31`\n"
        "- Events: `projects/fernhill-tern-prod/topics/events`; code in ~/projects/tern-tools/\n"
    )
    other = (
        "# Borrowed\n\n- Backups on 192.168.1.20:5000 and `ssh pi@192.168.1.31`\n"
        "- Scripts: ~/projects/tern-tools/sync.sh\n"
        "- Subscribed with `gcloud --project fernhill-tern-prod pubsub subscriptions list`\n"
    )
    leaks = _leaks(
        memory("project:tern", "own.md", own),
        memory("claude:tern", "own.md", own),
        memory("claude:kelp-billing", "borrowed.md", other),
        projects=["tern", "kelp-billing"],
    )
    assert [(leak.names, leak.place.line) for leak in leaks] == [("fernhill-tern-prod", 5)]


def test_what_a_file_names_is_read_again_when_the_readers_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache of what each file names holds for the readers that read it: a Memtab whose
    redaction no longer takes `secret: NEIS_API_KEY` for a secret (issue 94) must not show
    the leak an older one kept."""
    home = Home(tmp_path / "home")
    home.root.mkdir()
    document = memory("global", "keys.md", "- Worker secret: s3cr3t-Value-99\n")
    assert [leak.kind for leak in LeaksEngine(home).leaks_of([document], {})] == ["secret"]
    monkeypatch.setattr(leaks_engine, "MENTIONS_VERSION", "a later one")
    monkeypatch.setattr(leaks_engine, "redact_secrets", lambda text: text)  # it sees none now
    assert LeaksEngine(home).leaks_of([document], {}) == []


def test_a_project_s_path_written_from_the_home_folder_names_it(tmp_path: Path) -> None:
    """`~/src/homelab` and `$HOME/src/homelab` are the project at HOME/src/homelab, as its
    absolute path is: in global memory, a project's alone (issue 94)."""
    home, other = str(tmp_path / "oskar"), str(tmp_path / "oskar" / "src" / "shop")
    project = f"{home}/src/homelab"
    engine = LeaksEngine(Home(Path("/nowhere")), env={"HOME": home, "USER": "oskar"})
    known = {p: identity_of(p, None, engine.user_home) for p in (project, other)}
    for written in ("`~/src/homelab/inventory.ini`", "$HOME/src/homelab/playbooks"):
        text = f"# Hosts\n\n- The inventory is {written}.\n"
        [leak] = engine.leaks_of([memory("global", "hosts.md", text)], known)
        assert (leak.kind, leak.belongs_to, leak.place.line) == ("project-in-global", project, 3)
    beside = "# Notes\n\n- Keep notes in `~/src/homelab-notes/` and `~/src/homelabs`.\n"
    assert engine.leaks_of([memory("global", "notes.md", beside)], known) == []
