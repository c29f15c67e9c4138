"""The user's standing rules, recognized by structure in eight languages."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtab.transcripts.reader import read_transcript
from memtab.writer.offline.directives import directives_in, language_of
from memtab.writer.offline.extract import extract_findings

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "shared"

RULES = [
    # English
    ("Always use pnpm, never npm.", "Always use pnpm, never npm."),
    (
        "From now on, always run `make check` before pushing.",
        "Always run `make check` before pushing.",
    ),
    ("Remember that staging is read-only", "Staging is read-only."),
    ("Remember: never push to main directly.", "Never push to main directly."),
    ("Please never commit to main!", "Never commit to main!"),
    ("We should always pin versions in CI.", "We should always pin versions in CI."),
    ("I prefer small commits", "I prefer small commits."),
    ("Don't push to main.", "Don't push to main."),
    ("No, use pnpm.", "No, use pnpm."),
    # French
    ("Utilise toujours pnpm, jamais npm.", "Utilise toujours pnpm, jamais npm."),
    ("N'utilise pas npm dans ce dépôt.", "N'utilise pas npm dans ce dépôt."),
    ("Je préfère les petits commits.", "Je préfère les petits commits."),
    ("Non, utilise pnpm.", "Non, utilise pnpm."),
    (
        "Désormais, lance les tests avant chaque push.",
        "Désormais, lance les tests avant chaque push.",
    ),
    # German
    ("Verwende immer pnpm, nie npm.", "Verwende immer pnpm, nie npm."),
    ("Benutze keine globalen Variablen.", "Benutze keine globalen Variablen."),
    ("Niemals direkt auf main pushen.", "Niemals direkt auf main pushen."),
    # Spanish
    ("Usa siempre pnpm, nunca npm.", "Usa siempre pnpm, nunca npm."),
    ("No uses var en JavaScript.", "No uses var en JavaScript."),
    ("Prefiero commits pequeños.", "Prefiero commits pequeños."),
    # Portuguese
    ("Use sempre pnpm, nunca npm.", "Use sempre pnpm, nunca npm."),
    ("Não use var em JavaScript.", "Não use var em JavaScript."),
    ("Sempre rode os testes antes do commit.", "Sempre rode os testes antes do commit."),
    # Chinese
    ("总是使用 pnpm，不要用 npm。", "总是使用 pnpm，不要用 npm。"),
    ("请始终使用 pnpm。", "请始终使用 pnpm。"),
    ("以后都用 pnpm", "以后都用 pnpm。"),
    ("不要提交到 main 分支。", "不要提交到 main 分支。"),
    (
        "main ブランチに直接プッシュしないでください。",
        "main ブランチに直接プッシュしないでください。",
    ),
    ("main 브랜치에 직접 푸시하지 마세요.", "main 브랜치에 직접 푸시하지 마세요."),
    # Japanese
    ("常に pnpm を使ってください。", "常に pnpm を使ってください。"),
    ("npm は絶対に使わないでください。", "npm は絶対に使わないでください。"),
    # Korean
    ("항상 pnpm을 사용하세요.", "항상 pnpm을 사용하세요."),
    ("pnpm을 항상 사용하세요.", "pnpm을 항상 사용하세요."),
    ("아니, pnpm 써.", "아니, pnpm 써."),
]


@pytest.mark.parametrize(("text", "directive"), RULES)
def test_directives_in_eight_languages(text: str, directive: str) -> None:
    assert directives_in(text) == [directive]


@pytest.mark.parametrize(
    "text",
    [
        "It always fails on CI.",
        "I remember it failing.",
        "Why does it always fail?",
        "Run the tests.",
        "Ça échoue toujours.",
        "Pourquoi ça échoue toujours ?",
        "Der Build schlägt immer fehl.",
        "El build siempre falla.",
        "O build sempre falha.",
        "这个测试总是失败。",
        "テストはいつも失敗する。",
        "이 테스트는 항상 실패해요.",
        # Chinese words that hold 不要 or 别 without being a rule ("does not require",
        # "difference", "especially"), and "after" (以后) inside a sentence
        "它不要求 API key。",
        "这两个有什么区别，请解释一下。",
        "请特别注意这个文件。",
        "安装以后运行测试。",
        "Work on bead spotter-4te. Run bd show spotter-4te to see the issue details.",
        "lets remove overflow: hidden from table",
        "```\nalways run this in the snippet\n```",
        "> always quoted text from an issue",
        "<private>remember my token is abc</private> thanks",
        "<command-name>/init</command-name> always",
    ],
)
def test_statements_questions_tasks_and_quotes_are_not_directives(text: str) -> None:
    assert directives_in(text) == []


def test_each_sentence_and_list_item_on_its_own() -> None:
    assert directives_in("Fix the bug. Also, prefer pathlib over os.path.") == [
        "Prefer pathlib over os.path."
    ]
    assert directives_in("- always use uv\n- never use pip") == ["Always use uv.", "Never use pip."]
    assert directives_in("[Request interrupted by user] never mind, always use tabs") == [
        "Never mind, always use tabs."
    ]


# Bare prohibitions the user typed count as rules, whatever the verb (lead's decision:
# "never do X" is what users expect remembered); remarks that open the same way do not.
@pytest.mark.parametrize(
    ("text", "directive"),
    [
        ("Don't amend commits, make a new one.", "Don't amend commits, make a new one."),
        ("do not reformat files you did not change", "Do not reformat files you did not change."),
        ("Please don't open a PR before CI passes.", "Don't open a PR before CI passes."),
        ("main に直接 push しないこと。", "main に直接 push しないこと。"),
        ("请勿提交 .env 文件。", "请勿提交 .env 文件。"),
    ],
)
def test_a_bare_prohibition_the_user_typed_is_a_rule(text: str, directive: str) -> None:
    assert directives_in(text) == [directive]


@pytest.mark.parametrize(
    "text",
    [
        "Don't worry about the flaky test.",
        "Don't know why CI fails on this one.",
        "Don't think that is the cause.",
        # Pasted: a slash command's template (entireio/cli's /workflows:plan, real lines).
        "# Create a plan\n\n## Main Tasks\n\n### 1. Research\n\nNEVER CODE! Just research and"
        " write the plan.\n\nDo not proceed until you have a clear feature description.",
    ],
)
def test_remarks_and_pasted_prohibitions_are_not_rules(text: str) -> None:
    assert directives_in(text) == []


def test_the_harness_caveat_is_never_the_users_rule() -> None:
    # daaain/claude-code-log's edge cases: Claude Code's local-command caveat says "DO NOT
    # respond to these messages" in a user line; the reader gives it to the system.
    path = FIXTURES / "claude-code/daaain-claude-code-log__test__test_data__edge_cases.jsonl"
    events = [event for event in read_transcript(path).events if "DO NOT respond" in event.text]
    assert events and all(event.role == "system" for event in events)
    assert extract_findings(events).directives == []


# Real lines of the tuned-on sessions (tests/quality/split.txt): 135yshr/meow (Japanese),
# Viniciuscarvalho/FitToday (Portuguese).
@pytest.mark.parametrize(
    ("text", "directive"),
    [
        (
            "Toda essa feature do pro-89 tem que estar em volta de uma feature flag que eu "
            "controle através de remote config do Firebase.",
            "Toda essa feature do pro-89 tem que estar em volta de uma feature flag que eu "
            "controle através de remote config do Firebase.",
        ),
        (  # the modal opens its clause: the clause before gives it its subject
            "Só mais uma verificação deve ter, hoje no FitOrb qualquer usuário pode fazer mais "
            "de uma pergunta, deve existir o paywall no caso que  usuário queira realizar mais "
            "iterações ou clicar em mais de uma sugestão de chat.",
            "Hoje no FitOrb qualquer usuário pode fazer mais de uma pergunta, deve existir o "
            "paywall no caso que usuário queira realizar mais iterações ou clicar em mais de "
            "uma sugestão de chat.",
        ),
        (  # the bug report that prompted the rule is left out
            "Foram encontrados dois erros de compilação na classe ChallengesView, o build da "
            "aplicação tem que estar funcionando ao finalizar a task",
            "O build da aplicação tem que estar funcionando ao finalizar a task.",
        ),
    ],
)
def test_a_portuguese_rule_said_with_a_modal(text: str, directive: str) -> None:
    assert directives_in(text) == [directive]


@pytest.mark.parametrize(
    "text",
    [
        # the rule's clause leans on the one before ("isso …")
        "Ao clicar para salvar o workout gerado ele não fez a ação, isso tem que ser possível "
        "realizar no CRUD completo do treino.",
        "A tela deve mostrar o nome do treino?",  # a question
        "Isso deve funcionar agora.",  # too short to be a rule, and leans on context
        "Everything must be green before you push, the team said.",  # not Portuguese
        # matthsena/reef-coder (tuned on): what the user wants done now, and a clause that
        # opens on a demonstrative (its subject is in the message before)
        "esta perfeito!! Agora quero aprimorar questoes do comando /switch tem que considerar "
        "que isso só é invocado se for na primeira caracter e alem disso só de colcar a barra "
        "/ deve aparecer um preview dos comandos disponveis caso eu queira selecionar e ao lado "
        "uma breve explicação",
        "Eu quero que você pense em um novo nome para o projeto que faça sentido com o que ele "
        "está implementando de fato, tem que ser um nome muito bom e tem que ser um nome "
        "vendável.",
        "Aquela conversa deve ser passada por contexto do modelo.",
    ],
)
def test_modals_that_are_not_a_portuguese_rule(text: str) -> None:
    assert directives_in(text) == []


def test_portuguese_typed_without_its_accents() -> None:
    """A real line of matthsena/reef-coder (tuned on): "ao inves de" for "ao invés de"."""
    line = (
        "faça o commit de forma semantica, ou seja, ao inves de commitar tudo de uma vez, faça "
        "por grupo de funcionalidades; mas sem voce como co-author..."
    )
    assert language_of(line) == "pt"
    assert directives_in(line) == [
        "Faça o commit de forma semantica, ou seja, ao inves de commitar tudo de uma vez, faça "
        "por grupo de funcionalidades; mas sem voce como co-author."
    ]
    # and in the same session, not rules: a question, a wish typed the same way
    assert directives_in("agora as sessoes sao armazenadas em .reef ao inves de .data?") == []
    assert directives_in("pensei numa ideia; e se ao inves do diretorio ser data...") == []


@pytest.mark.parametrize(
    ("text", "directive"),
    [
        ("G-081QKVSS83 が正しい測定IDです", "G-081QKVSS83 が正しい測定IDです。"),
        (  # inside a question: the value is still the user's correction
            "G-081QKVSS83 が正しいIDなのですが正しく設定されているでしょうか？",
            "G-081QKVSS83 が正しいIDです。",
        ),
    ],
)
def test_a_value_the_user_calls_correct(text: str, directive: str) -> None:
    assert directives_in(text) == [directive]


@pytest.mark.parametrize(
    "text",
    [
        "This is the correct approach, thanks.",
        "それが正しいやり方です。",
        "Is 3.12.1 the correct version?",
    ],
)
def test_no_value_no_correction(text: str) -> None:
    assert directives_in(text) == []


@pytest.mark.parametrize(
    ("text", "directive"),
    [
        (  # a real line (JanDeDobbeleer/oh-my-posh, tuned-on): the link it is about first
            "https://github.com/JanDeDobbeleer/oh-my-posh/pull/7697 Instead of adding yet another "
            "language configuration, add this to the documentation of the generic language "
            "segment as Examples.",
            "Instead of adding yet another language configuration, add this to the documentation "
            "of the generic language segment as Examples.",
        ),
        ("Use pnpm instead of npm.", "Use pnpm instead of npm."),
        ("Use o pnpm em vez do npm.", "Use o pnpm em vez do npm."),
    ],
)
def test_what_to_use_instead_of_what_is_a_rule(text: str, directive: str) -> None:
    assert directives_in(text) == [directive]


def test_a_statement_of_what_is_used_instead_is_not_a_rule() -> None:
    assert directives_in("It uses pnpm instead of npm.") == []


def test_a_japanese_order_said_again_is_a_rule_without_its_unfinished_tail() -> None:
    """A real session of yutakobayashidev/repiq: the user repeats where the agent was told to
    put the rules and leaves the last clause unfinished ("そこからは決して" — "from there,
    never"); the note is what they finished saying. 決して is an adverb, not a request."""
    said = "dotnix/claude/rulesの中に作れって言ってる、そこからは決して"
    assert directives_in(said) == ["dotnix/claude/rulesの中に作れって言ってる。"]
    assert directives_in("そこからは決して") == []
    assert directives_in("テストが落ちていたと言っている。") == []  # a report, not an order
