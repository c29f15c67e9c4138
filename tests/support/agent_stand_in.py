"""A stand-in model for the real agents from npm (scripts/real-agents): one loopback server that
speaks Claude Code's Anthropic Messages, Codex's OpenAI Responses and Gemini CLI's
generateContent, streamed as each agent asks.

It is scripted, not clever: a user turn "Remember that X" calls Memtab's `create`, "How do we
deploy?" calls `search`, "List my memories" calls `list`, "View /memories/…" calls `view`,
"In /memories/… replace A with B" calls `str_replace`; after a tool's result it answers with the
result's first 300 characters. Every request body is kept (`requests`), so a check reads what the
agent's model *received*, which is what a user's model would have read.
"""

from __future__ import annotations

import json
import re
import threading
import uuid
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# Gemini CLI asks its model, in JSON, who speaks next and how hard a turn is; any valid answer does.
_GEMINI_ROUTING = {
    "next_speaker": "user",
    "reasoning": "done",
    "complexity_reasoning": "simple",
    "complexity_score": 1,
    "model_choice": "flash",
}
_USAGE = {"input_tokens": 10, "output_tokens": 5}


@dataclass(frozen=True)
class Turn:
    """What the stand-in answers: a tool call (`tool`, `arguments`) or `text`."""

    text: str = ""
    tool: str = ""
    arguments: dict[str, Any] | None = None


def next_turn(user_text: str, tool_result: str | None, tools: list[str]) -> Turn:
    """The scripted answer to the last user turn, given the tools the agent offered."""
    if tool_result is not None:
        return Turn(text="The tool said: " + tool_result[:300].replace("\n", " "))

    def memtab_tool(name: str) -> str:
        ours = [tool for tool in tools if "memtab" in tool]
        return next((tool for tool in ours if tool.endswith(("__" + name, "_" + name))), "")

    said = user_text.strip()
    asks: list[tuple[str, dict[str, Any] | None]] = []
    if remember := re.search(r"Remember (?:in (\S+) )?that (.+)", said):
        path = remember.group(1) or "/memories/global/deploy.md"
        asks.append(("create", {"path": path, "file_text": f"- {remember.group(2).strip()}\n"}))
    elif "how do we deploy" in said.lower():
        asks.append(("search", {"query": "how do we deploy"}))
    elif "list my memories" in said.lower():
        asks.append(("list", {}))
    elif edit := re.search(r"In (/memories/\S+) replace (\S+) with (\S+)", said):
        asks.append(
            ("str_replace", dict(zip(("path", "old_str", "new_str"), edit.groups(), strict=True)))
        )
    elif view := re.search(r"View (/memories/\S+)", said):
        asks.append(("view", {"path": view.group(1)}))
    for name, arguments in asks:
        if tool := memtab_tool(name):
            return Turn(tool=tool, arguments=arguments)
    return Turn(text="OK.")


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    kinds = ("text", "input_text", "output_text")
    return "\n".join(
        block.get("text", "")
        for block in content or []
        if isinstance(block, dict) and block.get("type") in kinds
    )


def _sse(events: list[tuple[str, dict[str, Any]]]) -> bytes:
    return b"".join(
        (f"event: {name}\n" if name else "").encode() + f"data: {json.dumps(data)}\n\n".encode()
        for name, data in events
    )


