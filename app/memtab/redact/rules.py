"""The rules: what a secret is, by its shape or by how it is said (the package doc lists
them), and the redactions made with them (`redact_secrets`, `redact_outgoing`,
`redact_json`)."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from memtab.redact.tokens import PREFIXED, SAID

REDACTED = "[REDACTED_SECRET]"


@dataclass(frozen=True)
class Rule:
    """One kind of secret. The `secret` group (else the whole match) is replaced.

    `needles`: lower-case strings of which every match contains one; a text holding none
    of them skips the regex (most texts hold no secret, and a scan costs far more than `in`).
    `keeps`: whether a match is no secret after all (a compose default, a call in code,
    prose: "the token is expired").
    """

    name: str
    pattern: re.Pattern[str]
    needles: tuple[str, ...]
    label: str | None = None
    """A token known by its shape (a vendor's key, a private key), named as Claude Code
    names it when it refuses one (`secret_labels`); None: a secret by its context."""
    words: str = "a secret-named value"
    """What a match is, in words (`secrets_named`), when it has no `label`."""
    keeps: Callable[[re.Match[str]], bool] | None = None

    @property
    def what(self) -> str:
        """What a match of this rule is, in words."""
        return self.label or self.words

    def apply(self, text: str, lowered: str | None = None) -> str:
        """`text` with this rule's secrets replaced (`lowered` is `text.lower()`, if known)."""
        lowered = text.lower() if lowered is None else lowered
        if not any(needle in lowered for needle in self.needles):
            return text
        return self.pattern.sub(self._replace, text)

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Where `apply` puts a `REDACTED` in `text`: each replaced range, in order."""
        return [
            _secret_span(match) for match in self.pattern.finditer(text) if not self._kept(match)
        ]

    def found(self, text: str, lowered: str | None = None) -> bool:
        """Whether `text` holds a secret of this rule."""
        lowered = text.lower() if lowered is None else lowered
        if not any(needle in lowered for needle in self.needles):
            return False
        return any(not self._kept(match) for match in self.pattern.finditer(text))

    def _kept(self, match: re.Match[str]) -> bool:
        start, end = _secret_span(match)
        return _placeholder(match.string[start:end]) or (
            self.keeps is not None and self.keeps(match)
        )

    def _replace(self, match: re.Match[str]) -> str:
        if self._kept(match):
            return match.group(0)
        start, end = _secret_span(match)
        return match.string[match.start() : start] + REDACTED + match.string[end : match.end()]


def _secret_span(match: re.Match[str]) -> tuple[int, int]:
    """The part of a match that is the secret: its `secret` or `quoted` group, else all."""
    groups = match.re.groupindex
    for group in ("secret", "quoted"):
        if group in groups and match.start(group) >= 0:
            return match.span(group)
    return match.span()


# What documentation writes in a secret's place: AWS's `AKIAIOSFODNN7EXAMPLE`, `sk-xxxx`,
# `<your-token>`, `changeme`, `old-secret`, Stripe's, jwt.io's and Azurite's published values. A
# value of one token whose letters and digits past a vendor's prefix are none or one
# repeated (`********`, `sk-...`, `AKIAXXXXXXXXXXXXXXXX`) is one too.
_PLACEHOLDER_WORDS = re.compile(
    r"example|placeholder|changeme|change[-_]me|replace[-_]?me|dummy|redacted|xxxx"
    r"|your[-_]|your(?:key|token|secret|password)",
    re.IGNORECASE,
)
_VENDOR_PREFIX = re.compile(r"^(?:[A-Za-z][A-Za-z0-9]{0,4}[_-]){1,3}")
# Words only, one of them saying what it stands for: `old-secret`, `super-secret-key`.
_SAYS_WHAT_IT_IS = re.compile(
    r"[a-z]+(?:[-_][a-z]+)*[-_]?(?:secret|key|token|password|passwd|pass)(?:[-_][a-z]+)*"
)
_DOCUMENTED = (
    "sk_test_4eC39HqLyjWDarjtT1zdp7dc",  # Stripe's API reference
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",  # jwt.io's example token
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq",  # Azurite's account key
)


def _placeholder(value: str) -> bool:
    """Whether a matched secret is what documentation writes in a secret's place."""
    if len(value) > 200 or any(char.isspace() for char in value):
        return False  # a private key's block, a quoted passphrase: never a placeholder
    if _PLACEHOLDER_WORDS.search(value) or any(example in value for example in _DOCUMENTED):
        return True
    if _SAYS_WHAT_IT_IS.fullmatch(value):
        return True
    rest = [char.lower() for char in _VENDOR_PREFIX.sub("", value) if char.isalnum()]
    return not rest or (len(rest) >= 4 and len(set(rest)) == 1)


def _article(what: str) -> str:
    return "an" if what[0].lower() in "aeiox" else "a"


def _rule(
    name: str,
    needles: str,
    pattern: str,
    flags: int = 0,
    *,
    label: str | None = None,
    words: str = "a secret-named value",
    keeps: Callable[[re.Match[str]], bool] | None = None,
) -> Rule:
    return Rule(name, re.compile(pattern, flags), tuple(needles.split()), label, words, keeps)


# A token must not continue a longer word on either side.
_START = r"(?<![A-Za-z0-9_-])"
_END = r"(?![A-Za-z0-9_-])"
# Names whose value is a secret: the last part of a key, alone or glued with _ - or .
_SECRET_NAME = (
    r"(?:api[_-]?key|apikey|app[_-]?key|access[_-]?key|secret[_-]?key|private[_-]?key"
    r"|client[_-]?secret"
    r"|password|passwd|passphrase|psk|secret|token)"
)
# Glued names (`DB_PASSWORD`, `spring.datasource.password`) start after `_`, `.` or `-`.
_NAME_START = r"(?<![A-Za-z0-9])"
# A reference to a secret (or an earlier redaction), not the secret itself.
_REFERENCE = r"\$|\{\{|<|%\(|\[REDACTED|os\.environ|os\.getenv|getenv\(|process\.env|ENV\[|env\("
_NOT_A_VALUE = rf"(?!{_REFERENCE})"
# Upper-case variables glued to the name (`PGPASSWORD`, `MYSQL_PWD`; `PWD` alone is the
# working directory).
_GLUED_ENV_NAME = r"(?:[A-Z][A-Z0-9]*(?:PASSWORD|PASSWD)|[A-Z][A-Z0-9_]*_PWD)"
# A registry login, read up to the next one at most (as a `curl`'s options).
_LOGIN = r"(?:docker|podman|nerdctl|helm(?: registry)?|oras|skopeo)\s+login\b"
# A secret value after its name: quoted (spaces allowed) or a bare word, 8+ characters
# (a backtick ends it: Markdown's code span around `NAME=value`).
_VALUE = (
    rf"(?:\\?(?P<q>[\"']){_NOT_A_VALUE}(?P<quoted>(?:(?!(?P=q))[^\\\n]){{8,}})"
    r"|(?P<secret>[^\s\"'`]{8,}))"
)
# A bare value that is code, not a secret: a call or an index (`token = s.dumps(...)`), or
# an attribute read (`api_key = settings.API_KEY`: words joined by dots, no digit).
_CODE = re.compile(r"[A-Za-z_][\w.]*[(\[]|[A-Za-z_]+(?:\.[A-Za-z_]+)+[,;]?$")
# Where a compose file's documented defaults live: this machine, or a service's bare name.
_LOCAL_HOST = re.compile(
    r"localhost|127(?:\.\d+){3}|0\.0\.0\.0|\[::1\]|host\.docker\.internal|[\w-]+"
)
_DEFAULT_PASSWORDS = frozenset(
    {"postgres", "password", "secret", "root", "admin", "guest", "example", "changeme"}
    | {"test", "minioadmin", "mysql"}
)


# A bare value that is itself a secret's variable name (`Worker secret: NEIS_API_KEY, …`): it says
# where the secret is kept, not what it is.
_SECRET_VARIABLE = re.compile(
    r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|PWD)[,;.]?"
)


