"""The background writer's trace dumps: their format, and reading them for the CLI and GUI."""
