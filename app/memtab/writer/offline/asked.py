"""What the user asked for and what they answered: the session's goal and their decisions.

- The goal is what the user's first message asks the agent to do ("Implement
  spotter-gqc"), or the arguments of the slash command it opens with. Only its first
  sentence is kept, only when that is one sentence that fits a note (never cut in the
  middle), asks for something (an imperative or a request opens it, `_REQUEST`) and is
  English: in the sessions tuned on, every goal typed in another language was a problem
  report, a role, a link or a chore. Under three words it must name what it is about
  ("Implement spotter-gqc"; not "create pr"). A plan made in plan mode and handed over ("Implement
  the following plan: # <title>") gives its title as the goal, in the languages the writer
  claims (`language`).
- A decision is the user's answer to a question the agent asked through its question tool
  (Claude Code's `AskUserQuestion`): the note names the question and the choice, so it
  reads alone ("Asked "Which rig do these beads belong to?" — the user chose: No rig."),
  with what the chosen option means when the tool offered a description of it, and the
  question's explanation when only that names what the question is about.
  Yes/no answers to a question that is only about this moment are not decisions, nor is
  a remark typed in instead of choosing (it names none of the options offered), nor the
  choice of a menu a skill or slash command scripted (its instructions list the option:
  "Work on it now", "Full Workflow") — that is how the skill runs, not how the project is.
  Whether a choice lasts (a convention, not the session's next step) is told by what the
  question asks, which must be read: in a language no session checked (`language`), none
  is kept — across the sessions tuned on, answers were the structural notes least often
  right.
- A goal that only moves between branches ("Ok lets get back to main") is housekeeping.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable
from typing import Annotated

from memtab.fs.records import Checked, OrNone, Record, ValidItems
from memtab.markdown import heading
from memtab.transcripts import TranscriptToolCall
from memtab.writer.offline.answers import is_english
from memtab.writer.offline.directives import human_text, looks_pasted
from memtab.writer.offline.language import ended, is_claimed

MAX_GOAL_CHARS = 200
MIN_GOAL_CHARS = 8
# A goal this short must name what it is about ("Implement spotter-gqc"), not only a chore.
MIN_GOAL_WORDS = 3
_NAMES_SOMETHING = re.compile(r"\w[-_/.#]\w|\d|`")
_NAMES_CODE = re.compile(r"`[^`]+`|\w[-_/.#]\w")  # a command, flag, file or path
MAX_ANSWER_CHARS = 160
MAX_QUESTION_CHARS = 160
MAX_DESCRIPTION_CHARS = 160

_QUESTION_TOOL = re.compile(r"^ask_?user_?questions?$", re.IGNORECASE)
# How Claude Code says the user answered (older and newer wording).
_ANSWERED = re.compile(r"(?:User has answered your questions|Your questions have been answered):")
# The answer ends at its closing quote, before the next answer, the end, or what the user
# added to it (the option's preview, their notes).
_ANSWER_END = re.compile(r'(.*?)"(?=,\s"|\.\s|\.?\s*$|\s+(?:selected preview|user notes):)')
_COMMAND_ARGS = re.compile(r"<command-args>(.*?)(?:</command-args>|\Z)", re.DOTALL)
_NOT_HUMAN = re.compile(r"^\s*(?:<task-notification>|\[Request interrupted)")
_FIRST_SENTENCE = re.compile(r"^(.+?(?:[.!?](?=\s|$)|[。！？]))")
# "Additional feedback: …", "Error: …": text pasted in, not the user's own words.
_PASTED_LABEL = re.compile(r"^[A-Za-z][\w ]{1,30}:\s")
# A first sentence that says what is wrong ("GA4の設定が間違えているようです。") or what the
# user is after in general tells why the session started, not what to keep working on.
_REPORTS_A_PROBLEM = re.compile(
    r"\b(?:seems?|is broken|doesn't work|does not work|isn't working|not working"
    r"|what i'm trying|não est(?:á|ão)|não funciona|no está|no funciona|ne marche pas"
    r"|ne fonctionne pas|funktioniert nicht)\b|ようです|みたいです|好像|似乎|것 같",
    re.IGNORECASE,
)
# Claude Code hands a plan made in plan mode to the session that carries it out as
# "Implement the following plan:" and the plan, whose first heading is its title.
_PLAN_HANDOFF = "Implement the following plan:"
# A first sentence that is not a task of its own: a role given to the agent ("You are an
# expert in Hugo."), a link the message is about, or one that points at what follows it
# ("Add the following meta tag:", "以下のメタタグを追加してください"). (Nor is a heading:
# no request opens on one, `_REQUEST`.)
_NOT_A_TASK = re.compile(
    r"^(?:you are|you're|あなたは|你是|您是|tu es|vous êtes|você é|eres|du bist|당신은|너는)\b"
    r"|^(?:https?://|/[\w:-]+$)|:$|：$"
    r"|\b(?:the following|below|ci-dessous|suivant(?:e|s)?|folgende[nrs]?|unten|siguiente"
    r"|abaixo|seguinte)\b|以下|下面|下記|次の|아래|다음",
    re.IGNORECASE,
)
# A goal is asked for: an imperative or a request opens it. A first sentence that only
# describes ("Right now, we display a warning…", "I'm rebasing my commit onto…") is the
# context of the ask. A goal typed in another language is not kept (`goal_in`).
_REQUEST = re.compile(
    r"^(?:please |pls |ok,? |so,? |now,? )?(?:can you|could you|would you|let'?s|let us|help me"
    r"|i (?:want|need|would like|'d like) (?:you )?to|we (?:need|want) to|go ahead"
    r"|implement|add|fix|make|create|build|write|update|refactor|remove|delete|migrate|port"
    r"|convert|rename|move|support|work|set ?up|configure|investigate|debug|review|document"
    r"|improve|optimi[sz]e|clean|replace|change|upgrade|bump|introduce|extract|split|merge"
    r"|integrate|enable|disable|allow|prevent|ensure|handle|finish|continue|complete|look"
    r"|check|find|run|test|deploy|release|publish|prepare|design|draft|plan|analy[sz]e|explore"
    r"|research|generate|translate|adjust|tweak|rewrite|redesign|resolve|address|commit|push"
    r"|open|start|get|use|show|sync|install|upload|download|verify|audit|polish|clarify)\b",
    re.IGNORECASE,
)
# A first sentence that only moves between branches or syncs one: housekeeping, the same
# in every session ("Ok lets get back to main", "switch to the phase 12 branch").
_BRANCH_CHORE = re.compile(
    r"^(?:ok(?:ay)?,? |so,? |now,? )?(?:let'?s |lets |please )?(?:get|go|switch|check ?out"
    r"|move|head) (?:back )?(?:to|on|onto) (?:the )?(?:main|master|develop|trunk"
    r"|[\w./-]+ branch|branch [\w./-]+)(?: branch)?(?: again)?"
    r"(?:,? (?:and )?(?:pull|fetch|rebase)(?: in)?(?: the)?(?: latest)?)?[.!]?$",
    re.IGNORECASE,
)
_TRIVIAL_ANSWER = re.compile(
    r"^(?:yes|no|ok|okay|sure|y|n|oui|non|ja|nein|sí|si|não|sim|はい|いいえ|是|否|네|아니요)\.?$",
    re.IGNORECASE,
)


def goal_in(first_message: str) -> str | None:
    """The goal a user's first message states, as a note; None when it states none that
    fits one sentence."""
    if _NOT_HUMAN.match(first_message):
        return None
    plan = _handed_plan(first_message)
    if plan is not None:
        title = " ".join(plan.split()).rstrip(".")
        if not is_claimed(title):
            return None  # prose the writer cannot check (`language`)
        if MIN_GOAL_CHARS <= len(title) <= MAX_GOAL_CHARS:
            return f"Goal of this session: carry out the plan “{title}”."
        return None
    arguments = _COMMAND_ARGS.search(first_message)
    text = arguments.group(1) if arguments else human_text(first_message)
    paragraph = text.strip().split("\n\n", 1)[0]
    paragraph = " ".join(paragraph.split())
    sentence = _FIRST_SENTENCE.match(paragraph)  # the task; what follows says how
    if sentence is not None:
        paragraph = sentence.group(1)
    elif len(paragraph) > MAX_GOAL_CHARS:
        return None
    if not MIN_GOAL_CHARS <= len(paragraph) <= MAX_GOAL_CHARS or paragraph.endswith(("?", "？")):
        return None  # nothing that fits a note, or a question rather than a task
    if _PASTED_LABEL.match(paragraph) or _REPORTS_A_PROBLEM.search(paragraph):
        return None  # pasted feedback, or what went wrong: the session's trigger, not a goal
    if _NOT_A_TASK.search(paragraph) or not _REQUEST.match(paragraph):
        return None  # not a task of its own, or not asked for
    if len(paragraph.split()) < MIN_GOAL_WORDS and not _NAMES_SOMETHING.search(paragraph):
        return None  # "Create pr.", "Commit this": a chore, naming nothing to keep working on
    if _BRANCH_CHORE.match(paragraph):
        return None  # "Ok lets get back to main": housekeeping, not what the session is for
    if not is_english(paragraph):
        # Every goal typed in another language that the tuned-on sessions held was a
        # problem report, a role, a link or a chore: the rules cannot tell them apart there.
        return None
    goal = paragraph[0].upper() + paragraph[1:]
    if goal[-1] not in ".!?。！？)":
        goal += "."
    return f"Goal of this session, as the user put it: {goal}"


def _handed_plan(message: str) -> str | None:
    """The title of the plan a message hands over (`_PLAN_HANDOFF`, then its first line, a
    heading), or None."""
    lines = [line for line in message.splitlines() if line.strip()]
    if len(lines) < 2 or lines[0].strip() != _PLAN_HANDOFF:
        return None
    title = heading(lines[1])
    return title.text if title is not None else None


def is_question(call: TranscriptToolCall) -> bool:
    """A call of the agent's tool for asking the user a question."""
    return bool(_QUESTION_TOOL.match(call.name))


