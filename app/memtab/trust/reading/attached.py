"""Which thing a value is attached to, read from structure, not phrasing (docs/formats.md
§19.6): the key of an assignment (`API_PORT=8000`, `image: redis:7.2`, `"port": 5173`)
with the sections above it in a config fence (YAML, JSON by indentation; TOML and INI by
`[section]`; HOCON and nginx's by `name {`; a TOML inline table's version, `tauri = {
version = "2.1" }`, and a dependencies section's `tokio = "1.38"`; `.env`; a fence after a
line naming a program's own config file, in any language, is that program's:
`gunicorn.conf.py`), and a table's cell with its row's name and its column's header (none
when the row's name says what its value is: "| API port | 8080 |").
A table's cell is also keyed by its row's other cells: two tables' rows of one name that
agree in all but one cell give that cell two values.

Each gives a `Attached`: the thing's words and its value. `claimed` tells what the thing
is by its last word — a port (a service's, the words before it), a version (a product's
the words name: `JAVA_VERSION`, `engines.node`, `python = "^3.11"`), or any other setting
— so every kind is read one way, wherever its value is written.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from memtab.markdown import LineKind, classify, text_lines
from memtab.trust.located import frame_of
from memtab.trust.reading.ports import Port, port_key, service_of
from memtab.trust.reading.scopes import ENVIRONMENTS, Scope, scope_of
from memtab.trust.reading.settings import Setting, setting_key
from memtab.trust.reading.versions import VERSION_NUMBER, Version, product_named, version_key
from memtab.trust.words import stems_of

_KEY = r":?+(?P<key>[A-Za-z_][\w.-]*+)"
ASSIGNMENT = re.compile(
    r"^(?:export\s++)?(?:" + _KEY + r"\s*+(?:=|:\s)|\"(?P<quoted>[A-Za-z_][\w.-]*+)\"\s*+:)"
    r"\s*+(?P<value>\"[^\"\n]*+\"|[^\s#]++)\s*+(?:#.*+)?$"
)
"""A key and its one value: `KEY=v`, `key = v`, `key: v`, `"key": v`, a quoted value
(`version = "~> 5.60"`), a comment after; a YAML key may be a Ruby symbol (Sidekiq's
`:concurrency: 10`)."""
_SECTION = re.compile(r"^\[+\s*+(?P<name>[\w.\- \"]++)\]+$")
_OPENS = re.compile(r"^[\":]?(?P<key>[A-Za-z_][\w.-]*+)\"?\s*+(?::\s*+(?P<brace>[{\[]?)|=?\s*+\{)$")
"""A YAML key with its values under it, a JSON key opening an object or a list, a HOCON or
nginx block (`hikari {`), an HCL object (`aws = {`)."""
_INLINE = re.compile(r"^\"?(?P<key>[A-Za-z_][\w.-]*+)\"?\s*+(?:=|:)\s*+\{(?P<body>[^{}]*+)\}$")
"""An object on one line, each of its keys a value: a TOML inline table (`tauri = { version =
"2.1", features = [] }`), JSON's `"LateFees": { "PerDay": 5 }`, YAML's `limits: {cpu: 2}`."""
_RANGE_SPACE = re.compile(r"^(>=|<=|~>|==|!=|\^|~|>|<)\s++(?=\d)")
"""A version range written with a space (`"~> 5.60"`, `">= 1.9"`): one value."""
_CONFIG_FILE = re.compile(
    r"`(?:[\w.~-]*+/)*+(?P<program>[a-z][a-z0-9_-]*+)\.(?:conf|config)(?:\.[a-z]{1,4})?`"
)
"""A program's own config file in a code span: `gunicorn.conf.py`, `nginx.conf`."""
_FENCES = frozenset(
    {"", "yaml", "yml", "toml", "ini", "cfg", "conf", "env", "dotenv", "json", "jsonc",
     "json5", "properties", "editorconfig", "hocon", "nginx", "edn"}
)  # fmt: skip
"""Fences of configuration (code in a programming language assigns variables, no setting)."""
ASKED_FENCES = _FENCES | {"hcl", "terraform", "tf"}
"""Fences whose values a model is asked about too: Terraform's, whose blocks the readers do not
place (two resources' `instance_class` are two things), so no claim is read of them."""
CONTAINERS = frozenset(
    {"services", "service", "config", "configuration", "settings", "options", "env",
     "environment", "variables", "vars", "values", "spec", "data", "tool", "project",
     "dependencies", "dev-dependencies", "engines", "defaults", "global", "common",
     "properties", "params", "parameters", "runtime", "versions", "tools"}
)  # fmt: skip
"""Section names that hold things of every kind, no part of a thing's name."""
_DEPENDENCIES = frozenset({"dependencies", "dev-dependencies", "devdependencies"})
_GENERIC_HEADERS = frozenset({"value", "values", "setting", "current", "is", "now", "set to"})
_SEPARATOR = re.compile(r"^\|?\s*+:?-{3,}+:?\s*+(?:\|\s*+:?-{3,}+:?\s*+)*+\|?$")
_PLACEHOLDER = re.compile(r"^(?:<.*>|x+|\.{2,}|…|changeme|your.*|\$.*|\{.*|\[.*|null|none|~)$")
_EXAMPLE = re.compile(r"\b(?:e\.g|example|for instance|sample|template|such as)\b", re.I)
_PORT_VALUE = re.compile(r"^(?:(?:[a-z][a-z0-9+.-]*+://)?[\w.-]*+:)?(\d{2,5})/?$", re.I)
_ADDRESS = re.compile(r"^(?:[a-z][a-z0-9+.-]*+://)?[\w.-]++:(\d{2,5})(?:/\S*+)?$", re.I)
_VERSION_VALUE = re.compile(r"^(?P<range>>=|\^|~>?|==|=|v)?\s*+(?P<value>" + VERSION_NUMBER + r")$")
_IMAGE = re.compile(
    r"^(?:[\w.-]++/)*+(?P<name>[a-z][\w.-]*+):v?(?P<tag>" + VERSION_NUMBER + r")(?![\d.])"
)
_NO_VALUE = frozenset(
    {"token", "key", "secret", "password", "passwd", "pass", "pwd", "auth", "credential",
     "credentials", "dsn", "salt", "cert", "private", "env", "environment", "debug", "mode",
     "level", "home", "user", "username", "id", "name"}
)  # fmt: skip
"""Words of a thing whose value is a secret, or differs on each machine by design."""
_JOINS = re.compile(r"[_.]++")
"""What joins a key's words (`API_PORT`, `server.port`)."""
_SETTING_NAME = re.compile(r"[A-Za-z][\w-]*+")
_PORT_WORDS = frozenset({"port", "ports"})
_DIGITS = re.compile(r"\d")
_FORM_PARTS = re.compile(r"\d++|[^\W\d_]++")
"""A value's runs of digits and of letters: its form is what is left when each is one sign
("0x76" and "0x77" alike, "3.3V" another)."""
_ADDRESS_WORDS = frozenset({"url", "address", "endpoint", "uri", "link", "addr"})
VERSION_WORDS = frozenset(
    {"version", "ver", "requires", "required", "image", "tag", "pinned", "pin", "at", "current"}
)


