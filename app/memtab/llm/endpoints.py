"""The providers' official endpoints and the rules for where a request (and a key) may go.
Importable without loading httpx2: settings need these rules at start-up, the providers themselves
are loaded only when a model is called."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit, urlunsplit

DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com"
DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1"
OFFICIAL_HOSTS = {"anthropic": "api.anthropic.com", "openai": "api.openai.com"}
DEFAULT_BASE_URLS = {"anthropic": DEFAULT_ANTHROPIC_BASE_URL, "openai": DEFAULT_OPENAI_BASE_URL}
_DEFAULT_PORTS = {"http": 80, "https": 443}
LOOPBACK_NAMES = "localhost, 127.0.0.0/8 and ::1"


def url_host(url: str) -> str:
    """The host of `url`, lower-case, without brackets or port ('' when there is none)."""
    try:
        return (urlsplit(url.strip()).hostname or "").lower()
    except ValueError:
        return ""


def display_url(url: str) -> str:
    """The URL as shown in messages and settings: without credentials, query or fragment
    (where keys might hide); the scheme and host lower-case."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    where = parts.netloc.rpartition("@")[2].lower()
    return urlunsplit((parts.scheme.lower(), where, parts.path, "", ""))


def key_origin(url: str) -> str:
    """Where a key given with base URL `url` may go: `scheme://host[:port]`, lower-case, the
    scheme's default port left out ('' for a URL without a host). A key typed for one origin is sent
    to another only after the user confirms it (docs/formats.md §12.3)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return ""
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if not scheme or not host:
        return ""
    where = f"[{host}]" if ":" in host else host
    if port is not None and port != _DEFAULT_PORTS.get(scheme):
        where += f":{port}"
    return f"{scheme}://{where}"


def origin_label(origin: str) -> str:
    """An origin as the user reads it: `api.anthropic.com`, `http://127.0.0.1:8099` (https
    is implied; plain http is said)."""
    return origin.removeprefix("https://")


def is_loopback_host(host: str) -> bool:
    """True for `localhost` and addresses of this machine (127.0.0.0/8, ::1)."""
    host = host.strip().strip("[]").lower().rstrip(".")
    if host == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def base_url_problem(url: str) -> str | None:
    """Why `url` cannot be a model endpoint (one line), or None when it can."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port  # raises ValueError for a port that is not a number
    except ValueError as error:
        return f"the base URL {url!r} is not a valid URL ({error})"
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        return f"the base URL {url!r} must start with https:// (or http:// for this machine)"
    if scheme == "http" and not is_loopback_host(parts.hostname):
        where = parts.hostname + (f":{port}" if port is not None else "")
        return (
            f"the base URL {url!r} uses plain http:// to {where}, which is not this machine; "
            f"use https:// (plain http is allowed only for {LOOPBACK_NAMES})"
        )
    return None


def is_official_endpoint(provider: str, url: str) -> bool:
    """True when `url` is `provider`'s official API: https, its host, the default port."""
    official = OFFICIAL_HOSTS.get(provider)
    if official is None:
        return False
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return False
    return (
        parts.scheme.lower() == "https"
        and (parts.hostname or "").lower() == official
        and port in (None, 443)
        and not parts.username
        and not parts.password
    )
