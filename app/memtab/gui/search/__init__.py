"""The search box (`box`) and searching on a worker (`tasks`)."""
