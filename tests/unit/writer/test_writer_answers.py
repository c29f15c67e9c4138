"""Findings: what the agent told the user about the project when it finished."""

from __future__ import annotations

import pytest

from memtab.writer.offline.answers import facts_in
from memtab.writer.offline.extract import extract_findings

from .events import answer, user


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        (
            "**Key fix in this session:** Resolved the Dialyzer false positive by using "
            "`:otel_span.hex_trace_id/1` instead of manually extracting trace_id from the span "
            "context record.",
            [
                "Resolved the Dialyzer false positive by using `:otel_span.hex_trace_id/1` "
                "instead of manually extracting trace_id from the span context record."
            ],
        ),
        (
            "Done. The integration tests require `OPENAI_API_KEY` and `ANTHROPIC_API_KEY`.",
            ["The integration tests require `OPENAI_API_KEY` and `ANTHROPIC_API_KEY`."],
        ),
        (
            "- Added OpenTelemetry dependencies\n- Created `Spotter.Telemetry.Otel` module\n"
            "All 297 tests passing with 0 failures.",
            [],
        ),
        ("Want me to add the CI condition so docs-only changes skip `Integration Tests`?", []),
        ("I'll read `worker-service.ts` first because it owns the queue.", []),
        ("The build is slow because of the machine.", []),  # nothing concrete
        ("```\nthe fix requires `x`\n```", []),
    ],
)
def test_facts_of_a_final_answer(text: str, facts: list[str]) -> None:
    assert facts_in(text) == facts


@pytest.mark.parametrize(
    "text",
    [
        # Lines from real sessions (135yshr/meow, Viniciuscarvalho/FitToday, the tune part):
        # a guess,
        "Hugo のデフォルト sitemap テンプレートは `where .Data.Pages` を使いますが、ホームページが"
        "含まれない場合は `.Site.AllPages` を使う必要があるかもしれません。",
        "つまり、Search Console で「読み込めない」と表示されている場合の原因は"
        " Content-Type ではなく別要因（`enableGitInfo` の lastmod 形式など）の可能性が高いです。",
        "The worker probably fails because `REDIS_URL` is not set.",
        # a check of the moment,
        "なお、`gh` の警告「2 uncommitted changes」は未追跡の `meow-design-talk.md` を意図的に"
        "含めていないためで、問題ありません。",
        "`meow-design-talk.md` は既に新しい名前で書かれているので、"
        "リネームの取りこぼしでもありません。",
        "テストは通る（値が違えばよいだけ）ので機能上の問題はないのですが、"
        "旧名 `Mike` が残っています。",
        # a plan, a list item, a status line.
        "`genCall` にも `to_bytes` を追加する必要があります。",
        "- `gh pr create` で PR 作成（必要であれば）",
        "- `.footer-about` カラムが `grid-template-columns: 1.5fr` で幅に余裕があるため、"
        "レイアウト崩れなし",
        "We need to update `config.py` because the key changed.",
        # what does not exist yet (matthsena/reef-coder): the state before the work
        "Não existe diretório `data` no projeto ainda.",
        # a plan's step, an infinitive opening its clause (matthsena/reef-coder)
        "No `Chat`, quando `/model` sem argumento, chamar `onSelectModel()` em vez de listar "
        "texto.",
    ],
)
def test_guesses_checks_of_the_moment_and_plans_are_not_facts(text: str) -> None:
    assert facts_in(text, concluded=True) == []


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        # what the code was doing before the change (real final answers, tuned on:
        # matthsena/reef-coder, yutakobayashidev/repiq)
        (
            "O problema era que o callback `onMessagesChange` estava sendo chamado dentro do "
            "`setMessages`, o que causava uma atualização de estado no componente pai (`App`) "
            "durante a renderização do filho (`Chat`).",
            False,
        ),
        (
            "`.git/hooks/commit-msg.pre-entire` にインストールされていた pre-commit のスクリプト"
            "が古い形式（migration mode）で、全フックが Passed しているにもかかわらず exit code 1 "
            "を返していました。",
            False,
        ),
        # how things are, even with what used to be in an aside (135yshr/meow) or a diagnosis
        # in the present (Viniciuscarvalho/FitToday)
        (
            "`go.mod` で指定された `go 1.26.0` より古い Go 1.25 ではビルドできなくなっています"
            "（v5 では `GOTOOLCHAIN=auto` がデフォルトで、自動的に必要なバージョンをダウンロード"
            "していた）。",
            True,
        ),
        (
            "O problema era que `fitPrimaryStyle()` é uma extensão definida especificamente em "
            "`Button`, não em `View`.",
            True,
        ),
    ],
)
def test_what_the_code_was_doing_before_the_change_is_not_a_fact(text: str, fact: bool) -> None:
    assert facts_in(text, concluded=True) == ([text] if fact else [])


def test_a_diagnosis_is_a_fact_once_the_agent_has_finished() -> None:
    """A real answer of Viniciuscarvalho/FitToday: "the problem was …" in the final answer;
    the same words mid-work are a hypothesis, and a label alone ("Causa raiz:") says
    nothing about the line it heads."""
    diagnosis = (
        "O problema era que `fitPrimaryStyle()` é uma extensão definida especificamente em "
        "`Button`, não em `View`."
    )
    assert facts_in(diagnosis, concluded=True) == [diagnosis]
    assert facts_in(diagnosis) == []
    labelled = (
        "**Causa raiz**: A nova lógica via `listAll()` tinha um cache negativo (`failedKeys`)."
    )
    assert facts_in(labelled, concluded=True) == []


def test_only_final_answers_count_and_at_most_three_each() -> None:
    many = "\n".join(
        f"- `step{n}.sh` must run before `deploy.sh` or the release fails." for n in range(5)
    )
    events = [
        user("`x` requires `y` because reasons."),  # the user's words: not the agent's finding
        answer(many),
    ]
    assert extract_findings(events).findings == [
        "`step0.sh` must run before `deploy.sh` or the release fails.",
        "`step1.sh` must run before `deploy.sh` or the release fails.",
        "`step2.sh` must run before `deploy.sh` or the release fails.",
    ]


def test_a_japanese_diagnosis_that_says_why_something_happened() -> None:
    """A real final answer of 135yshr/meow: "X だったのは、Y ためでした" is Japanese for "X was
    because Y" — a diagnosis, kept once the agent has finished; `<head>` in a code span is an
    HTML tag, not a placeholder."""
    diagnosis = (
        "最初のWebFetchでcanonical URLが「なし」と報告されたのは、ツールがHTMLをMarkdownに変換する"
        "過程で`<head>`内のメタタグが省略されたためでした。"
    )
    assert facts_in(diagnosis, concluded=True) == [diagnosis]
    assert facts_in(diagnosis) == []
    assert facts_in("The fix is to run `git checkout <branch>` first.", concluded=True) == []
