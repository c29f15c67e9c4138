"""A labelled corpus of secrets as memories hold them (issue 83), written apart from
`support.leaks` and the trust corpus: more vendors' shapes and more contexts — keys in
YAML, TOML, `.env`, JSON and HCL, `Authorization:` and other headers, URLs with
credentials, `.pgpass` and Docker's `config.json`, PEM blocks cut short, JWTs in cookies —
and near misses that are no secret: documented examples and placeholders, references to a
secret, encrypted or hashed values, public keys, a Sentry DSN, settings named like secrets.

Each case is one memory's text; a secret must be named by `memtab leaks` on its line
(`line`, counted from 1), a near miss on none.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass
from pathlib import Path

from memtab.store.home import Home
from memtab.trust.leaks.engine import LeaksEngine
from support.leak_places import card
from support.seeded_memories import memory


@dataclass(frozen=True)
class Case:
    text: str
    line: int | None
    """The line the secret is on (None: a near miss)."""
    form: str


def _token(seed: int, length: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    """A random-looking value, the same on every run."""
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(length))


_HEX = "0123456789abcdef"
_LOWER = string.ascii_lowercase + string.digits
_B64 = string.ascii_letters + string.digits + "+/"
_PEM = "MIIEowIBAAKCAQEA" + _token(1, 48, _B64)

CASES: tuple[Case, ...] = (
    # --- secrets ----------------------------------------------------------------------------
    Case(
        f"# DB\n\n```yaml\ndatasource:\n  url: jdbc:postgresql://db:5432/kelp\n  password: "
        f"{_token(2, 14)}\n```\n",
        6,
        "YAML password",
    ),
    Case(f'# Config\n\n```toml\n[mailer]\napi_key = "{_token(3, 28)}"\n```\n', 5, "TOML api_key"),
    Case(
        f"# Env\n\n```dotenv\nCLOUDFLARE_API_TOKEN={_token(4, 40)}\n```\n",
        4,
        ".env token without a prefix",
    ),
    Case(
        f'# SA\n\n```json\n{{"clientId": "kelp-web", "clientSecret": "{_token(5, 32)}"}}\n```\n',
        4,
        "JSON camelCase clientSecret",
    ),
    Case(
        f"# API\n\n- `curl -H 'Authorization: Token {_token(6, 40, _HEX)}' "
        "https://api.kelp.fernhill.io/v1/me`\n",
        3,
        "Authorization: Token",
    ),
    Case(
        f'# API\n\n- `http GET :8000/items "X-API-Key: {_token(7, 32)}"`\n', 3, "X-API-Key header"
    ),
    Case(
        f"# Queue\n\n- AMQP: amqps://svc_orders:{_token(8, 18)}"
        "@rabbit.fernhill.internal:5671/prod\n",
        3,
        "credentials in an amqps URL",
    ),
    Case(
        f"# Mongo\n\n- mongodb+srv://admin:{_token(9, 16)}@cluster0.ab1cd.mongodb.net/app\n",
        3,
        "credentials in a mongodb+srv URL",
    ),
    Case(
        f"# Key\n\nThe deploy key, pasted from the vault:\n\n-----BEGIN RSA PRIVATE KEY-----\n"
        f"{_PEM}\n",
        5,
        "PEM cut short",
    ),
    Case(
        f"# Ansible\n\n```yaml\ndeploy_key: |\n  -----BEGIN OPENSSH PRIVATE KEY-----\n  "
        f"b3BlbnNzaC1rZXktdjEAAAAA{_token(10, 40, _B64)}\n"
        "  -----END OPENSSH PRIVATE KEY-----\n```\n",
        5,
        "PEM in a YAML block scalar",
    ),
    Case(
        "# Session\n\n- Cookie for the admin: `session=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkYW5hIiwi"
        f"cm9sZSI6ImFkbWluIn0.{_token(11, 43)}`\n",
        3,
        "JWT in a cookie",
    ),
    Case(
        f"# Datadog\n\n- DD_API_KEY={_token(12, 32, _HEX)} for the agent on staging\n",
        3,
        "Datadog API key by name",
    ),
    Case(
        f"# Twilio\n\n```\nTWILIO_AUTH_TOKEN={_token(13, 32, _HEX)}\n```\n", 4, "Twilio auth token"
    ),
    Case(f"# LLM\n\n- OpenRouter key: sk-or-v1-{_token(14, 64, _HEX)}\n", 3, "OpenRouter key"),
    Case(
        f"# pgpass\n\n```\ndb.fernhill.internal:5432:kelp:kelp_app:{_token(15, 16)}\n```\n",
        4,
        ".pgpass line",
    ),
    Case(
        '# Docker\n\n```json\n{"auths": {"registry.fernhill.io": {"auth": '
        '"ZGFuYTpacjhrUTJtVzV2TDlwUXg3"}}}\n```\n',
        4,
        "Docker config auth",
    ),
    Case(
        f"# k8s\n\n```yaml\nkind: Secret\ndata:\n  password: {_token(16, 24, _B64)}=\n```\n",
        6,
        "Kubernetes Secret data",
    ),
    Case(f"# Auth\n\n- NEXTAUTH_SECRET={_token(17, 44, _B64)}\n", 3, "NEXTAUTH_SECRET"),
    Case(
        f"# AWS\n\n- export AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjE{_token(18, 120, _B64)}\n",
        3,
        "AWS session token",
    ),
    Case(
        f"# Git\n\n- ~/.git-credentials: https://dana:ghp_{_token(19, 36)}@github.com\n",
        3,
        "git credentials",
    ),
    Case(
        f"# Proxy\n\n- `Proxy-Authorization: Basic {_token(20, 28, _B64)}=`\n",
        3,
        "Proxy-Authorization Basic",
    ),
    Case(f"# Vault\n\n- `X-Vault-Token: hvs.{_token(21, 90)}`\n", 3, "Vault token header"),
    Case(
        f"# Redis\n\n- rediss://default:{_token(22, 32)}@kelp-cache.upstash.io:6379\n",
        3,
        "rediss URL password",
    ),
    Case(
        '# Terraform\n\n```hcl\nprovider "datadog" {\n'
        f'  app_key = "{_token(23, 40, _HEX)}"\n}}\n```\n',
        5,
        "HCL app_key",
    ),
    Case(
        f'# libpq\n\n- `psql "host=db port=5432 user=kelp password={_token(24, 14)}"`\n',
        3,
        "libpq keyword DSN",
    ),
    Case(
        f"# Azure\n\n- `az login --service-principal -u 0b1c2d3e -p '{_token(25, 3)}8Q~"
        f"{_token(26, 34)}' --tenant fernhill`\n",
        3,
        "Azure client secret",
    ),
    Case(
        f"# Bot\n\n- Discord bot token: MTEyNDU2Nzg5MDEyMzQ1Njc4OQ.{_token(27, 6)}."
        f"{_token(28, 38)}\n",
        3,
        "Discord bot token said",
    ),
    Case(
        f"# Anthropic\n\n- Admin key for the usage report: sk-ant-admin01-{_token(29, 80)}\n",
        3,
        "Anthropic admin key",
    ),
    Case(
        f"# Cookie\n\n- `curl -b 'sessionid={_token(30, 32, _LOWER)}'"
        " https://admin.kelp.fernhill.io/`\n",
        3,
        "session cookie in curl",
    ),
    Case(
        "# SMTP\n\n```ini\n[smtp]\nuser = apikey\n"
        f"password = SG.{_token(31, 22)}.{_token(32, 43)}\n"
        "```\n",
        6,
        "SendGrid key as an SMTP password",
    ),
    Case(
        f'# Short\n\n```toml\n[database]\npassword = "{_token(33, 7)}"\n```\n',
        5,
        "short TOML password",
    ),
    Case(
        f"# Prod\n\n- The prod DB password is `{_token(34, 12)}` (rotate after the audit).\n",
        3,
        "password said in prose, in code",
    ),
    Case(
        f"# MinIO\n\n- MINIO_ROOT_PASSWORD={_token(35, 20)} on the NAS\n", 3, "MinIO root password"
    ),
    # --- near misses --------------------------------------------------------------------------
    Case(
        "# AWS\n\n- The docs' pair: AKIAIOSFODNN7EXAMPLE / "
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
        None,
        "AWS documented example",
    ),
    Case(
        "# Stripe\n\n- Docs use `sk_test_4eC39HqLyjWDarjtT1zdp7dc` in every snippet.\n",
        None,
        "Stripe documented key",
    ),
    Case(
        "# Env\n\n```dotenv\nOPENAI_API_KEY=<your-key>\nDATABASE_URL=postgres://user:password@"
        "localhost:5432/app\n```\n",
        None,
        "placeholders in an env example",
    ),
    Case(
        "# CI\n\n- `password: ${{ secrets.REGISTRY_PASSWORD }}` and `token: ${GITHUB_TOKEN}`\n",
        None,
        "CI references",
    ),
    Case(
        "# Helm\n\n```yaml\npassword: {{ .Values.db.password | quote }}\n```\n",
        None,
        "Helm template",
    ),
    Case(
        "# Python\n\n- `password = os.environ['DB_PASSWORD']`, `api_key = settings.API_KEY`\n",
        None,
        "a secret read in code",
    ),
    Case(
        "# k8s\n\n```yaml\nenv:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n"
        "        name: kelp-db\n        key: password\n```\n",
        None,
        "secretKeyRef",
    ),
    Case(
        "# Ansible\n\n```yaml\ndb_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  "
        f"{_token(40, 64, _HEX)}\n```\n",
        None,
        "Ansible Vault ciphertext",
    ),
    Case(
        f"# sops\n\n```yaml\npassword: ENC[AES256_GCM,data:{_token(41, 24, _B64)}=,iv:"
        f"{_token(42, 22, _B64)}=,tag:{_token(43, 22, _B64)}==,type:str]\n```\n",
        None,
        "sops ciphertext",
    ),
    Case(
        "# Hash\n\n- Admin's hash in the seed: `$2b$12$KIXQJ8y7Zq3c9Lw1mNpO5uTgHfDsAeRvBcXyZ0.1234"
        "5678abcdEF`\n",
        None,
        "bcrypt hash",
    ),
    Case(
        f"# SSH\n\n- My public key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_token(44, 43, _B64)} "
        "dana@laptop\n",
        None,
        "public key",
    ),
    Case(
        f"# Sentry\n\n- DSN for the web app: https://{_token(45, 32, _HEX)}"
        "@o450123.ingest.sentry.io/"
        "5523\n",
        None,
        "Sentry DSN",
    ),
    Case(
        "# Settings\n\n```yaml\npassword_min_length: 12\ntoken_ttl_seconds: 3600\n"
        "max_tokens: 4096\nsecret_name: prod/kelp/db\n```\n",
        None,
        "settings named like secrets",
    ),
    Case(
        "# Digest\n\n- image@sha256:"
        + _token(46, 64, _HEX)
        + " and commit "
        + _token(47, 40, _HEX)
        + "\n",
        None,
        "digests and shas",
    ),
    Case(
        "# Pubkey\n\n-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n"
        "-----END PUBLIC KEY-----\n",
        None,
        "public key block",
    ),
    Case(
        "# Stripe\n\n- Publishable key on the checkout page: pk_live_" + _token(48, 40) + "\n",
        None,
        "Stripe publishable key",
    ),
    Case(
        "# Headers\n\n- `Authorization: Bearer $TOKEN` or `Authorization: Bearer <token>`\n",
        None,
        "header with a reference",
    ),
    Case(
        "# Login\n\n- `echo $CR_PAT | docker login ghcr.io -u dana --password-stdin`\n",
        None,
        "password from stdin",
    ),
    Case(
        "# Vault\n\n- `vault kv get -field=password secret/kelp/db` prints it; never paste it "
        "here.\n",
        None,
        "vault command",
    ),
    Case(
        "# OAuth\n\n- token_url: https://oauth2.googleapis.com/token, client_id: "
        "1234567890-abc.apps.googleusercontent.com\n",
        None,
        "OAuth endpoints and client id",
    ),
    Case(
        "# Keys\n\n- `ssh-keygen -t ed25519 -f ~/.ssh/id_ed25519 -C dana@fernhill.io`\n",
        None,
        "key generation command",
    ),
    Case(
        "# Redacted\n\n- API_KEY=sk-...redacted and `GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxx"
        "xxxxxxxx`\n",
        None,
        "redacted values",
    ),
    Case(
        "# Rules\n\n- The password is required and must be rotated; the token is short-lived.\n",
        None,
        "prose about secrets",
    ),
    Case(
        "# Compose\n\n- `POSTGRES_PASSWORD=postgres` for the local stack on localhost.\n",
        None,
        "compose default",
    ),
    Case(
        "# JWT\n\n- The header `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9` is the same for every "
        "token.\n",
        None,
        "a JWT header alone",
    ),
    Case(
        "# UUIDs\n\n- tenant 7c9e6679-7425-40de-944b-e07fc1f90ae7, request "
        "f47ac10b-58cc-4372-a567-0e02b2c3d479\n",
        None,
        "UUIDs",
    ),
    Case(
        '# Lock\n\n- `"integrity": "sha512-' + _token(49, 86, _B64) + '=="`\n',
        None,
        "npm integrity",
    ),
    Case(
        "# Types\n\n```ts\ninterface Login { password: string; token?: string }\n```\n",
        None,
        "types",
    ),
    Case(
        "# pgpass\n\n- `.pgpass` format: `hostname:port:database:username:password`\n",
        None,
        "pgpass format line",
    ),
    Case(
        '# Docker\n\n```json\n{"auths": {"ghcr.io": {}}, "credsStore": "desktop"}\n```\n',
        None,
        "Docker config with a credential store",
    ),
    Case(
        "# Firebase\n\n- `firebase login:ci` prints a token; store it as FIREBASE_TOKEN in CI "
        "secrets.\n",
        None,
        "where a token goes",
    ),
    Case(
        "# GPG\n\n- Signing key fingerprint: 3AA5 C343 7155 7F1A 3E3C  9A3C 2D3B 6F1E 8E2C 4B5A\n",
        None,
        "GPG fingerprint",
    ),
    Case(
        '# Kube\n\n- `kubectl create secret generic kelp-db --from-literal=password="$(pass show '
        'kelp/db)"`\n',
        None,
        "secret made from a password manager",
    ),
    # a secret's name, words, a colon and a random value (issue 94); its near misses
    Case(
        "# Devices\n\n- Relay token for unit-3: rly_tok_" + _token(60, 32, _HEX) + "\n",
        3,
        "token after its name and a colon",
    ),
    Case(
        "# Release\n\n- Update signing key, base64: " + _token(61, 44, _B64) + "==\n",
        3,
        "base64 key after its name",
    ),
    Case(
        "# CI\n\n- Deploy token for staging: Tok1 " + _token(62, 48) + "\n",
        3,
        "token after its scheme word",
    ),
    Case(
        "# Cache\n\n- CI cache key: node-modules-release-2026-11-02\n"
        "- Host key fingerprint: " + _token(63, 32, _HEX) + "\n"
        "- Deploy key, public: AAAAC3NzaC1lZDI1NTE5AAAAI" + _token(64, 24) + "\n",
        None,
        "key names, fingerprints and public keys after a colon",
    ),
)


def found() -> dict[int, list[tuple[int | None, str]]]:
    """Each case's secrets as `memtab leaks` names them: (line, what)."""
    docs = [memory("project:kelp", f"case-{n}.md", case.text) for n, case in enumerate(CASES)]
    number = {d.path: n for n, d in enumerate(docs)}
    engine = LeaksEngine(Home(Path("/nowhere")), env={"HOME": "/home/dev", "USER": "dev"})
    result: dict[int, list[tuple[int | None, str]]] = {}
    for leak in engine.leaks_of(docs, {}):
        if leak.kind == "secret":
            result.setdefault(number[leak.place.path], []).append((leak.place.line, leak.names))
    return result


def score() -> dict[str, object]:
    """Recall over the secrets (named on their line), precision over what is named."""
    named = found()
    right = wrong = 0
    missed, flagged = [], []
    for n, case in enumerate(CASES):
        lines = [line for line, _ in named.get(n, [])]
        if case.line is not None and case.line in lines:
            right += 1
        elif case.line is not None:
            missed.append(case.form)
        extra = [line for line in lines if line != case.line]
        wrong += len(extra)
        if case.line is None and extra:
            flagged.append(case.form)
    return card(right, wrong, sum(case.line is not None for case in CASES), missed, flagged)
