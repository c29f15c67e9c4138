"""The user's standing rules, found in what the human wrote, in any of eight languages; which
language a line is in, and which the offline writer claims (docs/formats.md §10.2)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from memtab.markdown import Line, LineKind, classify, item_text

# Languages with real tuned-on sessions (tests/quality/split.txt): the writer writes what
# its prose rules find only in these.
CLAIMED_LANGUAGES = frozenset({"en", "ja", "pt"})

# A path is read from where its run of name characters begins (from each part of a long
# `a.a.a…`, the run was read again: quadratic).
_NOT_PROSE = re.compile(r"`[^`]*`|https?://\S+|(?<![\w.-])[.-]*+\b[\w.-]*/[\w./{}-]+")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")
_HAN = re.compile(r"[\u4e00-\u9fff\u3400-\u4dbf]")
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Small words (and letters) each Latin-script language has of its own; a word two of them
# share ("que", "de", "la", "no", "en") tells nothing and is left out.
_OWN_WORDS = {
    "en": _words(
        "the is are was were to of and in for with that this it on by not you be do don't "
        "never always use from at as or if when only must should"
    ),
    "pt": _words(
        "não é são estão você isso essa esse isto esta este uma um com em os do da dos "
        "das pelo pela ao tem têm deve devem sempre precisa precisam também então foi ser "
        "estar fazer ele ela seu sua eu agora aqui ainda mas já "
        # as it is often typed, without accents
        "nao voce vc entao tambem sao estao pra"
    ),
    "es": _words(
        "el los las del es un con en y usted esto eso más también tiene debe deben hay pero "
        "sí muy ahora aquí todavía hacer siempre"
    ),
    "fr": _words(
        "le les des du et est une pour avec dans pas ne qui ce cette il elle vous toujours "
        "jamais au aux sur sont c'est n'est j'ai"
    ),
    "de": _words(
        "der die das und ist nicht mit für auf ein eine zu den dem des immer nie auch wir ich "
        "bitte sind wird kein keine"
    ),
}
_OWN_LETTERS = {
    "pt": re.compile(r"[ãõ]|ção\b|ções\b"),
    "es": re.compile(r"[ñ¿¡]|ción\b|ciones\b"),
    "fr": re.compile(r"[èœù]|\b[ldjnc]'"),
    "de": re.compile(r"[äöüß]"),
}


def language_of(text: str) -> str:
    """The language a line of prose is in: "en", "ja", "zh", "ko", "pt", "es", "fr" or
    "de" (English when nothing says otherwise)."""
    prose = _NOT_PROSE.sub(" ", text)
    if _KANA.search(prose):
        return "ja"
    if _HANGUL.search(prose):
        return "ko"
    if _HAN.search(prose):
        return "zh"
    prose = prose.casefold()
    words = _WORD.findall(prose)
    scores = {language: _score(language, words, prose) for language in _OWN_WORDS}
    best = max(scores, key=lambda language: (scores[language], language == "en"))
    return best if scores[best] > scores["en"] else "en"


def _score(language: str, words: list[str], prose: str) -> int:
    """How many signs of `language` a line of (casefolded) prose shows: its own small
    words, and its own letters counted twice."""
    letters = _OWN_LETTERS.get(language)
    own = sum(word in _OWN_WORDS[language] for word in words)
    return own + (2 * len(letters.findall(prose)) if letters else 0)


def is_claimed(text: str) -> bool:
    """Whether the writer's prose rules are checked in the language of `text`."""
    return language_of(text) in CLAIMED_LANGUAGES


_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7a3]")


def ended(text: str) -> str:
    """A note's sentence with its full stop: as it is when it has one, else "。" when it is
    written in Japanese, Chinese or Korean ("…コミット時には実行しない。"), "." otherwise."""
    if text.endswith((".", "!", "?", "。", "！", "？")):
        return text
    return text + ("。" if _CJK.search(text) else ".")


MAX_DIRECTIVE_CHARS = 300
MIN_DIRECTIVE_CHARS = 8

_PRIVATE = re.compile(r"<private>.*?(?:</private>|\Z)", re.DOTALL | re.IGNORECASE)
_HARNESS_TAGS = re.compile(
    r"<(command-[a-z-]+|local-command-[a-z-]+|system-reminder|user-prompt-submit-hook)>"
    r".*?(?:</\1>|\Z)",
    re.DOTALL,
)
_INTERRUPTED = re.compile(r"^\[Request interrupted by user[^\]]*\]\s*")
_CODE = (LineKind.FENCE, LineKind.CODE)
# A message this long, or with this many headings, is a pasted document.
PASTED_LINES = 12
PASTED_CHARS = 1500
PASTED_HEADINGS = 2
_BULLET = re.compile(r"^•\s+")  # pasted from a document: no Markdown, but a list item
# Sentence ends: Latin punctuation followed by a space, or CJK full stops anywhere.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")
_QUESTION = re.compile(r"[?？]\s*$|[?？]\s")


def _alternation(words: str) -> str:
    return "|".join(re.escape(word) for word in sorted(words.split("|"), key=len, reverse=True))


