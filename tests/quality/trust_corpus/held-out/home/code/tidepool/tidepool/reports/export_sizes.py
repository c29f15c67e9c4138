import humanize


def describe(size_bytes: int) -> str:
    return humanize.naturalsize(size_bytes)
