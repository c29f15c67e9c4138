"""`memtab contradictions` on the labelled pairs of tests/support/ecosystem_tools.py (issue
83): a tool chosen for a job in any ecosystem — Python data and ML, Go, Rust, the JVM, .NET,
Ruby, PHP, mobile, infrastructure —, by its name, its command or its import, opposed by
another tool for that job; two tools used together, one job in two ecosystems or parts,
agreement, what was — not."""

from __future__ import annotations

import pytest

from memtab.trust.reading.tools import imported, tools
from support import contradiction_voices
from support.ecosystem_tools import CASES

NOT_READ = {
    "- Dataframes: `import polars as pl`, always.",
    "- Go tests assert with testify.",
    "- Payments go through Stripe.",
    "- Vector search runs on Pinecone.",
    "- The Rust API is built with axum.",
}
"""Cases' first notes whose contradiction is not found, and why: "does its transforms in
pandas" names pandas after a noun of the job, not after a verb of using it ("written in");
"gomega matchers" names a thing of gomega's (a tool's name before a noun describes it);
"bill customers via Paddle" says no word of Paddle's job as `GATED` lists it ("billing");
"keep embeddings in Weaviate" is no verb of using ("kept in" is); "built with axum"
against "Use actix-web for the Rust HTTP services" was read only by a tool's named use
(`reading.jobs`, removed with issue 94: it found nothing on held-out data)."""
found, test_each_kind_s_contradictions_found_and_near_misses_not = contradiction_voices.each_kind(
    CASES, NOT_READ
)


def test_the_cases_not_read_are_still_missed(found: dict[int, bool]) -> None:
    """`NOT_READ` is missed (when one is found, it leaves the list)."""
    assert [found[n] for n, case in enumerate(CASES) if case.one in NOT_READ] == [False] * len(
        NOT_READ
    )


def test_the_corpus_holds_enough_of_each_side() -> None:
    expected = [case.expected for case in CASES]
    assert expected.count("contradiction") >= 25 and expected.count("neither") >= 25


@pytest.mark.parametrize(
    ("code", "tool"),
    [
        ("import polars as pl", "polars"),
        ("from sqlalchemy.orm import Session", "sqlalchemy"),
        ("import torch", "pytorch"),
        ('import { test } from "@playwright/test"', "playwright"),
        ('const http = require("axios")', "axios"),
        ('import "github.com/gin-gonic/gin"', "gin"),
        ("use axum::Router;", "axum"),
        ("using Serilog;", "serilog"),
        ("import org.junit.jupiter.api.Test", "junit"),
        ("require 'faraday'", "faraday"),
        ("import numpy as np", None),
        ("import os", None),
        ("pnpm install", None),
    ],
)
def test_an_import_names_the_tool_of_its_module(code: str, tool: str | None) -> None:
    assert imported(code) == tool


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("Run the tests with `uv run pytest`.", "pytest"),
        ("Run the browser tests with `npx playwright test`.", "playwright"),
        ("Run the Ruby tests with `bundle exec rspec`.", "rspec"),
        ("Build with `./gradlew build`.", "gradle"),
        ("Never `import pandas` in the lambdas.", "not:pandas"),
        ("Unit tests are written in JUnit 5.", "junit"),
    ],
)
def test_a_tool_is_chosen_through_its_command_or_import(sentence: str, value: str) -> None:
    assert [choice[1] for choice in tools(sentence)] == [value]


@pytest.mark.parametrize(
    "sentence",
    [
        "`npx playwright install` downloads the browsers.",  # not said as the means of a job
        "Run `uv run pytest` before pushing.",
        "The Flutter SDK is pinned in `.fvmrc`.",  # a thing of Flutter's
        "The lambda times out when `import torch` runs cold.",  # a story, not a rule
    ],
)
def test_a_tool_named_otherwise_is_not_chosen(sentence: str) -> None:
    assert tools(sentence) == []