def _code(match: re.Match[str]) -> bool:
    """A secret-named name given code or another secret's name, not a value (`token =
    s.dumps(...)`, `secret: NEIS_API_KEY`), or a service's documented default
    (`POSTGRES_PASSWORD=postgres`, `password: minioadmin`)."""
    bare = match.group("secret")
    if bare is not None and (_CODE.match(bare) or _SECRET_VARIABLE.fullmatch(bare)):
        return True
    value = bare if bare is not None else match.group("quoted")
    return value is not None and value.lower() in _DEFAULT_PASSWORDS


def _not_user_and_password(match: re.Match[str]) -> bool:
    """A registry's `auth` that does not decode to `user:password`."""
    try:
        decoded = base64.b64decode(match.group("secret"), validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return True
    user, colon, password = decoded.partition(":")
    return not (colon and user and password)


def _name_or_number(match: re.Match[str]) -> bool:
    """A value of letters alone or digits alone (`?key=onboarding-checklist`): a name or an
    id, no key."""
    value = match.group("secret")
    return not (any(c.isdigit() for c in value) and any(c.isalpha() for c in value))


def _compose_default(match: re.Match[str]) -> bool:
    """A password in a URL that is a service's documented default on this machine
    (`postgres://postgres:postgres@localhost`, `amqp://guest:guest@rabbitmq`)."""
    password = match.group("secret")
    default = password == match.group("user") or password.lower() in _DEFAULT_PASSWORDS
    return default and _LOCAL_HOST.fullmatch(match.group("host")) is not None


# A secret said in prose: "the schema password is hunter2", "my token for CI is abc123",
# "password: hunter2". Its name, what may stand between it and "is", and its value (a
# quoted string, or the word after "is": `_said_no_secret` tells "expired" from "hunter2").
_PROSE_NAME = (
    r"(?:pass(?:word|phrase|wd|code)|pin(?:\s+code)?|(?:api|access|secret|private)[ _-]?key"
    r"|token|secret)"
)
_PROSE_LINK = (
    r"(?:\s+(?:for|of|on|to)(?:\s+[^\s.,;:]+){1,4}?)?"
    r"\s+(?:is\s+set\s+to|is\s+now|will\s+be|is|was)\s+"
)
_PROSE_VALUE = (
    r"(?:(?P<q>[\"'`])(?P<quoted>(?:(?!(?P=q))[^\n]){1,80})(?P=q)"
    r"|(?P<secret>[^\s\"'`,;()]*[^\s\"'`,;().!?:]))"
)
_PLAIN_WORDS = """a an the this that these those not no now also still just only always never
    usually
    often sometimes required missing empty invalid valid wrong right correct incorrect
    expired stale set unset stored kept saved sent read passed given used needed optional
    mandatory same different weak strong short long too very in on at from for with by of
    to into under inside within hidden masked private public known unknown available
    unavailable fine good bad null none nil undefined true false here there what which
    where when how why who being been it its our your their my his her generated rotated
    reset changed shown visible secret secure insecure unique random simple plain
    cleartext hashed encrypted case sensitive insensitive lowercase uppercase enough ready
    done gone broken safe unsafe ok okay already yet then again more less longer shorter
    able unable supposed meant like one two three four five six seven eight nine ten
    base64 jwt bearer opaque static dynamic temporary permanent global local new old
    current default custom part per each every any all some such up out off back"""
_PROSE_WORDS = frozenset(_PLAIN_WORDS.split())
_WORD_ENDINGS = (
    "ed", "ing", "ly", "ive", "able", "ible", "ful", "less", "ous", "ion", "ity", "ent",
    "ant", "ment", "ness",
)  # fmt: skip


def _said_no_secret(match: re.Match[str]) -> bool:
    """Whether the value a prose rule matched is a plain word, not a secret: "expired",
    "required", "short-lived", "stored" — against "hunter2", "swordfish", "AbC123"."""
    quoted = match.group("quoted")
    if quoted is not None:
        value = quoted.strip()
        return len(value) < 4 or len(set(value)) == 1 or value.startswith(("<", "$", "{{"))
    value = match.group("secret")
    if len(value) < 4:
        return True
    if any(char.isdigit() for char in value):
        return False
    if any(not char.isalnum() and char != "-" for char in value):
        return False
    if any(char.isupper() for char in value[1:]):
        return False
    word = value.lower()
    return "-" in word or word in _PROSE_WORDS or word.endswith(_WORD_ENDINGS)


_NOT_A_SECRET_VALUE = frozenset({"true", "false", "null", "none", "yes", "no", "on", "off"})
_PATH_OR_ADDRESS = re.compile(r"(?:/|~/|\./|\.\./)|\w+://")


_GIVEN_NOTHING = re.compile(r"(?<==)[ \t]")
_WORDS_AFTER = re.compile(r"[ \t]++[A-Za-z]")
"""`NAME= word more words`: a name given nothing, then a sentence or a command (a shell's
`PGPASSWORD= psql …`, "DB_PASSWORD= stays empty locally"); a value ends its line or comes
before a comment."""


def _not_a_variables_secret(match: re.Match[str]) -> bool:
    """A secret-named variable's value that is no secret: a path or an address (`SSH_KEY=
    ~/.ssh/id_ed25519`), a flag, YAML's syntax, a documented default (`DB_PASS=postgres`),
    code, nothing given (`_GIVEN_NOTHING`); and, for a
    key, token or secret, a word (`SORT_KEY=created_at`, `"updatedAt"`): a key holds a digit (a
    longer word given a token or secret is `secret_named_value`'s)."""
    value = match.group("secret")
    lowered = value.lower()
    if _PATH_OR_ADDRESS.match(value) or lowered in _NOT_A_SECRET_VALUE:
        return True
    if _GIVEN_NOTHING.match(match.string, match.start("secret") - 1) and _WORDS_AFTER.match(
        match.string, match.end("secret")
    ):
        return True
    if value[0] in "!&*|>":  # YAML's tag, anchor, alias or block (`db_password: !vault |`)
        return True
    if lowered in _DEFAULT_PASSWORDS or _CODE.match(value) is not None:
        return True
    if match.group("kind").lower() in ("key", "token", "secret"):
        return len(value) < 8 or not any(char.isdigit() for char in value)
    return False


def _short_value_no_secret(match: re.Match[str]) -> bool:
    """`password: str` is a type; `password: hunter2`, `pin: 4921` hold a digit."""
    return not any(char.isdigit() for char in match.group("secret"))


# A random value holds a long run of letters and digits mixed (a hex or base64 body); a
# name, a slug or a version (`node-modules-v2`, `release-2026-11-02`) has none.
_RANDOM_RUN = re.compile(r"(?=[A-Za-z]{0,15}[0-9])(?=[0-9]{0,15}[A-Za-z])[A-Za-z0-9]{16}")
# What a key's or token's name says when its value is published, or only points at one.
_PUBLIC_VALUE = re.compile(
    r"(?i)\b(?:public|publishable|pub|fingerprint|id|ids|name|hash|sha\d*|digest|checksum|commit|file|path"
    r"|env|variable|var)\b"
)


def _not_random_or_public(match: re.Match[str]) -> bool:
    """A value after a secret's name that is no secret: no random run in it, or the words
    between say what is public ("public key: AAAA…", "key fingerprint: …", "token ID: …")."""
    value = match.group("secret")
    line_start = match.string.rfind("\n", 0, match.start()) + 1
    named = match.string[max(line_start, match.start() - 40) : match.end("said")]
    return _RANDOM_RUN.search(value) is None or _PUBLIC_VALUE.search(named) is not None


def _no_password(match: re.Match[str]) -> bool:
    """A value given after a login that no password is: without both a letter and a digit, or
    without mixed case or a symbol (`admin / admin`, `src / lib`, `v1 / v2`)."""
    value = match.group("secret")
    kinds = [any(test(char) for char in value) for test in (str.isupper, str.islower)]
    has_digit = any(char.isdigit() for char in value)
    symbol = any(not char.isalnum() for char in value)
    return not (has_digit and any(kinds) and (all(kinds) or symbol))


RULES: tuple[Rule, ...] = (
    _rule(
        "pem_private_key",
        "private",
        r"-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY((?: BLOCK)?)-----"
        r"(?:.*?-----END \1PRIVATE KEY\2-----|.*\Z)",
        re.DOTALL,
        label="Private Key",
    ),
    _rule(
        "ssh2_private_key",
        "private",
        r"---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----"
        r"(?:.*?---- END SSH2 ENCRYPTED PRIVATE KEY ----|.*\Z)",
        re.DOTALL,
        label="Private Key",
    ),
    _rule(
        "putty_private_key",
        "private-lines",
        r"(?m)^Private-Lines: *\d+\r?\n(?:[A-Za-z0-9+/=]+(?:\r?\n|\Z))+",
        label="Private Key",
    ),
    _rule(
        "anthropic_openai_key",
        "sk-",
        _START + r"sk-(?:ant|proj|svcacct|admin|or)-[A-Za-z0-9_-]{20,}",
        label="Anthropic or OpenAI API Key",
    ),
    _rule("openai_legacy_key", "sk-", r"sk-[A-Za-z0-9]{20,}", label="OpenAI Legacy API Key"),
    _rule(
        "github_token",
        "ghp_ gho_ ghu_ ghs_ ghr_ github_pat_",
        _START + r"(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})",
        label="GitHub Token",
    ),
    _rule("gitlab_token", "glpat-", _START + r"glpat-[A-Za-z0-9_-]{20,}", label="GitLab PAT"),
    _rule("slack_token", "xox", _START + r"xox[abposr]-[A-Za-z0-9-]{10,}", label="Slack Token"),
    _rule(
        "slack_webhook",
        "hooks.slack.com",
        r"hooks\.slack\.com/services/(?P<secret>T[A-Za-z0-9_]+/B[A-Za-z0-9_]+/[A-Za-z0-9_]+)",
        label="Slack Webhook URL",
    ),
    _rule(
        "stripe_key",
        "k_live_ k_test_",
        _START + r"[rs]k_(?:live|test)_[A-Za-z0-9]{16,}",
        label="Stripe Access Token",
    ),
    _rule("google_api_key", "aiza", _START + r"AIza[0-9A-Za-z_-]{35}" + _END, label="GCP API Key"),
    _rule(
        "google_oauth",
        "gocspx- ya29.",
        _START + r"(?:GOCSPX-[A-Za-z0-9_-]{20,}|ya29\.[A-Za-z0-9_-]{20,})",
        label="Google OAuth Token",
    ),
    _rule(
        "aws_access_key_id",
        "akia asia abia acca",
        r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b",
        label="AWS Access Token",
    ),
    _rule("npm_token", "npm_", _START + r"npm_[A-Za-z0-9]{36}" + _END, label="npm Access Token"),
    _rule(
        "pypi_token",
        "pypi-",
        _START + r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{40,}",
        label="PyPI Upload Token",
    ),
    _rule(
        "huggingface_token",
        "hf_",
        _START + r"hf_[A-Za-z0-9]{30,}" + _END,
        label="Hugging Face Access Token",
    ),
    _rule(
        "jwt",
        "eyj",
        _START + r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*",
        words="a signed JWT",
    ),
    _rule(
        "url_password",
        "://",
        r"(?i)\b[a-z][a-z0-9+.-]{1,30}://(?P<user>[^\s:/?#@\"'<>\[\]]*):(?P<secret>[^\s@/?#\"'<>]+)@"
        r"(?P<host>[^\s/:?#\"'<>]*)",
        words="a password in a URL",
        keeps=_compose_default,
    ),
    _rule(
        "url_key_parameter",
        "key=",
        # Steam's, Google's and many REST APIs' key in a URL's query (`?key=96367AB8…`)
        r"[?&]key=(?P<secret>[A-Za-z0-9_-]{16,})(?![A-Za-z0-9_-])",
        words="an API key in a URL",
        keeps=_name_or_number,
    ),
    _rule(
        "basic_auth_header",
        "basic",
        r"(?i)authorization[\"']?\s*[:=]\s*[\"']?Basic\s+(?P<secret>[A-Za-z0-9+/=]{8,})",
        words="a password in an Authorization header",
    ),
    _rule(
        "bearer_token",
        "bearer",
        r"(?i)\bBearer\s+(?P<secret>[A-Za-z0-9._\-]{16,})\b",
        words="a bearer token",
    ),
    _rule(
        "glued_env_password",
        "password passwd _pwd",
        rf"(?<![A-Za-z0-9_]){_GLUED_ENV_NAME}\s*=\s*{_NOT_A_VALUE}" + _VALUE,
        words="a password in a command",
        keeps=_code,
    ),
    _rule(
        "password_option",
        "--pass",
        # `--password VALUE` (with `=` the secret-named rule takes it); never `--password-stdin`.
        rf"(?<![\w-])--(?:password|passwd|pass)[ \t]+{_NOT_A_VALUE}(?!-)" + _VALUE,
        words="a password in a command",
    ),
    _rule(
        "curl_user_password",
        "curl",
        # up to the next `curl` at most (a later one reads on itself: each `curl` of a long
        # line read the rest of it again)
        r"\bcurl\b(?:(?!\bcurl\b)[^\n|;&])*?\s(?:-u|--user)(?:[ \t]+|=)[\"']?[^\s:\"']+:"
        r"(?P<secret>(?!\$)[^\s\"'@]+)",
        words="a password in a command",
    ),
    _rule(
        "password_flag",
        "login sshpass",
        rf"\b(?:{_LOGIN}(?:(?!\b{_LOGIN})[^\n|;&])*?\s|sshpass\s+)-p[ \t]+" + _VALUE,
        words="a password in a command",
    ),
    _rule(
        "mosquitto_password",
        "mosquitto_",
        # Mosquitto's clients take the password as `-P` (their `-p` is the port)
        r"\bmosquitto_(?:pub|sub|rr)\b(?:(?!\bmosquitto_)[^\n|;&])*?\s-P[ \t]+" + _VALUE,
        words="a password in a command",
    ),
    _rule(
        "registry_auth",
        "auth",
        # Docker's `config.json`: `"auth": "<base64 of user:password>"`
        r"\"auth\"\s*:\s*\"(?P<secret>[A-Za-z0-9+/]{12,}={0,2})\"",
        words="a registry login",
        keeps=_not_user_and_password,
    ),
    _rule(
        "azure_key",
        "accountkey sharedaccesskey",
        r"(?i)\b(?:AccountKey|SharedAccessKey)=(?P<secret>[A-Za-z0-9+/]{20,}={0,2})",
        words="an Azure account key",
    ),
    _rule(
        "sendgrid_key",
        "sg.",
        _START + r"SG\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{20,}" + _END,
        label="SendGrid API Token",
    ),
    _rule(
        "square_token",
        "sq0",
        _START + r"sq0(?:atp|csp|idp)-[A-Za-z0-9_-]{22,}" + _END,
        words="a Square access token",
    ),
    _rule(
        "digitalocean_token",
        "dop_v1_ doo_v1_",
        _START + r"do[op]_v1_[a-f0-9]{64}" + _END,
        label="DigitalOcean Access Token",
    ),
    _rule(
        "vault_token",
        "hvs. hvb. hvr.",
        _START + r"hv[sbr]\.[A-Za-z0-9_-]{24,}" + _END,
        words="a HashiCorp Vault token",
    ),
    _rule(
        "telegram_bot_token",
        ":aa",
        _START + r"[0-9]{8,10}:AA[A-Za-z0-9_-]{33}" + _END,
        words="a Telegram bot token",
    ),
    _rule("mailgun_key", "key-", _START + r"key-[0-9a-f]{32}" + _END, words="a Mailgun API key"),
    _rule(
        "shopify_token",
        "shpat_ shpca_ shppa_ shpss_",
        _START + r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}" + _END,
        words="a Shopify access token",
    ),
    _rule(
        "linear_key",
        "lin_api_",
        _START + r"lin_api_[A-Za-z0-9]{32,}" + _END,
        words="a Linear API key",
    ),
    _rule(
        "doppler_token",
        "dp.st. dp.ct. dp.sa. dp.scim. dp.audit.",
        _START + r"dp\.(?:st|ct|sa|scim|audit)\.(?:[a-z0-9_-]{2,35}\.)?[A-Za-z0-9]{32,}" + _END,
        words="a Doppler token",
    ),
    _rule(
        "atlassian_token",
        "atatt3",
        _START + r"ATATT3[A-Za-z0-9_=-]{60,}" + _END,
        words="an Atlassian API token",
    ),
    _rule(
        "figma_token", "figd_", _START + r"figd_[A-Za-z0-9_-]{32,}" + _END, words="a Figma token"
    ),
    *(
        _rule(n, needles, _START + shape + _END, words=f"{_article(what)} {what}")
        for n, needles, shape, what in PREFIXED
    ),
    *(_rule(n, needles, shape, words=what) for n, needles, shape, what in SAID),
    _rule(
        "secret_named_value",
        "key secret token pass psk",
        rf"(?i){_NAME_START}{_SECRET_NAME}\\?[\"']?\s*(?:=>|[:=])\s*{_NOT_A_VALUE}" + _VALUE,
        keeps=_code,
    ),
    _rule(
        "named_key",
        "key",
        # `dhl_key=…`, `LICENSE_KEY: …`, .NET's `"SigningKey": …`: a name ending in `key` given a
        # random token (upper and lower case and digits, 20+), which no sort key or cache key is.
        rf"(?i){_NAME_START}(?:[a-z0-9]+[_.-]key|(?-i:[A-Za-z][a-z0-9]+(?:[A-Z][a-z0-9]+)*Key))"
        r"\\?[\"']?\s*(?:=>|[:=])\s*\\?[\"'`]?"
        r"(?P<secret>(?-i:(?=[A-Za-z0-9+/=_-]{0,200}[A-Z])(?=[A-Za-z0-9+/=_-]{0,200}[a-z])"
        r"(?=[A-Za-z0-9+/=_-]{0,200}[0-9]))[A-Za-z0-9+/=_-]{20,})" + _END,
        words="a key given by name",
    ),
    _rule(
        "secret_named_variable",
        "pass pwd secret token key",
        # `PG_PASS=…`, `export DB_PASSWD=…`, `ADMIN_PWD="…"`, `STRIPE_KEY: …` in an env file, a
        # shell or YAML: a variable whose last part names a secret (or its encoding: Rails'
        # and Phoenix's `SECRET_KEY_BASE`), given a value (a name of at most six parts, so a
        # long run of `a_a_a…` is read in linear time).
        rf"(?i){_NAME_START}(?:[a-z][a-z0-9]{{0,30}}[_.-]){{1,6}}(?P<kind>pass|passwd|pwd|password|secret"
        r"|token|key)(?:[_.-](?:base|base64|b64|hex))?"
        r"\\?[\"']?[ \t]*(?::[ \t]+|=)[ \t]*(?P<q>[\"'])?"
        rf"{_NOT_A_VALUE}(?P<secret>[^\s\"'`#,;]{{4,}})(?(q)(?P=q))",
        words="a secret-named variable",
        keeps=_not_a_variables_secret,
    ),
    _rule(
        "camel_secret_variable",
        "pass pwd secret token",
        # `storePassword=…` and `keyPassword=…` (Android's key.properties, Gradle), `clientSecret:
        # …`: a lower-camel name whose last word names a secret, given a value.
        rf"{_NAME_START}[a-z][a-z0-9]{{0,30}}(?:[A-Z][a-z0-9]{{0,30}}){{0,5}}"
        r"(?P<kind>Pass|Passwd|Pwd|Password|Passphrase|Secret|Token)"
        r"\\?[\"']?[ \t]*(?::[ \t]+|=)[ \t]*(?P<q>[\"'])?"
        rf"{_NOT_A_VALUE}(?P<secret>[^\s\"'`#,;]{{4,}})(?(q)(?P=q))",
        words="a secret-named variable",
        keeps=_not_a_variables_secret,
    ),
    _rule(
        "secret_in_prose",
        "pass pin key token secret",
        rf"(?i)(?<![\w-]){_PROSE_NAME}{_PROSE_LINK}{_NOT_A_VALUE}{_PROSE_VALUE}",
        words="a secret said in prose",
        keeps=_said_no_secret,
    ),
    _rule(
        "secret_before_colon",
        "token key secret pass credential",
        # "Uplink token for hive-07: hbx_tok_4f9a…", "Org key, base64: Wm9y…": a secret's name,
        # a few words, a colon, then a value (at most one scheme word before it: `FlyV1 fm2_…`)
        r"(?i)(?<![\w-])(?:token|key|secret|passphrase|password|credential)s?\b"
        r"(?P<said>[^:\n`]{0,40}?):[ \t]+(?:[A-Za-z][A-Za-z0-9]{1,9}[ \t]+)?"
        r"(?P<secret>[A-Za-z0-9+/_-]{20,}(?:\.[A-Za-z0-9+/_-]+)*={0,2})(?![A-Za-z0-9+/=_-])",
        words="a secret after its name",
        keeps=_not_random_or_public,
    ),
    _rule(
        "login_and_password",
        "log sign account user cred",
        # "SMTP relay login: mailer / Qv7#nR2p!Lw9x", "Unity account for CI: ana@x.io / Tq9!mWx4":
        # a login named, a colon, then its user and password with a slash between
        r"(?i)(?<![\w-])(?:log[ -]?in|sign[ -]?in|account|user|credentials?|creds)\b[^:\n`]{0,40}?"
        r"(?::|[ \t]is)"
        r"[ \t]+[\w.+@-]{1,64}[ \t]+/[ \t]+(?P<secret>[^\s`'\"]{8,64})(?!\S)",
        words="a login's password",
        keeps=_no_password,
    ),
    _rule(
        "password_then_value",
        "pass",
        # "user admin / password K3ycl0ak-local", a `.netrc` fence's `password 7f3Kq…` line: the
        # word, a space, then a value shaped as a password (`_no_password` keeps "password reset");
        # a quoted one may end a sentence (password `K3ycl0ak-local`.)
        r"(?i)(?<![\w-])(?:password|passwd|passphrase)[ \t]+(?P<q>[`'\"]?)"
        r"(?P<secret>[^\s`'\"]{8,64})(?P=q)(?:(?<=[`'\"])[.,;:!?)]++)?(?!\S)",
        words="a password after its name",
        keeps=_no_password,
    ),
    _rule(
        "token_then_value",
        "token key secret",
        # "auth token 9e4b7c2a…": a token's name, a space, then a random value of 20 or more
        # (`said` is empty: what `_not_random_or_public` reads before it is the name alone)
        r"(?i)(?<![\w-])(?:token|key|secret)(?P<said>)[ \t]+"
        r"(?P<secret>[A-Za-z0-9+/_-]{20,}={0,2})(?![A-Za-z0-9+/=_-])(?!\.\w)",
        words="a secret after its name",
        keeps=_not_random_or_public,
    ),
    _rule(
        "short_password",
        "pass pin",
        # `password: <value>`, and quoted after `=` as TOML and INI write it
        rf"(?i)(?<![\w-])(?:pass(?:word|phrase|wd|code)|pin)\s*(?::|=(?=\s*[\"']))\s*"
        rf"(?P<q>[\"'])?{_NOT_A_VALUE}"
        r"(?P<secret>[^\s\"'`,;()]{3,6}[^\s\"'`,;().!?:])(?(q)(?P=q)|(?![^\s.,;]))",
        words="a short password",
        keeps=_short_value_no_secret,
    ),
)

