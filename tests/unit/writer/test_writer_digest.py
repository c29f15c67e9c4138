"""Issue 24's rules: the whole transcript read once, findings in eight languages, sub-agent
reports, the user's answers, other commands that worked, pasted documents, and notes that
stand on their own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtab.writer.job.run import load_writer_events
from memtab.writer.offline.answers import facts_in, stands_alone
from memtab.writer.offline.directives import directives_in
from memtab.writer.offline.extract import TranscriptDigest, extract_findings
from memtab.writer.offline.findings import WorkflowTool
from memtab.writer.offline.notes import DECISIONS, DIRECTIVES, GOAL, plan_notes
from memtab.writer.offline.shell.commands import is_worth_keeping, tool_program

from .events import answer, bash, calls, tool, user

# --- findings in every language the writer claims -------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Le serveur de développement tourne sur le port 4000.",
        "O script `scripts/deploy.sh` não existe neste repositório.",
        "`npm run lint` スクリプトは存在しません。",
        "開発サーバーはポート 3000 で動作します（`vite.config.ts` の設定のため）。",
        "`CLAUDE.md` の記述は古いので、更新が必要です。",
        "The dev server runs on port 1100 (`config/dev.exs`).",
        "There is no `lint` script in `package.json`.",
    ],
)
def test_a_fact_stated_in_any_claimed_language_is_kept(text: str) -> None:
    assert len(facts_in(text)) == 1, text


@pytest.mark.parametrize(
    "text",
    [
        "Parfait ! J'ai ajouté le fichier `config.ts`.",
        "Je vais lire `README.md` d'abord.",
        "`src/app.ts` を確認します。",
        "It requires `OPENAI_API_KEY` too.",  # leans on what came before
        "and `pnpm` instead of `npm`.",
        "Expected — the `AnnotationMessageRef` module doesn't exist yet.",
        "Need to add the handler for `toggle` in both views.",
        "Set `<your-api-key>` in `.env` because the client requires it.",
        # Lines of real sessions (tests/quality, tuned-on part): a step whose word for
        # "export" holds the word for "port", advice "just in case", what the agent did,
        # the tail of an example, a subjectless "needs".
        "`.p12` ファイルとしてエクスポート（パスワード設定）.",
        "念のため `meow.oreha.dev` を開いて「Accept」→ GA4 リアルタイムに自分が出るか確認すると"
        "確実です。",
        'Added `"strings"` import - Required for `strings.Contains()`.',
        '`"Fix the bug in the login page"` instead of breaking the terminal output.',
        "Precisa usar o `SaveCustomWorkoutUseCase`.",
        "`binary_search.py` 还没有被创建，因为会话被中断了。",
        # what the agent just did, and a check of the moment (FitToday, tuned-on)
        "The `displayName` switch needs the new case - which I just added.",
        "GroupsView has its own separate `NavigationStack` because it's not in the tab bar — "
        "that's correct.",
    ],
)
def test_plans_reports_and_fragments_are_not_findings(text: str) -> None:
    assert facts_in(text) == []


def test_a_note_stands_alone_only_when_it_names_its_subject() -> None:
    assert stands_alone("`mix ecto.migrate` must run before the tests.")
    assert not stands_alone("This must run before the tests.")
    assert not stands_alone("must run before `mix test`.")
    # code that is only punctuation names nothing (a real final answer of matthsena/reef-coder,
    # tuned-on: which code, which file?)
    assert not stands_alone(
        "O problema era que ao pressionar Enter com o menu de autocomplete aberto, o código "
        "submetia o valor do input (`/`) em vez do comando selecionado."
    )
    # no word boundary in Japanese: a line opening on "this" leans on the one before
    assert not stands_alone("これは `go.mod` の設定が原因です。")


def test_a_japanese_connective_is_not_part_of_the_fact() -> None:
    # real lines of 135yshr/meow (tuned-on): "As a result of this, …", "As for your question, …"
    assert facts_in(
        "これにより、`go.mod` で指定された `go 1.26.0` より古い Go 1.25 ではビルドできなくなって"
        "います（v5 では `GOTOOLCHAIN=auto` がデフォルトで、自動的に必要なバージョンをダウンロード"
        "していた）。",
        concluded=True,
    ) == [
        "`go.mod` で指定された `go 1.26.0` より古い Go 1.25 ではビルドできなくなっています（v5 では"
        " `GOTOOLCHAIN=auto` がデフォルトで、自動的に必要なバージョンをダウンロードしていた）。"
    ]
    # what is left is code with a remark: not a note alone
    assert facts_in("ご質問の件ですが、`types.ByteType` は存在しません。", concluded=True) == []


# --- sub-agent reports ----------------------------------------------------------------


def test_a_sub_agent_report_is_read_where_the_parent_receives_it() -> None:
    report = "Findings:\n- The API only works with `api_version=2` because v1 was removed."
    findings = extract_findings(
        [calls(tool("Task", {"prompt": "look into the API"}, output=report))]
    )
    assert findings.findings == [
        "The API only works with `api_version=2` because v1 was removed.",
    ]


# --- the whole transcript ---------------------------------------------------------------


def test_a_rule_the_user_gave_at_the_start_of_a_long_session_is_kept(tmp_path: Path) -> None:
    """The model's window keeps the newest 80,000 characters; the digest reads it all."""
    path = tmp_path / "session.jsonl"
    records = [_claude_user("u0", "Never push to main directly.")]
    for n in range(400):
        records += _claude_bash(n, f"pytest tests/unit -q -k case{n % 3}", "x" * 400)
    path.write_text("\n".join(json.dumps(record) for record in records) + "\n")
    digest = TranscriptDigest()
    events = load_writer_events(path, observe=digest.add)
    assert events.budget.trimmed_count < events.budget.original_count  # the window lost the start…
    notes = plan_notes("", digest.findings())
    rules = [note.text for note in notes if note.section == DIRECTIVES]
    assert rules == ["Never push to main directly."]  # … the digest did not


