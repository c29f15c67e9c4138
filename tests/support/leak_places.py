"""A labelled corpus for `memtab leaks`: another project's places (issue 83), written apart
from the trust corpus and `seeded_leaks`, in the forms those do not use — Markdown and
reference links, git remotes, container images and registries, kube contexts, DSNs and
JDBC URLs, `~/.ssh/config` lines, IPs with ports, buckets, ARNs and cloud project ids (a
repository named by its URL alone is no case: issue 94 removed the reader of its owner, which
found none on the trust corpus's halves).

The world: Fernhill's four projects (`kelp-billing`, `tern`, `marlin-web`, `quarry`), each
with memory naming its own places (`OWN`: near misses too — a project's own places in its
own memory). Each case is one memory file of its own; a case that is a leak must be found
in its file (the place named, the project it belongs to), a near miss must not: the
project's own places, public docs sites, package registries and public images, example.com,
localhost and RFC 5737 addresses, placeholders, the company's shared services.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from memtab.check.documents import Document
from memtab.store.home import Home
from memtab.trust.leaks.engine import LeaksEngine, identity_of
from memtab.trust.leaks.records import Leak
from support.seeded_memories import memory, project_path

PROJECTS = ("kelp-billing", "tern", "marlin-web", "quarry")


@dataclass(frozen=True)
class Case:
    place: str
    """Where the memory is (`seeded_memories.memory`'s places)."""
    text: str
    belongs: str | None
    """The project whose place it names and not its own (None: a near miss)."""
    form: str


def _claude(name: str, body: str) -> str:
    return f"---\nname: {name}\ndescription: {name}\nmetadata:\n  type: reference\n---\n\n{body}"


OWN: dict[str, tuple[str, ...]] = {
    "kelp-billing": (
        "# Environments\n\n- Staging: https://staging.kelp.fernhill.io (VPN)\n"
        "- DB: `postgres://kelp_app@kelp-db.fernhill.internal:5432/kelp`\n"
        "- Exports land in `s3://kelp-billing-exports/daily/`\n"
        "- Cluster: `kubectl --context kelp-prod-eu -n billing get pods`\n"
        "- Replica for reports: 10.40.12.7:5432\n",
        "# Release\n\n- `git push origin main`; origin is "
        "git@gitlab.fernhill.io:billing/kelp-billing.git\n"
        "- Image: `registry.fernhill.io/billing/kelp-billing:1.14.2`\n"
        "- Queue: arn:aws:sqs:eu-west-1:481516234200:kelp-invoices\n"
        "- The replica 10.40.12.7:5432 is read-only.\n"
        "- Sentry: https://sentry.fernhill.io/organizations/fernhill/projects/kelp/\n",
    ),
    "tern": (
        "# Tern\n\n- API: https://api.tern.fernhill.io/v3 and admin at https://admin.tern.fernhill.io\n"
        "- Mongo: `mongodb+srv://tern-ro@tern-cluster0.x7kq2.mongodb.net/tern`\n"
        "- GCP project `fernhill-tern-prod`; artifacts in `gs://fernhill-tern-artifacts`\n"
        "- Context: `kubectl config use-context gke_fernhill-tern-prod_europe-west1_tern`\n"
        "- Bastion: `ssh ops@jump.tern.fernhill.io`\n",
        "# Ops\n\n- Repo: https://github.com/fernhill/tern\n"
        "- Redis: redis://tern-cache.fernhill.internal:6379/2\n"
        "- Grafana: https://grafana.ops-eu.fernhill.io/d/tern-latency\n"
        "- Metrics box 10.52.3.19:9090, also the Prometheus of tern.\n"
        "- Kafka: b-1.tern-msk.a1b2c3.c4.kafka.eu-west-1.amazonaws.com:9092\n",
    ),
    "marlin-web": (
        "# Marlin\n\n- Preview: https://marlin-web-git-main-fernhill.vercel.app\n"
        "- CDN: https://d3kq8x1a9z.cloudfront.net for marlin's assets\n"
        "- Repo: git@github.com:fernhill/marlin-web.git\n"
        "- Grafana: https://grafana.ops-eu.fernhill.io/d/marlin-vitals\n",
        "# Deploy\n\n- `vercel --prod` from main; assets bucket `s3://marlin-web-assets-prod`\n"
        "- Preview: https://marlin-web-git-main-fernhill.vercel.app\n"
        "- Sentry: https://sentry.fernhill.io/organizations/fernhill/projects/marlin/\n",
    ),
    "quarry": (
        "# Quarry\n\n- Warehouse: `snowflake://quarry_etl@fh12345.eu-central-1/QUARRY`\n"
        "- Airflow: https://airflow.quarry.fernhill.io\n"
        "- Host quarry-etl-1 in ~/.ssh/config, HostName 10.61.4.22\n"
        "- Repo: https://gitlab.fernhill.io/data/quarry\n",
        "# Runbook\n\n- `ssh etl@10.61.4.22` to restart the scheduler (port 8793 for logs: "
        "10.61.4.22:8793)\n- Airflow UI: https://airflow.quarry.fernhill.io/home\n",
    ),
}
"""Each project's own memory (two files a project: its own places, named as people do)."""


L = "leak"
CASES: tuple[Case, ...] = (
    # --- another project's places, in every form ---------------------------------------
    Case(
        "claude:marlin-web",
        _claude(
            "invoices",
            "Invoices come from kelp; for the demo I "
            "pointed at [kelp staging](https://staging.kelp.fernhill.io/invoices).",
        ),
        "kelp-billing",
        "markdown link",
    ),
    Case(
        "project:quarry",
        "# Sources\n\n- See [the tern API][tern-api] for the raw events.\n\n"
        "[tern-api]: https://api.tern.fernhill.io/v3/events\n",
        "tern",
        "reference link",
    ),
    Case(
        "claude:tern",
        "# Billing sync\n\n- Cloned kelp to compare: "
        "`git clone git@gitlab.fernhill.io:billing/kelp-billing.git /tmp/kelp`\n",
        "kelp-billing",
        "git remote (ssh)",
    ),
    Case(
        "workspace:quarry",
        "# Deploy notes\n\n- Rolled marlin by hand: "
        "`docker push registry.fernhill.io/billing/kelp-billing:1.14.3` was the wrong one.\n",
        "kelp-billing",
        "container image",
    ),
    Case(
        "claude:quarry",
        "# Kube\n\n- To read tern's pods: "
        "`kubectl config use-context gke_fernhill-tern-prod_europe-west1_tern`\n",
        "tern",
        "kube context",
    ),
    Case(
        "project:marlin-web",
        "# Debugging\n\n- `kubectl --context kelp-prod-eu -n billing "
        "logs deploy/invoicer` showed the 502s\n",
        "kelp-billing",
        "kube context flag",
    ),
    Case(
        "claude:tern",
        "# Reports\n\n- DATABASE_URL for the report job: "
        "`postgres://kelp_app@kelp-db.fernhill.internal:5432/kelp`\n",
        "kelp-billing",
        "DSN",
    ),
    Case(
        "project:marlin-web",
        "# Data\n\n- Reading events straight from "
        "`mongodb+srv://tern-ro@tern-cluster0.x7kq2.mongodb.net/tern` for the chart.\n",
        "tern",
        "mongodb+srv DSN",
    ),
    Case(
        "claude:kelp-billing",
        "# JDBC\n\n- jdbc:redshift://quarry-wh.fernhill.internal:5439/quarry "
        "is where the BI copy goes; quarry owns it.\n",
        "quarry",
        "JDBC URL",
    ),
    Case(
        "project:quarry",
        "# SSH\n\n```\nHost tern-jump\n    HostName jump.tern.fernhill.io\n    User ops\n```\n",
        "tern",
        "ssh config",
    ),
    Case(
        "claude:tern",
        "# Replica\n\n- I ran the backfill against 10.40.12.7:5432 (kelp's replica).\n",
        "kelp-billing",
        "IP with port",
    ),
    Case(
        "project:kelp-billing",
        "# Metrics\n\n- Scrape config copied from 10.52.3.19:9090.\n",
        "tern",
        "IP with port, no owner said",
    ),
    Case(
        "claude:marlin-web",
        "# Exports\n\n- The CSVs for the dashboard: `aws s3 ls s3://kelp-billing-exports/daily/`\n",
        "kelp-billing",
        "S3 bucket",
    ),
    Case(
        "project:quarry",
        "# Ingest\n\n- Pull build artifacts from gs://fernhill-tern-artifacts into the lake.\n",
        "tern",
        "GCS bucket",
    ),
    Case(
        "claude:quarry",
        "# Queues\n\n- Subscribed to "
        "arn:aws:sqs:eu-west-1:481516234200:kelp-invoices for the finance mart.\n",
        "kelp-billing",
        "ARN",
    ),
    Case(
        "project:marlin-web",
        "# GCP\n\n- `gcloud config set project fernhill-tern-prod` "
        "before running the event export.\n",
        "tern",
        "cloud project id",
    ),
    Case(
        "project:tern",
        "# Borrowed\n\n- The pricing page copy lives in fernhill/marlin-web; "
        "ask before changing it there.\n",
        "marlin-web",
        "owner/name repository",
    ),
    Case(
        "claude:quarry",
        "# Tern cache\n\n- `redis-cli -u redis://tern-cache.fernhill.internal:6379/2"
        " keys 'evt:*'` to sample\n",
        "tern",
        "redis URL",
    ),
    Case(
        "project:kelp-billing",
        "# Airflow\n\n- The nightly export is triggered from "
        "<https://airflow.quarry.fernhill.io/dags/kelp_export>.\n",
        "quarry",
        "autolink",
    ),
    Case(
        "claude:tern",
        "# Marlin\n\n| what | where |\n|---|---|\n"
        "| preview | https://marlin-web-git-main-fernhill.vercel.app |\n",
        "marlin-web",
        "URL in a table",
    ),
    Case(
        "project:quarry",
        "# Kafka\n\n- bootstrap: b-1.tern-msk.a1b2c3.c4.kafka.eu-west-1.amazonaws.com:9092\n",
        "tern",
        "managed service host",
    ),
    Case(
        "claude:marlin-web",
        "# ETL box\n\n- `ssh etl@10.61.4.22` and tail the scheduler.\n",
        "quarry",
        "IP in an ssh command",
    ),
    Case(
        "project:tern",
        "# Assets\n\n- Uploaded the icons to `s3://marlin-web-assets-prod/icons/` by mistake.\n",
        "marlin-web",
        "another bucket",
    ),
    Case(
        "claude:kelp-billing",
        "# Admin\n\n- Tern's admin console is [here](https://admin.tern.fernhill.io/tenants).\n",
        "tern",
        "markdown link (named here)",
    ),
    Case(
        "gemini",
        "# Work\n\n- Kelp's staging DB: kelp-db.fernhill.internal:5432\n",
        "kelp-billing",
        "host in global memory",
    ),
    Case(
        "global",
        "# Notes\n\n- Tern's bastion for incident access: `ssh ops@jump.tern.fernhill.io`\n",
        "tern",
        "ssh host in global memory",
    ),
    Case(
        "global",
        "# Warehouse\n\n- `snowflake://quarry_etl@fh12345.eu-central-1/QUARRY` holds every mart.\n",
        "quarry",
        "warehouse DSN in global memory",
    ),
    Case(
        "claude:tern",
        "# Compose\n\n```yaml\nservices:\n  billing:\n    image: "
        "registry.fernhill.io/billing/kelp-billing:1.14.2\n    environment:\n      DB_HOST: "
        "kelp-db.fernhill.internal\n```\n",
        "kelp-billing",
        "compose file",
    ),
    Case(
        "project:marlin-web",
        "# Env\n\n```dotenv\nEVENTS_URL=https://api.tern.fernhill.io/v3\n```\n",
        "tern",
        "env file",
    ),
    Case(
        "claude:quarry",
        '# Terraform\n\n```hcl\nbucket = "marlin-web-assets-prod"\n```\n',
        "marlin-web",
        "bucket in HCL",
    ),
    # --- near misses ----------------------------------------------------------------------
    Case(
        "claude:kelp-billing",
        "# Staging\n\n- [staging](https://staging.kelp.fernhill.io) for "
        "QA; DB `kelp-db.fernhill.internal:5432`.\n",
        None,
        "own host in a link",
    ),
    Case(
        "project:tern",
        "# Ops\n\n- `ssh ops@jump.tern.fernhill.io` then `kubectl config "
        "use-context gke_fernhill-tern-prod_europe-west1_tern`\n",
        None,
        "own bastion and context",
    ),
    Case(
        "claude:marlin-web",
        "# Clone\n\n- git@github.com:fernhill/marlin-web.git; preview "
        "https://marlin-web-git-main-fernhill.vercel.app\n",
        None,
        "own remote",
    ),
    Case("project:quarry", "# Box\n\n- etl box 10.61.4.22:8793 for logs\n", None, "own IP"),
    Case(
        "claude:tern",
        "# Docs\n\n- Read [the Kubernetes docs](https://kubernetes.io/docs/"
        "concepts/workloads/) and https://docs.docker.com/compose/.\n",
        None,
        "public docs",
    ),
    Case(
        "project:kelp-billing",
        "# Packages\n\n- `npm config set registry "
        "https://registry.npmjs.org/` and `pip index versions stripe` (pypi.org)\n",
        None,
        "package registries",
    ),
    Case(
        "claude:quarry",
        "# Images\n\n- `docker pull postgres:16-alpine` and "
        "`docker pull ghcr.io/dbt-labs/dbt-postgres:1.8.0`\n",
        None,
        "public images",
    ),
    Case(
        "project:marlin-web",
        "# Examples\n\n- In the README use https://example.com/api and "
        "`curl http://localhost:3000/health`\n",
        None,
        "example.com and localhost",
    ),
    Case(
        "claude:tern",
        "# Docs\n\n- Example addresses in docs: 192.0.2.10:8080, "
        "198.51.100.7 and 203.0.113.5:443\n",
        None,
        "RFC 5737 addresses",
    ),
    Case(
        "project:quarry",
        "# Template\n\n- `git clone git@github.com:<org>/<repo>.git` then "
        "`aws s3 ls s3://<your-bucket>/`\n",
        None,
        "placeholders",
    ),
    Case(
        "claude:kelp-billing",
        "# Errors\n\n- Errors: https://sentry.fernhill.io/organizations/fernhill/issues/\n",
        None,
        "company Sentry",
    ),
    Case(
        "project:tern",
        "# Dashboards\n\n- Grafana: https://grafana.ops-eu.fernhill.io/d/home\n",
        None,
        "company Grafana",
    ),
    Case(
        "claude:marlin-web",
        "# Upstream\n\n- Forms use https://github.com/react-hook-form/"
        "react-hook-form; bugs to its issues.\n",
        None,
        "public OSS repository",
    ),
    Case(
        "project:kelp-billing",
        "# Local\n\n- `docker run -p 5432:5432 postgres:16`; connect "
        "to 127.0.0.1:5432 or 0.0.0.0:5432\n",
        None,
        "loopback with ports",
    ),
    Case(
        "claude:quarry",
        "# Kind\n\n- Local cluster: `kubectl --context kind-kind get nodes`; "
        "minikube is `--context minikube`.\n",
        None,
        "local kube contexts",
    ),
    Case(
        "project:marlin-web",
        "# AWS\n\n- S3 endpoint s3.eu-west-1.amazonaws.com; the metadata "
        "service 169.254.169.254 answers in EC2.\n",
        None,
        "cloud service endpoints",
    ),
    Case(
        "claude:tern",
        "# Buckets\n\n- The example in the AWS docs is `s3://amzn-s3-demo-bucket/`"
        " and `arn:aws:s3:::my-bucket`.\n",
        None,
        "documented example buckets",
    ),
    Case(
        "project:quarry",
        "# Docker\n\n- The host from a container is 172.17.0.1:5432 or "
        "host.docker.internal:5432.\n",
        None,
        "docker bridge",
    ),
    Case(
        "claude:kelp-billing",
        "# Stripe\n\n- Webhooks from https://api.stripe.com/v1 and the "
        "dashboard at https://dashboard.stripe.com/test/payments\n",
        None,
        "vendor API",
    ),
    Case(
        "project:tern",
        "# Mirrors\n\n- Go modules via https://proxy.golang.org; images "
        "mirror `mirror.gcr.io/library/redis:7`\n",
        None,
        "public mirrors",
    ),
    Case(
        "claude:marlin-web",
        "# Vercel\n\n- Docs: https://vercel.com/docs/deployments/preview-deployments\n",
        None,
        "vendor docs",
    ),
    Case(
        "project:kelp-billing",
        "# Name\n\n- kelp-billing talks to tern for usage events; "
        "marlin-web renders the invoices.\n",
        None,
        "bare project names",
    ),
    Case(
        "claude:quarry",
        "# Own repo\n\n- Pushes go to https://gitlab.fernhill.io/data/quarry "
        "and the DAGs to https://airflow.quarry.fernhill.io\n",
        None,
        "own repo and host",
    ),
    Case(
        "project:tern",
        "# Registry\n\n- Our registry is registry.fernhill.io; log in with "
        "`docker login registry.fernhill.io`.\n",
        None,
        "company registry",
    ),
    Case(
        "claude:marlin-web",
        "# Fonts\n\n- Fonts from https://fonts.googleapis.com and https://fonts.gstatic.com\n",
        None,
        "public CDN",
    ),
    Case(
        "project:quarry",
        "# dbt\n\n- dbt docs: https://docs.getdbt.com/reference/node-selection/syntax\n",
        None,
        "docs site",
    ),
    Case(
        "claude:kelp-billing",
        "# Own queue\n\n- Consumer of "
        "arn:aws:sqs:eu-west-1:481516234200:kelp-invoices; exports to "
        "`s3://kelp-billing-exports/`\n",
        None,
        "own ARN and bucket",
    ),
    Case(
        "project:tern",
        "# Own cloud\n\n- `gcloud config set project fernhill-tern-prod` and "
        "`gsutil ls gs://fernhill-tern-artifacts`\n",
        None,
        "own project id and bucket",
    ),
    Case(
        "claude:marlin-web",
        "# Versions\n\n- Node 20.11.1 and pnpm 9.4.0; next 14.2.3\n",
        None,
        "versions with dots",
    ),
    Case(
        "project:quarry",
        "# Python\n\n- `from airflow.providers.amazon.aws.hooks.s3 import S3Hook`\n",
        None,
        "dotted module path",
    ),
    Case("claude:tern", "# Email\n\n- Pager goes to oncall@tern.fernhill.io.\n", None, "e-mail"),
    Case(
        "global",
        "# Company\n\n- Everything is behind vpn.fernhill.io; SSO at https://sso.fernhill.io\n",
        None,
        "company hosts in global memory",
    ),
    Case(
        "global",
        "# Where things are\n\n- kelp-billing: staging.kelp.fernhill.io; tern: "
        "api.tern.fernhill.io; quarry: airflow.quarry.fernhill.io\n",
        None,
        "several projects in global memory",
    ),
)


def documents(cases: tuple[Case, ...] = CASES) -> tuple[list[Document], list[int | None]]:
    """The world's memories and the cases', and for each document its case's index (None:
    the world's own)."""
    docs: list[Document] = []
    owners: list[int | None] = []
    for project, texts in OWN.items():
        for number, text in enumerate(texts):
            place = f"{'claude' if number else 'project'}:{project}"
            docs.append(memory(place, f"own-{number}.md", text))
            owners.append(None)
    for number, case in enumerate(cases):
        docs.append(memory(case.place, f"case-{number}.md", case.text))
        owners.append(number)
    return docs, owners


def found(home: Path, cases: tuple[Case, ...] = CASES) -> dict[int, list[Leak]]:
    """Each case's leaks of another project's places (`other-project`,
    `project-in-global`); key -1: the world's own memories'."""
    docs, owners = documents(cases)
    projects = {project_path(p): identity_of(project_path(p)) for p in PROJECTS}
    by_key = {d.key: owner for d, owner in zip(docs, owners, strict=True)}
    engine = LeaksEngine(Home(home), env={"HOME": "/home/dev", "USER": "dev"})
    leaks = engine.leaks_of(docs, projects)
    result: dict[int, list[Leak]] = {}
    for leak in leaks:
        if leak.kind not in ("other-project", "project-in-global"):
            continue
        key = next(d.key for d in docs if d.path == leak.place.path)
        owner = by_key[key]
        result.setdefault(-1 if owner is None else owner, []).append(leak)
    return result


def score(home: Path) -> dict[str, object]:
    """Recall over the leaks, precision over what is found (a leak naming the wrong project
    counts against it), and the near misses flagged."""
    leaks = found(home)
    right = wrong = 0
    missed, flagged = [], []
    for number, case in enumerate(CASES):
        mine = leaks.get(number, [])
        if case.belongs is None:
            wrong += len(mine)
            if mine:
                flagged.append(case.form)
            continue
        if any(leak.belongs_to in (None, project_path(case.belongs)) for leak in mine):
            right += 1
        else:
            missed.append(case.form)
        wrong += sum(leak.belongs_to not in (None, project_path(case.belongs)) for leak in mine)
    wrong += len(leaks.get(-1, []))
    seeded = sum(case.belongs is not None for case in CASES)
    own = [leak.names for leak in leaks.get(-1, [])]
    return card(right, wrong, seeded, missed, flagged, own=own)


def card(
    right: int, wrong: int, seeded: int, missed: list[str], flagged: list[str], **more: object
) -> dict[str, object]:
    """A labelled corpus's figures: found of seeded, precision, what was missed and which
    near misses were flagged (this corpus's, `leak_secrets`' and `check_forms`')."""
    precision = right / (right + wrong) if right + wrong else 1.0
    return {"found": right, "seeded": seeded, "precision": precision, "missed": missed,
            "flagged": flagged, **more}  # fmt: skip