class Attached(NamedTuple):
    thing: str
    """The thing's words as written, space-separated (its keys' `_` and `.` as spaces)."""
    value: str
    row: str = ""
    """A table's cell: its row's name, column and other cells, and its value's form, in
    lower case ("": no table's)."""
    where: str = ""
    """Where the value holds, said apart from its name: a table's column headed "prod"."""


_CAMEL = r"(?:(?!(?:The|Our|This|My|An?|Its|Their)\s)[A-Z][a-z][\w-]*+\s)?[a-z]++[A-Z][A-Za-z0-9]*+"
_NAME = r"`[A-Za-z_][\w.-]*+`|[A-Za-z][A-Za-z0-9]*+(?:[_.][A-Za-z0-9]++)++|(?-i:" + _CAMEL + ")"
"""A setting's name: in a code span, or a name no word is (`max_connections`, `a.b`,
`poolSize`, with its owner's name before it: "Jest maxWorkers")."""
_SAID = re.compile(
    r"(?:\bset\s++(?P<set>" + _NAME + r")\s++to|(?<![\w.`])(?P<key>" + _NAME + r")\s++"
    r"(?:is(?:\s++set\s++to)?|defaults?\s++to|=|(?:must|should|has\s++to)\s++(?:be|stay\s++at)))"
    r"\s*+"
    r"(?P<value>`[^`\n]++`|\d[\w.:%/-]*+|(?:true|false|on|off)\b)",
    re.IGNORECASE,
)
"""A name given a value in a sentence — a code span, a number, a flag: "set `X` to 4",
"`X` defaults to 300", "a.b is `20`", "`X` must be 8" (a value required is the value)."""
_SPAN = re.compile(r"`([^`\n]++)`")
VERSION_FILES = {
    ".nvmrc": "node", ".node-version": "node", ".python-version": "python",
    ".ruby-version": "ruby", ".terraform-version": "terraform", ".go-version": "go",
    ".java-version": "java", ".bun-version": "bun", "rust-toolchain": "rust",
    "rust-toolchain.toml": "rust",
}  # fmt: skip
"""Files that pin one product's version, and the product."""
_PINNED = re.compile(
    r"`?(?P<file>" + "|".join(re.escape(name) for name in VERSION_FILES) + r")`?"
    r"(?:\s*+:|\s++(?:says|is|pins|holds|reads))\s*+`?v?(?P<value>" + VERSION_NUMBER + r")\b"
)
_LISTED = re.compile(r"^(?P<key>[a-z][\w-]*+)\s++v?(?P<value>" + VERSION_NUMBER + r")$")
"""A `.tool-versions` line: a product and its version."""
_FROM = re.compile(r"^FROM\s++(?P<image>\S++)(?:\s++AS\s++\S++)?$", re.IGNORECASE)