# Rule words, by language. Multi-word forms are listed whole.
_RULE_WORDS = _alternation(
    # English
    "always|never|don't ever|do not ever|from now on|going forward|in the future|"
    "remember|make sure to|make sure you|prefer|avoid|"
    # French
    "toujours|jamais|désormais|dorénavant|à partir de maintenant|à l'avenir|"
    "n'oublie pas|n'oubliez pas|rappelle-toi|souviens-toi|surtout pas|préfère|préférez|"
    "évite|évitez|"
    # German
    "immer|nie|niemals|ab jetzt|von nun an|künftig|in zukunft|denk daran|merk dir|"
    "bevorzuge|vermeide|"
    # Spanish
    "siempre|nunca|jamás|a partir de ahora|de ahora en adelante|en el futuro|recuerda|"
    "prefiere|evita|"
    # Portuguese
    "sempre|nunca|jamais|a partir de agora|daqui em diante|no futuro|lembre-se|lembra-te|"
    "prefira|evite|"
    # What to use instead of what, in each: "Use pnpm instead of npm", "Instead of adding
    # yet another …, add …", "Use o pnpm em vez do npm"
    "instead of|rather than|au lieu de|au lieu d'|statt|anstatt|en lugar de|en vez de|"
    "em vez de|em vez do|em vez da|ao invés de|ao invés do|ao invés da|"
    # … as Portuguese is often typed, without its accents ("ao inves de commitar tudo")
    "ao inves de|ao inves do|ao inves da"
)
# CJK rule words that say "from now on" or "every time". Bare prohibitions (不要, 别) are
# also parts of common words (不要求 "does not require", 区别 "difference", 特别): they
# make a rule only where they open the sentence (`_CJK_PROHIBITION`).
_RULE_WORDS_CJK = (
    "总是|總是|始终|始終|永远|永遠|从不|從不|绝不|絕不|以后都|以後都|今后|今後|从现在开始|從現在開始|"
    "记住|記住|务必|務必|每次|"
    "常に|いつも|必ず|絶対に|決して|これから|覚えておいて|禁止|"
    "항상|언제나|절대|반드시|앞으로|이제부터|기억해|금지"
)
_CJK_PROHIBITION = re.compile(
    r"^(?:请|請|你)?(?:不要|別|别|不准|禁止|勿)(?!的|人)"
    r"|(?:しないで|ないで)(?:ください|下さい)?[。！!.\s]*$|ないこと[。！!.\s]*$"
    r"|(?:하지 ?마(?:세요|십시오)?|말아 ?(?:줘|주세요))[.!\s]*$"
)
# Imperative openings (Latin scripts): a verb in the imperative, with "please" forms.
_IMPERATIVE_VERBS = _alternation(
    "use|run|prefer|keep|put|write|add|avoid|stop|do|don't|do not|make|check|commit|push|"
    "please use|please run|please never|please always|"
    "utilise|utilisez|lance|lancez|préfère|préférez|évite|évitez|mets|mettez|garde|gardez|"
    "n'utilise|n'utilisez|ne fais|ne faites|ne mets|ne lance|fais|faites|écris|écrivez|"
    "verwende|verwenden sie|benutze|benutzen sie|nutze|nimm|führe|vermeide|mach|schreib|"
    "bevorzuge|"
    "usa|use|utiliza|ejecuta|evita|prefiere|haz|no uses|no hagas|escribe|pon|"
    "utilize|rode|execute|evite|prefira|faça|não use|não faça|escreva|coloque|"
    "faca|nao use|nao faça|nao faca"
)
# A Korean or Japanese request ends with these forms; a Chinese one carries these words.
# (決して "never" ends like the request して but is an adverb: a sentence ending on it was
# left unfinished.)
_KO_JA_REQUEST_END = re.compile(
    r"(?:하세요|하십시오|해라|해 줘|해줘|해 주세요|해주세요|세요|써|쓰세요|마세요|마|말아 줘|"
    r"ください|下さい|しないで|使って|使え|すること|(?<!決)して)[。！!.\s]*$"
)
# The user says again what they told the agent to do ("dotnix/claude/rulesの中に作れって言ってる",
# "pnpm を使えと言ったでしょ"): an order in the imperative, quoted — a correction, so a rule.
_JA_RESTATED_ORDER = re.compile(
    r"[えけせてねへめれげぜべぺろよ](?:って|と)言っ(?:てる|ている|てます|ています|た)"
)
# A last clause left unfinished: it ends on a rule word with nothing after it ("…作れって
# 言ってる、そこからは決して"). The note is what the user finished saying.
_JA_UNFINISHED_TAIL = re.compile(r"[、,]\s*[^、,。]*(?:決して|絶対に|必ず|常に|いつも)\s*$")
_ZH_REQUEST = re.compile(r"^(?:请|請)|[，,、]\s*(?:请|請)|务必|務必")
# "Don't <verb> …" is a prohibition, whatever the verb — but not the remarks that open the
# same way ("Don't worry", "Don't know why it fails": I don't know).
_REMARK_VERBS = (
    r"worry|bother|mind|know|think|understand|see|get\b|care|remember|recall|have|need|want"
    r"|like|seem|believe|expect|blame|panic|be sorry"
)
# "Stop sprinkling dd() through the code", "leave everything under Assets/Plugins/ alone": a ban
# on what the agent keeps doing or touches, about a thing it names (not "leave it alone").
_NEGATED_IMPERATIVE = re.compile(
    rf"^(?:don't|do not|dont)\s+(?!{_REMARK_VERBS})[a-z]{{2,}}\b"
    rf"|^stop (?!{_REMARK_VERBS})[a-z]{{2,}}ing\b"
    r"|^leave (?!(?:it|that|this|them|these|those|me|him|her)\b)[^.;—–]{1,80}?\balone\b"
    r"|^n'utilise(?:z)? pas\b|^ne (?:fais|faites|mets|mettez|touche|touchez|lance|lancez) pas\b"
    r"|^(?:benutze|verwende|nutze)\b.{0,30}\b(?:kein|keine|keinen|nicht)\b"
    r"|^no (?:uses|hagas|toques|pongas|ejecutes)\b|^n[ãa]o (?:use|fa[çc]a|mexa|coloque|rode)\b",
    re.IGNORECASE,
)
_PREFERENCE = re.compile(
    r"\b(?:i|we) (?:always |really |strongly )?prefer\b|\b(?:i|we)(?:'d| would) rather\b"
    r"|\bje préfère\b|\bnous préférons\b"
    r"|\bich bevorzuge\b|\bwir bevorzugen\b|\bich möchte lieber\b|\bprefiero\b|\bprefiro\b"
    r"|我(?:更)?(?:喜欢|喜歡|偏好)|の方が(?:好き|いい)|(?:을|를) 선호",
    re.IGNORECASE,
)
_CORRECTION = re.compile(
    rf"^(?:no|nope|non|nein|não|nao)[,.!]?\s*(?:{_IMPERATIVE_VERBS})\b", re.IGNORECASE
)
_CJK_CORRECTION = re.compile(r"^(?:아니|아뇨|いいえ|いや|不是|不对|不對)[,，、.!\s]")
_RULE_OPENING = re.compile(
    rf"^(?!never\s+mind\b)(?:please\s+|s'il te plaît,?\s+|bitte\s+)?(?:{_RULE_WORDS})\b", re.I
)
_IMPERATIVE_WITH_RULE = re.compile(
    rf"^(?:please\s+)?(?:{_IMPERATIVE_VERBS})\b.{{0,60}}?\b(?:{_RULE_WORDS})\b", re.IGNORECASE
)
_ANYWHERE = re.compile(
    r"\b(?:from now on|going forward|remember (?:that|to)|(?:you|we) (?:should|must) "
    r"(?:always|never))\b",
    re.IGNORECASE,
)
# An English rule said with a modal about its subject ("the url for the tracks … should
# always go to simplemap.safecast.org", "full schema should not be updated ever") — not a
# regret ("should never have failed") nor a subject the sentence before named ("It …").
_EN_MODAL_RULE = re.compile(
    r"^(?!(?:it|this|that|they|he|she|which)\b)"
    r".*\b(?:(?:should|must)(?: not|n't)? (?:always|never)\b(?! have\b)"
    r"|should(?: not|n't) be \w+ ever\b)",
    re.IGNORECASE,
)
# An English rule for every one of a kind ("All refences to api.safecast.org should go to
# simplemap.safecast.org") or what to do instead ("We should not display "AGENTS.md" for GitHub
# Copilot instructions, but instead "Copilot instructions""), about something it names (a
# domain, a file, a quoted label) — not "all of these should …", which leans on the message.
_EN_RULE_FOR_A_KIND = re.compile(
    r"^(?:all|every|each|any) (?!(?:of )?(?:these|those|them|this|that|it)\b)[^,;]{3,60}?"
    r"\b(?:should|must)\b|^we (?:should|must)(?: not|n't)? .*\binstead\b",
    re.IGNORECASE,
)
# What a line says in double quotes is named or quoted, not said: the "stale/error" symbol is no
# claim that anything is stale, a team's "Yarn only, never npm" no rule of the user's.
_DOUBLE_QUOTED = re.compile(r'"[^"\n]{1,80}"|“[^”\n]{1,80}”')


