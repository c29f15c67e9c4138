"""Sub-agents of Claude Code's `Explore` type describe the code they read: their reports hold
no finding (real lines of tuned-on sessions of 135yshr/meow and yutakobayashidev/repiq)."""

from __future__ import annotations

import pytest

from memtab.writer.offline.extract import extract_findings

from .events import calls, tool

# An `Explore` report in a session of 135yshr/meow (the code it read, described)
_MEOW_EXPLORE = (
    "Perfect! Now I have all the information I need. Let me compile the comprehensive report:"
    "\n\n## Summary: String Character Iteration (`purr ch (...)`) Implementation in Meow\n\n"
    "- Type checker ensures two-variable form only works with strings, enforcing `IndexVar` "
    "usage only for string ranges."
)
# An `Explore` report in a session of yutakobayashidev/repiq (a provider's code, described)
_REPIQ_EXPLORE = (
    "## 1. Core Data\n\n### npm provider\n\n- User-Agent required (lines 21-30): Must set "
    '"User-Agent: repiq (https://github.com/yutakobayashidev/repiq)".\n'
)


@pytest.mark.parametrize("report", [_MEOW_EXPLORE, _REPIQ_EXPLORE])
def test_an_explore_sub_agents_report_is_no_finding(report: str) -> None:
    call = tool(
        "Task", {"subagent_type": "Explore", "prompt": "Explore the codebase"}, output=report
    )
    assert extract_findings([calls(call)]).findings == []
    studied = tool("Task", {"subagent_type": "general-purpose"}, output=report)
    assert extract_findings([calls(studied)]).findings != []  # read from any other sub-agent


def test_another_sub_agents_report_is_read() -> None:
    call = tool(
        "Agent",
        {"subagent_type": "general-purpose", "prompt": "Find why the build fails"},
        output="The build fails because `go.mod` requires go 1.26.0 and CI runs Go 1.25.",
    )
    assert extract_findings([calls(call)]).findings == [
        "The build fails because `go.mod` requires go 1.26.0 and CI runs Go 1.25."
    ]
