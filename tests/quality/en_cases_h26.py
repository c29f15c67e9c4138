"""split.txt's 2026-11-23 "h26en" blocks: English Codex sessions of four projects new to the
corpus, all by one developer — jdx/mise (a Rust dev-tool manager), jdx/hk (a Rust git-hook
runner), jdx/fnox (a Rust secrets CLI), jdx/communique (a release-notes CLI) — labelled by
reading each transcript whole BEFORE the offline writer ran on it: what a careful developer
of that project would keep, found or not. Kept apart from corpus.py and en_cases.py so the
other blocks' labels merge without conflict; corpus.py turns each row into a `WriterCase`.

Block A was run once with the rules as they were (a blind proxy figure) and then tuned on.
Block B was run once with this session's rules frozen (the honest check at the end), then
joined the tuned-on part.

Each row: name, file under tests/fixtures/shared/codex, the items (fragments one note must
all contain; `a|b` is met by either spelling), and the session's language.
"""

from __future__ import annotations

_MISE = "jdx-mise__entire-checkpoints-v1__"
_HK = "jdx-hk__entire-checkpoints-v1__"
_FNOX = "jdx-fnox__entire-checkpoints-v1__"
_COMMUNIQUE = "jdx-communique__entire-checkpoints-v1__"

Label = tuple[str, str, tuple[tuple[str, ...], ...], str]

H26_LABELS_A: tuple[Label, ...] = (
    (
        "mise: redaction wildcards matched as globs (en)",
        f"{_MISE}71__b56c467073__0__full.jsonl.gz",
        (
            ("mise run test:e2e",),  # one e2e test through the task (`… e2e/tasks/test_x`)
            ("cargo fmt",),  # `cargo fmt -- --check`, clean
            ("--lib|no library",),  # `cargo test x --lib` fails: mise has no library target
        ),
        "en",
    ),
    (
        "mise: the release workflow a tag push did not start (en)",
        f"{_MISE}a3__dbe1ca0817__0__full.jsonl.gz",
        (
            ("gh workflow run release.yml",),  # how a missed release is started by hand
            # a tag pushed from inside release-plz's workflow starts no release.yml run
            ("release.yml", "release-plz|inside a workflow|workflow token"),
        ),
        "en",
    ),
    (
        "mise: COPR's aws-lc probe needs -fPIE (en)",
        f"{_MISE}37__c30f3fe0b7__0__full.jsonl.gz",
        (
            ("bamboo",),  # the user's: `ssh bamboo` is a Linux box to test on
            ("mise run lint-fix",),  # the repository's lint suite, run green before the commit
            ("-fPIE",),  # Fedora x86_64 COPR builds: aws-lc-sys's probe needs -fPIE in LDFLAGS
        ),
        "en",
    ),
    (
        "mise: scala consolidated on mise-plugins/vfox-scala (en)",
        f"{_MISE}56__19a3025102__0__full.jsonl.gz",
        (("mise-plugins/vfox-scala",),),  # the user's decision: the org fork is canonical
        "en",
    ),
    (
        "hk: zizmor's ref-version-mismatch on pinned actions (en)",
        f"{_HK}df__56f4cfedbc__0__full.jsonl.gz",
        (
            ("zizmor", "comment"),  # a SHA-pinned action's `# vX` comment must name its tag
            ("ghcr.io/zizmorcore/zizmor",),  # zizmor is not installed: run through docker
        ),
        "en",
    ),
    (
        "hk: a bats test that raced concurrent steps (en)",
        f"{_HK}2a__d768bbbb7b__0__full.jsonl.gz",
        (
            ("mise exec -- bats",),  # bats is not on PATH: `mise exec -- bats …` works
            ("mise run test:bats",),  # `mise run test:bats:libgit2 <file>`, green
            ("depends", "concurren|order"),  # steps run concurrently: order needs `depends`
        ),
        "en",
    ),
    (
        "fnox: daemon clear clears every profile's cache (en)",
        f"{_FNOX}fe__b81ae5d175__0__full.jsonl.gz",
        (
            ("daemon clear", "all profiles|every"),  # the user's decision
            ("test/bats/bin/bats",),  # `mise run test:bats` needs GNU parallel: run bats directly
            ("mise run test:cargo",),
            ("mise run lint",),  # hk check --all --slow
            ("mise run build",),
            ("socket", "profile"),  # each profile has its own daemon socket (hash of the profile)
        ),
        "en",
    ),
    (
        "communique: the default Opus model bumped (en)",
        f"{_COMMUNIQUE}42__7d4e76cb81__0__full.jsonl.gz",
        (
            ("claude-opus-4-8",),  # the default model now (src/generate.rs)
            ("cargo +1.96.0 test|1.96",),  # rustc 1.93 cannot build kdl 6.7.1: the 1.96 toolchain
        ),
        "en",
    ),
)

# Block B: labelled blind with block A's, committed before the writer ran on it, and run only
# once, with this session's rules frozen (main 115a28a): 0.62 (8/13) / 0.64 (9/14).
H26_LABELS_B: tuple[Label, ...] = (
    (
        "mise: a trust test's grep under pipefail (en)",
        f"{_MISE}08__f468d8cae5__0__full.jsonl.gz",
        (
            ("pipefail", "grep"),  # e2e runs under pipefail: `echo … | grep -q` can SIGPIPE
            ("mise run test:e2e",),  # `mise run test:e2e tasks/test_task_include_trust`, green
            ("actions/jobs", "logs"),  # a job's log while its run is still in progress
        ),
        "en",
    ),
    (
        "mise: cache clear racing concurrent writers (en)",
        f"{_MISE}51__68a6b1dc91__0__full.jsonl.gz",
        (
            ("remove_all_with_retry",),  # the agreed design: a strict retrying file helper
            ("--lib|no library",),  # `cargo test x --lib` fails: mise has no library target
            ("mise run lint-fix",),
            ("mise run test:e2e",),  # `mise run test:e2e e2e/cli/test_cache_clear`, green
        ),
        "en",
    ),
    (
        "hk: hk util skips configuration loading (en)",
        f"{_HK}a3__e13cc6b6d2__0__full.jsonl.gz",
        (
            ("hk util", "config"),  # every builtin runs a nested `hk util`, which loaded config
            ("mise run test:bats",),  # `mise run test:bats test/config_error_handling.bats`
        ),
        "en",
    ),
    (
        "fnox: a relative store_dir resolved from its config file (en)",
        f"{_FNOX}26__0569e91552__0__full.jsonl.gz",
        (
            ("test/bats/bin/bats",),  # `mise run test:bats` needs GNU parallel: run bats directly
            ("cargo test -p fnox-core",),
            ("mise run lint",),
            ("mise run build",),
            ("crates/fnox-core",),  # the config and providers live there, not in src/
        ),
        "en",
    ),
)
