"""The one frontmatter reader: where a memory file's frontmatter is and its description, as mux
reads them (extractMemoryDescription, docs/formats.md §4.1): YAML 1.2 core schema, no duplicate
keys, cut to 200 UTF-16 units; a fast path for simple frontmatter, PyYAML for the rest."""

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

# mux's FRONTMATTER_PATTERN; `\Z`: Python's `$` also matches before a final newline.
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
    """The part of a text its first 4 KiB cover, as mux reads them."""
    head = encode_utf8(text[:DESCRIPTION_PREFIX_BYTES])  # ≥ 4 KiB unless it is all of it
    return head[:DESCRIPTION_PREFIX_BYTES].decode("utf-8", "replace")


def description_from_text(prefix: str) -> str:
    """The description of a file whose first 4 KiB are `prefix` (cut to 200 units)."""
    value = description_value(prefix)
    return clean_description(value) if value is not None else ""


def full_description(text: str) -> str:
    """A whole text's description as the editor shows it: read as the tree reads it, not cut."""
    value = description_value(description_prefix(text))
    return clean_description(value, limit=None) if value is not None else ""


def description_from_prefix(prefix: bytes) -> str:
    """`description_from_text` of a file's first 4 KiB as bytes, decoding as little as it can."""
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
    """Every top-level string of the frontmatter in `prefix`, by the description's rules ({} when
    none or refused)."""
    values = _simple_values(prefix)
    if values is not None:
        simple = {key: _simple_value(raw.lstrip(" ")) for key, raw in values.items()}
        return {key: value for key, value in simple.items() if value is not None}
    block = frontmatter_block(prefix)
    data = (_yaml_mapping(block) if block else None) or {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def description_value(prefix: str) -> str | None:
    """The raw `description` string of the frontmatter in `prefix`, or None."""
    handled, value = _fast_description(prefix)
    if handled:
        return value
    block = frontmatter_block(prefix)
    if not block or "description" not in block:
        return None
    return _yaml_description(block)


# mux's agent definitions (parseAgentDefinitionMarkdown.ts) allow trailing blanks on the fences.
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
    """An agent definition (a BOM dropped): optional frontmatter, closed by `---` and a YAML mapping
    read as mux reads frontmatter; FrontmatterError says why not."""
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


# A link's text and target end where another link could begin: linear on runs of `[`.
_HEADING_LINK = LazyPattern(r"\[([^\[\]]*+)\]\([^)\[]*+\)")
_HEADING_MARKUP = LazyPattern(r"[*_`~]+")
# A template's title heading, filled in below it (Claude Code's session summaries).
_TEMPLATE_TITLE = LazyPattern(r"^(?:session )?title$", re.IGNORECASE)
# Claude Code's hint under its title heading, left in an unfilled template or replaced by the title
# in the same italics.
_TEMPLATE_HINT = LazyPattern(
    r"^a short and distinctive\b.*\btitle for the session\b", re.IGNORECASE | re.DOTALL
)


def title_of(text: str) -> str:
    """What a file calls itself, cleaned like a description: its first heading after the frontmatter
    (outside fences), or under a template's title heading the first line that is not the template's
    hint."""
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
    """A heading's words: links as their text, marks and a trailing colon dropped, cleaned."""
    text = _HEADING_LINK.sub(r"\1", raw)
    text = _HEADING_MARKUP.sub("", text).strip().rstrip(":：").strip()
    return clean_description(text)


# Whitespace as JavaScript's `\s` sees it.
_WHITESPACE_RUN = LazyPattern(
    "[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+"
)
_CONTROL_CHARS = LazyPattern("[\x00-\x1f\x7f]")


def clean_description(value: str, *, limit: int | None = MAX_DESCRIPTION_UNITS) -> str:
    """mux's cleaning: whitespace runs to one space, control chars dropped, ends trimmed, then cut
    to `limit` UTF-16 units + `…` (a cut astral character keeps U+FFFD)."""
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


# The YAML 1.2 core schema's implicit scalars, as mux reads frontmatter (`yes`, `on` and dates stay
# strings).
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


@functools.cache
def _core_schema_loader() -> Any:
    """A safe loader resolving plain scalars by the YAML 1.2 core schema only and refusing a
    repeated key, as mux; built on first use."""
    import yaml  # lazy: the first paint reads plain frontmatter without it

    # libyaml where PyYAML has it: faster, and linear where the Python scanner is not.
    base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class CoreSchemaLoader(base):
        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            if isinstance(node, yaml.MappingNode):
                seen: set[tuple[str, Any]] = set()
                for key_node, _ in node.value:
                    try:
                        key = self.construct_object(key_node, deep=deep)
                        # Keys the `yaml` package counts as one: true is not 1, but 1 and 1.0 are.
                        number = isinstance(key, int | float) and not isinstance(key, bool)
                        identity = ("number" if number else type(key).__name__, key)
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
    """`value` as a one-line YAML scalar that reads back as the same string, quoted only where
    needed: every frontmatter writer uses it."""
    import yaml  # lazy: the first paint reads plain frontmatter without it

    dumped = yaml.safe_dump(value, allow_unicode=True, width=1_000_000, default_style=None)
    text = dumped.removesuffix("\n...\n").rstrip("\n")
    # PyYAML writes YAML 1.1 and mux reads 1.2: a value that would not read back the same is
    # JSON-quoted.
    read_back = _yaml_mapping(f"value: {text}") if "\n" not in text else None
    if read_back is None or read_back.get("value") != value:
        return json.dumps(value, ensure_ascii=False)
    return text


def _yaml_load(block: str) -> Any:
    """A frontmatter block read by the full YAML parser; raises one of `_yaml_errors()`."""
    import yaml  # lazy: the first paint reads plain frontmatter without it

    return yaml.load(block, Loader=_core_schema_loader())  # a safe loader


def _yaml_errors() -> tuple[type[Exception], ...]:
    """What the parser raises on a malformed block (RecursionError: deep, without libyaml)."""
    import yaml  # lazy: the first paint reads plain frontmatter without it

    return (yaml.YAMLError, ValueError, RecursionError)


def _yaml_mapping(block: str) -> dict[Any, Any] | None:
    """A frontmatter block read by the full parser; None when malformed or no mapping."""
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


# Most frontmatter is a few `key: value` lines: one regex recognizes a conservative subset of YAML
# (column-0 keys, plain, simply quoted or flow-list values, printable ASCII) and leaves anything in
# doubt to the parser; the tests check both agree.
_OUTSIDE_SIMPLE_ASCII = LazyPattern("[^\n\x20-\x7e]")


# The same test for text beyond ASCII.
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
# Opening fence, simple lines, closing fence: the block ends at the first fence, as mux's pattern
# finds it.
_SIMPLE_FRONTMATTER = LazyPattern(rf"---\r?\n((?:{_SIMPLE_LINE}\n)++)---(?:\r?\n|\Z)")
_SIMPLE_ENTRY = LazyPattern(r"^([A-Za-z_][A-Za-z0-9_-]*):(.*)$", re.MULTILINE)
_CORE_SCHEMA_NON_STRING = LazyPattern("|".join(p.pattern for _, p, _ in _CORE_SCHEMA_SCALARS))
_CORE_SCHEMA_FIRST_CHARS = frozenset(char for _, _, first in _CORE_SCHEMA_SCALARS for char in first)
# The subset's keys YAML does not read as strings.
_NON_STRING_KEYS = frozenset(
    word for word in ("null", "true", "false") for word in (word, word.title(), word.upper())
)


def _simple_values(prefix: str) -> dict[str, str] | None:
    """The raw values of the frontmatter when it lies in the simple subset, else None."""
    match = _SIMPLE_FRONTMATTER.match(prefix)
    if match is None:
        return None
    block = match.group(1)
    outside = _OUTSIDE_SIMPLE_ASCII if block.isascii() else _OUTSIDE_SIMPLE_SUBSET
    if outside.search(block) is not None:
        return None
    entries = _SIMPLE_ENTRY.findall(block)
    values = dict(entries)
    if not _NON_STRING_KEYS.isdisjoint(values):
        return None
    return values if len(values) == len(entries) else {}  # a repeated key: mux's parser refuses


def _fast_description(prefix: str) -> tuple[bool, str | None]:
    """(True, the raw description or None) when the frontmatter lies in the simple subset, else
    (False, None)."""
    values = _simple_values(prefix)
    value = values.get("description") if values is not None else None
    return values is not None, (_simple_value(value.lstrip(" ")) if value is not None else None)


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
