"""Redaction (docs/formats.md §12) — the one package, with one token, `[REDACTED_SECRET]`.

- `redact_outgoing` / `redact_json`: what may leave the machine or be kept — everything a
  model is sent (every provider: `llm.loop.Redacted`), a trace dump, a writer's note. It removes
  `<private>…</private>` blocks (claude-mem's "never remember this") and the secrets
  `redact_secrets` knows by their shape or by how they are said, keeping the context
  around each (`Bearer `, `password: "`, `postgres://user:`…@host, "the password is ").
- `redact_view`: a memory file as a model sees it, with what each `REDACTED` hides, so an
  edit the model makes of what it saw (`str_replace`, `memory_write`) is made on the file
  with the secrets it never saw kept.
- `KeyScrubber`: the API keys Memtab holds, whatever their shape. Servers echo a key back
  in error messages (`memtab.llm.http`), and a trace dump copies requests, replies and
  errors.

`rules.py` holds the rules and the redactions made with them, `view.py` the view, `keys.py`
the keys. This package stands alone (an import contract): `llm`, `transcripts` and the writer all
import it, and it imports nothing of Memtab.

The shape rules, in the order they run (`RULES`):
- private keys: PEM blocks of every kind (RSA, EC, DSA, OPENSSH, ENCRYPTED, PGP … BLOCK),
  BEGIN to END or, cut off before END (a truncated tool output), to the end of the text;
  SSH2 `---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----` blocks; PuTTY's `Private-Lines`;
- tokens recognisable by their documented prefix: Anthropic `sk-ant-…`, OpenAI `sk-proj-…`
  (and `sk-…` of 20+ alphanumerics, the minimum of docs/formats.md §12.1), GitHub
  `ghp_/gho_/ghu_/ghs_/ghr_` and `github_pat_…`, GitLab `glpat-…`, Slack `xox[abposr]-…` and webhook
  URLs, Stripe `sk_/rk_` live and test keys, Google `AIza…`, `GOCSPX-…` and `ya29.…`, AWS key ids
  (`AKIA`/`ASIA`…), npm `npm_…`, PyPI `pypi-…`, Hugging Face `hf_…`, bare JWTs
  (`eyJ….eyJ….…`), SendGrid `SG.….…`, Square `sq0atp-…`, DigitalOcean `dop_v1_…`;
- credentials in URLs (`scheme://user:password@host`) and `Authorization: Basic …`;
- `Bearer <16+ chars>` (the minimum of docs/formats.md §12.1);
- passwords in commands as agents run them: upper-case variables glued to the name
  (`PGPASSWORD=…`, `MYSQL_PWD=…`), `--password VALUE`, `curl -u user:password`,
  `docker login -p …` (and podman, helm, oras, skopeo), `sshpass -p …`; Azure
  `AccountKey=`/`SharedAccessKey=` in connection strings;
- `tokens.py`'s families: ~50 more vendors' prefixed tokens, webhook URLs, a token as a URL's
  user, and passwords as `.netrc`, `mysql -p`, `redis-cli -a`, openssl, keytool and ODBC
  take them;
- values of secret-named keys, in env files, YAML, INI, code and JSON: a name that ends in
  `password`, `passwd`, `passphrase`, `secret`, `token`, `api_key`/`apikey`, `access_key`,
  `secret_key`, `private_key` or `client_secret`, alone or glued with `_`, `-` or `.`
  (`DB_PASSWORD`, `aws_secret_access_key`, `spring.datasource.password`), then `:`, `=` or
  `=>` (optionally after the key's closing quote, as in JSON), then a value of 8+
  characters; a quoted value may contain spaces. References to a secret are not one
  (`${DB_PASSWORD}`, `{{ secrets.X }}`, `<your key>`, `os.environ[…]`, `process.env.…`),
  nor is code (`token = s.dumps(…)`);
- secrets said in prose: "the schema password is hunter2", "my token for CI is …" (a quoted
  value, or a word that is no plain word: "expired", "required", "short-lived" are not
  secrets), `password: hunter2` (4–7 characters with a digit);
- a name ending in `key` (`dhl_key=`, `LICENSE_KEY:`) given a random token of 20+
  characters, upper and lower case and digits.

`secrets_named` says what the rules hide, in words; `secret_labels` names the tokens of the
first kinds (private keys, vendors' prefixed tokens; not JWTs, which Claude Code holds
unsure) a text holds, as Claude Code names them when it refuses to write one into memory
that is synced or shared (§17.5).

Not a secret, and left alone: git shas, UUIDs, base64 images, `token_count`/`max_tokens`,
Stripe publishable keys (`pk_live_…`), public keys and certificates, URLs without a
password; what documentation writes in a secret's place (`AKIAIOSFODNN7EXAMPLE`, `sk-xxxx`,
`ghp_xxxx…`, `********`, `your-api-key`, `changeme`); a service's documented default on
this machine (`postgres://postgres:postgres@localhost`, `guest:guest@rabbitmq`).

Why not detect-secrets' plugins: on tests/support/leaks.py they remove 10 of the first 35
leaks whole (16 with its heuristics, which then flag 4 of the 19 look-alikes), miss
`sk-ant-`, `github_pat_`, `AIza`, Hugging Face and YAML keys, leave most of a GitHub, JWT,
Stripe or private key in place, cost ~180 ms to import and carry `verify()` methods that
send a secret to its vendor. So the rules live here, one per documented format.
"""

from memtab.redact.keys import KeyScrubber
from memtab.redact.rules import (
    PRIVATE_RULE,
    REDACTED,
    RULES,
    Rule,
    redact_json,
    redact_outgoing,
    redact_private,
    redact_secrets,
    secret_labels,
    secrets_named,
)
from memtab.redact.view import RedactedView, redact_view

__all__ = [
    "PRIVATE_RULE",
    "REDACTED",
    "RULES",
    "KeyScrubber",
    "RedactedView",
    "Rule",
    "redact_json",
    "redact_outgoing",
    "redact_private",
    "redact_secrets",
    "redact_view",
    "secret_labels",
    "secrets_named",
]
