"""`memtab contradictions` on tests/support/value_structures.py: a key given two values in a
table, a config fence, a task's command, a named thing's port, version or path is found, and
no near miss of those shapes is (issue 94). The shapes listed in `NOT_READ` are not read:
readers for them found nothing more on the trust corpus's held-out and fresh halves, and
were not kept (docs/trust-quality.md)."""

from __future__ import annotations

from support import contradiction_voices
from support.value_structures import (
    CASES,
    EIGHTH,
    ELEVENTH,
    FIFTH,
    FOURTH,
    NINTH,
    SECOND,
    SEVENTH,
    SIXTH,
    TENTH,
    THIRD,
    TWELFTH,
)

NOT_READ = {
    "```bash\nexport DATABASE_POOL_SIZE=10\n```",
    "```dockerfile\nFROM python:3.12-slim\nENV GUNICORN_WORKERS=4\n```",
    "```makefile\nAPI_PORT ?= 8000\n```",
    "```python\nCELERY_WORKER_CONCURRENCY = 4\n```",
    '```yaml\nservices:\n  web:\n    ports:\n      - "8000:8000"\n```',
    "```yaml\nservices:\n  worker:\n    environment:\n      - CONCURRENCY=4\n```",
    "| Service | Host |\n|---|---|\n| postgres | db01.lan |",
    "| What | Where |\n|---|---|\n| fixtures | `tests/fixtures/` |",
    "```yaml\n- hosts: media\n  vars:\n    jellyfin_port: 8096\n```",
    '```yaml\njobs:\n  - name: backup\n    schedule: "0 3 * * *"\n    retention_days: 7\n```',
    "- NAS IP: 192.168.1.20",
    "- Pi-hole runs on 192.168.1.2.",
    "- The NAS is at 192.168.1.20.",
    "- `restic_keep_daily`: 7",
    '```ini\n[Service]\nEnvironment="JELLYFIN_PORT=8096"\n```',
    "```ini\n[media]\nnas ansible_host=192.168.1.20 ansible_user=oskar\n```",
    "- Requests to the geocoder time out after 3s.",
    "- The Stripe timeout is 10000 ms.",
}
"""Each unread contradiction's first note: a fence of shell exports, a Dockerfile's `ENV`, a
Makefile's `?=`, a program's constant, a compose file's port mappings and environment list, a
table's host or path cell, a list of named mappings, an IP address, a
setting's name in a code span as a label, an inventory's host variables, a unit's
`Environment=`; a timeout in words ("time out after 3s", "a 15s timeout"): read by x101, found
none on held-out or fresh4, taken out. (A service a command starts, "`make lab` opens
JupyterLab on…", was taken out then too; fresh14 and fresh15 each held one, and it is read
again.)"""

found, test_each_kind_s_contradictions_found_and_near_misses_not = contradiction_voices.each_kind(
    CASES
    + SECOND
    + THIRD
    + FOURTH
    + FIFTH
    + SIXTH
    + SEVENTH
    + EIGHTH
    + NINTH
    + TENTH
    + ELEVENTH
    + TWELFTH,
    NOT_READ,
)