def said(sentence: str) -> list[Attached]:
    """The things a sentence gives a value in code: a span's assignment (`API_PORT=8000`,
    `image: redis:7.2`), a Dockerfile's `FROM python:3.11-slim`, a name set to a value."""
    found = []
    for span in _SPAN.findall(sentence):
        if (match := ASSIGNMENT.match(span.strip())) is not None:
            found.append(_attached([match.group("key") or match.group("quoted")], match["value"]))
        elif (image := _FROM.match(span.strip())) is not None:
            found.append(_attached(["from"], image.group("image")))
    for pinned in _PINNED.finditer(sentence):
        product = VERSION_FILES[pinned.group("file")]
        found.append(_attached([product, "version"], pinned.group("value")))
    for match in _SAID.finditer(sentence):
        found.append(
            _attached([(match.group("set") or match.group("key")).strip("`")], match["value"])
        )
    return list(dict.fromkeys(a for a in found if a is not None))


def structured(text: str, fences: frozenset[str] = _FENCES) -> Iterator[tuple[int, Attached]]:
    """Each value a memory's config fences (in `fences`' languages) and tables attach to a
    thing, with its line number (from 1): a fence after a line naming an example gives none."""
    lines = text_lines(text)
    kinds = classify(lines)
    header: list[str] | None = None
    rows: list[tuple[int, list[str]]] = []
    sections: list[tuple[int, str]] = []
    listed_at: int | None = None  # a list's indent: what is under it is no one thing
    before = ""
    edn: _EdnMaps | None = None
    for number, (line, kind) in enumerate(zip(lines, kinds, strict=True), start=1):
        if kind.kind is LineKind.CODE and kind.fence is not None:
            program = _program_configured(before)
            language = kind.fence.info.split()[:1]
            config = language in ([], *([f] for f in fences))
            if (config or program) and not _EXAMPLE.search(before):
                if language == ["edn"]:  # one reader a fence: its maps span lines
                    found = (edn := edn or _EdnMaps()).read(line)
                else:
                    found, listed_at = _config_line(line, sections, listed_at, program)
                yield from ((number, attached) for attached in found)
            continue
        sections, listed_at, edn = [], None, None
        stripped = line.strip()
        if kind.kind is LineKind.TEXT and stripped.startswith("|"):
            cells = _cells(stripped)
            if header is None:
                header = cells
            elif not _SEPARATOR.match(stripped):
                rows.append((number, cells))
            continue
        if header is not None:
            yield from _table(header, rows)
        header, rows = None, []
        if stripped and kind.kind is not LineKind.FENCE:
            before = stripped
    if header is not None:
        yield from _table(header, rows)