def _anthropic(body: dict[str, Any]) -> tuple[str, bytes]:
    messages = body.get("messages") or []
    last = messages[-1] if messages else {}
    result = None
    for block in last.get("content") if isinstance(last.get("content"), list) else []:
        if block.get("type") == "tool_result":
            result = _text_of(block.get("content"))
    user = _text_of(last.get("content")) if last.get("role") == "user" else ""
    turn = next_turn(user, result, [tool.get("name", "") for tool in body.get("tools") or []])
    if turn.tool:
        block = {"type": "tool_use", "id": "toolu_" + uuid.uuid4().hex[:12], "name": turn.tool}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(turn.arguments)}
        stop = "tool_use"
    else:
        block, delta, stop = (
            {"type": "text", "text": ""},
            {"type": "text_delta", "text": turn.text},
            "end_turn",
        )
    message_id = "msg_" + uuid.uuid4().hex[:12]
    if not body.get("stream"):
        whole = (
            {**block, "input": turn.arguments} if turn.tool else {"type": "text", "text": turn.text}
        )
        reply = {
            "id": message_id,
            "type": "message",
            "role": "assistant",
            "model": body.get("model"),
            "content": [whole],
            "stop_reason": stop,
            "usage": _USAGE,
        }
        return "application/json", json.dumps(reply).encode()
    start = {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": body.get("model", ""),
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": _USAGE,
    }
    return "text/event-stream", _sse(
        [
            ("message_start", {"type": "message_start", "message": start}),
            (
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {**block, "input": {}} if turn.tool else block,
                },
            ),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop, "stop_sequence": None},
                    "usage": {"output_tokens": 5},
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        ]
    )


def _openai_responses(body: dict[str, Any]) -> tuple[str, bytes]:
    tools: list[str] = []
    for tool in body.get("tools") or []:
        if tool.get("type") == "namespace":  # Codex groups an MCP server's tools
            tools += [f"{tool['name']}__{inner.get('name', '')}" for inner in tool.get("tools", [])]
        else:
            tools.append(tool.get("name") or "")
    items = body.get("input") or []
    last = items[-1] if items else {}
    result, user = None, ""
    if last.get("type") == "function_call_output":
        output = last.get("output")
        result = output if isinstance(output, str) else json.dumps(output)
    elif last.get("role") == "user":
        user = _text_of(last.get("content"))
    turn = next_turn(user, result, tools)
    if turn.tool:
        item: dict[str, Any] = {
            "type": "function_call",
            "id": "fc_" + uuid.uuid4().hex[:8],
            "call_id": "call_" + uuid.uuid4().hex[:8],
            "name": turn.tool,
            "arguments": json.dumps(turn.arguments),
            "status": "completed",
        }
        if turn.tool.startswith("mcp__") and turn.tool.count("__") >= 2:
            item["namespace"], _, item["name"] = turn.tool.rpartition("__")
    else:
        item = {
            "type": "message",
            "id": "msg_" + uuid.uuid4().hex[:8],
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": turn.text, "annotations": []}],
        }
    response_id = "resp_" + uuid.uuid4().hex[:12]
    usage = {
        "input_tokens": 10,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 5,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 15,
    }
    events: list[dict[str, Any]] = [
        {
            "type": "response.created",
            "response": {"id": response_id, "status": "in_progress", "output": []},
        },
        {"type": "response.output_item.added", "output_index": 0, "item": item},
    ]
    if not turn.tool:
        events.append(
            {
                "type": "response.output_text.delta",
                "item_id": item["id"],
                "output_index": 0,
                "content_index": 0,
                "delta": turn.text,
            }
        )
    events += [
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {
            "type": "response.completed",
            "response": {
                "id": response_id,
                "status": "completed",
                "output": [item],
                "usage": usage,
            },
        },
    ]
    return "text/event-stream", _sse([(event["type"], event) for event in events])


