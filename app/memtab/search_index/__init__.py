"""The search index on disk that every searcher ranks by (docs/formats.md §22.11): `index`
keeps one tantivy index per home fresh from the files' stamps and ranks by BM25 with the
label weighted, `documents` says what it holds of a file, `opening` opens it private and
safe (in memory when it cannot be used), `ranking` says what a text's words are and which
line a result shows, `substrings` gives the window's search its candidates. Qt-free;
stands on `store` and `fs` only (an import-linter contract says so).
"""
