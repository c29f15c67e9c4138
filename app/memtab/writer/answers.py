"""Findings: facts about the project the agent stated — in its answers, or a sub-agent in
its report — in any of the eight languages the writer reads (English, French, German,
Spanish, Portuguese, Chinese, Japanese, Korean).

A line is kept when it states a lasting fact — a cause, a requirement, a constraint, what
works instead of what, a version, a port, something that does not exist or is out of date —
about something concrete (a file, a command, a `code` name, a port):

- "Key fix: Resolved the Dialyzer false positive by using `:otel_span.hex_trace_id/1`
  instead of manually extracting trace_id from the span context record." — kept;
- "Le serveur tourne sur le port 4000." / "`npm run lint` スクリプトは存在しません。" — kept;
- "Added OpenTelemetry dependencies", "All 297 tests passing", "Want me to continue?",
  "I'll read the worker service first.", "Parfait !" — a report of what was done, a
  status, an offer, a plan: not kept.

Each note must stand on its own: a line that leans on what came before ("It requires
`x`.", "and `y` instead") or names nothing concrete is not kept. Each kept line is one
sentence, at most `MAX_FINDING_CHARS` long (a longer one is skipped, never cut), and at
most `MAX_FINDINGS_PER_ANSWER` come from one answer or report.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memtab.transcripts import TranscriptEvent, TranscriptToolCall

MAX_FINDING_CHARS = 240
MIN_FINDING_CHARS = 20
MAX_FINDINGS_PER_ANSWER = 3

# What makes a line a lasting fact rather than a report, by language.
_FACT_MARKERS = re.compile(
    # English
    r"\b(?:root cause|the cause|caused by|because|the fix\b|key fix|fixed by|resolved by"
    r"|turns? out|turned out|requires?|required|needs? (?:to|a|an|the)|must (?:be|run|use|not)"
    r"|expects?|only works|does(?:n't| not) (?:work|exist|support)|won't work|instead of"
    r"|workaround|gotcha|is not supported|isn't supported|has to|have to|otherwise"
    r"|(?:runs?|listens?|served|serves) on port|default port|port \d{2,5}\b|version \d"
    r"|no such|is (?:outdated|out of date|stale)|not (?:installed|available)|there is no"
    r"|there's no)\b"
    # French
    r"|\b(?:parce que|car\b|à cause de|la cause|nécessite|nécessaire|il faut|doit (?:être|"
    r"utiliser|tourner)|au lieu de|ne fonctionne pas|n'existe pas|n'est pas (?:supporté|"
    r"installé|à jour)|obsolète|pas à jour|tourne sur le port|le port \d|version \d|sinon)\b"
    # German
    r"|\b(?:weil|wegen|die ursache|erfordert|benötigt|muss (?:sein|laufen)|statt|anstatt"
    r"|funktioniert nicht|existiert nicht|gibt es nicht|veraltet|läuft auf port|port \d"
    r"|version \d|sonst)\b"
    # Spanish and Portuguese
    r"|\b(?:porque|debido a|la causa|requiere|necesita|hay que|en lugar de|no funciona"
    r"|no existe|desactualizado|obsoleto|corre en el puerto|puerto \d|versión \d|requer"
    r"|precisa|em vez de|não funciona|não existe|desatualizado|roda na porta|porta \d"
    r"|versão \d)\b"
    # Chinese, Japanese, Korean (no word boundaries in these scripts)
    r"|因为|原因|需要|必须|必須|而不是|不支持|不存在|没有|過時|过时|端口|版本"
    r"|原因は|(?<!念の)ため|必要|代わりに|存在しません|存在しない|ありません|動作しません|古い"
    r"|(?<![\u30a0-\u30ff])ポート|バージョン|サポートされていません"
    r"|때문에|원인|필요|대신|존재하지 않|없습니다|작동하지 않|오래된|(?<![가-힣])포트|버전",
    re.IGNORECASE,
)
# Something concrete the fact is about: code, a path, a file name, an env var, a port.
_CONCRETE = re.compile(
    r"`[^`]+`|\b[\w.-]+/[\w./-]+|\b[\w-]+\.(?:py|ts|tsx|js|json|md|toml|ya?ml|sh|rs|go|ex|exs"
    r"|lock|cfg|ini|env|css|html)\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b"
    r"|(?:port|porta|puerto|ポート|端口|포트)\s*:?\s*\d{2,5}\b|\b\d{2,5}\s*(?:番?ポート|端口|포트)"
)
_NOT_A_FACT = re.compile(
    r"^(?:i|i'm|i've|i'll|i'd|let me|let's|we'll|want me|would you|shall i|should i|if you"
    r"|do you|next|now|then|here's|here is|done|great|perfect|sure|ok|okay|good|all done"
    r"|right|hmm|oh|ah|wait|actually|looks like|seems|still|first|finally|expected"
    r"|need to|needs to|going to|time to"
    r"|je vais|j'ai|voulez-vous|veux-tu|parfait|ich werde|ich habe|voy a|he |vou |eu )\b"
    r"|\b(?:want me to|let me know|i can|i could|i will|if you'd like|would you like)\b"
    r"|\bI(?:'ll| will| need| should| must| have to| can|'m going to)\b"
    # what the agent did, as a report ("Added `x` import", "Corrigi o script")
    r"|^(?:added|removed|changed|updated|fixed|created|deleted|renamed|moved|replaced"
    r"|implemented|refactored|wrote|ran|installed|configured|verified|checked|found)\b"
    r"|^(?:vou|agora|identifiquei|encontrei|corrigi|adicionei|removi|atualizei|criei|feito"
    r"|pronto|voy|ahora|listo|encontré|corregí|añadí|voici|maintenant|c'est fait|jetzt"
    r"|erledigt|hier ist)\b"
    # advice to the user, or an offer ("To be sure, open … and check", "建议…")
    r"|\b(?:i recommend|we recommend|recommended|you (?:can|could|should|may|might)"
    r"|recomendo|recomiendo|je recommande|vous pouvez|você pode|puedes)\b"
    r"|(?:しましょうか|しますか|しました。?$|します。?$|しましたが|してください|下さい|おすすめ"
    r"|推奨します|確実です|と良いです|しましょう|했습니다|하겠습니다|하세요|추천"
    r"|我将|我会|我已经|让我|我来|建议|推荐|你可以|可以用|^已|^好的|^明白|^需要)",
    re.IGNORECASE,
)
_STATUS = re.compile(
    r"\b(?:\d+ (?:tests?|passed|failures?|errors?)|tests? pass(?:ing|ed)?|all green"
    r"|pushed|merged|committed|pr #?\d+|commit [0-9a-f]{7,}|tests? (?:fail|failing|failed)"
    r"|still fail|yet)|还没|尚未|没有被|まだ|아직|ainda não|todavía no|pas encore|noch nicht",
    re.IGNORECASE,
)
# A line that leans on what came before it names its subject elsewhere: not a note alone.
_LEANS_ON_CONTEXT = re.compile(
    r"^(?:it|its|this|that|these|those|they|them|which|and|but|or|so|also|then|here"
    r"|il|elle|ils|cela|ça|et|mais|donc|dies|und|aber|esto|eso|y|pero|isso|mas"
    r"|precisa|necesita|requires?|needs?|このため|そのため|これ|それ|この|その|そして|しかし"
    r"|这|那|它|이것|그것|그리고)\b",
    re.IGNORECASE,
)
# A sentence opening on a quoted string in code is the tail of an example, not a subject.
_QUOTED_EXAMPLE = re.compile(r"^`[\"'“]")
_PLACEHOLDER = re.compile(r"<[A-Za-z_ -]+>|\{\{|\bTODO\b|\bXXX\b|\.\.\.$|…$")
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
_LABEL = re.compile(r"^\*{0,2}[\w ]{2,30}\*{0,2}\s?:\*{0,2}\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`])|(?<=[。！？])")
_FENCED_CODE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_TASK_RESULT = re.compile(r"<task-notification>.*?<result>(.*?)(?:</result>|\Z)", re.DOTALL)
_AGENT_TOOL = re.compile(r"^(?:task|agent|spawn_agent|subagent|dispatch_agent)$", re.I)


def findings_in_answers(events: Sequence[TranscriptEvent]) -> list[str]:
    """Facts from the final answers of the turns in `events` (oldest first), once each."""
    found: list[str] = []
    for event in events:
        if event.sidechain or event.role != "assistant" or not event.completed_turn:
            continue
        for finding in facts_in_text(event.text):
            if finding not in found:
                found.append(finding)
    return found


def is_agent_report(call: TranscriptToolCall) -> bool:
    """A call that ran a sub-agent: its output is the sub-agent's report."""
    return bool(_AGENT_TOOL.match(call.name)) and call.has_output and not call.is_error


