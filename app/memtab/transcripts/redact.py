"""Secret redaction (SPEC §11) — the one implementation in Memtab; import it from here.

Replaces with `[REDACTED_SECRET]`:
- `sk-[A-Za-z0-9]{20,}` (OpenAI-style keys);
- `\\bAKIA[0-9A-Z]{16}\\b` (AWS access key ids);
- `(?i)\\bBearer\\s+[A-Za-z0-9._\\-]{16,}\\b` — the word Bearer is kept;
- `(?i)\\b(api[_-]?key|token|secret|password)\\b(\\s*[:=]\\s*)(["']?)[^\\s"']{8,}` — the key,
  separator and opening quote are kept;
- PEM private-key blocks, BEGIN to END; a block cut off before its END line (a truncated
  tool output) is redacted to the end of the text, so no key material survives;
- beyond the SPEC's list, which misses today's common formats: prefixed provider keys
  (`sk-ant-…`, `sk-proj-…`), GitHub tokens (`ghp_…`) and Slack tokens (`xoxb-…`), and key
  names glued to a prefix with `_` (`OPENAI_API_KEY=…`, `GITHUB_TOKEN=…`).

`redact_json` applies this to every string of a JSON-like value, and also applies the
key rule to JSON members: the string value of a member named like `password` or
`api_key` (the same key names, same 8-character minimum) is redacted as a whole — in
JSON the quote between key and colon would otherwise hide it from the text rule.
"""

from __future__ import annotations

import re
from typing import Any

REDACTED = "[REDACTED_SECRET]"

_PEM_PRIVATE_KEY = re.compile(
    r"-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY((?: BLOCK)?)-----"
    r"(?:.*?-----END \1PRIVATE KEY\2-----|.*\Z)",
    re.DOTALL,
)
_OPENAI_KEY = re.compile(r"sk-[A-Za-z0-9]{20,}")
_PREFIXED_TOKEN = re.compile(
    r"\b(?:sk-(?:ant|proj|svcacct|admin|or)-[A-Za-z0-9_-]{20,}"
    r"|gh[pousr]_[A-Za-z0-9]{30,}|xox[abeprs]-[A-Za-z0-9-]{10,})"
)
_AWS_ACCESS_KEY = re.compile(r"\bAKIA[0-9A-Z]{16}\b")
_BEARER = re.compile(r"(?i)\b(Bearer\s+)[A-Za-z0-9._\-]{16,}\b")
_KEY_VALUE = re.compile(
    r"(?i)(?:\b|(?<=_))(api[_-]?key|token|secret|password)\b(\s*[:=]\s*)([\"']?)[^\s\"']{8,}"
)
_SECRET_KEY_NAME = re.compile(r"(?i)(?:\b|(?<=_))(api[_-]?key|token|secret|password)\b")
_SECRET_VALUE = re.compile(r"[^\s\"']{8,}")


def redact_secrets(text: str) -> str:
    """`text` with every secret of SPEC §11 replaced by `[REDACTED_SECRET]`."""
    text = _PEM_PRIVATE_KEY.sub(REDACTED, text)
    text = _PREFIXED_TOKEN.sub(REDACTED, text)
    text = _OPENAI_KEY.sub(REDACTED, text)
    text = _AWS_ACCESS_KEY.sub(REDACTED, text)
    text = _BEARER.sub(rf"\g<1>{REDACTED}", text)
    return _KEY_VALUE.sub(rf"\g<1>\g<2>\g<3>{REDACTED}", text)


def redact_json(value: Any) -> Any:
    """A copy of a JSON-like value with `redact_secrets` applied to every string, and the
    string values of secret-named members (`"password": "..."`) redacted whole."""
    if isinstance(value, str):
        return redact_secrets(value)
    if isinstance(value, dict):
        return {key: _redact_member(key, item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [redact_json(item) for item in value]
    return value


def _redact_member(key: Any, value: Any) -> Any:
    if (
        isinstance(value, str)
        and isinstance(key, str)
        and _SECRET_KEY_NAME.search(key)
        and _SECRET_VALUE.search(value)
    ):
        return REDACTED
    return redact_json(value)
