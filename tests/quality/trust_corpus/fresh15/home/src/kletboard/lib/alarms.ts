// Threshold checks run on every ingest.
