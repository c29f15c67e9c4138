"""Labelled note pairs for `memtab contradictions` (issue 83): a tool chosen for a job in
every ecosystem a developer's memory talks about — Python data and ML, Go, Rust, the JVM,
.NET, Ruby, PHP, mobile, infrastructure — said by name, by its command (`` `npx playwright
test` ``, `` `bundle exec rspec` ``) or by its import (`` `import polars as pl` ``), in
bullets, labels, prose, Claude Code's frontmatter files, Codex's memory summary, GEMINI.md
and a team's shared memory. Near misses: two tools used together (a runner and its
assertion library, a framework and the library under it, provisioning and configuring),
one job in two ecosystems or two parts, agreement in other words, what was, a question, a
comparison, a tool named for another job.

Written before the readers were changed for it. Each case's notes are built and read as
`contradiction_voices.found` builds them (a title and a filler line of its own), so what
is found joins the case's two notes or nothing.
"""

from __future__ import annotations

from support.contradiction_cases import Case

SAME = ("project:shop", "project:shop")
CLAUDE = ("claude:shop", "project:shop")
TEAM = ("team:shop", "claude:shop")
CODEX = ("codex", "project:shop")
GEMINI = ("gemini", "project:shop")
C, N = "contradiction", "neither"


def _claude(name: str, body: str) -> str:
    """A Claude Code memory file: its frontmatter, then the body."""
    return (
        f"---\nname: {name}\ndescription: {name} for the shop\nmetadata:\n  type: project\n"
        f"---\n\n{body}"
    )


