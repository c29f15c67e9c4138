"""The one frontmatter reader: where a memory file's frontmatter is, and its description.

Every reader — the tree and listings, the editor's description field, other agents'
notes, the prompts, the offline engines, and the consolidation prompt's override (an agent
definition, `read_agent_definition`) — goes through this module, and it follows mux exactly
(src/node/services/memoryService.ts extractMemoryDescription, docs/formats.md §4.1):

- Frontmatter is `/^---\\r?\\n([\\s\\S]*?)\\r?\\n---(?:\\r?\\n|$)/` on the file's first 4 KiB:
  the opening fence is exactly `---`; the block closes at the first line that is exactly
  `---` (a fence with trailing spaces does not close it).
- The block is YAML 1.2 (core schema); a duplicate key anywhere is an error, as in the
  `yaml` package mux uses, so it gives no description. PyYAML is imported only when a
  frontmatter falls outside the fast path's simple subset (see "the fast path" below).
- The description is the top-level `description` when it is a string (`description: 42`
  is a number: no description). Whitespace runs become one space, then control chars
  are dropped, then the ends trimmed; over 200 UTF-16 units it is cut to 200 units + `…`,
  keeping whatever spacing precedes the cut.
"""

import functools
import json
import re
from typing import Any

from memtab.fs.atomic import encode_utf8
from memtab.fs.lazy_re import LazyPattern
from memtab.fs.slotted import Slotted
from memtab.markdown import LineKind, State, classify_line

DESCRIPTION_PREFIX_BYTES = 4096
MAX_DESCRIPTION_UNITS = 200
_ELLIPSIS = "…"

# mux's FRONTMATTER_PATTERN; `\Z` because Python's `$` also matches before a final newline.
_FRONTMATTER = LazyPattern(r"\A---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|\Z)")


class FrontmatterSpan(Slotted):
    """Where the frontmatter of a text is (offsets into the text)."""

    __slots__ = ("body_end", "body_start", "end", "newline")

    body_start: int  # the first character after the opening `---` line
    body_end: int  # the start of the closing `---` line
    end: int  # just after the closing `---` line (and its line break, if any)
    newline: str  # the opening fence's line break: "\n" or "\r\n"

    def __init__(self, body_start: int, body_end: int, end: int, newline: str) -> None:
        self.body_start = body_start
        self.body_end = body_end
        self.end = end
        self.newline = newline


def find_frontmatter(text: str) -> FrontmatterSpan | None:
    """The frontmatter at the very top of `text` by mux's rule, or None."""
    match = _FRONTMATTER.match(text)
    if match is None:
        return None
    newline = "\r\n" if text.startswith("---\r\n") else "\n"
    closing_fence = match.group(0).rfind("---")
    return FrontmatterSpan(match.start(1), closing_fence, match.end(), newline)


def frontmatter_block(text: str) -> str | None:
    """The YAML between the fences (without the line break before the closing one)."""
    match = _FRONTMATTER.match(text)
    return match.group(1) if match is not None else None


def description_prefix(text: str) -> str:
    """The part of a file's text that its first 4 KiB cover, as mux reads them (a
    character cut in half at the end becomes U+FFFD)."""
    head = encode_utf8(text[:DESCRIPTION_PREFIX_BYTES])  # ≥ 4 KiB unless it is all of it
    return head[:DESCRIPTION_PREFIX_BYTES].decode("utf-8", "replace")


def description_from_text(prefix: str) -> str:
    """The description of a file whose first 4 KiB are `prefix` (cut to 200 units)."""
    value = description_value(prefix)
    return clean_description(value) if value is not None else ""


def full_description(text: str) -> str:
    """The description of a whole text as the editor's field shows it: read as the
    tree reads it (from the first 4 KiB), cleaned the same way, but not cut."""
    value = description_value(description_prefix(text))
    return clean_description(value, limit=None) if value is not None else ""


