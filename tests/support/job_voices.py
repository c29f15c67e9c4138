"""Labelled note pairs for `memtab contradictions` (issue 83): two notes choosing different
tools for one job where no taxonomy names the tools — niche and new ones, in code spans,
as package names, as commands, as capitalised products — and the job is said in words of
its own ("`just` runs the tasks", "our task runner", "for migrations we rely on"). Near
misses: two tools used together for one job, one named for another job or another part,
a tool mentioned and not chosen.

`CASES` were written before the change that reads them; `AFTER` after it, never tuned on.
Each case's notes are built and read as `contradiction_voices.found` builds them.
"""

from __future__ import annotations

from support.contradiction_cases import SAME, C, Case, N
from support.contradiction_voices import TEAM

CASES: tuple[Case, ...] = (
    # Two notes, two tools, one job.
    Case("job", "- `just` runs the tasks.", "- Our task runner is Taskfile.", C, SAME),
    Case("job", "- For migrations we rely on dbmate.", "- Migrations: `pgroll`.", C, SAME),
    Case("job", "- Rsbuild bundles the app.", "- The bundler is Farm.", C, SAME),
    Case("job", "- The SQL formatter is `sqlfmt`.", "- `sqlfluff` formats the SQL.", C, SAME),
    Case("job", "- Shell scripts are linted with `shellharden`.",
         "- Our shell linter is `bashate`.", C, SAME),
    Case("job", "- Task runner: `mask`.", "- `cargo-make` is our task runner.", C, TEAM),
    Case("job", "- Test runner: `nextest`.", "- Tests run on `cargo-tarpaulin`.", C, SAME),
    Case("job", "- We rely on Ladybug for migrations.", "- Migrations go through Graphile.", C,
         SAME),
    Case("job", "- Docs are built with Zensical.", "- The docs generator is Retype.", C, SAME),
    Case("job", "- Releases are cut with `knope`.", "- `cocogitto` cuts the releases.", C, SAME),
    Case("job", "- Git hooks: `prek`.", "- Our git hooks manager is Hookz.", C, SAME),
    Case("job", "- Logging goes through `tracing`.", "- Our logger is `slog-term`.", C, SAME),
    Case("job", "- The type checker is `ty`.", "- Type checking is done with Zuban.", C, SAME),
    Case("job", "- Markdown is linted with `rumdl`.", "- The Markdown linter is `mado`.", C,
         SAME),
    Case("job", "- Secrets live in Teller.", "- Our secrets manager is `envchain`.", C, TEAM),
    Case("job", "- Feature flags: Flipt.", "- Our feature flag service is Bucket.", C, SAME),
    Case("job", "- Errors are tracked in GlitchTip.", "- The error tracker is Highlight.", C,
         SAME),
    Case("job", "- Load testing is done with `oha`.", "- Our load tester is Gorgon.", C, SAME),
    Case("job", "- Background jobs run on `graphile-worker`.",
         "- The job runner is `pg-boss`.", C, SAME),
    Case("job", "- `rolldown` bundles the library.", "- The library's bundler is `bunchee`.", C,
         SAME),
    Case("job", "- The TOML formatter is `taplo`.", "- TOML is formatted with `tombi`.", C,
         SAME),
    Case("job", "- Container images are built with `buildah`.",
         "- Our image builder is `kaniko`.", C, SAME),
    Case("job", "- We deploy with Kamal.", "- Deploys go through `dokku`.", C, SAME),
    Case("job", "- Our version manager is `proto`.", "- Node versions are managed by `n`.", C,
         SAME),
    Case("job", "- Link checking: `lychee`.", "- `muffet` checks the links.", C, SAME),
    Case("job", "- The spell checker is `codespell`.", "- `cspell-cli` checks the spelling.", C,
         SAME),
    Case("job", "- CSS is linted with Stylelint.", "- Our CSS linter is `csslint`.", C, SAME),
    Case("job", "- E2E tests run on Vibium.", "- The end-to-end test runner is `gauge`.", C, SAME),
    Case("job", "- Our task runner is `poe`.", "- `invoke` runs the tasks.", C, SAME),
    Case("job", "- Schema migrations are run with `reshape`.",
         "- For migrations we rely on `migra`.", C, SAME),
    # Near misses: together, another job, another part, mentioned not chosen.
    Case("job", "- `just` runs the tasks.", "- Taskfile runs the tasks too, in CI.", N, SAME),
    Case("job", "- `sqlfluff` lints the SQL.", "- `sqlfmt` formats the SQL.", N, SAME),
    Case("job", "- Rsbuild bundles the app.", "- Farm bundles the docs site.", N, SAME),
    Case("job", "- For migrations we rely on dbmate.", "- For seeding we rely on Snaplet.", N,
         SAME),
    Case("job", "- The type checker is `ty`.", "- `ty` is fast; Zuban was slower.", N, SAME),
    Case("job", "- Our task runner is `poe`.", "- `poe` and `invoke` both run tasks.", N, SAME),
    Case("job", "- Docs are built with Zensical.", "- Zensical was evaluated against Retype.", N,
         SAME),
    Case("job", "- Releases are cut with `knope`.", "- `knope` also writes the changelog.", N,
         SAME),
    Case("job", "- Test runner: `nextest`.", "- Coverage: `cargo-tarpaulin`.", N, SAME),
    Case("job", "- Git hooks: `prek`.", "- `prek` runs `typos` on each commit.", N, SAME),
    Case("job", "- The SQL formatter is `sqlfmt`.", "- The Python formatter is `ruff format`.",
         N, SAME),
    Case("job", "- Logging goes through `tracing`.", "- Metrics go through Prometheus.", N, SAME),
    Case("job", "- Feature flags: Flipt.", "- Flipt's UI is on the admin host.", N, SAME),
    Case("job", "- Our load tester is Gorgon.", "- Gorgon reads scenarios from `load/`.", N, SAME),
    Case("job", "- We deploy with Kamal.", "- Kamal needs Docker on the build host.", N, SAME),
    Case("job", "- CSS is linted with Stylelint.", "- JS is linted with `oxlint`.", N, SAME),
    Case("job", "- Shell scripts are linted with `shellharden`.",
         "- `shfmt` formats the shell scripts.", N, SAME),
    Case("job", "- Our version manager is `proto`.", "- `proto` pins Node 20.", N, SAME),
    Case("job", "- Errors are tracked in GlitchTip.", "- Uptime is tracked in Gatus.", N, SAME),
    Case("job", "- Our task runner is `poe`.", "- Our task runner is `poe` (see pyproject).", N,
         SAME),
)  # fmt: skip