def unquoted(text: str) -> str:
    """`text` without what it says in double quotes."""
    return _DOUBLE_QUOTED.sub(" ", text)


_NAMES_A_THING = re.compile(r"`[^`]+`|\"[^\"]+\"|“[^”]+”|\w[./_-]\w")
# How the house works, said by the user anywhere in a sentence (English): "we always/never/only
# …", "we don't use coroutines for gameplay timing", "don't ever …", "no Boost in this project,
# ever", "in tests use std.testing.allocator, always, …", "Physics goes in FixedUpdate, full stop",
# a clause "— but never with --no-verify" or "… and always pass the request_id", "ping me before
# you change …", "— everything here comes from the one nixpkgs input"; and at its start: "We use
# StateFlow in every ViewModel", "In this repo we keep money as integer cents", "Keep every
# user-facing string in strings.xml". Not a past one-off ("and never got a reply", "we never had
# that"), nor a remark ("we don't know why").
_ONE_OFF = r"(?!\w+ed\b|been\b|had\b|was\b|were\b|did\b|got\b|went\b|saw\b|made\b|knew\b|ran\b)"
_EN_HOUSE_RULE = re.compile(
    rf"\bwe (?:always|never|only) {_ONE_OFF}[a-z]|\bwe (?:don't|do not) (?!{_REMARK_VERBS})[a-z]"
    r"|\b(?:don't|do not|never) ever\b|,\s*ever\b|\bnot ever\b"
    r"|,\s*(?:always|full stop|period)\s*(?:[,.;!—–]|$)"
    r"|(?:^|[—–;:]\s+)everything (?:here|in this (?:repo|repository|project|codebase|setup)) "
    r"(?!(?:is|was|looks|seems|works|passes|fails|breaks)\b)[a-z]{2,}s\b"
    rf"|(?:[—–;:,]|\band\b|\bbut\b)\s+(?:but\s+)?(?:always|never) (?!mind\b){_ONE_OFF}[a-z]"
    r"|\b(?:ask|ping|check with|tell) me (?:first )?before\b",
    re.IGNORECASE,
)
# The rule said after what it is about, in a clause of its own: "The slot API is Supabase behind
# a server route; don't call Supabase from the browser", "CI builds on 4.14 and 5.1, so don't use
# anything newer"; or "make sure every migration you write is reversible" — a rule for a kind.
_EN_CLAUSE_RULE = re.compile(
    rf"(?:[;:—–]|,\s*(?:so|and|but))\s+(?:please\s+)?(?:don't|do not)\s+(?!{_REMARK_VERBS})"
    r"[a-z]{2,}\b|\b(?:make sure|ensure)(?: that)? (?:every|each|all|any)\b",
    re.IGNORECASE,
)
# What to do instead of what, in the imperative, after what it is about: "Times from the API are
# UTC; display them in the studio's timezone, not the browser's" — a clause opening on a verb's
# bare form (not a subject: "…; config is X, not Y", nor "…; it's X, not Y"). At a sentence's
# start the same words are as often one task ("Fix the first one, not the second").
_SUBJECT_WORDS = (
    r"it|its|it's|this|that|these|those|they|there|here|he|she|we|i|you|the|a|an|my|our|your"
    r"|their|his|her|which|what|who|and|but|so|or|if|when|because|not|no|yes|just|only|also"
    r"|good|great|nice|fine|ok|okay|thanks|thank|sure|perfect|cool|right|wrong|yeah|well|same"
)
_EN_DO_THIS_NOT_THAT = re.compile(
    rf"[;:—–]\s+(?!(?:{_SUBJECT_WORDS})\b)[a-z]{{3,}}(?<!s)(?<!ed)(?<!ing)"
    r" (?!(?:is|are|was|were|has|have|had|will|would|can|could|should|must|does|did|do|been)\b)"
    r"(?:`[^`]*`|[^,;:.`]){2,80}?, not\b(?! (?:yet|now|really|quite|sure|bad|today|that|much)\b)",
    re.IGNORECASE,
)
# A step that gates the work ("Run the integration tests before you call it done"), and what
# to do with every new thing of a kind ("For anything new, write Svelte 5 runes", "Keep new
# tests in XCTest"): a standing rule, said in the imperative without a rule word.
_EN_GATE = re.compile(
    rf"^(?:please\s+)?(?:{_IMPERATIVE_VERBS})\b.{{0,80}}?\bbefore (?:you|we|i|committing"
    r"|pushing|merging|calling|saying|reporting|opening|tagging|releasing|deploying)\b"
    r"|^for (?:anything|everything|all|any|every|each) new\b[^,]{0,30},\s*"
    rf"(?:{_IMPERATIVE_VERBS})\b"
    r"|^(?:keep|put|write|use)\s+(?:all\s+|every\s+|any\s+)?new\s+[a-z]+s\s+(?:in|with|as|under"
    r"|using)\b",
    re.IGNORECASE,
)
_EN_HOUSE_PRACTICE = re.compile(
    r"^(?:here,? |in this (?:repo|repository|project|codebase),? )?we (?:use|build|deploy|ship)\b"
    rf"|^(?:here,? |in this (?:repo|repository|project|codebase|setup),? )we {_ONE_OFF}"
    rf"(?!{_REMARK_VERBS})[a-z]{{2,}}\b"
    r"|^(?:keep|put|store) (?:everything|every|all|each)\b",
    re.IGNORECASE,
)
# A rule said in a house's usual shapes (English): labelled one ("Team convention: every lib
# gets …", "the rule here is every route gets a <Head> …"), "Standalone components only, no
# NgModules", "Money is never a double here", where anything of a kind goes ("Anything only the
# vignettes need goes in Suggests", "anything that doesn't need the browser stays
# server-rendered"), a rule closed on "— always", a limit "for everything we send".
_EN_HOUSE_SHAPE = re.compile(
    r"^(?:(?:the|our|team|house|ground|golden) )?(?:rule|convention|policy)"
    r"(?: here| we follow| for this (?:repo|repository|project|codebase))?\s*:"
    r"|\bthe (?:rule|convention|policy) (?:here |we follow )?is\b"
    r"|^[a-z][\w -]{2,40}? only,\s+no (?!(?:worries|problem|rush|need|idea|way)\b)"
    r"|\b(?:is|are) (?:never|always) [^.;:—–]{1,40}?\bhere\b"
    r"|\b(?:anything|everything)\b[^.;:—–]{0,60}?\b(?:(?:goes|belongs|lives) (?:in|into|under)"
    r"|stays (?:[a-z]+-)?[a-z]+ed)\b"
    r"|[—–]\s*always\s*[,.;!]"
    r"|\b(?:limit|rule|requirement|constraint) for (?:everything|anything|all|every|each)\b",
    re.IGNORECASE,
)
# Where a kind of thing goes ("CLI tests live in tests/cli/", "Migrations go under
# priv/repo/migrations"): a convention about a path.
_EN_PLACE_OF_A_KIND = re.compile(
    r"\b(?:live|lives|belong|belongs|go|goes) (?:in|under|into) `?[\w.-]*/", re.IGNORECASE
)
# What holds for the moment only ("Don't change anything yet, just thinking out loud", "kill it,
# just this once", "today only: …", "don't push yet"), or leans on the message before and names
# nothing ("Don't run it."): no rule.
_NOT_STANDING = re.compile(
    r"\b(?:just this once|only this once|thinking out loud|today|tonight|tomorrow"
    r"|this (?:morning|afternoon|evening|week))\b"
    r"|^(?:don't|do not) [^.;:!?]*\byet\b"
    r"|^(?:don't|do not) [a-z]+ (?:it|that|this|them)\W*$",
    re.IGNORECASE,
)
_CJK_RULE = re.compile(_RULE_WORDS_CJK)
# Words that open a sentence without being its rule, and a link the rule is about
# ("https://…/pull/7697 Instead of adding …, add …").
_LEADING_FILLER = re.compile(
    r"^(?:(?:please|also|and|but|so|ok|okay|oh|note|btw|et|aussi|und|auch|y|también|e|também)"
    r"\b[,:]?\s+|https?://\S+\s+)+",
    re.IGNORECASE,
)
_REWRITE_PREFIXES = re.compile(
    r"^(?:remember(?: that)?|from now on|going forward|in (?:the )?future)\b[,:]?\s*", re.IGNORECASE
)