def description_from_prefix(prefix: bytes) -> str:
    """`description_from_text` of a file's first 4 KiB as bytes (invalid UTF-8 replaced).

    Decodes as little as it can: nothing without frontmatter, and usually only up to the
    first line that may close it (the fences are ASCII, so a cut at a line break decodes
    to exactly the start of the full text).
    """
    if not prefix.startswith(b"---") or b"description" not in prefix:
        return ""
    fence = prefix.find(b"\n---", 3)
    if fence >= 0:
        line_end = prefix.find(b"\n", fence + 4)
        head = prefix if line_end < 0 else prefix[: line_end + 1]
        handled, value = _fast_description(head.decode("utf-8", "replace"))
        if handled:
            return clean_description(value) if value is not None else ""
    return description_from_text(prefix.decode("utf-8", "replace"))


def frontmatter_strings(prefix: str) -> dict[str, str]:
    """Every top-level string value of the frontmatter in `prefix`, read by the same rules
    as the description ({} without frontmatter, or when mux's parser would refuse it).
    Other agents' files carry more keys than mux reads (Claude Code: `name`, `type`)."""
    match = _SIMPLE_FRONTMATTER.match(prefix)
    if match is not None:
        block = match.group(1)
        outside = _OUTSIDE_SIMPLE_ASCII if block.isascii() else _OUTSIDE_SIMPLE_SUBSET
        entries = _SIMPLE_ENTRY.findall(block)
        values = dict(entries)
        if outside.search(block) is None and _NON_STRING_KEYS.isdisjoint(values):
            if len(values) != len(entries):
                return {}  # a repeated key is an error for mux's parser
            simple = {key: _simple_value(raw.lstrip(" ")) for key, raw in values.items()}
            return {key: value for key, value in simple.items() if value is not None}
    block = frontmatter_block(prefix)
    if not block:
        return {}
    data = _yaml_mapping(block)
    if data is None:
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def description_value(prefix: str) -> str | None:
    """The raw `description` string of the frontmatter in `prefix`, or None when there
    is no frontmatter, no description, it is not a string, or the YAML is malformed."""
    handled, value = _fast_description(prefix)
    if handled:
        return value
    block = frontmatter_block(prefix)
    if not block or "description" not in block:
        return None
    return _yaml_description(block)


# --- agent definitions ----------------------------------------------------------------------

# mux's agent definitions (`agents/<name>.md`, parseAgentDefinitionMarkdown.ts) fence their
# frontmatter with `---` lines that may carry trailing blanks, unlike memory files.
_AGENT_OPENING = LazyPattern(r"\A---[ \t]*\r?\n")
_AGENT_FRONTMATTER = LazyPattern(
    r"\A---[ \t]*\r?\n(.*?)^---[ \t]*(?:\r?\n|\Z)", re.DOTALL | re.MULTILINE
)


class FrontmatterError(ValueError):
    """Why a file's frontmatter cannot be read, in words."""


class AgentDefinition(Slotted):
    """An agent definition file: its frontmatter (a mapping, {} without one) and its body."""

    __slots__ = ("body", "frontmatter")

    frontmatter: dict[Any, Any]
    body: str

    def __init__(self, frontmatter: dict[Any, Any], body: str) -> None:
        self.frontmatter = frontmatter
        self.body = body


def read_agent_definition(text: str) -> AgentDefinition:
    """An agent definition (a leading BOM dropped): frontmatter is optional, and when
    present it must be closed by a `---` line and be a YAML mapping (read as mux reads
    frontmatter: the core schema, no repeated key). FrontmatterError says why not."""
    text = text.removeprefix("\ufeff")
    if not _AGENT_OPENING.match(text):
        return AgentDefinition({}, text)
    match = _AGENT_FRONTMATTER.match(text)
    if match is None:
        raise FrontmatterError("the frontmatter is not closed by a `---` line")
    try:
        data = _yaml_load(match.group(1))
    except _yaml_errors() as error:
        first_line = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise FrontmatterError(f"the frontmatter is not valid YAML ({first_line})") from None
    if data is not None and not isinstance(data, dict):
        raise FrontmatterError("the frontmatter is not a YAML mapping")
    return AgentDefinition(data or {}, text[match.end() :])


# --- the title a file gives itself ---------------------------------------------------------