def _claude_user(uuid: str, text: str) -> dict[str, object]:
    return {"type": "user", "uuid": uuid, "message": {"role": "user", "content": text}}


def _claude_bash(n: int, command: str, output: str) -> list[dict[str, object]]:
    call = {"type": "tool_use", "id": f"t{n}", "name": "Bash", "input": {"command": command}}
    result = {"type": "tool_result", "tool_use_id": f"t{n}", "content": output}
    return [
        {
            "type": "assistant",
            "uuid": f"a{n}",
            "message": {"id": f"m{n}", "role": "assistant", "content": [call]},
        },
        {"type": "user", "uuid": f"r{n}", "message": {"role": "user", "content": [result]}},
    ]


# --- commands that worked beyond build, test and lint ---------------------------------


@pytest.mark.parametrize(
    ("command", "kept"),
    [
        ("mix ecto.migrate", True),
        ("npm run dev", True),
        ("claude mcp add github -- npx -y @modelcontextprotocol/server-github", True),
        ("python scripts/probe_ports.py", True),
        ("./scripts/seed.sh", True),
        ("bash -n scripts/seed.sh", False),  # only checks the script
        ("python -c 'print(1)'", False),
        ("git push --set-upstream origin main", False),
        ("mkdir -p build", False),
        ("ls -la", False),
        ("xcodebuild build -scheme FitToday -destination 'platform=iOS Simulator' -quiet", True),
        ("HUGO_ENVIRONMENT=production hugo --minify", True),
        ('command -v hugo || echo "NO_HUGO"; hugo version', False),  # only asks its version
    ],
)
def test_which_commands_that_worked_are_worth_a_note(command: str, kept: bool) -> None:
    assert is_worth_keeping(command) is kept


def test_a_test_run_that_updates_golden_files_is_a_command_of_its_own() -> None:
    # 135yshr/meow (tuned-on, twice): the golden files are regenerated with `-update`
    found = extract_findings(
        [
            bash("go test ./...", output="ok  \tgithub.com/135yshr/meow/compiler\t24.126s"),
            bash("go test ./compiler/ -update", output="ok  \tgithub.com/135yshr/meow/compiler"),
            bash("go test ./compiler/ -v", output="ok  \tgithub.com/135yshr/meow/compiler"),
        ]
    )
    assert [command.command for command in found.commands] == [
        "go test ./...",
        "go test ./compiler/ -update",
    ]


def test_a_workflow_tool_used_often_is_one_note_with_its_subcommands() -> None:
    assert tool_program("bd ready") == "bd"
    assert tool_program("ls -la") is None
    findings = extract_findings(
        [bash("bd ready"), bash("bd show x-1"), bash("bd close x-1"), bash("bd show x-2")]
    )
    assert findings.tools == [WorkflowTool("bd", ("bd ready", "bd show x-1", "bd close x-1"))]
    assert extract_findings([bash("bd ready")]).tools == []  # once is not a workflow


# --- the user's voice -----------------------------------------------------------------


def test_a_pasted_document_is_not_the_users_directive() -> None:
    pasted = (
        "Can you check this against our setup?\n\n"
        "# Installation\n\nAlways run `make bootstrap` first.\n\n"
        "## Usage\n\nNever edit generated files.\n"
    )
    assert directives_in(pasted) == []
    typed = "Always run `make bootstrap` first.\n\n# Notes\n\nsomething pasted"
    assert directives_in(typed) == ["Always run `make bootstrap` first."]


def test_neither_the_first_message_nor_answers_to_questions_are_notes() -> None:
    output = 'User has answered your questions: "Which port should the API use?"="8080".'
    options = [{"label": "8080"}, {"label": "3000"}]
    question = {"questions": [{"question": "Which port should the API use?", "options": options}]}
    events = [
        user("Add a health endpoint to the API."),
        calls(tool("AskUserQuestion", question, output=output)),
        *[bash(f"pytest tests -q -k t{n}") for n in range(10)],
        calls(tool("Edit", {"file_path": "/src/api/health.py"})),
        answer("Done."),
    ]
    sections = {note.section: note.text for note in plan_notes("", extract_findings(events))}
    assert DECISIONS not in sections  # the answers were the structural notes least often right
    assert GOAL not in sections  # the session's goal: what it did, not what the next one needs
