"""arq worker settings."""
from app.workers.tasks import release_unpaid


class WorkerSettings:
    functions = [release_unpaid]
