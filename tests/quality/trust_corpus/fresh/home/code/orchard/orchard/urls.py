"""The project's URL configuration."""
