"""Places a memory names besides hosts (docs/formats.md §19.7): addresses with a port or
logged in to (`10.40.12.7:5432`, `ssh etl@10.61.4.22`, `HostName 10.61.4.22`), buckets
(`s3://kelp-exports`, `gs://…`, `arn:aws:s3:::…`, `bucket = "…"`), ARNs, kube contexts
(`--context kelp-prod`, `use-context …`, `kubectx …`), cloud project ids (`--project
fernhill-tern`, `gcloud config set project …`, a resource's `projects/<id>/`, never a
folder's `~/projects/…`), and repositories
(`git@host:org/name.git`, `https://host/org/name`).

Each is owned as a host is (`hosts.project_hosts`): by a project's word among its labels
(split at `.`, `-`, `_`, `:` and `/`) and that project's memory naming it too, or by being
named in that project's memory most. An address has no labels: only the second. Nobody's
places are left out: this machine's and a container's addresses, the documentation's
(RFC 5737), a cloud's metadata service, a public resolver, local clusters' contexts, the
documentation's example buckets. A repository is no host of a project's: its URL names the
project as any line does, by the project's name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

REPOSITORY = "repo:"
"""What a repository's place starts with (`repo:github.com/fernhill/tern`)."""
_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
_ADDRESS = re.compile(
    rf"(?:(?<=@)|(?<=hostname )|(?<=//)|(?<![\w.:/-]))({_OCTET}(?:\.{_OCTET}){{3}})"
    r"(?P<port>:\d{2,5})?(?![\w.-]|:\w)"
)
_NOBODY_S_ADDRESS = re.compile(
    r"^(?:127\.|0\.|169\.254\.|192\.0\.2\.|198\.51\.100\.|203\.0\.113\.|255\.|224\.|192\.168\.)"
    r"|^(?:172\.17\.0\.1|10\.0\.2\.2|8\.8\.8\.8|8\.8\.4\.4|1\.1\.1\.1|1\.0\.0\.1|9\.9\.9\.9)$"
)
"""This machine's, a container host's, documentation's, link-local, broadcast and multicast
addresses, a home or office network's (`192.168.…`: the user's own machines, named by any
project), and public resolvers: nobody's."""
_BUCKET = re.compile(
    r"\b(?:s3|gs|s3a|s3n|az|abfss?)://([a-z0-9][a-z0-9._-]{2,62})(?![\w-])"
    r"|\barn:aws:s3:::([a-z0-9][a-z0-9._-]{2,62})(?![\w-])"
    r"|\bbucket[\"']?\s*[=:]\s*[\"']([a-z0-9][a-z0-9._-]{2,62})[\"']"
    r"|--bucket[= ]([a-z0-9][a-z0-9._-]{2,62})(?![\w-])"
)
_ARN = re.compile(r"\barn:aws[\w-]*:(?!s3:)[\w-]+:[\w-]*:\d{0,12}:[\w./:+=@-]{3,200}")
_CONTEXT = re.compile(
    r"(?:--context[= ]|use-context\s+|kubectx\s+|--kube-context[= ])"
    r"[\"']?([A-Za-z0-9][\w.:@/-]{2,120})"
)
_LOCAL_CONTEXT = re.compile(
    r"^(?:kind-.*|k3d-.*|minikube|docker-desktop|docker-for-desktop|rancher-desktop|orbstack"
    r"|colima|microk8s|default|local|dev|prod|staging)$"
)
_CLOUD_PROJECT = re.compile(
    r"(?:--project[= ]|\bset project\s+|(?<![\w/.~-])projects/|\bproject_id\s*[=:]\s*[\"']?)"
    r"([a-z][a-z0-9-]{4,28}[a-z0-9])(?![\w-])"
)
_EXAMPLE = re.compile(r"(?:^|[-_.])(?:example|demo|sample|my|your|test|foo|bar)(?:[-_.]|$)")
"""What documentation names a bucket or project it makes up (`amzn-s3-demo-bucket`,
`my-bucket`, `your-project-id`)."""
_REPOSITORY = re.compile(
    r"(?P<ssh>\bgit@|\bssh://git@|\bhttps?://(?:[\w.-]+@)?)"
    r"((?:[a-z0-9-]+\.)+[a-z]{2,12})(?::\d+)?[:/]"
    r"([a-z0-9_.-]+(?:/[a-z0-9_.-]+)*?)/([a-z0-9_.-]+?)(?P<git>\.git)?(?=[/)\s>\]`'\",;#?]|$)"
)
_CODE_HOST = re.compile(r"^(?:git|gitlab|github|bitbucket|gitea|forgejo|code|scm|source)\.")
"""A company's own code host (`gitlab.fernhill.io`, `git.acme.com`)."""
_PUBLIC_CODE_HOSTS = frozenset(
    {"github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "git.sr.ht", "sr.ht"}
)
_LABELS = re.compile(r"[._:/]")
_DIGIT_DOT = re.compile(r"\d\.\d")
_NEEDLES = ("://", "arn:", "context", "kubectx", "project", "bucket", "@", "hostname")


def places_in(line: str) -> list[str]:
    """The places besides hosts that `line` names, each once, in the order written
    (repositories as `REPOSITORY` + `host/owner/name`, lower-case)."""
    lowered = line.lower()
    found: list[str] = []
    if lowered.count(".") >= 3 and _DIGIT_DOT.search(lowered):
        found += [
            match.group(1)
            for match in _ADDRESS.finditer(lowered)
            if not _NOBODY_S_ADDRESS.search(match.group(1))
            and (match.group("port") or _logged_in(lowered, match.start()))
        ]
    if not any(needle in lowered for needle in _NEEDLES):
        return list(dict.fromkeys(found))
    found += [
        next(group for group in match.groups() if group) for match in _BUCKET.finditer(lowered)
    ]
    found += [match.group(0) for match in _ARN.finditer(lowered)]
    found += [
        match.group(1)
        for match in _CONTEXT.finditer(lowered)
        if not _LOCAL_CONTEXT.match(match.group(1))
    ]
    found += [match.group(1) for match in _CLOUD_PROJECT.finditer(lowered)]
    found = [place for place in found if not _EXAMPLE.search(place)]
    found += [
        f"{REPOSITORY}{match.group(2)}/{match.group(3)}/{match.group(4)}"
        for match in _REPOSITORY.finditer(lowered)
        if _code_host(match) and not _placeholder(match.group(3), match.group(4))
    ]
    return list(dict.fromkeys(found))


def _logged_in(lowered: str, at: int) -> bool:
    """Whether the address at `at` is logged in to or a host's address (`etl@10.0.4.2`,
    `HostName 10.0.4.2`, `//10.0.4.2/`)."""
    before = lowered[max(0, at - 9) : at]
    return before.endswith(("@", "hostname ", "//"))


def _code_host(match: re.Match[str]) -> bool:
    """Whether a URL is a repository's: cloned over ssh, ending in `.git`, or on a code host."""
    host = match.group(2)
    return (
        match.group("ssh").startswith(("git@", "ssh:"))
        or match.group("git") is not None
        or host in _PUBLIC_CODE_HOSTS
        or _CODE_HOST.match(host) is not None
    )


def _placeholder(*parts: str) -> bool:
    return any(part in ("org", "repo", "owner", "user", "name", "project") for part in parts)


def is_address(place: str) -> bool:
    return place[:1].isdigit() and place.replace(".", "").isdigit()


def named_by_labels(place: str, words: Mapping[str, tuple[str, ...]]) -> list[str]:
    """The projects a label of a place besides a host names (an address: none)."""
    if is_address(place) or place.startswith(REPOSITORY):
        return []
    labels = [f"-{label}-" for label in _LABELS.split(place.replace("_", "."))]
    return [
        project
        for project, said in words.items()
        if any(f"-{word}-" in label for word in said for label in labels)
    ]
