"""A labelled corpus for `memtab leaks`: whose place is it (issue 83), judged by what each
project's checkout on disk says it owns — its remotes, its module and package names, its
`.env*`, compose, CI, Vercel and Kubernetes files — where the place's own name says nothing
(`pg-ledger-3.db.oakwell.internal`, `10.88.4.31:5432`, `s3://oak-raw-landing`) and its
owner's memory names it once or never.

The world: Oakwell's four checkouts (`CHECKOUTS`: a Go service, a Next.js front end, a
Python ETL, a Rails shop), each project's memory naming a few of its own places (`OWN`).
`CASES` were written before the engine read checkouts; `AFTER` (`after=True`) after it,
in other voices, and never tuned on. Near misses: a project's own places, places its own
checkout uses (another service it calls), the company's shared services (named by several
checkouts), public sites, images, documentation's examples and addresses.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from memtab.check.documents import Document
from memtab.store.home import Home
from memtab.trust.leaks.engine import LeaksEngine, identity_of
from memtab.trust.leaks.records import Leak
from support.leak_places import Case, card
from support.seeded_memories import memory

PROJECTS = ("skiff", "lantern-ui", "gristmill", "tallow")

CHECKOUTS: dict[str, dict[str, str]] = {
    "skiff": {
        "go.mod": "module github.com/oakwell/skiff\n\ngo 1.23\n",
        "cmd/skiff/main.go": "package main\n",
        "deploy/k8s/ingress.yaml": "kind: Ingress\nspec:\n  rules:\n"
        "    - host: orders.oakwell.net\n",
        "deploy/k8s/deployment.yaml": "kind: Deployment\nspec:\n  template:\n    spec:\n"
        "      containers:\n        - name: skiff\n"
        "          image: registry.oakwell.net/skiff:1.9.0\n          env:\n"
        "            - name: PG_HOST\n              value: pg-ledger-3.db.oakwell.internal\n"
        "            - name: NATS_URL\n              value: nats://10.88.2.14:4222\n",
        ".github/workflows/deploy.yml": "jobs:\n  deploy:\n    steps:\n"
        "      - run: gcloud container clusters get-credentials east-4 --project "
        "oak-orders-prod\n"
        "      - run: kubectl --context gke_oak-orders-prod_us-east4_east-4 apply -f deploy/k8s/\n"
        "      - run: docker push registry.oakwell.net/skiff:${{ github.sha }}\n",
    },
    "lantern-ui": {
        "package.json": '{\n  "name": "@oakwell/lantern-ui",\n  "repository": {"type": "git", '
        '"url": "git+https://github.com/oakwell/lantern-ui.git"}\n}\n',
        ".env.production": "NEXT_PUBLIC_ORDERS_API=https://orders.oakwell.net/v2\n"
        "NEXT_PUBLIC_ASSETS=https://d2hq7rt0v1x.cloudfront.net\n"
        "GRAFANA_URL=https://grafana.oakwell.net\n"
        "NEXT_PUBLIC_ANALYTICS=https://cdn.segment-eu.com/analytics.js\n",
        "vercel.json": '{"rewrites": [{"source": "/api/:path*", '
        '"destination": "https://bff-7.oakwell.net/:path*"}]}\n',
        "app/page.tsx": "export default function Page() {}\n",
    },
    "gristmill": {
        ".git/config": '[core]\n\tbare = false\n[remote "origin"]\n'
        "\turl = git@git.oakwell.net:data/gristmill.git\n"
        "\tfetch = +refs/heads/*:refs/remotes/origin/*\n",
        "pyproject.toml": "[project]\nname = 'gristmill'\n",
        ".gitlab-ci.yml": "load:\n  script:\n    - aws s3 sync out/ s3://oak-raw-landing/\n"
        "    - psql postgresql://mill@10.88.4.31:5432/mill -f load.sql\n"
        "    - docker push registry.oakwell.net/gristmill:$CI_COMMIT_SHA\n",
        ".env.example": "WAREHOUSE_HOST=wh-02.oakwell.internal\n"
        "AIRFLOW_URL=https://af.oakwell.net\nVAULT_ADDR=https://vault.oakwell.internal:8200\n"
        "ORDER_EVENTS=nats://10.88.2.14:4222\n",
        "mill/__init__.py": "",
    },
    "tallow": {
        ".git/config": '[remote "origin"]\n\turl = https://github.com/oakwell/tallow.git\n',
        "docker-compose.yml": "services:\n  web:\n    environment:\n"
        "      REDIS_URL: redis://cache-b.oakwell.internal:6379/1\n"
        "      DATABASE_URL: postgres://tallow@10.88.7.12:5432/tallow_prod\n"
        "      ATTACHMENTS_URL: s3://tw-attach-prod/\n"
        "      SMTP_HOST: smtp.mailgun.org\n",
        ".env": "VAULT_ADDR=https://vault.oakwell.internal:8200\n"
        "S3_ENDPOINT=https://s3.eu-west-1.amazonaws.com\n"
        "GRAFANA_URL=https://grafana.oakwell.net\n",
        "config/deploy.yml": "service: tallow\nregistry:\n  server: registry.oakwell.net\n",
        ".circleci/config.yml": "jobs:\n  deploy:\n    steps:\n      - run: kubectl config "
        "use-context arn:aws:eks:eu-west-1:209345118822:cluster/eu-shop-2\n",
        "Gemfile": "source 'https://rubygems.org'\n",
    },
}
"""Each project's checkout (relative path → text)."""

