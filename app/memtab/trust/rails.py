"""What a model may add to memory: the rails checked in code between a model and a memory
file (issue 82), for the writer (`writer.rails`) and the consolidator
(`consolidation.rails`), each giving what it was told and what its sources say.

A line a model adds is refused when it

- holds a secret (`redact.redact_outgoing` would change it: a redaction the model copied
  from what it was shown is no secret);
- restates the instructions the model was given: half or more of its word 4-grams are
  the prompt's, or it is one of the prompt's headings ("What to record");
- is a standing rule ("Always …", "Never …", "From now on …", "Make sure to …", or an item
  under a heading of rules, directives or preferences) that no source states: none of
  the rules the sources give (`rules`: the user's directives for the writer, the memory
  files for the consolidator) says what it says, by the stems of its words
  (`trust.words`, three in five);
- puts words in the user's mouth ("The user prefers …", "User wants …") that nothing
  they said (`said`) says, or speaks in the first person ("I ran the suite", "Let me
  start …") but as the user said it; or asks a question;
- says what its sources do not (`heard`: the conversation, the memory): fewer than half
  of its stems are theirs ("The project is a Flask application" of a session that never
  named Flask; "Please review and refine the content as needed"), or it quotes in
  backticks what they never hold (`goodbye.py` of a session that wrote `hello.py`);
- says nothing ("None.", "N/A").

The lines that continue a refused list item, and those under a refused heading, go with
it: kept, they would read as part of another item or section.

Precision over recall: a note that only states a fact, a command or a fix passes.
"""

from __future__ import annotations

import bisect
import copy
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from memtab.markdown import LineKind, classify, text_lines
from memtab.redact import REDACTED, redact_outgoing, redact_view
from memtab.store.text.near_duplicates import lowered_words
from memtab.trust.words import stems_of

HOLDS_A_SECRET = "it holds a secret"
IN_THE_FIRST_PERSON = "it speaks in the first person, as someone in the conversation"
ASKS = "it asks a question"
SAYS_NOTHING = "it says nothing"
RESTATES_INSTRUCTIONS = "it restates the instructions the model was given"
PUTS_WORDS_IN_THE_USERS_MOUTH = "it says the user said what they did not say"

SHINGLE_WORDS = 4
COPIED_SHARE = 0.5
STATED_SHARE = 0.6

