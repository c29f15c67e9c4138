"""The lessons task of a small local model (docs/formats.md §10.2): the digest it is shown
(`digest`), the line of the conversation each of its lessons restates (`evidence`), and what is
kept (`judge`)."""
