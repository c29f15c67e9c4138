"""Labelled note pairs for `memtab contradictions` (issue 83): style rules whose value is a
property, not an action — the case of SQL keywords, filenames, columns, headings; the
indentation; the quotes; the date and time format; the spelling; line endings, the
decimal separator, the order of a list, imports, units, a commit message's mood. The
opposite value of one thing contradicts; the same value in other words ("ALL CAPS" and
"uppercase", "two spaces" and "2-space", "ISO 8601" and "`YYYY-MM-DD`", "lowercase with
hyphens" and "kebab-case") does not, nor a value of another thing, another part of the
project, an exception, what was, a question.

Written before the readers were changed for it, in bullets, labels, prose, Claude Code's
frontmatter files, Codex's memory summary and GEMINI.md. Each case's notes are built and
read as `contradiction_voices.found` builds them.
"""

from __future__ import annotations

from support.contradiction_cases import Case

SAME = ("project:shop", "project:shop")
CLAUDE = ("claude:shop", "project:shop")
CODEX = ("codex", "project:shop")
GEMINI = ("gemini", "project:shop")
C, N = "contradiction", "neither"


def _claude(name: str, body: str) -> str:
    return (
        f"---\nname: {name}\ndescription: {name} conventions\nmetadata:\n  type: feedback\n"
        f"---\n\n{body}"
    )