def without_filler(sentence: str) -> str:
    """A sentence without the words it opens on that say nothing ("Also, please …")."""
    return _LEADING_FILLER.sub("", sentence.strip())


def human_text(text: str) -> str:
    """What the human typed in a message: without `<private>` parts, harness injections
    (slash-command wrappers, system reminders), code fences and an interruption marker."""
    text = _HARNESS_TAGS.sub(" ", _PRIVATE.sub(" ", text))
    kinds = [line.kind for line in classify(text.splitlines(), frontmatter=False)]
    lines = zip(text.splitlines(keepends=True), kinds, strict=True)
    text = "".join(line for line, kind in lines if kind not in _CODE)
    return _INTERRUPTED.sub("", text.strip())


def looks_pasted(text: str) -> bool:
    """Whether a message reads as a pasted document rather than something typed."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > PASTED_LINES or len(text) > PASTED_CHARS:
        return True
    found = classify(text.splitlines(), frontmatter=False)
    return sum(line.kind is LineKind.HEADING for line in found) >= PASTED_HEADINGS


class StandingRules(NamedTuple):
    """The user's rules in the order stated, and apart those they took back."""

    kept: list[str]
    withdrawn: list[str]


def directives_in(text: str) -> list[str]:
    """The standing rules a human message states, one per sentence, tidied as bullets; after
    a sentence withdrawing an earlier rule (`_WITHDRAWS`), what it says to do instead ("Locally
    just run devtools::test() before you commit") is one too, read without its adverbs."""
    return _stated(text).kept


