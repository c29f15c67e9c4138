"""More secrets by their shape: vendors' tokens known by a documented prefix, webhook URLs
that are their own credential, and passwords as other tools take them (`.netrc`, `mysql
-pPASS`, `redis-cli -a`, `openssl -passin pass:`, keytool, ODBC's `Pwd=`, MinIO's `mc alias
set`, Bundler's `bundle config HOST user:password`). Plain data: `rules.py` makes each a
rule (a prefixed token must not continue a longer word)."""

from __future__ import annotations

PREFIXED: tuple[tuple[str, str, str, str], ...] = (
    # name, needles (lower case, one of which every match holds), pattern, what it is
    ("stripe_webhook_secret", "whsec_", r"whsec_[A-Za-z0-9]{24,}", "Stripe Webhook Secret"),
    (
        "slack_app_token",
        "xapp- xoxe",
        r"(?:xapp-[0-9]-[A-Za-z0-9-]{20,}|xoxe(?:\.xox[bp])?-[0-9]-[A-Za-z0-9-]{30,})",
        "Slack Token",
    ),
    ("twilio_api_key", "sk", r"SK[0-9a-fA-F]{32}", "Twilio API Key"),
    ("mailchimp_key", "-us", r"[0-9a-f]{32}-us[0-9]{1,2}", "Mailchimp API Key"),
    ("postman_key", "pmak-", r"PMAK-[0-9a-f]{24}-[0-9a-f]{34}", "Postman API Key"),
    (
        "new_relic_key",
        "nrak- nrii- nral nrjs-",
        r"(?:NRAK-[A-Z0-9]{27}|NRII-[A-Za-z0-9_-]{32}|NRJS-[a-f0-9]{19}|[a-f0-9]{36}NRAL)",
        "New Relic Key",
    ),
    (
        "sentry_token",
        "sntrys_ sntryu_",
        r"(?:sntrys_[A-Za-z0-9+/=_-]{40,}|sntryu_[a-f0-9]{64})",
        "Sentry Auth Token",
    ),
    ("databricks_token", "dapi", r"dapi[a-f0-9]{32}(?:-[0-9])?", "Databricks Token"),
    (
        "gitlab_other_token",
        "gldt- glrt- glptt- glcbt- glsoat- glft- glimt- glagent- gloas- gr1348941",
        r"(?:gl(?:dt|rt|ptt|cbt|soat|ft|imt|agent|oas)-[A-Za-z0-9_-]{20,}"
        r"|GR1348941[A-Za-z0-9_-]{20,})",
        "GitLab Token",
    ),
    ("rubygems_key", "rubygems_", r"rubygems_[a-f0-9]{48}", "RubyGems API Key"),
    ("nuget_key", "oy2", r"oy2[a-z0-9]{43}", "NuGet API Key"),
    ("docker_hub_token", "dckr_", r"dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,}", "Docker Hub Token"),
    (
        "terraform_cloud_token",
        "atlasv1",
        r"[a-z0-9]{14}\.atlasv1\.[a-z0-9_=-]{60,70}",
        "Terraform Cloud Token",
    ),
    ("pulumi_token", "pul-", r"pul-[a-f0-9]{40}", "Pulumi Access Token"),
    (
        "tailscale_key",
        "tskey-",
        r"tskey-(?:api|auth|client|scim|webhook)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}",
        "Tailscale Key",
    ),
    (
        "grafana_token",
        "glc_ glsa_",
        r"(?:glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})",
        "Grafana Token",
    ),
    (
        "fly_token",
        "fo1_ fm1 fm2",
        r"(?:fo1_[\w-]{43}|fm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3})",
        "Fly.io Token",
    ),
    (
        "supabase_key",
        "sbp_ sb_secret_",
        r"(?:sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,})",
        "Supabase Secret Key",
    ),
    ("age_secret_key", "age-secret-key-1", r"AGE-SECRET-KEY-1[0-9A-Z]{58}", "Age Secret Key"),
    ("groq_key", "gsk_", r"gsk_[A-Za-z0-9]{48,}", "Groq API Key"),
    ("replicate_token", "r8_", r"r8_[A-Za-z0-9]{37}", "Replicate API Token"),
    ("perplexity_key", "pplx-", r"pplx-[A-Za-z0-9]{48}", "Perplexity API Key"),
    ("xai_key", "xai-", r"xai-[A-Za-z0-9]{70,}", "xAI API Key"),
    ("langsmith_key", "lsv2_", r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}", "LangSmith API Key"),
    ("tavily_key", "tvly-", r"tvly-(?:dev-)?[A-Za-z0-9]{32}", "Tavily API Key"),
    ("pinecone_key", "pcsk_", r"pcsk_[A-Za-z0-9_]{40,}", "Pinecone API Key"),
    (
        "notion_token",
        "secret_ ntn_",
        r"(?:secret_[A-Za-z0-9]{43}|ntn_[0-9]{11}[A-Za-z0-9]{35})",
        "Notion Integration Token",
    ),
    ("airtable_token", "pat", r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}", "Airtable Token"),
    (
        "hubspot_token",
        "pat-na pat-eu",
        r"pat-(?:na|eu)[12]-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}",
        "HubSpot Private App Token",
    ),
    ("buildkite_token", "bkua_", r"bkua_[a-f0-9]{40}", "Buildkite API Token"),
    ("circleci_token", "ccipat_", r"CCIPAT_[A-Za-z0-9]{22}_[a-f0-9]{40}", "CircleCI Token"),
    ("sonar_token", "sqp_ squ_ sqa_", r"sq[pua]_[a-f0-9]{40}", "SonarQube Token"),
    (
        "jfrog_token",
        "akcp cmvmdgtu",
        r"(?:AKCp[A-Za-z0-9]{69}|cmVmdGtu[A-Za-z0-9]{56})",
        "JFrog Token",
    ),
    ("bitbucket_app_password", "atbb", r"ATBB[A-Za-z0-9_=.-]{32}", "Bitbucket App Password"),
    ("contentful_token", "cfpat-", r"CFPAT-[A-Za-z0-9_-]{43}", "Contentful Token"),
    (
        "mapbox_secret_token",
        "sk.eyj",
        r"sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}",
        "Mapbox Secret Token",
    ),
    ("shippo_token", "shippo_", r"shippo_(?:live|test)_[a-f0-9]{40}", "Shippo API Token"),
    ("easypost_key", "ezak", r"EZ[AT]K[a-zA-Z0-9]{54}", "EasyPost API Key"),
    (
        "planetscale_token",
        "pscale_",
        r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.=-]{32,64}",
        "PlanetScale Token",
    ),
    ("prefect_key", "pnu_", r"pnu_[A-Za-z0-9]{36}", "Prefect API Key"),
    ("readme_key", "rdme_", r"rdme_[a-z0-9]{70}", "ReadMe API Key"),
    (
        "azure_ad_client_secret",
        "q~",
        r"[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}",
        "Azure AD Client Secret",
    ),
    (
        "cloudflare_origin_ca_key",
        "v1.0-",
        r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}",
        "Cloudflare Origin CA Key",
    ),
    ("heroku_token", "hrku-", r"HRKU-[A-Za-z0-9_-]{60}", "Heroku API Key"),
    ("typeform_token", "tfp_", r"tfp_[A-Za-z0-9_.=-]{59}", "Typeform Token"),
    (
        "backblaze_b2_key",
        "k00",
        # `K00` and a digit, then 27 letters and digits of both cases (rclone's `key = …`)
        r"K00[0-9](?=[A-Za-z0-9]{0,26}[A-Z])(?=[A-Za-z0-9]{0,26}[a-z])[A-Za-z0-9]{27}",
        "Backblaze B2 Application Key",
    ),
    (
        "onepassword_token",
        "ops_eyj",
        r"ops_eyJ[A-Za-z0-9+/=_-]{250,}",
        "1Password Service Account Token",
    ),
    (
        "deepl_free_key",
        ":fx",
        r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:fx",
        "DeepL API Key",
    ),
    ("alibaba_key_id", "ltai", r"LTAI[A-Za-z0-9]{12,20}", "Alibaba Cloud AccessKey"),
    ("adobe_secret", "p8e-", r"p8e-[A-Za-z0-9]{32}", "Adobe Client Secret"),
    (
        "fcm_server_key",
        "aaaa",
        r"AAAA[A-Za-z0-9_-]{7}:[A-Za-z0-9_-]{140}",
        "Firebase Cloud Messaging Key",
    ),
)
"""Tokens known by their documented prefix, each named as its vendor names it (not a label
of `secret_labels`: Claude Code does not refuse these by their shape)."""

