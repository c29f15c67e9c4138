"""The demo home for tests that read it as it is: a copy of one this worker built, instead
of `create_demo_home` again (~11 ms of CPU each; a copy ~1.3 ms).

The demo's times are relative to when it was made, so a copy is a demo made up to
`TEMPLATE_MAX_AGE_S` before the test (the template is built again once it is older). The
tests that use it pass with a template ten times that old; a test whose checks hang on
the demo's times against its own now (what is "just now", what came since) builds its own
with `create_demo_home`. With a given `now_ms`, the template's times are the same whenever
it is built.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from memtab.demo import acme_api, claude_project_name, create_demo_home, require_empty_target
from memtab.store.home import Home
from support.tree_templates import TreeTemplate

TEMPLATE_MAX_AGE_S = 60.0

_templates: dict[int | None, tuple[float, TreeTemplate]] = {}


def _template(now_ms: int | None) -> TreeTemplate:
    made = _templates.get(now_ms)
    if made is not None and (now_ms is not None or time.monotonic() - made[0] < TEMPLATE_MAX_AGE_S):
        return made[1]
    built_at = time.monotonic()
    template = TreeTemplate.build(lambda folder: create_demo_home(folder / "demo", now_ms).root)
    _templates[now_ms] = (built_at, template)
    return template


def copied_demo_home(target: Path, now_ms: int | None = None) -> Home:
    """The demo home in `target` (missing or an empty directory), as `create_demo_home`
    writes it there."""
    require_empty_target(target)
    return Home(_template(now_ms).copy(target))


def claude_memory(home: Home) -> str:
    """The source id of Claude Code's memory of the demo's acme-api (its folder is named
    after acme-api's path, which is in the demo home)."""
    return f"claude-code:memory-{claude_project_name(acme_api(home))}"


def demo_home_moved_away(target: Path) -> Home:
    """The demo home with its projects' checkouts gone (moved, or on another machine): what
    the check says of a project not on this disk, on the demo's memory."""
    home = copied_demo_home(target)
    shutil.rmtree(Path(acme_api(home)).parent)
    return home