def _stated(text: str) -> StandingRules:
    """`directives_in`'s rules, and apart those the next sentence takes back at once ("Always
    bump the version. Wait, no — the release plugin does that.")."""
    directives: list[str] = []
    taken: list[str] = []
    withdrawing = False
    before = ""  # the sentence before, when it is no rule
    last: str | None = None  # the rule the sentence before states
    for sentence, listed_rule in _sentences_read(text):
        own = rule_taken_back_within(sentence)
        if own is not None:
            taken.append(own)
            before, last = "", None
            continue
        if takes_back_at_once(sentence):
            if last in directives:
                directives.remove(last)
                taken.append(last)
            elif before:
                taken.append(before)  # no rule read, but none for a model to find either
        withdrawing = withdrawing or bool(_WITHDRAWS.search(sentence))
        directive = directive_of(sentence)
        if directive is None and listed_rule and not asks(sentence):
            directive = _as_note(without_filler(sentence))
        if directive is None and withdrawing and directive_of(_LEADING_ADVERBS.sub("", sentence)):
            directive = _as_note(without_filler(sentence))  # in the user's words, adverbs too
        if directive is None and directives and _USE_INSTEAD.match(sentence):
            if _PROHIBITION.search(directives[-1]) and directives[-1] == last:
                directives[-1] = _as_note(f"{directives[-1]} {sentence}")
        elif directive is not None and len(directive.split()) < MIN_RULE_WORDS and before:
            directive = _as_note(f"{before} {directive}")
        if directive is None and before and _CALLS_IT_A_RULE.match(sentence):
            directive = _as_note(before)  # "…, no silent defaults. that's the house style."
        before = sentence if directive is None and not asks(sentence) else ""
        last = directive
        if directive and directive not in directives:
            directives.append(directive)
    return StandingRules(directives, taken)