def facts_in_reports(user_text: str) -> list[str]:
    """Facts in the results of background sub-agents, which reach the parent as a
    `<task-notification>` message."""
    found: list[str] = []
    for report in _TASK_RESULT.findall(user_text):
        found += [fact for fact in facts_in_text(report) if fact not in found]
    return found


def facts_in_text(text: str) -> list[str]:
    """The facts of one answer or report, at most `MAX_FINDINGS_PER_ANSWER`."""
    return facts_in(text)[:MAX_FINDINGS_PER_ANSWER] if text else []


def facts_in(answer: str) -> list[str]:
    """The lines of one answer that state a lasting fact (see the module doc)."""
    facts: list[str] = []
    for raw_line in _FENCED_CODE.sub("\n", answer).splitlines():
        line = _BULLET.sub("", raw_line.strip()).strip()
        if not line or line.startswith(("#", "|", ">")) or line.endswith(":"):
            continue
        line = line.replace("**", "")
        for sentence in _SENTENCE_END.split(line):
            fact = _fact(sentence)
            if fact is not None and fact not in facts:
                facts.append(fact)
    return facts


def _fact(sentence: str) -> str | None:
    text = " ".join(sentence.split())
    if not MIN_FINDING_CHARS <= len(text) <= MAX_FINDING_CHARS or text.endswith(("?", "？")):
        return None
    if not _FACT_MARKERS.search(text) or not _CONCRETE.search(text):
        return None
    body = _LABEL.sub("", text)  # "Key fix in this session: …" keeps what follows
    if _NOT_A_FACT.search(body) or _STATUS.search(body) or not stands_alone(body):
        return None
    body = body[0].upper() + body[1:]
    return body if body.endswith((".", "!", "。", "！")) else body + "."


def stands_alone(text: str) -> bool:
    """Whether a note can be read alone: it names something concrete, does not lean on
    a sentence before it ("It requires …", "and `x` instead"), and holds no placeholder."""
    text = text.strip()
    if not text or (text[0].islower() and not text.startswith("`")):
        return False  # a continuation of something cut off before it
    if _LEANS_ON_CONTEXT.match(text) or _PLACEHOLDER.search(text) or _QUOTED_EXAMPLE.match(text):
        return False
    return bool(_CONCRETE.search(text))
