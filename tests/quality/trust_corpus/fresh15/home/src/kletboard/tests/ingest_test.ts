// Ingest rejects a wrong token and accepts a batch.