# A rule too short to name what it is about ("Never lein.") leans on the sentence before it
# ("This is a deps.edn project, … tests are `clojure -X:test`."); a ban followed by what to use
# instead ("We don't use `any` …. Use `unknown` and narrow.") is one rule.
MIN_RULE_WORDS = 3
# The sentence after a statement says it is how the house works: "that's the house style",
# "that is our convention", "house rule."
_CALLS_IT_A_RULE = re.compile(
    r"^(?:(?:that|this)(?:'s| is) (?:the |our |a )?(?:(?:house|team|repo|project) )?"
    r"(?:style|convention|rule|policy)|(?:house|team|ground|golden) rule)\b",
    re.IGNORECASE,
)
# A line that gives the list after it as rules: "this is from CONTRIBUTING.md, stick to it:",
# "house rules from our wiki:", "our conventions:".
_GIVES_RULES = re.compile(
    r"\b(?:rules?|conventions?|guidelines?|stick to|follow|contributing(?:\.md)?|house style"
    r"|policy|standards)\b[^:]{0,80}:$",
    re.IGNORECASE,
)
_USE_INSTEAD = re.compile(r"^(?:use|prefer)\b", re.IGNORECASE)
_PROHIBITION = re.compile(r"\b(?:don't|do not|never|no|not)\b", re.IGNORECASE)


# The user takes back a rule they gave: "Scratch the check-before-every-commit thing I said
# earlier", "Forget what I told you about X", "ignore my earlier rule on Y", "… no longer applies".
_WITHDRAWS = re.compile(
    r"^(?:(?:ok|okay|actually|also|and|oh)\b[,:]?\s+)*(?:scratch|forget|ignore|disregard|drop"
    r"|cancel|undo|never mind|nevermind)\b[^.;!?]{0,80}?\b(?:(?:i|we) (?:said|told|asked|gave|wrote"
    r"|mentioned)|earlier|before|previous|(?:that|the|my) rule)\b"
    r"|\bno longer (?:applies|stands|holds)\b",
    re.IGNORECASE,
)
# Words that take back what was just said: "actually no", "no wait", "scratch that", "never mind".
_SAID_BACK = (
    r"\b(?:actually|wait|hmm|oh)\W{1,3}no\b|\bno\W{1,3}wait\b"
    r"|\b(?:scratch|scrap|forget) that\b|\bnever ?mind\b"
)
# The sentence after a rule takes it back on the spot: those words, "ugh, no", "forget it".
_TAKEN_BACK_AT_ONCE = re.compile(
    rf"{_SAID_BACK}|\bugh\W{{1,3}}no\b"
    r"|\b(?:scratch|scrap|forget|ignore|disregard) (?:that|this|it)\b",
    re.IGNORECASE,
)
# Within a sentence, only the words that take back what was just said ("ignore it" may be about
# a file the rule names: "… there's a stack.yaml, ignore it").
_TAKES_WHAT_WAS_SAID_BACK = re.compile(_SAID_BACK, re.IGNORECASE)
# A word that may stand between a rule and the words that take it back: "— actually forget that".
_LEADS_TAKING_BACK = re.compile(r"\b(?:actually|oh|no|wait|hmm|ugh)$", re.IGNORECASE)
_PUNCTUATION = " \t,;:.!…—–-"


def takes_back_at_once(sentence: str) -> bool:
    """Whether a sentence takes back the one before it ("Actually scratch that, …")."""
    return _TAKEN_BACK_AT_ONCE.search(sentence) is not None


def rule_taken_back_within(sentence: str) -> str | None:
    """The rule a sentence states and then takes back in its own words ("Always run the build
    before you push — actually forget that, CI does it."), or None."""
    found = _TAKES_WHAT_WAS_SAID_BACK.search(sentence)
    if found is None:
        return None
    head = sentence[: found.start()].rstrip(_PUNCTUATION)
    while (lead := _LEADS_TAKING_BACK.search(head)) is not None:
        head = head[: lead.start()].rstrip(_PUNCTUATION)
    return directive_of(head) if head else None


_LEADING_ADVERBS = re.compile(r"^(?:(?:just|instead|only|simply|now|\w+ly)\b,?\s+)+", re.I)
# Words that name no rule: what a withdrawal and a rule share without being about one thing.
_NO_SUBJECT_WORDS = _words(
    "the a an to of and or in on at for it its this that thing things rule rules i you we me "
    "my your our said told asked earlier before previous scratch forget ignore disregard drop "
    "cancel undo never mind always please just"
)
MIN_SHARED_WORDS = 2


def _subject_words(text: str) -> frozenset[str]:
    return frozenset(
        word for word in _WORD.findall(text.casefold()) if word not in _NO_SUBJECT_WORDS
    )


def withdrawn(text: str, rules: Sequence[str]) -> list[str]:
    """The earlier `rules` a human message takes back: for each sentence withdrawing one
    (`_WITHDRAWS`), the rule sharing the most words with it, at least `MIN_SHARED_WORDS`
    ("the check-before-every-commit thing" takes back "Always run devtools::check() before each
    commit")."""
    taken: list[str] = []
    for sentence in sentences_typed(text):
        if not _WITHDRAWS.search(sentence):
            continue
        words = _subject_words(sentence)
        shared = {rule: len(words & _subject_words(rule)) for rule in rules if rule not in taken}
        best = max(shared, key=shared.__getitem__, default=None)
        if best is not None and shared[best] >= MIN_SHARED_WORDS:
            taken.append(best)
    return taken


