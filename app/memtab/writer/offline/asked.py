"""The session's goal: what the user's first message asks for (`goal_in`), or the title of a
plan Claude Code hands over; English only, one sentence that fits a note, a request not a report."""

from __future__ import annotations

import re

from memtab.markdown import heading
from memtab.transcripts import TranscriptToolCall
from memtab.writer.offline.answers import is_english
from memtab.writer.offline.directives import human_text
from memtab.writer.offline.language import is_claimed

MAX_GOAL_CHARS = 200
MIN_GOAL_CHARS = 8
# A goal this short must name what it is about ("Implement spotter-gqc"), not only a chore.
MIN_GOAL_WORDS = 3
_NAMES_SOMETHING = re.compile(r"\w[-_/.#]\w|\d|`")

_QUESTION_TOOL = re.compile(r"^ask_?user_?questions?$", re.IGNORECASE)
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
