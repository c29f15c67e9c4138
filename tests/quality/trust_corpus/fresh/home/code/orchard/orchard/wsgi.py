"""WSGI entry point for gunicorn."""
