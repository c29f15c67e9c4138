"""The last answer of `memtab mcp` when Memtab cannot serve a session at all (docs/formats.md
§22.8): MCP on stdio with the standard library, every answer saying why, so an agent that must
connect still starts."""

from __future__ import annotations

import json
import os
import sys

from memtab import __version__
from memtab.agent_server.bridge.pump import READ_TOOLS

# What the SDK answers (`test_fallback.py` holds them equal): the client's revision when listed,
# else the newest.
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
LATEST_HANDSHAKE = "2025-11-25"
METHOD_NOT_FOUND = -32601
PARSE_ERROR = -32700
_CHUNK_BYTES = 64 * 1024
_MAX_LINE_BYTES = 4 * 1024 * 1024  # the frame guard's cap: a longer line is skipped
_ANY_ARGUMENTS = {"type": "object", "additionalProperties": True}


def reason_words(reason: str) -> str:
    """What every answer says: memory is not served this session, why, and where to look."""
    return (
        f"Memtab cannot serve memory in this session: {reason}. Tell the user: running "
        "`memtab doctor` in a terminal says more; memory comes back in the next session "
        "once it is fixed."
    )


def answer(message: object, words: str) -> dict[str, object] | None:
    """The answer to one message (None: a notification, an answer, nothing to say)."""
    if not isinstance(message, dict):
        return _error(None, -32600, "Invalid request: not a JSON-RPC message")
    method = message.get("method")
    its_id = message.get("id")
    if isinstance(its_id, bool) or not isinstance(its_id, int | str):
        return None  # a notification (or an id no answer carries): nothing to say
    if not isinstance(method, str):
        return None  # an answer to nothing this server asked
    if method == "initialize":
        return _result(its_id, _initialized(message.get("params"), words))
    if method == "ping":
        return _result(its_id, {})
    if method == "tools/list":
        tools = [
            {"name": name, "description": words, "inputSchema": _ANY_ARGUMENTS}
            for name in READ_TOOLS
        ]
        return _result(its_id, {"tools": tools})
    if method == "tools/call":
        return _result(its_id, {"content": [{"type": "text", "text": words}], "isError": True})
    return _error(its_id, METHOD_NOT_FOUND, f"Method not found: {method} ({words})")


def _initialized(params: object, words: str) -> dict[str, object]:
    asked = params.get("protocolVersion") if isinstance(params, dict) else None
    version = asked if asked in HANDSHAKE_VERSIONS else LATEST_HANDSHAKE
    return {
        "protocolVersion": version,
        "capabilities": {"tools": {"listChanged": False}},
        "serverInfo": {"name": "memtab", "version": __version__},
        "instructions": words,
    }


def _result(its_id: int | str, result: dict[str, object]) -> dict[str, object]:
    return {"jsonrpc": "2.0", "id": its_id, "result": result}


def _error(its_id: int | str | None, code: int, text: str) -> dict[str, object]:
    return {"jsonrpc": "2.0", "id": its_id, "error": {"code": code, "message": text}}


def serve_reason(reason: str, *, stdin: int = 0, stdout: int = 1) -> int:
    """Answer the agent until it hangs up, every answer saying `reason`; exit status 0."""
    words = reason_words(reason)
    print(f"memtab mcp: {words}", file=sys.stderr, flush=True)
    os.set_blocking(stdin, True)
    os.set_blocking(stdout, True)
    pending = bytearray()
    skipping = False  # the rest of a line over the cap goes nowhere
    while True:
        try:
            chunk = os.read(stdin, _CHUNK_BYTES)
        except OSError:
            chunk = b""
        lines = (bytes(pending) + chunk).split(b"\n")
        pending = bytearray(lines.pop() if chunk else b"")
        for line in lines:
            if skipping:
                skipping = False
                continue
            if line.strip(b" \t\r") and not _send(stdout, _answer_line(line, words)):
                return 0
        if len(pending) > _MAX_LINE_BYTES:
            pending, skipping = bytearray(), True
        if not chunk:
            return 0


def _answer_line(line: bytes, words: str) -> dict[str, object] | None:
    try:
        message = json.loads(line.decode("utf-8", "replace"))
    except (ValueError, RecursionError):
        return _error(None, PARSE_ERROR, "Parse error: not JSON")
    return answer(message, words)


def _send(stdout: int, message: dict[str, object] | None) -> bool:
    """Write one answer (nothing for None); False once the agent no longer reads."""
    if message is None:
        return True
    data = json.dumps(message, ensure_ascii=False).encode("utf-8", "surrogatepass") + b"\n"
    try:
        while data:
            data = data[os.write(stdout, data) :]
    except OSError:
        return False
    return True