# A link's text and target end where another link could begin: a long run of `[` or of
# unclosed links is read once, not once from each `[`.
_HEADING_LINK = LazyPattern(r"\[([^\[\]]*+)\]\([^)\[]*+\)")
_HEADING_MARKUP = LazyPattern(r"[*_`~]+")
# A template's title heading, filled in below it: Claude Code's session summaries start
# `# Session Title` / `_A short and distinctive 5-10 word descriptive title…_` / the title.
_TEMPLATE_TITLE = LazyPattern(r"^(?:session )?title$", re.IGNORECASE)
# Claude Code's own hint under its title heading, left as it is in an unfilled template:
# "_A short and distinctive 5-10 word descriptive title for the session. Super info dense,
# no filler_". A filled summary either keeps it and writes the title on a line below, or
# replaces it with the title in the same italics ("_Compaction任务中断问题 & …_").
_TEMPLATE_HINT = LazyPattern(
    r"^a short and distinctive\b.*\btitle for the session\b", re.IGNORECASE | re.DOTALL
)


def title_of(text: str) -> str:
    """What a file calls itself, cleaned like a description ("" when nothing): its first
    Markdown heading after any frontmatter (outside code fences), or, under a template's
    title heading ("# Session Title"), the first line below it that is not the template's
    own hint, emphasis dropped."""
    start = find_frontmatter(text)
    lines = text[start.end if start is not None else 0 :].splitlines()
    state: State = None
    for index, raw in enumerate(lines):  # as the one classifier tells them (`memtab.markdown`)
        found, state = classify_line(raw, state, index + 1)  # (the frontmatter is behind)
        if found.kind is LineKind.HEADING and found.text:
            break
    else:
        return ""
    heading = heading_text(found.text)
    if not _TEMPLATE_TITLE.match(heading):
        return heading
    for raw in lines[index + 1 :]:
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            return ""  # the next section: no title was written
        title = heading_text(line)
        if not _TEMPLATE_HINT.match(title):
            return title
    return ""


def heading_text(raw: str) -> str:
    """A heading's words: links as their text, emphasis and code marks dropped, a
    trailing colon removed, cleaned like a description."""
    text = _HEADING_LINK.sub(r"\1", raw)
    text = _HEADING_MARKUP.sub("", text).strip().rstrip(":：").strip()
    return clean_description(text)


# --- cleaning -------------------------------------------------------------------------------

# Whitespace as JavaScript's `\s` sees it; Python's `\s` would also take U+001C–U+001F.
_WHITESPACE_RUN = LazyPattern(
    "[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+"
)
_CONTROL_CHARS = LazyPattern("[\x00-\x1f\x7f]")


def clean_description(value: str, *, limit: int | None = MAX_DESCRIPTION_UNITS) -> str:
    """mux's cleaning: whitespace runs → one space, control chars dropped, ends trimmed,
    then (with a `limit`) cut to that many UTF-16 units + `…`.

    Whitespace collapses first, so a control char between two spaces leaves two spaces.
    A cut through an astral character keeps U+FFFD for its first half, which is what
    mux's text turns into once encoded.
    """
    if value.isprintable() and "  " not in value:
        text = value.strip(" ")  # nothing to collapse or drop: the common case
    else:
        text = _CONTROL_CHARS.sub("", _WHITESPACE_RUN.sub(" ", value)).strip(" ")
    if limit is None or len(text) <= limit // 2:
        return text
    if text.isascii() or len(text.encode("utf-16-le", "surrogatepass")) <= 2 * limit:
        return text if len(text) <= limit else text[:limit] + _ELLIPSIS
    units = 0
    for index, char in enumerate(text):
        width = 2 if ord(char) > 0xFFFF else 1
        if units + width > limit:
            half = "\ufffd" if units < limit else ""  # the cut falls inside this pair
            return text[:index] + half + _ELLIPSIS
        units += width
    return text


# --- the YAML parser ------------------------------------------------------------------------

