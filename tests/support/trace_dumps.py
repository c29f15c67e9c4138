"""Writer trace dumps for tests: the fixture files, a large generated dump, and placing them.

The fixture dumps live in `tests/fixtures/traces/` (see its README); the large one is
generated (deterministically) because several MB of JSON do not belong in git.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from memtab.store.home import Home

TRACE_FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "traces"

# runStartedAt of each fixture, as written inside it.
DEMO_STARTED = 1767261600000
OLD_FORMAT_STARTED = 1767100000000
ODD_TYPES_STARTED = 1767300000000
LARGE_STARTED = 1767400000000
LARGE_EVENT_COUNT = 9000


def fixture_dump(name: str) -> Path:
    """The path of a fixture dump (`demo`, `old-format`, `truncated`, `odd-types`)."""
    return TRACE_FIXTURES / f"{name}.json"


def install_dump(home: Home, workspace_id: str, source: Path, file_name: str) -> Path:
    """Copy a dump into `home`'s trace folder of `workspace_id` under `file_name`."""
    target = home.trace_dir(workspace_id) / file_name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return target


def large_dump_document(event_count: int = LARGE_EVENT_COUNT) -> dict[str, Any]:
    """A realistic dump of a long session: thousands of events with bulky tool output."""
    events = []
    for index in range(event_count):
        role = "assistant" if index % 2 else "user"
        event: dict[str, Any] = {
            "historySequence": index,
            "role": role,
            "text": f"Step {index}: " + "checking the refresh handler and its tests " * 6,
        }
        if role == "assistant":
            event["toolCalls"] = [
                {
                    "toolCallId": f"call_{index}",
                    "toolName": "bash",
                    "input": {"script": f"pytest tests/unit -k case_{index} -q"},
                    "output": {
                        "success": index % 10 != 1,
                        "output": "tests/unit/test_refresh.py ....F.. " * 12,
                        "exitCode": 0 if index % 10 != 1 else 1,
                    },
                    "state": "output-available",
                }
            ]
        events.append(event)
    user_message = "Conversation events (JSON):\n" + json.dumps(events[-150:])
    return {
        "schemaVersion": 1,
        "runStartedAt": LARGE_STARTED,
        "workspaceId": "a1b2c3d4e5",
        "workspaceName": "fix-token-refresh",
        "triggerMessageId": "assistant-9999",
        "modelString": "openai:gpt-5-mini",
        "timeoutMs": 30000,
        "timedOut": False,
        "didWriteMemory": False,
        "satisfiedMemoryToolPolicy": False,
        "projectPath": "/home/dev/src/acme-api",
        "workspacePath": "/home/dev/src/acme-api/.worktrees/fix-token-refresh",
        "memoryPath": "/memories/workspace/notes.md",
        "systemPrompt": "You maintain the workspace memory file.",
        "existingMemory": "# Notes\n" + "- a remembered fact\n" * 200,
        "eventsSummary": {
            "originalCount": event_count,
            "trimmedCount": event_count,
            "maxJsonChars": 80000,
        },
        "events": events,
        "userMessage": user_message,
        "attempts": [
            {
                "attemptIndex": 1,
                "messages": [{"role": "user", "content": user_message}],
                "stepResults": [{"finishReason": "tool-calls", "text": ""}],
                "toolExecutions": [
                    {
                        "toolName": "memory_write",
                        "toolCallId": "call_w1",
                        "input": {"old_string": "- stale", "new_string": "- fresh"},
                        "output": {"success": False, "error": "old_string matched 0 times"},
                        "startedAt": LARGE_STARTED + 4000,
                        "durationMs": 4,
                    }
                ],
                "finishReason": "error",
                "wrote": False,
                "noNewMemories": False,
                "aborted": False,
                "error": "Provider returned 500 Internal Server Error",
            }
        ],
    }


def write_large_dump(path: Path, event_count: int = LARGE_EVENT_COUNT) -> Path:
    """Write the large dump (pretty-printed like mux's, several MB) to `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(large_dump_document(event_count), indent=2), encoding="utf-8")
    return path