def _gemini(body: dict[str, Any], streamed: bool) -> tuple[str, bytes]:
    tools = [
        declared.get("name", "")
        for tool in body.get("tools") or []
        for declared in tool.get("functionDeclarations") or []
    ]
    contents = body.get("contents") or []
    last = contents[-1] if contents else {}
    result, user = None, ""
    for part in last.get("parts") or []:
        if "functionResponse" in part:
            result = json.dumps(part["functionResponse"].get("response"))
        elif "text" in part and last.get("role") == "user":
            user += part["text"]
    config = body.get("generationConfig") or {}
    if (
        config.get("responseMimeType") == "application/json"
        or config.get("responseJsonSchema")
        or config.get("responseSchema")
    ):
        turn = Turn(text=json.dumps(_GEMINI_ROUTING))
    else:
        turn = next_turn(user, result, tools)
    part = (
        {"functionCall": {"name": turn.tool, "args": turn.arguments}}
        if turn.tool
        else {"text": turn.text}
    )
    chunk = {
        "candidates": [
            {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": "stand-in",
    }
    if streamed:
        return "text/event-stream", _sse([("", chunk)])
    return "application/json", json.dumps(chunk).encode()


def answer(path: str, body: dict[str, Any]) -> tuple[str, bytes]:
    """(content type, payload) for one POST, by the wire format its path names."""
    if path.startswith("/v1/messages/count_tokens"):
        return "application/json", json.dumps({"input_tokens": 10}).encode()
    if path.startswith("/v1/messages"):
        return _anthropic(body)
    if "/responses" in path:
        return _openai_responses(body)
    if ":countTokens" in path:
        return "application/json", json.dumps({"totalTokens": 10}).encode()
    if ":streamGenerateContent" in path or ":generateContent" in path:
        return _gemini(body, streamed=":streamGenerateContent" in path)
    return "application/json", b"{}"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the agents poll, and their requests are kept in `requests`."""

    def _body(self) -> dict[str, Any]:
        size = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(size) if size else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"raw": raw.decode("utf-8", "replace")}
        with self.server.lock:
            self.server.requests.append({"path": self.path, "body": body})
        return body

    def _send(self, content_type: str, payload: bytes) -> None:
        self.send_response(200)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self) -> None:
        self._body()
        models = {"data": [{"id": "stand-in", "object": "model"}], "models": []}
        self._send("application/json", json.dumps(models if "models" in self.path else {}).encode())

    def do_HEAD(self) -> None:
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        self._send(*answer(self.path, self._body()))


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.lock = threading.Lock()
        self.requests: list[dict[str, Any]] = []


class AgentStandIn:
    """The stand-in on a free loopback port, served from a thread until `close()`."""

    def __init__(self) -> None:
        self._server = _Server()
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), daemon=True
        )
        self._thread.start()

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def requests_since(self, count: int) -> list[dict[str, Any]]:
        with self._server.lock:
            return list(self._server.requests[count:])

    def request_count(self) -> int:
        with self._server.lock:
            return len(self._server.requests)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def tool_results(requests: list[dict[str, Any]]) -> list[str]:
    """Every tool result the agents sent back to their model, in order, each once."""
    seen: list[str] = []
    for request in requests:
        body = request["body"]
        texts: list[str] = []
        for message in body.get("messages") or []:  # Anthropic
            if isinstance(message.get("content"), list):
                texts += [
                    _text_of(block.get("content"))
                    for block in message["content"]
                    if isinstance(block, dict) and block.get("type") == "tool_result"
                ]
        for item in body.get("input") or []:  # OpenAI Responses
            if isinstance(item, dict) and item.get("type") == "function_call_output":
                output = item.get("output")
                texts.append(output if isinstance(output, str) else json.dumps(output))
        for content in body.get("contents") or []:  # Gemini
            texts += [
                json.dumps(part["functionResponse"].get("response"))
                for part in content.get("parts") or []
                if "functionResponse" in part
            ]
        seen += [text for text in texts if text not in seen]
    return seen


def tools_offered(requests: list[dict[str, Any]]) -> list[str]:
    """Memtab's tools as the agents offered them to their model."""
    names: set[str] = set()
    for request in requests:
        for tool in request["body"].get("tools") or []:
            if tool.get("type") == "namespace":
                names |= {
                    f"{tool['name']}__{inner.get('name', '')}" for inner in tool.get("tools", [])
                }
            names.add(tool.get("name") or "")
            names |= {
                declared.get("name", "") for declared in tool.get("functionDeclarations") or []
            }
    return sorted(name for name in names if "memtab" in name)
