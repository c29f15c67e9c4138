"""Redaction (docs/formats.md §12) — the one module, with one token, `[REDACTED_SECRET]`.

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

This module stands alone (an import contract): `llm`, `transcripts` and the writer all
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
- values of secret-named keys, in env files, YAML, INI, code and JSON: a name that ends in
  `password`, `passwd`, `passphrase`, `secret`, `token`, `api_key`/`apikey`, `access_key`,
  `secret_key`, `private_key` or `client_secret`, alone or glued with `_`, `-` or `.`
  (`DB_PASSWORD`, `aws_secret_access_key`, `spring.datasource.password`), then `:`, `=` or
  `=>` (optionally after the key's closing quote, as in JSON), then a value of 8+
  characters; a quoted value may contain spaces. References to a secret are not one
  (`${DB_PASSWORD}`, `{{ secrets.X }}`, `<your key>`, `os.environ[…]`, `process.env.…`);
- secrets said in prose: "the schema password is hunter2", "my token for CI is …" (a quoted
  value, or a word that is no plain word: "expired", "required", "short-lived" are not
  secrets), `password: hunter2` (4–7 characters with a digit).

`secret_labels` names the tokens of the first kinds (private keys, vendors' prefixed
tokens; not JWTs, which Claude Code holds unsure) a text holds, as Claude Code names them
when it refuses to write one into memory that is synced or shared (§17.5).

Not a secret, and left alone: git shas, UUIDs, base64 images, `token_count`/`max_tokens`,
Stripe publishable keys (`pk_live_…`), public keys and certificates, URLs without a
password.

Why not detect-secrets' plugins: on tests/support/leaks.py they remove 10 of the first 35
leaks whole (16 with its heuristics, which then flag 4 of the 19 look-alikes), miss
`sk-ant-`, `github_pat_`, `AIza`, Hugging Face and YAML keys, leave most of a GitHub, JWT,
Stripe or private key in place, cost ~180 ms to import and carry `verify()` methods that
send a secret to its vendor. So the rules live here, one per documented format.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

REDACTED = "[REDACTED_SECRET]"


@dataclass(frozen=True)
class Rule:
    """One kind of secret. The `secret` group (else the whole match) is replaced.

    `needles`: lower-case strings of which every match contains one; a text holding none
    of them skips the regex (most texts hold no secret, and a scan costs far more than `in`).
    `keeps`: whether a match's value is no secret after all (prose: "the token is expired").
    """

    name: str
    pattern: re.Pattern[str]
    needles: tuple[str, ...]
    label: str | None = None
    """A token known by its shape (a vendor's key, a private key), named as Claude Code
    names it when it refuses one (`secret_labels`); None: a secret by its context."""
    keeps: Callable[[re.Match[str]], bool] | None = None

    def apply(self, text: str, lowered: str | None = None) -> str:
        """`text` with this rule's secrets replaced (`lowered` is `text.lower()`, if known)."""
        lowered = text.lower() if lowered is None else lowered
        if not any(needle in lowered for needle in self.needles):
            return text
        return self.pattern.sub(self._replace, text)

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Where `apply` puts a `REDACTED` in `text`: each replaced range, in order."""
        return [
            _secret_span(match)
            for match in self.pattern.finditer(text)
            if self.keeps is None or not self.keeps(match)
        ]

    def _replace(self, match: re.Match[str]) -> str:
        if self.keeps is not None and self.keeps(match):
            return match.group(0)
        start, end = _secret_span(match)
        whole_start = match.start()
        whole = match.group(0)
        return whole[: start - whole_start] + REDACTED + whole[end - whole_start :]


def _secret_span(match: re.Match[str]) -> tuple[int, int]:
    """The part of a match that is the secret: its `secret` or `quoted` group, else all."""
    groups = match.re.groupindex
    for group in ("secret", "quoted"):
        if group in groups and match.start(group) >= 0:
            return match.span(group)
    return match.span()


def _rule(
    name: str,
    needles: str,
    pattern: str,
    flags: int = 0,
    *,
    label: str | None = None,
    keeps: Callable[[re.Match[str]], bool] | None = None,
) -> Rule:
    return Rule(name, re.compile(pattern, flags), tuple(needles.split()), label, keeps)


# A token must not continue a longer word on either side.
_START = r"(?<![A-Za-z0-9_-])"
_END = r"(?![A-Za-z0-9_-])"
# Names whose value is a secret: the last part of a key, alone or glued with _ - or .
_SECRET_NAME = (
    r"(?:api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key|client[_-]?secret"
    r"|password|passwd|passphrase|secret|token)"
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
# A secret value after its name: quoted (spaces allowed) or a bare word, 8+ characters.
_VALUE = r"(?:\\?(?P<q>[\"'])(?P<quoted>(?:(?!(?P=q))[^\\\n]){8,})|(?P<secret>[^\s\"']{8,}))"

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


def _short_value_no_secret(match: re.Match[str]) -> bool:
    """`password: str` is a type; `password: hunter2`, `pin: 4921` hold a digit."""
    return not any(char.isdigit() for char in match.group("secret"))


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
    _rule("jwt", "eyj", _START + r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"),
    _rule(
        "url_password",
        "://",
        r"(?i)\b[a-z][a-z0-9+.-]{1,30}://[^\s:/?#@\"'<>\[\]]*:(?P<secret>[^\s@/?#\"'<>]+)@",
    ),
    _rule(
        "basic_auth_header",
        "basic",
        r"(?i)authorization[\"']?\s*[:=]\s*[\"']?Basic\s+(?P<secret>[A-Za-z0-9+/=]{8,})",
    ),
    _rule("bearer_token", "bearer", r"(?i)\bBearer\s+(?P<secret>[A-Za-z0-9._\-]{16,})\b"),
    _rule(
        "glued_env_password",
        "password passwd _pwd",
        rf"(?<![A-Za-z0-9_]){_GLUED_ENV_NAME}\s*=\s*{_NOT_A_VALUE}" + _VALUE,
    ),
    _rule(
        "password_option",
        "--pass",
        # `--password VALUE` (with `=` the secret-named rule takes it); never `--password-stdin`.
        rf"(?<![\w-])--(?:password|passwd|pass)[ \t]+{_NOT_A_VALUE}(?!-)" + _VALUE,
    ),
    _rule(
        "curl_user_password",
        "curl",
        # up to the next `curl` at most (a later one reads on itself: each `curl` of a long
        # line read the rest of it again)
        r"\bcurl\b(?:(?!\bcurl\b)[^\n|;&])*?\s(?:-u|--user)(?:[ \t]+|=)[\"']?[^\s:\"']+:"
        r"(?P<secret>(?!\$)[^\s\"'@]+)",
    ),
    _rule(
        "password_flag",
        "login sshpass",
        rf"\b(?:{_LOGIN}(?:(?!\b{_LOGIN})[^\n|;&])*?\s|sshpass\s+)-p[ \t]+" + _VALUE,
    ),
    _rule(
        "azure_key",
        "accountkey sharedaccesskey",
        r"(?i)\b(?:AccountKey|SharedAccessKey)=(?P<secret>[A-Za-z0-9+/]{20,}={0,2})",
    ),
    _rule(
        "sendgrid_key",
        "sg.",
        _START + r"SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}" + _END,
        label="SendGrid API Token",
    ),
    _rule("square_token", "sq0", _START + r"sq0(?:atp|csp|idp)-[A-Za-z0-9_-]{22,}" + _END),
    _rule(
        "digitalocean_token",
        "dop_v1_ doo_v1_",
        _START + r"do[op]_v1_[a-f0-9]{64}" + _END,
        label="DigitalOcean Access Token",
    ),
    _rule(
        "secret_named_value",
        "key secret token pass",
        rf"(?i){_NAME_START}{_SECRET_NAME}\\?[\"']?\s*(?:=>|[:=])\s*{_NOT_A_VALUE}" + _VALUE,
    ),
    _rule(
        "secret_in_prose",
        "pass pin key token secret",
        rf"(?i)(?<![\w-]){_PROSE_NAME}{_PROSE_LINK}{_NOT_A_VALUE}{_PROSE_VALUE}",
        keeps=_said_no_secret,
    ),
    _rule(
        "short_password",
        "pass pin",
        rf"(?i)(?<![\w-])(?:pass(?:word|phrase|wd|code)|pin)\s*:\s*{_NOT_A_VALUE}"
        r"(?P<secret>[^\s\"'`,;()]{3,6}[^\s\"'`,;().!?:])(?![^\s.,;])",
        keeps=_short_value_no_secret,
    ),
)

PRIVATE_RULE = _rule("private_block", "<private", r"(?is)<private>(?:(?!</?private>).)*</private>")
"""claude-mem's convention for "never remember this": `<private>…</private>`, whole."""

_SECRET_KEY_NAME = re.compile(rf"(?i:(?:.*[_.-])?{_SECRET_NAME})|{_GLUED_ENV_NAME}")
_REFERENCE_VALUE = re.compile(_REFERENCE)
_MIN_VALUE_CHARS = 8


def redact_secrets(text: str) -> str:
    """`text` with every secret the rules know replaced by `[REDACTED_SECRET]`."""
    # Needles are looked up in the original text: a replacement only removes text (and
    # REDACTED itself is never a match), so it cannot create a needle a rule would need.
    lowered = text.lower()
    for rule in RULES:
        text = rule.apply(text, lowered)
    return text


def redact_private(text: str) -> str:
    """`text` with each `<private>…</private>` block replaced by `[REDACTED_SECRET]`."""
    return PRIVATE_RULE.apply(text)


def redact_outgoing(text: str) -> str:
    """What of `text` may be sent to a model, dumped or written as a note: its `<private>`
    blocks and its secrets redacted."""
    return redact_secrets(redact_private(text))


def secret_labels(text: str) -> list[str]:
    """The kinds of token `text` holds that are known by their shape (`Rule.label`), each
    once, in the rules' order: what a memory shared beyond this machine refuses (Claude
    Code refuses these, not secrets it knows only by their context)."""
    lowered = text.lower()
    found: list[str] = []
    for rule in RULES:
        if rule.label is None or rule.label in found:
            continue
        if any(needle in lowered for needle in rule.needles) and rule.pattern.search(text):
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


# --- a text as a model sees it, and its edits ------------------------------------------------

_Token = tuple[int, int, int]
"""A `REDACTED` of the view: where it starts in the view, and the original range it hides."""


@dataclass(frozen=True)
class RedactedView:
    """A text as a model is shown it (`redact_outgoing`), and the part of the original each
    `[REDACTED_SECRET]` of it hides, so that an edit the model makes of what it saw is made
    on the original, the secrets it never saw kept (`original_edit`)."""

    original: str
    text: str
    tokens: tuple[_Token, ...]

    @property
    def hides(self) -> bool:
        """Whether the view differs from the original."""
        return bool(self.tokens)

    def original_offset(self, offset: int, *, end: bool) -> int:
        """Where a place in the view is in the original; one inside a `REDACTED` is its
        hidden range's start (`end`: its end)."""
        return _to_original(self.tokens, offset, end=end)

    def original_edit(self, old: str, new: str) -> tuple[str, str] | None:
        """The edit "`old` → `new`" of the view as an edit of the original: `old` as the
        original text it shows, and each line of `new` that repeats a line of `old` holding
        a `REDACTED` as that line's original text (its secret kept). None when `old` is not
        in the view exactly once."""
        if not old or self.text.count(old) != 1:
            return None
        start = self.text.index(old)
        hidden: dict[str, list[str]] = {}
        place = start
        for line in old.split("\n"):
            if REDACTED in line:
                first = self.original_offset(place, end=False)
                last = self.original_offset(place + len(line), end=True)
                hidden.setdefault(line, []).append(self.original[first:last])
            place += len(line) + 1
        lines = [
            hidden[line].pop(0) if REDACTED in line and hidden.get(line) else line
            for line in new.split("\n")
        ]
        first = self.original_offset(start, end=False)
        last = self.original_offset(start + len(old), end=True)
        return self.original[first:last], "\n".join(lines)


def redact_view(text: str) -> RedactedView:
    """`text` as `redact_outgoing` gives it, with what each `REDACTED` hides."""
    lowered = text.lower()
    current = text
    tokens: list[_Token] = []
    for rule in (PRIVATE_RULE, *RULES):
        if not any(needle in lowered for needle in rule.needles):
            continue
        spans = rule.spans(current)
        if spans:
            current, tokens = _replaced(current, tokens, spans)
    return RedactedView(text, current, tuple(tokens))


def _to_original(tokens: Sequence[_Token], offset: int, *, end: bool) -> int:
    index = bisect.bisect_right(tokens, offset, key=lambda token: token[0]) - 1
    if index < 0:
        return offset
    start, hidden_start, hidden_end = tokens[index]
    if offset == start:
        return hidden_start
    if offset < start + len(REDACTED):
        return hidden_end if end else hidden_start
    return hidden_end + offset - start - len(REDACTED)


def _replaced(
    text: str, tokens: list[_Token], spans: Sequence[tuple[int, int]]
) -> tuple[str, list[_Token]]:
    """`text` with each span replaced by `REDACTED`, and the tokens after it (a token a span
    covers is part of the new one)."""
    pieces: list[str] = []
    kept: list[_Token] = []
    cursor = shift = 0
    remaining = list(tokens)
    for start, end in spans:
        hidden = (_to_original(tokens, start, end=False), _to_original(tokens, end, end=True))
        while remaining and remaining[0][0] < end:
            token = remaining.pop(0)
            if token[0] + len(REDACTED) <= start:
                kept.append((token[0] + shift, token[1], token[2]))
        pieces += [text[cursor:start], REDACTED]
        kept.append((start + shift, *hidden))
        shift += len(REDACTED) - (end - start)
        cursor = end
    kept += [(token[0] + shift, token[1], token[2]) for token in remaining]
    pieces.append(text[cursor:])
    return "".join(pieces), kept


# --- the keys Memtab holds -------------------------------------------------------------------

ALWAYS_HIDDEN_KEY_CHARS = 16


class KeyScrubber:
    """Replaces each of `keys` (blank ones ignored) by `REDACTED` in text and JSON.

    A key of 16 characters or more is hidden wherever it appears. A shorter one (Ollama and
    other local servers take any key, and users give them "x" or "ollama") is hidden only
    where it stands alone — not touching a letter or digit — so the words around it stay
    readable: the key "k" hides "key=k", never the k of "fake".
    """

    def __init__(self, keys: Iterable[str | None]) -> None:
        self._pattern = _keys_pattern({key for key in keys if key and key.strip()})

    def __bool__(self) -> bool:
        return self._pattern is not None

    def text(self, text: str) -> str:
        """`text` with every key hidden."""
        return self._pattern.sub(REDACTED, text) if self._pattern is not None else text

    def json(self, value: Any) -> Any:
        """A copy of a JSON-like value with every key hidden in its strings (member names
        too)."""
        if self._pattern is None:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.json(key): self.json(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [self.json(item) for item in value]
        return value


def _keys_pattern(keys: set[str]) -> re.Pattern[str] | None:
    """One alternation of every key, the longest first (a key inside another is not cut
    out of it first)."""
    if not keys:
        return None
    alternatives = [
        re.escape(key)
        if len(key) >= ALWAYS_HIDDEN_KEY_CHARS
        else rf"(?<![A-Za-z0-9]){re.escape(key)}(?![A-Za-z0-9])"
        for key in sorted(keys, key=len, reverse=True)
    ]
    return re.compile("|".join(alternatives))
