"""Labelled note pairs for `memtab contradictions` (issue 83): a choice between two named
alternatives — "X, not Y", "X instead of Y", "prefer X over Y", "X rather than Y", "moved
from Y to X", "Y is gone, X now", "stick to X; Y isn't approved" — of tools no taxonomy
lists (dataframe libraries, mobile test runners, web servers, databases, CLI libraries…),
and a tool used through its command (`` `poetry install` ``). Near misses: the same pair
chosen for different purposes, a past choice, a hedge, a comparison, two things.

Each case's notes are built and read as `contradiction_voices.found` builds them (a title
and a filler line of its own), so what is found joins the case's two notes or nothing.
"""

from __future__ import annotations

from support.contradiction_cases import Case

SAME = ("project:shop", "project:shop")
TEAM = ("team:shop", "claude:shop")
C, N = "contradiction", "neither"

CASES: tuple[Case, ...] = (
    # Two choices of one pair, opposite sides.
    Case("choice", "- Use polars, not pandas.", "- Prefer pandas over polars.", C, SAME),
    Case("choice", "- Write the API server with uvicorn instead of gunicorn.",
         "- Use gunicorn rather than uvicorn.", C, SAME),
    Case("choice", "We moved from Appium to Maestro for the mobile e2e suite last spring.",
         "- Mobile e2e: use Appium, not Maestro.", C, SAME),
    Case("choice", "- Stick to Caddy; nginx isn't approved.",
         "- Serve the site with nginx instead of Caddy.", C, SAME),
    Case("choice", "- Typer, not Click, for the command-line tools.",
         "- Prefer Click over Typer for the command-line tools.", C, SAME),
    Case("choice", "- DuckDB is gone; ClickHouse now.",
         "- Use DuckDB rather than ClickHouse.", C, TEAM),
    Case("choice", "- Prefer Valkey over Redis.", "- Use Redis, not Valkey.", C, SAME),
    Case("choice", "- We switched from Airflow to Dagster.",
         "- Schedule pipelines in Airflow rather than Dagster.", C, SAME),
    Case("choice", "- Use gRPC instead of GraphQL between services.",
         "- Prefer GraphQL over gRPC between services.", C, SAME),
    Case("choice", "- Lodash is dropped, Ramda now.", "- Prefer lodash over Ramda.", C, SAME),
    Case("choice", "- Reach for Traefik, not HAProxy.",
         "- Use HAProxy instead of Traefik.", C, SAME),
    Case("choice", "- Prefer tabs over spaces.", "- Use spaces, not tabs.", C, SAME),
    # A choice of one side, and a plain use of the other for the same purpose.
    Case("choice", "- Use polars instead of pandas for transforms.",
         "- Use pandas for transforms.", C, SAME),
    Case("choice", "- Use Detox rather than Appium for the mobile tests.",
         "- Use Appium for the mobile tests.", C, SAME),
    # Near misses.
    Case("choice", "- Prefer polars over pandas for transforms.",
         "- Prefer pandas over polars for plotting.", N, SAME),
    Case("choice", "- Use polars instead of pandas for transforms.",
         "- Use pandas for plotting.", N, SAME),
    Case("choice", "- We used to prefer gunicorn over uvicorn.",
         "- Use uvicorn, not gunicorn.", N, SAME),
    Case("choice", "- Maybe use Maestro instead of Appium.",
         "- Use Appium, not Maestro.", N, SAME),
    Case("choice", "- Polars is much faster than pandas.", "- Use pandas, not polars.", N, SAME),
    Case("choice", "- Use Caddy, not nginx.", "- Caddy is our web server.", N, SAME),
    Case("choice", "- Use Redis, not Memcached, for sessions.",
         "- Use Memcached, not Redis, for the page cache.", N, SAME),
    Case("choice", "- Prefer composition over inheritance.",
         "- Prefer small functions over long ones.", N, SAME),
    Case("choice", "- Use Typer, not Click.", "- Click the button, not the link.", N, SAME),
    Case("choice", "- Use the staging database, not prod.",
         "- Use prod data, not staging data, for the load test.", N, SAME),
    Case("choice", "- Use polars, not pandas.", "- Don't use pandas in new code.", N, SAME),
    Case("choice", "- Use Traefik instead of HAProxy in the edge cluster.",
         "- Use HAProxy in the legacy cluster.", N, SAME),
    Case("choice", "- Use pnpm, not npm.", "- Never use npm.", N, SAME),
    Case("choice", "- Use pnpm, not npm.", "- Always use pnpm.", N, SAME),
    # A tool used through its command.
    Case("command", "- Install dependencies with `poetry install`.",
         "- We're a uv shop.", C, SAME),
    Case("command", "- Add packages with `yarn add <pkg>`.",
         "- pnpm is our package manager.", C, SAME),
    Case("command", "- Format the Python code with `black .`, then commit.",
         "- Format with ruff format.", C, SAME),
    Case("command", "- Run `poetry install` in the legacy service only.",
         "- We're a uv shop.", N, SAME),
    Case("command", "- Never run `npm install`; pnpm only.", "- pnpm is our package manager.",
         N, SAME),
    Case("command", "- If you see `yarn.lock` conflicts, run `yarn install`.",
         "- pnpm is our package manager.", N, SAME),
    Case("choice", "- Use Postgres, not SQLite, in production.",
         "- Use SQLite for the unit tests.", N, SAME),
    Case("choice", "- Use Kinesis, not Pulsar, for the clickstream.",
         "- Use Pulsar for the audit log.", N, SAME),
    Case("choice", "- Grafana, not Kibana.", "- Kibana dashboards are read-only.", N, SAME),
    Case("choice", "- We might use Bazel instead of Pants.", "- Use Pants, not Bazel.", N, SAME),
    Case("choice", "- Should we use Pants instead of Bazel?", "- Use Bazel, not Pants.", N, SAME),
    Case("choice", "- Use Bazel instead of Pants.", "- Bazel, not Pants.", N, SAME),
    Case("choice", "- Prefer Zig over C for new tools.",
         "- Prefer C over Rust for the firmware.", N, SAME),
    Case("choice", "- Use Detox instead of Appium for the mobile tests.",
         "- Use Detox for the mobile tests.", N, SAME),
    Case("command", "- Publish the SDK with `npm publish`.", "- pnpm is our package manager.",
         N, SAME),
    Case("command", "- Build the image with `npm run build`.", "- pnpm is our package manager.",
         N, SAME),
)  # fmt: skip