def _table(
    header: Sequence[str], rows: Sequence[tuple[int, list[str]]]
) -> Iterator[tuple[int, Attached]]:
    """Each value of a table keyed by its first column: a table naming one row twice
    ("| /users | GET |", "| /users | POST |") lists pairs, not one value a thing."""
    names = [cells[0].lower() for _, cells in rows]
    if len(set(names)) == len(names):
        for number, cells in rows:
            yield from ((number, found) for found in _row(header, cells))


def _program_configured(before: str) -> str:
    """The program whose own config file the line before a fence names in a code span
    (`deploy/gunicorn.conf.py`, `nginx.conf`, `vite.config.ts`: gunicorn, nginx, vite), ""
    for none: the fence is that file, in whatever language, its keys the program's."""
    named = {m.group("program").lower() for m in _CONFIG_FILE.finditer(before)}
    return named.pop() if len(named) == 1 else ""


def _config_line(
    line: str, sections: list[tuple[int, str]], listed_at: int | None, program: str = ""
) -> tuple[list[Attached], int | None]:
    stripped = line.strip().rstrip(",")
    indent = len(line) - len(line.lstrip())
    if listed_at is not None and indent > listed_at:
        return [], listed_at
    listed_at = None
    if not stripped or stripped.startswith(("#", ";", "//", "}", "]")):
        return [], None
    if (section := _SECTION.match(stripped)) is not None:
        sections[:] = [(-1, part.strip(' "')) for part in section.group("name").split(".")]
        return [], None
    while sections and sections[-1][0] >= indent:
        sections.pop()
    if stripped.startswith("- "):
        return [], indent
    if (opens := _OPENS.match(stripped)) is not None:
        if opens.group("brace") == "[":
            return [], indent
        sections.append((indent, opens.group("key")))
        return [], None
    keys = [name for _, name in sections if name.lower() not in CONTAINERS]
    owner = [program] if program else []
    if (inline := _INLINE.match(stripped)) is not None:
        parts = (ASSIGNMENT.match(part.strip()) for part in inline["body"].split(","))
        return [
            found
            for part in parts
            if part is not None
            and (found := _attached([*owner, *keys, inline["key"], _key_of(part)], part["value"]))
        ], None
    match = ASSIGNMENT.match(stripped)
    if match is None:
        listed = _LISTED.match(stripped)
        if listed is None or product_named(listed.group("key")) is None:
            return [], None
        return _found(_attached([listed.group("key"), "version"], listed.group("value"))), None
    named = _key_of(match)
    # A package's entry of a dependencies section is its version (`tokio = "1.38"`).
    dependency = bool(sections) and sections[-1][1].lower() in _DEPENDENCIES
    pinned = ["version"] if dependency and product_named(named) is None else []
    return _found(_attached([*owner, *keys, named, *pinned], match.group("value"))), None