OWN: dict[str, tuple[str, ...]] = {
    "skiff": (
        "# Orders service\n\n- Public API: https://orders.oakwell.net/v2\n"
        "- Primary: `pg-ledger-3.db.oakwell.internal` (failover is manual)\n",
    ),
    "lantern-ui": (
        "# Storefront\n\n- Calls the orders API at https://orders.oakwell.net/v2\n"
        "- Static assets behind https://d2hq7rt0v1x.cloudfront.net\n",
    ),
    "gristmill": ("# ETL\n\n- Lands files in `s3://oak-raw-landing/` every hour.\n",),
    "tallow": ("# Shop\n\n- Prod DB is 10.88.7.12:5432; sessions in Redis.\n",),
}
"""Each project's own memory: a file naming a few of its places, once."""

CASES: tuple[Case, ...] = (
    # --- another project's places its checkout says it owns ---------------------------
    Case(
        "claude:lantern-ui",
        "# Backfill\n\nRan the order backfill straight on pg-ledger-3.db.oakwell.internal "
        "(the primary!), never again.\n",
        "skiff",
        "opaque DB host from a k8s manifest",
    ),
    Case(
        "project:tallow",
        "# Cloud\n\n```\ngcloud config set project oak-orders-prod\n```\n",
        "skiff",
        "cloud project from CI",
    ),
    Case(
        "workspace:gristmill",
        "# Pods\n\n* `kubectl --context gke_oak-orders-prod_us-east4_east-4 get pods -n orders`\n",
        "skiff",
        "kube context from CI",
    ),
    Case(
        "claude:skiff",
        "# Storefront CDN\n\nImages for the order e-mails come off "
        "https://d2hq7rt0v1x.cloudfront.net/img/ too.\n",
        "lantern-ui",
        "CDN host from .env.production",
    ),
    Case(
        "project:gristmill",
        "# BFF\n\nThe storefront's BFF answers on bff-7.oakwell.net, handy for a quick curl.\n",
        "lantern-ui",
        "host from vercel.json",
    ),
    Case(
        "project:tallow",
        "# Upstream\n\n1. Reported it at https://github.com/oakwell/lantern-ui/issues/44\n",
        "lantern-ui",
        "repository from package.json",
    ),
    Case(
        "claude:skiff",
        "# Replays\n\n`git clone git@git.oakwell.net:data/gristmill.git ~/tmp/mill` to "
        "replay the loads\n",
        "gristmill",
        "repository from .git/config",
    ),
    Case(
        "claude:lantern-ui",
        "# Raw files\n\n`aws s3 ls s3://oak-raw-landing/2026/11/` shows what arrived.\n",
        "gristmill",
        "bucket from CI",
    ),
    Case(
        "workspace:tallow",
        "# Reports\n\npsql postgresql://mill@10.88.4.31:5432/mill, the mill DB\n",
        "gristmill",
        "address with a port from CI",
    ),
    Case(
        "team:skiff",
        "# Warehouse\n\n- The warehouse box is wh-02.oakwell.internal, ask data first.\n",
        "gristmill",
        "host from .env.example",
    ),
    Case(
        "claude:lantern-ui",
        "# Airflow\n\nDAG runs: <https://af.oakwell.net/dags/load_orders/grid>\n",
        "gristmill",
        "autolink from .env.example",
    ),
    Case(
        "project:skiff",
        "# Sessions\n\n> cache-b.oakwell.internal:6379 holds the shop's sessions; flushing "
        "it logs everybody out.\n",
        "tallow",
        "cache host from compose, in a quote",
    ),
    Case(
        "claude:gristmill",
        "# Attachments\n\nInvoices PDFs: `s3://tw-attach-prod/invoices/`\n",
        "tallow",
        "bucket from compose",
    ),
    Case(
        "global",
        "# Handy\n\n- 10.88.7.12:5432 is the shop DB (read-only user in 1Password)\n",
        "tallow",
        "address in global memory",
    ),
    Case(
        "project:gristmill",
        "# EKS\n\n- `kubectl config use-context "
        "arn:aws:eks:eu-west-1:209345118822:cluster/eu-shop-2`\n",
        "tallow",
        "EKS context from CircleCI",
    ),
    Case(
        "claude:skiff",
        "# Shop PR\n\nSee https://github.com/oakwell/tallow/pull/812 for the webhook change.\n",
        "tallow",
        "repository from a remote",
    ),
    Case(
        "global",
        "# Prod\n\n- pg-ledger-3.db.oakwell.internal: replica lag alarms go to #orders\n",
        "skiff",
        "opaque host in global memory",
    ),
    Case(
        "claude-user",
        "# Before prod\n\nAlways `kubectx gke_oak-orders-prod_us-east4_east-4` first, and "
        "say so.\n",
        "skiff",
        "kube context in user rules",
    ),
    Case(
        "workspace:lantern-ui",
        "# Debug\n\nssh deploy@10.88.4.31 then `tail -f /var/log/mill.log`\n",
        "gristmill",
        "address logged in to",
    ),
    Case(
        "claude:tallow",
        "# Reports\n\nReports read `postgres://ro@wh-02.oakwell.internal:5439/mill`.\n",
        "gristmill",
        "DSN on an opaque host",
    ),
    Case(
        "project:lantern-ui",
        "# Orders DB\n\n| what | where |\n|---|---|\n| cloud SQL | `gcloud sql connect orders-db "
        "--project oak-orders-prod` |\n",
        "skiff",
        "cloud project in a table",
    ),
    Case(
        "claude:tallow",
        "# Landing\n\nMill's landing bucket (arn:aws:s3:::oak-raw-landing) is in eu-west-1.\n",
        "gristmill",
        "bucket ARN",
    ),
    Case(
        "project:skiff",
        "# ssh\n\n```\nHost mill\n    HostName 10.88.4.31\n    User etl\n```\n",
        "gristmill",
        "ssh config block",
    ),
    Case(
        "claude:lantern-ui",
        "# Cart\n\nThe cart lives in Redis at redis://cache-b.oakwell.internal:6379/1 (not "
        "ours).\n",
        "tallow",
        "redis URL",
    ),
    Case(
        "project:gristmill",
        "# Remote\n\n- `git remote add shop https://github.com/oakwell/tallow.git` for the "
        "schema dumps\n",
        "tallow",
        "git remote add",
    ),
    # --- a host no checkout names, said to be another project's (its possessive) -----
    Case(
        "claude:tallow",
        "# Status\n\nChecked skiff's status page: https://status-7.oakwell.net/orders\n",
        "skiff",
        "possessive, colon",
    ),
    Case(
        "project:gristmill",
        "# Flags\n\nlantern-ui's feature flags are at https://flags.oakwell.net\n",
        "lantern-ui",
        "possessive, are at",
    ),
    Case(
        "workspace:skiff",
        "# Demo\n\nFor the demo I used gristmill's notebook server (https://nb-2.oakwell.net).\n",
        "gristmill",
        "possessive, parenthesis",
    ),
    Case(
        "team:lantern-ui",
        "# Admin\n\n- tallow's admin → https://backoffice.oakwell.net/admin\n",
        "tallow",
        "possessive, arrow",
    ),
    Case(
        "claude:gristmill",
        "# Kafka\n\nSkiff's Kafka UI is kafka-ui.oakwell.internal (VPN).\n",
        "skiff",
        "capitalised possessive, bare host",
    ),
    Case(
        "project:tallow",
        "# UI kit\n\nlantern's storybook: https://sb.oakwell.net\n",
        "lantern-ui",
        "possessive of a name's first word",
    ),
    # --- near misses ------------------------------------------------------------------
    Case(
        "claude:skiff",
        "# Status\n\nskiff's own status page: https://status-9.oakwell.net\n",
        None,
        "its own possessive",
    ),
    Case(
        "project:tallow",
        "# Ingest\n\ngristmill's loads push to https://ingest.oakwell.net nightly.\n",
        None,
        "possessive, then a verb",
    ),
    Case(
        "claude:lantern-ui",
        "# Dash\n\nDana's dashboard is https://dash-3.oakwell.net\n",
        None,
        "a person's possessive",
    ),
    Case(
        "project:gristmill",
        "# Hooks\n\ntallow's webhooks call https://hooks.partner-x.com on refunds.\n",
        None,
        "possessive, a third party's host it calls",
    ),
    Case(
        "claude:skiff",
        "# Dashboards\n\ngristmill's and tallow's dashboards: https://grafana-x.oakwell.net\n",
        None,
        "two projects' possessives",
    ),
    Case(
        "claude:skiff",
        "# DB\n\nFailover drill: promote the replica of pg-ledger-3.db.oakwell.internal.\n",
        None,
        "own opaque host",
    ),
    Case(
        "project:skiff",
        "# Context\n\n`kubectl --context gke_oak-orders-prod_us-east4_east-4 rollout status "
        "deploy/skiff`\n",
        None,
        "own kube context",
    ),
    Case(
        "claude:lantern-ui",
        "# BFF\n\nbff-7.oakwell.net is our BFF; `curl https://bff-7.oakwell.net/health`.\n",
        None,
        "own host from vercel.json",
    ),
    Case(
        "project:gristmill",
        "# Loads\n\n- `psql postgresql://mill@10.88.4.31:5432/mill`\n",
        None,
        "own address",
    ),
    Case(
        "claude:tallow",
        "# Files\n\nAttachments: `s3://tw-attach-prod/`, cache at cache-b.oakwell.internal:6379\n",
        None,
        "own bucket and cache",
    ),
    Case(
        "workspace:gristmill",
        "# Events\n\nOrder events come in over nats://10.88.2.14:4222 (skiff publishes).\n",
        None,
        "another's place its own checkout uses",
    ),
    Case(
        "claude:lantern-ui",
        "# API\n\nThe orders API: https://orders.oakwell.net/v2/orders?status=open\n",
        None,
        "a service two checkouts name",
    ),
    Case(
        "project:tallow",
        "# Orders\n\nWebhooks come from https://orders.oakwell.net (skiff).\n",
        None,
        "a shared host in a third project",
    ),
    Case(
        "claude:skiff",
        "# Registry\n\n`docker login registry.oakwell.net` before the push.\n",
        None,
        "company registry named by three checkouts",
    ),
    Case(
        "project:lantern-ui",
        "# Secrets\n\nSecrets come from https://vault.oakwell.internal:8200 (OIDC login).\n",
        None,
        "company vault named by two checkouts",
    ),
    Case(
        "claude:gristmill",
        "# Dashboards\n\nhttps://grafana.oakwell.net/d/mill-loads is the load dashboard.\n",
        None,
        "company grafana named by two checkouts",
    ),
    Case(
        "project:tallow",
        "# Images\n\n`docker pull registry.oakwell.net/skiff:1.9.0` to run orders locally.\n",
        None,
        "another project's image",
    ),
    Case(
        "claude:skiff",
        "# Go\n\nhttps://github.com/golang/go/issues/61717 explains the timer change.\n",
        None,
        "public repository",
    ),
    Case(
        "project:gristmill",
        "# Local\n\n`postgres://mill@localhost:5432/mill` and 127.0.0.1:8080 for Airflow.\n",
        None,
        "this machine",
    ),
    Case(
        "claude:tallow",
        "# Docs\n\nThe example in the docs is s3://amzn-s3-demo-bucket/ at 192.0.2.10:443.\n",
        None,
        "documentation's examples",
    ),
    Case(
        "project:lantern-ui",
        "# Who calls whom\n\nlantern-ui calls skiff for orders; gristmill loads them nightly.\n",
        None,
        "bare project names",
    ),
    Case(
        "global",
        "# Company\n\n- Registry: registry.oakwell.net; secrets: vault.oakwell.internal:8200\n",
        None,
        "company services in global memory",
    ),
    Case(
        "global",
        "# Map\n\n- skiff DB: pg-ledger-3.db.oakwell.internal; shop DB: 10.88.7.12:5432\n",
        None,
        "several projects' places in global memory",
    ),
    Case(
        "claude:skiff",
        "# Kind\n\n`kubectl --context kind-skiff apply -f deploy/k8s/` for local runs.\n",
        None,
        "local cluster context",
    ),
    Case(
        "project:tallow",
        "# Mail\n\nFailures mail ops@oakwell.net and on-call@mill.oakwell.net.\n",
        None,
        "e-mail addresses",
    ),
    Case(
        "claude:lantern-ui",
        "# Versions\n\nNext 14.2.15, Node 20.11.1, pnpm 9.12.3.\n",
        None,
        "versions",
    ),
    Case(
        "project:gristmill",
        "# DNS\n\nResolvers 8.8.8.8 and 1.1.1.1:53 when the VPN DNS flakes.\n",
        None,
        "public resolvers",
    ),
    Case(
        "claude:skiff",
        "# Own repo\n\nPRs at https://github.com/oakwell/skiff/pulls; module "
        "github.com/oakwell/skiff\n",
        None,
        "own repository",
    ),
    Case(
        "project:lantern-ui",
        "# Vercel\n\nDocs: https://vercel.com/docs/projects/project-configuration#rewrites\n",
        None,
        "vendor docs",
    ),
    Case(
        "claude:gristmill",
        "# Cloud\n\n`gcloud config set project my-project-id` is what the guide says.\n",
        None,
        "placeholder project id",
    ),
    Case(
        "claude:skiff",
        "# Mail\n\nOrder mails go out through smtp.mailgun.org (port 587).\n",
        None,
        "a third party's host one checkout names",
    ),
    Case(
        "project:gristmill",
        "# Events\n\nClickstream comes from https://cdn.segment-eu.com via the warehouse sync.\n",
        None,
        "another third party's host one checkout names",
    ),
    Case(
        "project:tallow",
        "# Own EKS\n\n`kubectl config use-context "
        "arn:aws:eks:eu-west-1:209345118822:cluster/eu-shop-2`\n",
        None,
        "own EKS context",
    ),
)

