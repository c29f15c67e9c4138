"""The sync repository: git run safely, its objects and layout, the scopes it carries, a killed
sync's leftovers."""
