"""Hosts a memory names, and the project each one is (docs/formats.md §19.7).

A host is a name of three labels or more, in a URL (`https://staging.acme.io/x`,
`postgres://u:p@db.acme.internal`), logged in to (`ssh deploy@bastion.acme.io`) or written
bare (`db.acme.internal`; not followed by `(`: `request.log.info(` is code), or of two on a
private network's suffix (`ledger-db.internal`); a site's public face (`tidewater.dev`) is no
host here. Public services' hosts (`github.com`) are no project's, nor a site's front door
(`docs.x.io`, `api.x.io`) but by its name. A host is a project's
when its labels name that project and that project's memory names it too (on a private
network's suffix or a customer's name on a hosting service, its labels alone:
`db-2.harbor.internal`, `harbor-prod.x1.rds.amazonaws.com`): a subdomain's
label is, or holds between dashes, the project's folder name or its first word
(`staging.harbor.acme.io` is `harbor-api`'s); the domain's own label only by the whole
folder name (`api.tidewater.dev`, `db.tidewater-prod.internal`), and not when it is the
first word of another project's name too (`acme.io` of `acme` and `acme-mobile` is the
company's). Else, off a hosting service, a host is a project's when that project's memories
name it in two files or more and in more files than any other project's do (global memory's
count for none: a company's Sentry, named by one project and global memory, is no
project's); or when another project's line naming it says it is that project's
(`said_owners`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from memtab.trust.leaks.places import REPOSITORY, named_by_labels

_URL_HOST = re.compile(
    r"\b[a-z][a-z0-9+.-]{0,30}://(?:[^\s/@?#]{0,200}@)?"
    r"((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){2,}[a-z]{2,12})(?![\w-])"
)
_BARE_HOST = re.compile(
    r"(?<![\w.@/-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){2,}[a-z]{2,12})(?![\w(-])"
)
_SSH_HOST = re.compile(
    r"\b(?:ssh|scp|rsync|sftp|mosh)\b[^\n]{0,200}?[\w.-]+@"
    r"((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){1,}[a-z]{2,12})(?![\w(-])"
)
"""A host logged in to as a user (`ssh deploy@bastion.acme.internal`): an address's
`user@` is no host's mark elsewhere (an e-mail is a person's, not a project's)."""
_PRIVATE_HOST = re.compile(
    r"(?:(?<=//)|(?<=\w@)|(?<![\w.@/-]))([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\."
    r"(?:internal|lan|corp|intranet|localdomain))(?![\w(-]|\.\w)"
)
"""A host of two labels on a private network's suffix (`ledger-db.internal`): never a public
site, so named like a host of three."""
_PRIVATE_SUFFIXES = (".internal", ".lan", ".corp", ".intranet", ".localdomain")
_PUBLIC = re.compile(
    r"(?:^|\.)(?:github|gitlab|bitbucket|npmjs|pypi|python|google|googleapis|microsoft|"
    r"apple|docker|anthropic|openai|readthedocs|wikipedia|stackoverflow|cloudflare|"
    r"example|slack|stripe|atlassian|sentry|datadoghq)\.[a-z]+$"
)
"""Public services: no project's host."""
_FRONT = re.compile(r"^(?:www|docs|api)\.[^.]+\.[a-z]+$")
"""A site's front doors (`api.stripe.com`, `docs.x.io`): a project's only by its name."""
_HOSTING = re.compile(
    r"\.(?:amazonaws\.com|herokuapp\.com|vercel\.app|netlify\.app|github\.io|gitlab\.io|"
    r"azurewebsites\.net|cloudfront\.net|appspot\.com|run\.app|fly\.dev|pages\.dev|"
    r"workers\.dev|onrender\.com|web\.app|firebaseapp\.com)$"
)
"""Hosting services: a customer's host there is its by its name alone (many projects name
the service's own, `s3.eu-central-1.amazonaws.com`)."""
_FILE_ENDINGS = frozenset(
    {"md", "py", "ts", "js", "json", "yaml", "yml", "toml", "txt", "sh", "tsx", "go", "rs"}
)
_GENERIC = """api app apps web www site docs doc data core main admin auth test tests prod
    staging dev service services server client backend frontend common shared tools infra
    deploy platform mobile android ios cli lib sdk user users billing payments mail"""
_GENERIC_WORDS = frozenset(_GENERIC.split())
"""Words too common to say which project a host is (`api-gateway`, `billing-ledger`)."""
MIN_FILES = 2
_POSSESSIVE = re.compile(r"(?<![\w.-])([a-z0-9][a-z0-9_-]*+)['’]s(?=\s)")
_SCHEME_TAIL = re.compile(r"(?<![\w+.-])[a-z][\w+.-]*+://(?:[^\s/@]*+@)?$")
_LINKS = (" is", " are", " at", ":", "=", "(", "—", "–", "->", "→", " is at", " lives at")
"""What links a thing's name to where it is ("… API is", "… staging:")."""
_CUSTOMER_LABEL = re.compile(
    r"(?=[\w-]{6})(?=[\w-]*[\d-])(?![\w-]*-(?:[a-z]+-)?(?:east|west|north|south|central)-\d)"
)
"""A customer's own name on a hosting service (`d2hq7rt0v1x`, `harbor-staging-db`), not a
service's endpoint (`s3`, `dynamodb`, `s3-eu-west-1`)."""
_HOST_SHAPE = re.compile(r"^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,12}$")


