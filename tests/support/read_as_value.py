"""Near misses of a rule or a scope read as a value (issue 83): a version in a rule's
object ("Never use Node 18 for new services") is no version in use; a number after a
tool's name ("on React 18") is no part of the project; a choice of tool that names what it
is for ("The OpenAI key lives in 1Password") says nothing of another thing's ("CI secrets
come from Vault"). Beside each shape, a contradiction of it that must still be found.
"""

from __future__ import annotations

from support.contradiction_cases import SAME, Case

C, N = "contradiction", "neither"

CASES: tuple[Case, ...] = (
    # A version ruled out is the rule's object, not the version in use.
    Case("ruled-out version", "- Never use Node 18 for new services.",
         "- We're on Node 20.", N, SAME),
    Case("ruled-out version", "- Don't pin Postgres 13 anywhere; it is end of life.",
         "- The main database runs Postgres 16.", N, SAME),
    Case("ruled-out version", "- Avoid Python 3.9 in the workers.",
         "- Workers run Python 3.12.", N, SAME),
    Case("ruled-out version", "- Do not start new projects on Java 11.",
         "- The billing service is built on Java 17.", N, SAME),
    Case("ruled-out version", "- We're on Node 20.", "- The API runs on Node 18.", C, SAME),
    # A number after a tool's name is its version, no scope.
    Case("tool version", "- The admin is on React 18.", "- The storefront is built with Vue 3.",
         N, SAME),
    Case("tool version", "- Use pnpm 9 for the docs site.", "- Use npm 10 for the web app.",
         N, SAME),
    Case("tool version", "- The workers run on Python 3.12.",
         "- The CLI is packaged with Poetry 1.8.", N, SAME),
    Case("tool version", "- We're on React 18.", "- The storefront is built with Vue.", C, SAME),
)  # fmt: skip