AFTER: tuple[Case, ...] = (
    Case(
        "team:gristmill",
        "# Joins\n\nFor the join with orders we hit pg-ledger-3.db.oakwell.internal:5432 "
        "directly (ask skiff folks first).\n",
        "skiff",
        "host with a port in team memory",
    ),
    Case(
        "claude:tallow",
        "---\nname: cdn\ndescription: cdn\n---\n\nProduct images: "
        "`https://d2hq7rt0v1x.cloudfront.net/p/<sku>.webp`\n",
        "lantern-ui",
        "CDN URL with a placeholder path, under frontmatter",
    ),
    Case(
        "workspace:skiff",
        "# Loader\n\nOur events end up in wh-02.oakwell.internal after the nightly DAG.\n",
        "gristmill",
        "host in a plain sentence",
    ),
    Case(
        "project:lantern-ui",
        "# Where uploads go\n\n    aws s3 cp ./banner.png s3://tw-attach-prod/banners/\n",
        "tallow",
        "bucket in an indented code block",
    ),
    Case(
        "claude:gristmill",
        "# gcloud\n\nTo look at the orders cluster: `gcloud container clusters list "
        "--project=oak-orders-prod`\n",
        "skiff",
        "--project= form",
    ),
    Case(
        "global",
        "# Shortcuts\n\n- mill DB: `psql -h 10.88.4.31 -p 5432 mill` or "
        "postgresql://mill@10.88.4.31:5432/mill\n",
        "gristmill",
        "address in global memory, two forms",
    ),
    Case(
        "claude:skiff",
        "# Shop code\n\nThe refund flow is in git@github.com:oakwell/tallow.git "
        "(app/services/refunds.rb).\n",
        "tallow",
        "ssh remote of a remote-only repository",
    ),
    Case(
        "project:tallow",
        "# Proxy\n\n* curl -H 'Host: shop' https://bff-7.oakwell.net/cart → 502 since Tuesday\n",
        "lantern-ui",
        "host in a curl with an arrow",
    ),
    Case(
        "claude:lantern-ui",
        "# Infra\n\nThe shop's EKS: arn:aws:eks:eu-west-1:209345118822:cluster/eu-shop-2\n",
        "tallow",
        "EKS ARN in prose",
    ),
    Case(
        "gemini",
        "# GEMINI\n\n- When asked about orders infra: context "
        "`gke_oak-orders-prod_us-east4_east-4`, use `kubectl --context "
        "gke_oak-orders-prod_us-east4_east-4`\n",
        "skiff",
        "kube context in Gemini's global memory",
    ),
    Case(
        "workspace:tallow",
        "# Landing\n\nDropped the CSV in s3://oak-raw-landing/manual/ so mill picks it up.\n",
        "gristmill",
        "bucket in a workspace note",
    ),
    Case(
        "project:skiff",
        "# Airflow\n\n[DAG grid](https://af.oakwell.net/dags/orders_sync/grid?tab=logs)\n",
        "gristmill",
        "Markdown link with a query",
    ),
    # --- near misses ------------------------------------------------------------------
    Case(
        "team:skiff",
        "# Release\n\n`kubectl --context gke_oak-orders-prod_us-east4_east-4 -n orders "
        "rollout undo deploy/skiff`\n",
        None,
        "own context in team memory",
    ),
    Case(
        "workspace:lantern-ui",
        "# CDN purge\n\n`aws cloudfront create-invalidation` for d2hq7rt0v1x.cloudfront.net\n",
        None,
        "own CDN host",
    ),
    Case(
        "claude:gristmill",
        "# Warehouse\n\n`psql -h wh-02.oakwell.internal -U mill` — VPN first.\n",
        None,
        "own warehouse host",
    ),
    Case(
        "project:tallow",
        "# Cache\n\nredis-cli -h cache-b.oakwell.internal -n 1 FLUSHDB only in staging.\n",
        None,
        "own cache host",
    ),
    Case(
        "claude:lantern-ui",
        "# Grafana\n\nWeb vitals: https://grafana.oakwell.net/d/web-vitals\n",
        None,
        "company grafana",
    ),
    Case(
        "project:skiff",
        "# S3 endpoint\n\nThe SDK talks to https://s3.eu-west-1.amazonaws.com by default.\n",
        None,
        "a cloud's own endpoint",
    ),
    Case(
        "claude:tallow",
        "# Vault\n\n`vault login -address=https://vault.oakwell.internal:8200 -method=oidc`\n",
        None,
        "company vault, own use",
    ),
    Case(
        "workspace:gristmill",
        "# Events\n\nnats sub -s nats://10.88.2.14:4222 'orders.>' to watch the feed.\n",
        None,
        "a place its own checkout uses, in a command",
    ),
    Case(
        "project:lantern-ui",
        "# Orders API\n\nOpenAPI at https://orders.oakwell.net/v2/openapi.json\n",
        None,
        "a service it calls, two checkouts name it",
    ),
    Case(
        "claude:skiff",
        "# Go modules\n\n`go get github.com/oakwell/skiff/pkg/money@latest` in other repos.\n",
        None,
        "own module path",
    ),
    Case(
        "global",
        "# Mirror\n\n- `pip config set global.index-url https://pypi.org/simple` and "
        "`npm config set registry https://registry.npmjs.org`\n",
        None,
        "public package registries",
    ),
    Case(
        "project:gristmill",
        "# Example\n\nThe Airflow docs use `s3://my-bucket/dags` and 203.0.113.5:8080.\n",
        None,
        "documentation's placeholders",
    ),
)
"""Written after the change and never tuned on (see the module doc)."""


