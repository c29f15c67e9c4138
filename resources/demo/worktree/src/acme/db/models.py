"""SQLAlchemy 2.0 models."""
