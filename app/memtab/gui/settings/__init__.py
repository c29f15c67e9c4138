"""The Settings dialog (`dialog`) and its keys per provider and host (`keys`)."""
