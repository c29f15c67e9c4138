"""Which tools do one job (docs/formats.md §19.6): a taxonomy of the tools developers choose
one of, by the job and the ecosystem they do it in — two memories naming two tools of one
kind as the one used contradict each other. A tool whose name is also a common English
word is read only where its job is named too (`GATED`: "black" where formatting is, "make"
where tasks are)."""

from __future__ import annotations

import re

from memtab.store.text.near_duplicates import lowered_words

TOOL_KINDS: dict[str, tuple[str, ...]] = {
    "JavaScript package manager": ("npm", "pnpm", "yarn", "bun"),
    "Python package manager": (
        "pip", "uv", "poetry", "pipenv", "conda", "pdm", "rye", "pixi", "hatch",
    ),
    "JavaScript test runner": ("jest", "vitest", "mocha", "jasmine", "ava", "node:test"),
    "Python test runner": ("pytest", "unittest", "nose2", "ward"),
    "Ruby test framework": ("rspec", "minitest"),
    "JavaScript linter": ("eslint", "biome", "oxlint", "standardjs", "xo"),
    "Python linter": ("ruff", "flake8", "pylint", "pyflakes"),
    "Go linter": ("golangci-lint", "staticcheck", "revive"),
    "Ruby linter": ("rubocop", "standardrb"),
    "Python formatter": ("black", "ruff format", "yapf", "autopep8"),
    "JavaScript formatter": ("prettier", "dprint", "biome format"),
    "container runtime": ("docker", "podman", "nerdctl", "colima", "orbstack"),
    "bundler": ("webpack", "vite", "esbuild", "rollup", "parcel", "rspack", "turbopack", "tsup"),
    "JavaScript runtime": ("nodejs", "deno"),
    "version manager": ("nvm", "fnm", "asdf", "mise", "pyenv", "volta", "rbenv", "rvm"),
    "JavaScript HTTP client": ("axios", "ky", "got", "superagent", "node-fetch", "ofetch"),
    "Python HTTP client": ("httpx", "aiohttp", "requests", "urllib3"),
    "type checker": ("mypy", "pyright", "pyre", "pytype", "basedpyright"),
    "release builder": (
        "goreleaser", "semantic-release", "release-please", "changesets", "release-it",
    ),
    "CSV library": ("papaparse", "csv-stringify", "fast-csv", "csv-parse"),
    "editor": (
        "nvim", "vim", "vs code", "emacs", "pycharm", "intellij", "webstorm", "sublime text",
        "helix", "zed", "cursor", "goland", "rubymine",
    ),
    "end-to-end test runner": ("cypress", "playwright", "puppeteer", "webdriverio", "testcafe",
                               "selenium"),
    "infrastructure-as-code tool": (
        "terraform", "opentofu", "pulumi", "cloudformation", "aws cdk", "crossplane",
    ),
    "configuration management tool": ("ansible", "chef", "puppet", "saltstack"),
    "Kubernetes packaging": ("helm", "kustomize", "jsonnet", "kapp", "cdk8s"),
    "CI service": (
        "github actions", "gitlab ci", "circleci", "jenkins", "buildkite", "travis ci",
        "azure pipelines", "drone ci", "teamcity", "bitbucket pipelines", "woodpecker",
    ),
    "Python ORM": ("sqlalchemy", "django orm", "peewee", "tortoise orm", "pony orm", "sqlmodel"),
    "JavaScript ORM": ("prisma", "typeorm", "sequelize", "mikro-orm", "drizzle", "knex", "kysely"),
    "Go ORM": ("gorm", "ent", "sqlc", "sqlx"),
    "database migration tool": (
        "alembic", "flyway", "liquibase", "dbmate", "sqitch", "goose", "golang-migrate", "atlas",
    ),
    "error tracker": ("sentry", "rollbar", "bugsnag", "honeybadger", "airbrake", "raygun"),
    "observability platform": (
        "datadog", "new relic", "honeycomb", "dynatrace", "grafana cloud", "signoz", "lightstep",
    ),
    "monorepo tool": ("nx", "turborepo", "lerna", "rush", "moonrepo", "pants", "bazel"),
    "git hooks manager": ("husky", "lefthook", "overcommit", "simple-git-hooks"),
    "documentation generator": (
        "sphinx", "mkdocs", "docusaurus", "vitepress", "jekyll", "hugo", "mdbook", "typedoc",
    ),
    "state manager": ("redux", "zustand", "mobx", "jotai", "pinia", "vuex", "recoil", "xstate"),
    "schema validator": ("zod", "yup", "joi", "valibot", "ajv", "superstruct", "io-ts"),
    "Python data validator": ("pydantic", "marshmallow", "attrs", "cerberus"),
    "JavaScript logger": ("pino", "winston", "bunyan", "loglevel", "consola"),
    "Python logger": ("structlog", "loguru", "logbook"),
    "date library": ("date-fns", "dayjs", "moment", "luxon", "js-joda"),
    "feature flag service": (
        "launchdarkly", "unleash", "flagsmith", "growthbook", "configcat", "split.io", "statsig",
    ),
    "task runner": ("make", "just", "task", "nox", "tox", "mage", "rake"),
    "Python web framework": (
        "fastapi", "flask", "django", "starlette", "litestar", "sanic", "pyramid", "tornado",
    ),
    "JavaScript web framework": ("express", "fastify", "koa", "hapi", "nestjs", "hono", "adonisjs"),
    "Go web framework": ("gin", "echo", "fiber", "chi", "gorilla mux"),
    "Ruby web framework": ("rails", "sinatra", "hanami", "roda"),
    "JVM build tool": ("gradle", "maven", "sbt", "ant", "bazel build"),
    "HTTP mocking library": ("msw", "nock", "pollyjs", "mirage", "wiremock", "responses",
                             "respx", "vcrpy"),
    "styling approach": (
        "tailwind", "styled-components", "emotion", "css modules", "vanilla-extract",
        "stitches", "unocss", "panda css",
    ),
    "CSS preprocessor": ("sass", "less", "stylus"),
    "frontend framework": ("react", "vue", "svelte", "angular", "solid", "preact", "lit",
                           "ember"),
    "background job runner": (
        "sidekiq", "goodjob", "resque", "delayed job", "solid queue", "celery", "rq",
        "dramatiq", "huey", "arq", "bullmq", "bull", "agenda", "temporal", "faktory",
    ),
    "secrets manager": ("vault", "1password", "doppler", "aws secrets manager", "sops",
                        "infisical", "bitwarden"),
    "message broker": ("rabbitmq", "kafka", "nats", "redpanda", "activemq", "pulsar"),
    "hosting platform": ("vercel", "netlify", "heroku", "fly.io", "render", "railway",
                         "cloudflare pages", "github pages"),
    "i18n library": ("i18next", "react-intl", "formatjs", "lingui", "vue-i18n", "gettext"),
    "API documentation tool": ("swagger ui", "redoc", "stoplight", "scalar"),
    "Python notebook": ("jupyter", "jupyterlab", "marimo", "colab"),
    "component workshop": ("storybook", "ladle", "histoire"),
    "load tester": ("k6", "locust", "jmeter", "gatling", "artillery", "vegeta"),
    # Python: data, ML, command lines, servers.
    "Python dataframe library": ("pandas", "polars", "pyspark", "vaex", "cudf"),
    "Python plotting library": ("matplotlib", "plotly", "bokeh", "altair", "plotnine"),
    "deep learning framework": ("pytorch", "tensorflow", "jax", "mxnet"),
    "ML experiment tracker": ("mlflow", "wandb", "neptune", "comet", "clearml"),
    "vector database": ("pinecone", "weaviate", "qdrant", "milvus", "chroma", "pgvector"),
    "Python CLI library": ("click", "typer", "argparse", "docopt", "cyclopts"),
    "ASGI server": ("uvicorn", "hypercorn", "daphne", "granian"),
    "WSGI server": ("gunicorn", "waitress", "uwsgi"),
    "Python async library": ("asyncio", "trio", "curio"),
    "Python template engine": ("jinja", "mako", "chameleon"),
    "Python import sorter": ("isort", "usort", "reorder-python-imports"),
    "Python Postgres driver": ("psycopg", "psycopg2", "asyncpg", "pg8000"),
    # JavaScript and TypeScript, beyond the above.
    "JavaScript assertion library": ("chai", "should.js", "unexpected"),
    "component testing library": ("testing-library", "enzyme"),
    "JavaScript meta-framework": ("next.js", "nuxt", "remix", "astro", "gatsby"),
    "data fetching library": ("tanstack query", "swr", "urql", "apollo client", "relay"),
    "form library": ("react-hook-form", "formik", "final-form", "tanstack form"),
    "React component library": ("mui", "chakra ui", "ant design", "mantine", "shadcn/ui",
                                "react-bootstrap"),
    "Vue component library": ("vuetify", "quasar", "element plus", "primevue", "naive ui"),
    "GraphQL server": ("apollo server", "graphql yoga", "mercurius"),
    "TypeScript runner": ("ts-node", "tsx", "swc-node", "esno"),
    "JavaScript compiler": ("babel", "swc"),
    "JavaScript task runner": ("gulp", "grunt"),
    "auth provider": ("auth0", "clerk", "firebase auth", "supabase auth", "cognito", "keycloak",
                      "okta"),
    "payment provider": ("stripe", "paddle", "braintree", "adyen", "mollie"),
    "email delivery service": ("sendgrid", "mailgun", "postmark", "amazon ses", "resend",
                               "mailjet", "sparkpost"),
    "search engine": ("elasticsearch", "opensearch", "meilisearch", "typesense", "algolia",
                      "solr"),
    "product analytics": ("google analytics", "plausible", "posthog", "mixpanel", "amplitude",
                          "fathom", "matomo"),
    "GitOps tool": ("argo cd", "flux"),
    "service mesh": ("istio", "linkerd"),
    # Go.
    "Go logger": ("zap", "zerolog", "logrus", "slog"),
    "Go CLI library": ("cobra", "urfave cli", "kong", "kingpin"),
    "Go config library": ("viper", "koanf", "envconfig", "cleanenv"),
    "Go assertion library": ("testify", "gomega"),
    "Go dependency injection": ("wire", "fx", "dig"),
    "Go mock generator": ("gomock", "mockery", "counterfeiter"),
    # Rust.
    "Rust web framework": ("axum", "actix-web", "rocket", "warp", "poem", "salvo"),
    "Rust async runtime": ("tokio", "async-std", "smol"),
    "Rust HTTP client": ("reqwest", "ureq", "isahc", "surf"),
    "Rust CLI library": ("clap", "argh", "structopt", "pico-args", "bpaf"),
    "Rust error library": ("anyhow", "eyre", "snafu"),
    "Rust database library": ("diesel", "sea-orm"),
    # The JVM.
    "JVM test framework": ("junit", "testng", "spock", "kotest"),
    "JVM mocking library": ("mockito", "mockk", "easymock", "jmockit"),
    "JVM assertion library": ("assertj", "hamcrest"),
    "JVM web framework": ("spring boot", "quarkus", "micronaut", "ktor", "dropwizard",
                          "javalin", "vert.x", "helidon"),
    "JVM ORM": ("hibernate", "jooq", "mybatis", "jdbi"),
    "JVM logger": ("logback", "log4j"),
    "JVM JSON library": ("jackson", "gson", "moshi", "kotlinx.serialization"),
    "JVM HTTP client": ("okhttp", "apache httpclient"),
    # .NET.
    ".NET test framework": ("xunit", "nunit", "mstest"),
    ".NET mocking library": ("moq", "nsubstitute", "fakeiteasy"),
    ".NET assertion library": ("fluentassertions", "shouldly"),
    ".NET ORM": ("entity framework", "nhibernate"),
    ".NET logger": ("serilog", "nlog", "log4net"),
    ".NET JSON library": ("system.text.json", "newtonsoft.json"),
    # Ruby, PHP, C and C++.
    "Ruby HTTP client": ("faraday", "httparty", "rest-client", "typhoeus"),
    "Ruby ORM": ("activerecord", "sequel", "rom-rb"),
    "PHP web framework": ("laravel", "symfony", "slim", "cakephp", "codeigniter", "yii"),
    "PHP static analyser": ("phpstan", "psalm"),
    "PHP ORM": ("eloquent", "doctrine"),
    "C++ package manager": ("conan", "vcpkg"),
    # Mobile.
    "cross-platform mobile framework": ("react native", "flutter", "ionic", "xamarin",
                                        ".net maui", "nativescript"),
    "iOS dependency manager": ("cocoapods", "swift package manager", "carthage"),
    "mobile end-to-end test runner": ("detox", "appium", "maestro"),
    "Flutter state manager": ("riverpod", "bloc", "getx"),
    "Android dependency injection": ("hilt", "koin"),
    "iOS HTTP client": ("alamofire", "urlsession"),
}  # fmt: skip
"""Tools one of which a project uses for a job."""
TOOL_KIND = {tool: kind for kind, tools in TOOL_KINDS.items() for tool in tools}
SENSES: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "bun": (
        ("JavaScript package manager", ("install", "package", "depend", "lock", "add", "npm")),
        ("Go ORM", ("go", "golang", "uptrace", "row", "rows", "sql", "quer")),
        ("JavaScript runtime", ("run", "runs", "runtime", "server", "serve", "script", "exec")),
    ),
    "sqlx": (("Rust database library", ("rust", "crate", "cargo", "tokio", "axum", "actix")),),
}  # fmt: skip
"""A name two tools share (Bun the package manager, the runtime and the Go ORM; `sqlx` of
Go and of Rust): the first kind whose words the sentence says, else `TOOL_KIND`'s."""
_COMMON_PARTS = frozenset(
    {"new", "good", "day", "text", "format", "build", "orm", "docs", "ui", "job", "queue",
     "code", "css", "pages", "cloud", "secrets", "manager", "actions", "ci", "aws", "mux",
     "modules", "test", "solid", "delayed", "panda", "query", "client", "server", "native",
     "package", "framework", "element", "plus", "naive", "system", "auth", "analytics",
     "boot", "testing", "cd", "cli", "google", "amazon", "apache", "next", "js", "form"}
)  # fmt: skip


