"""The search index on disk every searcher ranks by (docs/formats.md §22.11): tantivy, one per home,
kept fresh from the files' stamps; Qt-free, on `store` and `fs` only."""
