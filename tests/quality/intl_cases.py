"""split.txt's 2026-11-23 block (tuned on): more Japanese and Portuguese sessions, labelled by
reading each transcript whole before the offline writer ran on it — what a careful developer
of that project would keep, found or not. Kept apart from corpus.py so that labels of other
blocks merge without conflict; corpus.py turns each row into a `WriterCase`.

Each row: name, file under tests/fixtures/shared/claude-code, the items (fragments one note
must all contain; `a|b` is met by either spelling), and the session's language.
"""

from __future__ import annotations

_MEOW = "135yshr-meow__entire-checkpoints-v1__"
_FIT = "Viniciuscarvalho-FitToday__entire-checkpoints-v1__"

Label = tuple[str, str, tuple[tuple[str, ...], ...], str]

INTL_LABELS: tuple[Label, ...] = (
    (
        "meow: a CI failure after setup-go v6 (ja)",
        f"{_MEOW}f0__7df40725a7__0__full.jsonl.gz",
        (
            ("1.26",),  # go.mod requires go 1.26.0: CI tests no older Go
            ("GOTOOLCHAIN",),  # setup-go v6 sets GOTOOLCHAIN=local
        ),
        "ja",
    ),
    (
        "meow: a review's arity check for built-ins (ja)",
        f"{_MEOW}66__92ebc77178__0__full.jsonl.gz",
        (("go test ./...",),),
        "ja",
    ),
    (
        "meow: the site's GA4 measurement ID (ja)",
        f"{_MEOW}8a__4166fa7f5f__0__full.jsonl.gz",
        (("G-081QKVSS83",),),  # the user's correction: the right measurement ID
        "ja",
    ),
    (
        "meow: the hello example keeps its type annotations (ja)",
        f"{_MEOW}21__108c718e58__0__full.jsonl.gz",
        (
            ("型注釈|type annotation",),  # parameters and results must be annotated
            ("go run ./cmd/meow run",),  # how a .nyan program is run
            ("Nyantyu",),  # the project's placeholder names
        ),
        "ja",
    ),
    (
        "meow: security fixes from a plan (ja)",
        f"{_MEOW}b6__87f00538b6__0__full.jsonl.gz",
        (
            ("goal", "セキュリティ|security"),
            ("go test ./...",),
            ("go vet",),
            ("SECURITY.md", "SSRF|パストラバーサル|path traversal"),  # by design, documented
            ("${{", "env"),  # workflow step outputs pass through env, not ${{ }} in scripts
        ),
        "ja",
    ),
    (
        "meow: to_runes and a byte type (ja)",
        f"{_MEOW}9c__ac748559e3__0__full.jsonl.gz",
        (
            ("to_runes",),  # the user's choice: no implicit string iteration in purr
            ("ByteType|byte型|byte type",),
            ("go test ./...",),
            ("go test ./compiler/ -update",),  # regenerates the golden files
            ("go run ./cmd/meow run",),
        ),
        "ja",
    ),
    (
        "FitToday: crash and screen bugs through the feature-marker skill (pt)",
        f"{_FIT}66__1a284558a3__0__full.jsonl.gz",
        (
            ("WorkoutCompositionFlowTests",),  # failing before the change (sub-agent report)
            ("SourceKit",),  # its diagnostics are false positives; the build passes
        ),
        "pt",
    ),
    (
        "FitToday: Apple's EULA as the Terms link (pt)",
        f"{_FIT}f4__473875393c__7__full.jsonl.gz",
        (
            ("stdeula",),  # the user's decision: Apple's standard EULA
            ("RevenueCat", "dashboard"),  # the paywall's links come from the dashboard
            ("deploy.sh", "appstore"),
        ),
        "pt",
    ),
    (
        "FitToday: Terms and Privacy links on the paywall (en)",
        f"{_FIT}4d__ae7bf07b83__6__full.jsonl.gz",
        (
            ("goal", "paywall"),
            ("xcodebuild -scheme FitToday",),
            ("Localizable.strings",),  # en and pt-BR strings live there
            ("SourceKit",),
        ),
        "en",
    ),
    (
        "FitToday: the social feed behind a Remote Config flag (pt)",
        f"{_FIT}4a__8c33dc1758__1__full.jsonl.gz",
        (
            ("Remote Config", "flag"),  # the user's rule for the PRO-89 feature
            ("remoteconfig.template.json",),
            ("XCTest", "SourceKit"),
        ),
        "pt",
    ),
    (
        "FitToday: issues #41-#43 after a summary (pt)",
        f"{_FIT}74__73a72bbf1d__0__full.jsonl.gz",
        (
            ("xcodebuild -project FitToday/FitToday.xcodeproj",),
            ("26.1",),  # the test target's simulator deployment target
            ("FitOrb", "paywall"),  # the user's rule: a paywall past the free question
        ),
        "pt",
    ),
)
