"""The editor panel around the open files, without Qt: its tabs."""
