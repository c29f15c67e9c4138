"""Names a check must know: well-known developer tools, shell built-ins, and the
package managers' own commands (which are not a project's scripts)."""

from __future__ import annotations


def _names(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Programs a memory may tell an agent to run. Inline code names a command only when its
# first word is one of these (a span like `about get` is not a program `about`).
KNOWN_PROGRAMS = _names(
    """
    ag air alembic ansible ant apt apt-get asdf awk aws az bat bazel bazelisk biome
    black brew buf bun bundle bunx cabal cargo cmake composer conda curl dart deno
    direnv django-admin docker docker-compose dotnet eslint fd ffmpeg firebase flake8
    flutter fly flyctl gcloud gem gh git go goreleaser gradle grep gunicorn hatch helm
    heroku hugo isort java javac jest jq just k9s kind kubectl lerna make maturin meson
    minikube mise mix mocha mvn mypy netlify next ng nginx ninja nix node nodemon npm
    npx nvm nx openssl oxlint pdm php pip pip3 pipenv pipx pnpm pnpx podman poe poetry
    pre-commit prettier prisma psql pulumi pyenv pyright pytest python python3 rails
    rake rbenv redis-cli rg rspec ruby ruff rustc rustup rye sam sbt serverless sqlite3
    stripe supabase svelte-kit swift tox tsc tsx turbo twine uv uvicorn uvx vercel vite
    vitest volta wrangler xcodebuild yarn zig
    actionlint adb ansible-galaxy ansible-playbook argocd arduino-cli avrdude awslocal
    bq buildah cargo-binstall ccache cdk chezmoi clang clang-format clang-tidy cloc
    conan cppcheck dbmate dfu-util diesel direnv doctl dune eas eksctl esptool exiftool
    fastlane ffprobe flyway g++ gcc gdal_translate gdalinfo gdb ghc ghcup glab gofmt
    goimports golangci-lint goose gopls govulncheck grpcurl grype gsutil hadolint hcloud
    helmfile hurl hyperfine idf.py ipython istioctl jupyter k3d k6 kotlinc ktlint
    kubeseal kustomize latexmk lazygit lefthook liquibase lldb localstack luacheck
    markdownlint minicom mkcert mkdocs mlflow mongosh multipass mysql nerdctl nrfjprog
    ogr2ogr ollama openocd opam pandoc pg_dump pg_restore pgcli phpstan phpunit picocom
    platformio pio pod podman-compose probe-rs protoc pylint pyinstaller quarto rclone
    rebar3 restic rubocop scala-cli shellcheck shfmt skaffold skopeo sops sphinx-build
    sqlc sqlx staticcheck stylua swiftformat swiftlint syft templ terraform terragrunt
    tflint tippecanoe tmux tokei tofu trivy typst vagrant vcpkg vips wasm-pack west xh
    yamllint zellij
    """
)

# Task runners whose name prose uses as a word (go-task's `task`): a command only in code,
# never a program the trust readers look for in a sentence.
CODE_PROGRAMS = KNOWN_PROGRAMS | {"task"}

SHELL_BUILTINS = _names(
    """
    . : [ [[ alias bg bind break builtin case cd command continue declare dirs disown do
    done echo elif else esac eval exit export false fc fg fi for function getopts hash
    history if in jobs kill let local logout popd printf pushd pwd read readonly return
    select set shift shopt source suspend test then times trap true type typeset ulimit
    umask unalias unset until wait while
    """
)

# Each package manager's own commands: `npm test` and `pnpm install` are not scripts.
NPM_COMMANDS = _names(
    """
    access add adduser audit bugs cache ci completion config dedupe deprecate diff
    dist-tag docs doctor edit exec explain explore find-dupes fund get help help-search
    hook i init install install-ci-test install-test it link list ll ln login logout ls
    org outdated owner pack ping pkg prefix profile prune publish query r rebuild remove
    repo restart rm root search set shrinkwrap star stars start stop t team test token
    un uninstall unpublish unstar up update upgrade version view whoami x
    """
)

PNPM_COMMANDS = _names(
    """
    add approve-builds audit bin c cache cat-file cat-index catalog config create dedupe
    deploy dlx doctor env exec fetch find-hash get help i ignored-builds import info
    init install install-test it licenses link list ln login logout ls outdated pack
    patch patch-commit patch-remove prune publish rb rebuild recursive remove rm root
    run self-update server set setup start store t test un uninstall unlink up update
    upgrade view whoami why
    """
)

YARN_COMMANDS = _names(
    """
    add audit autoclean bin cache check config constraints create dedupe dlx exec
    explain generate-lock-entry global help import info init install licenses link list
    login logout node npm outdated owner pack patch patch-commit plugin policies publish
    rebuild remove run search set stage start tag team test unlink unplug up upgrade
    upgrade-interactive version versions why workspace workspaces
    """
)

BUN_COMMANDS = _names(
    """
    a add audit build c completions create exec help i info init install link outdated
    patch patch-commit pm publish remove repl rm run test unlink update upgrade why x
    """
)