PRIVATE_RULE = _rule("private_block", "<private", r"(?is)<private>(?:(?!</?private>).)*</private>")
"""claude-mem's convention for "never remember this": `<private>…</private>`, whole."""

_SECRET_KEY_NAME = re.compile(
    rf"(?i:(?:.*[_.-])?(?:{_SECRET_NAME})|.+[_.-](?:pass|pwd))|{_GLUED_ENV_NAME}"
)
_REFERENCE_VALUE = re.compile(_REFERENCE)
_MIN_VALUE_CHARS = 8


# The rules each needle may fire, by index: a text is searched once for each needle, not
# once for each rule's (a model's reply of 40,000 short lessons took 30 s to redact).
_RULES_OF_NEEDLE: dict[str, tuple[int, ...]] = {
    needle: tuple(index for index, rule in enumerate(RULES) if needle in rule.needles)
    for needle in dict.fromkeys(needle for rule in RULES for needle in rule.needles)
}


def _rules_in(lowered: str) -> list[Rule]:
    """The rules whose needles `lowered` holds, in their order: the only ones that can match."""
    hit = {
        index
        for needle, indices in _RULES_OF_NEEDLE.items()
        if needle in lowered
        for index in indices
    }
    return [RULES[index] for index in sorted(hit)]


def redact_secrets(text: str) -> str:
    """`text` with every secret the rules know replaced by `[REDACTED_SECRET]`."""
    # Needles are looked up in the original text: a replacement only removes text (and
    # REDACTED itself is never a match), so it cannot create a needle a rule would need.
    lowered = text.lower()
    for rule in _rules_in(lowered):
        text = rule.apply(text, lowered)
    return text