CASES: tuple[Case, ...] = (
    # The opposite value of one thing.
    Case("case", "- SQL keywords in uppercase.", "- Write SQL keywords in lowercase.", C, SAME),
    Case("case", "- Filenames in kebab-case.", "- Filenames are snake_case (`order_summary.py`).",
         C, SAME),
    Case("case",
         _claude("naming", "Database columns are snake_case.\n\n**Why:** the ORM maps them."),
         "- Database columns in camelCase.", C, CLAUDE),
    Case("case", "- React component files are PascalCase.",
         "- React component files in kebab-case.", C, SAME),
    Case("case", "- Headings in Title Case.", "- Headings use sentence case.", C, SAME),
    Case("case", "- Environment variable names in SCREAMING_SNAKE_CASE.",
         "- Environment variable names are lowercase.", C, SAME),
    Case("case", "- user wants JSON keys in camelCase", "- JSON keys are snake_case.", C, CODEX),
    Case("case", "- Branch names are kebab-case (`fix-login-redirect`).",
         "- Branch names use snake_case.", C, SAME),
    Case("case", "- CSS classes in kebab-case.", "- CSS class names are camelCase.", C, SAME),
    Case("case", "- Constants in UPPER_CASE.", "- Name constants in camelCase.", C, SAME),
    Case("case", "- API routes are kebab-case (`/order-items`).", "- API routes in snake_case.",
         C, SAME),
    Case("indent", "- 2-space indent.", "- Indent with 4 spaces.", C, SAME),
    Case("indent", "- Tabs, not spaces.", "- Indent with spaces.", C, SAME),
    Case("indent", "- Indentation in YAML files: 2 spaces.", "- YAML is indented with 4 spaces.",
         C, SAME),
    Case("indent", "- Python uses 4-space indentation; never tabs.",
         "- Python files are indented with tabs.", C, SAME),
    Case("quotes", "- Use single quotes for strings.", "- Strings take double quotes.", C, SAME),
    Case("quotes", "- Use double quotes in YAML.", "- YAML strings in single quotes.", C, SAME),
    Case("date", "- Dates in the docs: ISO 8601 (YYYY-MM-DD).",
         "- Dates in the docs are written DD/MM/YYYY.", C, SAME),
    Case("date", "- Dates as `YYYY-MM-DD` everywhere.", "- Dates are written MM/DD/YYYY.", C,
         SAME),
    Case("time", "- Timestamps are stored in UTC.", "- Store timestamps in local time.", C, SAME),
    Case("time", "- Times are shown in 24-hour format.",
         "- Show times in 12-hour format with am/pm.", C, SAME),
    Case("spelling", "- British spelling in user-facing copy.",
         "- User-facing copy uses American spelling.", C, SAME),
    Case("spelling", "- Docs use American English spelling.", "- Docs are written in British "
         "English.", C, GEMINI),
    Case("other", "- Line endings: LF.", "- Use CRLF line endings.", C, SAME),
    Case("other", "- Commit messages in the imperative mood.",
         "- Write commit messages in the past tense.", C, SAME),
    Case("other", "- Prices are formatted with a decimal comma.",
         "- Use a decimal point in prices.", C, SAME),
    Case("other", "- Sort the changelog newest first.", "- Changelog entries go oldest first.", C,
         SAME),
    Case("other", "- Use relative imports inside the package.",
         "- Absolute imports only inside the package.", C, SAME),
    Case("other", "- Measurements in metric units.", "- Measurements in imperial units.", C, SAME),
    # Near misses: the same value in other words.
    Case("same", "- SQL keywords in uppercase.", "- SQL keywords in ALL CAPS.", N, SAME),
    Case("same", "- 2-space indent.", "- Indent with two spaces.", N, SAME),
    Case("same", "- Dates in ISO 8601.", "- Dates as `YYYY-MM-DD`.", N, SAME),
    Case("same", "- British spelling in user-facing copy.",
         "- User-facing copy in UK English (colour, organise).", N, SAME),
    Case("same", "- Filenames in kebab-case.", "- Filenames are lowercase with hyphens.", N,
         SAME),
    Case("same", "- Tabs, not spaces.", "- Indent with tabs.", N, SAME),
    Case("same", "- Use single quotes for strings.", "- Prefer 'single' quotes.", N, SAME),
    Case("same", "- Environment variable names in SCREAMING_SNAKE_CASE.",
         "- Environment variable names are uppercase.", N, SAME),
    Case("same", "- Never use tabs.", "- Indent with spaces.", N, SAME),
    Case("same", "- Don't write SQL keywords in lowercase.", "- SQL keywords in uppercase.", N,
         SAME),
    # Near misses: another thing, another part, an exception.
    Case("other-thing", "- SQL keywords in uppercase.", "- Table names in lowercase.", N, SAME),
    Case("other-thing", "- Filenames in kebab-case.", "- Class names in PascalCase.", N, SAME),
    Case("other-thing", "- 2-space indent in YAML.", "- 4-space indent in Python.", N, SAME),
    Case("other-thing", "- Use single quotes in JavaScript.", "- Use double quotes in Python.", N,
         SAME),
    Case("other-thing", "- Dates in ISO 8601.", "- Times in 24-hour format.", N, SAME),
    Case("other-thing", "- Database columns are snake_case.", "- JSON keys are camelCase.", N,
         SAME),
    Case("other-thing", "- Headings in Title Case.", "- Button labels in sentence case.", N, SAME),
    Case("other-thing", "- Timestamps are stored in UTC.",
         "- Show timestamps in the user's local time.", N, SAME),
    Case("other-thing", "- Commit messages in the imperative mood.",
         "- Changelog entries in the past tense.", N, SAME),
    Case("other-thing", "- Constants in UPPER_CASE.", "- Variables in camelCase.", N, SAME),
    Case("other-thing", "- Line endings: LF.", "- Windows batch files keep CRLF line endings.", N,
         SAME),
    Case("other-thing", "- Log messages start with a lowercase letter.",
         "- Error messages start with an uppercase letter.", N, SAME),
    Case("other-thing", "- The `Makefile` needs tabs.", "- Indent with spaces.", N, SAME),
    Case("other-thing", "- Log files are named by date, ISO 8601.",
         "- Dates in the UI as DD/MM/YYYY.", N, SAME),
    Case("other-thing", "- 80-column lines.", "- 2-space indent.", N, SAME),
    Case("other-thing", "- Use metric units in the app.",
         "- The US marketing site shows imperial units.", N, SAME),
    Case("other-thing", "- Relative imports in tests.", "- Absolute imports in the app package.",
         N, SAME),
    # Near misses: what was, a question, a hedge.
    Case("said", "- We used to indent with 4 spaces.", "- 2-space indent.", N, SAME),
    Case("said", "- Should filenames be kebab-case?", "- Filenames are snake_case.", N, SAME),
    Case("said", "- Either single or double quotes are fine.", "- Use single quotes.", N, SAME),
    # Written after the reader was written for the cases above, as a check of it (it was not
    # changed for these).
    Case("after", "- Commit subjects in the imperative.", "- Commit subjects in the past tense.",
         C, SAME),
    Case("after", "- Keywords in SQL are upper case.", "- SQL keywords are lowercase.", C, SAME),
    Case("after", "- Folder names: kebab-case.", "- Folder names are snake_case.", C, SAME),
    Case("after", "- Markdown files indented with 2 spaces.", "- Indent Markdown with four spaces.",
         C, SAME),
    Case("after", "- Go files are indented with tabs (gofmt).", "- Indent Go files with spaces.", C,
         SAME),
    Case("after", "- Dates on invoices are DD/MM/YYYY.", "- Invoice dates use MM/DD/YYYY.", C,
         SAME),
    Case("after", "- Use American spelling in the docs (color, organize).",
         "- The docs use British spelling.", C, SAME),
    Case("after", "- Log timestamps are in UTC.", "- Log timestamps in local time.", C, SAME),
    Case("after", "- Shell scripts keep LF line endings.", "- Shell scripts use CRLF line endings.",
         C, SAME),
    Case("after", "- Prefer double quotes in Python.", "- Single quotes in Python, please.", C,
         SAME),
    Case("after-near", "- Keywords in SQL are upper case.", "- SQL keywords: ALL CAPS.", N, SAME),
    Case("after-near", "- Folder names: kebab-case.", "- Python modules in snake_case.", N, SAME),
    Case("after-near", "- Go files are indented with tabs (gofmt).",
         "- YAML is indented with spaces.", N, SAME),
    Case("after-near", "- Use American spelling in the docs.",
         "- Legal copy keeps British spelling.", N, SAME),
    Case("after-near", "- Log timestamps are in UTC.", "- The dashboard shows local time.", N,
         SAME),
    Case("after-near", "- Dates on invoices are DD/MM/YYYY.", "- API dates are ISO 8601.", N,
         SAME),
    Case("after-near", "- Commit subjects in the imperative.",
         "- Release notes in the past tense.", N, SAME),
    Case("after-near", "- Use 2-space indentation.", "- Indentation: two spaces, never tabs.", N,
         SAME),
    Case("after-near", "- Headings in sentence case.",
         "- Product names keep their own capitalisation.", N, SAME),
    Case("after-near", "- Did we agree on tabs or spaces?", "- Indent with tabs.", N, SAME),
)  # fmt: skip