def lay_out(root: Path) -> dict[str, str]:
    """The checkouts under `root`: each project's name → its path."""
    paths = {}
    for project, files in CHECKOUTS.items():
        checkout = root / "src" / project
        for relative, text in files.items():
            (checkout / relative).parent.mkdir(parents=True, exist_ok=True)
            (checkout / relative).write_text(text, encoding="utf-8")
        paths[project] = str(checkout)
    return paths


def _at(document: Document, paths: dict[str, str]) -> Document:
    """`document` of a project under `paths` (its checkout on disk), not under `SRC`."""
    if document.project is None:
        return document
    project = paths[document.project.rsplit("/", 1)[-1]]
    return replace(
        document,
        project=project,
        key=document.key.replace(document.project, project),
        group=f"project:{project}",
    )


def found(root: Path, cases: tuple[Case, ...]) -> dict[int, list[Leak]]:
    """Each case's leaks of another project's places; key -1: the world's own memories'."""
    paths = lay_out(root)
    docs: list[Document] = []
    owners: list[int | None] = []
    for project, texts in OWN.items():
        for number, text in enumerate(texts):
            docs.append(_at(memory(f"claude:{project}", f"own-{number}.md", text), paths))
            owners.append(None)
    for number, case in enumerate(cases):
        docs.append(_at(memory(case.place, f"case-{number}.md", case.text), paths))
        owners.append(number)
    projects = {path: identity_of(path) for path in paths.values()}
    engine = LeaksEngine(Home(root / "home"), env={"HOME": str(root), "USER": "dev"})
    by_path = {d.path: owner for d, owner in zip(docs, owners, strict=True)}
    result: dict[int, list[Leak]] = {}
    for leak in engine.leaks_of(docs, projects):
        if leak.kind in ("other-project", "project-in-global"):
            owner = by_path[leak.place.path]
            result.setdefault(-1 if owner is None else owner, []).append(leak)
    return result


def score(root: Path, *, after: bool = False) -> dict[str, object]:
    """Recall over the leaks, precision over what is found (a leak naming the wrong project
    counts against it), and the near misses flagged; `after`: the batch written after."""
    cases = AFTER if after else CASES
    leaks = found(root, cases)
    right = wrong = 0
    missed, flagged = [], []
    for number, case in enumerate(cases):
        mine = leaks.get(number, [])
        owner = str(root / "src" / case.belongs) if case.belongs else None
        if owner is None:
            wrong += len(mine)
            flagged += [case.form] if mine else []
            continue
        right += any(leak.belongs_to in (None, owner) for leak in mine)
        missed += [] if any(leak.belongs_to in (None, owner) for leak in mine) else [case.form]
        wrong += sum(leak.belongs_to not in (None, owner) for leak in mine)
    wrong += len(leaks.get(-1, []))
    seeded = sum(case.belongs is not None for case in cases)
    own = [leak.names for leak in leaks.get(-1, [])]
    return card(right, wrong, seeded, missed, flagged, own=own)