class AskedOption(Record):
    """An option the question tool offered: its label and what it means."""

    label: str
    description: OrNone[str] = None


def _asked(question: str) -> str:
    if not question.strip():
        raise ValueError("a blank question")
    return question


class AskedQuestion(Record):
    """One question of the tool's input (`AskUserQuestion`); a bad option is dropped."""

    question: Annotated[str, Checked(_asked)]
    options: ValidItems[tuple[AskedOption, ...]] = ()


class AskedQuestions(Record):
    """The question tool's input as the agent sent it: `{"questions": [...]}`, a question of
    the wrong shape dropped, the others read."""

    questions: ValidItems[tuple[AskedQuestion, ...]] = ()


def decisions_in(
    call: TranscriptToolCall, scripted: Callable[[str], bool] | None = None
) -> list[str]:
    """The user's answers to one question call, each as a note naming its question;
    `scripted`: whether an answer is an option a skill's instructions list (`SkillScripts`)."""
    output = call.output or ""
    if call.is_error or not _ANSWERED.search(output):
        return []
    asked_input = AskedQuestions.read(call.input)
    if asked_input is None:
        return []
    decisions: list[str] = []
    for item in asked_input.questions:
        question = item.question
        answered = _answer_to(question, output)
        if answered is None:
            continue
        answer = " ".join(answered.split())
        if not answer or len(answer) > MAX_ANSWER_CHARS or _TRIVIAL_ANSWER.match(answer):
            continue
        if not _is_offered(answer, item):
            continue  # typed in instead of chosen: a remark, not a decision between options
        if not is_claimed(f"{question} {answer}"):
            continue  # whether a choice lasts is read in what was asked (`language`)
        if scripted is not None and scripted(answer):
            continue  # a skill's menu: how the skill runs, not a decision about the project
        asked = _short_question(question)
        if asked is None:
            continue
        meaning = _chosen_description(answer, item)
        chose = f"{answer.rstrip('.')} — {meaning}" if meaning else answer.rstrip(".")
        decisions.append(f'Asked "{asked}" — the user chose: {ended(chose)}')
    return decisions