_EDN_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*+"|#\{|[{}\[\]()]|[^\s,{}\[\]()"]++')
"""An EDN form's token: a string, a bracket (`#{` opens a set), or an atom (a keyword, a
number, a symbol, a tag such as `#env`, a comment's `;` and what follows)."""


class _EdnMaps:
    """An EDN fence (Clojure's `config.edn`, `deps.edn`) read a line at a time: each key of a
    map given a plain value, its thing the keys of the maps around it and its own (`{:db
    {:maximum-pool-size 10}}`: db maximum pool size). What a tag reads (`#env PORT`,
    `#profile {…}`) and what a list holds are no one thing's value."""

    def __init__(self) -> None:
        self._open: list[str | None] = []
        """Each open bracket: the key a map is the value of ("" for none), None for a list,
        a set or a tagged form (nothing inside is read)."""
        self._keyword: str | None = None
        """A map's key waiting for its value."""
        self._tagged = False

    def read(self, line: str) -> list[Attached]:
        found: list[Attached] = []
        for token in _EDN_TOKEN.findall(line):
            if token.startswith(";"):
                break
            if token in ("{", "[", "(", "#{"):
                read = token == "{" and not self._tagged and None not in self._open
                self._open.append((self._keyword or "") if read else None)
                self._keyword, self._tagged = None, False
            elif token in ("}", "]", ")"):
                if self._open:
                    self._open.pop()
                self._keyword, self._tagged = None, False
            elif None in self._open or not self._open:
                continue
            elif token.startswith("#"):
                self._tagged = True
            elif self._tagged:
                self._keyword, self._tagged = None, False
            elif self._keyword is None:
                self._keyword = token.strip('"').lstrip(":")
            else:
                keys = [key for key in self._open if key and key.lower() not in CONTAINERS]
                words = [key.replace("/", " ").replace("-", " ") for key in [*keys, self._keyword]]
                found += _found(_attached(words, token.lstrip(":")))
                self._keyword = None
        return found


def _key_of(assignment: re.Match[str]) -> str:
    return assignment.group("key") or assignment.group("quoted")


def _found(attached: Attached | None) -> list[Attached]:
    return [] if attached is None else [attached]


def _cells(row: str) -> list[str]:
    return [cell.strip().strip("`").strip() for cell in row.strip().strip("|").split("|")]


def _row(header: Sequence[str], cells: Sequence[str]) -> Iterator[Attached]:
    """Each cell of a table's row after its first, the thing its row's name and its
    column's header (a header saying only "value" adds nothing, nor one beside a name that
    says what its value is: "| Ktor dev server port | 8080 |"), and a cell holding a digit
    in a row of three cells or more also keyed by the row's other cells (`Attached.row`)."""
    if len(cells) != len(header) or not cells[0] or len(cells[0]) > 40:
        return  # a row named by a sentence is no thing's
    says_what = cells[0].split()[-1].lower() in _PORT_WORDS | _ADDRESS_WORDS | VERSION_WORDS
    lowered = [cell.lower() for cell in cells]
    keyed = len(cells) >= 3 and not cells[0].strip("#.").isdigit()  # a row's number: no name
    for column, (header_cell, cell) in enumerate(zip(header[1:], cells[1:], strict=True), start=1):
        where = _is_environment(header_cell)
        generic = says_what or where or header_cell.lower() in _GENERIC_HEADERS
        found = _attached([cells[0], *([] if generic else [header_cell])], cell)
        if found is not None and where:
            found = found._replace(where=header_cell)
        if found is not None:
            if keyed and _DIGITS.search(found.value):
                others = lowered[:column] + lowered[column + 1 :]
                form = _FORM_PARTS.sub(lambda m: "9" if m[0][0].isdigit() else "a", found.value)
                found = found._replace(row="|".join([*others, str(column), form]))
            yield found


def _is_environment(header: str) -> bool:
    """Whether a column's header names only an environment ("prod", "Staging"): where each
    value holds, not a part of its name."""
    stems = list(stems_of(header))
    return bool(stems) and all(stem in ENVIRONMENTS for stem in stems)