# The implicit scalars of the YAML 1.2 core schema, as mux reads frontmatter: a plain scalar
# matching one of these is not a string; `yes`, `on` and dates stay strings.
_CORE_SCHEMA_SCALARS: tuple[tuple[str, LazyPattern, list[str]], ...] = (
    ("tag:yaml.org,2002:null", LazyPattern(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""]),
    (
        "tag:yaml.org,2002:bool",
        LazyPattern(r"^(?:true|True|TRUE|false|False|FALSE)$"),
        list("tTfF"),
    ),
    (
        "tag:yaml.org,2002:int",
        LazyPattern(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"),
        list("-+0123456789"),
    ),
    (
        "tag:yaml.org,2002:float",
        LazyPattern(
            r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
            r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
        ),
        list("-+0123456789."),
    ),
)


def _key_identity(key: Any) -> tuple[str, Any]:
    # When two keys are "the same" for the `yaml` package: equal scalar values, where
    # true is not 1 but 1 and 1.0 are one number.
    if isinstance(key, bool):
        return ("bool", key)
    if isinstance(key, int | float):
        return ("number", key)
    return (type(key).__name__, key)


@functools.cache
def _core_schema_loader() -> Any:
    """A safe loader that resolves plain scalars by the YAML 1.2 core schema only and,
    like mux's parser, refuses a mapping that repeats a key.

    Built on first use: nearly every file takes the fast path, so PyYAML (~15 ms to
    import) is loaded only when some frontmatter needs the full parser.
    """
    import yaml  # lazy: ~14 ms; the first paint reads plain frontmatter without it

    # libyaml when PyYAML was built with it: ~10x faster, and linear where the
    # pure-Python scanner is quadratic (4 KiB of `[[[[` takes it seconds).
    base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class CoreSchemaLoader(base):
        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            if isinstance(node, yaml.MappingNode):
                seen: set[tuple[str, Any]] = set()
                for key_node, _ in node.value:
                    try:
                        identity = _key_identity(self.construct_object(key_node, deep=deep))
                        repeated = identity in seen
                    except TypeError:  # unhashable: the base class reports it
                        break
                    if repeated:
                        raise yaml.constructor.ConstructorError(
                            None, None, "found a duplicate key", key_node.start_mark
                        )
                    seen.add(identity)
            return super().construct_mapping(node, deep=deep)

    CoreSchemaLoader.yaml_implicit_resolvers = {}
    for tag, pattern, first in _CORE_SCHEMA_SCALARS:
        CoreSchemaLoader.add_implicit_resolver(tag, pattern.compiled(), first)
    return CoreSchemaLoader


def yaml_scalar(value: str) -> str:
    """`value` as a one-line YAML scalar that reads back as the same string: plain where
    YAML allows it (`description: Build notes`, as agents and people write it), quoted only
    where it needs to be (`description: 'yes'`, `"a: b"`). Every writer of a frontmatter
    value uses it."""
    import yaml  # lazy: ~14 ms; the first paint reads plain frontmatter without it

    dumped = yaml.safe_dump(value, allow_unicode=True, width=1_000_000, default_style=None)
    text = dumped.removesuffix("\n...\n").rstrip("\n")
    # PyYAML writes YAML 1.1; mux reads 1.2, where a plain `0E0` is a number: a value that
    # does not read back the same by mux's rules (or was folded) is double-quoted (JSON).
    read_back = _yaml_mapping(f"value: {text}") if "\n" not in text else None
    if read_back is None or read_back.get("value") != value:
        return json.dumps(value, ensure_ascii=False)
    return text


def _yaml_load(block: str) -> Any:
    """A frontmatter block read by the full YAML parser; raises one of `_yaml_errors()`."""
    import yaml  # lazy: ~14 ms; the first paint reads plain frontmatter without it

    return yaml.load(block, Loader=_core_schema_loader())  # a safe loader


def _yaml_errors() -> tuple[type[Exception], ...]:
    """What the parser raises on a malformed block. RecursionError: without libyaml, 4 KiB
    of `[[[[...` nests deeper than the pure-Python parser can recurse."""
    import yaml  # lazy: ~14 ms; the first paint reads plain frontmatter without it

    return (yaml.YAMLError, ValueError, RecursionError)


def _yaml_mapping(block: str) -> dict[Any, Any] | None:
    """A frontmatter block read by the full YAML parser; None when it is malformed or
    not a mapping."""
    try:
        data = _yaml_load(block)
    except _yaml_errors():
        return None
    return data if isinstance(data, dict) else None


def _yaml_description(block: str) -> str | None:
    """The raw description by the full YAML parser (any frontmatter)."""
    data = _yaml_mapping(block)
    value = data.get("description") if data is not None else None
    return value if isinstance(value, str) else None


# --- the fast path --------------------------------------------------------------------------

# Nearly all frontmatter is a few `key: value` lines, and the pure-Python YAML parser costs
# ~20x more than reading the file. So one regex recognizes a conservative subset of YAML
# whose meaning is unambiguous and leaves everything else, or anything in doubt, to the
# parser. The tests check that both agree on generated frontmatter.
#
# The subset: lines that are blank, `#` comments at column 0, or `key: value` at column 0
# with a short ASCII key and a one-line value that is plain (no indicator first, no `: `,
# ` #` or trailing `:`), quoted without escapes, or a flow list of simple words. No tabs,
# CRs, BOMs, YAML line breaks (U+0085/2028/2029) or non-printable characters anywhere.
_OUTSIDE_SIMPLE_ASCII = LazyPattern("[^\n\x20-\x7e]")


# The same test for text beyond ASCII (compiling it takes ~6 ms).
_OUTSIDE_SIMPLE_SUBSET = LazyPattern(
    "[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
)


_SIMPLE_WORD = r"[A-Za-z0-9_][A-Za-z0-9_./-]*"
_SIMPLE_VALUE = (
    r'(?:"[^"\\\n]*+"'  # double-quoted, no escapes
    r"|'[^'\n]*+'"  # single-quoted, no '' escapes
    rf"|\[ *+(?:{_SIMPLE_WORD}(?: *+, *+{_SIMPLE_WORD})*+)?+ *+\]"  # [a, b/c, d.e]
    # plain: a safe first char, then no `: `, no ` #`, no `:` at the end
    r"|[^\n !\"#%&'*,\-:>?@\[\]`{|}](?:[^\n:#]++|:(?=[^ \n])|(?<! )#)*+)"
)
_SIMPLE_LINE = rf"(?: *+|#[^\n]*+|[A-Za-z_][A-Za-z0-9_-]{{0,63}}:(?: ++{_SIMPLE_VALUE})?+ *+)"
# Opening fence, simple lines, closing fence: a fence line is never a simple line, so the
# block ends at the first fence, exactly as mux's pattern finds it. At least one line: the
# opening fence's line break cannot also be the closing fence's (`---\n---\n` is no block).
_SIMPLE_FRONTMATTER = LazyPattern(rf"---\r?\n((?:{_SIMPLE_LINE}\n)++)---(?:\r?\n|\Z)")
_SIMPLE_ENTRY = LazyPattern(r"^([A-Za-z_][A-Za-z0-9_-]*):(.*)$", re.MULTILINE)
_CORE_SCHEMA_NON_STRING = LazyPattern("|".join(p.pattern for _, p, _ in _CORE_SCHEMA_SCALARS))
_CORE_SCHEMA_FIRST_CHARS = frozenset(char for _, _, first in _CORE_SCHEMA_SCALARS for char in first)
# The keys of the subset YAML does not read as strings: `null:` and `NULL:` are one key.
_NON_STRING_KEYS = frozenset(
    word for word in ("null", "true", "false") for word in (word, word.title(), word.upper())
)


def _fast_description(prefix: str) -> tuple[bool, str | None]:
    """(True, the raw description or None) when the frontmatter lies in the simple
    subset; (False, None) when the YAML parser must decide."""
    match = _SIMPLE_FRONTMATTER.match(prefix)
    if match is None:
        return False, None
    block = match.group(1)
    outside = _OUTSIDE_SIMPLE_ASCII if block.isascii() else _OUTSIDE_SIMPLE_SUBSET
    if outside.search(block) is not None:
        return False, None
    entries = _SIMPLE_ENTRY.findall(block)
    values = dict(entries)
    if not _NON_STRING_KEYS.isdisjoint(values):
        return False, None
    if len(values) != len(entries):
        return True, None  # a repeated key is an error for mux's parser
    value = values.get("description")
    return True, (_simple_value(value.lstrip(" ")) if value is not None else None)


def _simple_value(text: str) -> str | None:
    """The string a value of the simple subset denotes, or None when it is not a string."""
    value = text.rstrip(" ")
    if not value or value[0] == "[":
        return None  # null, or a list
    if value[0] in "\"'":
        return value[1:-1]
    if value[0] not in _CORE_SCHEMA_FIRST_CHARS:
        return value
    return None if _CORE_SCHEMA_NON_STRING.match(value) else value
