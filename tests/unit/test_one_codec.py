"""One codec (docs/ARCHITECTURE.md "Records"): every JSON object Memtab reads or writes is a
declared record (`memtab.fs.records`) read with `Rec.read(raw)` and written with
`rec.to_json()`; nothing else in `app/memtab` writes a `to_json`, `from_json`, `to_dict` or
`from_dict` of its own (a method or a function, `*_to_json` helpers included).

What an output writes beyond its fields is declared on the record: `computed`,
`WrittenAs`, `NotWritten`, `write_only=True` (`memtab.fs.records.output`). The hand codecs
left are named below with why; the list only shrinks.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app" / "memtab"
THE_CODEC = {"fs/records/__init__.py", "fs/records/codec.py", "fs/records/output.py"}
A_HAND_CODEC = re.compile(r"^_?(\w+_)?(to|from)_(json|dict)$")

LEFT = {
    # a trace dump writes exactly the fields it was given: an override over Record.to_json
    "traces/schema.py": {"DumpModel.to_json"},
    # the transcripts' events are built field by field as a transcript is parsed (mutable),
    # and their compact view is measured per event by the writer's budget: a record view
    # built per event cost 28 µs against 1.7 µs by hand (h37json, load ~8)
    "transcripts/events.py": {"TranscriptToolCall.to_json", "TranscriptEvent.to_json"},
}  # fmt: skip


def hand_codecs(path: Path) -> set[str]:
    """The functions and methods of a module named like a codec (`Class.name` for a
    method, `name` for a function), at any depth."""
    found: set[str] = set()

    def visit(node: ast.AST, owner: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, child.name)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                if A_HAND_CODEC.match(child.name):
                    found.add(f"{owner}.{child.name}" if owner else child.name)
                visit(child, owner)
            else:
                visit(child, owner)

    visit(ast.parse(path.read_text(encoding="utf-8")), None)
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
        "def to_jsonl(x): ...\ndef compact_json(x): ...\n",
        encoding="utf-8",
    )
    assert hand_codecs(module) == {"A.to_json", "A.from_json", "_report_to_dict", "_from_dict"}