def _attached(keys: Sequence[str], value: str) -> Attached | None:
    value = _RANGE_SPACE.sub(r"\1", value.strip().strip("`'\"").rstrip(",;.").strip("'\""))
    if not value or " " in value or "$" in value or _PLACEHOLDER.match(value.lower()):
        return None
    thing = " ".join(_JOINS.sub(" ", key).strip() for key in keys)
    return Attached(" ".join(thing.split()), value) if thing.strip() else None


def claimed(
    attached: Attached, scope: Scope | None = None, whose: str = ""
) -> list[tuple[str, str, str, str]]:
    """The claims (kind, key, value, shown) a thing's value makes: a port of the service
    its other words name, a version of the product they name, else a setting (`whose`:
    what else its sentence names, stems) and, said of nothing else nowhere in particular,
    the value of its frame (as a sentence giving it would: `located.frame_of`); none of a
    secret nor of what differs on each machine by design (`NODE_ENV`, `LOG_LEVEL`). A port
    of no service named (`PORT=8080`) has none (its note's, `owners.owned`)."""
    words = attached.thing.split()
    last = words[-1].lower()
    if not _NO_VALUE.isdisjoint(w.lower() for part in words for w in part.split("-")):
        return []
    value = attached.value
    framed = not attached.where and (
        scope is None or (not whose and not scope.environments and not scope.place)
    )
    scope = scope or scope_of(f"{attached.thing} {attached.where} {value}")
    if last in _PORT_WORDS or (last in _ADDRESS_WORDS and _ADDRESS.match(value)):
        port = _PORT_VALUE.match(value) or _ADDRESS.match(value)
        written = " ".join(words[:-1])
        service = service_of(written)
        if port is None:
            return []
        given = Port(service, frozenset(), scope, port.group(1), written)
        return [("port", port_key(given), given.value, f"{given.shown}'s port")]
    version = _version(words, value, scope)
    if version is not None:
        return [version]
    one = words[0]
    if len(words) == 1 and not one.isupper() and (one.islower() or one[:1].isupper()):
        return []  # one word ("from", "cwd", "Path") names no one thing; `poolSize` does
    found = []
    name = "_".join(words)
    if _SETTING_NAME.fullmatch(name) and len(words) <= 5:
        setting = Setting(name, value, scope, whose)
        found.append(("setting", setting_key(setting), value, setting.name))
    frame = frame_of(attached.thing, number=value.replace(".", "").isdigit())
    if frame is not None and framed:
        found.append(("value", frame, value.lower(), f"the {frame} said"))
    return found


def _version(words: Sequence[str], value: str, scope: Scope) -> tuple[str, str, str, str] | None:
    image = _IMAGE.match(value) if words[-1].lower() in ("image", "from") else None
    if image is not None:
        product, said = product_named(image.group("name")), image.group("tag")
    else:
        pinned = _VERSION_VALUE.match(value)
        split = [part for word in words for part in word.lower().split("-") if part]
        others = [w for w in split if w not in VERSION_WORDS and w not in CONTAINERS]
        # The key's own product ("python" under "tool.poetry"), else the one its words name,
        # else the one name a version key gives it (`tauri = { version = "2.1" }`).
        product = product_named(others[-1]) if others else None
        if product is None and split[-1] == "version" and len(others) == 1:
            product = others[0]
        if (
            pinned is None
            or product is None
            or (product_named(split[-1]) is None and len(others) != 1)
        ):
            return None
        bound = (pinned.group("range") or "").removeprefix("=").replace("v", "")
        said = (
            bound + pinned.group("value")
            if bound in (">=", "^", "~", "~>")
            else pinned.group("value")
        )
    if product is None:
        return None
    version = Version(product, said, frozenset(), scope, product)
    return ("version", version_key(version), said, f"the {product} version")