AFTER: tuple[Case, ...] = (
    Case("job", "- `xc` runs the tasks in this repo.", "- The task runner here is `go-task`.", C,
         SAME),
    Case("job", "- Our Terraform linter is `tflint`.", "- Terraform is linted with Trivy.", C,
         SAME),
    Case("job", "- Dependency updates: Renovate.", "- `dependabot-core` handles the dependency "
         "updates.", C, SAME),
    Case("job", "- PDFs are generated with WeasyPrint.", "- Our PDF generator is `pdfkit`.", C,
         SAME),
    Case("job", "- The changelog generator is `git-cliff`.",
         "- We rely on `auto-changelog` for the changelog.", C, SAME),
    Case("job", "- Emails are previewed in Mailpit.", "- Email previews: `maildev`.", C, SAME),
    Case("job", "- Benchmarks run on `criterion`.", "- The benchmark runner is `divan`.", C, SAME),
    Case("job", "- Protobufs are compiled with `buf`.", "- Our protobuf compiler is `protoc`.", C,
         SAME),
    Case("job", "- Screenshots are diffed with Lost Pixel.", "- Visual diffs: `reg-suit`.", C,
         SAME),
    Case("job", "- Commit messages are checked by `commitlint`.",
         "- `cocogitto` checks the commit messages.", C, SAME),
    Case("job", "- `xc` runs the tasks in this repo.", "- `xc` reads its tasks from the README.",
         N, SAME),
    Case("job", "- Our Terraform linter is `tflint`.", "- Terraform is formatted with `tofu fmt`.",
         N, SAME),
    Case("job", "- PDFs are generated with WeasyPrint.",
         "- Invoices are generated with `typst`.", N, SAME),
    Case("job", "- The benchmark runner is `divan`.", "- Priya runs the benchmarks.", N, SAME),
    Case("job", "- Emails are previewed in Mailpit.", "- Emails are sent with Postmark.", N, SAME),
)  # fmt: skip
"""A batch written after the change, never tuned on (reported apart)."""