def _answer_to(question: str, output: str) -> str | None:
    """What the user answered to `question`, in the tool's output: after the first
    `"question"="` of a line that an answer's end follows on that line. (When one has none,
    neither has a later one of its line: each is skipped, not read to the line's end again.)"""
    asked = f'"{question}"="'
    start = output.find(asked)
    while start >= 0:
        found = _ANSWER_END.match(output, start + len(asked))
        if found is not None:
            return found.group(1)
        line_end = output.find("\n", start)
        start = output.find(asked, line_end) if line_end >= 0 else -1
    return None


def _chosen_description(answer: str, question: AskedQuestion) -> str | None:
    """What the chosen option means, as the question tool offered it: its description ("不要な
    列を除外して見やすくする。例: `--fields stars,license` で stars と license だけ表示。") — a
    label alone ("出力の絞り込み (Recommended)", "Tasks Only") seldom says what was decided.
    Its first sentence when the whole is too long; None when even that is, or there is none."""
    chosen = " ".join(answer.split()).casefold()
    for option in question.options:
        if " ".join(option.label.split()).casefold() != chosen or option.description is None:
            continue
        text = " ".join(option.description.split())
        if len(text) > MAX_DESCRIPTION_CHARS:
            first = _FIRST_SENTENCE.match(text)
            text = first.group(1) if first else ""
        return text if MIN_GOAL_CHARS <= len(text) <= MAX_DESCRIPTION_CHARS else None
    return None


