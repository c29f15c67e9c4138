"""split.txt's 2026-11-23 "h25en" block (tuned on after it was measured blind): English
sessions of two projects no rule had seen — FSM1/cipher-box (a TypeScript/Rust encrypted
file store) and Safecast/safecast-map-MCP (a Go MCP server) — labelled by reading each
transcript whole BEFORE the offline writer ran on them: what a careful developer of that
project would keep, found or not. Kept apart from corpus.py so that labels of other blocks
merge without conflict; corpus.py turns each row into a `WriterCase`.

Each row: name, file under tests/fixtures/shared/claude-code, the items (fragments one note
must all contain; `a|b` is met by either spelling), and the session's language.
"""

from __future__ import annotations

_CB = "FSM1-cipher-box__entire-checkpoints-v1__"
_SC = "Safecast-safecast-map-MCP__entire-checkpoints-v1__"

Label = tuple[str, str, tuple[tuple[str, ...], ...], str]

BLIND_EN_LABELS_3: tuple[Label, ...] = (
    (
        "cipher-box: release-please PRs start no CI (en)",
        f"{_CB}d3__e476e685d1__0__full.jsonl.gz",
        # the default GITHUB_TOKEN starts no workflow on the PR it opens: a PAT secret does
        (("RELEASE_PLEASE_TOKEN|GITHUB_TOKEN",),),
        "en",
    ),
    (
        "cipher-box: AES-CTR streaming slotted after MFA (en)",
        f"{_CB}c9__61fe9a7d37__0__full.jsonl.gz",
        (
            ("CTR", "12.1"),  # the user's decision: a Phase 12.1, after MFA (still first)
            ("AES-256-GCM",),  # what every file is encrypted with today, in memory
        ),
        "en",
    ),
    (
        "cipher-box: IPNS keys, a validator fix, a todo (en)",
        f"{_CB}04__6f4c1b3b1e__5__full.jsonl.gz",
        (
            ("IPNS", "random"),  # folder IPNS keys are random (shareable), files' HKDF-derived
            ("pnpm --filter @cipherbox/crypto test",),  # the crypto package's tests, run green
            ("DeviceEntry|Ed25519", "64"),  # device public keys are Ed25519: 64 hex chars
        ),
        "en",
    ),
    (
        "cipher-box: no-explicit-any warnings in the API (en)",
        f"{_CB}58__0853e62d60__0__full.jsonl.gz",
        (
            ("pnpm api:generate",),  # the user's: OpenAPI spec + orval client + lint:fix
            ("pnpm lint:fix",),  # eslint . --fix, clean
            ("pnpm --filter api test",),  # the API's jest tests (a name, not --testPathPattern)
        ),
        "en",
    ),
    (
        "cipher-box: FullSchema is a snapshot, CodeRabbit replies (en)",
        f"{_CB}7b__a1991528fc__0__full.jsonl.gz",
        (
            # the user's rule: never update the FullSchema migration ("full schema" in the
            # user's words: that spelling added after the blind run, which wrote it so)
            ("FullSchema|full schema",),
            ("gh api", "comments"),  # how CodeRabbit's inline comments are read and answered
        ),
        "en",
    ),
    (
        "safecast: the deploy workflow stops, rsyncs, restarts (en)",
        f"{_SC}64__db4ca444b7__0__full.jsonl.gz",
        (
            ("/root/safecast-mcp-server",),  # where the binary lives on simplemap.safecast.org
            ("main", "deploy"),  # a push to main (go/cmd/**) deploys through GitHub Actions
        ),
        "en",
    ),
    (
        "safecast: track links go to simplemap, not api (en)",
        f"{_SC}cf__7ea6b10bab__0__full.jsonl.gz",
        (
            ("simplemap.safecast.org", "api.safecast.org"),  # the user's rule for track URLs
            ("go build ./cmd/mcp-server|/usr/local/go/bin",),  # go is not on PATH: the build
        ),
        "en",
    ),
    (
        "safecast: an AI disclaimer under every reply (en)",
        f"{_SC}53__15e2b1a87b__0__full.jsonl.gz",
        (("disclaimer",),),  # the user's: every assistant message ends with the disclaimer
        "en",
    ),
    (
        "safecast: /mcp-http behind CloudFront's origin (en)",
        f"{_SC}0c__fb002d4dd4__0__full.jsonl.gz",
        (
            ("origin-simplemap.safecast.org",),  # CloudFront's origin: the nginx site that routes
            ("3333",),  # the MCP server's port (the map server's 8765)
            ("safecast-deploy",),  # ssh -i ~/.ssh/safecast-deploy root@… reaches the server
        ),
        "en",
    ),
    (
        "safecast: Entire's auto-commit, the README's tools (en)",
        f"{_SC}41__ffd882bfb2__0__full.jsonl.gz",
        (("auto-commit",),),  # Entire now links every commit to the session
        "en",
    ),
)

# split.txt's 2026-11-23 "h25en second" block (tuned on after it was measured): four more
# sessions of the same two projects, labelled blind with this session's rules up to its
# skill-menu commit ("the choice of a menu a skill … scripts is no decision") and BEFORE
# the writer ran on them — a second estimate of how the rules do on sessions they were not
# written for (the projects being known, a kind one).
BLIND_EN_LABELS_4: tuple[Label, ...] = (
    (
        "cipher-box: FUSE rename on SMB investigated (en)",
        f"{_CB}92__e5c6093780__0__full.jsonl.gz",
        (),  # a hypothesis, a plan rejected, the session interrupted: nothing established
        "en",
    ),
    (
        "cipher-box: the shares tables had no CREATE migration (en)",
        f"{_CB}13__ca730c9231__1__full.jsonl.gz",
        (
            ("synchronize", "migration"),  # synchronize: true in dev/test hides a missing one
            ("migration", "server"),  # the user's: never run migrations by hand on the server
            ("pnpm --filter api build",),  # the API's build, run green
            ("sharing-workflow|11.1", "flak"),  # a known flaky E2E test (re-run the job)
        ),
        "en",
    ),
    (
        "safecast: real-time queries use the sensor tools (en)",
        f"{_SC}95__f4bcf55635__0__full.jsonl.gz",
        (
            ("sensor_current|sensor_history", "device_history"),  # which tool reads which table
            ("µSv/h|uSv/h",),  # the user's: replies give µSv/h (per tube), not CPM
        ),
        "en",
    ),
    (
        "safecast: the documentation brought up to date (en)",
        f"{_SC}52__c8f0ec9cd6__0__full.jsonl.gz",
        (
            ("docs/archive",),  # finished planning documents are moved there
            ("duckdb_client.go",),  # where the structured logging lives (LogQueryAsync)
            ("rest.go", "css"),  # the Swagger theme's CSS is embedded in rest.go
        ),
        "en",
    ),
)