def redact_private(text: str) -> str:
    """`text` with each `<private>…</private>` block replaced by `[REDACTED_SECRET]`."""
    return PRIVATE_RULE.apply(text)


def redact_outgoing(text: str) -> str:
    """What of `text` may be sent to a model, dumped or written as a note: its `<private>`
    blocks and its secrets redacted."""
    return redact_secrets(redact_private(text))


def secrets_named(text: str) -> list[str]:
    """What `redact_secrets` hides in `text`, in words (`Rule.what`: "GitHub Token", "a
    password in a URL"), each once, in the rules' order; empty when it hides nothing."""
    lowered = text.lower()
    found: list[str] = []
    for rule in _rules_in(lowered):
        redacted = rule.apply(text, lowered)
        if redacted != text:
            text = redacted
            if rule.what not in found:
                found.append(rule.what)
    return found


def secret_labels(text: str) -> list[str]:
    """The kinds of token `text` holds that are known by their shape (`Rule.label`), each
    once, in the rules' order: what a memory shared beyond this machine refuses (Claude
    Code refuses these, not secrets it knows only by their context)."""
    lowered = text.lower()
    found: list[str] = []
    for rule in _rules_in(lowered):
        if rule.label is None or rule.label in found:
            continue
        if rule.found(text, lowered):
            found.append(rule.label)
    return found


def redact_json(value: Any) -> Any:
    """A copy of a JSON-like value with `redact_outgoing` applied to every string, and the
    string values of secret-named members (`"password": "..."`) redacted whole."""
    return _walk(value, redact_outgoing)


def _walk(value: Any, redact: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {key: _redact_member(key, item, redact) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_walk(item, redact) for item in value]
    return value


def _redact_member(key: Any, value: Any, redact: Callable[[str], str]) -> Any:
    if isinstance(value, str) and isinstance(key, str) and _is_secret_member(key, value):
        return REDACTED
    return _walk(value, redact)


def _is_secret_member(key: str, value: str) -> bool:
    """A JSON member whose value is a secret by its name (`"db_password": "…"`)."""
    stripped = value.strip()
    return (
        len(stripped) >= _MIN_VALUE_CHARS
        and _SECRET_KEY_NAME.fullmatch(key) is not None
        and _REFERENCE_VALUE.match(stripped) is None
    )
