"""Findings: facts about the project the agent stated — in its answers, or a sub-agent in its report
— in the languages the writer claims (`is_claimed`: English, Japanese, Portuguese)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memtab.markdown import LineKind, classify
from memtab.transcripts.events import TranscriptToolCall
from memtab.writer.offline.directives import bare_line, ended, unquoted

MAX_FINDING_CHARS = 240
MIN_FINDING_CHARS = 20
MAX_FINDINGS_PER_ANSWER = 3
# A session's findings are the few it is surest of: a run that suggests many facts drawn
# from prose teaches the user to ignore them all.
MAX_FINDINGS_PER_SESSION = 3

# What makes a line a lasting fact rather than a report, in each claimed language.
_FACT_MARKERS = re.compile(
    # English
    r"\b(?:root cause|the cause|caused by|because|the fix\b|key fix|fixed by|resolved by"
    r"|turns? out|turned out|requires?|required|needs? (?:to|a|an|the)|must (?:be|run|use|not)"
    r"|expects?|only works|does(?:n't| not) (?:work|exist|support)|won't work|instead of"
    r"|workaround|gotcha|is not supported|isn't supported|has to|have to|otherwise"
    r"|(?:runs?|listens?|served|serves) on port|default port|port \d{2,5}\b|version \d"
    r"|no such|is (?:outdated|out of date|stale)|not (?:installed|available)|there is no"
    r"|there's no|fixed it)\b|\bneeds? (?=`|--?\w)"
    # Portuguese
    r"|\b(?:porque|obsoleto|requer|precisa|em vez de|não funciona|não existe|desatualizado"
    r"|roda na porta|porta \d|versão \d)\b"
    # Japanese (no word boundaries in its script)
    r"|原因|必須|不存在|(?<!念の)ため|必要|代わりに|存在しません|存在しない|ありません|動作しません"
    r"|古い|(?<![\u30a0-\u30ff])ポート|バージョン|サポートされていません",
    re.IGNORECASE,
)
# A diagnosis ("The problem was that …", "A solução foi …") is a fact once the agent has
# finished — in its final answer or a sub-agent's report; said mid-work it is a hypothesis.
_CONCLUSION_MARKERS = re.compile(
    r"\b(?:the (?:problem|issue|bug|catch) (?:was|is)|the solution (?:was|is)"
    r"|causa raiz|o problema (?:era|é|foi|estava)|a solução (?:foi|é))\b|問題は|解決策は"
    r"|のは[、,]?[^。]{2,120}(?:ため|から|せい)(?:でした|です|だった|だ)[。]?$",
    re.IGNORECASE,
)
# A line the agent labels as its conclusion ("Root cause: CloudFront connects to the origin
# with `origin-x`", "Key rule: every new `@Entity()` needs a migration"): the label is the
# marker, whatever words follow it.
_CONCLUSION_LABEL = re.compile(
    r"^\*{0,2}(?:the )?(?:root cause|cause|fix|solution|key rule|rule|gotcha|lesson|takeaway)"
    r"\*{0,2}\s?:",
    re.IGNORECASE,
)
# Why something failed, said while the agent works ("The pre-push hook failed because of lint
# errors in `x`"): that moment's diagnosis, kept only once the agent has finished.
_FAILED_BECAUSE = re.compile(r"\bfail(?:s|ed|ing)? (?:because|due to)\b", re.IGNORECASE)
# A pointer to a line of a file (`remediation.ts:613`, `[omp.zsh:426](…)`): the code as it
# is this moment — what was changed there, or a review's pointer — for line numbers move.
# A name is read from where its run of name characters begins (`_RUN`), not from each of its
# parts: a long run of `a.a.a…` was read again from every part (quadratic).
_RUN = r"(?<![\w.-])[.-]*+\b"
_LINE_POINTER = re.compile(
    _RUN + r"[\w.-]+\.(?:py|pyi|ts|tsx|js|jsx|mjs|json|mdx?|toml|ya?ml|sh|bash|zsh|fish|ps1|rs|go"
    r"|ex|exs|rb|java|kt|swift|c|h|cc|cpp|hpp|cs|php|vue|svelte|css|scss|html|sql|lua|nu)"
    r":\d+(?:-\d+)?\b"
)
# Something concrete the fact is about: code, a path, a file name, an env var, a port. Code
# that is only punctuation (`/`, `->`) names nothing: "o código submetia o valor do input (`/`)"
# does not say which code.
_CONCRETE = re.compile(
    r"`[^`]*\w[^`]*`|" + _RUN + r"[\w.-]+/[\w./-]+|(?<![\w-])-*+\b[\w-]+\.(?:py|ts|tsx|js|json|md"
    r"|toml|ya?ml|sh|rs|go|ex|exs|lock|cfg|ini|env|css|html)\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b"
    r"|(?:port|porta|puerto|ポート|端口|포트)\s*+:?\s*+\d{2,5}\b|\b\d{2,5}\s*(?:番?ポート|端口|포트)"
)
_NOT_A_FACT = re.compile(
    r"^(?:i|i'm|i've|i'll|i'd|let me|let's|we'll|want me|would you|shall i|should i|if you"
    r"|do you|next|now|then|here's|here is|done|great|perfect|sure|ok|okay|good|all done"
    r"|right|hmm|oh|ah|wait|actually|looks like|seems|still|first|finally|expected"
    r"|need to|needs to|going to|time to"
    r"|he |vou |eu )\b"
    r"|\b(?:want me to|let me know|i can|i could|i will|if you'd like|would you like)\b"
    r"|\bI(?:'ll|'d|'m| will| need| should| must| have to| can"
    r"|(?: just)? (?:added|changed|fixed|updated|removed|made|wrote|created|moved|renamed))\b"
    # what the agent did, as a report ("Added `x` import", "Corrigi o script")
    r"|^(?:added|removed|changed|updated|fixed|created|deleted|renamed|moved|replaced"
    r"|implemented|refactored|wrote|ran|installed|configured|verified|checked|found)\b"
    # … or a changelog's line: what was done to a file ("`App.test.tsx` — Updated 3 tests")
    r"|^`[^`]+`(?: \([^)]*\))?\s*(?:—|–|-|:)\s*(?:added|removed|changed|updated|fixed"
    r"|created|deleted|renamed|moved|replaced|implemented|refactored|simplified|corrected"
    r"|reverted)\b"
    r"|^(?:vou|agora|identifiquei|encontrei|corrigi|adicionei|removi|atualizei|criei|feito"
    r"|pronto)\b"
    # advice to the user, or an offer ("To be sure, open … and check", "建议…")
    r"|\b(?:i recommend|we recommend|recommended|you (?:can|could|should|may|might)"
    r"|recomendo|você pode)\b"
    r"|(?:しましょうか|しますか|しました。?$|します。?$|しましたが|してください|下さい|おすすめ"
    r"|推奨します|確実です|と良いです|しましょう)",
    re.IGNORECASE,
)
_STATUS = re.compile(
    r"\b(?:\d+ (?:tests?|passed|failures?|errors?)|tests? pass(?:ing|ed)?|all green"
    r"|pushed|merged|committed|pr #?\d+|commit [0-9a-f]{7,}|tests? (?:fail|failing|failed)"
    # how a run went ("The task e2e passed", "bats runner executed, but … skipped"), or a
    # link to one CI run ("The [CI job](…/actions/runs/123/job/456) failed because …")
    r"|passed|executed|skipped|/actions/runs/\d+"
    r"|still fail|yet|already|currently|at the moment|right now)|まだ"
    r"|\bainda\b"  # pt: "yet" or "still": the moment
    r"|テスト(?:は|が)?(?:通|パス)|既に|すでに|\bjá (?:está|foi|é)\b",
    re.IGNORECASE,
)
# A line that leans on what came before it names its subject elsewhere: not a note alone.
_LEANS_ON_CONTEXT = re.compile(
    r"^(?:it|its|this|that|these|those|they|them|which|and|but|or|so|also|then|here"
    r"|il|elle|ils|cela|ça|et|mais|donc|dies|und|aber|esto|eso|y|pero|isso|mas"
    r"|precisa|necesita|requires?|needs?)\b"
    # no word boundary in these scripts: a line that opens on "this", "that", "and", "but"
    r"|^(?:このため|そのため|これ|それ|この|その|そして|しかし|这|那|它|이것|그것|그리고)",
    re.IGNORECASE,
)
# A Japanese connective that opens an otherwise whole sentence ("これにより、`go.mod` で指定
# された…", "ご質問の件ですが、`types.ByteType` は…"): the fact is what follows it.
_JA_CONNECTIVE = re.compile(
    r"^(?:これにより|それにより|このため|そのため|つまり|なお|ただし|ご質問の件ですが"
    r"|結論として|結論から言うと)[、,]\s*"
)
# A guess is not a fact: a line that hedges ("might", "かもしれません", "可能") is never kept.
_HEDGED = re.compile(
    r"\b(?:might|maybe|perhaps|probably|possibly|likely|unlikely|i think|i believe|i suspect"
    r"|seems?|appears? to|could be|may (?:be|need|have|not)|suggests?|would"
    r"|parece|talvez|provavelmente|pode ser|poderia|possivelmente)\b"
    r"|かもしれ|可能性|おそらく|恐らく|たぶん|多分|と思います|と思われ|ようです|みたい|らしい"
    r"|可能|大概",
    re.IGNORECASE,
)
# "It is fine", "no problem", "nothing broke": a check of the moment, not a lasting fact.
_ALL_IS_WELL = re.compile(
    r"\b(?:no (?:problem|issue)s?|not a problem|nothing to worry|works fine|is fine"
    r"|(?:that's|that is|which is) correct"
    r"|sem problemas?|não há problema)\b"
    r"|問題(?:は|が)?(?:ありません|ない|なし)|(?:崩れ|エラー|差分)なし",
    re.IGNORECASE,
)
# What the agent is about to do or offers to do: a plan, not a fact ("X にも Y を追加する必要が
# あります", "We need to update `x`", "(if needed)").
_PLAN = re.compile(
    r"\b(?:we|you) (?:need|have) to\b|\bneeds? to (?:be )?(?:add|updat|chang|fix|remov|touch)\w*"
    r"|\bif (?:needed|necessary)\b|(?:追加|修正|更新|変更|削除|実装)する必要|必要であれば|必要なら"
    r"|se necessário",
    re.IGNORECASE,
)
_KANA = re.compile(r"[\u3040-\u30ff]")
# A Japanese fact is a sentence: it ends on a predicate, not on a noun or a parenthesis (a
# list item or a status line: "レイアウト崩れなし", "PR 作成（必要であれば）").
_JAPANESE_SENTENCE_END = re.compile(r"(?:[。！]|です|ます|ません|した|ある|いる|ない|だ)\s*$")
# A sentence opening on a quoted string in code is the tail of an example, not a subject.
_QUOTED_EXAMPLE = re.compile(r"^`[\"'“]")
# A placeholder ("<name>", "{{ x }}", "TODO") — not an HTML element named in code (`<head>`).
_HTML_ELEMENT = (
    r"head|meta|link|script|style|body|html|title|div|span|img|a|p|ul|ol|li|nav|header|footer"
    r"|main|section|button|input|form|template|slot|svg"
)
_PLACEHOLDER = re.compile(
    rf"<(?!(?:{_HTML_ELEMENT})>)[A-Za-z_ -]+>|\{{\{{|\bTODO\b|\bXXX\b|\.\.\.$|…$"
)
_LABEL = re.compile(r"^\*{0,2}[\w /-]{2,30}\*{0,2}\s?:\*{0,2}\s+")
# A code review's item: something to fix or to weigh, not a fact about the project.
_REVIEW_ITEM = re.compile(
    r"^\*{0,2}(?:optional|future|nit|nitpick|minor|major|suggestion|issue|warning|critical"
    r"|high|medium|low|p[0-3])\b|\((?:from )?(?:previous|earlier) review\)|\bconsider(?:ing)?\b"
    r"|\bshould (?:use|be|call|have|check)\b|\bno (?:immediate )?action\b"
    r"|^no (?:spec(?:ification)?|tests?|docs?|documentation|validation|handling|check)s?\b",
    re.IGNORECASE,
)
# How a change went, said once it is made ("now works", "after the fix"): the session's
# news, not the project's facts.
_AFTER_THE_CHANGE = re.compile(
    r"\bnow\b|\bstill\b|\b(?:after|with) (?:the|this|that|my|our) (?:fix|change)\b|\bagora\b"
    r"|修正後|修正により",
    re.IGNORECASE,
)


# A line that opens on a verb has no subject ("Uses `X` instead of `Y`", "Extract only
# `Z`"): the fragment of a list whose heading named what it is about.
_OPENS_ON_A_VERB = re.compile(
    r"^(?:uses|used|calls|returns|determines|extracts?|adds|removes|keeps|makes|ensures"
    r"|checks|handles|creates|updates|replaces|moves|runs|reads|writes|sets|gets|takes|avoids"
    r"|prevents|allows|supports|requires|needs|consider|use|add|remove|keep|make|ensure"
    r"|check|verify|update|create|move|replace|call|extract|avoid|prefer|skip|drop|bump|wrap"
    r"|pass|return|rename|split|merge|store|load|fix|change)\b",
    re.IGNORECASE,
)
# Portuguese says a plan's step with an infinitive that opens a clause ("No `Chat`, quando
# `/model` sem argumento, chamar `onSelectModel()` em vez de listar texto."): what to do, as
# `_OPENS_ON_A_VERB` says it in English — not "A solução foi usar …", where it follows a verb.
_PT_STEP = re.compile(
    r"(?:^|[,;:]\s*)(?:adicionar|criar|chamar|usar|remover|mover|atualizar|implementar|passar"
    r"|mudar|trocar|renomear|extrair|substituir|incluir|verificar|garantir|manter|retornar"
    r"|exibir|mostrar|rodar|executar|corrigir|alterar|ajustar|definir|configurar|salvar"
    r"|carregar|importar|exportar|testar|separar)\b",
    re.IGNORECASE,
)
# A fact is said in words around the code it names: this many words outside code spans
# (CJK: characters), so "`x: "yes"` (string instead of bool)" is not a note.
MIN_PROSE_WORDS = 5
MIN_PROSE_CJK_CHARS = 10
_CODE_SPAN = re.compile(r"`[^`]*`")
_OTHER_SMALL_WORDS = re.compile(  # French, German, Spanish, Portuguese
    r"\b(?:le|la|les|des|du|une|et|est|der|die|das|und|ist|nicht|el|los|las|es|y|que|de|em"
    r"|um|uma|os|com|para|não|no|na|dessa|desta)\b",
    re.IGNORECASE,
)
_ENGLISH_WORDS = re.compile(
    r"\b(?:the|is|are|was|were|to|of|and|in|for|with|that|this|it|on|by|not|only|when)\b",
    re.IGNORECASE,
)
_CJK_CHAR = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7a3]")
_NOT_ASCII_PROSE = re.compile(r"[^\x00-\x7f“”‘’—–…→]")
_PROSE_WORD = re.compile(r"[^\W\d_]{2,}")
# A sentence opens on a capital, code, or a path ("test/runtests.jl can't be run directly").
_PATH_OPENING = r"[\w.-]+/[\w.-]"
_OPENS_ON_A_PATH = re.compile(_PATH_OPENING)
_SENTENCE_END = re.compile(rf"(?<=[.!?])\s+(?=[A-Z`]|{_PATH_OPENING})|(?<=[。！？])")
_AGENT_TOOL = re.compile(r"^(?:task|agent|spawn_agent|subagent|dispatch_agent)$", re.I)


# Claude Code's own sub-agent types whose report is no finding: `Bash` only runs commands (its
# report relays what they printed that moment: "The file `x` does not exist") and `Explore`
# reads the code to describe it ("Type checker ensures two-variable form only works with
# strings", "`min_lat` (number, required): …" — the code as it is, which says so itself).
# Across the sessions tuned on, none of the facts read in `Explore` reports was one to keep
# (7 of 7 wrong, in five projects).
_NO_FINDINGS_AGENTS = frozenset({"Bash", "Explore"})


def is_agent_report(call: TranscriptToolCall) -> bool:
    """A call that ran a sub-agent: its output is the sub-agent's report — unless the sub-agent is
    of a type that only runs commands or describes the code it read (`_NO_FINDINGS_AGENTS`)."""
    if not (_AGENT_TOOL.match(call.name) and call.has_output and not call.is_error):
        return False
    kind = call.input.get("subagent_type") if isinstance(call.input, dict) else None
    return kind not in _NO_FINDINGS_AGENTS


def facts_in_text(text: str, *, concluded: bool = False) -> list[str]:
    """The facts of one answer or report, at most `MAX_FINDINGS_PER_ANSWER`; `concluded`:
    the agent has finished (a final answer, a sub-agent's report), so its diagnosis counts."""
    return facts_in(text, concluded=concluded)[:MAX_FINDINGS_PER_ANSWER] if text else []


def facts_in(answer: str, *, concluded: bool = False) -> list[str]:
    """The lines of one answer that state a lasting fact (see the module doc)."""
    facts: list[str] = []
    lines = answer.splitlines()
    for raw_line, found in zip(lines, classify(lines, frontmatter=False), strict=True):
        if found.kind in (LineKind.FENCE, LineKind.CODE, LineKind.HEADING):
            continue
        line = bare_line(raw_line, found)
        if not line or line.startswith(("|", ">")) or line.endswith(":"):
            continue  # a table, a quote, what introduces a list
        line = line.replace("**", "")
        for sentence in _SENTENCE_END.split(line):
            fact = _fact(sentence, concluded)
            if fact is not None and fact not in facts:
                facts.append(fact)
    return facts


def _fact(sentence: str, concluded: bool) -> str | None:
    text = " ".join(sentence.split())
    if not MIN_FINDING_CHARS <= len(text) <= MAX_FINDING_CHARS or text.endswith(("?", "？")):
        return None
    # "Key fix in this session: …" keeps what follows, which must say why on its own
    body = _LABEL.sub("", _JA_CONNECTIVE.sub("", text))
    if body != text and body[:1].islower() and _CONCLUSION_LABEL.match(text):
        body = body[0].upper() + body[1:]  # "Key rule: every new `x` …" reads alone
    said = unquoted(body)
    marked = _FACT_MARKERS.search(said) or (concluded and _CONCLUSION_MARKERS.search(said))
    marked = marked or _CONCLUSION_LABEL.match(text)
    if not marked or not _CONCRETE.search(body) or (not concluded and _FAILED_BECAUSE.search(body)):
        return None
    straight = _CURLY_APOSTROPHE.sub("'", body)  # "I’d add …" is "I'd add …" to these gates
    if _NOT_A_FACT.search(straight) or _STATUS.search(body) or not stands_alone(body):
        return None
    if _HEDGED.search(straight) or _ALL_IS_WELL.search(straight) or _PLAN.search(body):
        return None  # a guess, a check of the moment, or a plan
    if _REVIEW_ITEM.search(text) or _REVIEW_ITEM.search(body) or _AFTER_THE_CHANGE.search(body):
        return None  # a review's to-do, or how the change just made went
    if _OPENS_ON_A_VERB.match(body) or _PT_STEP.search(body) or not _has_prose(body):
        return None  # a fragment (no subject, or code with a remark), or a plan's step
    if _LINE_POINTER.search(body):
        return None  # about a line of the code as it is now
    diagnosis = concluded and _CONCLUSION_MARKERS.search(body)
    if not is_english(body) and not (_FIRM.search(said) or diagnosis):
        return None  # outside English, only what is said firmly, or the final diagnosis
    if _describes_the_past(body):
        return None  # what the code was doing before the session changed it
    if _KANA.search(body) and not _JAPANESE_SENTENCE_END.search(body):
        return None
    if not _OPENS_ON_A_PATH.match(body):  # a path is written as it is
        body = body[0].upper() + body[1:]
    return ended(body)


# What a fact says most firmly: what does not work or exist, what is required, what to use
# instead — in the claimed languages.
_FIRM = re.compile(
    r"\b(?:not supported|does(?:n't| not) (?:support|exist|work)|won't work|no such|only works"
    r"|must|requires?|instead of|false positive|the fix is|outdated|out of date|stale"
    r"|não suporta|não existe|não funciona|em vez de|só funciona|apenas|falso positivo"
    r"|devem? ser|precisam? (?:ser|estar)|obsoleto|desatualizado|requer"
    r"|(?:runs?|listens?|served|serves) on port|port \d+|porta \d+|version \d[\w.]*"
    r"|versão \d[\w.]*)\b"
    r"|不存在|サポートされていません|存在しません|動作しません|のみ|代わりに|非対応|対応していません"
    r"|古い|(?:ポート|バージョン)\s*v?\d",
    re.IGNORECASE,
)


FIRM_WEIGHT = 2

# A line whose main verb says what was going on ("o callback estava sendo chamado dentro do
# `setMessages`", "…スクリプトが古い形式で、exit code 1 を返していました"): the code before the
# change that ended it — a diagnosis of the moment, not how the project is. Japanese: the
# sentence's last predicate (a closing parenthesis aside: "…なっています（v5 では…していた）"
# says how it is now); Portuguese: the past progressive anywhere in it.
_JA_PAST_PROGRESSIVE = re.compile(r"(?:てい|でい)(?:ました|た)(?:が|けど)?[。.]?$")
_JA_TRAILING_ASIDE = re.compile(r"[（(][^（）()]*[）)][。.]?$")
_PT_PAST_PROGRESSIVE = re.compile(r"\b(?:estava|estavam)\b", re.IGNORECASE)


def _describes_the_past(text: str) -> bool:
    if _KANA.search(text):
        return bool(_JA_PAST_PROGRESSIVE.search(_JA_TRAILING_ASIDE.sub("", text.strip())))
    return bool(_PT_PAST_PROGRESSIVE.search(_CODE_SPAN.sub(" ", text)))


def is_english(text: str) -> bool:
    """Whether a line's prose (outside code) is English: no CJK, no letters outside ASCII,
    and English's own small words. The rules read English best; in the other languages a
    finding must be firm (`_FIRM`) to be kept — the writer says less where it is less sure."""
    prose = _CODE_SPAN.sub(" ", text)
    if _CJK_CHAR.search(prose) or _NOT_ASCII_PROSE.search(prose):
        return False
    return bool(_ENGLISH_WORDS.search(prose)) or not _OTHER_SMALL_WORDS.search(prose)


def fact_weight(fact: str, *, told_the_user: bool) -> int:
    """How sure a finding is, to keep a session's surest (`best_facts`): a firm statement
    weighs more, and so does what the agent told the user in its final answer."""
    return (FIRM_WEIGHT if _FIRM.search(unquoted(fact)) else 1) + (1 if told_the_user else 0)


def best_facts(facts: Sequence[str], weights: dict[str, int]) -> list[str]:
    """The `MAX_FINDINGS_PER_SESSION` weightiest facts (the earlier of equal ones), in the
    order they were said."""
    ranked = sorted(range(len(facts)), key=lambda index: (-weights.get(facts[index], 1), index))
    return [facts[index] for index in sorted(ranked[:MAX_FINDINGS_PER_SESSION])]


# Codex (and many editors) write the apostrophe as U+2019: "I’d add", "that’s correct".
# Straightened for the gates that refuse a line (the markers that admit one keep their
# spelling: "doesn’t" admits nothing it did not).
_CURLY_APOSTROPHE = re.compile("[\u2018\u2019]")


def _has_prose(text: str) -> bool:
    """Whether a line says something in words, not only names code."""
    prose = _CODE_SPAN.sub(" ", text)
    if len(_CJK_CHAR.findall(prose)) >= MIN_PROSE_CJK_CHARS:
        return True
    return len(_PROSE_WORD.findall(prose)) >= MIN_PROSE_WORDS


def stands_alone(text: str) -> bool:
    """Whether a note can be read alone: it names something concrete, does not lean on
    a sentence before it ("It requires …", "and `x` instead"), and holds no placeholder."""
    text = text.strip()
    if not text or (text[0].islower() and not _OPENS_ON_A_PATH.match(text)):
        return False  # a continuation of something cut off before it
    if _LEANS_ON_CONTEXT.match(text) or _PLACEHOLDER.search(text) or _QUOTED_EXAMPLE.match(text):
        return False
    return bool(_CONCRETE.search(text))
