"""The search index on disk that everything searching ranks by (docs/formats.md §22.11):
`index` keeps one SQLite FTS5 file per home fresh from the files' stamps, `scoring` turns
FTS5's scores into BM25's, `postings` ranks the same in memory once a server is warm,
`ranking` says how words weigh (Okapi BM25) and which line a result shows. Qt-free; stands
on `store` and `fs` only (an import-linter contract says so).
"""