_NON_WORD = re.compile(r"\W")


def _words(tool: str) -> list[str]:
    words = [w for w in (_NON_WORD.split(word, maxsplit=1)[0] for word in tool.split()) if w]
    rare = [w for w in words if len(words) == 1 or w not in _COMMON_PARTS]
    return rare or words


GATED: dict[str, tuple[str, ...]] = {
    "black": ("format",), "make": ("makefile", "recipe", "target", "task"),
    "just": ("justfile", "recipe", "task"), "task": ("taskfile",), "overcommit": ("hook",),
    "yup": ("schema", "valid"), "joi": ("schema", "valid"), "moment": ("date", "time"),
    "temporal": ("job", "worker", "workflow"), "emotion": ("css", "styl"),
    "solid": ("component", "framework", "frontend", "ui"),
    "lit": ("component", "framework", "frontend", "ui"), "render": ("deploy", "host"),
    "railway": ("deploy", "host"), "vault": ("secret",), "rush": ("monorepo",),
    "pants": ("build", "monorepo"), "ant": ("build",), "ent": ("entit", "orm", "schema"),
    "chi": ("framework", "handler", "http", "router"),
    "gin": ("framework", "handler", "http", "router"),
    "echo": ("framework", "handler", "http", "router"),
    "fiber": ("framework", "handler", "http", "router"),
    "express": ("api", "framework", "middleware", "route", "server"),
    "rails": ("framework", "ruby"), "got": ("http",), "requests": ("http",),
    "responses": ("http", "mock"), "ward": ("test",), "attrs": ("class", "model", "valid"),
    "agenda": ("job",), "bull": ("job", "queue"), "arq": ("job",), "huey": ("job", "task"),
    "rq": ("job", "queue"), "atlas": ("migrat",), "goose": ("migrat",),
    "hatch": ("build", "env", "packag"), "scalar": ("api", "openapi"), "lightstep": ("trac",),
    "cursor": ("editor",), "zed": ("editor",), "helix": ("editor",), "vim": ("editor",),
    "xo": ("lint",), "ava": ("test",), "lingui": ("i18n", "translat"),
    "gettext": ("i18n", "translat"), "mirage": ("mock",),
    "nats": ("broker", "event", "messag", "queue"),
    "pulsar": ("broker", "event", "messag", "queue"),
    "sops": ("secret",), "stitches": ("styl",), "tox": ("env", "matrix", "session"),
    "nox": ("session",),
    "click": ("cli", "command", "option"), "trio": ("async",), "curio": ("async",),
    "mako": ("templat",), "chameleon": ("templat",), "daphne": ("asgi", "serv"),
    "waitress": ("wsgi", "serv"), "comet": ("experiment", "track"),
    "neptune": ("experiment", "track"), "chroma": ("vector", "embed"),
    "relay": ("graphql", "fetch", "query"), "enzyme": ("test",),
    "remix": ("framework", "route", "loader"), "tsx": ("typescript", "script", "node", "ts"),
    "gulp": ("task", "build", "gulpfile"), "grunt": ("task", "build", "gruntfile"),
    "clerk": ("auth", "login", "sign"), "stripe": ("pay", "billing", "checkout", "subscri"),
    "paddle": ("pay", "billing", "checkout", "subscri"), "resend": ("email", "mail"),
    "plausible": ("analytic", "track", "pageview"), "fathom": ("analytic", "track", "pageview"),
    "amplitude": ("analytic", "track", "event"),
    "flux": ("gitops", "deploy", "sync", "cluster", "kubernetes", "helm"),
    "zap": ("log",), "kong": ("cli", "command", "flag", "argument", "pars"),
    "wire": ("inject", "depend"), "fx": ("inject", "depend"), "dig": ("inject", "depend"),
    "mockery": ("mock",), "rocket": ("framework", "http", "server", "rust", "route", "web"),
    "warp": ("framework", "http", "server", "rust", "route", "web"),
    "poem": ("framework", "http", "server", "rust", "route", "web"),
    "salvo": ("framework", "http", "server", "rust", "route", "web"),
    "smol": ("async", "runtime"), "surf": ("http",), "argh": ("argument", "cli", "flag", "pars"),
    "anyhow": ("error",), "diesel": ("orm", "database", "schema", "migrat", "sql", "query"),
    "spock": ("test", "spec"), "hibernate": ("orm", "jpa", "entit", "persist", "database"),
    "jackson": ("json", "serial"), "sequel": ("orm", "database", "sql", "model", "migrat"),
    "slim": ("php", "framework", "route", "middleware"),
    "doctrine": ("orm", "entit", "database", "migrat"),
    "eloquent": ("orm", "model", "database", "query"), "chef": ("config", "server", "provision"),
    "puppet": ("config", "server", "provision"), "bloc": ("state", "flutter", "cubit"),
    "maestro": ("test", "e2e", "mobile", "flow"), "detox": ("test", "e2e", "mobile"),
    "jax": ("model", "train", "learn", "neural", "gradient"),
    "less": ("css", "styl", "preprocess"),
}  # fmt: skip
"""A tool named by a common word, and the words of its job one of which must be said with
it (a word of the sentence starting with one: "format" is said in "formatting")."""
SAID_AS: tuple[tuple[str, str], ...] = (
    (r"\bruff\s+format\b", "ruff format"),
    (r"\b(?:vs\s*code|vscode|visual\s+studio\s+code)\b", "vs code"),
    (r"\bneovim\b", "nvim"),
    (r"\bgithub\s+actions?\b|\bgha\b", "github actions"),
    (r"\bgitlab(?:\s+ci(?:/cd)?|-ci)\b", "gitlab ci"),
    (r"\btravis(?:\s+ci|-ci)?\b", "travis ci"),
    (r"\bdrone(?:\s+ci|-ci)\b", "drone ci"),
    (r"\bdjango(?:'s)?\s+orm\b", "django orm"),
    (r"\btortoise(?:\s+orm|-orm)\b", "tortoise orm"),
    (r"\bpony(?:\s+orm|orm)\b", "pony orm"),
    (r"\bsublime(?:\s+text)?\b", "sublime text"),
    (r"\bintellij(?:\s+idea)?\b", "intellij"),
    (r"\bopen\s*tofu\b", "opentofu"),
    (r"\bgood\s*job\b", "goodjob"),
    (r"\bnew\s*relic\b", "new relic"),
    (r"\bday\.?js\b", "dayjs"),
    (r"\bnest(?:\.?js)\b", "nestjs"),
    (r"\bturbo\s*repo\b", "turborepo"),
    (r"\btailwind\s*(?:css)?\b", "tailwind"),
    (r"\bstyled[\s-]components\b", "styled-components"),
    (r"\b(?:vue\.js|vuejs)\b", "vue"),
    (r"\breact(?:\.js|js)\b", "react"),
    (r"\bangular(?:js)?\b", "angular"),
    (r"\bsvelte\s*kit\b", "svelte"),
    (r"\bbitbucket\s+pipelines?\b", "bitbucket pipelines"),
    (r"\bazure\s+(?:devops\s+)?pipelines?\b", "azure pipelines"),
    (r"\baws\s+cdk\b", "aws cdk"),
    (r"\baws\s+secrets\s+manager\b", "aws secrets manager"),
    (r"\bgorilla(?:/|\s+)mux\b", "gorilla mux"),
    (r"\bdelayed[\s_]?job\b", "delayed job"),
    (r"\bsolid[\s_]?queue\b", "solid queue"),
    (r"\bcss\s+modules\b", "css modules"),
    (r"\bpanda\s*css\b", "panda css"),
    (r"\bswagger(?:\s+ui|-ui)?\b", "swagger ui"),
    (r"\bgrafana\s+cloud\b", "grafana cloud"),
    (r"\bcloudflare\s+pages\b", "cloudflare pages"),
    (r"\bgithub\s+pages\b", "github pages"),
    (r"\bjupyter\s*lab\b", "jupyterlab"),
    (r"\bbiome\s+format\b", "biome format"),
    (r"\bweights\s*(?:&|and)\s*biases\b", "wandb"),
    (r"\bnext\.?js\b", "next.js"),
    (r"\bnuxt(?:\.?js)?\b", "nuxt"),
    (r"\b(?:tanstack\s+query|react[\s-]query)\b", "tanstack query"),
    (r"\b(?:react\s+)?testing[\s-]library\b", "testing-library"),
    (r"\bmaterial[\s-]ui\b", "mui"),
    (r"\bchakra(?:[\s-]ui)?\b", "chakra ui"),
    (r"\bant\s+design\b|\bantd\b", "ant design"),
    (r"\bshadcn(?:/ui|-ui)?\b", "shadcn/ui"),
    (r"\bapollo\s+client\b", "apollo client"),
    (r"\bapollo\s+server\b", "apollo server"),
    (r"\bgraphql[\s-]yoga\b", "graphql yoga"),
    (r"\bfirebase\s+auth(?:entication)?\b", "firebase auth"),
    (r"\bsupabase\s+auth\b", "supabase auth"),
    (r"\b(?:amazon|aws)\s+ses\b", "amazon ses"),
    (r"\bgoogle\s+analytics\b", "google analytics"),
    (r"\bargo\s*cd\b", "argo cd"),
    (r"\bflux\s*cd\b", "flux"),
    (r"\burfave(?:/|\s+)cli\b", "urfave cli"),
    (r"\blog/slog\b", "slog"),
    (r"\bactix(?:[\s-]web)?\b", "actix-web"),
    (r"\basync[\s_-]std\b", "async-std"),
    (r"\bcolor[\s-]eyre\b", "eyre"),
    (r"\bsea[\s_-]?orm\b", "sea-orm"),
    (r"\bjunit\s*[345]\b", "junit"),
    (r"\bspring[\s-]boot\b", "spring boot"),
    (r"\bvert\.?x\b", "vert.x"),
    (r"\blog4j\s*2?\b", "log4j"),
    (r"\bkotlinx[\s.]serialization\b", "kotlinx.serialization"),
    (r"\bapache\s+http\s*client\b", "apache httpclient"),
    (r"\bxunit(?:\.net)?\b", "xunit"),
    (r"\bfluent\s*assertions\b", "fluentassertions"),
    (r"\b(?:entity\s+framework(?:\s+core)?|ef\s*core)\b", "entity framework"),
    (r"\b(?:newtonsoft(?:\.json)?|json\.net)\b", "newtonsoft.json"),
    (r"\bactive\s*record\b", "activerecord"),
    (r"\breact[\s-]native\b", "react native"),
    (r"(?<![\w.])(?:\.net\s+)?maui\b", ".net maui"),
    (r"\b(?:swift\s*package\s*manager|swiftpm|spm)\b", "swift package manager"),
    (r"\bcocoa\s*pods\b", "cocoapods"),
    (r"\bjinja\s*2?\b", "jinja"),
    (r"\bpsycopg\s*3\b", "psycopg"),
    (r"\belastic\s+search\b", "elasticsearch"),
)
"""Names said in more than one word or more than one way (a pattern), as the one name."""
SAID = re.compile("|".join(f"(?P<n{i}>{said})" for i, (said, _) in enumerate(SAID_AS)))
"""Any of `SAID_AS`' ways (`said_as`)."""


