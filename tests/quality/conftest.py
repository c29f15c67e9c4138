"""The trust corpus's checkouts are other projects' files, their tests included: data, not tests."""

collect_ignore = ["trust_corpus"]
