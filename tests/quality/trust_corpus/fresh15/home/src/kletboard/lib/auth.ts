// Ingest token and session cookies.