CASES: tuple[Case, ...] = (
    # Python: data, ML, CLIs, servers.
    Case("python", "- Dataframes: `import polars as pl`, always.",
         "- The ETL does its transforms in pandas.", C, SAME),
    Case("python", "- Models are trained with PyTorch.",
         "- We're a TensorFlow shop for the models.", C, SAME),
    Case("python",
         _claude("experiments", "Log every training run to MLflow.\n\n"
                 "**Why:** the team compares runs there."),
         "- Experiment tracking: Weights & Biases.", C, CLAUDE),
    Case("python", "- CLI entry points are built with Typer.",
         "- Write the command-line tools with argparse; no extra dependencies.", C, SAME),
    Case("python", "- Serve the API with uvicorn.", "- The ASGI server is Hypercorn.", C, SAME),
    Case("python", "- Logging: `from loguru import logger` in every module.",
         "- Use structlog for logging.", C, SAME),
    Case("python", "- Run the tests with `uv run pytest`.", "- Our tests use unittest.", C, SAME),
    # Go.
    Case("go", "- Structured logging in the Go services uses zap.",
         "- Log with zerolog in every service.", C, SAME),
    Case("go", "- Go CLIs are built on cobra.",
         "- Use urfave/cli for the Go command-line tools.", C, SAME),
    Case("go", "- Go tests assert with testify.", "- Use gomega matchers in the Go tests.", C,
         SAME),
    Case("go", "- Configuration is loaded with viper.", "- Use koanf for config.", C, SAME),
    # Rust.
    Case("rust", "- The Rust API is built with axum.",
         "- Use actix-web for the Rust HTTP services.", C, SAME),
    Case("rust", "- Async runtime: tokio.", "- We run everything on async-std.", C, SAME),
    Case("rust", "- Parse arguments with clap.", "- argh for argument parsing, it's smaller.", C,
         SAME),
    Case("rust", "- Application errors use anyhow.",
         "- Use eyre for errors in the binaries.", C, SAME),
    # The JVM.
    Case("jvm", "- Unit tests are written in JUnit 5.", "- We write the unit tests with Kotest.",
         C, SAME),
    Case("jvm", "- Mock with MockK in the Kotlin code.", "- Mockito for mocks.", C, SAME),
    Case("jvm", "- The backend framework is Quarkus.",
         "- Build the backend services on Spring Boot.", C, SAME),
    Case("jvm", "- JSON serialization goes through Jackson.", "- Serialize JSON with Gson.", C,
         SAME),
    Case("jvm", "- Persistence: jOOQ, generated from the schema.", "- Our ORM is Hibernate.", C,
         SAME),
    Case("jvm", "- Logback is the logging backend.", "- Use Log4j2 for logging.", C, SAME),
    Case("jvm", "- Build with `./gradlew build`.", "- The service builds with Maven.", C, SAME),
    # .NET.
    Case("dotnet", "- user prefers xUnit for the .NET tests",
         "- .NET tests are written with NUnit.", C, CODEX),
    Case("dotnet", "- Mock dependencies with Moq.", "- NSubstitute for test doubles.", C, SAME),
    Case("dotnet", "- Data access uses Entity Framework Core.",
         "- Use NHibernate for the data access layer.", C, SAME),
    Case("dotnet", "- Serilog is our logger.", "- Logging goes through NLog.", C, SAME),
    Case("dotnet", "- Use System.Text.Json, not Newtonsoft.",
         "- JSON is handled by Newtonsoft.Json.", C, SAME),
    # Ruby and PHP.
    Case("ruby", "- HTTP calls from the Rails app use Faraday.",
         "- Use HTTParty for outbound HTTP.", C, SAME),
    Case("ruby", "- Run the Ruby tests with `bundle exec rspec`.",
         "- The Ruby tests are written in Minitest.", C, SAME),
    Case("php", "- The backend is built on Laravel.", "- We use Symfony for the backend.", C,
         SAME),
    Case("php", "- Static analysis: PHPStan at level 8.", "- Run Psalm for static analysis.", C,
         SAME),
    # Mobile.
    Case("mobile", "- The mobile app is built with Flutter.", "- The mobile app is React Native.",
         C, GEMINI),
    Case("mobile", "- iOS dependencies are managed with CocoaPods.",
         "- Add iOS dependencies through Swift Package Manager.", C, SAME),
    Case("mobile", "- State management: Riverpod.", "- Use Bloc for state in the Flutter app.", C,
         SAME),
    Case("mobile", "- Dependency injection on Android is Hilt.",
         "- Koin handles dependency injection.", C, SAME),
    # JavaScript and TypeScript.
    Case("js", "- Server state is fetched with TanStack Query.", "- Use SWR for data fetching.",
         C, SAME),
    Case("js", "- Run the browser tests with `npx playwright test`.", "- E2E tests use Cypress.",
         C, SAME),
    Case("js", "- The component library is Chakra UI.", "- Use Mantine for the UI components.",
         C, SAME),
    # Infrastructure and services.
    Case("infra", "- Embeddings are stored in Qdrant.", "- The vector store is pgvector.", C,
         TEAM),
    Case("infra", "- Deploys are synced by Argo CD.", "- Flux handles GitOps for the clusters.",
         C, SAME),
    Case("infra", "- Servers are configured with Ansible.", "- Chef configures the servers.", C,
         SAME),
    Case("infra", "- Transactional email goes out through Postmark.",
         "- Send emails with SendGrid.", C, SAME),
    # Near misses: used together.
    Case("together", "- Tests run with Mocha.", "- Assertions use Chai.", N, SAME),
    Case("together", "- Unit tests are written in JUnit 5.", "- Assertions use AssertJ.", N,
         SAME),
    Case("together", "- xUnit for the .NET tests.", "- FluentAssertions for assertions.", N, SAME),
    Case("together", "- Go CLIs are built on cobra.", "- Configuration is loaded with viper.", N,
         SAME),
    Case("together", "- Gunicorn manages the worker processes.", "- The ASGI server is uvicorn.",
         N, SAME),
    Case("together", "- The web app is Next.js.", "- The frontend is React.", N, SAME),
    Case("together", "- Infrastructure is provisioned with Terraform.",
         "- Servers are configured with Ansible.", N, SAME),
    Case("together", "- Retrofit for the Android API client.",
         "- OkHttp interceptors add the auth header.", N, SAME),
    Case("together", "- Application errors use anyhow.",
         "- Library errors are defined with thiserror.", N, SAME),
    Case("together", "- Data access uses Entity Framework Core.",
         "- Reporting queries use Dapper.", N, SAME),
    Case("together", "- Log through the SLF4J API.", "- Logback is the logging backend.", N, SAME),
    Case("together", "- Component tests use React Testing Library.",
         "- Jest runs the unit tests.", N, SAME),
    Case("together", "- Plots are made with matplotlib.", "- seaborn for the statistical charts.",
         N, SAME),
    Case("together", "- Type-check with `tsc --noEmit`.", "- Transpile with swc.", N, SAME),
    # Near misses: one job in two ecosystems or two parts, another job.
    Case("apart", "- Python tests run with pytest.",
         "- The Go services are tested with testify.", N, SAME),
    Case("apart", "- Use polars for the ingestion jobs.", "- Use pandas in the notebooks.", N,
         SAME),
    Case("apart", "- Mobile e2e tests run on Maestro.", "- Web e2e tests run on Playwright.", N,
         SAME),
    Case("apart", "- Use Koin in the Kotlin Multiplatform module.",
         "- Hilt for dependency injection in the Android app.", N, SAME),
    Case("apart", "- Our ORM is Hibernate.",
         "- The Python reporting job uses SQLAlchemy.", N, SAME),
    Case("apart", "- The mobile app is built with Flutter.",
         "- The marketing site is built with Astro.", N, GEMINI),
    Case("apart", "- Embeddings are stored in Qdrant.",
         "- Everything else is stored in Postgres.", N, SAME),
    Case("apart", "- Serilog is our logger.", "- Use xUnit for tests.", N, SAME),
    Case("apart", "- Run `go test ./...` before pushing.", "- Go tests assert with testify.", N,
         SAME),
    Case("apart", "- `npx playwright install` downloads the browsers for the scraper.",
         "- E2E tests use Cypress.", N, SAME),
    Case("apart", "- The Flutter SDK is pinned in `.fvmrc`.", "- The mobile app is React Native.",
         N, SAME),
    # Near misses: agreement, what was, a hedge, a question, a comparison.
    Case("said", "- Models are trained with PyTorch.",
         "- Training code imports `torch`; keep it that way.", N, SAME),
    Case("said", "- We moved from Moq to NSubstitute.", "- NSubstitute for test doubles.", N,
         SAME),
    Case("said", "- Polars is faster than pandas for big joins.", "- Use pandas.", N, SAME),
    Case("said", "- Should we try Bloc instead of Riverpod?", "- State management: Riverpod.", N,
         SAME),
    Case("said", "- The legacy notebooks `import pandas as pd`.",
         "- Dataframes: `import polars as pl`.", N, SAME),
    Case("said", "- Run the Ruby tests with `bundle exec rspec`.", "- RSpec is the test framework.",
         N, SAME),
    Case("said", "- Dependency injection on Android is Hilt.",
         "- Use Hilt's `@Inject` constructors everywhere.", N, SAME),
    Case("said",
         "- CocoaPods was removed; everything is on Swift Package Manager now.",
         "- Add iOS dependencies through Swift Package Manager.", N, SAME),
    Case("said", "- Maybe try Quarkus for the next service.",
         "- Build the backend services on Spring Boot.", N, SAME),
    # Written after the readers were changed for the cases above, as a check of them (the
    # readers were not changed for these).
    Case("after", "- Charts: Plotly.", "- All plots use Bokeh.", C, SAME),
    Case("after", "- Our Rust CLIs parse flags with bpaf.", "- clap is the argument parser.", C,
         SAME),
    Case("after", "- Payments go through Stripe.", "- We bill customers via Paddle.", C, SAME),
    Case("after", "- Search is powered by Meilisearch.", "- Typesense handles search.", C, SAME),
    Case("after", "- Product analytics live in PostHog.", "- We track events with Mixpanel.", C,
         SAME),
    Case("after", "- GraphQL server: Apollo Server.", "- The GraphQL API runs on graphql-yoga.", C,
         SAME),
    Case("after", "- Forms use react-hook-form.", "- Build forms with Formik.", C, SAME),
    Case("after", "- The JSON layer is Moshi in the Android app.",
         "- Parse JSON with Gson in the Android app.", C, SAME),
    Case("after", "- Vector search runs on Pinecone.", "- We keep embeddings in Weaviate.", C,
         SAME),
    Case("after", "- Async code uses trio.", "- Everything async is asyncio.", C, SAME),
    Case("after-near", "- Plots use matplotlib.", "- Dashboards are built in Grafana.", N, SAME),
    Case("after-near", "- Stripe for payments.", "- Postmark for the receipt emails.", N, SAME),
    Case("after-near", "- Search is powered by Meilisearch.",
         "- Postgres full-text search for the admin.", N, SAME),
    Case("after-near", "- We moved from Formik to react-hook-form.",
         "- Forms use react-hook-form.", N, SAME),
    Case("after-near", "- Typer for the CLI.", "- Click is a dependency of Typer.", N, SAME),
    Case("after-near", "- PyTorch for training.", "- ONNX Runtime for inference.", N, SAME),
    Case("after-near", "- Use tokio.", "- reqwest is the HTTP client.", N, SAME),
    Case("after-near", "- Hibernate for the monolith.", "- jOOQ in the reporting service.", N,
         SAME),
    Case("after-near", "- Is Koin worth trying?", "- Hilt for DI.", N, SAME),
    Case("after-near", "- Serilog sinks write to Seq.", "- NLog in the legacy desktop app.", N,
         SAME),
)  # fmt: skip
