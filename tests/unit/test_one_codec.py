"""One codec (docs/ARCHITECTURE.md "Records"): every JSON object Memtab reads or writes is a
declared record (`memtab.fs.records`) read with `Rec.read(raw)` and written with
`rec.to_json()`; nothing else in `app/memtab` writes a `to_json`, `from_json`, `to_dict` or
`from_dict` of its own, nor a hand reader named `from_document`, `from_raw`, `from_data`,
`from_mapping` or `from_object` (a method or a function, `*_to_json` and
`registry_from_document` helpers included).

What an output writes beyond its fields is declared on the record: `computed`,
`WrittenAs`, `NotWritten`, `Inlined`, `write_only=True` (`memtab.fs.records.compiler`). A
hand codec left is named in `LEFT` with why. The CLI's `--json` outputs are records too:
what `print_json` prints is a record's `to_json()`, never a dict built by hand around one,
and no command reads or writes JSON with the `json` module (`print_json` does).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from support.syntax_trees import children, walk

APP = Path(__file__).resolve().parents[2] / "app" / "memtab"
THE_CODEC = {"fs/records/__init__.py", "fs/records/codec.py", "fs/records/compiler.py"}
_NAMES = r"_?(\w+_)?((to|from)_(json|dict)|from_(document|raw|data|mapping|object))"
A_HAND_CODEC = re.compile(rf"^{_NAMES}$")
A_HAND_CODEC_DEF = re.compile(rf"\bdef\s+{_NAMES}\b")

LEFT: dict[str, set[str]] = {
    # config.json is mux's: each `projects` pair is the record ProjectPair, and this reads
    # the list around them as mux's loader does — a skipped pair reported, a path
    # registered twice taking the first place and the last config (a Map); no marker
    # reports an item `ValidItems` drops
    "store/sidecars/registry.py": {"registry_from_document"},
    # not JSON: the text of a QTextDocument (block breaks are U+2029)
    "components/editor/text_buffer.py": {"buffer_from_raw"},
}  # fmt: skip


def hand_codecs(path: Path) -> set[str]:
    """The functions and methods of a module named like a codec (`Class.name` for a
    method, `name` for a function), at any depth."""
    found: set[str] = set()

    def visit(node: ast.AST, owner: str | None) -> None:
        for child in children(node):
            if isinstance(child, ast.ClassDef):
                visit(child, child.name)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                if A_HAND_CODEC.match(child.name):
                    found.add(f"{owner}.{child.name}" if owner else child.name)
                visit(child, owner)
            else:
                visit(child, owner)

    text = path.read_text(encoding="utf-8")
    if A_HAND_CODEC_DEF.search(text):  # only a module that defines one is parsed
        visit(ast.parse(text), None)
    return found


def test_no_module_writes_a_codec_of_its_own() -> None:
    written: dict[str, set[str]] = {}
    for path in sorted(APP.rglob("*.py")):
        relative = path.relative_to(APP).as_posix()
        if relative in THE_CODEC:
            continue
        found = hand_codecs(path) - LEFT.get(relative, set())
        if found:
            written[relative] = found
    assert written == {}, (
        "declare a record (memtab.fs.records) instead of writing to_json/from_json by hand: "
        "computed(), WrittenAs, NotWritten and write_only=True say what an output writes "
        "beyond its fields"
    )


def test_the_check_finds_a_hand_codec(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "class A:\n    def to_json(self): ...\n    @classmethod\n    def from_json(cls, raw): ...\n"
        "def _report_to_dict(x): ...\ndef outer():\n    def _from_dict(raw): ...\n"
        "def to_jsonl(x): ...\ndef compact_json(x): ...\n"
        "class K:\n    @classmethod\n    def from_document(cls, d): ...\n"
        "def keys_from_raw(raw): ...\ndef from_saved(s): ...\ndef from_rawish(x): ...\n",
        encoding="utf-8",
    )
    assert hand_codecs(module) == {
        "A.to_json",
        "A.from_json",
        "_report_to_dict",
        "_from_dict",
        "K.from_document",
        "keys_from_raw",
    }


CLI = APP / "cli"
THE_PRINTER = "common.py"  # `print_json` itself


def hand_envelopes(path: Path) -> list[str]:
    """Where a CLI module prints JSON that is not a record's `to_json()` (`print_json(x)`
    of anything else), reads or writes JSON with the `json` module (`json.dumps`,
    `json.dump`, `json.loads`, `json.load`, or those imported by name) or spreads a record
    into a dict (`{**r.to_json()}`), as `line: what`."""
    found: list[str] = []
    for node in walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            name = _called(node)
            if name == "print_json" and not (
                len(node.args) == 1 and (_a_to_json(node.args[0]) or _kept(node.args[0]))
            ):
                found.append(f"{node.lineno}: print_json of a value built by hand")
            if name in _JSON_CODEC:
                found.append(f"{node.lineno}: {name}")
        if isinstance(node, ast.ImportFrom) and node.module == "json":
            for alias in node.names:
                if f"json.{alias.name}" in _JSON_CODEC:
                    found.append(f"{node.lineno}: json.{alias.name} imported")
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if key is None and _a_to_json(value):
                    found.append(f"{node.lineno}: a record spread into a dict")
    return sorted(found, key=lambda said: int(said.split(":")[0]))


_JSON_CODEC = frozenset({"json.dumps", "json.dump", "json.loads", "json.load"})


def _called(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}"
    return ""


def _kept(node: ast.AST) -> bool:
    """`x.document`: a record's `to_json()` as a run kept it (`kept.reports`)."""
    return isinstance(node, ast.Attribute) and node.attr == "document"


def _a_to_json(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "to_json"
        and not node.args
    )


def test_the_cli_prints_records_only() -> None:
    printed: dict[str, list[str]] = {}
    for path in sorted(CLI.rglob("*.py")):
        relative = path.relative_to(CLI).as_posix()
        if relative != THE_PRINTER and (found := hand_envelopes(path)):
            printed[relative] = found
    assert printed == {}, (
        "a --json output is a write-only record beside the code that makes it "
        "(print_json(Output(...).to_json())); a row and what the command adds to it: "
        "declare the row's field Inlined"
    )


def test_the_check_finds_a_hand_envelope(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "print_json({'items': [i.to_json() for i in items]})\n"
        "print_json({**row.to_json(), 'more': 1})\n"
        "print_json(result)\n"
        "print(json.dumps(x))\n"
        "print_json(Listing(items=items).to_json())\n"
        "json.dump(report, sys.stdout, indent=2)\n"
        "from json import dumps, JSONDecodeError\n"
        "data = json.loads(text)\n",
        encoding="utf-8",
    )
    assert hand_envelopes(module) == [
        "1: print_json of a value built by hand",
        "2: print_json of a value built by hand",
        "2: a record spread into a dict",
        "3: print_json of a value built by hand",
        "4: json.dumps",
        "6: json.dump",
        "7: json.dumps imported",
        "8: json.loads",
    ]