def standing_rules(messages: Iterable[str]) -> StandingRules:
    """The rules the human's messages state (`directives_in`), oldest first, and apart those a
    later message takes back (`withdrawn`)."""
    rules: list[str] = []
    taken: list[str] = []
    for text in messages:
        for rule in withdrawn(text, rules):
            rules.remove(rule)
            taken.append(rule)
        stated = _stated(text)
        rules += [rule for rule in stated.kept if rule not in rules]
        taken += stated.withdrawn
    return StandingRules(rules, taken)


def directive_of(sentence: str) -> str | None:
    """The standing rule one sentence of the human's states, tidied as a bullet, or None."""
    return _directive(sentence) or _obligation(sentence) or _correct_value(sentence)


def asks(sentence: str) -> bool:
    """Whether a sentence asks (a question is no rule)."""
    return bool(_QUESTION.search(sentence))


def sentences_typed(text: str) -> Iterator[str]:
    """The sentences a human typed in a message, in order, stripped: not what they pasted
    (below what they wrote), headings, quotes, shell prompts, tables or indented code."""
    for sentence, _listed in _sentences_read(text):
        yield sentence


def _sentences_read(text: str) -> Iterator[tuple[str, bool]]:
    """`sentences_typed`'s sentences, each with whether it is a whole item of a list the line
    before gives as rules ("this is from CONTRIBUTING.md, stick to it:", "house rules:"): such an
    item is read as one rule, its reason and its "e.g." with it."""
    text = human_text(text)
    if looks_pasted(text):
        text = text.split("\n\n", 1)[0]  # what the user wrote above what they pasted
        if looks_pasted(text):
            return
    lines = text.splitlines()
    rules_listed = False
    for raw_line, found in zip(lines, classify(lines, frontmatter=False), strict=True):
        line = raw_line.strip()
        if not line or found.kind is LineKind.HEADING or line.startswith((">", "$", "|")):
            continue  # a heading, a quote, a shell prompt, a table
        if raw_line.startswith("    "):
            continue  # indented: code, or what was pasted
        bare = bare_line(raw_line, found)
        if found.kind is LineKind.LIST_ITEM:
            if rules_listed:
                yield bare, True
                continue
        else:
            rules_listed = _GIVES_RULES.search(bare) is not None
        for sentence in _SENTENCE_END.split(bare):
            if sentence.strip():
                yield sentence.strip(), False


def bare_line(line: str, found: Line) -> str:
    """What a line of a message says (`found`: its kind), without the blanks around it and
    its list marker: a Markdown item's, or a `•` pasted from a document."""
    if found.kind is LineKind.LIST_ITEM:
        return item_text(line, found).strip()
    return _BULLET.sub("", line.strip()).strip()


def is_directive(sentence: str) -> bool:
    """Whether one sentence of the human's states a standing rule (see the module doc)."""
    if _QUESTION.search(sentence):
        return False
    core = _LEADING_FILLER.sub("", sentence.strip())
    if _NOT_STANDING.search(core):
        return False
    if _RULE_OPENING.match(core) or _IMPERATIVE_WITH_RULE.match(core):
        return True
    if _NEGATED_IMPERATIVE.match(core) or _CORRECTION.match(core):
        return True
    own = unquoted(core)
    if _ANYWHERE.search(own) or _PREFERENCE.search(own) or _EN_MODAL_RULE.search(own):
        return True
    if _EN_RULE_FOR_A_KIND.search(own) and _NAMES_A_THING.search(core):
        return True
    if _EN_HOUSE_RULE.search(own) or _EN_HOUSE_PRACTICE.match(own):
        return True
    if _EN_HOUSE_SHAPE.search(own):
        return True
    if _EN_PLACE_OF_A_KIND.search(own) or _EN_CLAUSE_RULE.search(own):
        return True
    if _EN_DO_THIS_NOT_THAT.search(own) or _EN_GATE.match(own):
        return True
    if _JA_RESTATED_ORDER.search(core):
        return True
    request = bool(_KO_JA_REQUEST_END.search(core) or _ZH_REQUEST.search(core))
    if _CJK_CORRECTION.match(core):
        return request
    if _CJK_PROHIBITION.search(core):
        return True
    cjk_rule = _CJK_RULE.search(core)
    return bool(cjk_rule and (cjk_rule.start() == 0 or request))


def _directive(sentence: str) -> str | None:
    sentence = _JA_UNFINISHED_TAIL.sub("", sentence)
    if not MIN_DIRECTIVE_CHARS <= len(sentence) <= MAX_DIRECTIVE_CHARS:
        return None
    if not is_directive(sentence):
        return None
    core = _LEADING_FILLER.sub("", sentence)
    rewritten = _REWRITE_PREFIXES.sub("", core).strip() or core
    if len(rewritten) < MIN_DIRECTIVE_CHARS // 2:
        return None
    return _as_note(rewritten)


