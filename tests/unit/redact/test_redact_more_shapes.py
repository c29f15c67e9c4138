"""The secret families of `redact/tokens.py`: vendors' prefixed tokens, webhook URLs and
passwords as other tools take them are secrets (a leak in any memory, issue 83); their
documented placeholders and references are not."""

from __future__ import annotations

import random
import string

import pytest

from memtab.redact import REDACTED, redact_secrets
from memtab.redact.rules import secrets_named

_DRAW = random.Random(83)
LETTERS = string.ascii_letters + string.digits
HEX = "0123456789abcdef"


def _drawn(alphabet: str, size: int) -> str:
    """A value of `size` characters of `alphabet`, as random as a real token's."""
    return "".join(_DRAW.choice(alphabet) for _ in range(size))


def a(size: int) -> str:
    return _drawn(LETTERS, size)


def h(size: int) -> str:
    return _drawn(HEX, size)


SAID = {
    "a Stripe Webhook Secret": f"Stripe signs events with `whsec_{a(32)}`",
    "a Slack Token": f"Socket mode: xapp-1-A0{_drawn('ABCDEFG123', 9)}-1234567890123-{h(64)}",
    "a Twilio API Key": f"Twilio API key SID: SK{h(32)}",
    "a Mailchimp API Key": f"MAILCHIMP={h(32)}-us21",
    "a Postman API Key": f"postman key PMAK-{h(24)}-{h(34)}",
    "a New Relic Key": f"New Relic user key NRAK-{_drawn(string.ascii_uppercase, 27)}",
    "a Sentry Auth Token": f"sentry-cli auth: sntryu_{h(64)}",
    "a Databricks Token": f"databricks token dapi{h(32)}",
    "a GitLab Token": f"runner token glrt-{a(20)}",
    "a RubyGems API Key": f"gem push with rubygems_{h(48)}",
    "a Docker Hub Token": f"docker hub PAT dckr_pat_{a(27)}",
    "a Pulumi Access Token": f"PULUMI_ACCESS=pul-{h(40)}",
    "a Grafana Token": f"grafana SA token glsa_{a(32)}_{h(8)}",
    "a Supabase Secret Key": f"supabase mgmt sbp_{h(40)}",
    "a Groq API Key": f"groq: gsk_{a(52)}",
    "a LangSmith API Key": f"LANGSMITH=lsv2_pt_{h(32)}_{h(10)}",
    "a Notion Integration Token": f"notion ntn_{_drawn('0123456789', 11)}{a(35)}",
    "a HubSpot Private App Token": f"hubspot pat-na1-{h(8)}-{h(4)}-{h(4)}-{h(4)}-{h(12)}",
    "a SonarQube Token": f"SONAR=sqp_{h(40)}",
    "a Mapbox Secret Token": f"mapbox sk.eyJ{a(40)}.{a(22)}",
    "an Azure AD Client Secret": f"client secret {a(3)}8Q~{a(34)}",
    "a Discord webhook URL": f"https://discord.com/api/webhooks/1203456789012345678/{a(68)}",
    "a token in a URL": f"origin https://{a(40)}@git.northwind.io/acme/api.git",
    "a password in a .netrc line": f"machine git.northwind.io login dana password {a(14)}",
    "a password in a command": f"mysql -h db -uroot -p{a(12)} shop",
    "a token in an Authorization header": f"curl -H 'Authorization: Token {h(40)}' https://x.io",
    "a password in a connection string": f"Driver={{ODBC}};Server=db;Uid=report;Pwd={a(12)};",
    "an AWS secret access key": f"AWS Secret Access Key [None]: {_drawn(LETTERS + '/+', 40)}",
    "an Azure SAS signature": f"https://acct.blob.core.windows.net/c/f?sv=2022-11-02&sig={a(43)}",
    "a license serial": "UNITY_SERIAL=E3-Q7KX-2M9B-H4TD-8WRC-P6NZ",
    # developers.deepl.com/docs/getting-started/auth: a Free key is a UUID with `:fx` after it
    "a DeepL API Key": f"DeepL key for staging: {h(8)}-{h(4)}-{h(4)}-{h(4)}-{h(12)}:fx",
    # support.apple.com/102654: sixteen lower-case letters, shown in four groups
    "an app-specific password": "iCloud app-specific password for mbsync: qzrt-vbkm-plhw-nsdx",
    "a login's password": "- Grafana admin login: ops-admin / 7wQ!pL2x#Rk9",
    # a login's password as an e-mail address's
    "a login's password (e-mail)": "Sign-in for the store: ana.b@fastmail.com / Zr4$kWq8Lm",
}