def hosts_in(line: str) -> list[str]:
    """The hosts `line` names, each once, lower-case, in the order written."""
    if line.count(".") < 2 and not any(suffix in line for suffix in _PRIVATE_SUFFIXES):
        return []  # most lines: a sentence's full stop
    lowered = line.lower()
    found = [m.group(1) for m in _URL_HOST.finditer(lowered)] if "://" in lowered else []
    found += [m.group(1) for m in _BARE_HOST.finditer(lowered)]
    if "@" in lowered:
        found += [m.group(1) for m in _SSH_HOST.finditer(lowered)]
    found += [m.group(1) for m in _PRIVATE_HOST.finditer(lowered)]
    if not found:
        return []
    return [
        host
        for host in dict.fromkeys(found)
        if not _PUBLIC.search(host) and host.rsplit(".", 1)[-1] not in _FILE_ENDINGS
    ]


def project_words(path: str, names: Iterable[str]) -> tuple[str, ...]:
    """What a host's label may say of the project at `path` (`names`: its names): its
    folder's name, and that name's first word when it is one of its own."""
    folder = path.rstrip("/").rsplit("/", 1)[-1].lower()
    words = [folder] if folder and folder not in _GENERIC_WORDS else []
    first = folder.replace("_", "-").partition("-")[0]
    if first != folder and len(first) >= 4 and first.isalpha() and first not in _GENERIC_WORDS:
        words.append(first)
    return tuple(dict.fromkeys(words))


def project_hosts(
    named_by: Sequence[tuple[str | None, Iterable[str]]],
    words: Mapping[str, tuple[str, ...]],
    companies: frozenset[str] | None = None,
    evidence: Mapping[str, str | None] | None = None,
) -> dict[str, str]:
    """Each host (or other place, `places`) that is a project's → that project (see the
    module doc); `named_by`: each memory's project (None: of no project) and the hosts it
    names; `words`: each project's `project_words`; `evidence`: what the projects'
    checkouts name (`checkouts.evidence`)."""
    evidence = {} if evidence is None else evidence
    counts: dict[str, dict[str | None, int]] = defaultdict(lambda: defaultdict(int))
    for project, hosts in named_by:
        for host in set(hosts):
            if not host.startswith(REPOSITORY):
                counts[host][project] += 1
    labelled = {host: _named_by_labels(host, words) for host in counts}
    if companies is None:
        companies = _company_domains(labelled)
    owners: dict[str, str] = {}
    for host, by_project in counts.items():
        named = labelled[host]
        # a private network's host, and a customer's name on a hosting service
        # (`glossa-prod.c8x….rds.amazonaws.com`), is no public site: its labels say whose it is
        private = host.endswith(_PRIVATE_SUFFIXES) or _customer_s(host)
        if len(named) == 1 and (
            by_project.get(named[0]) or evidence.get(host) == named[0] or private
        ):
            owners[host] = named[0]
            continue
        if named or _FRONT.match(host):
            continue
        if host in evidence:
            said = evidence[host]  # one checkout's (None: several checkouts', shared)
            if said is not None and _owned_by_evidence(host, by_project, companies):
                owners[host] = said
            continue
        if _HOSTING.search(host):
            continue
        if _company_s(host, companies):
            continue  # the company's own service (its Grafana, its registry): nobody's
        ranked = sorted(((n, p) for p, n in by_project.items() if p is not None), reverse=True)
        if (
            ranked
            and ranked[0][0] >= MIN_FILES
            and (len(ranked) == 1 or ranked[0][0] > ranked[1][0])
        ):
            owners[host] = ranked[0][1]
    return owners


def _owned_by_evidence(
    host: str, by_project: Mapping[str | None, int], companies: frozenset[str]
) -> bool:
    """Whether the one checkout naming `host` makes it its project's: not a company's
    service global memory names (its Sentry, every project's)."""
    return not (_company_s(host, companies) and by_project.get(None))


def ownable(host: str, domains: frozenset[str]) -> bool:
    """Whether a host a checkout names may be its project's own: on a private network,
    under one of the user's `domains` (the company's: see `checkouts.evidence`), or a
    customer's name on a hosting service (not its endpoint, `s3.eu-central-1.amazonaws.com`);
    never a third party's (`api-eu.dhl.com`, `cdn.jsdelivr.net`)."""
    if not _HOST_SHAPE.match(host):
        return True  # an address, a bucket, a context: no one else's name
    if host.endswith(_PRIVATE_SUFFIXES) or _domain(host) in domains:
        return True
    return _customer_s(host)


def _customer_s(host: str) -> bool:
    """Whether `host` is a customer's own name on a hosting service (`_CUSTOMER_LABEL`)."""
    return _HOSTING.search(host) is not None and _CUSTOMER_LABEL.match(host) is not None


