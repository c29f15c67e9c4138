"""Gemini CLI's two patterns Memtab reads its files with, rebuilt to run in linear time
(docs/formats.md §17.7): the code regions `@`-imports are skipped in, and the `${NAME:-default}`
of its settings. Each gives what Gemini CLI's own pattern gives, on any text."""

from __future__ import annotations

import re
from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from memtab.sources.gemini.context_files import code_regions
from memtab.sources.gemini.settings import expand_variables
from support.property_examples import examples

GEMINI_CODE = re.compile(r"(`+)([\s\S]*?)\1")  # findCodeRegions, as its bundle has it
GEMINI_VARIABLE = re.compile(r"\$(?:([A-Za-z0-9_]+)|\{([^}]+?)(?::-([^}]*))?\})")


def gemini_expand(value: str, env: Mapping[str, str]) -> str:
    """resolveEnvVarsInString, with Gemini CLI's own pattern."""

    def replace(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        if name in env:
            return env[name]
        return match.group(3) if match.group(3) is not None else match.group(0)

    return GEMINI_VARIABLE.sub(replace, value)


@settings(max_examples=examples(400))
@given(st.text(alphabet="``a\n", max_size=24))
def test_code_regions_are_gemini_clis(text: str) -> None:
    assert code_regions(text) == [(m.start(), m.end()) for m in GEMINI_CODE.finditer(text)]


@settings(max_examples=examples(400))
@given(st.text(alphabet="${}:-aB_ ", max_size=24), st.sampled_from(["a", "B_", ":-a", "a:"]))
def test_variables_expand_as_in_gemini_cli(text: str, name: str) -> None:
    env = {name: "<set>"}
    assert expand_variables(text, env) == gemini_expand(text, env)


def test_a_long_run_of_backticks_is_one_region() -> None:
    assert code_regions("`" * 7 + "x") == [(0, 6)]
    assert code_regions("``a```b``") == [(0, 5), (5, 8)]