_NOTHING = frozenset(
    {"none", "n/a", "na", "nothing", "nil", "tbd", "todo", "-", "—", "...", "redacted_secret"}
)
# A chat template's markers a model wrote out (`<tool_response>`, `<|im_end|>`): no words.
_TEMPLATE_MARKERS = frozenset(
    {"tool_call", "tool_response", "function_call", "function_calls", "function_response"}
    | {"invoke", "im_start", "im_end", "endoftext"}
)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
_SPACES = re.compile(r"\s+")
_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?")
_EMPHASIS = re.compile(r"\*{1,3}|(?<!\w)_{1,3}(?=\w)|(?<=\w)_{1,3}(?!\w)")  # not snake_case
_LABEL = re.compile(r"^(?:note|rule|directive|preference|reminder|important)\s*:\s*", re.I)
_RULE_OPENING = re.compile(
    r"^(?:please\s+)?(?:always|never|from now on|going forward|in (?:the )?future|"
    r"from this point|don'?t ever|do not ever|don'?t|do not|must|you must|you should|"
    r"we must|we should|agents? (?:must|should)|make sure|be sure to|remember to|"
    r"remember that|ensure|avoid|prefer|only ever|under no circumstances)\b",
    re.IGNORECASE,
)
_RULE_ANYWHERE = re.compile(
    r"\b(?:from now on|going forward|every time|at all times|whenever you|"
    r"(?:you|we|agents?) (?:should|must) (?:always|never))\b",
    re.IGNORECASE,
)
_RULE_HEADING = re.compile(
    r"\b(?:directives?|rules?|preferences?|conventions?|guidelines?|instructions?|"
    r"policies|policy|standing orders?)\b",
    re.IGNORECASE,
)
_USERS_WORDS = re.compile(
    r"\b(?:the )?user(?:'s)?\s+(?:\w+\s+)?(?:prefers?|preferences?|wants?|likes?|dislikes?|"
    r"hates?|asked|asks|requests?|requested|said|says|insists?|requires?|expects?|needs?|"
    r"always|never|would like|wishes?)\b|\bmy preference\b",
    re.IGNORECASE,
)
_FIRST_PERSON = re.compile(
    r"^(?:i|i'm|i've|i'll|i'd|we|we've|my|our)\b|\b(?:let me|let's|i'll|i will|i'm|i am|i've)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Refused:
    """A line a model added that the rails refused, and why."""

    line: str
    why: str


def instruction_shingles(instructions: str) -> frozenset[tuple[str, ...]]:
    """The word 4-grams of a prompt, for `Rails`."""
    return frozenset(_shingles(lowered_words(instructions)))


def instruction_lines(instructions: str) -> frozenset[str]:
    """A prompt's lines, bare and lower-cased: a model writing "## What to record" or
    "<memory-file>" copies one."""
    return frozenset(bare.lower() for line in text_lines(instructions) if (bare := _bare(line)))


class Rails:
    """The rails of one run (see the module doc): `instructions`, what the model was told;
    `rules`, the standing rules its sources state; `said`, what the user said;
    `unstated_rule`, why an unstated rule is refused, in the run's words."""

    def __init__(
        self,
        instructions: str,
        rules: Iterable[str],
        said: Iterable[str],
        *,
        unstated_rule: str,
        heard: str = "",
        unheard: str = "",
    ) -> None:
        """`heard`: everything the sources say (no check when empty); `unheard`: why a line
        they do not say is refused, in the run's words."""
        self._heard_text = squeezed(heard)
        self._shingles = instruction_shingles(instructions)
        self._lines = instruction_lines(instructions)
        self._rules = [stems for rule in rules if (stems := frozenset(stems_of(rule)))]
        self._said = [stems for text in said if (stems := frozenset(stems_of(text)))]
        self._heard = frozenset(stems_of(heard))
        self.unstated_rule = unstated_rule
        self.unheard = unheard

    def refusals(self, text: str, added: Iterable[int], known: str = "") -> dict[int, Refused]:
        """The lines of `text` numbered in `added` (from 0) that the rails refuse, by
        number; a line is read with the heading it stands under. `known`: what memory
        already says, a source as good as the others (a line may say it again)."""
        wanted = set(added)
        rails = self._knowing(known) if known.strip() else self
        lines = text_lines(text)
        secret = _holding_secrets(lines, wanted)
        heading = ""
        refused: dict[int, Refused] = {}
        for number, (line, kind) in enumerate(zip(lines, classify(lines), strict=True)):
            if kind.kind is LineKind.HEADING:
                heading = _bare(line)
            if number not in wanted or not line.strip():
                continue
            secret_line = number in secret
            why = HOLDS_A_SECRET if secret_line else rails.why_refused(line, kind.kind, heading)
            if why is not None:
                refused[number] = Refused(line, why)
        return with_what_goes_with_them(lines, wanted, refused)

    def why_refused(self, line: str, kind: LineKind, heading: str = "") -> str | None:
        """Why a line of kind `kind` under `heading` is refused, or None."""
        if redact_outgoing(line) != line:
            return HOLDS_A_SECRET
        if kind in (LineKind.FENCE, LineKind.RULE, LineKind.BLANK):
            return None
        bare = _bare(line)
        if self._copies_instructions(bare, part=kind is not LineKind.HEADING):
            return RESTATES_INSTRUCTIONS
        if kind in (LineKind.FRONTMATTER, LineKind.HEADING):
            return None
        if _USERS_WORDS.search(bare) and not _stated(bare, self._said):
            return PUTS_WORDS_IN_THE_USERS_MOUTH
        if _FIRST_PERSON.search(bare) and not _stated(bare, self._said):
            return IN_THE_FIRST_PERSON
        if bare.endswith("?"):
            return ASKS
        if is_standing_rule(bare, under=heading) and not _stated(bare, self._rules):
            return self.unstated_rule
        if bare.lower().rstrip(".!") in _NOTHING or _template_marker(bare):
            return SAYS_NOTHING
        if kind is LineKind.TEXT and _path_or_placeholder(bare):
            return SAYS_NOTHING  # a path or a placeholder alone: "[REDACTED_NEW_FILE_SHA]"
        if self._heard and not self._heard_of(bare):
            return self.unheard
        return None

    def _knowing(self, known: str) -> Rails:
        """These rails with `known`'s lines among the rules, what was said and heard."""
        lines = [stems for line in text_lines(known) if (stems := frozenset(stems_of(line)))]
        rails = copy.copy(self)
        rails._rules = [*self._rules, *lines]
        rails._said = [*self._said, *lines]
        if self._heard:
            rails._heard = self._heard.union(*lines)
            rails._heard_text = f"{self._heard_text}\n{squeezed(known)}"
        return rails

    def _heard_of(self, line: str) -> bool:
        """Whether the sources say at least half of what `line` says (a line of one stem
        passes: a command or a name, checked elsewhere)."""
        spans = [squeezed(span) for span in CODE_SPAN.findall(line)]
        if any(span and span not in self._heard_text for span in spans):
            return False
        stems = frozenset(stems_of(line))
        return len(stems) < 2 or len(stems & self._heard) * 2 >= len(stems)

    def _copies_instructions(self, line: str, *, part: bool) -> bool:
        """Half its word 4-grams the instructions', or the whole of one of their lines, or
        (`part`: not a heading, which the prompt names) a part of one no shorter than a
        path ("/memories/workspace/notes.md")."""
        lowered = line.lower()
        if lowered in self._lines:
            return True
        if part and len(lowered) >= 8 and any(lowered in told for told in self._lines):
            return True
        shingles = _shingles(lowered_words(line))
        if not shingles:
            return False
        copied = sum(1 for shingle in shingles if shingle in self._shingles)
        return copied / len(shingles) >= COPIED_SHARE


def with_what_goes_with_them(
    lines: Sequence[str], wanted: set[int], refused: dict[int, Refused]
) -> dict[int, Refused]:
    """`refused` and the added lines that continue a refused item, or stand under a
    refused heading, each refused as what it goes with."""
    kinds = classify(lines)
    carried: dict[int, Refused] = dict(refused)
    heading: tuple[int, Refused] | None = None  # a refused heading's level, and why
    item: Refused | None = None  # a refused list item its continuation lines go with
    for number, (line, kind) in enumerate(zip(lines, kinds, strict=True)):
        if kind.kind is LineKind.HEADING:
            level = len(line) - len(line.lstrip().lstrip("#"))
            if heading is not None and level <= heading[0]:
                heading = None
            found = refused.get(number)
            if found is not None and heading is None:
                heading = (level, found)
            item = None
            continue
        if kind.kind is LineKind.LIST_ITEM:
            item = refused.get(number)
        elif not line.strip():
            item = None
        if number in wanted and number not in carried and line.strip():
            goes_with = heading[1] if heading is not None else item
            if goes_with is not None:
                carried[number] = Refused(line, goes_with.why)
    return dict(sorted(carried.items()))


def _holding_secrets(lines: Sequence[str], wanted: set[int]) -> set[int]:
    """The lines of `wanted` a secret spans, each run of them read whole (a private key's
    lines are one secret: its body alone is no secret's shape)."""
    holding: set[int] = set()
    for first, last in _runs(sorted(wanted)):
        text = "\n".join(lines[first : last + 1])
        offsets = [0]
        for line in lines[first:last]:
            offsets.append(offsets[-1] + len(line) + 1)
        for _, hidden_start, hidden_end in redact_view(text).tokens:
            if text[hidden_start:hidden_end] == REDACTED:
                continue  # a redaction the model copied: no secret
            top = bisect.bisect_right(offsets, hidden_start) - 1
            bottom = bisect.bisect_right(offsets, max(hidden_end - 1, hidden_start)) - 1
            holding.update(range(first + top, first + bottom + 1))
    return holding


def _runs(numbers: Sequence[int]) -> Iterator[tuple[int, int]]:
    """Runs of consecutive numbers, as (first, last)."""
    start = previous = None
    for number in numbers:
        if start is None or previous is None or number != previous + 1:
            if start is not None and previous is not None:
                yield start, previous
            start = number
        previous = number
    if start is not None and previous is not None:
        yield start, previous


def is_standing_rule(line: str, *, under: str = "") -> bool:
    """Whether a memory line (its text, without list marker) states a standing rule: it
    opens on a rule word, says "from now on" or "you should always", or is an item under
    a heading of rules, directives or preferences."""
    bare = _LABEL.sub("", _bare(line))
    if _RULE_OPENING.match(bare) or _RULE_ANYWHERE.search(bare):
        return True
    return bool(under) and _RULE_HEADING.search(under) is not None and bool(bare)


def _stated(line: str, sources: Sequence[frozenset[str]]) -> bool:
    """Whether a source says what `line` says — three in five of its stems, one at least —
    the words that put it as a rule or in the user's mouth aside."""
    claim = _USERS_WORDS.sub(" ", _RULE_OPENING.sub(" ", _LABEL.sub("", line)))
    claim = _FIRST_PERSON.sub(" ", claim)
    stems = frozenset(stems_of(claim))
    if not stems:
        return False
    needed = max(1, math.ceil(STATED_SHARE * len(stems)))
    return any(len(stems & source) >= needed for source in sources)


def squeezed(text: str) -> str:
    """`text` lower-cased, its runs of white space one space: how a quote is looked up."""
    return _SPACES.sub(" ", text).strip().lower()


def _bare(line: str) -> str:
    """A line without its list marker, heading hashes and emphasis."""
    text = _MARKER.sub("", line.strip()).lstrip("#").strip()
    return _EMPHASIS.sub("", text).strip()


def _shingles(words: Sequence[str]) -> list[tuple[str, ...]]:
    if len(words) < SHINGLE_WORDS:
        return []
    return [tuple(words[i : i + SHINGLE_WORDS]) for i in range(len(words) - SHINGLE_WORDS + 1)]


def _template_marker(bare: str) -> bool:
    """Whether `bare` is a chat template's marker alone (`<tool_response>`, `</tool_call>`,
    `<|im_end|>`): what the 1.5B wrote as a whole memory file."""
    if not (bare.startswith("<") and bare.endswith(">")):
        return False
    return bare[1:-1].strip("|/ ").lower() in _TEMPLATE_MARKERS


def _path_or_placeholder(bare: str) -> bool:
    """Whether `bare` is a path or a placeholder alone (`src/main.ts`, `[REDACTED_…]`) —
    no code span, no table's row (`|---|---|`) — so no statement."""
    if any(char.isspace() for char in bare) or any(char in "`|" for char in bare):
        return False
    placeholder = bare.startswith("[") and bare.endswith("]")
    return any(char.isalnum() for char in bare) and (placeholder or "/" in bare)