def domain_of(host: str) -> str | None:
    """The domain a host name is under (`fernhill.io` of `api.tern.fernhill.io`); None for
    a place that is no host name."""
    return _domain(host) if _HOST_SHAPE.match(host) and not _HOSTING.search(host) else None


def company_domains(hosts: Iterable[str], words: Mapping[str, tuple[str, ...]]) -> frozenset[str]:
    """`_company_domains` of the hosts named."""
    return _company_domains({host: _named_by_labels(host, words) for host in set(hosts)})


def _company_domains(labelled: Mapping[str, list[str]]) -> frozenset[str]:
    """The domains under which hosts named by two projects' labels or more are: a company's
    (`fernhill.io` of `staging.kelp.fernhill.io` and `api.tern.fernhill.io`)."""
    projects: dict[str, set[str]] = defaultdict(set)
    for host, named in labelled.items():
        if named and _HOST_SHAPE.match(host) and not _HOSTING.search(host):
            projects[_domain(host)].update(named)
    return frozenset(domain for domain, named in projects.items() if len(named) > 1)


def _company_s(host: str, companies: frozenset[str]) -> bool:
    return _HOST_SHAPE.match(host) is not None and _domain(host) in companies


def _domain(host: str) -> str:
    return host.split(".", host.count(".") - 1)[-1]


def _named_by_labels(host: str, words: Mapping[str, tuple[str, ...]]) -> list[str]:
    """The projects a label of `host` names (see the module doc)."""
    if not _HOST_SHAPE.match(host):
        return named_by_labels(host, words)
    *subdomain, domain, _ = [f"-{label}-" for label in host.split(".")]
    firsts = {said[-1] for said in words.values() if len(said) > 1}
    company = any(f"-{first}-" in domain for first in firsts)
    return [
        project
        for project, said in words.items()
        if any(f"-{word}-" in label for word in said for label in subdomain)
        or (said and not company and f"-{said[0]}-" in domain)
    ]


def said_owners(
    mentions: Iterable[tuple[str | None, str, str]],
    owners: Mapping[str, str],
    words: Mapping[str, tuple[str, ...]],
    companies: frozenset[str] = frozenset(),
    shared: frozenset[str] = frozenset(),
) -> dict[str, str]:
    """Hosts of no project by `project_hosts` that a project's memory names on a line saying
    whose it is (`ledgerly's Metabase: https://bi.acme.cloud`), when that project's memory
    names it too → that project; `mentions`: each memory's project, a host it names and
    that line; `shared`: hosts several projects' checkouts name (nobody's)."""
    named_in: dict[str, set[str]] = defaultdict(set)
    said: list[tuple[str, str, str]] = []
    for project, host, line in mentions:
        if project is None or host in owners or host in shared or host.startswith(REPOSITORY):
            continue
        named_in[host].add(project)
        said.append((project, host, line))
    found: dict[str, set[str]] = defaultdict(set)
    for project, host, line in said:
        if _HOSTING.search(host) or _FRONT.match(host) or _company_s(host, companies):
            continue
        lowered = line.lower()
        if named_in[host] == {project}:  # only this project's memory names it
            found[host].update(_possessor(lowered, host, words) - {project})
        for other in named_in[host] - {project}:
            if any(_says_word(lowered, word) for word in words.get(other, ())):
                found[host].add(other)
    return {host: next(iter(them)) for host, them in found.items() if len(them) == 1}


def _possessor(line: str, host: str, words: Mapping[str, tuple[str, ...]]) -> set[str]:
    """The projects whose possessive leads to `host` on `line` (lower-case), as English
    says whose a thing is: "dockyard's canary API is https://…", "harbor's staging:
    https://…" — the possessive, a few words naming the thing, then a link (is, at, `:`,
    `=`, `(`, a dash, an arrow) or none; not "harbor's deploys push to …"."""
    at = line.find(host)
    if at < 0 or "s" not in line[:at]:
        return set()
    head = line[max(0, at - 160) : at].rstrip("`'\"<[*")
    scheme = _SCHEME_TAIL.search(head)
    head = (head[: scheme.start()] if scheme is not None else head).rstrip("`'\"<[* ")
    owners = set()
    for possessive in _POSSESSIVE.finditer(head):
        between = head[possessive.end() :].strip()
        if len(between.split()) > 5 or not (not between or between.endswith(_LINKS)):
            continue
        name = possessive.group(1)
        owners |= {project for project, said in words.items() if name in said}
    return owners


def _says_word(line: str, word: str) -> bool:
    """Whether `line` (lower-case) says `word` as a word of its own (`ledgerly's` too)."""
    at = line.find(word)
    while at >= 0:
        before = line[at - 1] if at else " "
        after = line[at + len(word) : at + len(word) + 2].ljust(2)
        inside = after[0] in "-_" or (after[0] in ".@" and after[1].isalnum())
        if not (before.isalnum() or before in "-_.@") and not (after[0].isalnum() or inside):
            return True
        at = line.find(word, at + 1)
    return False
