"""Bounded by the limits: long names, leftover temp files, text that is not Unicode, and
`memtab tool` input and output that stay clean whatever comes in."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memtab.fs.atomic import MAX_NAME_BYTES, is_temp_name, temp_name_for
from memtab.store.home import Home
from memtab.store.paths import PathError, Scope, parse_virtual_path
from memtab.store.scope_walk import STALE_TEMP_AGE_S
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.tool import MemoryTool
from support.memory_paths import vpath

from .helpers import err, ok, write

G = "/memories/global"
LONGEST = "n" * (MAX_NAME_BYTES - 3) + ".md"  # exactly 255 bytes: a legal name


# --- names near the 255-byte limit ----------------------------------------------------------


@pytest.mark.parametrize("name", [LONGEST, "é" * 126 + ".md", "a.md"])
def test_temp_names_never_exceed_the_name_limit(name: str) -> None:
    temp = temp_name_for(name)
    assert len(temp.encode()) <= MAX_NAME_BYTES
    assert temp.startswith(".") and is_temp_name(temp)
    assert temp != temp_name_for(name)  # unique


def test_a_file_with_the_longest_legal_name_can_be_created_and_edited(tool: MemoryTool) -> None:
    path = f"{G}/{LONGEST}"
    ok(tool.execute({"command": "create", "path": path, "file_text": "one\n"}))
    ok(tool.execute({"command": "str_replace", "path": path, "old_str": "one", "new_str": "1"}))
    ok(tool.execute({"command": "insert", "path": path, "insert_line": 1, "insert_text": "2"}))
    current = tool.store.read(vpath(path))
    tool.store.save(vpath(path), current.content + "3\n", current.sha256)
    assert tool.store.read(vpath(path)).content == "1\n2\n3\n"
    assert os.listdir(tool.store.root(Scope.GLOBAL)) == [LONGEST]


# --- temp files left by a killed process -------------------------------------------------------


def _age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_stale_temp_files_are_removed_by_the_next_listing(store: MemoryStore) -> None:
    root = store.root(Scope.GLOBAL)
    write(root / "a.md", "a")
    stale = write(root / "sub" / ".a.md.0123abcd.tmp", "half a write")
    hashed = write(root / f".{'f' * 32}.89abcdef.tmp", "half a write")
    fresh = write(root / ".a.md.fedcba98.tmp", "a write going on now")
    others = [
        write(root / ".notes.tmp", "not Memtab's pattern"),
        write(root / ".a.md.0123abcd.tmp.bak", "not Memtab's pattern"),
        write(root / ".hidden" / ".a.md.0123abcd.tmp", "inside a hidden dir: never walked"),
    ]
    for path in (stale, hashed, *others):
        _age(path, STALE_TEMP_AGE_S + 60)
    listing = store.list_scope(Scope.GLOBAL)
    assert [f.path.name for f in listing.files] == ["a.md"]
    assert not stale.exists() and not hashed.exists()
    assert fresh.exists() and all(path.exists() for path in others)


def test_a_directory_named_like_a_temp_file_is_left_alone(store: MemoryStore) -> None:
    directory = store.root(Scope.GLOBAL) / ".a.md.0123abcd.tmp"
    write(directory / "x.md", "x")
    _age(directory, STALE_TEMP_AGE_S + 60)
    store.list_scope(Scope.GLOBAL)
    assert (directory / "x.md").exists()


# --- text that is not Unicode ------------------------------------------------------------------


@pytest.mark.parametrize("text", ["a\ud800.md", "\udcff.md", "x/\udfff"])
def test_a_path_with_a_lone_surrogate_is_a_clean_error(tool: MemoryTool, text: str) -> None:
    for call in (
        {"command": "create", "path": f"{G}/{text}", "file_text": "x"},
        {"command": "view", "path": f"{G}/{text}"},
        {"command": "rename", "old_path": f"{G}/a.md", "new_path": f"{G}/{text}"},
    ):
        assert "not valid Unicode" in err(tool.execute(call))
    with pytest.raises(PathError, match="lone surrogate"):
        parse_virtual_path(f"{G}/{text}")
    assert not tool.store.root(Scope.GLOBAL).exists()


def _memtab(args: list[str], stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "memtab", *args],
        input=stdin,
        capture_output=True,
        check=False,
        timeout=60,
    )


def _json_output(result: subprocess.CompletedProcess[bytes]) -> dict[str, object]:
    """The tool's output, which must be strict UTF-8 JSON."""
    value = json.loads(result.stdout.decode("utf-8"))
    assert isinstance(value, dict)
    return value


