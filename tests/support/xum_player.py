"""A second process playing xum: its lock files, taken as xum's `fileLock.ts` takes them,
written here apart from Memtab's `fs/locking/lease_lock.py` so the tests check Memtab against the
protocol rather than against itself.

Run as a script (`python xum_player.py MODE ...`):

- `hold LOCK`: take the lock file LOCK, print `held`, keep it until stdin closes.
- `churn HOME FILE N`: N times, as xum's MemoryService changes a global memory: hold the
  target lock of `<HOME>/memory`, read `<HOME>/memory/global/FILE`, append `xum <i>`, write
  it back (temp + rename); inside, hold `<HOME>/memory-meta.json.lock` and count one use
  of `global:FILE` in memory-meta.json (`accessCount`, and `xumCount` that only xum
  counts). Each read-modify-write takes a few milliseconds,
  as xum's do (its journal row, its usage record). Prints `ready` first (after waiting for
  a line on stdin) and `done <N>` at the end.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sys
import time
from pathlib import Path


def birth(pid: int) -> str | None:
    """`linux-ticks:<starttime>` of `pid` (field 22 of /proc/<pid>/stat)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split(" ")
    return f"linux-ticks:{fields[19]}"


def token_for(pid: int, nonce: str, born: str | None) -> str:
    return f"{pid}:{nonce}" if born is None else f"{pid}:{nonce}:{born.encode().hex()}"


def acquire(lock: Path, timeout_s: float = 10.0) -> str:
    """Take `lock` by hard-linking a temp file holding our token; our token."""
    nonce = secrets.token_hex(8)
    token = token_for(os.getpid(), nonce, birth(os.getpid()))
    temp = lock.with_name(f"{lock.name}.tmp-{os.getpid()}-{nonce}")
    lock.parent.mkdir(parents=True, exist_ok=True)
    temp.write_text(token)
    deadline = time.monotonic() + timeout_s
    try:
        while True:
            try:
                os.link(temp, lock)
                return token
            except FileExistsError:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"xum: timed out waiting for {lock}") from None
                time.sleep(0.01)
    finally:
        temp.unlink()


def release(lock: Path, token: str) -> None:
    if lock.read_text() == token:
        lock.unlink()


def target_lock(home: Path) -> Path:
    key = os.path.abspath(home / "memory")
    return home / "locks" / f"target-{hashlib.sha256(key.encode()).hexdigest()[:32]}.lock"


def meta_lock(home: Path) -> Path:
    return home / "memory-meta.json.lock"


def _write_atomic(path: Path, text: str) -> None:
    temp = path.with_name(f".{path.name}.xum-{secrets.token_hex(4)}")
    temp.write_text(text)
    os.replace(temp, path)


def churn(home: Path, name: str, times: int) -> None:
    memory = home / "memory" / "global" / name
    meta = home / "memory-meta.json"
    for i in range(times):
        target = acquire(target_lock(home))
        try:
            text = memory.read_text() if memory.exists() else ""
            time.sleep(0.002)
            _write_atomic(memory, f"{text}xum {i}\n")
            held = acquire(meta_lock(home))
            try:
                document = json.loads(meta.read_text()) if meta.exists() else {}
                entries = document.setdefault("entries", {})
                entry = entries.setdefault(f"global:{name}", {"pinned": False})
                entry["accessCount"] = entry.get("accessCount", 0) + 1
                entry["xumCount"] = entry.get("xumCount", 0) + 1  # ours alone: what we counted
                entry["lastAccessedAt"] = entry["lastWriteAt"] = int(time.time() * 1000)
                time.sleep(0.001)
                _write_atomic(meta, json.dumps(document, indent=2))
            finally:
                release(meta_lock(home), held)
        finally:
            release(target_lock(home), target)
        time.sleep(0.001)


def main(argv: list[str]) -> None:
    mode = argv[0]
    if mode == "hold":
        lock = Path(argv[1])
        token = acquire(lock)
        print("held", flush=True)
        sys.stdin.read()
        release(lock, token)
    elif mode == "churn":
        print("ready", flush=True)
        sys.stdin.readline()
        times = int(argv[3])
        churn(Path(argv[1]), argv[2], times)
        print(f"done {times}", flush=True)
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    main(sys.argv[1:])