_SAID_WORDS = frozenset(
    {"ruff", "vs", "vscode", "visual", "neovim", "github", "gha", "gitlab", "travis", "drone",
     "django", "tortoise", "pony", "ponyorm", "sublime", "intellij", "open", "opentofu", "good",
     "goodjob", "new", "newrelic", "day", "dayjs", "nest", "nestjs", "turbo", "turborepo",
     "tailwind", "tailwindcss", "styled", "vue", "vuejs", "react", "reactjs", "angular",
     "angularjs", "svelte", "sveltekit", "bitbucket", "azure", "aws", "gorilla", "delayed",
     "delayed_job", "solid", "solid_queue", "css", "panda", "pandacss", "swagger", "grafana",
     "cloudflare", "jupyter", "jupyterlab", "biome", "weights", "next", "nextjs", "nuxt",
     "nuxtjs", "tanstack", "testing", "material", "chakra", "ant", "antd", "shadcn", "apollo",
     "graphql", "firebase", "supabase", "amazon", "google", "argo", "argocd", "flux", "fluxcd",
     "urfave", "log", "actix", "async", "async_std", "color", "sea", "seaorm", "sea_orm",
     "junit", "spring", "vert", "vertx", "log4j", "log4j2", "kotlinx", "apache", "xunit",
     "fluent", "fluentassertions", "entity", "ef", "efcore", "newtonsoft", "json", "active",
     "activerecord", "net", "maui", "swift", "swiftpm", "spm", "cocoa", "jinja", "jinja2",
     "psycopg", "elastic"}
)  # fmt: skip
"""The first word of each of `SAID_AS`' ways (a text holding none says none)."""