# Portuguese says a rule with a modal as often as with an imperative: "Toda essa feature do
# pro-89 tem que estar em volta de uma feature flag…", "…deve existir o paywall…". The
# clause that carries it is the rule (a sentence often opens on the bug that prompted it);
# a clause that opens on the modal borrows its subject from the clause before, and one that
# opens on a pronoun or a demonstrative ("isso tem que ser possível…", "Aquela conversa deve
# …") leans on what came before: not a rule. Nor is what the user wants done now ("Agora quero
# aprimorar … tem que considerar …", "Eu quero que você pense em um novo nome …, tem que ser
# um nome vendável"): the modal says what this piece of work must do, not a standing rule.
_PT_OBLIGATION = re.compile(
    r"\b(?:tem que|têm que|tem de|têm de|deve|devem|precisa (?:ser|estar)|precisam (?:ser|estar)"
    r"|não pode|não podem)\b",
    re.IGNORECASE,
)
_OPENS_ON_MODAL = re.compile(r"^(?:tem|têm|deve|devem|precisa|precisam|não pode)\b", re.I)
_PT_LEANS_ON_CONTEXT = re.compile(
    r"^(?:isso|isto|aquilo|ele|ela|eles|elas|que|e|mas|ou|então"
    r"|aquel[ae]s?|ess[ae]s?|est[ae]s?)\b",
    re.IGNORECASE,
)
_PT_WISH_OF_THE_MOMENT = re.compile(
    r"\b(?:quero|queria|queremos|gostaria|gostaríamos|preciso que|precisamos que)\b", re.I
)
MIN_OBLIGATION_WORDS = 8
_CLAUSE_END = re.compile(r"[,;]\s+")


def _obligation(sentence: str) -> str | None:
    """A Portuguese rule said with a modal ("tem que", "deve"), as its clause (with the
    clause before when it opens on the modal), or None."""
    if _QUESTION.search(sentence) or language_of(sentence) != "pt":
        return None
    clauses = _CLAUSE_END.split(sentence.rstrip(".!"))
    for index, clause in enumerate(clauses):
        if not _PT_OBLIGATION.search(clause):
            continue
        rule = clause
        if _OPENS_ON_MODAL.match(clause) and index > 0:
            rule = f"{clauses[index - 1]}, {clause}"
        if _PT_LEANS_ON_CONTEXT.match(rule) or len(rule.split()) < MIN_OBLIGATION_WORDS:
            continue
        if _PT_WISH_OF_THE_MOMENT.search(rule):
            continue
        return _as_note(rule)
    return None


# A value the user says is the right one ("G-081QKVSS83 が正しい測定IDです"): a correction of
# the agent, kept even inside a question ("X が正しいIDなのですが、正しく設定されて
# いますか？"). The value must look like one — code, or a token with a digit or a separator —
# not "それが正しいやり方です". A token is read from
# where it begins, whole: from each of its characters, a long one was read again and again
# (each split of it tried: cubic).
_TOKEN = r"[A-Za-z0-9_.:/@+-]"
_VALUE = rf"(?P<value>`[^`]+`|(?<!{_TOKEN})(?={_TOKEN}*?(?:\d|[.:/@_-][A-Za-z0-9])){_TOKEN}++)"
_CORRECT_VALUE = re.compile(
    _VALUE + r"\s*(?:が|こそが?)\s*正しい(?P<what>[^\s、。,.!?！？]{0,12}?)(?=です|なの|だ|で|。|$)"
)


def _correct_value(sentence: str) -> str | None:
    """The value the user calls the correct one, as a note naming what it is, or None."""
    found = _CORRECT_VALUE.search(sentence)
    if found is None:
        return None
    value, what = found["value"].rstrip(".:/,-"), found["what"].strip()
    return f"{value} が正しい{what}です。" if len(value) >= MIN_VALUE_CHARS else None


MIN_VALUE_CHARS = 4


def _as_note(text: str) -> str:
    """A sentence as a directive note: one line, its first letter up (outside CJK), ended
    (a sentence the user let trail off, "…co-author...", ends on a full stop)."""
    text = _without_trailing_off(" ".join(text.split()))
    if not any("\u3040" <= c <= "\u9fff" or "\uac00" <= c <= "\ud7a3" for c in text):
        text = text[0].upper() + text[1:]
    return ended(text)


def _without_trailing_off(text: str) -> str:
    """`text` (its blanks single spaces) without the dots it trails off with: its longest
    end made of runs of two dots or more and `…`s, and the blank before it. (Read without a
    pattern: one tried from each dot of a long run read the run again and again.)"""
    body = text.rstrip(".…")
    tail = text[len(body) :]
    lone = max((i for i, c in enumerate(tail) if c == "." and _lone_dot(tail, i)), default=-1)
    if lone >= 0:
        return text[: len(body) + lone + 1]  # a lone dot ends what stays
    return body.rstrip(" ") if tail else text


def _lone_dot(tail: str, index: int) -> bool:
    """Whether the dot at `index` of `tail` is a run of one (between `…`s or ends)."""
    before = tail[index - 1] if index > 0 else ""
    after = tail[index + 1] if index + 1 < len(tail) else ""
    return before != "." and after != "."