@pytest.mark.parametrize(("what", "line"), SAID.items())
def test_each_family_is_a_secret_named_and_hidden(what: str, line: str) -> None:
    assert what.partition(" (")[0] in secrets_named(line)
    assert REDACTED in redact_secrets(line)


@pytest.mark.parametrize(
    "line",
    [
        "Stripe's docs show `whsec_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`",
        "machine git.northwind.io login dana password $GIT_TOKEN",
        "mysql -u root -p shop  (it asks for the password)",
        "redis-cli -h cache -a $REDIS_PASSWORD ping",
        "keytool -list -keystore app.jks -storepass <your-password>",
        "the SK team asked for the mysql -P 3306 port",
        "Authorization: Token <your-token>",
        "git clone https://github.com/acme/api.git",
        "see https://example.com/?sig=short",
        "SELECT * FROM users WHERE uid = 1; -- pwd: unknown",
        "adb picks the device by ANDROID_SERIAL=emulator-5554",
        "LICENSE=Apache-2.0, license: MIT",
        "UNITY_SERIAL: ${{ secrets.UNITY_SERIAL }}",
        "serial: 2024-0001-0002-0003 (the order number)",
        "LICENSE_ID=550E8400-E29B-41D4-A716-446655440000",
        "request id: 279a2e9d-83b3-c416-7e2d-f721593e42a0 (a UUID without DeepL's `:fx`)",
        "password reset link: send-from-auth-server",  # not four groups of four letters
        "Test login: admin / admin (the image's default)",
        "account: staging / production, one each",
        "Sign-in flow: web / mobile2 share the session",
    ],
)
def test_their_placeholders_references_and_prose_are_no_secret(line: str) -> None:
    assert secrets_named(line) == []


@pytest.mark.parametrize(
    ("line", "value"),
    [
        # 1000ssam/claude-config's memory (issue 94): where the secrets are kept, by name.
        (
            "- Cloudflare Worker secret: HOLIDAY_API_KEY, NEIS_API_KEY, (예정)SOLAPI_API_KEY",
            "PROD_DB_2024x",
        ),
        ("client_secret = GOOGLE_CLIENT_SECRET", "Sup3rS3cret_Value"),
        ("password: DB_PASSWORD (set in the host's environment)", "hunter2hunter2"),
    ],
)
def test_a_secrets_variable_name_is_no_secret_and_a_value_still_is(line: str, value: str) -> None:
    assert secrets_named(line) == []
    assert redact_secrets(line) == line
    assert REDACTED in redact_secrets(f"secret: {value}")  # no variable's name: a value


@pytest.mark.parametrize(
    "line",
    [
        # A Phoenix app's env printed by a tool (issue 95's second batch of sessions).
        f"SECRET_KEY_BASE={a(64)}",
        f'  secret_key_base: "{a(64)}",',
        f"export RAILS_SECRET_KEY_BASE='{a(48)}'",
        f"JWT_SECRET_B64={a(44)}",
    ],
)
def test_a_secret_named_with_its_encoding_after_it_is_hidden(line: str) -> None:
    assert REDACTED in redact_secrets(line)


@pytest.mark.parametrize("line", ["SORT_KEY_BASE=created_at", "TOKEN_BASE=/api/v2/tokens"])
def test_a_key_base_that_is_a_word_or_a_path_is_no_secret(line: str) -> None:
    assert redact_secrets(line) == line


def test_a_jwt_after_a_secret_s_name_is_read_whole() -> None:
    jwt = f"eyJ{a(30)}.eyJ{a(40)}.{a(43)}"
    assert redact_secrets(f"Staging token for the importer: {jwt}") == (
        f"Staging token for the importer: {REDACTED}"
    )
