"""Alembic environment: the URL comes from the app's settings."""
from alembic import context
from app.config import settings

config = context.config
config.set_main_option("sqlalchemy.url", settings.database_url)