def _is_offered(answer: str, question: AskedQuestion) -> bool:
    """Whether an answer chooses among the options the question offered: one of them, or
    words the user typed that name one ("pnpm, never npm")."""
    labels = [" ".join(option.label.split()).casefold() for option in question.options]
    chosen = answer.casefold()
    return any(re.search(rf"(?<!\w){re.escape(label)}(?!\w)", chosen) for label in labels if label)


def _short_question(question: str) -> str | None:
    """The question itself, without the explanation an agent adds after it — unless the
    question alone names nothing concrete and the explanation does ("あるプロバイダーに存在しない
    フィールドが指定された場合の挙動は？例: `repiq --fields stars npm:react`"): then the whole,
    when it fits."""
    whole = " ".join(question.split())
    ends = [index for index in (whole.find("?"), whole.find("？")) if index >= 0]
    text = whole[: min(ends) + 1] if ends else whole
    if (
        text != whole
        and not _NAMES_SOMETHING.search(text)
        and _NAMES_CODE.search(whole[len(text) :])
        and len(whole) <= MAX_QUESTION_CHARS
    ):
        text = whole
    return text if len(text) <= MAX_QUESTION_CHARS else None


# A skill's or slash command's instructions reach the transcript as a user message of a
# pasted document's length; the newest this many characters of them are kept.
MAX_SCRIPT_CHARS = 200_000
MIN_MENU_WORDS = 2  # a one-word option ("pnpm") may be named in any document
_RECOMMENDED = re.compile(r"\((?:recommended|default)\)", re.IGNORECASE)


class SkillScripts:
    """The instructions of the skills and slash commands a session ran, to tell the menu
    a skill scripts ("What would you like to do with this todo?" — "Work on it now", an
    option its instructions list) from a decision about the project."""

    def __init__(self) -> None:
        self._texts: deque[str] = deque()
        self._chars = 0

    def remember(self, user_text: str) -> None:
        """Keep a user message that reads as a pasted document (a skill's instructions)."""
        if not looks_pasted(user_text):
            return
        folded = " ".join(user_text.casefold().split())
        self._texts.append(folded)
        self._chars += len(folded)
        while self._chars > MAX_SCRIPT_CHARS and len(self._texts) > 1:
            self._chars -= len(self._texts.popleft())

    def lists(self, answer: str) -> bool:
        """Whether an answer (an option's label) is one the kept instructions list."""
        label = " ".join(_RECOMMENDED.sub(" ", answer).casefold().split())
        if len(label.split()) < MIN_MENU_WORDS:
            return False
        return any(label in text for text in self._texts)