def said_as(lowered: str) -> str:
    """A lowered text with each tool said as its one name (`SAID_AS`)."""
    if _SAID_WORDS.isdisjoint(lowered_words(lowered)):
        return lowered
    return SAID.sub(lambda m: SAID_AS[int(str(m.lastgroup)[1:])][1], lowered)


TOOL_WORDS = frozenset(
    {word for tool in TOOL_KIND for word in _words(tool)}
    | {"neovim", "vscode", "visual", "gha", "ponyorm", "goodjob", "reactjs", "vuejs",
       "angularjs", "sveltekit", "swagger", "nestjs", "dayjs", "tailwindcss", "jupyterlab",
       "ef", "efcore", "antd", "spm", "swiftpm", "cocoa", "weights", "nextjs", "actix", "maui",
       "log4j2", "jinja2", "elastic", "argocd", "fluxcd", "urfave"}
)  # fmt: skip
"""A word of every way a tool is named (a sentence holding none names no tool): each
word of its name but the common ones a longer name holds ("new relic": relic)."""


def kind_of(tool: str, lowered: str) -> str:
    """The kind of job a tool named in a lowered sentence does (`SENSES`)."""
    words = lowered_words(lowered)
    for kind, cues in SENSES.get(tool, ()):
        if any(w == cue or (len(cue) > 3 and w.startswith(cue)) for w in words for cue in cues):
            return kind
    return TOOL_KIND[tool]
