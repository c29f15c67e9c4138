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
    # A choice naming what it is for meets another only for a thing both name.
    Case("tool for a thing", "- The OpenAI key lives in 1Password.",
         "- Use Vault for CI secrets.", N, SAME),
    Case("tool for a thing", "- The signing certificates are kept in 1Password.",
         "- We use Vault for the database passwords.", N, SAME),
    Case("tool for a thing", "- The Sentry DSN is stored in Doppler.",
         "- Use Vault for the deploy tokens.", N, SAME),
    Case("tool for a thing", "- The staging database password is kept in Bitwarden.",
         "- Use 1Password for the npm publish token.", N, SAME),
    Case("tool for a thing", "- The Stripe keys live in Doppler.",
         "- The Stripe keys are kept in Vault.", C, SAME),
    Case("tool for a thing", "- The OpenAI key lives in 1Password.",
         "- The OpenAI key is stored in Doppler.", C, SAME),
)  # fmt: skip