SAID: tuple[tuple[str, str, str, str], ...] = (
    # name, needles, pattern (the secret in its `secret` group), what it is in words
    (
        "discord_webhook",
        "discord",
        r"discord(?:app)?\.com/api/webhooks/[0-9]{17,20}/(?P<secret>[\w-]{60,})",
        "a Discord webhook URL",
    ),
    (
        "teams_webhook",
        "webhook.office.com",
        r"\.webhook\.office\.com/webhookb2/(?P<secret>[\w@/-]{40,})",
        "a Microsoft Teams webhook URL",
    ),
    (
        "zapier_webhook",
        "hooks.zapier.com",
        r"hooks\.zapier\.com/hooks/catch/[0-9]+/(?P<secret>[a-z0-9]{6,})",
        "a Zapier webhook URL",
    ),
    (
        "token_in_url",
        "://",
        # `https://<token>@host`: a token as the URL's user, no password after it
        # (not a Sentry DSN's public key, which Sentry says is safe to publish)
        r"(?i)\b[a-z][a-z0-9+.-]{1,30}://(?P<secret>(?=[^@\s/:]{0,200}[0-9])"
        r"(?=[^@\s/:]{0,200}[a-z])[A-Za-z0-9_-]{20,})@(?![\w.-]{0,100}\bsentry\.io\b)",
        "a token in a URL",
    ),
    (
        "pgpass_password",
        ":",
        # `host:port:database:user:password`, a `.pgpass` line (its port a number or `*`)
        r"(?m)^[ \t]*[\w.*-]+:(?:[0-9]{1,5}|\*):[\w*.-]+:[\w*.@-]+:"
        r"(?!\$|\{\{|<)(?P<secret>[^\s:]{6,})[ \t]*$",
        "a password in a .pgpass line",
    ),
    (
        "session_cookie",
        "sess sid",
        # a session cookie given in a `Cookie:` header or `curl -b`: letters and digits, 20+
        r"(?i)(?<![\w.-])(?:[\w.-]*sess(?:ion)?(?:id|_id|key)?|sid|connect\.sid)="
        r"(?P<secret>(?=[^\s;'\"`]{0,200}[0-9])(?=[^\s;'\"`]{0,200}[a-z])[A-Za-z0-9%._+/-]{20,})",
        "a session cookie",
    ),
    (
        "netrc_password",
        "machine",
        r"(?i)\bmachine\s+\S+\s+login\s+\S+\s+password\s+(?!\$|\{\{|<)(?P<secret>\S+)",
        "a password in a .netrc line",
    ),
    (
        "bundler_credentials",
        "bundle ",
        # `bundle config [--local] gems.contribsys.com user:password`: a gem server's login
        r"\bbundle[ \t]+config[ \t]+(?:--(?:local|global)[ \t]+)?(?:set[ \t]+)?"
        r"[\w.:/-]+\.[a-z]{2,}[\w/-]*[ \t]+[\w.@-]+:(?!\$|\{\{|<)(?P<secret>[^\s`'\"]{4,})",
        "a password in a command",
    ),
    (
        "minio_client_secret",
        "mc ",
        # `mc alias set NAME URL ACCESS_KEY SECRET_KEY` (MinIO's client; its default aside)
        r"\bmc[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)[ \t]+\S+[ \t]+\S+[ \t]+\S+[ \t]+"
        r"[\"']?(?!\$|\{\{|<|minioadmin\b)(?P<secret>[^\s\"']{4,})",
        "a secret key in a command",
    ),
    (
        "mysql_glued_password",
        "mysql mariadb",
        r"\b(?:mysql(?:dump|admin|sh)?|mariadb(?:-dump)?)\b"
        r"(?:(?!\bm(?:ysql|ariadb))[^\n|;&])*?[ \t]-p"
        r"(?!\$|\{\{|<)(?P<secret>[^\s\"'`-][^\s\"'`]{3,})",
        "a password in a command",
    ),
    (
        "redis_cli_password",
        "redis-cli",
        r"\bredis-cli\b(?:(?!\bredis-cli\b)[^\n|;&])*?[ \t]-a[ \t]+"
        r"(?!\$|\{\{|<)(?P<secret>[^\s\"'`-][^\s\"'`]{5,})",
        "a password in a command",
    ),
    (
        "openssl_pass",
        "pass:",
        r"-pass(?:in|out)?[ \t]+pass:(?!\$|\{\{|<)(?P<secret>[^\s\"'`]{4,})",
        "a password in a command",
    ),
    (
        "keytool_pass",
        "storepass keypass",
        r"-(?:store|key|src|dest)(?:store)?pass[ \t]+"
        r"(?!\$|\{\{|<)(?P<secret>[^\s\"'`-][^\s\"'`]{3,})",
        "a password in a command",
    ),
    (
        "authorization_scheme",
        "authorization",
        r"(?i)authorization[\"']?\s*[:=]\s*[\"']?(?:token|bot|apikey|key|sso-key)\s+"
        r"(?P<secret>[A-Za-z0-9._~+/=:-]{16,})",
        "a token in an Authorization header",
    ),
    (
        "odbc_password",
        "pwd",
        r"(?i)\b(?:uid|user id|user)\s*=\s*[^;\n]{1,200};\s*pwd\s*=\s*"
        r"(?!\$|\{\{|<)(?P<secret>[^;\s\"']{4,})",
        "a password in a connection string",
    ),
    (
        "aws_secret_key_prompt",
        "secret access key",
        r"(?i)secret access key(?:\s*\[[^\]\n]{0,40}\])?\s*[:=]\s*"
        r"(?P<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])",
        "an AWS secret access key",
    ),
    (
        "license_serial",
        "serial licen product",
        # a product's license serial (Unity's `UNITY_SERIAL`, a Windows product key): upper-case
        # letters and digits in four or more dashed groups, given to a name that says so; a
        # device's serial (`ANDROID_SERIAL=emulator-5554`) and a license's name are not one
        r"(?i)(?<![A-Za-z0-9])(?:[a-z0-9]+[_.-]){0,4}(?:serial|licen[cs]e|product[ _.-]?key)"
        r"(?:[_.-]?(?:key|number|no))?"
        r"\\?[\"']?[ \t]*[:=][ \t]*[\"'`]?"
        r"(?P<secret>(?-i:(?=[A-Z0-9-]{0,60}[A-Z])(?=[A-Z0-9-]{0,60}[0-9])"
        r"[A-Z0-9]{2,6}(?:-[A-Z0-9]{4,6}){3,8}))(?![A-Za-z0-9-])",
        "a license serial",
    ),
    (
        "app_specific_password",
        "password",
        # Apple's: four groups of four lower-case letters (`abcd-efgh-ijkl-mnop`) after "password"
        r"(?i)password\b[^:\n`]{0,40}?:[ \t]+(?P<secret>(?-i:[a-z]{4}(?:-[a-z]{4}){3}))(?![\w-])",
        "an app-specific password",
    ),
    (
        "azure_sas_signature",
        "sig=",
        r"[?&]sig=(?P<secret>[A-Za-z0-9%+/=]{30,})",
        "an Azure SAS signature",
    ),
)
"""Secrets known by how they are said: the value is the `secret` group."""