@pytest.mark.slow
def test_memtab_tool_output_is_utf8_json_for_a_name_that_is_not(home: Home) -> None:
    root = home.global_root
    write(root / "plain.md", "x")
    with open(os.path.join(os.fsencode(root), b"bad-\xff.md"), "wb") as handle:
        handle.write(b"undecodable name")
    result = _memtab(["--home", str(home.root), "tool", json.dumps({"command": "view", "path": G})])
    assert _json_output(result) == {"success": True, "output": f"Directory: {G}\n- plain.md"}
    listing = _memtab(["--home", str(home.root), "list", "--json"])
    assert [row["path"] for row in _json_output(listing)["files"]] == [f"{G}/plain.md"]  # type: ignore[index]


def test_memtab_tool_rejects_a_surrogate_path_with_utf8_json(home: Home) -> None:
    call = '{"command": "create", "path": "/memories/global/a\\ud800.md", "file_text": "x"}'
    result = _memtab(["--home", str(home.root), "tool", call])
    assert result.returncode == 1
    output = _json_output(result)
    assert output["success"] is False and "not valid Unicode" in str(output["error"])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"command": "view", "path": "\xff"}', "not UTF-8"),
        (b"\xef\xbb\xbf" + json.dumps({"command": "view", "path": G}).encode(), None),
    ],
    ids=["deep", "not-utf8", "bom"],
)
def test_memtab_tool_from_stdin_is_one_clean_line(
    home: Home, stdin: bytes, message: str | None
) -> None:
    result = _memtab(["--home", str(home.root), "tool", "-"], stdin)
    if message is None:
        assert result.returncode == 0 and _json_output(result)["success"] is True
        return
    assert result.returncode == 1 and result.stdout == b""
    assert result.stderr.decode().count("\n") == 1
    assert message in result.stderr.decode() and "Traceback" not in result.stderr.decode()


# --- descriptors -------------------------------------------------------------------------------


def _descriptors_into(root: Path) -> list[str]:
    """What this process holds open under `root`. Only there: another test's threads, still
    winding down in this worker (pytest-xdist), open and close descriptors of their own."""
    held = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue  # closed since it was listed (the listing's own descriptor, say)
        if target == str(root) or target.startswith(f"{root}/"):
            held.append(target)
    return sorted(held)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc/self/fd")
def test_store_operations_close_every_directory_they_open(store: MemoryStore) -> None:
    tool = MemoryTool(store)
    W = "/memories/workspace"
    root = store.home.root.resolve()
    ok(tool.execute({"command": "create", "path": f"{G}/d/e/a.md", "file_text": "a\n"}))
    before = _descriptors_into(root)
    for _ in range(20):
        ok(tool.execute({"command": "view", "path": G}))
        ok(tool.execute({"command": "view", "path": f"{G}/d/e/a.md"}))
        ok(
            tool.execute(
                {"command": "insert", "path": f"{G}/d/e/a.md", "insert_line": 0, "insert_text": "x"}
            )
        )
        ok(tool.execute({"command": "rename", "old_path": f"{G}/d", "new_path": f"{G}/f"}))
        store.move(vpath(f"{G}/f"), vpath(f"{W}/f"))
        store.move(vpath(f"{W}/f"), vpath(f"{G}/d"))
        store.create_directory(vpath(f"{G}/tmp/sub"))
        store.delete(vpath(f"{G}/tmp"))
    assert _descriptors_into(root) == before
